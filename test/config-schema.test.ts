/**
 * The first steps of the configuration: the config file's JSON Schema
 * (config.schema.json, from the zod schema), a suggestion for an unknown key,
 * an upstream that is not http(s) refused in one line (exit 2), and a hint for
 * an upstream URL that does not look like a REST root.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_FILE, configSchemaText } from '../scripts/config-schema.ts';
import { ConfigError, SETTINGS, loadConfig, settingPaths, suggestKey, upstreamHint } from '../src/config.ts';
import { GATEWAY_CLI, runCli } from './helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'sitegraph-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};

describe('config.schema.json', () => {
  const schema = JSON.parse(readFileSync(CONFIG_SCHEMA_FILE, 'utf8'));

  it('is what npm run config-schema writes (current with src/config.ts)', () => {
    expect(readFileSync(CONFIG_SCHEMA_FILE, 'utf8')).toBe(configSchemaText());
  });

  it('has every setting, described with its variable, and refuses other keys', () => {
    for (const s of SETTINGS) {
      let at = schema;
      for (const k of s.path.split('.')) at = at.properties[k];
      expect(at.description, s.path).toContain(s.env);
    }
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.cache.additionalProperties).toBe(false);
    expect(schema.properties.cache.properties.ttlSeconds).toMatchObject({ type: 'integer', default: 10 });
  });

  it('is accepted as the $schema of a config file', () => {
    const path = file('with-schema.json', {
      $schema: './node_modules/sitegraph/config.schema.json',
      cache: { ttlSeconds: 5 },
    });
    expect(loadConfig({}, { config: path }).cache.ttlSeconds).toBe(5);
  });
});

describe('an unknown key of the config file', () => {
  it('is refused with the key it most likely meant', () => {
    expect(suggestKey('cacheTtlSeconds')).toBe('cache.ttlSeconds');
    expect(suggestKey('CACHE_TTL_SECONDS')).toBe('cache.ttlSeconds');
    expect(suggestKey('limits.upstreamConcurency')).toBe('limits.upstreamConcurrency');
    expect(suggestKey('prot')).toBe('port');
    expect(suggestKey('completelyUnrelatedThing')).toBeUndefined();
    expect(settingPaths()).toContain('limits.upstreamConcurrency');
    const path = file('typo.json', { cacheTtlSeconds: 5 });
    expect(() => loadConfig({}, { config: path })).toThrow(ConfigError);
    expect(() => loadConfig({}, { config: path })).toThrow(
      `unknown key "cacheTtlSeconds" (did you mean "cache.ttlSeconds"?)`,
    );
  });
});

describe('the upstream URL', () => {
  it('must be http or https: one line, exit code 2', async () => {
    expect(() => loadConfig({}, { upstream: 'ftp://x/' })).toThrow(/upstreamUrl.*http:\/\/ or https:\/\//s);
    const r = await runCli(GATEWAY_CLI, ['--upstream', 'ftp://x/']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^sitegraph: invalid configuration: .*--upstream.*http:\/\/ or https:\/\//);
    expect(r.stdout).toBe('');
  });

  it('without /wp-json/ gets a hint; a REST root gets none', () => {
    expect(upstreamHint('http://example.org/')).toMatch(/has no \/wp-json\/.*\/readyz stays 503/);
    expect(upstreamHint('https://example.org/wp-json/')).toBeUndefined();
    expect(upstreamHint('https://example.org/blog/wp-json')).toBeUndefined();
    expect(upstreamHint('https://example.org/?rest_route=/')).toBeUndefined();
  });
});
