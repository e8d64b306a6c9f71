/**
 * A soak: two gateway instances on one Redis in front of one faulty site, under
 * steady mixed traffic for SOAK_MINUTES, over loopback only.
 *
 *   npm run soak                      (SOAK_MINUTES=20)
 *
 * Processes, each its own (so each instance's figures are its process's):
 * - the sandbox (TEC 6.15 shape, answering in 20-40 ms), with faults injected
 *   through its control routes: latency spikes, 5xx (WordPress errors and
 *   proxy pages), connection resets, stalled and malformed bodies, on a few
 *   read and write routes, a few requests at a time, switched on and off in
 *   phases over the run;
 * - one redis-server on a loopback port (no persistence: a restart brings it
 *   back empty, the harder case), shared by
 * - two gateways (`node dist/main.js`, compiled, configured by environment
 *   as `npm start` is: the upstream and response caches on, subscriptions on
 *   with a 2 s poll, logging JSON at info to a file).
 *
 * This process drives them: at SOAK_RATE operations per second (20), reads
 * from README.md's and docs/graph.md's examples (anonymous, some by GET, and
 * signed in), writes (creates and updates of events, venues and organizers,
 * and pairs updating one object through both instances at once), malformed
 * requests and bodies over the 1 MiB cap (with and without
 * `Expect: 100-continue`); beside that stream, bulk pulls of paged
 * connections, purges on the admin listeners, subscriptions over SSE and
 * WebSocket that connect and drop, and delivery probes (a change made through
 * a gateway, and one made on the site, watched for on both instances).
 * At 40% of the run Redis is killed and started again on its port
 * SOAK_REDIS_DOWN_SECONDS later; at 60% instance B is sent SIGTERM and started
 * again on its ports. Faults are paused around both.
 *
 * Every SOAK_SAMPLE_SECONDS (60) each instance's /metrics and /proc are read.
 * The report: the samples per instance; the least-squares slope of RSS and
 * heap after warm-up (the first 3 minutes or 20% of the run, whichever is
 * more; the restarted instance from its restart, with its own warm-up); every
 * answer classified (bench/soak/traffic.ts); the ledger of writes reconciled
 * against the site's REST API; the restarts; the goals, PASS or FAIL (exit
 * code 1 when one fails); then everything as JSON. Docs: docs/benchmarks.md
 * "Soak".
 *
 * Environment: SOAK_MINUTES (20), SOAK_RATE (20 operations/s in the steady
 * stream), SOAK_SAMPLE_SECONDS (60), SOAK_WARMUP_MINUTES (max(3, 20% of the
 * run)), SOAK_REDIS_DOWN_SECONDS (4), SOAK_POLL_SECONDS (2), SOAK_KEEP=1 (keep
 * the logs' directory; it is kept anyway when a goal fails).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { cpuPercent, metric, sampleInstance, trend, type Sample, type Trend } from './soak/metrics.ts';
import {
  GatewayProcess,
  freePort,
  killAllNow,
  redisServer,
  startSandbox,
  stopAll,
  type SandboxProcess,
} from './soak/processes.ts';
import { Subscribers } from './soak/subscribers.ts';
import { Driver, KLASSES, docQueries, type Outcome, type Target, type Violation } from './soak/traffic.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 20);
const RATE = Number(process.env.SOAK_RATE ?? 20);
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 60);
const REDIS_DOWN_SECONDS = Number(process.env.SOAK_REDIS_DOWN_SECONDS ?? 4);
const POLL_SECONDS = Number(process.env.SOAK_POLL_SECONDS ?? 2);
const KEEP = process.env.SOAK_KEEP === '1';
/** Warm-up discarded before a slope: the first 3 minutes or 20% of what is fitted, whichever is more. */
const warmupOf = (lengthMinutes: number) =>
  process.env.SOAK_WARMUP_MINUTES !== undefined
    ? Number(process.env.SOAK_WARMUP_MINUTES)
    : Math.max(3, 0.2 * lengthMinutes);
const GROWTH_LIMIT_PERCENT = 10;

const RUN_MS = MINUTES * 60_000;
const REDIS_AT_MS = 0.4 * RUN_MS;
const GATEWAY_AT_MS = 0.6 * RUN_MS;
/** Fault phases (on, off, on...), and how often a rule is added while on. */
const PHASE_MS = Math.min(30_000, RUN_MS / 12);
const FAULT_EVERY_MS = PHASE_MS / 6;
/** No faults this long before a restart and after it is over, so what fails then is the restart's. */
const QUIET_MS = Math.min(25_000, RUN_MS * 0.08);
const PROBE_MS = Math.min(30_000, RUN_MS / 10);
const BULK_EVERY_MS = Math.min(20_000, RUN_MS / 12);
const PURGE_EVERY_MS = Math.min(30_000, RUN_MS / 10);
const CHURN_EVERY_MS = 1_500;
const CHURN_LIFE_MS = Math.min(40_000, RUN_MS / 6);
/**
 * A change must reach every watcher within this (a gateway write is published at once; a site change waits for a poll).
 */
const DEADLINE_MS = { gateway: 10_000, site: 2 * POLL_SECONDS * 1000 + 10_000 };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const f = (v: number | null | undefined, digits = 1) =>
  v === null || v === undefined || !Number.isFinite(v) ? 'n/a' : v.toFixed(digits);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]! : NaN;
};

// ---------------------------------------------------------------- faults

interface FaultRule {
  name: string;
  rule: Record<string, unknown>;
}

const HTML_502 =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
const HTML_503 =
  '<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1></body></html>';
const EVENTS_LIST = '^/calendar/events/v1/events$';
const CREATES = '^/calendar-core/v1/(events|venues|organizers)$';
const CORE_UPDATES = '^/calendar-core/v1/(events|venues|organizers)/\\d+$';
const LEGACY_UPDATES = '^/calendar/events/v1/(events|venues|organizers)/\\d+$';
/**
 * What the site does now and then. The upstream timeouts are the gateway's defaults: 10 s for headers, 10 s of an idle
 * body.
 */
