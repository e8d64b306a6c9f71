/**
 * What the gateway process really pays per request, over whole measured runs
 * (issue 19's "honest CPU figures"):
 *
 *   npm run bench:cpu
 *
 * The sandbox and each gateway run as processes of their own, on loopback;
 * each gateway logs as shipped (info, JSON). A gateway's CPU is its own
 * `process.cpuUsage()` (bench/gateway-process.mjs), read before and after the
 * whole measured run of a workload (after BENCH_WARMUP requests: a serving
 * process is warm), so everything it does is counted: HTTP, parsing,
 * execution, its upstream requests and their JSON, logging, metrics, timers,
 * GC, and what it spends while the REST client's blocks run. Blocks
 * alternate with a REST client (this process) reading the same interface
 * (the legacy list W1 reads, parsed, its fields picked), whose own CPU per
 * request stands beside it.
 *
 * Workloads: W1 uncached (CACHE_TTL_SECONDS=0), W1 hot (the response cache:
 * the same query again), `{ __typename }`, and both W1s again back to back
 * (no REST blocks between); W1 uncached again against an instant site (the
 * sandbox's answers replayed from memory, cpu-kit.ts instantSite), with the
 * REST client reading the same instant site: the sandbox takes about 20 ms a
 * page, and both processes pay more per request for idling that long (cold
 * caches), so this row is each one's cost without the wait, and then back to
 * back (b2b: the gateway never idles at all); then W1 hot and `{ __typename }`
 * throughput at concurrency 8; then compression both ways: a 200-event answer
 * of the gateway (uncached and hot) and a 50-event page of the site, each in
 * identity, gzip and br: bytes on the wire, p50 wall time, CPU per request.
 *
 * BENCH_REQUESTS (default 300 per workload and side), BENCH_BLOCK (25),
 * BENCH_WARMUP (2000 requests before each workload is measured).
 */
import '../src/production.ts';
import type { Pool } from 'undici';
import {
  client,
  gateway,
  gql,
  instantSite,
  OPEN,
  rest,
  sandbox,
  TYPENAME,
  undoCoding,
  W1,
  type GatewayProcess,
} from './cpu-kit.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 25);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2000);
const own = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/**
 * Alternating blocks of the gateway's requests and the REST client's. The
 * gateway's CPU is read once before and once after the whole measured run, so
 * it is all the process spent over it: its requests, and whatever it does
 * meanwhile (timers, the log's flushes, GC), the stretches when the REST client
 * runs included. Reading it around each block instead added each IPC exchange's
 * own cost to the figure (about 0.4 ms a request at blocks of 25). The clients,
 * in this process, are read around their blocks.
 */
async function measure(
  g: GatewayProcess,
  query: string,
  restSide: (() => Promise<void>) | null,
): Promise<{ gateway: number; client: number; rest: number | null }> {
  const c = client(g.url);
  for (let i = 0; i < WARMUP; i++) await gql(c, query);
  let cl = 0;
  let rs = 0;
  const g0 = await g.cpu();
  for (let done = 0; done < REQUESTS; done += BLOCK) {
    const c0 = own();
    for (let i = 0; i < BLOCK; i++) await gql(c, query);
    cl += own() - c0;
    if (restSide) {
      const r0 = own();
      for (let i = 0; i < BLOCK; i++) await restSide();
      rs += own() - r0;
    }
  }
  const gw = (await g.cpu()) - g0;
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

const ENCODINGS = ['identity', 'gzip', 'br'] as const;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * One answer asked for in each coding, `n` times: bytes on the wire (undici's
 * request does not decode), the wall time to the last byte (p50), and the
 * gateway process's CPU per request (compressing included).
 */
async function coded(
  g: GatewayProcess,
  query: string,
  encoding: string,
  n: number,
): Promise<{ bytes: number; ms: number; cpu: number }> {
  const c = client(g.url);
  const once = async () => {
    const r = await c.pool.request({
      method: 'POST',
      path: c.path,
      headers: { 'content-type': 'application/json', 'accept-encoding': encoding },
      body: JSON.stringify({ query }),
    });
    let size = 0;
    for await (const chunk of r.body) size += (chunk as Buffer).length;
    if (r.statusCode !== 200) throw new Error(`gateway answered ${r.statusCode}`);
    return size;
  };
  for (let i = 0; i < 5; i++) await once();
  const times: number[] = [];
  let size = 0;
  const c0 = await g.cpu();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    size = await once();
    times.push(performance.now() - t0);
  }
  const cpu = ((await g.cpu()) - c0) / n / 1000;
  await c.pool.close();
  return { bytes: size, ms: p50(times), cpu };
}

/**
 * A site request as the gateway's client makes it (the 50-event legacy page
 * W1's reads are made of), asked for in each coding: bytes on the wire, wall
 * time to the last byte (p50), and this process's CPU per request to read,
 * decompress and parse it.
 */
