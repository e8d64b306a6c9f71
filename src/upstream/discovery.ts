/**
 * The site's root index (`GET /`) -> what the gateway may use: namespaces
 * present, routes with their arguments and `allow_batch`, the batch size limit,
 * the time zone, and the names the site serves the spec's namespaces under
 * (docs/real-sites.md, "Namespace names"). Everything but `names` and `raw` is
 * in the spec's names. Read at start and on /readyz.
 */
import { isJson, obj, str, num, type Json } from '../mapping/json.ts';
import type { UpstreamSession } from './client.ts';
import type { RouteInfo, SiteInfo, SiteNames } from '../mapping/site-models.ts';
import {
  NAMESPACE_RENAMES,
  ROUTE_RENAMES,
  SPEC_NAMES,
  isUnder,
  pluginNamespaceOf,
  siteNames,
  specNamespace,
} from './names.ts';
import { inertArgs } from './inert.ts';

/** The root index's route, said once: the request below and the route table's row (namespaces/route-table.ts). */
export const ROOT_INDEX = { method: 'GET', path: '/', label: 'GET /' } as const;
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
  const listed = Array.isArray(o.namespaces) ? o.namespaces.filter((n): n is string => typeof n === 'string') : [];
  const routesObj = typeof o.routes === 'object' && o.routes !== null ? (o.routes as Json) : {};
  const asServed: RouteInfo[] = Object.entries(routesObj).map(([pattern, data]) => {
    const d = (typeof data === 'object' && data !== null ? data : {}) as Json;
    const endpoints = Array.isArray(d.endpoints) ? (d.endpoints as Json[]) : [];
    const batchMethods = endpoints
      .filter(
        (e) =>
          typeof e === 'object' &&
          e !== null &&
          typeof e.allow_batch === 'object' &&
          e.allow_batch !== null &&
          (e.allow_batch as Json).v1,
      )
      .flatMap((e) => (Array.isArray(e.methods) ? e.methods.map(String) : []));
    const args: Record<string, string[]> = {};
    for (const e of endpoints) {
      if (typeof e !== 'object' || e === null || !Array.isArray(e.methods) || e.args === undefined || e.args === null)
        continue;
      // PHP serialises an endpoint without arguments as `"args": []`.
      const names = isJson(e.args) ? Object.keys(e.args) : [];
      for (const m of e.methods) args[String(m)] = names;
    }
    return {
      pattern,
      re: null,
      namespace: str(d.namespace) ?? '',
      methods: Array.isArray(d.methods) ? d.methods.map(String) : [],
      batchMethods,
      args,
    };
  });
  const { names, routes } = inSpecNames(listed, asServed);
  // The spec's names, once each (a site with an alias plugin lists both).
  const namespaces = [...new Set(listed.map(specNamespace))];
  const batchRoute = routesObj['/batch/v1'] as Json | undefined;
  let maxBatchSize = DEFAULT_MAX_BATCH;
  const ep = Array.isArray(batchRoute?.endpoints) ? (batchRoute!.endpoints as Json[])[0] : undefined;
  const reqArg =
    ep && typeof ep.args === 'object' && ep.args ? ((ep.args as Json).requests as Json | undefined) : undefined;
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
    names,
    raw: body,
  };
}

/**
 * Which name the site serves each renamed namespace and route under, and its
 * routes under the spec's names (docs/real-sites.md, "Namespace names").
 *
 * A namespace is served under the spec's name when the site has it (an alias
 * plugin serves both: the spec's wins), else under the plugin's. What the
 * routes' own `namespace` fields say decides; the `namespaces` list only when
 * no route says (an index stripped of its routes). The routes of the name not
 * chosen are left out: the gateway never sends to them. A route renamed inside
 * a namespace (Yoast's `semrush/*`) is served under the plugin's route name
 * when the site lists it and not the spec's; on an index without routes,
 * when its namespace is served under the plugin's name.
 */
function inSpecNames(
  listed: readonly string[],
  asServed: readonly RouteInfo[],
): { names: SiteNames; routes: RouteInfo[] } {
  const fromRoutes = new Set(asServed.map((r) => r.namespace).filter(Boolean));
  const present = (n: string) => (fromRoutes.size > 0 ? fromRoutes.has(n) : listed.includes(n));
  const servedAs: Record<string, string> = {};
  for (const n of NAMESPACE_RENAMES) if (!present(n.spec) && present(n.plugin)) servedAs[n.spec] = n.plugin;

  // Namespaces first: each route under its spec namespace's name, or left out.
  const inSpecNs: RouteInfo[] = [];
  for (const r of asServed) {
    const ns = pluginNamespaceOf(r.pattern);
    if (ns && servedAs[ns.spec] !== ns.plugin) continue;
    inSpecNs.push(
      ns
        ? {
            ...r,
            pattern: `/${ns.spec}${r.pattern.slice(ns.plugin.length + 1)}`,
            namespace: specNamespace(r.namespace),
          }
        : { ...r, namespace: specNamespace(r.namespace) },
    );
  }
  // Then the routes renamed inside a namespace, in the index's order.
  const renamed: Record<string, string> = {};
  for (const rn of ROUTE_RENAMES) {
    const specHas = inSpecNs.some((r) => isUnder(r.pattern, `/${rn.spec}`));
    const pluginHas = inSpecNs.some((r) => isUnder(r.pattern, `/${rn.plugin}`));
    const ns = NAMESPACE_RENAMES.find((n) => isUnder(`/${rn.spec}`, `/${n.spec}`));
    if (!specHas && (pluginHas || (asServed.length === 0 && ns !== undefined && servedAs[ns.spec] !== undefined)))
      renamed[rn.spec] = rn.plugin;
  }
  const routes: RouteInfo[] = [];
  for (const r of inSpecNs) {
    const rn = ROUTE_RENAMES.find((x) => isUnder(r.pattern, `/${x.plugin}`));
    // The plugin's route name beside the spec's: not the one served.
    if (rn && renamed[rn.spec] === undefined) continue;
    const pattern = rn ? `/${rn.spec}${r.pattern.slice(rn.plugin.length + 1)}` : r.pattern;
    routes.push({ ...r, pattern, re: compile(pattern) });
  }
  const names = Object.keys(servedAs).length || Object.keys(renamed).length ? siteNames(servedAs, renamed) : SPEC_NAMES;
  return { names, routes };
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
 * An argument the release declares but does not apply on this site (inert.ts)
 * is left out: sending it would answer as if it were not declared.
 */
export function declaredArgs(site: SiteInfo, method: string, pattern: string): ReadonlySet<string> | null {
  const names = site.routes.find((r) => r.pattern === pattern)?.args[method];
  if (!names) return null;
  const inert = new Set(inertArgs(site, method, pattern).map((r) => r.arg));
  return new Set(inert.size ? names.filter((n) => !inert.has(n)) : names);
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
  const res = await session.request({
    method: ROOT_INDEX.method,
    path: ROOT_INDEX.path,
    route: ROOT_INDEX.label,
    ...(signal ? { signal } : {}),
  });
  return parseIndex(res.body);
}
