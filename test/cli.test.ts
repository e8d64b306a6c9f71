/**
 * `npm start` and `npm run sandbox` as a user runs them (child processes over
 * real loopback): full help derived from the settings tables (src/settings.ts), one-line errors
 * with exit code 2 for every bad flag or value, a taken port refused before any
 * banner, and the config file's place in the precedence.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_FILE_SETTING, SETTINGS, settingDefault, settingPaths } from '../src/config.ts';
import { SANDBOX_SETTINGS, sandboxOptionsSchema, sandboxSettingDefault } from '../packages/sandbox/src/options.ts';
import type { RunningSandbox } from '../packages/sandbox/src/server.ts';
import { GATEWAY_CLI, SANDBOX_CLI, runCli, startCli } from './helpers/cli.ts';
import { testSandbox } from './helpers/sandbox.ts';

/** One line on stderr naming the problem, nothing on stdout (no banner), no stack. */
function expectOneLineError(
  r: { code: number | null; stdout: string; stderr: string },
  code: number,
  prog: string,
  message: RegExp,
) {
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^${prog}: `));
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stdout).toBe('');
  expect(r.code).toBe(code);
}

/** A port some other process holds. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { port: (server.address() as { port: number }).port, server };
}

async function freePort(): Promise<number> {
  const { port, server } = await holdPort();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm start -- --help', () => {
  it('lists usage, every flag and every environment variable of src/config.ts with its default (-h too)', async () => {
    const [long, short] = await Promise.all([runCli(GATEWAY_CLI, ['--help']), runCli(GATEWAY_CLI, ['-h'])]);
    expect(long.code).toBe(0);
    expect(short.stdout).toBe(long.stdout);
    const help = long.stdout;
    expect(help).toMatch(/^usage: npm start -- /);
    for (const flag of ['--port', '--host', '--upstream', '--config', '--help']) expect(help).toContain(flag);
    // Every schema setting has its row, and the row is in the help with the schema's default.
    expect(SETTINGS.map((s) => s.path).sort()).toEqual(settingPaths().sort());
    for (const s of [...SETTINGS, CONFIG_FILE_SETTING]) {
      const line = help.split('\n').find((l) => l.trimStart().startsWith(`${s.env} `));
      expect(line, s.env).toBeDefined();
      if ('path' in s)
        expect(
          line!
            .slice(line!.indexOf(s.env) + s.env.length)
            .trimStart()
            .startsWith(settingDefault(s)),
          s.env,
        ).toBe(true);
    }
    expect(help).toMatch(/^  PORT +4000 +gateway port$/m);
    expect(help).toMatch(/^  GRAPHIQL +1 /m);
  }, 90_000);

  it('names every environment variable the configuration reads (no variable read outside the table)', async () => {
    const source = ['config.ts', 'settings.ts', 'settings-kit.ts']
      .map((f) => readFileSync(new URL(`../src/${f}`, import.meta.url), 'utf8'))
      .join('\n');
    const read = new Set([...source.matchAll(/env(?:\.|\[')([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
    const help = (await runCli(GATEWAY_CLI, ['--help'])).stdout;
    for (const name of read) expect(help, name).toContain(name);
  }, 90_000);
});

describe('npm run sandbox -- --help', () => {
  it('lists usage, every flag and every SANDBOX_* variable with its default', async () => {
    const r = await runCli(SANDBOX_CLI, ['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: npm run sandbox -- /);
    for (const flag of ['--port', '--db', '--host', '--help']) expect(r.stdout).toContain(flag);
    // Every option a user can set has a row (`demo` is for tests: they seed their own data).
    const keys = Object.keys(sandboxOptionsSchema.shape).filter((k) => k !== 'demo');
    expect(SANDBOX_SETTINGS.map((s) => s.key).sort()).toEqual(keys.sort());
    for (const s of SANDBOX_SETTINGS.filter((x) => x.env)) {
      expect(r.stdout).toMatch(
        new RegExp(`^  ${s.env} +${sandboxSettingDefault(s).replace(/[()[\]\\.*+?|]/g, '\\$&')} `, 'm'),
      );
    }
    expect(r.stdout).toMatch(/^ {2}SANDBOX_DB +:memory: /m);
  }, 90_000);
});

describe('bad flags and values: one line, exit code 2', () => {
  const cases: { args: string[]; env?: Record<string, string>; message: RegExp }[] = [
    { args: ['--bogus'], message: /unknown option --bogus/ },
    { args: ['--port'], message: /--port needs a value/ },
    { args: ['--port', '--host', '127.0.0.1'], message: /--port needs a value/ },
    { args: ['--port', 'abc'], message: /--port must be an integer, got "abc"/ },
    { args: ['--port', '99999'], message: /--port \(port\): Too big/ },
    { args: ['--port=-1'], message: /--port \(port\): Too small/ },
    { args: ['--help=yes'], message: /--help takes no value/ },
    { args: ['extra'], message: /unexpected argument "extra"/ },
    { args: [], env: { PORT: 'eighty' }, message: /PORT must be an integer, got "eighty"/ },
    { args: [], env: { UPSTREAM_RETRIES: '9' }, message: /UPSTREAM_RETRIES \(upstream\.retries\): Too big/ },
    { args: [], env: { GRAPHIQL: 'maybe' }, message: /GRAPHIQL must be a boolean/ },
    {
      args: [],
      env: { SITEGRAPH_SERVICE_AUTH: 'no-colon' },
      message: /SITEGRAPH_SERVICE_AUTH \(serviceAuth\): must be user:application-password/,
    },
    { args: [], env: { SANDBOX_PORT: 'x' }, message: /SANDBOX_PORT must be an integer/ },
    { args: [], env: { SANDBOX_TEC: '7.0' }, message: /SANDBOX_TEC \(tec\): Invalid option/ },
    {
      args: [],
      env: { SITEGRAPH_CONFIG: 'no-such-file.json' },
      message: /cannot read config file no-such-file\.json: ENOENT/,
    },
  ];

  // One process each, as a user would meet them (the values' parsing in full: test/config.test.ts).
  it.each(cases)(
    'npm start -- $args $env',
    async ({ args, env, message }) => {
      expectOneLineError(await runCli(GATEWAY_CLI, args, env), 2, 'sitegraph', message);
    },
    90_000,
  );

  it.each([
    { args: ['--bogus'], message: /unknown option --bogus/ },
    { args: ['--db'], message: /--db needs a value/ },
    { args: ['--port', '70000'], message: /--port \(port\): Too big/ },
    { args: [], env: { SANDBOX_CONTROL: 'perhaps' }, message: /SANDBOX_CONTROL must be a boolean/ },
  ] as { args: string[]; env?: Record<string, string>; message: RegExp }[])(
    'npm run sandbox -- $args $env',
    async ({ args, env, message }) => {
      expectOneLineError(await runCli(SANDBOX_CLI, args, env), 2, 'sandbox', message);
    },
    90_000,
  );
});

describe('a port in use', () => {
  let held: { port: number; server: Server };
  beforeAll(async () => (held = await holdPort()));
  afterAll(() => new Promise((resolve) => held.server.close(resolve)));

  it('npm start refuses it in one line (exit 1) before starting the sandbox or printing its banner', async () => {
    const r = await runCli(GATEWAY_CLI, ['--port', String(held.port)]);
    expectOneLineError(r, 1, 'sitegraph', new RegExp(`port ${held.port} on 127\\.0\\.0\\.1 is already in use`));
  }, 90_000);

  it('npm run sandbox refuses it the same way', async () => {
    const r = await runCli(SANDBOX_CLI, [], { SANDBOX_PORT: String(held.port) });
    expectOneLineError(
      r,
      1,
      'sandbox',
      new RegExp(`port ${held.port} on 127\\.0\\.0\\.1 is already in use; choose another with --port or SANDBOX_PORT`),
    );
  }, 90_000);
});

describe('config file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitegraph-cli-'));
  const file = (name: string, body: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
    return path;
  };
  let sandbox: RunningSandbox;
  beforeAll(async () => (sandbox = await testSandbox()));
  afterAll(() => sandbox.close());

  it('refuses unknown keys, naming each, and bad values, naming file and path (exit 2)', async () => {
    const typo = file('typo.json', { port: 4100, upstream: { retriez: 1 }, cors: { origin: [] } });
    expectOneLineError(
      await runCli(GATEWAY_CLI, ['--config', typo]),
      2,
      'sitegraph',
      /config file .*typo\.json: unknown keys "upstream\.retriez" \(did you mean "upstream\.retries"\?\), "cors\.origin" \(did you mean "cors\.origins"\?\)$/,
    );
    const bad = file('bad.json', { limits: { maxCost: 0 } });
    expectOneLineError(
      await runCli(GATEWAY_CLI, [], { SITEGRAPH_CONFIG: bad }),
      2,
      'sitegraph',
      /config file .*bad\.json \(limits\.maxCost\): Too small/,
    );
    const broken = file('broken.json', '{ "port": ');
    expectOneLineError(
      await runCli(GATEWAY_CLI, ['--config', broken]),
      2,
      'sitegraph',
      /config file .*broken\.json is not valid JSON/,
    );
  }, 90_000);

  it('sits under the environment, which sits under the flags', async () => {
    const [p1, p2, p3] = [await freePort(), await freePort(), await freePort()];
    // The file sets the port and turns introspection off; the environment overrides the port only.
    const conf = file('site.json', { port: p1, upstreamUrl: sandbox.url, introspection: false });
    // ADMIN_PORT 0: the admin listener's default (the port + 1) may be taken on a busy machine.
    const fromEnv = await startCli(GATEWAY_CLI, ['--config', conf], { PORT: String(p2), ADMIN_PORT: '0' });
    try {
      expect(fromEnv.url).toBe(`http://127.0.0.1:${p2}/graphql`);
      expect(fromEnv.output()).not.toContain('sandbox REST root'); // the file's upstream: no embedded sandbox
      const res = await fetch(fromEnv.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __schema { queryType { name } } }' }),
      });
      expect(res.status).toBe(400); // the file's introspection: false
    } finally {
      expect(await fromEnv.stop()).toBe(0);
    }
    const fromFlag = await startCli(GATEWAY_CLI, ['--config', conf, '--port', String(p3)], {
      PORT: String(p2),
      ADMIN_PORT: '0',
    });
    try {
      expect(fromFlag.url).toBe(`http://127.0.0.1:${p3}/graphql`);
    } finally {
      await fromFlag.stop();
    }
    const fromFile = await startCli(GATEWAY_CLI, [], { SITEGRAPH_CONFIG: conf, ADMIN_PORT: '0' });
    try {
      expect(fromFile.url).toBe(`http://127.0.0.1:${p1}/graphql`);
    } finally {
      await fromFile.stop();
    }
  }, 180_000);
});

describe('LOG_FORMAT=json', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => (sandbox = await testSandbox()));
  afterAll(() => sandbox?.close());

  it('writes the banner as JSON lines like the rest of the log, its values as fields', async () => {
    const cli = await startCli(GATEWAY_CLI, ['--upstream', sandbox.url, '--port', String(await freePort())], {
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
      ADMIN_PORT: '0',
    });
    try {
      // The banner's later lines may arrive in another chunk than the GraphQL one.
      await expect.poll(() => cli.output(), { timeout: 20_000 }).toMatch(/sitegraph admin: [^\n]*\n/);
      const lines = cli.output().trim().split('\n');
      const parsed = lines.map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          throw new Error(`not a JSON line: ${l}`);
        }
      });
      const gql = parsed.find((l) => l.graphql);
      expect(gql).toMatchObject({
        level: 30,
        service: 'sitegraph',
        banner: true,
        graphql: cli.url,
        msg: `sitegraph GraphQL: ${cli.url} (open it in a browser for GraphiQL)`,
      });
      expect(parsed.some((l) => typeof l.admin === 'string' && /^http:\/\/127\.0\.0\.1:\d+$/.test(l.admin))).toBe(true);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  }, 90_000);
});
