/**
 * Every spec route the gateway reaches, with the GraphQL fields that reach it:
 * the rows of the route declarations (derived), the site index's (derived from
 * the namespaces' descriptors) and the hand-written routes' rows, every field
 * a schema coordinate the compiler checks (src/routes/route-use.ts).
 */
import { CORE_READ_ROUTES, LEGACY_READ_ROUTES, WRITE_ROUTES } from './calendar/routes.ts';
import { pluginNames, toSitePath } from '../upstream/names.ts';
import { INDEXED_NAMESPACES } from './catalog.ts';
import { rowOf, use, type RouteUse } from '../routes/route-use.ts';
import { AGGREGATOR_ROWS } from './aggregator/routes.ts';
import { AUDIT_ROWS } from './audit/routes.ts';
import { AUTOMATION_ROWS } from './automation/routes.ts';
import { BLOCKS_ROWS } from './blocks/routes.ts';
import { CALENDAR_EXTRAS_ROWS } from './calendar-extras/routes.ts';
import { CHALLENGE_ROWS } from './challenge/routes.ts';
import { DUPLICATE_POST_ROWS } from './duplicate-post/routes.ts';
import { FACET_ROWS } from './facet/routes.ts';
import { GOVERNANCE_ROWS } from './governance/routes.ts';
import { OEMBED_ROWS } from './oembed/routes.ts';
import { ONBOARDING_ROWS } from './onboarding/routes.ts';
import { POSTS_ROWS } from './posts/routes.ts';
import { SEO_ROUTES } from './seo/routes.ts';
import { VIEWS_ROWS } from './views/routes.ts';
import { ROOT_INDEX } from '../upstream/discovery.ts';
import { namespaceIndexRoute } from './site-index.ts';

/** The root index and every namespace index of the spec. */
export const SITE_ROUTES: RouteUse[] = [
  rowOf(ROOT_INDEX, [use('Query.site', { note: 'read at start and on /readyz' }), 'Mutation.refreshSite']),
  ...INDEXED_NAMESPACES.map((ns) => rowOf(namespaceIndexRoute(ns), use('Query.namespace', { args: { name: ns } }))),
];

export const ROUTE_TABLE: readonly RouteUse[] = [
  ...SITE_ROUTES,
  ...LEGACY_READ_ROUTES,
  ...CORE_READ_ROUTES,
  ...WRITE_ROUTES,
  ...CALENDAR_EXTRAS_ROWS,
  ...VIEWS_ROWS,
  ...ONBOARDING_ROWS,
  ...AGGREGATOR_ROWS,
  ...AUTOMATION_ROWS,
  ...SEO_ROUTES,
  ...POSTS_ROWS,
  ...GOVERNANCE_ROWS,
  ...OEMBED_ROWS,
  ...BLOCKS_ROWS,
  ...DUPLICATE_POST_ROWS,
  ...CHALLENGE_ROWS,
  ...FACET_ROWS,
  ...AUDIT_ROWS,
];

const PLUGIN_NAMES = pluginNames();

/**
 * A spec path (`/seo/v1/keyword_research/authenticate`) as a site serving the
 * plugins' own names has it (`/yoast/v1/semrush/authenticate`); the gateway
 * sends whichever the site's index lists (docs/real-sites.md, "Namespace names").
 */
export function pluginPathOf(path: string): string {
  return toSitePath(PLUGIN_NAMES, path);
}
