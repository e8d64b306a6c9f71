/**
 * The gateway as its own process, for bench/cpu.ts: started with the
 * configuration of the environment (as `npm start` reads it), logging as
 * shipped (info, JSON to stdout, which the parent drains), and answering the
 * parent's `cpu` messages with this process's own `process.cpuUsage()`.
 */
import '../src/production.ts';
import { loadConfig } from '../src/config.ts';
import { startGateway } from '../src/server.ts';

const upstream = process.env.BENCH_UPSTREAM;
if (!upstream || !process.send) {
  console.error('bench/gateway-process.ts is started by bench/cpu.ts (BENCH_UPSTREAM and an IPC channel)');
  process.exit(2);
}
const gateway = await startGateway(loadConfig(process.env), upstream);
process.send({ url: gateway.url });
process.on('message', (m) => {
  if (m === 'cpu') process.send!({ cpu: process.cpuUsage(), rss: process.memoryUsage().rss });
  if (m === 'stop') void gateway.close().then(() => process.exit(0));
});
