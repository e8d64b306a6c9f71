/**
 * The route gate: a request for a route the site's root index does not list is
 * refused before it is sent, with NAMESPACE_UNAVAILABLE naming the namespace or
 * the route. A site without a namespace (no calendar-core/v1 before TEC 6.15)
 * or without some of a namespace's routes (Yoast SEO free has no redirects
 * routes) then costs only the fields that need them: every such field is
 * nullable, so its siblings still answer (real-site-behaviour.md, issue 8).
 */
import type { UpstreamRequest, UpstreamResponse, UpstreamSession } from './client.ts';
import type { SiteInfo } from './discovery.ts';
import { GatewayError } from './errors.ts';

/** Whether the site's index lists a route for `method path`; true when the index lists no routes at all. */
export function siteOffers(site: SiteInfo, method: string, path: string): boolean {
  if (path === '/' || site.routes.length === 0) return true;
  return site.routes.some((r) => r.re?.test(path) && (r.methods.length === 0 || r.methods.includes(method)));
}

export function gatedSession(session: UpstreamSession, site: SiteInfo): UpstreamSession {
  return {
    authenticated: session.authenticated,
    request<T = unknown>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
      if (!siteOffers(site, req.method, req.path)) {
        const ns = site.namespaces.some((n) => req.path.startsWith(`/${n}/`)) ? '' : ' (nor its namespace)';
        return Promise.reject(new GatewayError('NAMESPACE_UNAVAILABLE', `The site does not provide the REST route ${req.route}${ns}.`, { route: req.route }));
      }
      return session.request<T>(req);
    },
  };
}
