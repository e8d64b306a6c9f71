/**
 * src/config.ts and the settings table it is made from (src/settings.ts): every default pinned (a change is
 * deliberate: update the row and its reason, then `npm run config-schema` for the docs), the table complete,
 * and the sources' precedence: flags > environment > config file > defaults, with errors naming the flag,
 * variable or file path to fix.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_DOC_FILE, configDocText } from '../scripts/config-schema.ts';
import {
  CONFIG_FILE_SETTING,
  ConfigError,
  SETTINGS,
  adminPortOf,
  configSchema,
  loadConfig,
  readConfigFile,
  settingPaths,
} from '../src/config.ts';

/** Every setting's default, by dotted path. */
const DEFAULTS: Record<string, unknown> = {
  port: 4000,
  host: '127.0.0.1',
  upstreamUrl: undefined,
  serviceAuth: undefined,
  authSchemes: ['Basic'],
  'upstream.connections': 16,
  'upstream.connectTimeoutMs': 2000,
  'upstream.headersTimeoutMs': 10000,
  'upstream.bodyTimeoutMs': 10000,
  'upstream.maxResponseBytes': 20971520,
  'upstream.retries': 2,
  'limits.maxPageSize': 500,
  'limits.defaultPageSize': 10,
  'limits.upstreamConcurrency': 10,
  'limits.maxDepth': 15,
  'limits.maxAliases': 50,
  'limits.maxTokens': 5000,
  'limits.maxCost': 1000,
  'limits.maxListItems': 100,
  'limits.maxSearchLength': 200,
  'limits.maxSlugLength': 200,
  'limits.maxUrlLength': 2048,
  'limits.maxArgumentLength': 1000,
  'session.budget': 500,
  'session.anonymousBudget': 50,
  'session.deadlineMs': 15000,
  'session.siteRetryMs': 5000,
  'writes.lockLeaseMs': 30000,
  'writes.lockWaitMs': 5000,
  redisUrl: undefined,
  redisKeyPrefix: 'sitegraph:',
  'rateLimit.max': 0,
  'rateLimit.windowSeconds': 60,
  'rateLimit.key': 'ip',
  'rateLimit.trustProxyHops': 0,
  'persistedDocuments.manifest': undefined,
  'persistedDocuments.safelist': false,
  'cache.ttlSeconds': 10,
  'cache.memoryMaxBytes': 67108864,
  'cache.staleSeconds': 0,
  'cache.responses': true,
  'cache.responsesMaxBytes': 33554432,
  'compression.minBytes': 1024,
  'compression.enabled': true,
  'admin.port': undefined,
  'admin.host': '127.0.0.1',
  'admin.readinessRefreshSeconds': 15,
  'subscriptions.enabled': true,
  'subscriptions.pollSeconds': 10,
  'subscriptions.pollAuth': undefined,
  'subscriptions.windowEvents': 100,
  'subscriptions.automationToken': undefined,
  'subscriptions.automationBToken': undefined,
  'subscriptions.maxPerConnection': 50,
  'subscriptions.maxPerCaller': 200,
  'subscriptions.maxBufferBytes': 1048576,
  'subscriptions.leaseSeconds': 15,
  'subscriptions.heartbeatSeconds': 12,
  graphiql: true,
  'wpgraphql.path': '/wpgraphql',
  introspection: true,
  'cors.origins': [],
  'cors.credentials': false,
  'log.level': 'info',
  'log.format': 'auto',
  'metrics.maxOperations': 100,
  federation: false,
  'tracing.sdkDisabled': false,
  'tracing.exporters': [],
  'tracing.otlpEndpoint': undefined,
  'tracing.otlpTracesEndpoint': undefined,
  'tracing.otlpProtocol': 'http/protobuf',
  'tracing.otlpTracesProtocol': undefined,
  'tracing.otlpHeaders': undefined,
  'tracing.otlpTracesHeaders': undefined,
  'tracing.serviceName': undefined,
  'tracing.resourceAttributes': undefined,
  'tracing.sampler': 'parentbased_always_on',
  'tracing.samplerArg': undefined,
};

