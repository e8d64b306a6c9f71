/**
 * Arguments a release declares in its root index but does not apply, and
 * when (docs/real-sites.md, "Inert arguments"). WordPress drops an undeclared
 * argument without a word; a declared one the release then ignores is the same
 * silence, one step later, and the index alone does not show it. Each row says
 * which routes declare the argument, what the index must list for the
 * argument to be applied, and why it is not otherwise. `declaredArgs`
 * (discovery.ts) leaves out the rows in force, so every planner treats such an
 * argument exactly as one the route does not declare; another inert argument
 * is one more row. Data and one pure lookup: no I/O.
 */
import type { SiteInfo } from '../mapping/site-models.ts';

export interface InertArg {
  /** The argument, as the routes declare it. */
  readonly arg: string;
  /** The method of the endpoints that declare it. */
  readonly method: string;
  /** The routes that declare it, in the spec's names (as `SiteInfo.routes` keeps them). */
  readonly routes: readonly string[];
  /**
   * The namespace (spec name) whose presence in the root index's `namespaces` means the argument is
   * applied; null where nothing in the index can show it, so the argument is never relied on.
   */
  readonly appliedWith: string | null;
  /** Why the argument is not applied without it, for the refusal's message. */
  readonly why: string;
}

export const INERT_ARGS: readonly InertArg[] = [
  {
    // Whether an event has tickets is Event Tickets' data. The Events Calendar
    // declares `ticketed` whether or not that plugin is active (6.0+ on the
    // legacy list, and on calendar-core/v1's lists), but without it the legacy
    // list's validator refuses `ticketed=1` (400 rest_invalid_param, "Event
    // Tickets plugin is not activated.") and its query drops `ticketed=0`, and
    // calendar-core/v1's events list ignores the argument: every event is
    // answered (both seen on a real 6.15.14 site). The series list (Events
    // Calendar Pro's, which that site did not have) filters on the same
    // tickets data, so it is held to the same rule.
    arg: 'ticketed',
    method: 'GET',
    routes: ['/calendar/events/v1/events', '/calendar-core/v1/events', '/calendar-core/v1/series'],
    appliedWith: 'tribe/tickets/v1',
    why:
      'Event Tickets is not active on the site (its root index lists no tribe/tickets/v1): ' +
      'the legacy list refuses ticketed=1 ("Event Tickets plugin is not activated.") and ignores ticketed=0, and calendar-core/v1 ignores ticketed',
  },
  // The legacy list hands geoloc, geoloc_lat and geoloc_lng to Events Calendar Pro, which does the
  // filtering ("Requires Events Calendar Pro.", their own descriptions in the index). Without Pro,
  // 5.7.1 and 6.15.14 answer every event for geoloc=1 and for a point. Pro adds no namespace the
  // gateway could check (the index looks the same with it), so these are never relied on.
  ...(['geoloc', 'geoloc_lat', 'geoloc_lng'] as const).map((arg) => ({
    arg,
    method: 'GET',
    routes: ['/calendar/events/v1/events'],
    appliedWith: null,
    why: `The Events Calendar leaves ${arg} to Events Calendar Pro ("Requires Events Calendar Pro."), which the root index cannot show, and without Pro answers every event`,
  })),
  {
    // calendar-core/v1's venue and organizer lists of 6.15.14 declare only_with_upcoming and answer
    // a place with no events at all alike with and without it; the legacy lists apply it.
    arg: 'only_with_upcoming',
    method: 'GET',
    routes: ['/calendar-core/v1/venues', '/calendar-core/v1/organizers'],
    appliedWith: null,
    why: 'calendar-core/v1 answers places without upcoming events alike with and without only_with_upcoming (seen on 6.15.14)',
  },
];

type Index = Pick<SiteInfo, 'namespaces' | 'routes'>;

/**
 * The rows in force on `site` for the endpoint `method pattern`: arguments its
 * index declares there but the site does not apply. None where the index does
 * not describe the endpoint: like an undeclared argument, nothing can be checked.
 */
export function inertArgs(site: Index, method: string, pattern: string): readonly InertArg[] {
  const declared = site.routes.find((r) => r.pattern === pattern)?.args[method];
  if (!declared) return [];
  return INERT_ARGS.filter(
    (r) =>
      r.method === method &&
      r.routes.includes(pattern) &&
      declared.includes(r.arg) &&
      (r.appliedWith === null || !site.namespaces.includes(r.appliedWith)),
  );
}

/**
 * The row that makes `arg` inert on `method pattern` of `site`, or null when the site applies it or does not declare
 * it.
 */
export function inertArg(site: Index, method: string, pattern: string, arg: string): InertArg | null {
  return inertArgs(site, method, pattern).find((r) => r.arg === arg) ?? null;
}
