/**
 * The upstream cache, over loopback only (docs/caching.md quotes the figures).
 *
 *   npm run bench:cache
 *
 * The sandbox runs in a child process (its own request log counts what the
 * gateways sent). Three parts, bounded to well under two minutes:
 *
 * 1. Hit overhead: p50/p95 of a query answered from the cache (one upstream
 *    GET, stored) against a gateway-only query (`{ __typename }`), requests
 *    alternating one by one, concurrency 1, with the in-memory store and with
 *    Redis. Goal: a hit adds at most 1 ms at p50.
 * 2. W1 (`events(first: 20)` + venues + organizers) throughput at concurrency
 *    8 against the sandbox at 30 ms latency, cache off and on (the same query
 *    again and again: a hot cache), in alternating blocks.
 * 3. Two gateway processes on one Redis, requests alternating between them at
 *    concurrency 8, drawn from 40 distinct reads (W1 variants and single
 *    events): reads only (the first time each one misses), then with one write
 *    (updateEvent, invalidating the calendar family) every 50 operations; hit
 *    rate from both instances' metrics, throughput, upstream requests per operation.
 *
 * Environment: BENCH_REQUESTS (default 300 per measured side), REDIS_SERVER
 * (default `redis-server`, Debian's package).
 */
// First: graphql-js reads NODE_ENV when it is loaded (production unless set).
import '../src/production.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { parseConfig, type ConfigInput } from '../src/config.ts';
import { startGateway, type Gateway } from '../src/server.ts';
import { startTestRedis } from '../test/helpers/redis.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
/** Which parts to run (`1,2,3`). */
const PARTS = new Set((process.env.BENCH_PARTS ?? '1,2,3').split(',').map((s) => s.trim()));
const CONCURRENCY = 8;
const PASSWORD = 'bench cach eadm inpw';
const W1 = '{ events(first: 20) { nodes { title startDate venues { title city } organizers { title } } } }';
const tmp = mkdtempSync(join(tmpdir(), 'sitegraph-bench-cache-'));
const children: ChildProcess[] = [];

// ---------------------------------------------------------------- processes

/** Starts `args` with `env` and resolves the first match of `re` in its output. */
function child(args: string[], env: Record<string, string>, re: RegExp): Promise<string> {
  const proc = spawn(process.execPath, ['--import', 'tsx/esm', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${out}`)), 60_000);
    const seen = (c: Buffer) => {
      out += String(c);
      const m = re.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', seen);
    proc.stderr!.on('data', seen);
    proc.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`)));
  });
}

async function sandbox(latencyMs: number): Promise<{ url: string; requests: () => number }> {
  const log = join(tmp, `sandbox-${latencyMs}.log`);
  const url = await child(
    ['packages/sandbox/src/cli.ts', '--port', '0', '--db', ':memory:'],
    {
      SANDBOX_LATENCY_MS: String(latencyMs),
      SANDBOX_JITTER_MS: '0',
      SANDBOX_FAULTS: '',
      SANDBOX_CONTROL: '0',
      SANDBOX_REQUEST_LOG: log,
      SANDBOX_APP_PASSWORD: PASSWORD,
    },
    /sandbox REST root: (\S+)/,
  );
  const requests = () => {
    try {
      return readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    } catch {
      return 0;
    }
  };
  return { url, requests };
}

