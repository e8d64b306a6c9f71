/**
 * core/v2 posts (WordPress's wp/v2): the only place their paths are built.
 * Hand-written, because the logic is real: the list is paged behind a Relay
 * connection with the caller's offset spread over the pages and a page past
 * the end answered short; writes are also items of the bulk writer
 * (src/writes/posts.ts). Bodies: docs/sandbox-platform.md ("core/v2 posts").
 * The rows of the route table are in routes.ts.
 */
import type { WriteRequest } from '../../upstream/batch.ts';
import type { QueryValue, UpstreamSession } from '../../upstream/client.ts';
import { headerInt, listItems, okOrInvalidPage, pastEndOrThrow, type ListPage } from '../../upstream/paging.ts';
import { handRoute } from '../../routes/hand.ts';

/** `per_page` maximum of GET /core/v2/posts (spec "Limits"). */
export const POSTS_MAX_PER_PAGE = 100;

export type Query = Record<string, QueryValue>;

// ---- core/v2 posts

/**
 * One page of GET /core/v2/posts. WP_Query ignores `page` when `offset` is
 * given (docs/sandbox-platform.md, "core/v2 posts"), so a caller's offset is turned into an offset
 * per page; the total the site reports still counts the skipped posts.
 */
/** The spec's two rows of core/v2 posts (the route table's, in routes.ts, from these). */
export const POSTS_LIST = handRoute('GET', '/core/v2/posts');
export const POSTS_CREATE = handRoute('POST', '/core/v2/posts');

export async function postsPage(
  session: UpstreamSession,
  query: Query,
  page: number,
  perPage: number,
  offset = 0,
): Promise<ListPage> {
  const per = Math.min(perPage, POSTS_MAX_PER_PAGE);
  const q: Query =
    offset > 0 ? { ...query, offset: offset + (page - 1) * per, per_page: per } : { ...query, page, per_page: per };
  const route = POSTS_LIST.label;
  // A page past the end is a 400 here (rest_post_invalid_page_number): windows
  // ask for every page they span at once, so a shorter list answers it.
  const paged = offset === 0 && page > 1;
  const raw = await session.request({
    method: POSTS_LIST.method,
    path: POSTS_LIST.path,
    query: q,
    route,
    ...(paged ? { okStatuses: okOrInvalidPage } : {}),
  });
  const pastEnd = pastEndOrThrow(raw, page, route);
  if (pastEnd) return pastEnd;
  const total = headerInt(raw.headers, 'x-wp-total');
  return { items: listItems(raw, route), total: total === null ? null : Math.max(0, total - offset) };
}

/**
 * `/core/v2/posts/<id>`: beyond the spec's rows (routes.tsv has only GET/POST
 * /core/v2/posts) but served by real WordPress, batchable
 * (docs/real-sites.md); so not in the route table (routes.ts),
 * which lists spec rows. The label is for errors and metrics.
 */
const POST_ITEM_ROUTE = '/core/v2/posts/<id>';

/** One post's path (the subscriptions name a changed post's cache family by it too). */
export function postPath(id: number): string {
  return `/core/v2/posts/${id}`;
}

/** One create of POST /core/v2/posts as a write for upstream/batch.ts (`/batch/v1` where the site allows). */
export function createPostWrite(body: Record<string, unknown>): WriteRequest {
  return { method: POSTS_CREATE.method, path: POSTS_CREATE.path, body, route: POSTS_CREATE.label };
}

/**
 * One write of core/v2 posts as a request for upstream/batch.ts (the write engine's, src/writes/): a create (no `id`),
 * an update of `/core/v2/posts/<id>` (WordPress's update_item serves POST, PUT and PATCH alike) or a delete (trash, or
 * with `force` for good).
 */
export function postWrite(
  method: WriteRequest['method'],
  id: number | null,
  body?: Record<string, unknown>,
  query?: Record<string, string | number | boolean>,
): WriteRequest {
  if (id === null) return { ...createPostWrite(body ?? {}), method };
  const req: WriteRequest = { method, path: postPath(id), route: `${method} ${POST_ITEM_ROUTE}` };
  if (body !== undefined) req.body = body;
  if (query !== undefined) req.query = query;
  return req;
}
