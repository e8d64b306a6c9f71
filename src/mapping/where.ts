/**
 * `where:`/`orderBy:` arguments -> the query of the interface that can answer
 * them. Event lists prefer the legacy interface, places calendar-core/v1; an
 * argument only one interface has pins the list to it, and one the site cannot
 * answer is a BAD_USER_INPUT error naming it (never a silently ignored
 * filter). Pure: no I/O.
 */
import { GatewayError } from '../upstream/errors.ts';
import { declaredArgs, type SiteInfo } from '../upstream/discovery.ts';
import type { QueryValue } from '../upstream/client.ts';
import { toSiteLocal } from './dates.ts';

export type Iface = 'legacy' | 'core';
export interface ListPlan {
  iface: Iface;
  query: Record<string, QueryValue>;
}

type Dict = Record<string, unknown>;

const LEGACY = 'calendar/events/v1';
const CORE = 'calendar-core/v1';

/** Statuses calendar-core/v1 lists accept (spec B1). */
const CORE_STATUSES = ['PUBLISH', 'PENDING', 'DRAFT', 'FUTURE', 'PRIVATE'];

function set(o: Dict, k: string): boolean {
  return o[k] !== undefined && o[k] !== null;
}

/**
 * Chooses the interface; `legacyOnly`/`coreOnly` name the arguments that force
 * one. With neither, `prefer` decides among the interfaces the site has.
 */
function choose(site: SiteInfo, what: string, legacyOnly: string[], coreOnly: string[], prefer: Iface = 'core'): Iface {
  if (legacyOnly.length && coreOnly.length) {
    throw GatewayError.badInput(
      `${what}: ${legacyOnly.join(', ')} (only ${LEGACY} has ${legacyOnly.length > 1 ? 'them' : 'it'}) cannot be combined with ${coreOnly.join(', ')} (only ${CORE})`,
      { arguments: [...legacyOnly, ...coreOnly] },
    );
  }
  if (legacyOnly.length) {
    if (!site.hasLegacy) throw GatewayError.badInput(`${what}: ${legacyOnly.join(', ')} needs ${LEGACY}, which this site does not offer`, { arguments: legacyOnly });
    return 'legacy';
  }
  if (coreOnly.length) {
    if (!site.hasCore) throw GatewayError.badInput(`${what}: ${coreOnly.join(', ')} needs ${CORE}, which this site does not offer`, { arguments: coreOnly });
    return 'core';
  }
  if (prefer === 'legacy' ? site.hasLegacy : !site.hasCore && site.hasLegacy) return 'legacy';
  if (site.hasCore) return 'core';
  throw new GatewayError('NAMESPACE_UNAVAILABLE', `${what}: this site offers neither ${CORE} nor ${LEGACY}`);
}

function localDate(v: unknown, field: string, site: SiteInfo): string {
  const s = toSiteLocal(String(v), site.timezone);
  if (!s) throw GatewayError.badInput(`${field}: ${JSON.stringify(v)} is not a valid DateTime`, { arguments: [field] });
  return s;
}

const DATE_KEYS: [string, string][] = [
  ['startDate', 'start_date'],
  ['endDate', 'end_date'],
  ['startsBefore', 'starts_before'],
  ['startsAfter', 'starts_after'],
  ['endsBefore', 'ends_before'],
  ['endsAfter', 'ends_after'],
];

/**
 * The open window a legacy list must be given to mean "every event": with no
 * dates the legacy list covers only yesterday to +24 months, and one date alone
 * keeps the default of the other. The epoch is refused as "not a date"
 * (real-site-behaviour.md, "The default date window"); these two are accepted.
 */
export const OPEN_START = '1900-01-01 00:00:00';
export const OPEN_END = '9999-12-31 23:59:59';

/**
 * Without `strict_dates` the legacy list widens `start_date` to the start of
 * its (site-local) day and every other bound to the end of its day
 * (calendar-upstream.md §1.2). calendar-core/v1 takes times exactly, so the
 * gateway widens them itself: one meaning whichever interface answers.
 */
function widen(param: string, local: string): string {
  return `${local.slice(0, 10)} ${param === 'start_date' ? '00:00:00' : '23:59:59'}`;
}

/** Whether the site's legacy events route declares `strict_dates` (TEC 6.0.2+; unknown when the index lists no routes). */
function legacyHasStrictDates(site: SiteInfo): boolean {
  return declaredArgs(site, 'GET', `/${LEGACY}/events`)?.has('strict_dates') ?? true;
}

const EVENT_ORDER: Record<string, string> = { START_DATE: 'event_date', PUBLISHED_AT: 'date', TITLE: 'title', MENU_ORDER: 'menu_order', MODIFIED_AT: 'modified' };

/** `where` arguments that may go with `ids` (an ID list is read by ID, then filtered by status). */
export const WITH_IDS = ['ids', 'status'];

/**
 * Lists of events (spec A1 / B1). The legacy list is preferred: on real sites
 * it is about twice as fast as calendar-core/v1, and it is the one that filters
 * by category and tag (TEC 6.15's calendar-core list ignores `categories` and
 * `tags`, real-site-behaviour.md), so term filters need it. calendar-core/v1
 * serves the filters only it has.
 */
