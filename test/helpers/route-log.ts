/**
 * Where every sandbox a test starts leaves its request log (testSandbox and the
 * CLI children of test/helpers/cli.ts default to a file here), so the route
 * coverage check (test/routes/coverage.test.ts, run after the main suite) can
 * prove which spec routes the gateway really reached, and that it never sent an
 * argument a route does not declare. A file's name starts with the test file
 * that wrote it (test/setup-file.ts sets SITEGRAPH_TEST_FILE), then the process.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toSpecPath } from '../../src/upstream/names.ts';
import { undeclaredUses, type LogEntry, type UndeclaredUse } from '../../packages/sandbox/src/requestlog.ts';

export const ROUTE_LOG_DIR = fileURLToPath(new URL('../../.test-logs/routes/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The test file this process runs, relative to the repository root (`test/e2e/cache.test.ts`), or `?`. */
export function currentTestFile(): string {
  const f = process.env.SITEGRAPH_TEST_FILE;
  return f ? relative(ROOT, f) : '?';
}

/** `<test file, URI-encoded>~<pid>-`: the start of every route log file this process writes. */
export function routeLogPrefix(): string {
  return `${encodeURIComponent(currentTestFile())}~${process.pid}-`;
}

export function newRouteLogFile(): string {
  mkdirSync(ROUTE_LOG_DIR, { recursive: true });
  return join(ROUTE_LOG_DIR, `${routeLogPrefix()}${randomUUID()}.jsonl`);
}

/**
 * Removes the logs of earlier runs, file by file: the folder stays, so a run
 * going on at the same moment (another checkout's engineer, a watch mode)
 * keeps appending instead of failing its sandbox's requests.
 */
export function clearRouteLogs(): void {
  mkdirSync(ROUTE_LOG_DIR, { recursive: true });
  for (const f of readdirSync(ROUTE_LOG_DIR)) rmSync(join(ROUTE_LOG_DIR, f), { force: true });
}

export interface LoggedCall {
  method: string;
  route?: string;
  status: number;
}

/** A request or /batch/v1 item the gateway sent with arguments its route does not declare, and the test file whose sandbox saw it. */
export interface UndeclaredCall extends UndeclaredUse {
  testFile: string;
  /** When the request started (ms since the epoch): the same request read from memory and from its file is one. */
  at?: number;
}

interface Line {
  method: string;
  path: string;
  route?: string;
  status: number;
  undeclared?: string[];
  batch?: Omit<Line, 'batch' | 'agent' | 'at'>[];
  agent?: string;
  at?: number;
}

/** The gateway's requests (tests' own direct requests left out) in the route logs whose names start with `prefix`, with the test file that wrote each. */
function gatewayLines(prefix = ''): { testFile: string; e: Line }[] {
  let files: string[] = [];
  try {
    files = readdirSync(ROUTE_LOG_DIR).filter((f) => f.endsWith('.jsonl') && f.startsWith(prefix));
  } catch {
    return [];
  }
  const out: { testFile: string; e: Line }[] = [];
  for (const f of files) {
    const testFile = f.includes('~') ? decodeURIComponent(f.slice(0, f.indexOf('~'))) : '?';
    for (const line of readFileSync(join(ROUTE_LOG_DIR, f), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as Line;
      if (e.agent?.startsWith('sitegraph/')) out.push({ testFile, e });
    }
  }
  return out;
}

/** Sandboxes under the plugins' names log their routes (`/tribe/events/v1/...`): read back in spec names. */
const spec = (route?: string) => (route === undefined ? undefined : toSpecPath(route));

/** Every call the gateway made to the tests' sandboxes (tests' own direct reads left out), batch items included. */
export function readRouteLogs(): LoggedCall[] {
  return gatewayLines().flatMap(({ e }) => [
    { method: e.method, route: spec(e.route), status: e.status },
    ...(e.batch ?? []).map((b) => ({ method: b.method, route: spec(b.route), status: b.status })),
  ]);
}

/**
 * Every request and /batch/v1 item the gateway sent with an argument its route
 * does not declare (WordPress drops it without a word), from the route logs
 * whose names start with `prefix` (default: all of this run).
 */
export function readUndeclared(prefix = ''): UndeclaredCall[] {
  return gatewayLines(prefix).flatMap(({ testFile, e }) => undeclaredOf(testFile, e));
}

/** The same from log entries in memory (a sandbox's `log.entries`). */
export function undeclaredIn(testFile: string, entries: readonly Line[]): UndeclaredCall[] {
  return entries.filter((e) => e.agent?.startsWith('sitegraph/')).flatMap((e) => undeclaredOf(testFile, e));
}

function undeclaredOf(testFile: string, e: Line): UndeclaredCall[] {
  return undeclaredUses(e as LogEntry).map((u) => ({ testFile, ...u, route: spec(u.route), at: e.at }));
}

/** `calls` with each request counted once (read both from a sandbox's memory and from its file). */
export function uniqueCalls(calls: UndeclaredCall[]): UndeclaredCall[] {
  const seen = new Set<string>();
  return calls.filter((c) => {
    const key = JSON.stringify([c.at, c.method, c.path, c.inBatch, c.undeclared]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One line per undeclared use: `test/e2e/x.test.ts: GET /calendar/events/v1/events (route ...) sent foo, bar`. */
export function describeUndeclared(calls: UndeclaredCall[]): string {
  return calls
    .map(
      (c) =>
        `${c.testFile}: ${c.method} ${c.path}${c.inBatch ? ' (in /batch/v1)' : ''} (route ${c.route ?? '?'}) sent ${c.undeclared.join(', ')}`,
    )
    .join('\n');
}