const FAULTS: FaultRule[] = [
  { name: 'latency spike, events list', rule: { path: EVENTS_LIST, method: 'GET', delayMs: 1500, times: 3 } },
  {
    name: 'latency spike, calendar-core list',
    rule: { path: '^/calendar-core/v1/(events|venues|organizers)$', method: 'GET', delayMs: 2500, times: 2 },
  },
  { name: '500 WordPress error, events list', rule: { path: EVENTS_LIST, method: 'GET', status: 500, times: 1 } },
  {
    name: '502 proxy page, venues/organizers list',
    rule: { path: '^/calendar/events/v1/(venues|organizers)$', method: 'GET', status: 502, body: HTML_502, times: 1 },
  },
  { name: 'connection reset, events list', rule: { path: EVENTS_LIST, method: 'GET', reset: true, times: 1 } },
  {
    name: 'malformed JSON, categories',
    rule: { path: '^/calendar/events/v1/categories', method: 'GET', malformed: true, times: 1 },
  },
  { name: 'slow body 2 s, events list', rule: { path: EVENTS_LIST, method: 'GET', slowBodyMs: 2000, times: 2 } },
  { name: '500 WordPress error, create', rule: { path: CREATES, method: 'POST', status: 500, times: 1 } },
  {
    name: '503 proxy page, calendar-core update',
    rule: { path: CORE_UPDATES, method: 'PATCH', status: 503, body: HTML_503, times: 1 },
  },
  { name: 'connection reset, create', rule: { path: CREATES, method: 'POST', reset: true, times: 1 } },
  {
    name: 'connection reset, calendar-core update',
    rule: { path: CORE_UPDATES, method: 'PATCH', reset: true, times: 1 },
  },
  {
    name: 'answer after 11 s (written, headers timeout), create',
    rule: { path: CREATES, method: 'POST', delayMs: 11_000, times: 1 },
  },
  {
    name: 'body stalled 11 s (written, body timeout), legacy update',
    rule: { path: LEGACY_UPDATES, method: 'POST', slowBodyMs: 11_000, times: 1 },
  },
  {
    name: 'latency 1.2 s, calendar-core update',
    rule: { path: CORE_UPDATES, method: 'PATCH', delayMs: 1200, times: 2 },
  },
];

