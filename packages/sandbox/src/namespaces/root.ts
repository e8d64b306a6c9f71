/**
 * The root index `GET /` and every namespace index `GET /<namespace>`
 * (reference/site-upstream.md §4), generated from the same route declarations
 * that drive routing and validation.
 */
import { gmtOffsetHours } from '../dates.ts';
import { servedNamespaces, specNamespace } from '../names.ts';
import type { Origin, Settings, Site } from '../capabilities.ts';
import { argForIndex } from '../rest/arg-index.ts';
import type { ArgSchema, RouteDecl, RouteTable } from '../rest/types.ts';
import { TICKETS_NAMESPACE } from './tickets.ts';

/** Every namespace of both spec documents, in the order the spec lists them. */
export const NAMESPACES = [
  'oembed/1.0',
  'site-audit-log/v1',
  'site-governance/v1',
  'seo/v1',
  'site-blocks/v1',
  'calendar/aggregator/v1',
  'calendar/events/v1',
  'calendar/views/v2',
  'calendar-core/v2/onboarding',
  'calendar-core/v1',
  'calendar/automation-a/v1',
  'calendar/automation-b/v1',
  'duplicate-post/v1',
  'site/v1',
  'facet/v1',
  'core/v2',
] as const;

/**
 * Namespaces of plugins outside both spec documents, listed as an active
 * plugin registers them: Event Tickets' (the `tickets` option), served as its
 * namespace index alone, since what the gateway reads of it is its presence
 * (docs/sandbox.md "Event Tickets"). One name under every `names` option.
 */
function plugins(site: Settings): string[] {
  return site.options.tickets ? [TICKETS_NAMESPACE] : [];
}

export function routeData(site: Origin & Settings, decl: RouteDecl): Record<string, unknown> {
  const data: Record<string, unknown> = {
    namespace: decl.namespace,
    methods: [...new Set(decl.endpoints.flatMap((e) => e.methods))],
    endpoints: decl.endpoints.map((e) => ({
      methods: e.methods,
      ...(e.allowBatch && site.options.batchable ? { allow_batch: { v1: true } } : {}),
      args: Object.fromEntries(Object.entries(e.args).map(([n, a]) => [n, argForIndex(a)])),
    })),
  };
  if (!decl.path.includes('(')) data._links = { self: [{ href: `${site.restRoot}${decl.path}` }] };
  return data;
}

function routesOf(site: Settings & Origin & RouteTable, namespace?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const decl of site.routes) {
    if (decl.hidden) continue;
    if (namespace !== undefined && decl.namespace !== namespace) continue;
    out[decl.path] = routeData(site, decl);
  }
  return out;
}

const contextArg: ArgSchema = { type: 'string', default: 'view', enum: ['view', 'embed', 'edit'] };

export function rootRoutes(site: Site & RouteTable): RouteDecl[] {
  const root: RouteDecl = {
    namespace: '',
    path: '/',
    endpoints: [
      {
        methods: ['GET'],
        args: {
          context: {
            ...contextArg,
            description: 'Scope under which the request is made; determines fields present in response.',
          },
        },
        permission: () => true,
        handler: () => {
          const now = site.now();
          return {
            name: site.store.option('blogname', 'Sitegraph Sandbox'),
            description: site.store.option('blogdescription', ''),
            url: site.origin,
            home: site.origin,
            gmt_offset: gmtOffsetHours(site.timezone, now),
            timezone_string: site.timezone,
            page_for_posts: 0,
            page_on_front: 0,
            show_on_front: 'posts',
            namespaces: [
              ...servedNamespaces(
                NAMESPACES.filter((ns) => !site.options.disable.includes(ns)),
                site.options.names,
              ),
              ...plugins(site),
            ],
            authentication: {
              'application-passwords': {
                endpoints: { authorization: `${site.origin}/wp-admin/authorize-application.php` },
              },
            },
            routes: routesOf(site),
            site_logo: 0,
            site_icon: 0,
            site_icon_url: '',
            _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
          };
        },
      },
    ],
  };
  // One index per name served (the `names` option): `GET /tribe/events/v1` lists the plugin-named copies.
  const indexes: RouteDecl[] = [...servedNamespaces(NAMESPACES, site.options.names), ...plugins(site)].map((ns) => ({
    namespace: ns,
    path: `/${ns}`,
    endpoints: [
      {
        methods: ['GET'],
        args: { namespace: { type: 'string', default: ns }, context: { ...contextArg } },
        permission: () => true,
        handler: () => ({ namespace: ns, routes: routesOf(site, ns), _links: { up: [{ href: `${site.restRoot}/` }] } }),
      },
    ],
  }));
  return [root, ...indexes];
}
