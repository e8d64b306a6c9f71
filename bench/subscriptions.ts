/**
 * Subscriptions at scale (docs/subscriptions.md "Figures"), over loopback only:
 *
 *   npm run bench:subscriptions
 *
 * This process runs the gateway alone; the sandbox (TEC 6.15 shape) runs in a
 * child process, and the subscribers in another (plain HTTP clients of GraphQL
 * over SSE, distinct connections, anonymous, each `eventChanged { kind
 * databaseId at event { title } }`), so this process's memory is the gateway's.
 *
 * - Polls per interval: the gateway's requests to the site, counted from the
 *   sandbox's request log over BENCH_INTERVALS quiet intervals, with 1
 *   subscriber and with all of them (the goal: the same number).
 * - Memory: this process's RSS (after a full GC) with 1 subscriber and with
 *   BENCH_SUBSCRIBERS; the difference per subscriber.
 * - Delay from a change made on the site (the sandbox's REST API, as the admin)
 *   to its delivery, for every subscriber: p50, p99 and the worst, over
 *   BENCH_CHANGES changes made at random moments of the poll interval (so the
 *   wait for the next poll, up to one interval, is part of it).
 * - The same for writes through the gateway (published at once): from the
 *   mutation's start.
 *
 * Environment: BENCH_SUBSCRIBERS (5000), BENCH_POLL_SECONDS (2), BENCH_CHANGES
 * (10), BENCH_INTERVALS (5). The figures are printed as a table and as JSON.
 */