class Faults {
  readonly posted: { at: number; name: string }[] = [];
  /** Quiet windows open now (they may overlap in a short run). */
  pauses = 0;
  constructor(private readonly sandbox: SandboxProcess) {}
  async add(): Promise<void> {
    if (this.pauses > 0) return;
    const f = FAULTS[Math.floor(Math.random() * FAULTS.length)]!;
    const res = await fetch(`${this.sandbox.origin}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(f.rule),
    });
    if (res.status !== 201) throw new Error(`the sandbox refused a fault rule: ${res.status} ${await res.text()}`);
    this.posted.push({ at: Date.now(), name: f.name });
  }
  async clear(): Promise<void> {
    await fetch(`${this.sandbox.origin}/__sandbox/faults`, { method: 'DELETE' }).catch(() => {});
  }
}

// ---------------------------------------------------------------- probes

interface Probe {
  kind: 'gateway' | 'site';
  title: string;
  start: number;
  /** When the write was answered: a gateway write is published to subscribers before it answers. */
  answered: number;
  /** The probe event. */
  id: number;
  /** Watchers the event's change reached in time, but carrying an older title (its payload read stale). */
  stale: string[];
  via: string;
  written: boolean;
  /** Watchers subscribed throughout the probe's deadline, and those it reached in time. */
  eligible: string[];
  reached: string[];
  late: string[];
  missed: string[];
  maxDelayMs: number | null;
}

// ---------------------------------------------------------------- the run

interface Restart {
  what: string;
  quietFrom: number;
  downAt: number;
  backAt: number;
  quietTo: number;
  /** The stopped gateway: how long SIGTERM took, how it ended. */
  exit?: { ms: number; exit: string };
}

async function main(): Promise<number> {
  const started = Date.now();
  const run = Date.now().toString(36);
  const dir = mkdtempSync(join(tmpdir(), 'sitegraph-soak-'));
  let keepDir = KEEP;
  let subscribers: Subscribers | null = null;
  let targets: Target[] = [];
  /** Every timer armed and not yet fired, so a stop clears them all. */
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\nsoak: ${signal}, stopping everything it started`);
    for (const t of timers) clearTimeout(t);
    void (async () => {
      await subscribers?.stop().catch(() => {});
      await Promise.all(targets.map((t) => t.pool.destroy().catch(() => {})));
      await stopAll();
      if (!keepDir) rmSync(dir, { recursive: true, force: true });
      process.exit(130);
    })();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    console.log(
      `sitegraph soak: ${MINUTES} min, ${RATE} operations/s in the steady stream, two gateways (dist/) on one redis-server, the sandbox (TEC 6.15) with faults, loopback only; Node ${process.version}`,
    );
    // ------------------------------------------------------------ start
    const sandbox = await startSandbox(join(dir, 'sandbox-requests.log'), {
      SANDBOX_TEC: '6.15',
      SANDBOX_LATENCY_MS: '20',
      SANDBOX_JITTER_MS: '20',
    });
    if (!sandbox.users.admin || !sandbox.users.editor)
      throw new Error('the sandbox banner named no admin or editor credentials');
    const [redisPort, aPort, aAdmin, bPort, bAdmin] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const redis = redisServer(dir, redisPort);
    await redis.start();
    const env: Record<string, string> = {
      UPSTREAM_URL: sandbox.url,
      REDIS_URL: redis.url,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      CACHE_TTL_SECONDS: '10',
      RESPONSE_CACHE: '1',
      SUBSCRIPTIONS: '1',
      SUBSCRIPTION_POLL_SECONDS: String(POLL_SECONDS),
      // The editor's credential finds drafts too (docs/subscriptions.md "Where changes come from").
      SUBSCRIPTION_POLL_AUTH: `editor:${sandbox.users.editor}`,
    };
    const gateways = [
      new GatewayProcess('A', aPort, aAdmin, env, join(dir, 'gateway-A.log')),
      new GatewayProcess('B', bPort, bAdmin, env, join(dir, 'gateway-B.log')),
    ];
    await Promise.all(gateways.map((g) => g.start()));
    targets = gateways.map((g) => ({
      name: g.name,
      url: g.url,
      up: true,
      g,
      pool: new Pool(new URL(g.url).origin, { connections: 32, keepAliveTimeout: 30_000 }),
    }));
    const [A, B] = targets as [Target, Target];
    console.log(
      `sandbox ${sandbox.url} (pid ${sandbox.pid}); redis ${redis.url} (pid ${redis.pid()}); gateway A ${A.url} (pid ${A.g.pid}), B ${B.url} (pid ${B.g.pid}); logs in ${dir}`,
    );

    // At rest before any traffic: what the instances hold when nothing is connected.
    const restBefore = await Promise.all(gateways.map((g) => atRest(g)));

    // ------------------------------------------------------------ what the driver needs
    const admin = sandbox.basic('admin');
    const listed: any = await (
      await fetch(`${sandbox.origin}${sandbox.prefix}/calendar/events/v1/events?per_page=50`)
    ).json();
    const eventIds = (listed.events as { id: number }[]).map((e) => e.id);
    const queries = docQueries();
    if (queries.length < 5)
      throw new Error(`only ${queries.length} example queries found in README.md and docs/graph.md`);
    const driver = new Driver(targets, run, { admin, editor: sandbox.basic('editor') }, eventIds, queries);
    // Two events only the probes change (one through the gateways, one on the site), made on the site directly.
    const probeIds: Record<'gateway' | 'site', number> = { gateway: 0, site: 0 };
    for (const kind of ['gateway', 'site'] as const) {
      const day = new Date(Date.now() + 15 * 86_400_000).toISOString().slice(0, 10);
      const res = await fetch(`${sandbox.origin}${sandbox.prefix}/calendar/events/v1/events`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `soakprobe-${run}-${kind}-0`,
          status: 'publish',
          start_date: `${day} 10:00:00`,
          end_date: `${day} 11:00:00`,
        }),
      });
      if (!res.ok) throw new Error(`cannot create the probe event: ${res.status} ${await res.text()}`);
      probeIds[kind] = ((await res.json()) as { id: number }).id;
    }
    // A few objects of each kind to update from the first second.
    for (let i = 0; i < 3; i++)
      for (const type of ['event', 'venue', 'organizer'] as const) await driver.create(type, targets[i % 2]!);
    subscribers = new Subscribers(targets, sandbox.basic('editor'), new Set(Object.values(probeIds)));
    subscribers.startWatchers();
    if (!(await subscribers.watchersReady(20_000))) console.warn('not every watcher subscribed within 20 s');
    const faults = new Faults(sandbox);
    await faults.clear();

    // ------------------------------------------------------------ the run
    const t0 = Date.now();
    const minuteOf = (at: number) => (at - t0) / 60_000;
    const endAt = t0 + RUN_MS;
    let stopped = false;
    const every = (ms: number, fn: () => unknown, firstMs = ms) => {
      const go = () => {
        if (stopped) return;
        try {
          const r = fn();
          if (r instanceof Promise) r.catch((err) => console.error(`soak: ${(err as Error).message}`));
        } catch (err) {
          console.error(`soak: ${(err as Error).message}`);
        }
        later(ms, go);
      };
      later(firstMs, go);
    };

    // The steady stream: tick k is due at t0 + k / RATE; a tick more than a second late is not sent (counted).
    let k = 0;
    let late = 0;
    let maxLagMs = 0;
    const interval = 1000 / RATE;
    const stream = () => {
      if (stopped) return;
      const now = Date.now();
      while (t0 + k * interval <= now) {
        const lag = now - (t0 + k * interval);
        maxLagMs = Math.max(maxLagMs, lag);
        if (lag > 1000) late++;
        else driver.tick();
        k++;
      }
      later(Math.max(0, t0 + k * interval - Date.now()), stream);
    };
    stream();

    // Bulk pulls, one at a time.
    const pulls = { count: 0, pages: 0 };
    void (async () => {
      const what = ['events', 'venues', 'organizers'] as const;
      for (let i = 0; !stopped; i++) {
        await sleep(BULK_EVERY_MS);
        if (stopped) break;
        pulls.pages += await driver.bulk(what[i % 3]!, i % 2 === 1);
        pulls.count++;
      }
    })();

    // Purges: everything, or the events list's tag, on each instance in turn.
    // Offset by a third of their period from the restarts, which fall on whole periods.
    let purgeN = 0;
    every(
      PURGE_EVERY_MS,
      () => {
        const t = targets[purgeN % 2]!;
        purgeN++;
        if (t.up) return driver.purge(t, purgeN % 4 < 2);
      },
      PURGE_EVERY_MS / 3,
    );

    // Subscriptions that come and go.
    every(CHURN_EVERY_MS, () => subscribers!.churnOne(3_000 + Math.random() * (CHURN_LIFE_MS - 3_000)));

    // Delivery probes, a gateway write and a site change, half a period apart.
    const probes: Probe[] = [];
    let probeN = 0;
    const probe = async (kind: 'gateway' | 'site') => {
      if (Date.now() > endAt - DEADLINE_MS[kind]) return;
      const n = ++probeN;
      const title = `soakprobe-${run}-${kind}-${n}`;
      const start = Date.now();
      if (kind === 'gateway') {
        const t = driver.pick();
        if (!t) return;
        const o = await driver.probeWrite(t, probeIds.gateway, title);
        probes.push({
          kind,
          title,
          start,
          answered: o.end,
          id: probeIds.gateway,
          stale: [],
          via: t.name,
          written: o.klass === 'ok',
          eligible: [],
          reached: [],
          late: [],
          missed: [],
          maxDelayMs: null,
        });
      } else {
        const res = await fetch(`${sandbox.origin}${sandbox.prefix}/calendar/events/v1/events/${probeIds.site}`, {
          method: 'POST',
          headers: { authorization: admin, 'content-type': 'application/json', 'user-agent': 'sitegraph-soak-editor' },
          body: JSON.stringify({ title }),
        }).catch(() => null);
        probes.push({
          kind,
          title,
          start,
          answered: Date.now(),
          id: probeIds.site,
          stale: [],
          via: 'site',
          written: !!res?.ok,
          eligible: [],
          reached: [],
          late: [],
          missed: [],
          maxDelayMs: null,
        });
      }
    };
    every(PROBE_MS, () => probe('gateway'), PROBE_MS / 2);
    every(PROBE_MS, () => probe('site'), PROBE_MS);

    // Faults: on in odd phases, a rule every FAULT_EVERY_MS while on, cleared when the phase ends.
    let lastPhaseOn = false;
    every(FAULT_EVERY_MS, async () => {
      const on = Math.floor((Date.now() - t0) / PHASE_MS) % 2 === 1;
      if (lastPhaseOn && !on) await faults.clear();
      lastPhaseOn = on;
      if (on && Date.now() < endAt - QUIET_MS) await faults.add();
    });

    // The sandbox's in-memory request log would grow for the whole run (its file keeps everything).
    every(60_000, () => fetch(`${sandbox.origin}/__sandbox/log`, { method: 'DELETE' }).catch(() => {}));

    // Samples.
    const samples: Record<string, Sample[]> = { A: [], B: [] };
    const machine: {
      minute: number;
      load1: number;
      sandboxCpu: number | null;
      redisCpu: number | null;
      driverCpu: number | null;
      opsPerSecond: number;
    }[] = [];
    let lastSampleAt = t0;
    let driverCpu = process.cpuUsage();
    cpuPercent(sandbox.pid);
    cpuPercent(redis.pid());
    for (const g of gateways) cpuPercent(g.pid);
    const sample = async (minute: number) => {
      const now = Date.now();
      const since = driver.outcomes.filter((o) => o.end > lastSampleAt && o.end <= now);
      const traffic = (name: string) => {
        const mine = since.filter((o) => o.target === name);
        return {
          ops: mine.length,
          errors: mine.filter((o) => o.klass === 'gateway' || o.klass === 'dropped').length,
          upstream: mine.filter((o) => o.klass === 'upstream').length,
        };
      };
      const got = await Promise.all(
        gateways.map(async (g) => {
          const tr = traffic(g.name);
          const s = await sampleInstance(g, minute, subscribers!.openOn(g.name), { ops: tr.ops, errors: tr.errors });
          return { ...s, upstreamErrors: tr.upstream };
        }),
      );
      got.forEach((s, i) => samples[gateways[i]!.name]!.push(s));
      const cpu = process.cpuUsage(driverCpu);
      driverCpu = process.cpuUsage();
      machine.push({
        minute,
        load1: loadavg()[0]!,
        sandboxCpu: cpuPercent(sandbox.pid, now),
        redisCpu: cpuPercent(redis.pid(), now),
        driverCpu: now > lastSampleAt ? (100 * (cpu.user + cpu.system)) / 1000 / (now - lastSampleAt) : null,
        opsPerSecond: since.length / Math.max(1, (now - lastSampleAt) / 1000),
      });
      lastSampleAt = now;
    };
    await sample(0);
    let sampleK = 1;
    const sampler = () => {
      if (stopped) return;
      const due = t0 + sampleK * SAMPLE_SECONDS * 1000;
      // The last one is taken when the traffic ends.
      if (due >= endAt - 1_000) return;
      later(Math.max(0, due - Date.now()), () => {
        void sample((sampleK * SAMPLE_SECONDS) / 60).finally(() => {
          sampleK++;
          sampler();
        });
      });
    };
    sampler();

    // The restarts, each inside a quiet window (no faults).
    const restarts: Restart[] = [];
    const quiet = async <T>(
      what: string,
      atMs: number,
      down: () => Promise<T>,
      up: () => Promise<void>,
      between: number,
    ) => {
      await sleep(Math.max(0, t0 + atMs - QUIET_MS - Date.now()));
      if (stopped) return;
      const quietFrom = Date.now();
      faults.pauses++;
      await faults.clear();
      await sleep(QUIET_MS);
      const downAt = Date.now();
      const result = await down();
      await sleep(between);
      await up();
      const backAt = Date.now();
      const r: Restart = { what, quietFrom, downAt, backAt, quietTo: backAt + QUIET_MS };
      if (result && typeof result === 'object' && 'exit' in result) r.exit = result as Restart['exit'];
      restarts.push(r);
      console.log(
        `  ${what}: down at ${minuteOf(downAt).toFixed(2)} min, back ${((backAt - downAt) / 1000).toFixed(1)} s later`,
      );
      await sleep(QUIET_MS);
      faults.pauses--;
    };
    const redisRestart = quiet(
      'redis restart',
      REDIS_AT_MS,
      () => redis.kill(),
      () => redis.start(),
      REDIS_DOWN_SECONDS * 1000,
    );
    const gatewayRestart = quiet(
      'gateway B restart',
      GATEWAY_AT_MS,
      async () => {
        // Traffic goes to A from now on (as a load balancer would), then B is told to stop.
        B.up = false;
        return B.g.stop();
      },
      async () => {
        await B.g.start();
        B.up = true;
      },
      1_000,
    );

    // ------------------------------------------------------------ the end
    while (Date.now() < endAt && !interrupted) await sleep(Math.min(1_000, endAt - Date.now()));
    await sample(MINUTES);
    stopped = true;
    for (const t of timers) clearTimeout(t);
    await faults.clear();
    await Promise.all([redisRestart, gatewayRestart]);
    const drainUntil = Date.now() + 90_000;
    while (driver.inFlight > 0 && Date.now() < drainUntil) await sleep(200);
    // The last probes' deadline, then every client away.
    await sleep(Math.max(DEADLINE_MS.gateway, DEADLINE_MS.site));
    await subscribers.stop();
    await Promise.all(targets.map((t) => t.pool.close()));
    await sleep(5_000);
    const restAfter = await Promise.all(gateways.map((g) => atRest(g)));

    // ------------------------------------------------------------ judging
    // Requests in flight to B when it was sent SIGTERM are excused, counted apart.
    const sigtermAt = B.g.sigtermAt[0];
    for (const o of driver.outcomes) {
      const failed = o.klass === 'upstream' || o.klass === 'gateway' || o.klass === 'dropped';
      if (o.target === 'B' && o.gen === 1 && sigtermAt && o.start < sigtermAt && o.end >= sigtermAt && failed)
        o.klass = 'excused';
    }
    for (const w of driver.ledger)
      if (w.target === 'B' && w.gen === 1 && sigtermAt && w.start < sigtermAt && w.end >= sigtermAt) w.atSigterm = true;

    const { violations, checked } = await driver.reconcile(sandbox);

    for (const p of probes) judgeProbe(p, subscribers);

    const report = buildReport({
      started,
      t0,
      dir,
      run,
      gateways,
      samples,
      machine,
      restarts,
      probes,
      driver,
      violations,
      checked,
      faults,
      pulls,
      late,
      maxLagMs,
      k,
      restBefore,
      restAfter,
      subscribers,
    });
    if (report.failed) keepDir = true;
    if (keepDir)
      console.log(
        `\nlogs kept in ${dir} (gateway-A.log, gateway-B.log: JSON lines; sandbox-requests.log: every site request)`,
      );
    // ------------------------------------------------------------ stop
    await Promise.all(gateways.map((g) => g.stop()));
    await redis.kill();
    sandbox.stop();
    await Promise.all(gateways.map((g) => g.close()));
    await stopAll();
    return report.failed ? 1 : 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopAll().catch(() => {});
    if (!keepDir) rmSync(dir, { recursive: true, force: true });
  }
}

