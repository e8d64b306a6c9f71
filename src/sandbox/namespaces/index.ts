/** Every route the sandbox serves, in registration order (WordPress matches in order). */
import type { RouteDecl } from '../rest/types.ts';
import type { Sandbox } from '../site.ts';
import { batchRoutes } from './batch.ts';
import { coreRoutes } from './core/index.ts';
import { legacyRoutes } from './legacy/index.ts';
import { rootRoutes } from './root.ts';

export function allRoutes(site: Sandbox): RouteDecl[] {
  return [...rootRoutes(site), ...batchRoutes(site), ...legacyRoutes(site), ...coreRoutes(site)];
}
