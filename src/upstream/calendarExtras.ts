/**
 * calendar/views/v2, calendar-core/v2/onboarding, calendar/aggregator/v1,
 * calendar/automation-a/v1, calendar/automation-b/v1, and the calendar
 * interfaces' non-CRUD routes: the only place their paths are built.
 * (Filled in by the calendar-extras graph work.)
 */
import type { RouteUse } from './route-use.ts';

export const EXTRAS_ROUTES: RouteUse[] = [];