/** What an instance holds with no client connected (before the run, and after every client left). */
async function atRest(g: GatewayProcess): Promise<Record<string, number | null>> {
  try {
    const text = await (await fetch(`${g.adminUrl}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
    return {
      subscriptions: metric(text, 'sitegraph_subscriptions_active'),
      httpConnections: metric(text, 'sitegraph_http_open_connections'),
      abortListeners: metric(text, 'sitegraph_abort_listeners'),
      handles: metric(text, 'nodejs_active_handles_total'),
      fds: metric(text, 'process_open_fds'),
      cacheResponse: metric(text, 'sitegraph_cache_entries', { cache: 'response' }),
    };
  } catch {
    return {};
  }
}

/** A probe reached every watcher subscribed throughout, in time, with its own title. */
const complete = (p: Probe) => p.eligible.length > 0 && p.reached.length === p.eligible.length;
const gaps = (p: Probe) =>
  `${p.missed.length ? `; missed ${p.missed.join(' ')}` : ''}${p.late.length ? `; late ${p.late.join(' ')}` : ''}${p.stale.length ? `; stale title ${p.stale.join(' ')}` : ''}`;

/**
 * Which watchers a probe reached in time: of those subscribed from its write's start to its deadline,
 * DEADLINE_MS after the write was answered (a slow mutation on a loaded machine is not a slow delivery).
 * The delay is from the answer.
 */
function judgeProbe(p: Probe, subs: Subscribers): void {
  if (!p.written) return;
  const deadline = p.answered + DEADLINE_MS[p.kind];
  const delays: number[] = [];
  for (const w of subs.watchers) {
    const through = w.intervals.some((iv) => iv.from <= p.start && (iv.to === null || iv.to >= deadline));
    if (!through) continue;
    p.eligible.push(w.name);
    const at = w.arrivals.get(p.title);
    // A change of the probe event that carried a title this watcher already had before the probe: read stale
    // (a late delivery of an earlier probe's title is not that).
    const other = w.probeDeliveries.filter(
      (d) =>
        d.id === p.id &&
        d.at >= p.start &&
        d.at <= deadline &&
        d.title !== p.title &&
        (w.arrivals.get(d.title ?? '') ?? Infinity) < p.start,
    );
    if (at !== undefined && at <= deadline) p.reached.push(w.name);
    else if (other.length) p.stale.push(`${w.name} (${other.map((d) => JSON.stringify(d.title)).join(', ')})`);
    else if (at === undefined) p.missed.push(w.name);
    else p.late.push(w.name);
    if (at !== undefined) delays.push(Math.max(0, at - p.answered));
  }
  p.maxDelayMs = delays.length ? Math.max(...delays) : null;
}

// ---------------------------------------------------------------- the report

interface ReportInput {
  started: number;
  t0: number;
  dir: string;
  run: string;
  gateways: GatewayProcess[];
  samples: Record<string, (Sample & { upstreamErrors?: number })[]>;
  machine: {
    minute: number;
    load1: number;
    sandboxCpu: number | null;
    redisCpu: number | null;
    driverCpu: number | null;
    opsPerSecond: number;
  }[];
  restarts: Restart[];
  probes: Probe[];
  driver: Driver;
  violations: Violation[];
  checked: Record<string, number>;
  faults: Faults;
  pulls: { count: number; pages: number };
  late: number;
  maxLagMs: number;
  k: number;
  restBefore: Record<string, number | null>[];
  restAfter: Record<string, number | null>[];
  subscribers: Subscribers;
}

interface Goal {
  goal: string;
  value: string;
  result: 'PASS' | 'FAIL' | 'n/a';
}

function buildReport(r: ReportInput): { failed: boolean } {
  const minuteOf = (at: number) => (at - r.t0) / 60_000;
  const goals: Goal[] = [];
  const goal = (g: string, value: string, result: Goal['result']) => goals.push({ goal: g, value, result });
  const out = (s = '') => console.log(s);

  // ------------------------------------------------------------ per minute
  for (const g of r.gateways) {
    const lives = g.upAt.map((at, i) => `life ${i + 1} from ${f(minuteOf(at), 2)} min`).join(', ');
    out(`\ninstance ${g.name} (${lives}${g.sigtermAt[0] ? `; SIGTERM at ${f(minuteOf(g.sigtermAt[0]), 2)} min` : ''})`);
    const head = [
      'min',
      'life',
      'RSS MiB',
      'heap MiB',
      'loop p99 ms',
      'fds',
      '/proc fds',
      'handles',
      'subs (driver)',
      'http conns',
      'abort lsn',
      'cache up/resp',
      'CPU %',
      'ops',
      'upstream',
      'own err',
    ];
    const rows = r.samples[g.name]!.map((s) => [
      f(s.minute, 1),
      String(s.gen),
      f(s.rssMiB),
      f(s.heapMiB),
      f(s.loopP99Ms),
      f(s.fds, 0),
      f(s.procFds, 0),
      f(s.handles, 0),
      `${f(s.subscriptions, 0)} (${s.subscriptionsExpected})`,
      f(s.httpConnections, 0),
      f(s.abortListeners, 0),
      `${f(s.cacheUpstream, 0)}/${f(s.cacheResponse, 0)}`,
      f(s.cpuPercent, 0),
      String(s.ops),
      String(s.upstreamErrors ?? 0),
      String(s.errors),
    ]);
    table(head, rows);
  }
  out('\nmachine (2 cores): load average and CPU % of one core per process');
  table(
    ['min', 'load 1m', 'sandbox CPU %', 'redis CPU %', 'driver CPU %', 'ops/s'],
    r.machine.map((m) => [
      f(m.minute, 1),
      f(m.load1, 2),
      f(m.sandboxCpu, 0),
      f(m.redisCpu, 0),
      f(m.driverCpu, 0),
      f(m.opsPerSecond, 1),
    ]),
  );

  // ------------------------------------------------------------ trends
  const trends: Record<string, { rss: Trend | null; heap: Trend | null; from: number; to: number }> = {};
  const fit = (key: string, list: Sample[], from: number, to: number) => {
    const pts = list.filter((s) => s.minute >= from - 1e-9 && s.minute <= to + 1e-9);
    trends[key] = {
      rss: trend(pts.map((s) => ({ minute: s.minute, value: s.rssMiB }))),
      heap: trend(pts.map((s) => ({ minute: s.minute, value: s.heapMiB }))),
      from,
      to,
    };
  };
  const warm = warmupOf(MINUTES);
  for (const g of r.gateways) {
    const list = r.samples[g.name]!;
    if (g.gen === 1) fit(`${g.name}`, list, warm, MINUTES);
    else {
      const restartMinute = minuteOf(g.upAt[1]!);
      const stopMinute = minuteOf(g.sigtermAt[0]!);
      fit(
        `${g.name} life 1`,
        list.filter((s) => s.gen === 1),
        warm,
        stopMinute,
      );
      const ownWarm = warmupOf(MINUTES - restartMinute);
      fit(
        `${g.name} life 2 (from its restart)`,
        list.filter((s) => s.gen === 2),
        restartMinute + ownWarm,
        MINUTES,
      );
    }
  }
  out(
    `\nmemory after warm-up: least-squares slope over the samples, growth = fitted end / fitted start - 1 (warm-up: max(3 min, 20% of the span); a restarted instance from its restart)`,
  );
  table(
    [
      'instance',
      'minutes fitted',
      'samples',
      'RSS slope MiB/min',
      'RSS growth %',
      'heap slope MiB/min',
      'heap growth %',
    ],
    Object.entries(trends).map(([name, t]) => [
      name,
      t.rss ? `${f(t.rss.fromMinute, 1)}-${f(t.rss.toMinute, 1)}` : `none after ${f(t.from, 1)}`,
      String(t.rss?.n ?? 0),
      f(t.rss?.slopePerMinute, 3),
      f(t.rss?.growthPercent, 1),
      f(t.heap?.slopePerMinute, 3),
      f(t.heap?.growthPercent, 1),
    ]),
  );
  for (const [name, t] of Object.entries(trends)) {
    if (name.includes('life 1')) continue;
    for (const [what, tr] of [
      ['RSS', t.rss],
      ['heap', t.heap],
    ] as const) {
      goal(
        `${name}: ${what} grows at most ${GROWTH_LIMIT_PERCENT}% after warm-up`,
        tr
          ? `${f(tr.growthPercent, 1)}% (${f(tr.slopePerMinute, 3)} MiB/min over ${tr.n} samples, ${f(tr.fittedStart)} -> ${f(tr.fittedEnd)} MiB)`
          : 'too few samples after warm-up',
        tr ? (tr.growthPercent <= GROWTH_LIMIT_PERCENT ? 'PASS' : 'FAIL') : 'n/a',
      );
    }
  }

  // ------------------------------------------------------------ traffic
  const outcomes = r.driver.outcomes;
  const during = outcomes.filter((o) => o.start >= r.t0);
  out(
    `\ntraffic: ${during.length} requests in ${MINUTES} min (${f(during.length / (RUN_MS / 1000), 1)}/s); steady stream ${r.k} ticks at ${RATE}/s, ${r.driver.skipped} skipped (over ${r.driver.cap} waiting), ${r.late} sent late by over 1 s (max lag ${r.maxLagMs} ms); most requests waiting at once: ${r.driver.maxInFlight}`,
  );
  const kinds = [...new Set(outcomes.map((o) => o.kind))];
  table(
    ['kind', 'requests', ...KLASSES, 'p50 ms', 'p95 ms', 'p99 ms'],
    kinds.map((kind) => {
      const mine = outcomes.filter((o) => o.kind === kind);
      const ms = mine.filter((o) => o.klass === 'ok' || o.klass === 'refused').map((o) => o.end - o.start);
      return [
        kind,
        String(mine.length),
        ...KLASSES.map((c) => String(mine.filter((o) => o.klass === c).length)),
        f(pct(ms, 50), 0),
        f(pct(ms, 95), 0),
        f(pct(ms, 99), 0),
      ];
    }),
  );
  const codes = new Map<string, number>();
  for (const o of outcomes)
    if (o.klass !== 'ok')
      for (const c of new Set(o.codes))
        codes.set(`${o.klass} ${o.kind}: ${c}`, (codes.get(`${o.klass} ${o.kind}: ${c}`) ?? 0) + 1);
  out('  answers other than ok, by class, kind and code:');
  for (const [key, n] of [...codes].sort((a, b) => b[1] - a[1])) out(`    ${String(n).padStart(6)}  ${key}`);
  out(
    `  bulk pulls: ${r.pulls.count} (${r.pulls.pages} pages); subscriptions churned: ${JSON.stringify(r.subscribers.churn)}; ended at the restart: ${JSON.stringify(r.subscribers.endedAtRestart)}`,
  );
  const byFault = new Map<string, number>();
  for (const p of r.faults.posted) byFault.set(p.name, (byFault.get(p.name) ?? 0) + 1);
  out(`  fault rules posted to the sandbox: ${r.faults.posted.length} (each for the next 1-3 matching requests)`);
  for (const [name, n] of [...byFault].sort((a, b) => b[1] - a[1])) out(`    ${String(n).padStart(4)}  ${name}`);

  // Own failures: the gateway's 5xx, codes it does not document, dropped connections.
  const own = outcomes.filter((o) => o.klass === 'gateway' || o.klass === 'dropped');
  const excused = outcomes.filter((o) => o.klass === 'excused');
  const ownBy = new Map<string, Outcome[]>();
  for (const o of own) {
    const key = `${o.klass} ${o.kind} (${o.detail}): ${o.status ?? 'no answer'} ${o.codes.join(',')}`;
    ownBy.set(key, [...(ownBy.get(key) ?? []), o]);
  }
  out(
    `\nthe gateways' own failures (5xx, undocumented codes, dropped connections): ${own.length}; excused (in flight to B at its SIGTERM): ${excused.length}`,
  );
  for (const [key, list] of [...ownBy].sort((a, b) => b[1].length - a[1].length)) {
    out(`  ${String(list.length).padStart(6)}  ${key}`);
    out(
      `          e.g. ${list[0]!.target} life ${list[0]!.gen} at ${f(minuteOf(list[0]!.start), 2)} min${list[0]!.note ? `: ${list[0]!.note}` : ''}`,
    );
  }
  const ownByKind = [...new Set(own.map((o) => o.kind))]
    .map((kind) => `${kind} ${own.filter((o) => o.kind === kind).length}`)
    .join(', ');
  goal(
    'no 5xx or dropped connection the gateway causes itself',
    `${own.length}${own.length ? ` (${ownByKind})` : ''}; ${excused.length} excused in flight at B's SIGTERM`,
    own.length === 0 ? 'PASS' : 'FAIL',
  );

  // ------------------------------------------------------------ writes
  const ledger = r.driver.ledger;
  out(
    `\nwrites: ${ledger.length} sent (${ledger.filter((w) => w.pair).length} in concurrent pairs through both instances), reconciled against the site's REST API: ${JSON.stringify(r.checked)}`,
  );
  const wk = new Map<string, number>();
  for (const w of ledger) wk.set(`${w.op} ${w.type} ${w.outcome}`, (wk.get(`${w.op} ${w.type} ${w.outcome}`) ?? 0) + 1);
  table(
    ['write', 'count'],
    [...wk].sort().map(([key, n]) => [key, String(n)]),
  );
  const unknownCodes = new Map<string, number>();
  for (const w of ledger)
    if (w.outcome !== 'success')
      for (const c of w.codes)
        unknownCodes.set(`${w.outcome}: ${c}`, (unknownCodes.get(`${w.outcome}: ${c}`) ?? 0) + 1);
  out(
    `  codes of the writes not reported written: ${[...unknownCodes].map(([c, n]) => `${c} ${n}`).join('; ') || 'none'}`,
  );
  out(`  violations: ${r.violations.length}`);
  for (const v of r.violations.slice(0, 40)) out(`    ${v.what}: ${v.detail}`);
  goal(
    'every write outcome truthful (written: on the site once; failed: absent; nothing doubled; no update lost)',
    `${r.violations.length} violations of ${ledger.length} writes`,
    r.violations.length === 0 ? 'PASS' : 'FAIL',
  );

  // ------------------------------------------------------------ restarts
  const noise = (o: Outcome) => o.kind !== 'malformed' && o.kind !== 'oversize';
  const restartFigures: Record<string, unknown>[] = [];
  for (const rs of r.restarts) {
    const windowEnd = rs.quietTo;
    const inFlight = outcomes.filter((o) => noise(o) && o.start <= rs.downAt && o.end > rs.downAt);
    const failures = outcomes.filter(
      (o) =>
        noise(o) &&
        o.end >= rs.downAt &&
        o.end <= windowEnd &&
        (o.klass === 'gateway' ||
          o.klass === 'dropped' ||
          o.klass === 'upstream' ||
          o.klass === 'excused' ||
          (o.klass === 'refused' && o.codes.some((c) => c === 'WRITE_LOCK_TIMEOUT' || c.startsWith('HTTP 503')))),
    );
    const firstWrite = ledger
      .filter((w) => w.start >= rs.backAt && w.outcome === 'success')
      .sort((a, b) => a.end - b.end)[0];
    const after = r.probes.filter((p) => p.start >= rs.backAt && p.start <= rs.backAt + 60_000 && p.written);
    const instances = (p: Probe) => new Set(p.eligible.map((n) => n.split('-')[0]));
    const delivered = (kind: Probe['kind']) =>
      after.find((p) => p.kind === kind && complete(p) && instances(p).size === 2);
    const failCodes = new Map<string, number>();
    for (const o of failures) {
      const key = `${o.klass} ${o.kind}: ${o.codes.join(',')}`;
      failCodes.set(key, (failCodes.get(key) ?? 0) + 1);
    }
    // When each failure was sent: in flight when it went down, while it was down, or after it was back.
    const when = (o: Outcome) =>
      o.start <= rs.downAt
        ? 'in flight at the stop'
        : o.start < rs.backAt
          ? 'sent while down'
          : 'sent after it was back';
    const sentWhileDown = outcomes.filter((o) => noise(o) && o.start > rs.downAt && o.start < rs.backAt).length;
    const failedBy: Record<string, number> = {};
    for (const o of failures) failedBy[when(o)] = (failedBy[when(o)] ?? 0) + 1;
    const fig = {
      what: rs.what,
      downAtMinute: minuteOf(rs.downAt),
      downSeconds: (rs.backAt - rs.downAt) / 1000,
      exit: rs.exit,
      inFlightAtDown: inFlight.length,
      sentWhileDown,
      failuresInWindow: failures.length,
      failures: Object.fromEntries(failCodes),
      failuresBySending: failedBy,
      failed: failures.map((o) => ({
        kind: o.kind,
        detail: o.detail,
        target: o.target,
        sent: when(o),
        sentSecondsAfterDown: (o.start - rs.downAt) / 1000,
        ms: o.end - o.start,
        status: o.status,
        codes: o.codes,
        note: o.note,
      })),
      firstWriteWrittenAfterSeconds: firstWrite ? (firstWrite.end - rs.backAt) / 1000 : null,
      probesAfter: after.map((p) => ({
        kind: p.kind,
        atSeconds: (p.start - rs.backAt) / 1000,
        via: p.via,
        reached: p.reached.length,
        eligible: p.eligible.length,
        gaps: gaps(p),
        maxDelayMs: p.maxDelayMs,
      })),
      gatewayProbeDelivered: delivered('gateway')?.title ?? null,
      siteProbeDelivered: delivered('site')?.title ?? null,
    };
    restartFigures.push(fig);
    out(
      `\n${rs.what}: down at ${f(fig.downAtMinute, 2)} min for ${f(fig.downSeconds, 1)} s${rs.exit ? ` (SIGTERM to exit: ${rs.exit.ms} ms, ${rs.exit.exit})` : ''}; window ${f(minuteOf(rs.downAt), 2)}-${f(minuteOf(windowEnd), 2)} min, no faults from ${f(minuteOf(rs.quietFrom), 2)} min`,
    );
    out(
      `  requests in flight when it went down: ${inFlight.length}; sent while it was down: ${sentWhileDown}; failed in the window: ${failures.length}${
        failures.length
          ? ` (${Object.entries(failedBy)
              .map(([c, n]) => `${c} ${n}`)
              .join(', ')})`
          : ''
      }`,
    );
    for (const o of failures.slice(0, 12))
      out(
        `    ${o.kind} (${o.detail}) to ${o.target}, sent at ${(o.start - rs.downAt) / 1000 >= 0 ? '+' : ''}${f((o.start - rs.downAt) / 1000, 2)} s, answered ${f((o.end - o.start) / 1000, 2)} s later: ${o.status ?? 'no answer'} ${o.codes.join(',')}${o.note ? ` (${o.note})` : ''}`,
      );
    out(
      `  first write written after it was back: ${fig.firstWriteWrittenAfterSeconds === null ? 'none' : `${f(fig.firstWriteWrittenAfterSeconds, 1)} s`}`,
    );
    for (const p of fig.probesAfter)
      out(
        `  probe (${p.kind} via ${p.via}) +${f(p.atSeconds, 0)} s: reached ${p.reached}/${p.eligible} watchers in time${p.gaps}${p.maxDelayMs !== null ? ` (slowest ${p.maxDelayMs} ms after the write's answer)` : ''}`,
      );
    if (rs.what.startsWith('redis')) {
      goal(
        'Redis restart: failures in its window at most the requests in flight',
        `${failures.length} failed, ${inFlight.length} in flight`,
        failures.length <= inFlight.length ? 'PASS' : 'FAIL',
      );
      goal(
        'Redis restart: subscriptions deliver after it (a gateway write and a site change, every watcher of both instances, within 60 s)',
        `gateway write ${fig.gatewayProbeDelivered ? 'delivered' : 'NOT delivered'}, site change ${fig.siteProbeDelivered ? 'delivered' : 'NOT delivered'}`,
        fig.gatewayProbeDelivered && fig.siteProbeDelivered ? 'PASS' : 'FAIL',
      );
      goal(
        'Redis restart: writes succeed after it (locks recover)',
        fig.firstWriteWrittenAfterSeconds === null
          ? 'no write written after it'
          : `first written ${f(fig.firstWriteWrittenAfterSeconds, 1)} s after`,
        fig.firstWriteWrittenAfterSeconds !== null ? 'PASS' : 'FAIL',
      );
    }
  }

  // ------------------------------------------------------------ probes
  const written = r.probes.filter((p) => p.written);
  const full = written.filter(complete);
  const inRestart = (p: Probe) =>
    r.restarts.some((rs) => p.start >= rs.downAt - DEADLINE_MS[p.kind] && p.start <= rs.backAt + 30_000);
  const incomplete = written.filter((p) => !full.includes(p));
  out(
    `\ndelivery probes: ${r.probes.length} (${written.length} written), ${full.length} reached every watcher subscribed throughout in time; not: ${incomplete.length} (${incomplete.filter(inRestart).length} around a restart)`,
  );
  for (const kind of ['gateway', 'site'] as const) {
    const d = full
      .filter((p) => p.kind === kind)
      .map((p) => p.maxDelayMs!)
      .filter((x) => x !== null);
    out(
      `  ${kind === 'gateway' ? 'gateway write' : 'site change'} -> every watcher: p50 ${f(pct(d, 50), 0)} ms, max ${f(Math.max(...d), 0)} ms`,
    );
  }
  out('  watchers (held all run, opened again whenever they end): subscriptions, how they ended');
  for (const w of r.subscribers.watchers)
    out(
      `    ${w.name.padEnd(20)} ${String(w.intervals.length).padStart(3)}  ${[...w.endings].map(([e, n]) => `${e} x${n}`).join(', ') || '-'}${w.intervals.length ? `; subscribed from ${w.intervals.map((iv) => `${f(minuteOf(iv.from), 2)}${iv.to ? `-${f(minuteOf(iv.to), 2)}` : ''}`).join(' ')} min` : ''}`,
    );
  for (const p of incomplete.slice(0, 30))
    out(
      `  not complete: ${p.kind} probe at ${f(minuteOf(p.start), 2)} min via ${p.via}: reached ${p.reached.length}/${p.eligible.length}${gaps(p)}${inRestart(p) ? ' (around a restart)' : ''}`,
    );

  // ------------------------------------------------------------ at rest, logs
  out('\nat rest (no client connected): before the run -> after every client left');
  table(
    ['instance', 'subscriptions', 'http conns', 'abort listeners', 'handles', 'fds', 'response cache'],
    r.gateways.map((g, i) => {
      const b = r.restBefore[i]!;
      const a = r.restAfter[i]!;
      const cell = (key: string) => `${f(b[key], 0)} -> ${f(a[key], 0)}`;
      return [
        g.name,
        cell('subscriptions'),
        cell('httpConnections'),
        cell('abortListeners'),
        cell('handles'),
        cell('fds'),
        cell('cacheResponse'),
      ];
    }),
  );
  for (const g of r.gateways) {
    out(
      `\ngateway ${g.name} log: ${[...g.errors.values()].reduce((n, e) => n + e.count, 0)} lines at error or above, ${[...g.warnings.values()].reduce((n, e) => n + e.count, 0)} at warn; crashes: ${g.crashes.length ? g.crashes.join('; ') : 'none'}`,
    );
    for (const [msg, e] of [...g.errors].sort((a, b) => b[1].count - a[1].count).slice(0, 10))
      out(`  error x${e.count}: ${msg}\n    first at ${f(minuteOf(e.first), 2)} min: ${e.sample.slice(0, 600)}`);
    for (const [msg, e] of [...g.warnings].sort((a, b) => b[1].count - a[1].count).slice(0, 8))
      out(`  warn x${e.count}: ${msg}`);
    if (g.crashes.length) goal(`gateway ${g.name} never exits unasked`, g.crashes.join('; '), 'FAIL');
  }

  // ------------------------------------------------------------ goals
  out('\ngoals:');
  for (const g of goals) out(`  ${g.result.padEnd(4)}  ${g.goal.padEnd(112)} ${g.value}`);
  const failed = goals.some((g) => g.result === 'FAIL');
  out(`\n${failed ? 'FAILED' : 'passed'}; ${((Date.now() - r.started) / 60_000).toFixed(1)} min in all`);

  const summary = {
    node: process.version,
    minutes: MINUTES,
    rate: RATE,
    sampleSeconds: SAMPLE_SECONDS,
    warmupMinutes: warm,
    pollSeconds: POLL_SECONDS,
    redisDownSeconds: REDIS_DOWN_SECONDS,
    requests: during.length,
    requestsPerSecond: during.length / (RUN_MS / 1000),
    skipped: r.driver.skipped,
    late: r.late,
    samples: r.samples,
    machine: r.machine,
    trends,
    traffic: Object.fromEntries(
      kinds.map((kind) => [
        kind,
        Object.fromEntries(KLASSES.map((c) => [c, outcomes.filter((o) => o.kind === kind && o.klass === c).length])),
      ]),
    ),
    codes: Object.fromEntries(codes),
    own: Object.fromEntries([...ownBy].map(([k, l]) => [k, l.length])),
    excused: excused.length,
    faults: Object.fromEntries(byFault),
    writes: { sent: ledger.length, outcomes: Object.fromEntries(wk), checked: r.checked, violations: r.violations },
    restarts: restartFigures,
    probes: {
      sent: r.probes.length,
      written: written.length,
      complete: full.length,
      incomplete: incomplete.map((p) => ({
        kind: p.kind,
        minute: minuteOf(p.start),
        via: p.via,
        reached: p.reached.length,
        eligible: p.eligible.length,
        missed: p.missed,
        late: p.late,
        stale: p.stale,
      })),
    },
    churn: r.subscribers.churn,
    watchers: r.subscribers.watchers.map((w) => ({
      name: w.name,
      subscriptions: w.intervals.length,
      endings: Object.fromEntries(w.endings),
    })),
    atRest: { before: r.restBefore, after: r.restAfter },
    logs: Object.fromEntries(
      r.gateways.map((g) => [
        g.name,
        {
          errors: Object.fromEntries([...g.errors].map(([m, e]) => [m, e.count])),
          warnings: Object.fromEntries([...g.warnings].map(([m, e]) => [m, e.count])),
          crashes: g.crashes,
        },
      ]),
    ),
    goals,
    failed,
  };
  console.log(`\n${JSON.stringify(summary, null, 2)}`);
  return { failed };
}

function table(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`;
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

process.on('exit', killAllNow);
main().then(
  (code) => process.exit(code),
  async (err) => {
    console.error(err);
    await stopAll().catch(() => {});
    process.exit(1);
  },
);
