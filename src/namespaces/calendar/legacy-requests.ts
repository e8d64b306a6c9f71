/**
 * `calendar/events/v1`'s reads, the legacy interface (docs/real-sites.md):
 * lists are envelopes with X-TEC-Total; `per_page` is clamped to 50 by the
 * site; a page past the end is a 404. Its paths are built in paths.ts, its
 * rows of the route table are in routes.ts.
 */
import type { QueryValue, UpstreamSession } from '../../upstream/client.ts';
import {
  headerInt,
  listItems,
  okOrPastEnd,
  pastEndOrThrow,
  type ListPage,
  type PageRead,
} from '../../upstream/paging.ts';
import { calendarGet, calendarPath } from './paths.ts';
import type { LegacyKind } from './vocabulary.ts';

/** The legacy site clamps per_page to 50 (tribe_rest_event_max_per_page). */
export const LEGACY_MAX_PER_PAGE = 50;

export type LegacyList = LegacyKind;
export type LegacyQuery = Record<string, QueryValue>;

export async function legacyList(
  session: UpstreamSession,
  kind: LegacyList,
  query: LegacyQuery,
  page: number,
  perPage: number,
  read: PageRead = {},
): Promise<ListPage> {
  const req = {
    ...calendarGet('legacy', kind, null, { ...query, page, per_page: Math.min(perPage, LEGACY_MAX_PER_PAGE) }),
    okStatuses: okOrPastEnd,
    ...(read.fresh ? { fresh: true } : {}),
  };
  const route = req.route;
  const res = await session.request(req);
  const pastEnd = pastEndOrThrow(res, page, route);
  if (pastEnd) return pastEnd;
  const body = res.body as Record<string, unknown> | null;
  const items = listItems(
    res,
    route,
    () => (body && typeof body === 'object' ? body[kind] : undefined),
    `the ${kind} archive has no "${kind}" array`,
  );
  const total = headerInt(res.headers, 'x-tec-total') ?? (typeof body!.total === 'number' ? body!.total : null);
  return { items, total };
}

export async function legacyGet(
  session: UpstreamSession,
  kind: LegacyList,
  id: number | string,
  bySlug = false,
  query: LegacyQuery = {},
): Promise<unknown> {
  const { path, label } = calendarPath('legacy', kind, bySlug ? { slug: String(id) } : { id: Number(id) });
  const res = await session.request({ method: 'GET', path, query, route: `GET ${label}` });
  return res.body;
}
