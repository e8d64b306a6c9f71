/** `calendar/events/v1` (legacy TEC REST, calendar-upstream.md §1). */
import type { RouteDecl } from '../../rest/types.ts';
import type { Sandbox } from '../../site.ts';

export function legacyRoutes(_site: Sandbox): RouteDecl[] {
  return [];
}
