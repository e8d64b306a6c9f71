/**
 * The two sets of names a namespace can be served under (the `names` option;
 * docs/sandbox.md "Names"). The spec renamed the plugins' namespaces
 * (`tribe/events/v1` became `calendar/events/v1`, ...) and a few routes inside
 * them (Yoast's `semrush/*` became `keyword_research/*`); a real site serves the
 * plugins' names, and the spec's too only through an alias plugin.
 *
 * Inside the sandbox every route is declared once, under the spec's name: the
 * plugin-named routes are copies of those declarations (route-table.ts
 * `aliasRoutes`), and a body answered to a plugin-named request has its links
 * renamed on the way out (`renameLinks`). Pure functions and data, importing
 * nothing: options.ts reads them.
 */
export type Names = 'spec' | 'plugin' | 'both';

/**
 * Spec namespace -> the plugin's own (declared-args.md, other-upstream.md §3
 * for FacetWP). Namespaces without a known plugin name (oembed/1.0, batch/v1,
 * the site-* and automation ones, duplicate-post/v1, which already is) keep theirs.
 */
export const PLUGIN_NAMESPACES: Readonly<Record<string, string>> = {
  'calendar/events/v1': 'tribe/events/v1',
  'calendar-core/v1': 'tec/v1',
  'calendar-core/v2/onboarding': 'tec/v2/onboarding',
  'calendar/views/v2': 'tribe/views/v2',
  'calendar/aggregator/v1': 'tribe/event-aggregator/v1',
  'seo/v1': 'yoast/v1',
  'core/v2': 'wp/v2',
  'facet/v1': 'facetwp/v1',
};

/**
 * Routes renamed inside a namespace: `[namespace, spec prefix, plugin prefix]`
 * of the path after the namespace. Only Yoast's SEMrush routes are known
 * (Yoast 19.3 serves `semrush/*`); other-upstream.md's other guesses
 * (wistia, site_kit) are unconfirmed and left as the spec names them.
 */
const ROUTE_RENAMES: readonly (readonly [string, string, string])[] = [['seo/v1', 'keyword_research/', 'semrush/']];

const SPEC_OF = Object.fromEntries(Object.entries(PLUGIN_NAMESPACES).map(([s, p]) => [p, s]));

/** Longest first, so `calendar-core/v2/onboarding` is tried before anything shorter it could start with. */
const bySpecLength = Object.keys(PLUGIN_NAMESPACES).sort((a, b) => b.length - a.length);
const byPluginLength = Object.keys(SPEC_OF).sort((a, b) => b.length - a.length);

/** The namespace of `names` a REST path (or route pattern) starts with, if any. */
function prefixOf(path: string, names: readonly string[]): string | undefined {
  return names.find((ns) => path === `/${ns}` || path.startsWith(`/${ns}/`));
}

/**
 * The field calendar-core/v1 events carry their event categories in, read and
 * write: `tribe_events_cat`, the taxonomy's real name, on a site that serves the
 * plugins' names (declared-args.md: the writes of 6.15.14 declare it, and the
 * reads answer it), the spec's `calendar_events_cat` on a spec-named one. A
 * write under the other name is an undeclared argument, dropped.
 */
export function coreCategoryField(names: Names): 'tribe_events_cat' | 'calendar_events_cat' {
  return names === 'spec' ? 'calendar_events_cat' : 'tribe_events_cat';
}

/** Whether the spec renamed this namespace (it has a plugin name). */
export function isRenamed(namespace: string): boolean {
  return namespace in PLUGIN_NAMESPACES;
}

/** A namespace's spec name, whichever name is given. */
export function specNamespace(namespace: string): string {
  return SPEC_OF[namespace] ?? namespace;
}

/** A namespace's plugin name, whichever name is given. */
export function pluginNamespace(namespace: string): string {
  return PLUGIN_NAMESPACES[namespace] ?? namespace;
}

/** A REST path or route pattern under the plugin's names (`/seo/v1/keyword_research/x` -> `/yoast/v1/semrush/x`). */
export function pluginPath(path: string): string {
  const ns = prefixOf(path, bySpecLength);
  if (!ns) return path;
  let rest = path.slice(ns.length + 1);
  for (const [space, from, to] of ROUTE_RENAMES)
    if (space === ns && rest.startsWith(`/${from}`)) rest = `/${to}${rest.slice(from.length + 1)}`;
  return `/${PLUGIN_NAMESPACES[ns]}${rest}`;
}

/** A REST path or route pattern under the spec's names (the reverse of pluginPath). */
export function specPath(path: string): string {
  const ns = prefixOf(path, byPluginLength);
  if (!ns) return path;
  const spec = SPEC_OF[ns]!;
  let rest = path.slice(ns.length + 1);
  for (const [space, from, to] of ROUTE_RENAMES)
    if (space === spec && rest.startsWith(`/${to}`)) rest = `/${from}${rest.slice(to.length + 1)}`;
  return `/${spec}${rest}`;
}

/**
 * The name of `spec`'s namespace a request path came in by: its plugin name
 * when the path starts with it, else the spec's (a namespace's own routes,
 * such as its OpenAPI document, list the routes of the name asked).
 */
export function requestNamespace(path: string, spec: string): string {
  const plugin = pluginNamespace(spec);
  return path === `/${plugin}` || path.startsWith(`/${plugin}/`) ? plugin : spec;
}

/** Whether a request path came in by a plugin name. */
export function isPluginPath(path: string): boolean {
  return prefixOf(path, byPluginLength) !== undefined;
}

/** The namespaces the root index lists, in order, for a list of spec namespaces. */
export function servedNamespaces(spec: readonly string[], names: Names): string[] {
  if (names === 'spec') return [...spec];
  const plugin = spec.map(pluginNamespace);
  return names === 'plugin' ? plugin : [...plugin, ...spec.filter(isRenamed)];
}

/**
 * A body (and headers) answered to a request made by the plugin's names: every
 * REST URL of a renamed namespace (`<restRoot>/calendar/events/v1/...` in
 * `_links`, `rest_url`, `Location`, `Link`, HTML), every route key (`/seo/v1/...`
 * in an index or an OpenAPI document) and every value that is a spec namespace
 * name is written with the plugin's names. Returns a new value; the input is
 * not changed.
 */
export function renameLinks<T>(value: T, restRoot: string): T {
  const root = restRoot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const urls = new RegExp(`${root}(/[^\\s"'<>?#]*)`, 'g');
  const text = (s: string): string => {
    if (isRenamed(s)) return PLUGIN_NAMESPACES[s]!;
    return s.includes(restRoot) ? s.replace(urls, (_m, path: string) => `${restRoot}${pluginPath(path)}`) : s;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k.startsWith('/') ? pluginPath(k) : k] = walk(x);
    return out;
  };
  return walk(value) as T;
}

/** The names served, one line (the banner and `--help`). */
export function describeNames(names: Names): string {
  const spec = Object.keys(PLUGIN_NAMESPACES).slice(0, 4).join(', ');
  const plugin = Object.values(PLUGIN_NAMESPACES).slice(0, 4).join(', ');
  if (names === 'spec') return `the spec's (${spec}, ...); calendar-core event categories in calendar_events_cat`;
  if (names === 'plugin')
    return `the plugins' own (${plugin}, ...; the spec's are 404); calendar-core event categories in tribe_events_cat`;
  return `both the plugins' (${plugin}, ...) and the spec's; calendar-core event categories in tribe_events_cat`;
}
