/**
 * Round trips as the gateway sees them: undici publishes every request it
 * creates and completes on `diagnostics_channel`, so the dependency depth of an
 * operation's upstream requests can be measured where they are sent, not where
 * a busy sandbox happens to log their arrival (a sandbox that renders pages
 * synchronously logs requests sent together as if one followed another).
 */
import { subscribe } from 'node:diagnostics_channel';

export interface Traced {
  created: number;
  done: number;
}

const tracers = new Set<{ origin: string; requests: Traced[] }>();
const inFlight = new WeakMap<object, Traced[]>();

function originOf(o: unknown): string {
  if (typeof o === 'string') return new URL(o).origin;
  if (o instanceof URL) return o.origin;
  return String(o);
}

subscribe('undici:request:create', (m) => {
  const req = (m as { request: { origin?: unknown } }).request;
  const origin = originOf(req.origin);
  const hits: Traced[] = [];
  for (const t of tracers) {
    if (t.origin !== origin) continue;
    const r = { created: performance.now(), done: Infinity };
    t.requests.push(r);
    hits.push(r);
  }
  if (hits.length) inFlight.set(req, hits);
});
const finish = (m: unknown) => {
  for (const t of inFlight.get((m as { request: object }).request) ?? [])
    if (t.done === Infinity) t.done = performance.now();
};
subscribe('undici:request:trailers', finish);
subscribe('undici:request:error', finish);

/** Records the requests sent to `origin` (e.g. `http://127.0.0.1:8080`) until `stop()`. */
export function traceRequests(origin: string): { requests: Traced[]; stop(): void } {
  const t = { origin: originOf(origin), requests: [] as Traced[] };
  tracers.add(t);
  return { requests: t.requests, stop: () => tracers.delete(t) };
}

/** Dependency depth: a request sent after another one had completed is one round trip further. */
export function dependencyDepth(requests: readonly Traced[]): number {
  const sorted = [...requests].sort((a, b) => a.created - b.created);
  const level: number[] = [];
  let max = 0;
  sorted.forEach((r, i) => {
    let l = 1;
    for (let j = 0; j < i; j++) if (sorted[j]!.done <= r.created) l = Math.max(l, level[j]! + 1);
    level.push(l);
    max = Math.max(max, l);
  });
  return max;
}