const at = (o: unknown, path: string): unknown => path.split('.').reduce<any>((v, k) => v?.[k], o);

const dir = mkdtempSync(join(tmpdir(), 'sitegraph-config-'));
let n = 0;
function configFile(body: unknown): string {
  const path = join(dir, `c${(n += 1)}.json`);
  writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
  return path;
}

describe('defaults', () => {
  it('pins every default of the schema', () => {
    expect(settingPaths().sort()).toEqual(Object.keys(DEFAULTS).sort());
    const config = loadConfig({});
    for (const [path, value] of Object.entries(DEFAULTS)) expect(at(config, path), path).toEqual(value);
    expect(configSchema.parse({})).toEqual(config);
  });
});

describe('the settings table', () => {
  it('has one row per schema setting, with a unique variable and flag', () => {
    expect(SETTINGS.map((s) => s.path).sort()).toEqual(settingPaths().sort());
    const envs = [...SETTINGS.map((s) => s.env), CONFIG_FILE_SETTING.env];
    expect(new Set(envs).size).toBe(envs.length);
    expect(SETTINGS.filter((s) => s.flag).map((s) => s.flag)).toEqual(['port', 'host', 'upstream']);
  });

  it('sets each number and switch from its variable', () => {
    // Not the default (default + 1, the other boolean), so the value must come from the variable.
    const rows = SETTINGS.filter((s) => s.type === 'int' || s.type === 'number' || s.type === 'bool');
    expect(rows.length).toBeGreaterThan(30);
    for (const s of rows) {
      // ADMIN_PORT has no default of its own (PORT + 1): any port will do.
      const d = at(configSchema.parse({}), s.path) ?? (s.type === 'bool' ? false : 0);
      const [text, value] = s.type === 'bool' ? [d ? '0' : '1', !d] : [String((d as number) + 1), (d as number) + 1];
      // SAFELIST=1 is valid only with a manifest (the schema says so).
      const needs = s.env === 'SAFELIST' ? { PERSISTED_DOCUMENTS: 'persisted-documents.json' } : {};
      expect(at(loadConfig({ ...needs, [s.env]: text }), s.path), s.env).toEqual(value);
    }
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://b.example:8080' }).cors.origins).toEqual([
      'https://a.example',
      'http://b.example:8080',
    ]);
    expect(loadConfig({ LOG_LEVEL: ' DEBUG ' }).log.level).toBe('debug');
    expect(loadConfig({ UPSTREAM_URL: 'https://example.org/wp-json/' }).upstreamUrl).toBe(
      'https://example.org/wp-json/',
    );
  });

  it('is what docs/configuration.md documents: its generated table, a row per variable with file key and default', () => {
    const doc = readFileSync(CONFIG_DOC_FILE, 'utf8');
    expect(doc, 'docs/configuration.md is stale: run npm run config-schema').toBe(configDocText(doc));
    const table = new Map<string, string[]>();
    for (const line of doc.split('\n')) {
      const m = /^\| `([A-Z_]+)`/.exec(line);
      if (m) {
        expect(table.has(m[1]!), `${m[1]} has two rows`).toBe(false);
        table.set(
          m[1]!,
          line.split(' | ').map((c) => c.replace(/^\| | \|$/g, '').trim()),
        );
      }
    }
    const defaults = configSchema.parse({});
    const shown = (v: unknown) =>
      typeof v === 'boolean' ? [v ? '1' : '0', String(v)] : Array.isArray(v) ? [v.join(',')] : [String(v)];
    const problems: string[] = [];
    expect(table.has(CONFIG_FILE_SETTING.env), CONFIG_FILE_SETTING.env).toBe(true);
    expect(table.size).toBe(SETTINGS.length + 1);
    for (const s of SETTINGS) {
      const row = table.get(s.env);
      if (!row) {
        problems.push(`${s.env}: no row`);
        continue;
      }
      if (row[1] !== `\`${s.path}\``) problems.push(`${s.env}: file key ${row[1]}, not \`${s.path}\``);
      const d = at(defaults, s.path);
      const unset = d === undefined || (Array.isArray(d) && d.length === 0);
      if (unset ? !row[2]!.startsWith('*(unset') : !shown(d).some((v) => row[2]!.startsWith(`\`${v}\``))) {
        problems.push(`${s.env}: default ${row[2]}, not ${unset ? '*(unset…)*' : shown(d).join(' or ')}`);
      }
    }
    expect(problems).toEqual([]);
    // Defaults in milliseconds and bytes read in their unit too, derived from the number.
    expect(table.get('OPERATION_DEADLINE_MS')![2]).toBe('`15000` (15 s)');
    expect(table.get('CACHE_MEMORY_MAX_BYTES')![2]).toBe('`67108864` (64 MiB)');
    expect(table.get('UPSTREAM_RETRIES')![3]).toBe('0–5');
    expect(table.get('RATE_LIMIT_KEY')![3]).toBe('`ip`, `credential`');
  });
});

