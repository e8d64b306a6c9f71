/**
 * The first steps of the configuration: the settings table (src/settings.ts) and the four things made from
 * it (the validated config, --help, config.schema.json, docs/configuration.md's table), a suggestion for an
 * unknown key, an upstream that is not http(s) refused in one line (exit 2), and a hint for an upstream URL
 * that does not look like a REST root.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { columns } from '../src/cli-kit.ts';
import {
  CONFIG_DOC_FILE,
  CONFIG_SCHEMA_FILE,
  configDocText,
  configSchemaText,
  settingsDocTable,
} from '../scripts/config-schema.ts';
import {
  ConfigError,
  SETTINGS,
  configJsonSchema,
  configSchema,
  loadConfig,
  settingPaths,
  suggestKey,
  upstreamHint,
} from '../src/config.ts';
import { formatBytes, formatMs, setting, settingDefault, settingHelpRow, settingsSchema } from '../src/settings-kit.ts';
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

describe('the settings table: one row, four outputs', () => {
  const help = columns(SETTINGS.map(settingHelpRow));
  const json = configJsonSchema();
  const docs = settingsDocTable();
  const property = (schema: any, path: string) =>
    path.split('.').reduce((at, k) => at?.properties?.[k], schema) as Record<string, unknown> | undefined;

  it('has every row in the schema, the help, the JSON Schema and the docs, and the files on disk are current', () => {
    expect(settingPaths().sort()).toEqual(SETTINGS.map((s) => s.path).sort());
    for (const s of SETTINGS) {
      expect(help, s.env).toMatch(new RegExp(`^  ${s.env} +${settingDefault(s).replace(/[()]/g, '\\$&')} `, 'm'));
      expect(property(json, s.path)?.description, s.path).toContain(s.env);
      expect(docs, s.env).toContain(`| \`${s.env}\``);
      expect(docs, s.path).toContain(`| \`${s.path}\` |`);
    }
    expect(readFileSync(CONFIG_SCHEMA_FILE, 'utf8')).toBe(configSchemaText());
    const doc = readFileSync(CONFIG_DOC_FILE, 'utf8');
    expect(doc).toBe(configDocText(doc));
    expect(doc).toContain(docs);
  });

  it('puts a new row in all four, bounds and default included', () => {
    const row = setting({
      env: 'SITEGRAPH_TEST_WIDGETS',
      path: 'testOnly.widgets',
      type: 'int',
      default: 3,
      min: 1,
      max: 9,
      meaning: 'widgets per test',
      doc: 'widgets per *test*',
    });
    const rows = [...SETTINGS, row];
    const schema = settingsSchema(rows);
    // 1. Validation: the default fills an absent section, the bounds refuse, and the type says so.
    const parsed: number = schema.parse({}).testOnly.widgets;
    expect(parsed).toBe(3);
    expect(schema.parse({ testOnly: { widgets: 9 } }).testOnly.widgets).toBe(9);
    const refused = schema.safeParse({ testOnly: { widgets: 10 } });
    expect(refused.error?.issues).toMatchObject([{ path: ['testOnly', 'widgets'], message: /Too big/ }]);
    // 2. Help.
    expect(columns(rows.map(settingHelpRow))).toMatch(/^ {2}SITEGRAPH_TEST_WIDGETS +3 +widgets per test$/m);
    // 3. JSON Schema.
    expect(property(configJsonSchema(schema, rows), 'testOnly.widgets')).toEqual({
      type: 'integer',
      default: 3,
      minimum: 1,
      maximum: 9,
      description: 'widgets per test (SITEGRAPH_TEST_WIDGETS)',
    });
    expect(property(configJsonSchema(schema, rows), 'testOnly')).toMatchObject({ additionalProperties: false });
    // 4. Docs.
    expect(settingsDocTable(rows).split('\n')).toContain(
      '| `SITEGRAPH_TEST_WIDGETS` | `testOnly.widgets` | `3` | 1–9 | widgets per *test* |',
    );
  });

  it('refuses a row whose default its own bounds refuse, and a path declared twice', () => {
    expect(() =>
      setting({ env: 'SITEGRAPH_TEST_BAD', path: 'bad', type: 'int', default: 0, min: 1, meaning: 'bad' }),
    ).toThrow(/SITEGRAPH_TEST_BAD's default is refused by its own row: Too small/);
    expect(() =>
      setting({
        env: 'SITEGRAPH_TEST_BAD',
        path: 'bad',
        type: 'enum',
        values: ['a', 'b'],
        default: 'c',
        meaning: 'bad',
      }),
    ).toThrow(/SITEGRAPH_TEST_BAD's default/);
    const port = SETTINGS.find((s) => s.path === 'port')!;
    expect(() => settingsSchema([...SETTINGS, { ...port, env: 'PORT_AGAIN' }])).toThrow(/port is declared twice/);
    expect(() => settingsSchema([...SETTINGS, { ...port, path: 'port.inner' }])).toThrow(/below the setting port/);
  });

  it('gives milliseconds and bytes in their unit, from the number', () => {
    expect([formatMs(15_000), formatMs(2_500), formatMs(500)]).toEqual(['15 s', '2.5 s', '500 ms']);
    expect([formatBytes(64 * 1024 * 1024), formatBytes(1024), formatBytes(1000)]).toEqual([
      '64 MiB',
      '1 KiB',
      '1000 bytes',
    ]);
    const deadline = SETTINGS.find((s) => s.env === 'OPERATION_DEADLINE_MS')!;
    expect(settingDefault(deadline)).toBe('15000 (15 s)');
    expect(configSchema.parse({}).session.deadlineMs).toBe(15_000);
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
