/** Every route the sandbox serves, in registration order (WordPress matches in order). */
import type { Clock, Secrets, Settings, Site, Storage } from '../capabilities.ts';
import type { Dispatcher } from '../rest/dispatch.ts';
import type { RouteDecl, RouteTable } from '../rest/types.ts';
import { batchRoutes } from './batch.ts';
import { coreRoutes } from './core/index.ts';
import { extrasRoutes, seedExtras } from './extras/index.ts';
import { legacyRoutes } from './legacy/index.ts';
import { platformRoutes, seedPlatform } from './platform/index.ts';
import { rootRoutes } from './root.ts';
import { seedSeo, seoRoutes } from './seo/index.ts';

/**
 * Each namespace gets the capabilities it uses: batch only dispatch; the
 * indexes and OpenAPI documents the route table too, read when they answer.
 */
export function allRoutes(site: Site & Dispatcher & RouteTable): RouteDecl[] {
  return [
    ...rootRoutes(site),
    ...batchRoutes(site),
    ...legacyRoutes(site),
    ...coreRoutes(site),
    ...extrasRoutes(site),
    ...seoRoutes(site),
    ...platformRoutes(site),
  ];
}

/** Namespace demo data, after the calendar's, in a fixed order (IDs stay stable). */
export function seedNamespaces(site: Clock & Storage & Settings & Secrets): void {
  seedPlatform(site);
  seedSeo(site);
  seedExtras(site);
}
