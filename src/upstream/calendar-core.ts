/**
 * `calendar-core/v1`: the only place its paths are built
 * (../shared/reference/calendar-upstream.md §2). Lists are bare arrays with X-WP-Total;
 * every CRUD endpoint wants the experimental acknowledgement header.
 */
import type { QueryValue, UpstreamSession } from './client.ts';
import type { RouteUse } from './route-use.ts';
import { headerInt, listItems, okOrPastEnd, pastEndOrThrow, type ListPage } from './paging.ts';

const NS = '/calendar-core/v1';
export const CORE_MAX_PER_PAGE = 100;

/** TEC 6.15+ refuses its tec/v1 CRUD endpoints without this header (../shared/reference/calendar-upstream.md §2). */
export const TEC_EEA_HEADER = {
  'X-TEC-EEA':
    'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.',
};

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

export type CoreList = 'events' | 'venues' | 'organizers' | 'series';
export type CoreQuery = Record<string, QueryValue>;

export async function coreList(session: UpstreamSession, kind: CoreList, query: CoreQuery, page: number, perPage: number): Promise<ListPage> {
  const route = `GET ${NS}/${kind}`;
  const res = await session.request({
    method: 'GET',
    path: `${NS}/${kind}`,
    query: { ...query, page, per_page: Math.min(perPage, CORE_MAX_PER_PAGE) },
    headers: TEC_EEA_HEADER,
    route,
    okStatuses: okOrPastEnd,
  });
  const pastEnd = pastEndOrThrow(res, page, route);
  if (pastEnd) return pastEnd;
  return { items: listItems(res, route, undefined, `the ${kind} list is not an array`), total: headerInt(res.headers, 'x-wp-total') };
}

export async function coreGet(session: UpstreamSession, kind: Exclude<CoreList, 'series'>, id: number): Promise<unknown> {
  const res = await session.request({ method: 'GET', path: `${NS}/${kind}/${id}`, headers: TEC_EEA_HEADER, route: `GET ${NS}/${kind}/<id>` });
  return res.body;
}
