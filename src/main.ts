#!/usr/bin/env node
/**
 * CLI entry: `npm start [-- --port <p>] [--host <h>] [--upstream <REST root>] [--config <file>]`.
 * Without an upstream (flag, UPSTREAM_URL or config file) it starts the
 * embedded sandbox in-process and points the gateway at it. Everything is
 * checked (flags, settings, config file, sandbox options, the port) before
 * anything starts or prints: a bad flag or value is one line and exit code 2,
 * a taken port one line and exit code 1.
 */
// First: graphql-js reads NODE_ENV when it is loaded (production unless set).
import './production.ts';
import { hostname } from 'node:os';
import {
  UsageError,
  assertPortFree,
  columns,
  parseFlags,
  portError,
  runCli,
  stopOnSignals,
  type FlagSpec,
} from './cli-kit.ts';
import { ConfigError, adminPortOf, loadConfig, upstreamHint } from './config.ts';
import { loadSandbox, type DemoOptions, type DemoSandbox, type SandboxModule } from './demo.ts';
import { settingHelpRow } from './settings-kit.ts';
import { CONFIG_FILE_SETTING, SETTINGS } from './settings.ts';

const FLAG_ROWS = [...SETTINGS.filter((s) => s.flag), CONFIG_FILE_SETTING];
const FLAGS: FlagSpec[] = [...FLAG_ROWS.map((s) => ({ name: s.flag! })), { name: 'help', short: 'h', boolean: true }];

/** The help: flags and environment variables from the settings table (src/settings.ts), defaults from its rows. */
function help(): string {
  const placeholder = (s: (typeof FLAG_ROWS)[number]): string => {
    if (!('path' in s)) return '<file>';
    if (s.type === 'int') return '<n>';
    return s.type === 'string' && s.url ? '<URL>' : '<value>';
  };
  return [
    `usage: npm start -- ${FLAG_ROWS.map((s) => `[--${s.flag} ${placeholder(s)}]`).join(' ')}`,
    '',
    "Serves the site's REST API as one GraphQL graph at http://<host>:<port>/graphql (GraphiQL in a",
    'browser). Without an upstream it starts the embedded sandbox site with its demo data, fresh',
    'every start (SANDBOX_DB=<file> keeps writes; the SANDBOX_* variables: npm run sandbox -- --help).',
    '',
    'Options:',
    columns([
      ...FLAG_ROWS.map((s) => [`--${s.flag} ${placeholder(s)}`, s.env, s.meaning]),
      ['-h, --help', '', 'this help'],
    ]),
    '',
    'Environment (flags > environment > config file > defaults):',
    columns([
      ['VARIABLE', 'DEFAULT', 'MEANING'],
      [CONFIG_FILE_SETTING.env, '(unset)', `JSON config file (see --${CONFIG_FILE_SETTING.flag})`],
      ...SETTINGS.map(settingHelpRow),
    ]),
    '',
    'Exit status: 2 for a bad flag, setting or config file, 1 when the port is taken or the start fails.',
  ].join('\n');
}

async function main(): Promise<void> {
  const values = parseFlags(process.argv.slice(2), FLAGS);
  if (values.help) {
    console.log(help());
    return;
  }
  const config = loadConfig(process.env, values as Record<string, string | undefined>);
  // No upstream: the demo. The sandbox is loaded only then (the installed package has none: one line,
  // exit code 2), and its options too are checked before the port, the sandbox's banner or the gateway.
  const demo: SandboxModule | null = config.upstreamUrl ? null : await loadSandbox();
  const sources = new Map<string, string>();
  let sandboxOptionsChecked: DemoOptions | null = null;
  try {
    sandboxOptionsChecked = demo && demo.parseSandboxOptions(demo.sandboxOptions(process.env, {}, sources), sources);
  } catch (err) {
    throw demo && err instanceof demo.SandboxConfigError ? new UsageError(err.message) : err;
  }
  const hint = 'choose another with --port or PORT';
  await assertPortFree(config.host, config.port, hint);
  await assertPortFree(
    config.admin.host,
    adminPortOf(config),
    'the admin listener is PORT + 1 by default: choose its port with ADMIN_PORT',
  );
  // Loaded only now: `--help` and a bad flag answer without loading the graph.
  const { startGateway } = await import('./server.ts');
  let sandbox: DemoSandbox | null = null;
  let upstream = config.upstreamUrl;
  if (!upstream) {
    sandbox = await demo!.startSandbox(sandboxOptionsChecked!).catch((err: unknown) => {
      throw (
        portError(err, sandboxOptionsChecked!.host, sandboxOptionsChecked!.port, 'choose another with SANDBOX_PORT') ??
        err
      );
    });
    upstream = sandbox.url;
  }
  const gateway = await startGateway(config, upstream).catch(async (err: unknown) => {
    await sandbox?.close();
    throw portError(err, config.host, config.port, hint) ?? err;
  });
  // The banner: plain lines, or with LOG_FORMAT=json one JSON line each (pino's shape, the same text
  // as `msg`, the values as fields), so a log pipeline reads it with the rest. Written at any LOG_LEVEL.
  const banner: [string, Record<string, unknown>][] = [];
  if (sandbox) banner.push([demo!.sandboxBanner(sandbox), { sandbox: sandbox.url }]);
  banner.push([`sitegraph GraphQL: ${gateway.url} (open it in a browser for GraphiQL)`, { graphql: gateway.url }]);
  banner.push([
    `sitegraph admin: ${gateway.adminUrl} (GET /metrics, GET /readyz, POST /purge)`,
    { admin: gateway.adminUrl },
  ]);
  banner.push([`upstream: ${upstream}`, { upstream }]);
  // A URL that does not look like a REST root starts anyway, with the likely fix (/readyz stays 503).
  const advice = config.upstreamUrl ? upstreamHint(config.upstreamUrl) : undefined;
  if (advice) banner.push([advice, { advice: true }]);
  // REDIS_URL set: whether it answered at start, and where this site's keys live (docs/production.md "Redis").
  if (gateway.redis) {
    banner.push(
      gateway.redis.up
        ? [
            `redis: ${gateway.redis.label} (keys under ${gateway.redis.keys.root})`,
            { redis: gateway.redis.label, redisUp: true },
          ]
        : [
            `redis: ${gateway.redis.label} cannot be reached (${gateway.redis.problem ?? 'no answer'}): serving uncached until it can; /readyz says degraded`,
            { redis: gateway.redis.label, redisUp: false },
          ],
    );
  }
  // OTEL_* set: say where the spans go (docs/production.md "Tracing (OpenTelemetry)").
  if (gateway.tracing) banner.push([gateway.tracing.description, { tracing: true }]);
  for (const [msg, fields] of banner) console.log(config.log.format === 'json' ? bannerLine(msg, fields) : msg);
  // 15 s: Apollo gives requests in flight 10 s to finish, then the rest closes in moments.
  stopOnSignals(
    'sitegraph',
    async () => {
      await gateway.close();
      await sandbox?.close();
    },
    15_000,
  );
}

/** A banner line as the JSON logger writes its lines (level 30 is pino's info). */
function bannerLine(msg: string, fields: Record<string, unknown>): string {
  return JSON.stringify({
    level: 30,
    time: Date.now(),
    service: 'sitegraph',
    pid: process.pid,
    hostname: hostname(),
    banner: true,
    ...fields,
    msg,
  });
}

runCli('sitegraph', main, [ConfigError]);