async function siteCoded(
  c: { pool: Pool; path: string },
  encoding: string,
  n: number,
): Promise<{ bytes: number; ms: number; cpu: number }> {
  const once = async () => {
    const r = await c.pool.request({
      method: 'GET',
      path: `${c.path}/calendar/events/v1/events?per_page=50&page=1&${OPEN}`,
      headers: { 'accept-encoding': encoding },
    });
    const chunks: Buffer[] = [];
    for await (const chunk of r.body) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const coding = r.headers['content-encoding'];
    if ((encoding === 'identity') !== (coding === undefined))
      throw new Error(`asked for ${encoding}, the site sent ${coding ?? 'identity'}`);
    const body = undoCoding(raw, coding);
    if (!(JSON.parse(body.toString('utf8')) as { events?: unknown[] }).events?.length)
      throw new Error('the site sent no events');
    return raw.length;
  };
  for (let i = 0; i < 5; i++) await once();
  const times: number[] = [];
  let size = 0;
  const c0 = own();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    size = await once();
    times.push(performance.now() - t0);
  }
  return { bytes: size, ms: p50(times), cpu: (own() - c0) / n / 1000 };
}

const sb = await sandbox();
const restClient = client(sb.url.replace(/\/$/, ''));
const uncached = await gateway(sb.url, { CACHE_TTL_SECONDS: '0' });
const hot = await gateway(sb.url, { CACHE_TTL_SECONDS: '60' });
const instant = await instantSite(sb.url);
const instantRest = client(instant.url.replace(/\/$/, ''));
const quick = await gateway(instant.url, { CACHE_TTL_SECONDS: '0' });
try {
  const rows: [string, Awaited<ReturnType<typeof measure>>][] = [
    ['W1 uncached', await measure(uncached, W1, () => rest(restClient))],
    ['W1 hot (response cache)', await measure(hot, W1, () => rest(restClient))],
    ['{ __typename }', await measure(uncached, TYPENAME, null)],
    // The same with no REST blocks between: traffic that never lets the process go idle.
    ['W1 uncached, back to back', await measure(uncached, W1, null)],
    ['W1 hot, back to back', await measure(hot, W1, null)],
    // The site's wait taken away (see the header): the same read by both sides, from memory.
    ['W1 uncached, instant site', await measure(quick, W1, () => rest(instantRest))],
    ['W1 uncached, instant, b2b', await measure(quick, W1, null)],
  ];
  const f = (n: number | null) => (n === null ? '—' : `${n.toFixed(2)} ms`);
  console.log(
    `\nCPU per request, ${REQUESTS} requests per workload and side, blocks of ${BLOCK}, logging at info (JSON)`,
  );
  console.log(
    `${'workload'.padEnd(28)}${'gateway process'.padEnd(18)}${'its client'.padEnd(14)}REST client, same interface`,
  );
  for (const [name, r] of rows)
    console.log(`${name.padEnd(28)}${f(r.gateway).padEnd(18)}${f(r.client).padEnd(14)}${f(r.rest)}`);
  // What the process spends when nobody asks anything (its timers): part of every figure above.
  const i0 = await hot.cpu();
  await new Promise((r) => setTimeout(r, 5000));
  console.log(`idle gateway: ${(((await hot.cpu()) - i0) / 5000).toFixed(2)} ms of CPU per second`);
  const hotRps = await throughput(hot, W1, 8, REQUESTS * 4);
  const typeRps = await throughput(uncached, TYPENAME, 8, REQUESTS * 4);
  console.log(
    `\nthroughput at concurrency 8: W1 hot ${hotRps.toFixed(0)} req/s, { __typename } ${typeRps.toFixed(0)} req/s, ratio ${(hotRps / typeRps).toFixed(2)}`,
  );
  // Compression, both ways: the gateway's answers (a 200-event answer, uncached: compressed as it is
  // sent; hot: the response cache keeps each coding's bytes) and the site's (its 50-event page).
  const big =
    '{ events(first: 200) { nodes { title startDate endDate venues { title city address } organizers { title email } } } }';
  const n = Math.max(20, Math.round(REQUESTS / 5));
  console.log(`\ncompression, ${n} requests each (bytes on the wire; p50 wall time to the last byte; CPU per request)`);
  console.log(
    `${'answer'.padEnd(44)}${'coding'.padEnd(10)}${'bytes'.padStart(8)}${'p50'.padStart(10)}${'CPU'.padStart(10)}`,
  );
  const row = (what: string, coding: string, r: { bytes: number; ms: number; cpu: number }, whose: string) =>
    console.log(
      `${what.padEnd(44)}${coding.padEnd(10)}${String(r.bytes).padStart(8)}${`${r.ms.toFixed(2)} ms`.padStart(10)}${`${r.cpu.toFixed(2)} ms`.padStart(10)}  ${whose}`,
    );
  for (const [what, g] of [
    ['gateway: events(first: 200), uncached', uncached],
    ['gateway: events(first: 200), hot', hot],
  ] as const) {
    for (const coding of ENCODINGS) row(what, coding, await coded(g, big, coding, n), 'gateway process');
  }
  for (const coding of ENCODINGS)
    row(
      'site: legacy list, 50 events',
      coding,
      await siteCoded(restClient, coding, n * 2),
      'client: read, decompress, parse',
    );
} finally {
  for (const g of [uncached, hot, quick]) g.child.kill('SIGTERM');
  await restClient.pool.close();
  await instantRest.pool.close();
  await instant.close();
  sb.stop();
}
process.exit(0);
