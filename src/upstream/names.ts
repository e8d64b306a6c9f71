/**
 * The spec's names and the plugins' names of the site's REST namespaces and
 * routes (docs/real-sites.md, "Namespace names").
 *
 * The spec renames what real sites serve: The Events Calendar's `tribe/events/v1`
 * is `calendar/events/v1`, Yoast SEO's `yoast/v1` is `seo/v1`, WordPress's
 * `wp/v2` is `core/v2`, and so on; inside `yoast/v1` a few routes are renamed
 * too (`semrush/*` is `keyword_research/*`). A site may serve the plugins' names
 * only (an unmodified site), the spec's only, or both (an alias plugin).
 *
 * The gateway's code builds spec paths everywhere. Discovery (discovery.ts)
 * reads which name the site serves each namespace and route under, keeps it as
 * `SiteNames`, and turns the root index into spec names, so the route gate,
 * `declaredArgs` and `allowsBatch` look up spec paths. The operation's session
 * (session.ts) turns a spec path into the site's with `toSitePath` just before
 * the request is sent, `/batch/v1` item paths included. Route labels (metrics,
 * errors, spans) and the upstream cache's keys stay the spec's.
 */
import type { SiteNames } from '../mapping/site-models.ts';

export type { SiteNames } from '../mapping/site-models.ts';

/** A namespace the spec renames: both names as WordPress writes them (no leading slash). */
export interface NamespaceRename {
  readonly spec: string;
  readonly plugin: string;
}

/**
 * A route renamed inside a spec namespace, as path prefixes under the spec
 * namespace (the rename applies to the prefix and everything below it).
 */
export interface RouteRename {
  readonly spec: string;
  readonly plugin: string;
}

/**
 * Every namespace the spec renames. The calendar, views, aggregator and
 * onboarding names are The Events Calendar's; the automation namespaces are
 * Common's Zapier and Power Automate connectors (docs/sandbox-extras.md).
 * The calendar's two interfaces' rows stay here, in the one table discovery
 * reads; the calendar names them from it (src/namespaces/calendar/vocabulary.ts
 * `PLUGIN_NAMESPACE`).
 */
export const NAMESPACE_RENAMES: readonly NamespaceRename[] = [
  { spec: 'calendar/events/v1', plugin: 'tribe/events/v1' },
  { spec: 'calendar-core/v1', plugin: 'tec/v1' },
  { spec: 'calendar-core/v2/onboarding', plugin: 'tec/v2/onboarding' },
  { spec: 'calendar/views/v2', plugin: 'tribe/views/v2' },
  { spec: 'calendar/aggregator/v1', plugin: 'tribe/event-aggregator/v1' },
  { spec: 'calendar/automation-a/v1', plugin: 'tribe/zapier/v1' },
  { spec: 'calendar/automation-b/v1', plugin: 'tribe/power-automate/v1' },
  { spec: 'seo/v1', plugin: 'yoast/v1' },
  { spec: 'core/v2', plugin: 'wp/v2' },
  { spec: 'facet/v1', plugin: 'facetwp/v1' },
];

/**
 * Yoast SEO's routes the spec renames (the vendor's name stripped): SEMrush's
 * keyword research (19.3 serves `semrush/authenticate`, `semrush/country_code`,
 * `semrush/related_keyphrases`), the Wistia embed permission and the Site Kit
 * dismissal.
 */
export const ROUTE_RENAMES: readonly RouteRename[] = [
  { spec: 'seo/v1/keyword_research', plugin: 'seo/v1/semrush' },
  { spec: 'seo/v1/video_embed_permission', plugin: 'seo/v1/wistia_embed_permission' },
  { spec: 'seo/v1/kit_configuration_permanent_dismissal', plugin: 'seo/v1/site_kit_configuration_permanent_dismissal' },
];

export const SPEC_NAMES: SiteNames = { namespaces: {}, routes: {}, rewrites: [] };

/** Whether `path` is `prefix` or below it (a `/` or `?` follows). */
function under(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charAt(prefix.length);
  return next === '' || next === '/' || next === '?';
}

function replacePrefix(path: string, from: string, to: string): string | null {
  return under(path, from) ? to + path.slice(from.length) : null;
}

/**
 * The names a site uses, from the namespaces it serves each spec namespace
 * under and the route renames in force (discovery.ts decides both).
 */
