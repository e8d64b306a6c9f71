/**
 * What W1 uncached costs any process in the gateway's place, layer by layer,
 * beside what sitegraph pays (issue 19's uncached goals: ≤ 2 ms of process
 * CPU, p50 at 30 ms ≤ 1.05× a REST client):
 *
 *   npm run bench:floors
 *
 * Sides: sitegraph (compiled, CACHE_TTL_SECONDS=0, logging at info as
 * shipped), four floors (bench/floor-process.mjs: the same site request
 * answered by hand with no GraphQL, with graphql-js, with Apollo Server and
 * graphql-js, with graphql-jit; no checks, logging, metrics, cache, sessions
 * or paging), and a REST client in this process reading the same legacy list
 * (cpu-kit.ts `rest`), twice: asking for no coding (undici's `request`), the
 * yardstick, and asking for gzip or brotli as the gateway and the floors do
 * (and as `fetch` and browsers do), so the site compresses the page and the
 * client undoes it. Each is its own process on loopback, against one sandbox
 * process.
 *
 * Each side runs alone (its process started for it, stopped after it),
 * alternating with a REST client that asks for no coding, the yardstick, as
 * bench/cpu.ts measures W1 uncached: blocks of BENCH_BLOCK requests (25) each,
 * so every side idles the same way between its blocks. The machine's speed
 * drifts between sides (other tenants of the host): the yardstick's figure
 * beside each row says by how much, and the ratio to it is the figure to
 * compare.
 *
 * 1. CPU at sandbox latency 0: BENCH_REQUESTS (600) per side after
 *    BENCH_WARMUP (1000). A process's CPU (`process.cpuUsage()`) is read once
 *    before and once after the whole run, so it includes what the process does
 *    while the REST client's blocks run (sitegraph's timers: about 1.6 ms of
 *    CPU a second idle). The REST clients' CPU is this process's, read around
 *    their blocks.
 * 2. Wall time at sandbox latency BENCH_LATENCY (30 ms; 0 leaves it out):
 *    BENCH_WALL_REQUESTS (300) per side, one at a time, p50 and p95, and the
 *    p50 against the yardstick's in the same run.
 */
import { client, gateway, gql, rest, sandbox, W1, type GatewayProcess } from './cpu-kit.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 600);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 25);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000);
const LATENCY = Number(process.env.BENCH_LATENCY ?? 30);
const WALL_REQUESTS = Number(process.env.BENCH_WALL_REQUESTS ?? 300);

const FLOORS = [
  ['floor: no GraphQL', 'proxy'],
  ['floor: graphql-js', 'graphql-js'],
  ['floor: Apollo + graphql-js', 'apollo'],
  ['floor: graphql-jit', 'jit'],
] as const;

interface Side {
  name: string;
  once: () => Promise<void>;
  /** The side's process; none for a REST client, which runs in this process. */
  process: GatewayProcess | null;
  close: () => Promise<void>;
}

/** The sides, each started only when it is measured (a process idling beside the others would cool down). */
function sides(siteUrl: string): (() => Promise<Side>)[] {
  const root = siteUrl.replace(/\/$/, '');
  const proc = (name: string, start: () => Promise<GatewayProcess>) => async (): Promise<Side> => {
    const g = await start();
    const c = client(g.url);
    return {
      name,
      once: () => gql(c, W1),
      process: g,
      close: async () => {
        await c.pool.close();
        await g.stop();
      },
    };
  };
  return [
    proc('sitegraph', () => gateway(siteUrl, { CACHE_TTL_SECONDS: '0' })),
    ...FLOORS.map(([name, floor]) =>
      proc(name, () => gateway(siteUrl, { BENCH_FLOOR: floor }, 'bench/floor-process.mjs')),
    ),
    async () => {
      const c = client(root);
      return {
        name: 'REST client, gzip or br',
        once: () => rest(c, 'gzip, br'),
        process: null,
        close: () => c.pool.close(),
      };
    },
  ];
}