// First: graphql-js reads NODE_ENV when it is loaded (production unless set).
import '../src/production.ts';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { request, Agent, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/config.ts';
import { startGateway } from '../src/server.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 5000);
const POLL_SECONDS = Number(process.env.BENCH_POLL_SECONDS ?? 2);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 10);
const INTERVALS = Number(process.env.BENCH_INTERVALS ?? 5);
const QUERY = 'subscription Bench { eventChanged { kind databaseId at event { title } } }';
/** The sandbox's seeded admin (packages/sandbox/src/seed.ts): deterministic. */
const ADMIN = `Basic ${Buffer.from('admin:sandboxadminpassword0000').toString('base64')}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- subscribers (child process)

/** `--clients <url>`: opens subscribers on request, records when each change reached each one. */
function clients(url: string): void {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const open: ClientRequest[] = [];
  let connected = 0;
  let failed = 0;
  /** Title -> times it was received (one per subscriber). */
  const received = new Map<string, number[]>();
  const body = JSON.stringify({ query: QUERY });
  /** Opens one subscriber; resolves when its stream is open (true) or has failed its last try (false). */
  const subscribe = (tries = 3): Promise<boolean> =>
    new Promise((resolve) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            accept: 'text/event-stream',
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            return resolve(false);
          }
          resolve(true);
          res.setEncoding('utf8');
          let buf = '';
          res.on('data', (chunk: string) => {
            const at = Date.now();
            buf += chunk;
            let cut;
            while ((cut = buf.indexOf('\n\n')) >= 0) {
              const frame = buf.slice(0, cut);
              buf = buf.slice(cut + 2);
              if (!frame.startsWith('event: next')) continue;
              const title = JSON.parse(frame.slice(frame.indexOf('data:') + 5)).data?.eventChanged?.event?.title;
              if (typeof title !== 'string') continue;
              const list = received.get(title) ?? [];
              list.push(at);
              received.set(title, list);
            }
          });
        },
      );
      // A connection refused while the machine is busy (a full accept queue) is tried again, as a client would.
      req.on('error', () =>
        tries > 1 ? setTimeout(() => void subscribe(tries - 1).then(resolve), 200) : resolve(false),
      );
      req.end(body);
      open.push(req);
    });
  process.on('message', async (m: { open?: number; report?: boolean; close?: boolean }) => {
    if (m.open) {
      // At most 100 connections being opened at once.
      let next = 0;
      const worker = async () => {
        while (next < m.open!) {
          next++;
          if (await subscribe()) connected++;
          else failed++;
        }
      };
      await Promise.all(Array.from({ length: Math.min(100, m.open) }, worker));
      process.send!({ connected, failed });
    }
    if (m.report) process.send!({ received: Object.fromEntries(received) });
    if (m.close) {
      for (const r of open) r.destroy();
      process.exit(0);
    }
  });
  process.send!({ ready: true });
}

// ---------------------------------------------------------------- the bench

interface Child {
  proc: ChildProcess;
  ask<T>(msg: object, key: string): Promise<T>;
}

function clientProcess(url: string): Promise<Child> {
  const proc = fork(fileURLToPath(import.meta.url), ['--clients', url], {
    execArgv: ['--import', 'tsx/esm'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T>(msg: object, key: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (!(key in m)) return;
        proc.off('message', on);
        resolve(m as T);
      };
      proc.on('message', on);
      proc.send(msg);
    });
  return new Promise((resolve) => proc.once('message', () => resolve({ proc, ask })));
}

async function sandboxProcess(logFile: string): Promise<{ url: string; origin: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx/esm', 'packages/sandbox/src/cli.ts', '--port', '0', '--db', ':memory:'],
    {
      env: {
        ...process.env,
        SANDBOX_CONTROL: '0',
        SANDBOX_JITTER_MS: '0',
        SANDBOX_FAULTS: '',
        SANDBOX_REQUEST_LOG: logFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (c) => {
      buf += String(c);
      const m = /sandbox REST root: (\S+)/.exec(buf);
      if (m) resolve({ url: m[1]!, origin: new URL(m[1]!).origin, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
  });
}

/** The gateway's requests to the site between two instants, from the sandbox's log. */
function gatewayRequests(
  logFile: string,
  from: number,
  to: number,
): { path: string; query: Record<string, unknown> }[] {
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { path: string; query: Record<string, unknown>; agent?: string; at: number })
    .filter((e) => e.agent?.startsWith('sitegraph') && e.at >= from && e.at < to);
}

function rss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

async function pollsPerInterval(logFile: string): Promise<{ perInterval: number; routes: Record<string, number> }> {
  const from = Date.now();
  await sleep(INTERVALS * POLL_SECONDS * 1000);
  const got = gatewayRequests(logFile, from, Date.now());
  const routes: Record<string, number> = {};
  for (const e of got) {
    const key = `${e.path}${e.query.orderby ? ` orderby=${String(e.query.orderby)}` : ''}`;
    routes[key] = (routes[key] ?? 0) + 1;
  }
  return { perInterval: got.length / INTERVALS, routes };
}

async function restWrite(origin: string, method: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${origin}/wp-json${path}`, {
    method,
    headers: { authorization: ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc)
    console.warn('(run with node --expose-gc, as npm run bench:subscriptions does, for RSS after a full GC)');
  const dir = mkdtempSync(join(tmpdir(), 'sitegraph-bench-subs-'));
  const logFile = join(dir, 'sandbox.log');
  const sandbox = await sandboxProcess(logFile);
  const config = parseConfig({
    port: 0,
    cache: { ttlSeconds: 0 },
    log: { level: 'warn' },
    subscriptions: { pollSeconds: POLL_SECONDS, maxPerCaller: SUBSCRIBERS + 100 },
  });
  const gateway = await startGateway(config, sandbox.url);
  const subscribers = await clientProcess(gateway.url);
  const figures: Record<string, unknown> = {
    subscribers: SUBSCRIBERS,
    pollSeconds: POLL_SECONDS,
    changes: CHANGES,
    node: process.version,
  };
  try {
    const idle = rss();
    await subscribers.ask({ open: 1 }, 'connected');
    await sleep(2 * POLL_SECONDS * 1000);
    const one = await pollsPerInterval(logFile);
    const rssOne = rss();

    const t0 = Date.now();
    const opened = await subscribers.ask<{ connected: number; failed: number }>({ open: SUBSCRIBERS - 1 }, 'connected');
    const openSeconds = (Date.now() - t0) / 1000;
    if (opened.connected < SUBSCRIBERS)
      console.warn(`only ${opened.connected} of ${SUBSCRIBERS} subscribers connected (${opened.failed} failed)`);
    figures.connected = opened.connected;
    await sleep(2 * POLL_SECONDS * 1000);
    const many = await pollsPerInterval(logFile);
    const rssMany = rss();

    // Changes made on the site, at random moments of the poll interval.
    const upcoming = (await (
      await fetch(`${sandbox.origin}/wp-json/calendar/events/v1/events?per_page=${CHANGES}`)
    ).json()) as { events: { id: number }[] };
    const made = new Map<string, number>();
    for (let i = 0; i < CHANGES; i++) {
      await sleep(Math.random() * POLL_SECONDS * 1000 + POLL_SECONDS * 500);
      const title = `Bench site change ${i}`;
      await restWrite(
        sandbox.origin,
        'POST',
        `/calendar/events/v1/events/${upcoming.events[i % upcoming.events.length]!.id}`,
        { title },
      );
      made.set(title, Date.now());
    }
    // Writes through the gateway, from the mutation's start.
    const mutationMs: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const title = `Bench gateway write ${i}`;
      const start = Date.now();
      const res = await fetch(gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: ADMIN },
        body: JSON.stringify({
          query:
            'mutation($id: ID!, $t: String!) { updateEvent(id: $id, input: { title: $t }) { event { databaseId } } }',
          variables: { id: String(upcoming.events[i % upcoming.events.length]!.id), t: title },
        }),
      });
      await res.json();
      mutationMs.push(Date.now() - start);
      made.set(title, start);
      await sleep(POLL_SECONDS * 300);
    }
    await sleep(3 * POLL_SECONDS * 1000);
    const { received } = await subscribers.ask<{ received: Record<string, number[]> }>({ report: true }, 'received');
    const delays = (prefix: string) => {
      const all: number[] = [];
      const first: number[] = [];
      const spread: number[] = [];
      let complete = 0;
      for (const [title, at] of made) {
        if (!title.startsWith(prefix)) continue;
        const got = received[title] ?? [];
        if (got.length >= opened.connected) complete++;
        all.push(...got.map((t) => t - at));
        if (got.length) {
          first.push(Math.min(...got) - at);
          spread.push(Math.max(...got) - Math.min(...got));
        }
      }
      return {
        samples: all.length,
        changesReachingEveryone: `${complete}/${CHANGES}`,
        p50Ms: pct(all, 50),
        p99Ms: pct(all, 99),
        maxMs: Math.max(...all),
        firstSubscriberP50Ms: pct(first, 50),
        fanOutP50Ms: pct(spread, 50),
        fanOutMaxMs: Math.max(...spread),
      };
    };

    Object.assign(figures, {
      openSeconds,
      pollsPerInterval: {
        oneSubscriber: one.perInterval,
        allSubscribers: many.perInterval,
        routesOne: one.routes,
        routesAll: many.routes,
      },
      rssMiB: { idle: idle / 2 ** 20, oneSubscriber: rssOne / 2 ** 20, allSubscribers: rssMany / 2 ** 20 },
      rssPerSubscriberKiB: (rssMany - rssOne) / (SUBSCRIBERS - 1) / 1024,
      siteChangeToDelivery: delays('Bench site change'),
      gatewayWriteToDelivery: { ...delays('Bench gateway write'), mutationP50Ms: pct(mutationMs, 50) },
    });
    const f = figures as any;
    const row = (a: string, b: string) => console.log(`${a.padEnd(48)} ${b}`);
    console.log(
      `\nsubscriptions: ${SUBSCRIBERS} SSE subscribers, SUBSCRIPTION_POLL_SECONDS=${POLL_SECONDS}, ${CHANGES} changes each way, node ${process.version}\n`,
    );
    row('opening them all', `${openSeconds.toFixed(1)} s`);
    row('site requests per poll interval, 1 subscriber', String(f.pollsPerInterval.oneSubscriber));
    row(`site requests per poll interval, ${SUBSCRIBERS} subscribers`, String(f.pollsPerInterval.allSubscribers));
    row(
      'RSS: 1 subscriber / all',
      `${f.rssMiB.oneSubscriber.toFixed(0)} MiB / ${f.rssMiB.allSubscribers.toFixed(0)} MiB`,
    );
    row('RSS per subscriber', `${f.rssPerSubscriberKiB.toFixed(1)} KiB`);
    for (const [name, d] of [
      ['site change -> delivery', f.siteChangeToDelivery],
      ['gateway write -> delivery', f.gatewayWriteToDelivery],
    ] as const) {
      row(
        `${name}: p50 / p99 / max`,
        `${d.p50Ms} / ${d.p99Ms} / ${d.maxMs} ms (${d.samples} deliveries; ${d.changesReachingEveryone} changes reached everyone)`,
      );
      row(
        '  first subscriber p50; fan-out to all p50 / max',
        `${d.firstSubscriberP50Ms} ms; ${d.fanOutP50Ms} / ${d.fanOutMaxMs} ms`,
      );
    }
    row('  gateway write: the mutation itself, p50', `${f.gatewayWriteToDelivery.mutationP50Ms} ms`);
    console.log(`\n${JSON.stringify(figures, null, 2)}`);
  } finally {
    subscribers.proc.send({ close: true });
    await sleep(200);
    subscribers.proc.kill();
    await gateway.close();
    sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--clients') clients(process.argv[3]!);
else
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
