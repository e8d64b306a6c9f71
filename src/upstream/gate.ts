/**
 * The route gate's rule: whether the site's root index lists a route. The
 * operation's session (upstream/session.ts) applies it to every request, so a
 * request for a route the site lacks is refused before it is sent, with
 * NAMESPACE_UNAVAILABLE naming the namespace or the route. A site without a
 * namespace (no calendar-core/v1 before TEC 6.15) or without some of a
 * namespace's routes (Yoast SEO free has no redirects routes) then costs only
 * the fields that need them: every such field is nullable, so its siblings
 * still answer (docs/real-sites.md).
 *
 * Paths and the index's routes are both in the spec's names here: discovery
 * turned the site's names into the spec's, and the session translates a path
 * only after the gate passed it (docs/real-sites.md, "Namespace names").
 */
import type { SiteInfo } from './discovery.ts';

/**
 * Whether the site's index lists a route for `method path`. An index without
 * `routes` (some sites strip it) is judged by its namespaces alone, and one
 * without either by nothing (everything is tried).
 */
export function siteOffers(site: SiteInfo, method: string, path: string): boolean {
  if (path === '/') return true;
  if (site.routes.length === 0)
    return site.namespaces.length === 0 || site.namespaces.some((n) => path === `/${n}` || path.startsWith(`/${n}/`));
  // A site lists a couple of hundred routes, each a regular expression: every request tried them
  // in turn. The answers are kept per index read (a new read is a new SiteInfo), a bounded number.
  let seen = answers.get(site);
  if (!seen) answers.set(site, (seen = new Map()));
  const key = `${method} ${path}`;
  let offered = seen.get(key);
  if (offered === undefined) {
    offered = site.routes.some((r) => r.re?.test(path) && (r.methods.length === 0 || r.methods.includes(method)));
    if (seen.size >= MAX_ANSWERS) seen.clear();
    seen.set(key, offered);
  }
  return offered;
}

/** What siteOffers answered, per index read. */
const answers = new WeakMap<SiteInfo, Map<string, boolean>>();
/** Paths carry IDs: the answers kept per index read are bounded. */
const MAX_ANSWERS = 4096;