const own = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/**
 * One side against the yardstick, as bench/cpu.ts measures W1 uncached: after
 * the warm-up, blocks of the side's requests alternate with the REST client's.
 * A process's CPU is read once over the whole run; this process's (a REST
 * client side, and the yardstick) around its blocks. `wall`: each request's
 * wall time too.
 */
async function pair(
  side: Side,
  yardstick: Side,
  warmup: number,
  requests: number,
): Promise<{ cpu: number; rest: number; wall: number[]; restWall: number[] }> {
  for (let i = 0; i < warmup; i++) await side.once();
  const wall: number[] = [];
  const restWall: number[] = [];
  let mine = 0;
  let theirs = 0;
  const p0 = (await side.process?.cpu()) ?? 0;
  for (let done = 0; done < requests; done += BLOCK) {
    for (const [s, times] of [
      [side, wall],
      [yardstick, restWall],
    ] as const) {
      const c0 = own();
      for (let i = 0; i < BLOCK; i++) {
        const t0 = performance.now();
        await s.once();
        times.push(performance.now() - t0);
      }
      if (s === yardstick) theirs += own() - c0;
      else if (!s.process) mine += own() - c0;
    }
  }
  if (side.process) mine = (await side.process.cpu()) - p0;
  return { cpu: mine / requests / 1000, rest: theirs / requests / 1000, wall, restWall };
}

async function run(latency: number): Promise<void> {
  const sb = await sandbox({ SANDBOX_LATENCY_MS: String(latency) });
  const rc = client(sb.url.replace(/\/$/, ''));
  const yardstick: Side = { name: 'REST client', once: () => rest(rc), process: null, close: () => rc.pool.close() };
  const wallOnly = latency > 0;
  try {
    for (let i = 0; i < WARMUP; i++) await yardstick.once();
    if (wallOnly) {
      console.log(
        `\n2. wall time per W1 uncached at sandbox latency ${latency} ms, ${WALL_REQUESTS} requests per side, alternating with the REST client in blocks of ${BLOCK}`,
      );
      console.log(
        `${'side'.padEnd(30)}${'p50'.padStart(10)}${'p95'.padStart(10)}${'REST p50'.padStart(10)}${'p50 × REST'.padStart(12)}`,
      );
    } else {
      console.log(
        `\n1. CPU per W1 uncached, ${REQUESTS} requests per side after ${WARMUP}, alternating with the REST client in blocks of ${BLOCK}; sandbox latency 0`,
      );
      console.log(
        `${'side'.padEnd(30)}${'process CPU'.padStart(12)}${'REST client'.padStart(13)}${'× REST'.padStart(9)}`,
      );
    }
    for (const start of sides(sb.url)) {
      const side = await start();
      try {
        const r = await pair(side, yardstick, wallOnly ? 200 : WARMUP, wallOnly ? WALL_REQUESTS : REQUESTS);
        if (wallOnly) {
          const p50 = pct(r.wall, 0.5);
          const restP50 = pct(r.restWall, 0.5);
          console.log(
            `${side.name.padEnd(30)}${`${p50.toFixed(1)} ms`.padStart(10)}${`${pct(r.wall, 0.95).toFixed(1)} ms`.padStart(10)}${`${restP50.toFixed(1)} ms`.padStart(10)}${(p50 / restP50).toFixed(3).padStart(12)}`,
          );
        } else {
          console.log(
            `${side.name.padEnd(30)}${`${r.cpu.toFixed(2)} ms`.padStart(12)}${`${r.rest.toFixed(2)} ms`.padStart(13)}${(r.cpu / r.rest).toFixed(2).padStart(9)}`,
          );
        }
      } finally {
        await side.close();
      }
    }
  } finally {
    await yardstick.close();
    sb.stop();
  }
}

await run(0);
if (LATENCY > 0 && WALL_REQUESTS > 0) await run(LATENCY);
process.exit(0);
