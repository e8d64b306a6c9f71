/**
 * Where end-to-end harnesses leave their sandbox request logs, so the route
 * coverage check (test/routes/coverage.test.ts, run after the main suite) can
 * prove which spec routes the gateway really reached.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toSpecPath } from '../../src/upstream/names.ts';

export const ROUTE_LOG_DIR = fileURLToPath(new URL('../../.test-logs/routes/', import.meta.url));

export function newRouteLogFile(): string {
  mkdirSync(ROUTE_LOG_DIR, { recursive: true });
  return join(ROUTE_LOG_DIR, `${process.pid}-${randomUUID()}.jsonl`);
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

/** Every call the gateway made to the harnesses' sandboxes (tests' own direct reads left out), batch items included. */
export function readRouteLogs(): LoggedCall[] {
  let files: string[] = [];
  try {
    files = readdirSync(ROUTE_LOG_DIR).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const out: LoggedCall[] = [];
  for (const f of files) {
    for (const line of readFileSync(join(ROUTE_LOG_DIR, f), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as { method: string; route?: string; status: number; batch?: LoggedCall[]; agent?: string };
      if (!e.agent?.startsWith('sitegraph/')) continue;
      // Sandboxes under the plugins' names log their routes (`/tribe/events/v1/...`): read back in spec names.
      const spec = (route?: string) => (route === undefined ? undefined : toSpecPath(route));
      out.push({ method: e.method, route: spec(e.route), status: e.status });
      for (const b of e.batch ?? []) out.push({ method: b.method, route: spec(b.route), status: b.status });
    }
  }
  return out;
}
