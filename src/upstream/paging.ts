import type { UpstreamResponse } from './client.ts';
import { badResponseShape, fromUpstreamResponse } from './errors.ts';

/** One upstream page of a list, whichever interface served it. */
export interface ListPage {
  items: unknown[];
  /** From the total headers (X-WP-Total / X-TEC-Total) or the envelope; null if unknown. */
  total: number | null;
}

export type PageFetcher = (page: number, perPage: number) => Promise<ListPage>;

export function headerInt(headers: Record<string, string>, name: string): number | null {
  const v = headers[name.toLowerCase()];
  if (v === undefined || !/^\d+$/.test(v.trim())) return null;
  return Number(v);
}

/** 2xx, or the "page past the end" 404 both calendar interfaces send, which reads as an empty page. */
export const okOrPastEnd = (status: number): boolean => (status >= 200 && status < 300) || status === 404;

/**
 * The answer of a list page fetched with `okOrPastEnd`: a 404 "page not
 * found" past page 1 is an empty page (both calendar interfaces send one);
 * any other 404 is the error it says.
 */
export function pastEndOrThrow(res: UpstreamResponse, page: number, route: string): ListPage | null {
  if (res.status !== 404) return null;
  if (page > 1 && isPastEnd(404, res.body)) return { items: [], total: null };
  throw fromUpstreamResponse(res.status, res.body, route, res.headers);
}

export function isPastEnd(status: number, body: unknown): boolean {
  if (status !== 404 || typeof body !== 'object' || body === null) return false;
  const code = (body as { code?: unknown }).code;
  return typeof code === 'string' && /page[-_]not[-_]found$/.test(code);
}

/**
 * The array a list answer carries (the body itself, or the envelope's array
 * `pick` finds). A 2xx body without it is UPSTREAM_BAD_RESPONSE with the real
 * status in `extensions.upstream.status`: the site answered, just not with a list.
 */
export function listItems(res: UpstreamResponse, route: string, pick: (body: unknown) => unknown = (b) => b, what = 'the list is not an array'): unknown[] {
  const items = pick(res.body);
  if (!Array.isArray(items)) throw badResponseShape(route, res.status, res.body, what);
  return items;
}
