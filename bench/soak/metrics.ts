/**
 * What the soak records of each gateway instance every minute (its admin
 * `/metrics`, Prometheus text, and /proc), and the least-squares slope over
 * the samples after warm-up.
 */
import { procCpuSeconds, procFds, type GatewayProcess } from './processes.ts';

/** A metric summed over its series whose labels include `labels`; null when the gateway does not export it. */
export function metric(text: string, name: string, labels: Record<string, string> = {}): number | null {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let found = false;
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!(line.startsWith(`${name}{`) || line.startsWith(`${name} `))) continue;
    if (!want.every((w) => line.includes(w))) continue;
    found = true;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return found ? sum : null;
}

export interface Sample {
  /** Minutes since the traffic started. */
  minute: number;
  at: number;
  /** The instance's life (1; 2 after its restart). */
  gen: number;
  pid: number | null;
  rssMiB: number | null;
  heapMiB: number | null;
  loopP99Ms: number | null;
  fds: number | null;
  procFds: number | null;
  handles: number | null;
  subscriptions: number | null;
  /** Subscriptions the driver holds open on this instance at the moment of the sample. */
  subscriptionsExpected: number;
  httpConnections: number | null;
  abortListeners: number | null;
  cacheUpstream: number | null;
  cacheResponse: number | null;
  /** CPU of the process since the previous sample, in % of one core. */
  cpuPercent: number | null;
  /** Operations the driver sent to it since the previous sample, and those that did not answer as expected. */
  ops: number;
  errors: number;
}

/** CPU seconds of a pid at the previous sample, for the per-minute CPU %. */
const lastCpu = new Map<number, { at: number; cpu: number }>();

export function cpuPercent(pid: number | undefined, now = Date.now()): number | null {
  const cpu = procCpuSeconds(pid);
  if (!pid || cpu === null) return null;
  const prev = lastCpu.get(pid);
  lastCpu.set(pid, { at: now, cpu });
  if (!prev || now <= prev.at) return null;
  return (100 * (cpu - prev.cpu)) / ((now - prev.at) / 1000);
}

export async function sampleInstance(
  g: GatewayProcess,
  minute: number,
  expected: number,
  traffic: { ops: number; errors: number },
): Promise<Sample> {
  const base: Sample = {
    minute,
    at: Date.now(),
    gen: g.gen,
    pid: g.pid ?? null,
    rssMiB: null,
    heapMiB: null,
    loopP99Ms: null,
    fds: null,
    procFds: null,
    handles: null,
    subscriptions: null,
    subscriptionsExpected: expected,
    httpConnections: null,
    abortListeners: null,
    cacheUpstream: null,
    cacheResponse: null,
    cpuPercent: null,
    ...traffic,
  };
  if (!g.running) return base;
  base.procFds = procFds(g.pid);
  base.cpuPercent = cpuPercent(g.pid, base.at);
  let text: string;
  try {
    const res = await fetch(`${g.adminUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
    text = await res.text();
  } catch {
    return base;
  }
  const mib = (v: number | null) => (v === null ? null : v / 2 ** 20);
  return {
    ...base,
    rssMiB: mib(metric(text, 'process_resident_memory_bytes')),
    heapMiB: mib(metric(text, 'nodejs_heap_size_used_bytes')),
    loopP99Ms: ((v) => (v === null ? null : v * 1000))(metric(text, 'nodejs_eventloop_lag_p99_seconds')),
    fds: metric(text, 'process_open_fds'),
    handles: metric(text, 'nodejs_active_handles_total'),
    subscriptions: metric(text, 'sitegraph_subscriptions_active'),
    httpConnections: metric(text, 'sitegraph_http_open_connections'),
    abortListeners: metric(text, 'sitegraph_abort_listeners'),
    cacheUpstream: metric(text, 'sitegraph_cache_entries', { cache: 'upstream' }),
    cacheResponse: metric(text, 'sitegraph_cache_entries', { cache: 'response' }),
  };
}

export interface Trend {
  /** Samples in the fit. */
  n: number;
  fromMinute: number;
  toMinute: number;
  /** Least-squares slope, units per minute. */
  slopePerMinute: number;
  /** The fitted line's value at the first and last minute. */
  fittedStart: number;
  fittedEnd: number;
  /** (fittedEnd - fittedStart) / fittedStart, in %. */
  growthPercent: number;
}

/** The least-squares line through (minute, value); null with fewer than 3 points. */
export function trend(points: { minute: number; value: number | null }[]): Trend | null {
  const pts = points.filter(
    (p): p is { minute: number; value: number } => p.value !== null && Number.isFinite(p.value),
  );
  if (pts.length < 3) return null;
  const n = pts.length;
  const mx = pts.reduce((s, p) => s + p.minute, 0) / n;
  const my = pts.reduce((s, p) => s + p.value, 0) / n;
  const sxx = pts.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  const sxy = pts.reduce((s, p) => s + (p.minute - mx) * (p.value - my), 0);
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const from = pts[0]!.minute;
  const to = pts[n - 1]!.minute;
  const fittedStart = my + slope * (from - mx);
  const fittedEnd = my + slope * (to - mx);
  return {
    n,
    fromMinute: from,
    toMinute: to,
    slopePerMinute: slope,
    fittedStart,
    fittedEnd,
    growthPercent: (100 * (fittedEnd - fittedStart)) / fittedStart,
  };
}
