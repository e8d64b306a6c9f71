/**
 * TEC's validate callbacks (`Tribe__Events__Validator__Base` and the REST v1
 * validator), as ArgSchema `validate` functions. Returning false is WordPress's
 * plain "Invalid parameter." with `details: []` (sample legacy-error-bad-date.json).
 */
import { isEpoch, isZone, parseLooseDate } from '../../dates.ts';
import type { PostType } from '../../store/db.ts';
import type { RestRequest } from '../../rest/types.ts';
import { isIntegerLike, isNumberLike, parseList } from '../../rest/validate.ts';
import type { Storage } from '../../capabilities.ts';
import { REGISTERED_STATUSES } from './post-status.ts';

/** `is_positive_int` */
export function isPositiveInt(v: unknown): boolean {
  return isIntegerLike(v) && Number(v) > 0;
}

/** `is_positive_int_list`: CSV or array, every entry a positive integer. */
export function isPositiveIntList(v: unknown): boolean {
  const list = parseList(v);
  return list.length > 0 && list.every(isPositiveInt);
}

/** `is_string` */
export function isString(v: unknown): boolean {
  return typeof v === 'string';
}

/** `is_string_or_empty` */
export function isStringOrEmpty(v: unknown): boolean {
  return v === null || v === '' || typeof v === 'string';
}

/**
 * `is_time`: anything strtotime understands (the sandbox's subset:
 * parseLooseDate), except the epoch: `strtotime` gives 0 for it, which TEC
 * takes as false, so `start_date=1970-01-01 00:00:00` (and a bare `0`) is 400
 * `rest_invalid_param` while `1970-01-01 00:00:01` passes
 * (real-site-behaviour.md, legacy list dates). Every legacy date argument uses it.
 */
export function isTime(v: unknown, req: RestRequest): boolean {
  const now = req.site.now();
  return !isEpoch(v, now) && parseLooseDate(v, req.site.timezone, now) !== null;
}

/** `is_timezone` */
export function isTimezone(v: unknown): boolean {
  return typeof v === 'string' && v !== '' && isZone(v);
}

/** `is_user_id` */
export function isUserId(v: unknown, req: RestRequest): boolean {
  return isPositiveInt(v) && req.site.store.userById(Number(v)) !== undefined;
}

/** `is_post_status`: one of WordPress's registered statuses. */
export function isPostStatus(v: unknown): boolean {
  return typeof v === 'string' && REGISTERED_STATUSES.includes(v);
}

/** `is_url`: an absolute http(s) URL (FILTER_VALIDATE_URL). */
export function isUrl(v: unknown): boolean {
  return typeof v === 'string' && /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v);
}

export function isUrlOrEmpty(v: unknown): boolean {
  return v === null || v === '' || isUrl(v);
}

export function isNumber(v: unknown): boolean {
  return isNumberLike(v);
}

export function isPostOfType(site: Storage, id: unknown, type: PostType): boolean {
  if (!isPositiveInt(id)) return false;
  return site.store.post(Number(id))?.type === type;
}

/** `is_image`: an attachment ID or an image URL to sideload. */
export function isImage(v: unknown, req: RestRequest): boolean {
  if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v)))
    return isPostOfType(req.site, v, 'attachment');
  return isUrl(v);
}

export function isImageOrEmpty(v: unknown, req: RestRequest): boolean {
  return v === null || v === '' || v === 0 || v === '0' || isImage(v, req);
}

/** `is_<type>_id_list` (`is_venue_id_list`, ...): CSV or array, each an ID of that post type. */
export function postIdList(type: PostType) {
  return (v: unknown, req: RestRequest): boolean => {
    const list = parseList(v);
    return list.length > 0 && list.every((id) => isPostOfType(req.site, id, type));
  };
}

/** Finds a term by slug first, then by ID (`Archive_Event::parse_terms_query`). */
export function findTermRef(site: Storage, taxonomy: string, ref: unknown): number | null {
  const s = String(ref).trim();
  const bySlug = site.store.termBySlug(taxonomy, s);
  if (bySlug) return bySlug.id;
  if (/^\d+$/.test(s)) {
    const byId = site.store.term(Number(s));
    if (byId && byId.taxonomy === taxonomy) return byId.id;
  }
  return null;
}

/** `is_event_category` / `is_post_tag`: CSV or array of slugs or IDs, all existing. */
export function termRefList(taxonomy: string) {
  return (v: unknown, req: RestRequest): boolean => {
    const list = parseList(v);
    return list.length > 0 && list.every((ref) => findTermRef(req.site, taxonomy, ref) !== null);
  };
}

/** The ID of an existing term of that taxonomy (`0` is no term). */
export function isTermId(taxonomy: string) {
  return (v: unknown, req: RestRequest): boolean =>
    isPositiveInt(v) && req.site.store.term(Number(v))?.taxonomy === taxonomy;
}

/** Sanitises a validated slug-or-ID list to term IDs. */
export function termRefIds(taxonomy: string) {
  return (v: unknown, req: RestRequest): number[] => parseList(v).map((ref) => findTermRef(req.site, taxonomy, ref)!);
}

/** The `<slug>` captured from the path, %-decoded (left as is when malformed). */
export function routeSlug(req: RestRequest): string {
  const raw = req.urlParams.slug ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Empty linked-post input means "leave as is" (`Linked_Post_Base::insert` returns false). */
export function isEmptyRef(v: unknown): boolean {
  return (
    v === undefined ||
    v === null ||
    v === '' ||
    v === 0 ||
    v === '0' ||
    (Array.isArray(v) && v.length === 0) ||
    (isPlainObject(v) && Object.keys(v).length === 0)
  );
}

export function toIntList(v: unknown): number[] {
  return parseList(v).map((x) => Math.trunc(Number(x)));
}
