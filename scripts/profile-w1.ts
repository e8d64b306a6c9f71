/**
 * `node --import tsx/esm scripts/profile-w1.ts [--n 2000] [--warmup 500] [--rounds 10] [--profile <file>]`: gateway CPU
 * per W1 request.
 *
 * The sandbox runs in a child process (its answers replayed from memory
 * after the first, so that its own CPU does not compete with the gateway's
 * for cores), so this process's CPU time is the
 * gateway's plus the small GraphQL client's. The client's share is measured
 * on its own (the same POST answered by a canned body from a bare HTTP
 * server) and subtracted, so "gateway" below is what the gateway itself
 * costs per W1 request. For scale, the direct REST call W1 stands for (GET
 * the same list page, read and parse its body) is measured the same way.
 *
 * `--profile <file.cpuprofile>` writes a CPU profile of the gateway loop only
 * (open it in Chrome DevTools; self time shows where the CPU goes).
 */
// First: graphql-js reads NODE_ENV when it is loaded (production unless set).
import '../src/production.ts';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

const W1 = `{ events(first: 20) { totalCount nodes { title startDate venues { title city } organizers { title } } } }`;

/**
 * The child: the sandbox behind a front that answers a repeated GET from
 * memory with the sandbox's own bytes. The sandbox builds each list page from
 * its database (~20 ms of its CPU), which on a small machine competes with the
 * gateway for cores and makes the gateway's figures noisy; replayed, the
 * gateway sees the same answers and nothing else moves.
 */
async function sandboxChild(): Promise<void> {
  const { startSandbox } = await import('../packages/sandbox/src/server.ts');
  const sb = await startSandbox({ db: ':memory:', port: 0 });
  const seen = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
  const front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = `${req.method} ${req.url} ${req.headers.authorization ?? ''}`;
      const hit = req.method === 'GET' ? seen.get(key) : undefined;
      if (hit) {
        res.writeHead(hit.status, hit.headers);
        res.end(hit.body);
        return;
      }
      const headers = { ...req.headers } as Record<string, string>;
      delete headers.host;
      void fetch(`${sb.origin}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      }).then(async (r) => {
        const body = Buffer.from(await r.arrayBuffer());
        const out: Record<string, string> = {};
        r.headers.forEach((v, k) => {
          if (k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive')
            out[k] = v;
        });
        out['content-length'] = String(body.length);
        if (req.method === 'GET') seen.set(key, { status: r.status, headers: out, body });
        res.writeHead(r.status, out);
        res.end(body);
      });
    });
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  const port = (front.address() as AddressInfo).port;
  process.stdout.write(`${JSON.stringify({ url: sb.url.replace(sb.origin, `http://127.0.0.1:${port}`) })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void sb.close().then(() => process.exit(0)));
}

/** Starts the sandbox in a child process (its CPU is not ours) and returns its REST root. */
function startChildSandbox(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv.filter((a) => !a.startsWith('--cpu-prof') && a !== '--prof'),
      fileURLToPath(import.meta.url),
      '--sandbox',
    ],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl >= 0)
        resolve({ url: (JSON.parse(buf.slice(0, nl)) as { url: string }).url, stop: () => child.stdin.end() });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
}

async function postJson(url: string, body: string): Promise<unknown> {
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return res.body.json();
}

/** CPU milliseconds (user + system) per call of `fn`, over `n` sequential calls. */
async function cpuPer(n: number, fn: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  const wall = (performance.now() - t0) / n;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1000 / n, wall };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * The three sides measured in `rounds` interleaved blocks (client, REST call,
 * gateway; then the next block), each side's figure the median of its blocks:
 * a machine whose speed drifts (a shared VM) moves all three alike, and one
 * slow block does not move the median.
 */
async function interleaved(
  n: number,
  rounds: number,
  sides: Record<'client' | 'floor' | 'total', () => Promise<unknown>>,
) {
  const per = Math.max(1, Math.round(n / rounds));
  const seen = { client: [] as number[], floor: [] as number[], total: [] as number[], wall: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    seen.client.push((await cpuPer(per, sides.client)).cpu);
    seen.floor.push((await cpuPer(per, sides.floor)).cpu);
    const t = await cpuPer(per, sides.total);
    seen.total.push(t.cpu);
    seen.wall.push(t.wall);
  }
  return { client: median(seen.client), floor: median(seen.floor), total: median(seen.total), wall: median(seen.wall) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      n: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      sandbox: { type: 'boolean' },
      profile: { type: 'string' },
    },
    strict: true,
  });
  if (values.sandbox) return sandboxChild();
  const n = Number(values.n ?? 2000);
  const warmup = Number(values.warmup ?? 500);
  const rounds = Number(values.rounds ?? 10);

  const { parseConfig } = await import('../src/config.ts');
  const { startGateway } = await import('../src/server.ts');
  const sb = await startChildSandbox();
  // The upstream cache off: profile the gateway's own work, not cache hits.
  const gateway = await startGateway(parseConfig({ port: 0, cache: { ttlSeconds: 0 } }), sb.url);
  const body = JSON.stringify({ query: W1 });
  const answer = (await postJson(gateway.url, body)) as { data?: { events?: { nodes?: unknown[] } }; errors?: unknown };
  if (answer.errors || answer.data?.events?.nodes?.length !== 20)
    throw new Error(`W1 failed: ${JSON.stringify(answer).slice(0, 500)}`);

  // The client's own share: the same POST, answered with the same bytes by a bare server.
  const canned = JSON.stringify(answer);
  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(canned);
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/graphql`;

  // The direct REST call W1 stands for (the legacy list the gateway sends).
  const rest = `${sb.url}calendar/events/v1/events?status=publish&start_date=1900-01-01%2000%3A00%3A00&end_date=9999-12-31%2023%3A59%3A59&page=1&per_page=20`;
  const restCall = async () => {
    const res = await request(rest);
    return JSON.parse(await res.body.text());
  };

  const sides = { client: () => postJson(bareUrl, body), floor: restCall, total: () => postJson(gateway.url, body) };
  for (const side of Object.values(sides)) for (let i = 0; i < warmup; i++) await side();
  const m = await interleaved(n, rounds, sides);
  if (values.profile) {
    // A separate pass: the profile covers the gateway's requests only.
    const inspector = new Session();
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
    await inspector.post('Profiler.start');
    await cpuPer(n, sides.total);
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(values.profile, JSON.stringify(profile));
    inspector.disconnect();
  }
  const restBytes = Buffer.byteLength(JSON.stringify(await restCall()));

  const f = (x: number) => x.toFixed(3);
  console.log(
    `W1 over ${n} sequential requests per side (after ${warmup} warm-up), in ${rounds} interleaved blocks (medians), sandbox in a child process, answers replayed`,
  );
  console.log(`  process CPU per W1 request (gateway + client):  ${f(m.total)} ms  (wall ${f(m.wall)} ms)`);
  console.log(`  client alone (same POST, canned answer):        ${f(m.client)} ms`);
  console.log(`  gateway CPU per W1 request:                     ${f(m.total - m.client)} ms`);
  console.log(`  direct REST call (GET + parse ${(restBytes / 1024).toFixed(0)} KB), for scale: ${f(m.floor)} ms`);
  console.log(`  gateway CPU on top of the REST call:            ${f(m.total - m.client - m.floor)} ms`);

  await new Promise<void>((r) => bare.close(() => r()));
  await gateway.close();
  sb.stop();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
