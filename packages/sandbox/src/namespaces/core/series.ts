/**
 * `GET /calendar-core/v1/series` (spec B4). Unconfirmed upstream
 * (calendar-upstream.md §2 "/series"): a live site answered anonymous calls
 * with 401 where other tec/v1 routes gave the experimental 400, which fits a
 * Post_Entity_Endpoint whose guest_can_read() is false. So: signed-in readers
 * only (permission before the experimental gate), posts-style objects of type
 * `calendar_event_series` with their event IDs, the usual list envelope.
 */
import { can } from '../../auth.ts';
import { seriesJson } from '../../calendar/core-repr.ts';
import { EVENT, SERIES, canRead, type EventMeta } from '../../calendar/model.ts';
import { sortPosts, stripTags } from '../../calendar/query.ts';
import type { RestRequest, RouteDecl } from '../../rest/types.ts';
import type { PostRow } from '../../store/db.ts';
import { orderArgs, pageArgs, statusListArg, uniqueIds } from './args.ts';
import { NS } from './entity.ts';
import { experimental } from './experimental.ts';
import { collectionResult, listStatuses } from './listing.ts';
import { reprSource } from './source.ts';
import { ticketedFilter } from '../tickets.ts';

function findSeries(req: RestRequest): PostRow[] {
  const { store } = req.site;
  const p = req.params;
  const members = new Map<number, PostRow<EventMeta>[]>();
  for (const e of store.posts<EventMeta>(EVENT)) {
    if (e.status === 'trash' || e.meta.seriesId <= 0) continue;
    const list = members.get(e.meta.seriesId);
    if (list) list.push(e);
    else members.set(e.meta.seriesId, [e]);
  }
  const wanted = p.event_post_id as number[] | undefined;
  const needle = typeof p.search === 'string' ? p.search.toLowerCase() : '';
  // Declared on every release, applied only with Event Tickets (the `tickets` option), as the event lists.
  const ticketed = ticketedFilter(req.site, p.ticketed as boolean | undefined);
  const list = store.posts(SERIES, listStatuses(req)).filter((s) => {
    if (!canRead(s, req.user, (cap) => can(req.user, cap))) return false;
    const events = members.get(s.id) ?? [];
    if (wanted?.length && !events.some((e) => wanted.includes(e.id))) return false;
    if (ticketed !== undefined && events.some((e) => e.meta.ticketed) !== ticketed) return false;
    if (needle && !`${s.title} ${stripTags(s.content)}`.toLowerCase().includes(needle)) return false;
    return true;
  });
  const order = p.order as 'ASC' | 'DESC';
  if (p.orderby !== 'event_date') return sortPosts(list, p.orderby as string, order);
  // A series' event date is its first event's start; series without events sort last.
  const first = (s: PostRow) =>
    (members.get(s.id) ?? []).reduce((min, e) => (e.meta.startDateUtc < min ? e.meta.startDateUtc : min), '9999');
  const dir = order === 'DESC' ? -1 : 1;
  return [...list].sort((a, b) => (first(a) < first(b) ? -dir : first(a) > first(b) ? dir : (a.id - b.id) * dir));
}

export function seriesRoutes(): RouteDecl[] {
  return [
    {
      namespace: NS,
      path: `/${NS}/series`,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'Retrieve Series',
          args: {
            ...pageArgs,
            event_post_id: uniqueIds('Limit result set to series containing these events.'),
            search: { type: 'string', description: 'Limit results to those matching a string.' },
            status: statusListArg,
            ticketed: {
              type: 'boolean',
              description: 'Limit result set to series with (true) or without (false) ticketed events.',
            },
            ...orderArgs,
          },
          permission: (req) => can(req.user, 'read'),
          handler: experimental((req) => {
            const src = reprSource(req);
            return collectionResult(req, findSeries(req), (s) => seriesJson(src, s));
          }),
        },
      ],
    },
  ];
}
