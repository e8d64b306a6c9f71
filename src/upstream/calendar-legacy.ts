/**
 * `calendar/events/v1` (legacy): the only place its paths are built
 * (../shared/reference/calendar-upstream.md §1). Lists are envelopes with X-TEC-Total;
 * `per_page` is clamped to 50 by the site; a page past the end is a 404.
 */
import type { QueryValue, UpstreamSession } from './client.ts';
import type { RouteUse } from './route-use.ts';
import { headerInt, listItems, okOrPastEnd, pastEndOrThrow, type ListPage } from './paging.ts';

const NS = '/calendar/events/v1';
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

export type LegacyList = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
export type LegacyQuery = Record<string, QueryValue>;

export async function legacyList(session: UpstreamSession, kind: LegacyList, query: LegacyQuery, page: number, perPage: number): Promise<ListPage> {
  const route = `GET ${NS}/${kind}`;
  const res = await session.request({
    method: 'GET',
    path: `${NS}/${kind}`,
    query: { ...query, page, per_page: Math.min(perPage, LEGACY_MAX_PER_PAGE) },
    route,
    okStatuses: okOrPastEnd,
  });
  const pastEnd = pastEndOrThrow(res, page, route);
  if (pastEnd) return pastEnd;
  const body = res.body as Record<string, unknown> | null;
  const items = listItems(res, route, () => (body && typeof body === 'object' ? body[kind] : undefined), `the ${kind} archive has no "${kind}" array`);
  const total = headerInt(res.headers, 'x-tec-total') ?? (typeof body!.total === 'number' ? body!.total : null);
  return { items, total };
}

export async function legacyGet(session: UpstreamSession, kind: LegacyList, id: number | string, bySlug = false, query: LegacyQuery = {}): Promise<unknown> {
  const path = bySlug ? `${NS}/${kind}/by-slug/${encodeURIComponent(String(id))}` : `${NS}/${kind}/${id}`;
  const res = await session.request({ method: 'GET', path, query, route: `GET ${NS}/${kind}/${bySlug ? '<slug>' : '<id>'}` });
  return res.body;
}