/** A gateway process: its GraphQL URL and its admin listener's (metrics). */
async function gatewayProcess(
  upstream: string,
  env: Record<string, string>,
): Promise<{ url: string; adminUrl: string }> {
  const banner = await child(
    ['src/main.ts', '--upstream', upstream, '--port', '0'],
    { LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env },
    /(sitegraph GraphQL: http:\/\/\S+\/graphql[\s\S]*?sitegraph admin: http:\/\/[^\s"]+)/,
  );
  // LOG_FORMAT=json: the banner's lines are JSON lines whose msg holds the same text.
  const [, url, adminUrl] = /GraphQL: (\S+)[\s\S]*admin: ([^\s"]+)/.exec(banner)!;
  return { url: url!, adminUrl: adminUrl! };
}

async function gatewayIn(upstream: string, config: ConfigInput): Promise<Gateway> {
  return startGateway(parseConfig({ port: 0, log: { level: 'silent' }, ...config } as ConfigInput), upstream);
}

// ---------------------------------------------------------------- clients

function client(url: string, authorization?: string) {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: 16 });
  return {
    pool,
    async query(query: string, variables?: Record<string, unknown>): Promise<any> {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization) headers.authorization = authorization;
      const res = await pool.request({
        method: 'POST',
        path: u.pathname,
        headers,
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.body.json()) as { data?: any; errors?: unknown };
      if (body.errors || res.statusCode !== 200)
        throw new Error(`graphql ${res.statusCode}: ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
      return body.data;
    },
  };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

/** `n` calls of `fn(i)`, `concurrency` at a time; returns the elapsed ms. */
async function burst(fn: (i: number) => Promise<unknown>, n: number, concurrency: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await fn(next++);
    }),
  );
  return performance.now() - t0;
}

/** A metric of a gateway, from its admin listener (`adminUrl`). */
async function metric(adminUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith(name))
    .reduce((a, l) => a + Number(l.split(' ').pop()), 0);
}

const f = (n: number, d = 2) => n.toFixed(d);

// ---------------------------------------------------------------- 1. hit overhead

async function hitOverhead(
  upstream: string,
  redisUrl: string,
  requests: () => number,
): Promise<{ store: string; only: number[]; hit: number[]; upstreamPerHit: number }[]> {
  const out = [];
  for (const [store, extra] of [
    ['memory', {}],
    ['Redis', { redisUrl }],
  ] as const) {
    const gw = await gatewayIn(upstream, { cache: { ttlSeconds: 3600 }, ...extra });
    const c = client(gw.url);
    const HIT = '{ organizers(first: 1) { nodes { title } } }';
    for (let i = 0; i < 50; i++) await Promise.all([c.query(HIT), c.query('{ __typename }')]);
    const only: number[] = [];
    const hit: number[] = [];
    await new Promise((r) => setTimeout(r, 200)); // the log file catches up
    const before = requests();
    for (let i = 0; i < REQUESTS; i++) {
      if (i % 2) {
        only.push(await timed(() => c.query('{ __typename }')));
        hit.push(await timed(() => c.query(HIT)));
      } else {
        hit.push(await timed(() => c.query(HIT)));
        only.push(await timed(() => c.query('{ __typename }')));
      }
    }
    await new Promise((r) => setTimeout(r, 200));
    const upstreamPerHit = (requests() - before) / REQUESTS;
    await c.pool.close();
    await gw.close();
    out.push({ store, only: sorted(only), hit: sorted(hit), upstreamPerHit });
  }
  return out;
}

// ---------------------------------------------------------------- 2. W1 throughput

async function w1Throughput(
  upstream: string,
  requests: () => number,
): Promise<{ off: number; on: number; offUp: number; onUp: number }> {
  const off = await gatewayIn(upstream, { cache: { ttlSeconds: 0 } });
  const on = await gatewayIn(upstream, { cache: { ttlSeconds: 3600 } });
  const sides = { off: client(off.url), on: client(on.url) };
  await sides.off.query(W1);
  await sides.on.query(W1);
  const ms = { off: 0, on: 0 };
  const up = { off: 0, on: 0 };
  // Alternating blocks (ABBA), a quarter of the requests each.
  for (const side of ['off', 'on', 'on', 'off'] as const) {
    const before = requests();
    ms[side] += await burst(() => sides[side].query(W1), REQUESTS / 2, CONCURRENCY);
    await new Promise((r) => setTimeout(r, 200)); // the log file catches up
    up[side] += requests() - before;
  }
  for (const c of Object.values(sides)) await c.pool.close();
  await off.close();
  await on.close();
  return {
    off: REQUESTS / (ms.off / 1000),
    on: REQUESTS / (ms.on / 1000),
    offUp: up.off / REQUESTS,
    onUp: up.on / REQUESTS,
  };
}

// ---------------------------------------------------------------- 3. two instances on one Redis

async function twoInstances(upstream: string, redisUrl: string, requests: () => number) {
  const env = { REDIS_URL: redisUrl, CACHE_TTL_SECONDS: '60' };
  const gateways = await Promise.all([gatewayProcess(upstream, env), gatewayProcess(upstream, env)]);
  const urls = gateways.map((g) => g.url);
  const anon = urls.map((u) => client(u));
  const admin = client(urls[0]!, `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`);
  const ids: number[] = (await anon[0]!.query('{ events(first: 30) { nodes { databaseId } } }')).events.nodes.map(
    (e: any) => e.databaseId,
  );
  const reads = [
    ...[5, 10, 15, 20, 25, 30, 35, 40, 45, 50].map(
      (n) => `{ events(first: ${n}) { nodes { title startDate venues { title city } organizers { title } } } }`,
    ),
    ...ids.map((id) => `{ event(id: "${id}", idType: DATABASE_ID) { title startDate venues { title } } }`),
  ];
  const lookups = async (result: string) =>
    (
      await Promise.all(gateways.map((g) => metric(g.adminUrl, `sitegraph_cache_lookups_total{result="${result}"}`)))
    ).reduce((a, b) => a + b, 0);
  const n = REQUESTS * 2;
  /** `n` operations alternating between the instances; a write through the first every `writeEvery` (0: none). */
  const phase = async (writeEvery: number) => {
    const [hits0, misses0, before] = [await lookups('hit'), await lookups('miss'), requests()];
    let writes = 0;
    const ms = await burst(
      async (i) => {
        if (writeEvery && i % writeEvery === writeEvery - 1) {
          writes += 1;
          await admin.query(
            `mutation($id: ID!, $t: String) { updateEvent(id: $id, input: { title: $t }) { event { title } } }`,
            { id: String(ids[i % ids.length]), t: `Bench ${i}` },
          );
          return;
        }
        await anon[i % 2]!.query(reads[(i * 7919) % reads.length]!);
      },
      n,
      CONCURRENCY,
    );
    await new Promise((r) => setTimeout(r, 300)); // the log file catches up
    const hits = (await lookups('hit')) - hits0;
    const misses = (await lookups('miss')) - misses0;
    return { writes, rps: n / (ms / 1000), hitRate: hits / (hits + misses), upstreamPerOp: (requests() - before) / n };
  };
  const readOnly = await phase(0);
  const withWrites = await phase(50);
  for (const c of [...anon, admin]) await c.pool.close();
  return { n, distinct: reads.length, readOnly, withWrites };
}

// ---------------------------------------------------------------- main

async function part1(redisUrl: string): Promise<void> {
  const fast = await sandbox(0);
  const hits = await hitOverhead(fast.url, redisUrl, fast.requests);
  console.log(
    `\n1. cache hit against a gateway-only query, sandbox latency 0, concurrency 1, ${REQUESTS} alternating requests each`,
  );
  console.log(
    `${'store'.padEnd(8)} ${'{ __typename } p50'.padStart(20)} ${'hit p50'.padStart(10)} ${'overhead p50'.padStart(14)} ${'hit p95'.padStart(10)}`,
  );
  for (const h of hits) {
    const over = pct(h.hit, 50) - pct(h.only, 50);
    console.log(
      `${h.store.padEnd(8)} ${`${f(pct(h.only, 50))} ms`.padStart(20)} ${`${f(pct(h.hit, 50))} ms`.padStart(10)} ${`${f(over)} ms`.padStart(14)} ${`${f(pct(h.hit, 95))} ms`.padStart(10)}   upstream requests per hit ${f(h.upstreamPerHit, 3)}; goal ≤ 1 ms: ${over <= 1 ? 'met' : 'MISSED'}`,
    );
  }
}

async function parts23(redisUrl: string): Promise<void> {
  const slow = await sandbox(30);
  if (!PARTS.has('2')) return void (await part3(slow, redisUrl));
  const w1 = await w1Throughput(slow.url, slow.requests);
  console.log(
    `\n2. W1 throughput, sandbox latency 30 ms, concurrency ${CONCURRENCY}, ${REQUESTS} requests per side (alternating blocks)`,
  );
  console.log(`cache off: ${f(w1.off, 0)} req/s (${f(w1.offUp, 1)} upstream requests per operation)`);
  console.log(
    `cache on:  ${f(w1.on, 0)} req/s (${f(w1.onUp, 3)} upstream requests per operation), ${f(w1.on / w1.off, 1)}×`,
  );
  if (PARTS.has('3')) await part3(slow, redisUrl);
}

async function part3(slow: { url: string; requests: () => number }, redisUrl: string): Promise<void> {
  const two = await twoInstances(slow.url, redisUrl, slow.requests);
  console.log(
    `\n3. two gateway processes on one Redis (TTL 60 s), sandbox latency 30 ms, concurrency ${CONCURRENCY}: ${two.n} operations`,
  );
  console.log(
    `   per phase alternating between them, drawn from ${two.distinct} distinct reads (W1 variants, single events)`,
  );
  for (const [label, r] of [
    ['reads only', two.readOnly],
    [`a write every 50 (${two.withWrites.writes})`, two.withWrites],
  ] as const) {
    console.log(
      `${label.padEnd(24)} hit rate ${f(r.hitRate * 100, 1)} %, ${f(r.rps, 0)} operations/s, ${f(r.upstreamPerOp, 2)} upstream requests per operation`,
    );
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const redis = await startTestRedis();
  try {
    if (PARTS.has('1')) await part1(redis.url);
    if (PARTS.has('2') || PARTS.has('3')) await parts23(redis.url);
    console.log(`\n(total ${f((performance.now() - started) / 1000, 0)} s)`);
  } finally {
    await stopChildren();
    await redis.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** SIGTERM, then SIGKILL for any child still running 5 s later. */
async function stopChildren(): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          const kill = setTimeout(() => c.kill('SIGKILL'), 5_000);
          c.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          c.kill('SIGTERM');
        }),
    ),
  );
}

main().catch(async (err: unknown) => {
  console.error(err);
  await stopChildren();
  process.exit(1);
});
