/**
 * Gateway overhead and throughput against the sandbox, over loopback only.
 *
 *   npm run bench            (SANDBOX_LATENCY_MS=20 npm run bench for a slower site)
 *
 * The sandbox runs in a child process (its own core); the gateway and the load
 * generator share this one. Each scenario sends a fixed number of requests at
 * a fixed concurrency and prints latency percentiles and throughput. "direct"
 * is the one REST call the first GraphQL scenario makes, so the difference
 * between the two is what the gateway adds.
 */
import { spawn } from 'node:child_process';
import { parseConfig } from '../src/config.ts';
import { startGateway } from '../src/server.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '1,8').split(',').map(Number);
const TEC_EEA = 'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.';

async function startSandboxProcess(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--db', ':memory:'], {
    env: { ...process.env, SANDBOX_CONTROL: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stopping = false;
  let errors = '';
  child.stderr!.on('data', (c) => (errors += String(c)));
  child.once('exit', (code) => {
    if (!stopping && code) console.error(`sandbox exited with ${code}:\n${errors}`);
  });
  // Keep reading stdout to the end (the child prints credentials after its URL).
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (chunk) => {
      buf += String(chunk);
      const m = /sandbox REST root: (\S+)/.exec(buf);
      if (m) {
        resolve({
          url: m[1]!,
          stop: () => {
            stopping = true;
            child.kill('SIGTERM');
          },
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it started`)));
  });
}

async function run(name: string, send: () => Promise<void>, CONCURRENCY: number): Promise<{ name: string; p50: number; p95: number; p99: number; rps: number }> {
  for (let i = 0; i < 50; i++) await send(); // warm-up
  const times: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next += 1;
        const t = performance.now();
        await send();
        times.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!;
  return { name, p50: pct(50), p95: pct(95), p99: pct(99), rps: times.length / elapsed };
}

async function main(): Promise<void> {
  const sandbox = await startSandboxProcess();
  const gateway = await startGateway(parseConfig({ port: 0 }), sandbox.url);
  const gql = (query: string) => async () => {
    const res = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const body = (await res.json()) as { errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
  };
  const rest = (path: string) => async () => {
    const res = await fetch(`${sandbox.url.replace(/\/$/, '')}${path}`, { headers: { 'x-tec-eea': TEC_EEA } });
    await res.arrayBuffer();
  };
  // Upcoming events: inside the window the legacy `include=` reaches (past ones are read one by one).
  const upcoming = `{ events(first: 20, where: { startDate: "${new Date().toISOString()}" }) { nodes { databaseId } } }`;
  const ids = ((await (await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: upcoming }) })).json()) as any).data.events.nodes.map((n: any) => n.databaseId);

  const scenarios: [string, () => Promise<void>][] = [
    // The one request `events(first: 20)` makes: the legacy list with an open window.
    ['direct REST: GET /calendar/events/v1/events?per_page=20 (open window)', rest('/calendar/events/v1/events?status=publish&start_date=1900-01-01%2000%3A00%3A00&end_date=9999-12-31%2023%3A59%3A59&page=1&per_page=20')],
    ['graphql: events(first: 20) { title startDate venues organizers } (1 upstream call)', gql('{ events(first: 20) { totalCount nodes { title startDate venues { title city } organizers { title } } } }')],
    ['graphql: ... + categories + tags (still 1 call: legacy embeds terms)', gql('{ events(first: 20) { totalCount nodes { title startDate venues { title city } organizers { title } categories { name } tags { name } } } }')],
    ['graphql: 20 aliased event(id:) (1 upstream call)', gql(`{ ${ids.map((id: number, i: number) => `e${i}: event(id: "${id}") { title startDate }`).join(' ')} }`)],
    ['graphql: events(first: 250) { databaseId title } (5 calls, 2 round trips)', gql('{ events(first: 250) { nodes { databaseId title } } }')],
    ['graphql: categories tree, parent: 0 + children (1 upstream call)', gql('{ categories(first: 50, where: { hideEmpty: false, parent: 0 }) { nodes { name children { name } } } }')],
    ['graphql: site { name } (no upstream call: gateway only)', gql('{ site { name timezone } }')],
  ];
  for (const c of CONCURRENCIES) {
    const results = [];
    for (const [name, send] of scenarios) results.push(await run(name, send, c));
    console.log(`\nsitegraph bench: ${REQUESTS} requests per scenario, concurrency ${c}, sandbox latency ${process.env.SANDBOX_LATENCY_MS ?? 0} ms`);
    console.log('scenario'.padEnd(86), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'p99 ms'.padStart(8), 'req/s'.padStart(8));
    for (const r of results) console.log(r.name.padEnd(86), r.p50.toFixed(2).padStart(8), r.p95.toFixed(2).padStart(8), r.p99.toFixed(2).padStart(8), r.rps.toFixed(0).padStart(8));
    console.log(`gateway overhead at p50 (events(first: 20) minus its one REST call): ${(results[1]!.p50 - results[0]!.p50).toFixed(2)} ms`);
  }
  await gateway.close();
  sandbox.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