describe('the admin listener and Redis keys', () => {
  it('puts the admin listener on PORT + 1, a free port beside a free public port, or ADMIN_PORT', () => {
    expect(adminPortOf(loadConfig({}))).toBe(4001);
    expect(adminPortOf(loadConfig({ PORT: '8080' }))).toBe(8081);
    expect(adminPortOf(loadConfig({ PORT: '0' }))).toBe(0);
    expect(adminPortOf(loadConfig({ PORT: '8080', ADMIN_PORT: '9100' }))).toBe(9100);
    expect(adminPortOf(loadConfig({ ADMIN_PORT: '0' }))).toBe(0);
    expect(() => adminPortOf(loadConfig({ PORT: '65535' }))).toThrow(/ADMIN_PORT/);
    expect(loadConfig({ ADMIN_HOST: '0.0.0.0' }).admin.host).toBe('0.0.0.0');
  });

  it('takes a key prefix without spaces, from the environment or the file', () => {
    expect(loadConfig({ REDIS_KEY_PREFIX: 'acme-prod:' }).redisKeyPrefix).toBe('acme-prod:');
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'two words' })).toThrow(/REDIS_KEY_PREFIX/);
    expect(
      loadConfig(
        {},
        { config: configFile({ redisKeyPrefix: 'file:', admin: { port: 9200 }, compression: { minBytes: 2048 } }) },
      ),
    ).toMatchObject({
      redisKeyPrefix: 'file:',
      admin: { port: 9200, host: '127.0.0.1', readinessRefreshSeconds: 15 },
      compression: { minBytes: 2048, enabled: true },
    });
  });
});

describe('precedence: flags > environment > config file > defaults', () => {
  it('takes each source over the ones below it, setting by setting', () => {
    const file = configFile({
      port: 4100,
      host: '127.0.0.2',
      upstream: { retries: 4, connections: 3 },
      graphiql: false,
    });
    const fileOnly = loadConfig({ SITEGRAPH_CONFIG: file });
    expect([
      fileOnly.port,
      fileOnly.host,
      fileOnly.upstream.retries,
      fileOnly.upstream.connections,
      fileOnly.graphiql,
    ]).toEqual([4100, '127.0.0.2', 4, 3, false]);
    // Defaults fill what the file leaves out, nested ones too.
    expect([fileOnly.upstream.headersTimeoutMs, fileOnly.limits.maxCost]).toEqual([10_000, 1_000]);

    const env = { SITEGRAPH_CONFIG: file, PORT: '4200', UPSTREAM_RETRIES: '1' };
    const withEnv = loadConfig(env);
    expect([withEnv.port, withEnv.host, withEnv.upstream.retries, withEnv.upstream.connections]).toEqual([
      4200,
      '127.0.0.2',
      1,
      3,
    ]);

    const withFlags = loadConfig(env, { port: '4300', host: '::1' });
    expect([withFlags.port, withFlags.host, withFlags.upstream.retries]).toEqual([4300, '::1', 1]);
  });

  it('reads --config over SITEGRAPH_CONFIG; an empty variable is unset, an empty flag is not', () => {
    const a = configFile({ port: 4101 });
    const b = configFile({ port: 4102 });
    expect(loadConfig({ SITEGRAPH_CONFIG: a }, { config: b }).port).toBe(4102);
    expect(loadConfig({ PORT: '' }).port).toBe(4000);
    expect(() => loadConfig({}, { port: '' })).toThrow(/--port must be an integer, got ""/);
  });
});

