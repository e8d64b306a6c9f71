/**
 * `npm run sandbox -- [--port <p>] [--db <file|:memory:>] [--host <h>] [--tickets <1|0>]`: runs the
 * sandbox site alone, prints its REST root and credentials, stops cleanly on
 * SIGINT/SIGTERM. Other options come from `SANDBOX_*` variables (`--help`).
 * A bad flag or value is one line and exit code 2; a taken port one line and 1.
 */
import {
  assertPortFree,
  columns,
  parseFlags,
  portError,
  runCli,
  stopOnSignals,
  type FlagSpec,
} from './vendor/cli-kit.ts';
import { describeNames, type Names } from './names.ts';
import {
  SANDBOX_SETTINGS,
  SandboxConfigError,
  parseSandboxOptions,
  sandboxOptions,
  sandboxSettingDefault,
} from './options.ts';
import { describeRelease, type Tec } from './release.ts';

/** `npm run sandbox` listens on 8080 unless told otherwise: a fixed port to point a gateway at. */
const CLI_PORT = 8080;

const FLAGS: FlagSpec[] = [
  ...SANDBOX_SETTINGS.flatMap((s) => (s.flag ? [{ name: s.flag }] : [])),
  { name: 'help', short: 'h', boolean: true },
];

function sandboxHelp(): string {
  const arg: Record<string, string> = { port: '<n>', host: '<address>', db: '<file|:memory:>', tickets: '<1|0>' };
  const flags = SANDBOX_SETTINGS.filter((s) => s.flag).map((s) => [
    `--${s.flag} ${arg[s.flag!] ?? '<value>'}`,
    s.env ?? '',
    s.meaning,
  ]);
  const env = SANDBOX_SETTINGS.filter((s) => s.env).map((s) => [s.env!, sandboxSettingDefault(s), s.meaning]);
  return [
    'usage: npm run sandbox -- [--port <n>] [--db <file|:memory:>] [--host <address>] [--tickets <1|0>]',
    '',
    'Runs the sandbox site (a WordPress-style REST API with demo data) alone and prints its',
    'REST root and credentials. By default the database is in memory: every start serves the',
    'same demo data and writes last until it stops; --db <file> keeps them in that file.',
    '',
    'Options (a flag wins over its variable):',
    columns([...flags, ['-h, --help', '', 'this help']]),
    '',
    'Environment:',
    columns([['VARIABLE', 'DEFAULT', 'MEANING'], ...env]),
    '',
    'Releases (SANDBOX_TEC) and names (SANDBOX_NAMES):',
    columns([
      ...(['5.7', '6.15', '6.17'] as const).map((t) => [`SANDBOX_TEC=${t}`, describeRelease(t)]),
      ...(['spec', 'plugin', 'both'] as const).map((n) => [`SANDBOX_NAMES=${n}`, describeNames(n)]),
    ]),
    `With this environment it acts as ${actsAs()}.`,
    '',
    'Exit status: 2 for a bad flag or value, 1 when the port is taken or the start fails.',
  ].join('\n');
}

/** The release and names the environment chooses, for `--help` (the defaults when it has a bad value). */
function actsAs(): string {
  let tec: Tec = '6.15';
  let names: Names = 'spec';
  try {
    ({ tec, names } = parseSandboxOptions(sandboxOptions(process.env)));
  } catch {
    /* a bad value is reported when the sandbox starts, not here */
  }
  return `TEC ${tec}, ${names} names`;
}

async function main(): Promise<void> {
  const values = parseFlags(process.argv.slice(2), FLAGS);
  if (values.help) {
    console.log(sandboxHelp());
    return;
  }
  const sources = new Map<string, string>();
  const input = sandboxOptions(process.env, values as Record<string, string | undefined>, sources);
  // Every value checked, and the port, before seeding or printing anything.
  const options = parseSandboxOptions({ ...input, port: input.port ?? CLI_PORT }, sources);
  const hint = 'choose another with --port or SANDBOX_PORT';
  await assertPortFree(options.host, options.port, hint);
  // Loaded only now: `--help` and a bad flag answer without loading the site.
  const [{ startSandbox }, { sandboxBanner }] = await Promise.all([import('./server.ts'), import('./banner.ts')]);
  const sandbox = await startSandbox(options).catch((err: unknown) => {
    throw portError(err, options.host, options.port, hint) ?? err;
  });
  console.log(sandboxBanner(sandbox));
  // 5 s: closing drops open connections at once; only the database is left to close.
  stopOnSignals('sandbox', () => sandbox.close(), 5_000);
}

runCli('sandbox', main, [SandboxConfigError]);
