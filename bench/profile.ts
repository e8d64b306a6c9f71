/**
 * A CPU profile of the gateway process under one workload (issue 19: "profile
 * what is left and cut it"):
 *
 *   npm run bench:profile -- w1-hot|w1-uncached|typename [requests] [outdir]
 *
 * The sandbox and the gateway run as processes of their own (as in
 * bench/cpu.ts). After a warm-up, the gateway's profiler (node:inspector) runs
 * for the measured requests only, sent BENCH_CONCURRENCY at a time (default 1,
 * as bench:cpu measures: identical requests sent together would share one
 * upstream request and each decode its own copy); the profile is written to
 * outdir (default `sitegraph-profiles` in the system's temporary directory; a
 * `.cpuprofile` for Chrome DevTools) and its
 * top functions by self time printed (TOP, default 40), then by total time
 * for the project's own functions. BENCH_SITE=instant profiles against the
 * sandbox's answers replayed from memory; BENCH_WARMUP (200) requests first;
 * BENCH_PROFILE_INTERVAL the sampling interval in µs (100); BENCH_QUERY another
 * query than the kind's (its cache setting kept).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { client, gateway, gql, instantSite, sandbox, TYPENAME, W1 } from './cpu-kit.ts';

const kind = process.argv[2] ?? 'w1-hot';
const total = Number(process.argv[3] ?? 2000);
const dir = resolve(process.argv[4] ?? join(tmpdir(), 'sitegraph-profiles'));
const top = Number(process.env.TOP ?? 40);
const query = process.env.BENCH_QUERY ?? (kind === 'typename' ? TYPENAME : W1);
const sb = await sandbox();
// BENCH_SITE=instant: the sandbox's answers replayed from memory (cpu-kit.ts instantSite), so the
// gateway never idles for the sandbox's ~20 ms a page and the profile is its own work, hot.
const instant = process.env.BENCH_SITE === 'instant' ? await instantSite(sb.url) : null;
const g = await gateway(instant?.url ?? sb.url, { CACHE_TTL_SECONDS: kind === 'w1-uncached' ? '0' : '60' });
const c = client(g.url);
for (let i = 0; i < Number(process.env.BENCH_WARMUP ?? 200); i++) await gql(c, query);
await g.profileStart();
const c0 = await g.cpu();
let next = 0;
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 1);
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next++ < total) await gql(c, query);
  }),
);
const used = (await g.cpu()) - c0;
const profile = (await g.profileStop()) as Profile;
await c.pool.close();
await g.stop();
await instant?.close();
sb.stop();
console.log(
  `${kind}: ${(used / total / 1000).toFixed(3)} ms of gateway CPU per request over ${total} (profiled, so higher than bench:cpu)`,
);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
}
mkdirSync(dir, { recursive: true });
const file = join(dir, `${kind}-${Date.now()}.cpuprofile`);
writeFileSync(file, JSON.stringify(profile));
const name = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench|dist)\//, '$1/')}`;
const self = new Map<string, number>();
let busy = 0;
for (const n of profile.nodes) {
  if (n.callFrame.functionName === '(idle)') continue;
  self.set(name(n), (self.get(name(n)) ?? 0) + n.hitCount);
  busy += n.hitCount;
}
console.log(`profile: ${file}\nself time, share of busy samples:`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${((v / busy) * 100).toFixed(1).padStart(5)}%  ${k}`);
// Total (inclusive) time of the project's functions: each counted once per sample however deep it recurs.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const inclusive = new Map<string, number>();
const walk = (n: Node, seen: Set<string>): number => {
  let hits = n.hitCount;
  for (const c of n.children ?? []) hits += walk(byId.get(c)!, seen);
  return hits;
};
const visit = (n: Node, open: Set<string>) => {
  const k = name(n);
  const mine = /^\S+ (src|bench|dist)\//.test(k);
  if (mine && !open.has(k)) inclusive.set(k, (inclusive.get(k) ?? 0) + walk(n, open));
  const next = mine ? new Set(open).add(k) : open;
  for (const c of n.children ?? []) visit(byId.get(c)!, next);
};
visit(profile.nodes[0]!, new Set());
console.log("total time of the project's functions:");
for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${((v / busy) * 100).toFixed(1).padStart(5)}%  ${k}`);
process.exit(0);
