import type { UpstreamResponse } from './client.ts';
import { badResponseShape, fromUpstreamResponse } from './errors.ts';

/** One upstream page of a list, whichever interface served it. */
export interface ListPage {
  items: unknown[];
  /** From the total headers (X-WP-Total / X-TEC-Total) or the envelope; null if unknown. */
  total: number | null;
}

/** How a page is read. `fresh`: from the site, not the upstream cache (upstream/session.ts). */
export interface PageRead {
  fresh?: boolean;
}

export type PageFetcher = (page: number, perPage: number, read?: PageRead) => Promise<ListPage>;

export function headerInt(headers: Record<string, string>, name: string): number | null {
  const v = headers[name.toLowerCase()];
  if (v === undefined || !/^\d+$/.test(v.trim())) return null;
  return Number(v);
}

/** 2xx, or the "page past the end" 404 both calendar interfaces send, which reads as an empty page. */
export const okOrPastEnd = (status: number): boolean => (status >= 200 && status < 300) || status === 404;

/** 2xx, or the "page past the end" 400 of WordPress's posts controller (`rest_post_invalid_page_number`). */
export const okOrInvalidPage = (status: number): boolean => (status >= 200 && status < 300) || status === 400;

/**
 * The answer of a list page fetched with `okOrPastEnd` (or `okOrInvalidPage`):
 * the site's "page past the end" past page 1 is an empty page (windows fetch
 * every page they span at once, so a shorter list answers this for the rest);
 * any other non-2xx answer is the error it says.
 */
export function pastEndOrThrow(res: UpstreamResponse, page: number, route: string): ListPage | null {
  if (res.status >= 200 && res.status < 300) return null;
  if (page > 1 && isPastEnd(res.status, res.body)) return { items: [], total: null };
  throw fromUpstreamResponse(res.status, res.body, route, res.headers);
}

export function isPastEnd(status: number, body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const code = (body as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  if (status === 404) return /page[-_]not[-_]found$/.test(code);
  return status === 400 && code === 'rest_post_invalid_page_number';
}

/**
 * The array a list answer carries (the body itself, or the envelope's array
 * `pick` finds). A 2xx body without it is UPSTREAM_BAD_RESPONSE with the real
 * status in `extensions.upstream.status`: the site answered, just not with a list.
 */
export function listItems(
  res: UpstreamResponse,
  route: string,
  pick: (body: unknown) => unknown = (b) => b,
  what = 'the list is not an array',
): unknown[] {
  const items = pick(res.body);
  if (!Array.isArray(items)) throw badResponseShape(route, res.status, res.body, what);
  return items;
}
