/** Every route the sandbox serves, in registration order (WordPress matches in order). */
import type { RouteDecl } from '../rest/types.ts';
import type { Sandbox } from '../site.ts';
import { batchRoutes } from './batch.ts';
import { coreRoutes } from './core/index.ts';
import { extrasRoutes, seedExtras } from './extras/index.ts';
import { legacyRoutes } from './legacy/index.ts';
import { platformRoutes, seedPlatform } from './platform/index.ts';
import { rootRoutes } from './root.ts';
import { seedSeo, seoRoutes } from './seo/index.ts';

export function allRoutes(site: Sandbox): RouteDecl[] {
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
export function seedNamespaces(site: Sandbox): void {
  seedPlatform(site);
  seedSeo(site);
  seedExtras(site);
}
