/**
 * What every calendar-core/v1 list shares (TC Traits/Read_Archive_Response.php;
 * calendar-upstream.md §2 "GET collection"): a bare array, `X-WP-Total`,
 * `X-WP-TotalPages`, `Link` rel next/prev built from the request URL with
 * `page` replaced (site-upstream.md §2), and a data-less 404 for an empty page
 * past the first.
 */
import { can } from '../../auth.ts';
import { geocode, paginate, type GeoFilter } from '../../calendar/query.ts';
import { RawError } from '../../rest/errors.ts';
import { buildQuery } from '../../rest/query.ts';
import { RestResult, type RestRequest } from '../../rest/types.ts';

/**
 * The statuses a list may show. Callers who cannot edit others' posts are
 * silently held to `publish` (TC forces the status for non-editors).
 */
export function listStatuses(req: RestRequest): string[] {
  const asked = (req.params.status as string[] | undefined) ?? ['publish'];
  return can(req.user, 'edit_others_posts') ? asked : ['publish'];
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
  const page = req.params.page as number;
  const perPage = req.params.per_page as number;
  const { items, total, totalPages } = paginate(list, page, perPage);
  if (!items.length && page > 1) {
    // The literal says "organizers" for every type, and there is no `data` (calendar-upstream.md §2).
    throw new RawError(404, { code: 'tec_rest_organizers_page_not_found', message: 'The requested page was not found.' });
  }
  const links: string[] = [];
  if (page < totalPages) links.push(`<${pageUrl(req, page + 1)}>; rel="next"`);
  if (page > 1) links.push(`<${pageUrl(req, page - 1)}>; rel="prev"`);
  const headers: Record<string, string> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) };
  if (links.length) headers.Link = links.join(', ');
  return new RestResult(items.map(toJson), 200, headers);
}