export function planEvents(site: SiteInfo, where: Dict = {}, orderBy?: { field: string; direction?: string | null } | null): ListPlan {
  const statuses = (where.status as string[] | undefined) ?? [];
  const legacyOnly = ['categorySlugs', 'tagSlugs', 'categoryIds', 'tagIds'].filter((k) => set(where, k)).map((k) => `where.${k}`);
  if (statuses.some((s) => !CORE_STATUSES.includes(s))) legacyOnly.push(`where.status ${statuses.filter((s) => !CORE_STATUSES.includes(s)).join('/')}`);
  const coreOnly = ['near', 'inSeries', 'seriesIds', 'relatedTo', 'recurring', 'virtual'].filter((k) => set(where, k)).map((k) => `where.${k}`);
  const geo = where.geolocation as { latitude: number; longitude: number; distance?: number | null } | undefined | null;
  if (geo && geo.distance !== undefined && geo.distance !== null) coreOnly.push('where.geolocation.distance');
  if (statuses.length > 1) coreOnly.push('where.status (several values)');
  if (orderBy) coreOnly.push('orderBy');
  // The legacy list refuses `post_parent=0` ("Post with ID 0 is not an event.", calendar-upstream.md §1.2).
  if (where.postParent === 0) coreOnly.push('where.postParent 0');
  const iface = choose(site, 'events', legacyOnly, coreOnly, 'legacy');
  const strict = where.strictDates === true;
  if (strict && iface === 'legacy' && !legacyHasStrictDates(site)) {
    throw GatewayError.badInput(`events: where.strictDates needs a ${LEGACY} that takes strict_dates (The Events Calendar 6.0.2+); this site's does not`, { arguments: ['where.strictDates'] });
  }

  const q: Record<string, QueryValue> = {};
  for (const [k, p] of DATE_KEYS) {
    if (!set(where, k)) continue;
    const local = localDate(where[k], `where.${k}`, site);
    q[p] = iface === 'core' && !strict ? widen(p, local) : local;
  }
  if (set(where, 'search')) q.search = String(where.search);
  if (set(where, 'featured')) q.featured = Boolean(where.featured);
  if (set(where, 'postParent')) q.post_parent = Number(where.postParent);
  if (set(where, 'ticketed')) q.ticketed = Boolean(where.ticketed);
  if (set(where, 'venueIds')) q.venue = where.venueIds as number[];
  if (set(where, 'organizerIds')) q.organizer = where.organizerIds as number[];
  if (iface === 'legacy') {
    const cats = [...((where.categoryIds as number[]) ?? []), ...((where.categorySlugs as string[]) ?? [])];
    const tags = [...((where.tagIds as number[]) ?? []), ...((where.tagSlugs as string[]) ?? [])];
    if (cats.length) q.categories = cats.join(',');
    if (tags.length) q.tags = tags.join(',');
    if (strict) q.strict_dates = true;
    if (set(where, 'hasGeolocation')) q.geoloc = Boolean(where.hasGeolocation);
    if (geo) {
      q.geoloc_lat = geo.latitude;
      q.geoloc_lng = geo.longitude;
    }
    // The legacy interface gives editors every status and everyone a default
    // window from yesterday to +24 months; ask for what calendar-core/v1 gives
    // (published events, no window) so a list means the same thing whichever
    // interface answers it. Both ends are always sent: one alone keeps the
    // default of the other.
    q.status = (statuses[0] ?? 'PUBLISH').toLowerCase().replace('_', '-');
    q.start_date ??= OPEN_START;
    q.end_date ??= OPEN_END;
  } else {
    if (statuses.length) q.status = statuses.map((s) => s.toLowerCase());
    if (set(where, 'hasGeolocation')) q.has_geoloc = Boolean(where.hasGeolocation);
    if (geo) {
      q.geoloc_lat = geo.latitude;
      q.geoloc_lng = geo.longitude;
      if (geo.distance !== undefined && geo.distance !== null) q.distance = geo.distance;
    }
    if (set(where, 'near')) q.near = String(where.near);
    if (set(where, 'inSeries')) q.in_series = Boolean(where.inSeries);
    if (set(where, 'seriesIds')) q.series = where.seriesIds as number[];
    if (set(where, 'relatedTo')) q.related_to = Number(where.relatedTo);
    if (set(where, 'recurring')) q.recurring = Boolean(where.recurring);
    if (set(where, 'virtual')) q.virtual = Boolean(where.virtual);
    if (orderBy) {
      q.orderby = EVENT_ORDER[orderBy.field] ?? 'event_date';
      q.order = orderBy.direction === 'DESC' ? 'DESC' : 'ASC';
    }
  }
  return { iface, query: q };
}

