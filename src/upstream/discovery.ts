/**
 * The site's root index (`GET /`, ../shared/reference/site-upstream.md §4) -> what the
 * gateway may use: namespaces present, routes and their `allow_batch`, the
 * batch size limit, the time zone. Read at start and on /readyz.
 */
import { isJson, obj, str, num, type Json } from '../mapping/json.ts';
import type { UpstreamSession } from './client.ts';
import type { RouteInfo, SiteInfo } from '../mapping/site-models.ts';

export const LEGACY_NS = 'calendar/events/v1';
export const CORE_NS = 'calendar-core/v1';
/** WordPress's default `rest_get_max_batch_size`. */
export const DEFAULT_MAX_BATCH = 25;

// The types live with the other models (codegen maps `Site` onto SiteInfo); importers here keep their path.
export type { RouteInfo, SiteInfo } from '../mapping/site-models.ts';

function compile(pattern: string): RegExp | null {
  try {
    return new RegExp(`^${pattern.replace(/\(\?P</g, '(?<')}$`, 'i');
  } catch {
    return null;
  }
}

export function parseIndex(body: unknown): SiteInfo {
  const o = obj(body, 'root index');
  const namespaces = Array.isArray(o.namespaces) ? o.namespaces.filter((n): n is string => typeof n === 'string') : [];
  const routesObj = typeof o.routes === 'object' && o.routes !== null ? (o.routes as Json) : {};
  const routes: RouteInfo[] = Object.entries(routesObj).map(([pattern, data]) => {
    const d = (typeof data === 'object' && data !== null ? data : {}) as Json;
    const endpoints = Array.isArray(d.endpoints) ? (d.endpoints as Json[]) : [];
    const batchMethods = endpoints
      .filter((e) => typeof e === 'object' && e !== null && typeof e.allow_batch === 'object' && e.allow_batch !== null && (e.allow_batch as Json).v1)
      .flatMap((e) => (Array.isArray(e.methods) ? e.methods.map(String) : []));
    const args: Record<string, string[]> = {};
    for (const e of endpoints) {
      if (typeof e !== 'object' || e === null || !Array.isArray(e.methods) || e.args === undefined || e.args === null) continue;
      // PHP serialises an endpoint without arguments as `"args": []`.
      const names = isJson(e.args) ? Object.keys(e.args) : [];
      for (const m of e.methods) args[String(m)] = names;
    }
    return {
      pattern,
      re: compile(pattern),
      namespace: str(d.namespace) ?? '',
      methods: Array.isArray(d.methods) ? d.methods.map(String) : [],
      batchMethods,
      args,
    };
  });
  const batchRoute = routesObj['/batch/v1'] as Json | undefined;
  let maxBatchSize = DEFAULT_MAX_BATCH;
  const ep = Array.isArray(batchRoute?.endpoints) ? (batchRoute!.endpoints as Json[])[0] : undefined;
  const reqArg = ep && typeof ep.args === 'object' && ep.args ? ((ep.args as Json).requests as Json | undefined) : undefined;
  if (reqArg && typeof reqArg.maxItems === 'number' && reqArg.maxItems > 0) maxBatchSize = reqArg.maxItems;
  const hasLegacy = namespaces.includes(LEGACY_NS);
  const hasCore = namespaces.includes(CORE_NS);
  return {
    name: str(o.name),
    description: str(o.description),
    url: str(o.url),
    home: str(o.home),
    timezone: str(o.timezone_string) || gmtZone(num(o.gmt_offset)),
    gmtOffset: num(o.gmt_offset),
    namespaces,
    hasLegacy,
    hasCore,
    calendarInterface: hasLegacy ? 'LEGACY' : hasCore ? 'CORE' : null,
    maxBatchSize,
    routes,
    hasBatch: Boolean(batchRoute),
    raw: body,
  };
}

/** WordPress sites without a named zone report only an offset. */
function gmtZone(offset: number | null): string {
  if (!offset) return 'UTC';
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  const h = Math.floor(abs);
  const m = Math.round((abs - h) * 60);
  return `UTC${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

/**
 * The argument names the site declares for `method` on the route `pattern`, or
 * null when the index does not describe that endpoint (then nothing can be checked).
 */
export function declaredArgs(site: SiteInfo, method: string, pattern: string): ReadonlySet<string> | null {
  const names = site.routes.find((r) => r.pattern === pattern)?.args[method];
  return names ? new Set(names) : null;
}

/** Whether `method path` may go through /batch/v1 on this site. */
export function allowsBatch(site: SiteInfo, method: string, path: string): boolean {
  if (!site.hasBatch) return false;
  const p = path.split('?')[0]!;
  for (const r of site.routes) if (r.re?.test(p) && r.methods.includes(method)) return r.batchMethods.includes(method);
  return false;
}

/** Reads the root index; `signal` bounds the whole reading, retries included. */
export async function discover(session: UpstreamSession, signal?: AbortSignal): Promise<SiteInfo> {
  const res = await session.request({ method: 'GET', path: '/', route: 'GET /', ...(signal ? { signal } : {}) });
  return parseIndex(res.body);
}
