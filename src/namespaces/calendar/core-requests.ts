/**
 * `calendar-core/v1`'s reads (docs/real-sites.md): lists are bare arrays with
 * X-WP-Total; every endpoint wants the experimental acknowledgement header
 * (paths.ts, where its paths are built).
 */
import type { QueryValue, UpstreamSession } from '../../upstream/client.ts';
import type { RouteUse } from '../../upstream/route-use.ts';
import { headerInt, listItems, okOrPastEnd, pastEndOrThrow, type ListPage } from '../../upstream/paging.ts';
import { calendarGet } from './paths.ts';
import type { CoreKind } from './vocabulary.ts';

export { TEC_EEA_HEADER } from './paths.ts';

export const CORE_MAX_PER_PAGE = 100;

/** Routes read through this module, and the fields that read them. */
export const CORE_READ_ROUTES: RouteUse[] = [
  { method: 'GET', path: '/calendar-core/v1/events', field: 'Query.events, Venue.events, Organizer.events, Category.events, Tag.events, Series.events' },
  { method: 'GET', path: '/calendar-core/v1/events/<id>', field: 'Event.virtual and other core-only fields; Query.event (sites without the legacy interface)' },
  { method: 'GET', path: '/calendar-core/v1/venues', field: 'Query.venues' },
  { method: 'GET', path: '/calendar-core/v1/venues/<id>', field: 'Query.venue' },
  { method: 'GET', path: '/calendar-core/v1/organizers', field: 'Query.organizers' },
  { method: 'GET', path: '/calendar-core/v1/organizers/<id>', field: 'Query.organizer' },
  { method: 'GET', path: '/calendar-core/v1/series', field: 'Query.series, Event.series' },
];

export type CoreList = CoreKind;
export type CoreQuery = Record<string, QueryValue>;

export async function coreList(session: UpstreamSession, kind: CoreList, query: CoreQuery, page: number, perPage: number): Promise<ListPage> {
  const req = { ...calendarGet('core', kind, null, { ...query, page, per_page: Math.min(perPage, CORE_MAX_PER_PAGE) }), okStatuses: okOrPastEnd };
  const res = await session.request(req);
  const pastEnd = pastEndOrThrow(res, page, req.route);
  if (pastEnd) return pastEnd;
  return { items: listItems(res, req.route, undefined, `the ${kind} list is not an array`), total: headerInt(res.headers, 'x-wp-total') };
}

export async function coreGet(session: UpstreamSession, kind: Exclude<CoreList, 'series'>, id: number): Promise<unknown> {
  const res = await session.request(calendarGet('core', kind, { id }));
  return res.body;
}
