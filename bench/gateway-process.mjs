/**
 * The gateway as its own process, for bench/cpu.ts and bench/profile.ts:
 * started with the configuration of the environment (as `npm start` reads
 * it), logging as shipped (info, JSON to stdout, which the parent drains), and
 * answering the parent's `cpu` messages with this process's own
 * `process.cpuUsage()` (and bench/profile.ts's `profile-start` /
 * `profile-stop` with a CPU profile).
 *
 * BENCH_FROM=dist (the default) runs the compiled gateway, `dist/` as
 * `npm start` and the image run it (plain Node, no TypeScript loader: the
 * scripts compile first); BENCH_FROM=src runs `src/` through tsx (cpu-kit.ts
 * starts this file with tsx's loader then), whose name-keeping wrappers cost a
 * few per cent.
 */
import { Session } from 'node:inspector/promises';

const from = process.env.BENCH_FROM === 'src' ? { dir: '../src/', ext: '.ts' } : { dir: '../dist/', ext: '.js' };
await import(`${from.dir}production${from.ext}`);
const { loadConfig } = await import(`${from.dir}config${from.ext}`);
const { startGateway } = await import(`${from.dir}server${from.ext}`);
const upstream = process.env.BENCH_UPSTREAM;
if (!upstream || !process.send) {
  console.error(
    'bench/gateway-process.mjs is started by bench/cpu.ts and bench/profile.ts (BENCH_UPSTREAM and an IPC channel)',
  );
  process.exit(2);
}
const gateway = await startGateway(loadConfig(process.env), upstream);
process.send({ url: gateway.url });
// bench/profile.ts: a CPU profile of the measured requests only (not the start).
/** @type {Session | null} */
let inspector = null;
process.on('message', async (m) => {
  if (m === 'cpu') process.send({ cpu: process.cpuUsage(), rss: process.memoryUsage().rss });
  if (m === 'profile-start') {
    inspector = new Session();
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', {
      interval: Number(process.env.BENCH_PROFILE_INTERVAL ?? 100),
    });
    await inspector.post('Profiler.start');
    process.send({ profiling: true });
  }
  if (m === 'profile-stop' && inspector) {
    const { profile } = await inspector.post('Profiler.stop');
    inspector.disconnect();
    process.send({ profile });
  }
  if (m === 'stop') void gateway.close().then(() => process.exit(0));
});
