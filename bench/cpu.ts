/**
 * What the gateway process really pays per request, over whole measured runs
 * (issue 19's "honest CPU figures"):
 *
 *   npm run bench:cpu
 *
 * The sandbox and each gateway run as processes of their own, on loopback;
 * each gateway logs as shipped (info, JSON). A gateway's CPU is its own
 * `process.cpuUsage()` (bench/gateway-process.ts), read before and after each
 * measured block, so everything it does is counted: HTTP, parsing, execution,
 * its upstream requests and their JSON, logging, metrics, timers. Blocks
 * alternate with a REST client (this process) reading the same interface
 * (the legacy list W1 reads, parsed, its fields picked), whose own CPU per
 * request stands beside it.
 *
 * Workloads: W1 uncached (CACHE_TTL_SECONDS=0), W1 hot (the response cache:
 * the same query again), `{ __typename }`; then W1 hot and `{ __typename }`
 * throughput at concurrency 8, and the bytes of a 200-event answer with and
 * without compression.
 *
 * BENCH_REQUESTS (default 300 per workload and side), BENCH_BLOCK (25).
 */
import '../src/production.ts';
import { client, gateway, gql, rest, sandbox, TYPENAME, W1, type GatewayProcess } from './cpu-kit.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 25);
const own = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** Alternating blocks: the gateway's CPU per request (its process), and the REST client's (this process). */
async function measure(g: GatewayProcess, query: string, restSide: (() => Promise<void>) | null): Promise<{ gateway: number; client: number; rest: number | null }> {
  const c = client(g.url);
  for (let i = 0; i < 50; i++) await gql(c, query);
  let gw = 0;
  let cl = 0;
  let rs = 0;
  for (let done = 0; done < REQUESTS; done += BLOCK) {
    const g0 = await g.cpu();
    const c0 = own();
    for (let i = 0; i < BLOCK; i++) await gql(c, query);
    cl += own() - c0;
    gw += (await g.cpu()) - g0;
    if (restSide) {
      const r0 = own();
      for (let i = 0; i < BLOCK; i++) await restSide();
      rs += own() - r0;
    }
  }
  await c.pool.close();
  return { gateway: gw / REQUESTS / 1000, client: cl / REQUESTS / 1000, rest: restSide ? rs / REQUESTS / 1000 : null };
}

async function throughput(g: GatewayProcess, query: string, concurrency: number, total: number): Promise<number> {
  const c = client(g.url);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await gql(c, query);
    }),
  );
  const rps = total / ((performance.now() - t0) / 1000);
  await c.pool.close();
  return rps;
}

/** Bytes on the wire (undici's request does not decode): the answer as sent in `encoding`. */
async function bytes(url: string, query: string, encoding: string): Promise<number> {
  const c = client(url);
  const r = await c.pool.request({ method: 'POST', path: c.path, headers: { 'content-type': 'application/json', 'accept-encoding': encoding }, body: JSON.stringify({ query }) });
  let n = 0;
  for await (const chunk of r.body) n += (chunk as Buffer).length;
  await c.pool.close();
  return n;
}

const sb = await sandbox();
const restClient = client(sb.url.replace(/\/$/, ''));
const uncached = await gateway(sb.url, { CACHE_TTL_SECONDS: '0' });
const hot = await gateway(sb.url, { CACHE_TTL_SECONDS: '60' });
try {
  const rows: [string, Awaited<ReturnType<typeof measure>>][] = [
    ['W1 uncached', await measure(uncached, W1, () => rest(restClient))],
    ['W1 hot (response cache)', await measure(hot, W1, () => rest(restClient))],
    ['{ __typename }', await measure(uncached, TYPENAME, null)],
  ];
  const f = (n: number | null) => (n === null ? '—' : `${n.toFixed(2)} ms`);
  console.log(`\nCPU per request, ${REQUESTS} requests per workload and side, blocks of ${BLOCK}, logging at info (JSON)`);
  console.log(`${'workload'.padEnd(26)}${'gateway process'.padEnd(18)}${'its client'.padEnd(14)}REST client, same interface`);
  for (const [name, r] of rows) console.log(`${name.padEnd(26)}${f(r.gateway).padEnd(18)}${f(r.client).padEnd(14)}${f(r.rest)}`);
  const hotRps = await throughput(hot, W1, 8, REQUESTS * 4);
  const typeRps = await throughput(uncached, TYPENAME, 8, REQUESTS * 4);
  console.log(`\nthroughput at concurrency 8: W1 hot ${hotRps.toFixed(0)} req/s, { __typename } ${typeRps.toFixed(0)} req/s, ratio ${(hotRps / typeRps).toFixed(2)}`);
  const big = '{ events(first: 200) { nodes { title startDate endDate venues { title city address } organizers { title email } } } }';
  const plain = await bytes(uncached.url, big, 'identity');
  const gz = await bytes(uncached.url, big, 'gzip');
  const br = await bytes(uncached.url, big, 'br');
  console.log(`events(first: 200) answer: ${plain} bytes plain, ${gz} gzip, ${br} br`);
} finally {
  for (const g of [uncached, hot]) g.child.kill('SIGTERM');
  await restClient.pool.close();
  sb.stop();
}
process.exit(0);
