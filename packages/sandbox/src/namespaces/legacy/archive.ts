/**
 * The legacy archive envelope (calendar-upstream.md §1.1, TEC `Archive_Base`):
 * `rest_url` with the query vars in effect, `next_rest_url` only when another
 * page exists, `previous_rest_url` only past page 1 (without `page` when it
 * points at page 1), totals in the body and in `X-TEC-Total` /
 * `X-TEC-TotalPages` — never `X-WP-Total*` or a `Link: rel=next`.
 */
import { RestError } from '../../errors.ts';
import { RestResult } from '../../rest/types.ts';
import { addQueryArg, removeQueryArg, type QueryValue } from './add-query-arg.ts';

/** Legacy lists are silently capped at 50 per page (filters `tribe_rest_*_max_per_page`). */
export const MAX_PER_PAGE = 50;

/**
 * `get_current_rest_url`: the base plus `args` (written unencoded), then
 * `extra` in a second add_query_arg, which re-encodes the first batch.
 */
export function currentRestUrl(
  base: string,
  args: [string, QueryValue | undefined][],
  extra: [string, QueryValue | undefined][] = [],
): string {
  const present = (list: [string, QueryValue | undefined][]) =>
    list.filter((e): e is [string, QueryValue] => e[1] !== undefined);
  let url = base;
  const main = present(args);
  if (main.length) url = addQueryArg(url, main);
  const more = present(extra);
  if (more.length) url = addQueryArg(url, more);
  return url;
}

export function nextRestUrl(restUrl: string, page: number): string {
  return addQueryArg(removeQueryArg(restUrl, 'page'), [['page', page + 1]]);
}

export function previousRestUrl(restUrl: string, page: number): string {
  const url = removeQueryArg(restUrl, 'page');
  return page === 2 ? url : addQueryArg(url, [['page', page - 1]]);
}

export interface ArchivePage {
  /** `events`, `venues`, `organizers`, `categories` or `tags`. */
  key: string;
  items: unknown[];
  restUrl: string;
  page: number;
  total: number;
  totalPages: number;
}

function headers(total: number, totalPages: number): Record<string, string> {
  return { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(totalPages) };
}

function links(p: ArchivePage): { next_rest_url?: string; previous_rest_url?: string } {
  return {
    ...(p.page < p.totalPages ? { next_rest_url: nextRestUrl(p.restUrl, p.page) } : {}),
    ...(p.page > 1 ? { previous_rest_url: previousRestUrl(p.restUrl, p.page) } : {}),
  };
}

/**
 * A posts archive (events, venues, organizers): `{<key>, rest_url, next?,
 * previous?, total, total_pages}`. An empty page past the first is a 404 with
 * the archive's own code (`event-archive-page-not-found`, ...).
 */
export function postArchive(p: ArchivePage, kind: 'event' | 'venue' | 'organizer'): RestResult {
  if (p.items.length === 0 && p.page > 1) {
    throw new RestError(`${kind}-archive-page-not-found`, `The requested ${kind} archive page does not exist`, 404);
  }
  const body = { [p.key]: p.items, rest_url: p.restUrl, ...links(p), total: p.total, total_pages: p.totalPages };
  return new RestResult(body, 200, headers(p.total, p.totalPages));
}

/**
 * A terms archive (`Term_Archive_Base::get`): `{rest_url, total, total_pages,
 * <key>, next?, previous?}`; `rest_url` is the bare base and an empty page is
 * an empty list, as the WordPress terms controller answers.
 */
export function termArchive(p: ArchivePage): RestResult {
  const body = { rest_url: p.restUrl, total: p.total, total_pages: p.totalPages, [p.key]: p.items, ...links(p) };
  return new RestResult(body, 200, headers(p.total, p.totalPages));
}