describe('the config file', () => {
  const fails = (body: unknown, message: RegExp, env: Record<string, string> = {}) => {
    const file = configFile(body);
    expect(() => loadConfig({ ...env, SITEGRAPH_CONFIG: file })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, SITEGRAPH_CONFIG: file })).toThrow(message);
  };

  it('refuses unknown keys, top-level and nested, naming each', () => {
    fails({ prot: 4000 }, /unknown key "prot" \(did you mean "port"\?\)$/);
    fails(
      { upstream: { retry: 1 }, limits: { maxCost: 5, depth: 3 } },
      /unknown keys "upstream\.retry" \(did you mean "upstream\.retries"\?\), "limits\.depth" \(did you mean "limits\.maxDepth"\?\)$/,
    );
    // Environment names are not keys: the file is shaped like the schema.
    fails({ PORT: 4000 }, /unknown key "PORT" \(did you mean "port"\?\)/);
  });

  it('refuses bad values naming the file and the path, even where the environment overrides them', () => {
    fails({ upstream: { retries: 99 } }, /config file .*\.json \(upstream\.retries\): Too big/);
    fails({ port: '4000' }, /\(port\): Invalid input: expected number, received string/);
    fails({ cors: { origins: ['https://a.example/path'] } }, /\(cors\.origins\.0\): must be an origin/);
    fails({ port: -1 }, /\(port\): Too small/, { PORT: '4000' });
  });

  it("accepts docs/configuration.md's example", () => {
    const doc = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## The configuration file'));
    const example = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    const config = loadConfig({ SITEGRAPH_CONFIG: configFile(example) });
    expect([config.port, config.limits.maxCost, config.cors.origins, config.introspection]).toEqual([
      8080,
      500,
      ['https://app.example.org'],
      false,
    ]);
  });

  it('refuses what is not a JSON object, and a file it cannot read', () => {
    fails('{"port": 4000,}', /is not valid JSON/);
    fails('[]', /must hold a JSON object/);
    expect(() => readConfigFile(join(dir, 'missing.json'))).toThrow(/cannot read config file .*missing\.json: ENOENT/);
  });
});

describe('environment errors name the variable', () => {
  it.each([
    [{ UPSTREAM_CONNECTIONS: '16k' }, /UPSTREAM_CONNECTIONS must be an integer, got "16k"/],
    [{ UPSTREAM_CONNECTIONS: '0' }, /UPSTREAM_CONNECTIONS \(upstream\.connections\): Too small/],
    [{ INTROSPECTION: 'nah' }, /INTROSPECTION must be a boolean/],
    [{ RATE_LIMIT_KEY: 'user' }, /RATE_LIMIT_KEY \(rateLimit\.key\): Invalid option/],
    [{ SAFELIST: '1' }, /SAFELIST=1 needs PERSISTED_DOCUMENTS/],
  ] as [Record<string, string>, RegExp][])('%o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes a secret it refuses', () => {
    expect(() => loadConfig({ SITEGRAPH_SERVICE_AUTH: 'hunter2-no-colon' })).toThrow(
      /SITEGRAPH_SERVICE_AUTH \(serviceAuth\): must be user:application-password/,
    );
    try {
      loadConfig({ SITEGRAPH_SERVICE_AUTH: 'hunter2-no-colon' });
    } catch (err) {
      expect((err as Error).message).not.toContain('hunter2');
    }
  });
});
