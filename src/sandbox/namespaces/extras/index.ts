/**
 * The calendar's other namespaces: calendar/views/v2, calendar-core/v2/onboarding,
 * calendar/aggregator/v1, calendar/automation-a/v1, calendar/automation-b/v1.
 */
import type { RouteDecl } from '../../rest/types.ts';
import type { Sandbox } from '../../site.ts';

export function extrasRoutes(_site: Sandbox): RouteDecl[] {
  return [];
}

/** Demo data of these namespaces; runs once, after the calendar's, on an empty database. */
export function seedExtras(_site: Sandbox): void {}
