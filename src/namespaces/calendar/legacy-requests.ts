/**
 * `calendar/events/v1`'s reads, the legacy interface (docs/real-sites.md):
 * lists are envelopes with X-TEC-Total; `per_page` is clamped to 50 by the
 * site; a page past the end is a 404. Its paths are built in paths.ts.
 */
import type { QueryValue, UpstreamSession } from '../../upstream/client.ts';
import type { RouteUse } from '../../upstream/route-use.ts';
import { headerInt, listItems, okOrPastEnd, pastEndOrThrow, type ListPage } from '../../upstream/paging.ts';
import { calendarGet, calendarPath } from './paths.ts';
import type { LegacyKind } from './vocabulary.ts';

/** The legacy site clamps per_page to 50 (tribe_rest_event_max_per_page). */
export const LEGACY_MAX_PER_PAGE = 50;

/** Routes read through this module, and the fields that read them. */
export const LEGACY_READ_ROUTES: RouteUse[] = [
  { method: 'GET', path: '/calendar/events/v1/events', field: 'Query.events (legacy-only filters), Query.event (batched by include), Event.website and other legacy-only fields' },
  { method: 'GET', path: '/calendar/events/v1/events/<id>', field: 'Event.jsonLd' },
  { method: 'GET', path: '/calendar/events/v1/events/by-slug/<slug>', field: 'Query.event(idType: SLUG)' },
  { method: 'GET', path: '/calendar/events/v1/venues', field: 'Query.venues (sites without calendar-core/v1)' },
  { method: 'GET', path: '/calendar/events/v1/venues/<id>', field: 'Venue.showMap and other legacy-only venue fields' },
  { method: 'GET', path: '/calendar/events/v1/venues/by-slug/<slug>', field: 'Query.venue(idType: SLUG)' },
  { method: 'GET', path: '/calendar/events/v1/organizers', field: 'Query.organizers (sites without calendar-core/v1)' },
  { method: 'GET', path: '/calendar/events/v1/organizers/<id>', field: 'Query.organizer (sites without calendar-core/v1)' },
  { method: 'GET', path: '/calendar/events/v1/organizers/by-slug/<slug>', field: 'Query.organizer(idType: SLUG)' },
  { method: 'GET', path: '/calendar/events/v1/categories', field: 'Query.categories, Event.categories' },
  { method: 'GET', path: '/calendar/events/v1/tags', field: 'Query.tags, Event.tags' },
  { method: 'GET', path: '/calendar/events/v1/categories/<id>', field: 'Query.category' },
  { method: 'GET', path: '/calendar/events/v1/tags/<id>', field: 'Query.tag' },
];

export type LegacyList = LegacyKind;
export type LegacyQuery = Record<string, QueryValue>;

export async function legacyList(session: UpstreamSession, kind: LegacyList, query: LegacyQuery, page: number, perPage: number): Promise<ListPage> {
  const req = { ...calendarGet('legacy', kind, null, { ...query, page, per_page: Math.min(perPage, LEGACY_MAX_PER_PAGE) }), okStatuses: okOrPastEnd };
  const route = req.route;
  const res = await session.request(req);
  const pastEnd = pastEndOrThrow(res, page, route);
  if (pastEnd) return pastEnd;
  const body = res.body as Record<string, unknown> | null;
  const items = listItems(res, route, () => (body && typeof body === 'object' ? body[kind] : undefined), `the ${kind} archive has no "${kind}" array`);
  const total = headerInt(res.headers, 'x-tec-total') ?? (typeof body!.total === 'number' ? body!.total : null);
  return { items, total };
}

export async function legacyGet(session: UpstreamSession, kind: LegacyList, id: number | string, bySlug = false, query: LegacyQuery = {}): Promise<unknown> {
  const { path } = calendarPath('legacy', kind, bySlug ? { slug: String(id) } : { id: Number(id) });
  // The label of a by-slug read says `<slug>` where the path says `by-slug/<slug>` (as it always has: metrics and errors keep it).
  const res = await session.request({ method: 'GET', path, query, route: `GET ${calendarPath('legacy', kind).label}/${bySlug ? '<slug>' : '<id>'}` });
  return res.body;
}