export function siteNames(
  namespaces: Readonly<Record<string, string>>,
  routes: Readonly<Record<string, string>>,
): SiteNames {
  const rewrites: [string, string][] = [];
  const nsOf = (spec: string) => namespaces[spec] ?? spec;
  for (const [spec, plugin] of Object.entries(routes)) {
    const ns = NAMESPACE_RENAMES.find((n) => under(spec, n.spec));
    const served = ns ? nsOf(ns.spec) + plugin.slice(ns.spec.length) : plugin;
    rewrites.push([`/${spec}`, `/${served}`]);
  }
  for (const [spec, served] of Object.entries(namespaces)) rewrites.push([`/${spec}`, `/${served}`]);
  rewrites.sort((a, b) => b[0].length - a[0].length);
  return { namespaces, routes, rewrites };
}

/** The names of a site that serves every renamed namespace and route under the plugin's name (an unmodified site). */
export function pluginNames(): SiteNames {
  return siteNames(
    Object.fromEntries(NAMESPACE_RENAMES.map((n) => [n.spec, n.plugin])),
    Object.fromEntries(ROUTE_RENAMES.map((r) => [r.spec, r.plugin])),
  );
}

/**
 * A spec path (`/calendar/events/v1/events/5`, or a `/batch/v1` item's
 * `path?query`) as this site serves it (`/tribe/events/v1/events/5`). Paths of
 * namespaces the site serves under the spec's name, and paths outside every
 * renamed namespace, are returned as they are.
 */
export function toSitePath(names: SiteNames, path: string): string {
  for (const [spec, site] of names.rewrites) {
    const out = replacePrefix(path, spec, site);
    if (out !== null) return out;
  }
  return path;
}

/**
 * A request as this site is sent it: its path by `toSitePath`, and for
 * `/batch/v1` each item's path too. Everything else (the route label, the
 * query, the body's other fields) is unchanged; on a site that serves the
 * spec's names, the same object.
 */
export function toSiteRequest<R extends { path: string; body?: unknown }>(names: SiteNames, req: R): R {
  if (names.rewrites.length === 0) return req;
  const path = toSitePath(names, req.path);
  let body = req.body;
  const items =
    req.path === '/batch/v1' && typeof body === 'object' && body !== null
      ? (body as { requests?: unknown }).requests
      : undefined;
  if (Array.isArray(items)) {
    const requests = items.map((item: unknown) => {
      const p = typeof item === 'object' && item !== null ? (item as { path?: unknown }).path : undefined;
      return typeof p === 'string' ? { ...(item as object), path: toSitePath(names, p) } : item;
    });
    body = { ...(body as object), requests };
  }
  return path === req.path && body === req.body ? req : { ...req, path, body };
}

/**
 * A namespace name as the spec writes it (`tribe/events/v1` -> `calendar/events/v1`);
 * other names unchanged.
 */
export function specNamespace(name: string): string {
  return NAMESPACE_RENAMES.find((n) => n.plugin === name)?.spec ?? name;
}

/** Which rename, if any, a site path falls under: its namespace by the plugin's name. */
export function pluginNamespaceOf(path: string): NamespaceRename | undefined {
  return NAMESPACE_RENAMES.find((n) => under(path, `/${n.plugin}`));
}

/**
 * A path or route pattern under either name as the spec writes it: the
 * plugin's namespace name replaced by the spec's, then a renamed route's
 * plugin name by the spec's (`/yoast/v1/semrush/authenticate` ->
 * `/seo/v1/keyword_research/authenticate`). Also reads the sandbox's and a real
 * site's logs back (scripts/routes.ts).
 */
export function toSpecPath(path: string): string {
  const ns = pluginNamespaceOf(path);
  let out = ns ? `/${ns.spec}${path.slice(ns.plugin.length + 1)}` : path;
  for (const r of ROUTE_RENAMES) {
    const renamed = replacePrefix(out, `/${r.plugin}`, `/${r.spec}`);
    if (renamed !== null) {
      out = renamed;
      break;
    }
  }
  return out;
}

/** Whether `path` is the spec path `prefix` (with a leading slash) or below it. */
export function isUnder(path: string, prefix: string): boolean {
  return under(path, prefix);
}
