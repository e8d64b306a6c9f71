/** `calendar-core/v1` (TEC's tec/v1, calendar-upstream.md §2). */
import type { RouteDecl } from '../../rest/types.ts';
import type { Sandbox } from '../../site.ts';

export function coreRoutes(_site: Sandbox): RouteDecl[] {
  return [];
}