/** Lists of venues or organizers (spec A2 / B3). */
export function planPlaces(site: SiteInfo, kind: 'venues' | 'organizers', where: Dict = {}): ListPlan {
  const statuses = (where.status as string[] | undefined) ?? [];
  const coreOnly: string[] = [];
  const legacyOnly: string[] = [];
  for (const k of ['hasGeolocation', 'geolocation', 'near']) {
    if (set(where, k)) {
      if (kind === 'organizers') throw GatewayError.badInput(`organizers: where.${k} applies to venues only`, { arguments: [`where.${k}`] });
      coreOnly.push(`where.${k}`);
    }
  }
  if (statuses.length > 1) coreOnly.push('where.status (several values)');
  if (statuses.some((s) => !CORE_STATUSES.includes(s))) legacyOnly.push('where.status');
  const iface = choose(site, kind, legacyOnly, coreOnly);
  const q: Record<string, QueryValue> = {};
  if (set(where, 'search')) q.search = String(where.search);
  if (set(where, 'event')) q.event = Number(where.event);
  if (set(where, 'hasEvents')) q.has_events = Boolean(where.hasEvents);
  if (set(where, 'onlyWithUpcoming')) q.only_with_upcoming = Boolean(where.onlyWithUpcoming);
  if (iface === 'legacy') {
    q.status = (statuses[0] ?? 'PUBLISH').toLowerCase().replace('_', '-');
  } else {
    if (statuses.length) q.status = statuses.map((s) => s.toLowerCase());
    if (set(where, 'hasGeolocation')) q.has_geoloc = Boolean(where.hasGeolocation);
    const geo = where.geolocation as { latitude: number; longitude: number; distance?: number | null } | undefined;
    if (geo) {
      q.geoloc_lat = geo.latitude;
      q.geoloc_lng = geo.longitude;
      if (geo.distance !== undefined && geo.distance !== null) q.distance = geo.distance;
    }
    if (set(where, 'near')) q.near = String(where.near);
  }
  return { iface, query: q };
}

const TERM_ORDER: Record<string, string> = { NAME: 'name', SLUG: 'slug', COUNT: 'count', ID: 'id', DESCRIPTION: 'description', TERM_GROUP: 'term_group' };

export interface TermPlan extends ListPlan {
  /**
   * Only children of this term (0: top-level terms). Filtered by the gateway:
   * the legacy term archives refuse `parent=0` and take only the ID of an
   * existing term (real-site-behaviour.md, "Categories").
   */
  parent: number | null;
}

/** Lists of categories or tags (spec A3; the legacy interface has the only term routes). */
export function planTerms(site: SiteInfo, kind: 'categories' | 'tags', where: Dict = {}, orderBy?: { field: string; direction?: string | null } | null): TermPlan {
  if (!site.hasLegacy) throw new GatewayError('NAMESPACE_UNAVAILABLE', `${kind}: the site's term routes are in ${LEGACY}, which this site does not offer`);
  if (kind === 'tags' && set(where, 'parent')) throw GatewayError.badInput('tags: where.parent applies to categories only', { arguments: ['where.parent'] });
  const parent = set(where, 'parent') ? Number(where.parent) : null;
  if (parent !== null && (!Number.isInteger(parent) || parent < 0)) throw GatewayError.badInput(`categories: where.parent must be a term ID or 0, got ${parent}`, { arguments: ['where.parent'] });
  const q: Record<string, QueryValue> = {};
  if (set(where, 'search')) q.search = String(where.search);
  if (set(where, 'ids')) q.include = where.ids as number[];
  if (set(where, 'excludeIds')) q.exclude = where.excludeIds as number[];
  if (set(where, 'hideEmpty')) q.hide_empty = Boolean(where.hideEmpty);
  if (set(where, 'event')) q.event = Number(where.event);
  if (set(where, 'slug')) q.slug = String(where.slug);
  if (orderBy) {
    q.orderby = TERM_ORDER[orderBy.field] ?? 'name';
    q.order = orderBy.direction === 'DESC' ? 'desc' : 'asc';
  }
  return { iface: 'legacy', query: q, parent };
}

/** Lists of series (spec B4; calendar-core/v1 only). */
export function planSeries(site: SiteInfo, where: Dict = {}, orderBy?: { field: string; direction?: string | null } | null): ListPlan {
  if (!site.hasCore) throw new GatewayError('NAMESPACE_UNAVAILABLE', `series: series are served by ${CORE}, which this site does not offer`);
  const statuses = (where.status as string[] | undefined) ?? [];
  const bad = statuses.filter((s) => !CORE_STATUSES.includes(s));
  if (bad.length) throw GatewayError.badInput(`series: where.status ${bad.join(', ')} cannot be listed (allowed: ${CORE_STATUSES.join(', ')})`, { arguments: ['where.status'] });
  const q: Record<string, QueryValue> = {};
  if (set(where, 'eventIds')) q.event_post_id = where.eventIds as number[];
  if (set(where, 'search')) q.search = String(where.search);
  if (statuses.length) q.status = statuses.map((s) => s.toLowerCase());
  if (set(where, 'ticketed')) q.ticketed = Boolean(where.ticketed);
  if (orderBy) {
    q.orderby = EVENT_ORDER[orderBy.field] ?? 'event_date';
    q.order = orderBy.direction === 'DESC' ? 'DESC' : 'ASC';
  }
  return { iface: 'core', query: q };
}
