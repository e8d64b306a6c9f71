/**
 * `calendar-core/v1`'s reads (docs/real-sites.md): lists are bare arrays with
 * X-WP-Total; every endpoint wants the experimental acknowledgement header
 * (paths.ts, where its paths are built). Its rows of the route table: routes.ts.
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
import { calendarGet } from './paths.ts';
import type { CoreKind } from './vocabulary.ts';

export { TEC_EEA_HEADER } from './paths.ts';

export const CORE_MAX_PER_PAGE = 100;

export type CoreList = CoreKind;
export type CoreQuery = Record<string, QueryValue>;

export async function coreList(
  session: UpstreamSession,
  kind: CoreList,
  query: CoreQuery,
  page: number,
  perPage: number,
  read: PageRead = {},
): Promise<ListPage> {
  const req = {
    ...calendarGet('core', kind, null, { ...query, page, per_page: Math.min(perPage, CORE_MAX_PER_PAGE) }),
    okStatuses: okOrPastEnd,
    ...(read.fresh ? { fresh: true } : {}),
  };
  const res = await session.request(req);
  const pastEnd = pastEndOrThrow(res, page, req.route);
  if (pastEnd) return pastEnd;
  return {
    items: listItems(res, req.route, undefined, `the ${kind} list is not an array`),
    total: headerInt(res.headers, 'x-wp-total'),
  };
}

export async function coreGet(
  session: UpstreamSession,
  kind: Exclude<CoreList, 'series'>,
  id: number,
): Promise<unknown> {
  const res = await session.request(calendarGet('core', kind, { id }));
  return res.body;
}
