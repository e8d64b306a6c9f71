/**
 * What every calendar-core/v1 list shares (TC Traits/Read_Archive_Response.php;
 * calendar-upstream.md §2 "GET collection"): a bare array, `X-WP-Total`,
 * `X-WP-TotalPages`, `Link` rel next/prev built from the request URL with
 * `page` replaced (site-upstream.md §2), and a data-less 404 for an empty page
 * past the first.
 *
 * Under TEC 6.15 the arguments arrive unchecked (args.ts looseParams), so the
 * readers here take what the real site made of them (real-site-behaviour.md):
 * `per_page=0` lists 10, `page=0` is page 1, `per_page=101` lists 101, an
 * unknown status is no status filter.
 */
import { can } from '../../auth.ts';
import { WRITE_STATUSES } from '../../calendar/model.ts';
import { geocode, paginate, type GeoFilter } from '../../calendar/query.ts';
import { RawError } from '../../errors.ts';
import { buildQuery } from '../../rest/query.ts';
import { RestResult, type RestRequest } from '../../rest/types.ts';

/**
 * The statuses a list may show. Callers who cannot edit others' posts are
 * silently held to `publish` (TC forces the status for non-editors).
 */
export function listStatuses(req: RestRequest): string[] {
  // Only known statuses filter: 6.17 refuses others; 6.15 lets them through and WP_Query, dropping
  // unregistered statuses, falls back to publish (real-site-behaviour.md: status=bogus answers 200).
  const known = ((req.params.status as string[] | undefined) ?? []).filter((s) =>
    (WRITE_STATUSES as readonly string[]).includes(s),
  );
  const asked = known.length ? known : ['publish'];
  return can(req.user, 'edit_others_posts') ? asked : ['publish'];
}

/** The page asked for; below 1 (unchecked under TEC 6.15) it is the first. */
export function pageOf(req: RestRequest): number {
  return Math.max(1, Math.trunc(Number(req.params.page)) || 1);
}

/**
 * The page size; below 1 (unchecked under TEC 6.15: per_page=0 lists 10) it is the default 10; no upper bound is
 * enforced here.
 */
export function perPageOf(req: RestRequest): number {
  const n = Math.trunc(Number(req.params.per_page));
  return n >= 1 ? n : 10;
}

/** Default radius when a centre is given without `distance`, in kilometres. */
export const DEFAULT_DISTANCE_KM = 50;

/**
 * The location filter of a request: explicit `geoloc_lat`+`geoloc_lng` win
 * over `near`; an unknown `near` place matches nothing (`nowhere`).
 */
export function geoFilter(params: Record<string, unknown>): { geo?: GeoFilter; nowhere: boolean } {
  const distance = (params.distance as number | undefined) ?? DEFAULT_DISTANCE_KM;
  if (params.geoloc_lat !== undefined && params.geoloc_lng !== undefined) {
    return { geo: { lat: params.geoloc_lat as number, lng: params.geoloc_lng as number, distance }, nowhere: false };
  }
  if (typeof params.near === 'string' && params.near.trim()) {
    const at = geocode(params.near);
    return at ? { geo: { lat: at[0], lng: at[1], distance }, nowhere: false } : { nowhere: true };
  }
  return { nowhere: false };
}

/** The request's own URL with `page` set (add_query_arg keeps the other parameters in place). */
function pageUrl(req: RestRequest, page: number): string {
  return `${req.site.restRoot}${req.path}?${buildQuery({ ...req.query, page })}`;
}

export function collectionResult<T>(req: RestRequest, list: T[], toJson: (item: T) => unknown): RestResult {
  const page = pageOf(req);
  const perPage = perPageOf(req);
  const { items, total, totalPages } = paginate(list, page, perPage);
  if (!items.length && page > 1) {
    // The literal says "organizers" for every type, and there is no `data` (calendar-upstream.md §2).
    throw new RawError(404, {
      code: 'tec_rest_organizers_page_not_found',
      message: 'The requested page was not found.',
    });
  }
  const links: string[] = [];
  if (page < totalPages) links.push(`<${pageUrl(req, page + 1)}>; rel="next"`);
  if (page > 1) links.push(`<${pageUrl(req, page - 1)}>; rel="prev"`);
  const headers: Record<string, string> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) };
  if (links.length) headers.Link = links.join(', ');
  return new RestResult(items.map(toJson), 200, headers);
}
