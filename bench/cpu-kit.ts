/**
 * What bench/cpu.ts and bench/profile.ts share: the sandbox and gateways as
 * processes of their own, a pooled client, and the workloads.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Pool, request } from 'undici';

export const W1 = '{ events(first: 20) { nodes { title startDate venues { title city } organizers { title } } } }';
export const TYPENAME = '{ __typename }';
/** The legacy list's open window, as the gateway sends it. */
export const OPEN = 'status=publish&start_date=1900-01-01%2000%3A00%3A00&end_date=9999-12-31%2023%3A59%3A59';

/** The sandbox as a process of its own; `env` overrides its settings (SANDBOX_LATENCY_MS, 0 here). */
export async function sandbox(env: Record<string, string> = {}): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx/esm', 'packages/sandbox/src/cli.ts', '--port', '0', '--db', ':memory:'],
    {
      env: { ...process.env, SANDBOX_CONTROL: '0', SANDBOX_LATENCY_MS: '0', SANDBOX_JITTER_MS: '0', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve) => {
    let buf = '';
    child.stdout!.on('data', (c) => {
      buf += String(c);
      const m = /sandbox REST root: (\S+)/.exec(buf);
      if (m) resolve({ url: m[1]!, stop: () => child.kill('SIGTERM') });
    });
  });
}

/**
 * An instant site: a recording proxy in front of the sandbox. The first answer
 * to each GET (by path and query, Accept-Encoding and Authorization) comes from
 * the sandbox and is kept, bytes as sent (compressed as negotiated); every later
 * one is sent from memory at once. The sandbox takes about 20 ms to build a
 * 20-event page, and a process that idles that long between requests finds its
 * CPU caches cold: against this site the gateway and the REST client are
 * measured without that (bench/cpu.ts "instant site"; bench/profile.ts
 * BENCH_SITE=instant). Anything but a GET, and answers other than 200, are
 * passed through every time.
 */
