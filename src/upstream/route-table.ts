/** Every spec route the gateway reaches, with the GraphQL field that reaches it (seo/v1's derived from its declarations). */
import { CORE_READ_ROUTES } from './calendar-core.ts';
import { EXTRAS_ROUTES } from './calendar-extras.ts';
import { LEGACY_READ_ROUTES } from './calendar-legacy.ts';
import { WRITE_ROUTES } from './calendar-writes.ts';
import { PLATFORM_ROUTES } from './platform.ts';
import { pluginNames, toSitePath } from './names.ts';
import type { RouteUse } from './route-use.ts';
import { SEO_ROUTES } from '../routes/seo.ts';
import { SITE_ROUTES } from './site-index.ts';

export const ROUTE_TABLE: RouteUse[] = [
  ...SITE_ROUTES,
  ...LEGACY_READ_ROUTES,
  ...CORE_READ_ROUTES,
  ...WRITE_ROUTES,
  ...EXTRAS_ROUTES,
  ...SEO_ROUTES,
  ...PLATFORM_ROUTES,
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