export async function instantSite(upstream: string): Promise<{ url: string; close: () => Promise<void> }> {
  const u = new URL(upstream);
  const kept = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
  const hop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'host']);
  const server = createServer((req, res) => {
    void (async () => {
      const key = `${req.url} ${req.headers['accept-encoding'] ?? ''} ${req.headers.authorization ?? ''}`;
      let answer = req.method === 'GET' ? kept.get(key) : undefined;
      if (!answer) {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !hop.has(k)) headers[k] = v;
        const r = await request(`${u.origin}${req.url}`, {
          method: req.method as 'GET',
          headers,
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        });
        const body = Buffer.from(await r.body.arrayBuffer());
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.headers)) if (typeof v === 'string' && !hop.has(k)) h[k] = v;
        h['content-length'] = String(body.length);
        answer = { status: r.statusCode, headers: h, body };
        if (req.method === 'GET' && r.statusCode === 200) kept.set(key, answer);
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    })().catch((err: unknown) => res.destroy(err as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${u.pathname}${u.search}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  cpu(): Promise<number>;
  /** A CPU profile (node:inspector) of what the process does between these two calls. */
  profileStart(): Promise<void>;
  profileStop(): Promise<unknown>;
  /** Closes the gateway and waits for its process to exit (a --cpu-prof profile is written then). */
  stop(): Promise<void>;
}

/**
 * Which gateway the benchmarks run: the compiled `dist/`, as `npm start` and
 * the image run it (the bench scripts compile first), unless BENCH_FROM=src
 * (`src/` through tsx). bench/gateway-process.mjs, plain JavaScript, reads the
 * same variable.
 */
export const FROM_SRC = process.env.BENCH_FROM === 'src';

function checkDist(): void {
  if (!FROM_SRC && !existsSync('dist/server.js'))
    throw new Error('no dist/: run npm run compile first (the bench scripts do), or set BENCH_FROM=src');
}

/** The gateway's modules in this process (bench/gateway.ts), from where FROM_SRC says. */
export async function gatewayModules(): Promise<typeof import('../src/config.ts') & typeof import('../src/server.ts')> {
  checkDist();
  const [config, server] = await Promise.all([
    import(FROM_SRC ? '../src/config.ts' : '../dist/config.js') as Promise<typeof import('../src/config.ts')>,
    import(FROM_SRC ? '../src/server.ts' : '../dist/server.js') as Promise<typeof import('../src/server.ts')>,
  ]);
  return { ...config, ...server };
}

/**
 * A gateway process with these settings; `cpu()` is its own user + system CPU
 * so far, in µs. `script` another process speaking the same IPC protocol
 * (bench/floor-process.mjs).
 */
export async function gateway(
  upstream: string,
  env: Record<string, string>,
  script = 'bench/gateway-process.mjs',
): Promise<GatewayProcess> {
  checkDist();
  const child = fork(script, [], {
    execArgv: FROM_SRC ? ['--import', 'tsx/esm'] : [],
    env: {
      ...process.env,
      BENCH_UPSTREAM: upstream,
      PORT: '0',
      ADMIN_PORT: '0',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      RATE_LIMIT_MAX: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  child.stdout!.resume();
  const url = await new Promise<string>((resolve) => child.once('message', (m: any) => resolve(m.url)));
  return {
    url,
    child,
    cpu: () =>
      new Promise((resolve) => {
        child.once('message', (m: any) => resolve(m.cpu.user + m.cpu.system));
        child.send('cpu');
      }),
    profileStart: () =>
      new Promise((resolve) => {
        child.once('message', () => resolve());
        child.send('profile-start');
      }),
    profileStop: () =>
      new Promise((resolve) => {
        child.once('message', (m: any) => resolve(m.profile));
        child.send('profile-stop');
      }),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

export function client(url: string): { pool: Pool; path: string } {
  const u = new URL(url);
  return { pool: new Pool(u.origin, { connections: 16, pipelining: 1 }), path: u.pathname };
}

export async function gql(c: { pool: Pool; path: string }, query: string): Promise<void> {
  const r = await c.pool.request({
    method: 'POST',
    path: c.path,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = (await r.body.json()) as { errors?: unknown };
  if (r.statusCode !== 200 || body.errors)
    throw new Error(`gateway answered ${r.statusCode}: ${JSON.stringify(body.errors)}`);
}

/** A site body as sent (gzip, br or none), undone: what the bench's REST clients do with `accept-encoding`. */
export function undoCoding(raw: Buffer, coding: string | string[] | undefined): Buffer {
  return coding === 'gzip' ? gunzipSync(raw) : coding === 'br' ? brotliDecompressSync(raw) : raw;
}

/**
 * The REST client W1 stands for: the legacy list, parsed, its fields picked.
 * `acceptEncoding` (none by default, as undici's `request` sends) asks the site
 * to compress, as `fetch` and browsers do, and the body is undone here.
 */
export async function rest(c: { pool: Pool; path: string }, acceptEncoding?: string): Promise<void> {
  const r = await c.pool.request({
    method: 'GET',
    path: `${c.path}/calendar/events/v1/events?per_page=20&page=1&${OPEN}`,
    ...(acceptEncoding ? { headers: { 'accept-encoding': acceptEncoding } } : {}),
  });
  type Page = { events: any[] };
  const body = acceptEncoding
    ? (JSON.parse(
        undoCoding(Buffer.from(await r.body.arrayBuffer()), r.headers['content-encoding']).toString('utf8'),
      ) as Page)
    : ((await r.body.json()) as Page);
  let n = 0;
  for (const e of body.events) {
    n += String(e.title).length + String(e.start_date).length;
    for (const v of Array.isArray(e.venue) ? e.venue : e.venue ? [e.venue] : [])
      n += String(v.venue).length + String(v.city ?? '').length;
    for (const o of e.organizer ?? []) n += String(o.organizer).length;
  }
  if (n === 0) throw new Error('the REST client read nothing');
}
