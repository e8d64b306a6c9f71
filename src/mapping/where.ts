/**
 * `where:`/`orderBy:` arguments -> the query of the interface that can answer
 * them. Event lists prefer the legacy interface, places calendar-core/v1; an
 * argument only one interface has pins the list to it, and one the site cannot
 * answer is a BAD_USER_INPUT error naming it (never a silently ignored
 * filter). Pure: no I/O.
 */
import type { EventsOrderBy, EventsWhere, PlacesWhere, PostStatus, SeriesWhere, TermsOrderBy, TermsWhere } from '../generated/graphql.ts';
import { GatewayError } from '../errors.ts';
import { declaredArgs, type SiteInfo } from '../upstream/discovery.ts';
import type { QueryValue } from '../upstream/client.ts';
import { toSiteLocal } from './dates.ts';

export type Iface = 'legacy' | 'core';
export interface ListPlan {
  iface: Iface;
  query: Record<string, QueryValue>;
}

const LEGACY = 'calendar/events/v1';
const CORE = 'calendar-core/v1';

/** Statuses calendar-core/v1 lists accept (spec B1). */
const CORE_STATUSES: readonly PostStatus[] = ['PUBLISH', 'PENDING', 'DRAFT', 'FUTURE', 'PRIVATE'];

/** Whether the argument `k` was given (GraphQL passes an omitted one as undefined, an explicit one as null); narrows it. */
function set<W extends object, K extends keyof W>(o: W, k: K): o is W & { [P in K]-?: NonNullable<W[P]> } {
  return o[k] !== undefined && o[k] !== null;
}

/** The names, as `where.<name>`, of those of `keys` that were given. */
function given<W extends object>(o: W, keys: readonly (keyof W & string)[]): string[] {
  return keys.filter((k) => set(o, k)).map((k) => `where.${k}`);
}

/** A WordPress status of the legacy lists, which take one: `AUTO_DRAFT` -> `auto-draft`. */
const legacyStatus = (statuses: readonly PostStatus[]) => (statuses[0] ?? 'PUBLISH').toLowerCase().replace('_', '-');

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

function localDate(v: string, field: string, site: SiteInfo): string {
  const s = toSiteLocal(v, site.timezone);
  if (!s) throw GatewayError.badInput(`${field}: ${JSON.stringify(v)} is not a valid DateTime`, { arguments: [field] });
  return s;
}

const DATE_KEYS: readonly (readonly ['startDate' | 'endDate' | 'startsBefore' | 'startsAfter' | 'endsBefore' | 'endsAfter', string])[] = [
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
 * (../shared/reference/real-site-behaviour.md, "The default date window"); these two are accepted.
 */
export const OPEN_START = '1900-01-01 00:00:00';
export const OPEN_END = '9999-12-31 23:59:59';

/**
 * Without `strict_dates` the legacy list widens `start_date` to the start of
 * its (site-local) day and every other bound to the end of its day
 * (../shared/reference/calendar-upstream.md §1.2). calendar-core/v1 takes times exactly, so the
 * gateway widens them itself: one meaning whichever interface answers.
 */
function widen(param: string, local: string): string {
  return `${local.slice(0, 10)} ${param === 'start_date' ? '00:00:00' : '23:59:59'}`;
}

/** Whether the site's legacy events route declares `strict_dates` (TEC 6.0.2+; unknown when the index lists no routes). */
function legacyHasStrictDates(site: SiteInfo): boolean {
  return declaredArgs(site, 'GET', `/${LEGACY}/events`)?.has('strict_dates') ?? true;
}

const EVENT_ORDER: Record<EventsOrderBy['field'], string> = { START_DATE: 'event_date', PUBLISHED_AT: 'date', TITLE: 'title', MENU_ORDER: 'menu_order', MODIFIED_AT: 'modified' };

/** `where` arguments that may go with `ids` (an ID list is read by ID, then filtered by status). */
export const WITH_IDS: readonly string[] = ['ids', 'status'] satisfies (keyof EventsWhere)[];

/**
 * Lists of events (spec A1 / B1). The legacy list is preferred: on real sites
 * it is about twice as fast as calendar-core/v1, and it is the one that filters
 * by category and tag (TEC 6.15's calendar-core list ignores `categories` and
 * `tags`, ../shared/reference/real-site-behaviour.md), so term filters need it. calendar-core/v1
 * serves the filters only it has.
 */
export function planEvents(site: SiteInfo, where: EventsWhere = {}, orderBy?: EventsOrderBy | null): ListPlan {
  const statuses = where.status ?? [];
  const legacyOnly = given(where, ['categorySlugs', 'tagSlugs', 'categoryIds', 'tagIds']);
  if (statuses.some((s) => !CORE_STATUSES.includes(s))) legacyOnly.push(`where.status ${statuses.filter((s) => !CORE_STATUSES.includes(s)).join('/')}`);
  const coreOnly = given(where, ['near', 'inSeries', 'seriesIds', 'relatedTo', 'recurring', 'virtual']);
  const geo = where.geolocation;
  if (geo && geo.distance !== undefined && geo.distance !== null) coreOnly.push('where.geolocation.distance');
  if (statuses.length > 1) coreOnly.push('where.status (several values)');
  if (orderBy) coreOnly.push('orderBy');
  // The legacy list refuses `post_parent=0` ("Post with ID 0 is not an event.", ../shared/reference/calendar-upstream.md §1.2).
  if (where.postParent === 0) coreOnly.push('where.postParent 0');
  const iface = choose(site, 'events', legacyOnly, coreOnly, 'legacy');
  const strict = where.strictDates === true;
  if (strict && iface === 'legacy' && !legacyHasStrictDates(site)) {
    throw GatewayError.badInput(`events: where.strictDates needs a ${LEGACY} that takes strict_dates (The Events Calendar 6.0.2+); this site's does not`, { arguments: ['where.strictDates'] });
  }

  const q: Record<string, QueryValue> = {};
  for (const [k, p] of DATE_KEYS) {
    const v = where[k];
    if (v === undefined || v === null) continue;
    const local = localDate(v, `where.${k}`, site);
    q[p] = iface === 'core' && !strict ? widen(p, local) : local;
  }
  if (set(where, 'search')) q.search = where.search;
  if (set(where, 'featured')) q.featured = where.featured;
  if (set(where, 'postParent')) q.post_parent = where.postParent;
  if (set(where, 'ticketed')) q.ticketed = where.ticketed;
  if (set(where, 'venueIds')) q.venue = where.venueIds;
  if (set(where, 'organizerIds')) q.organizer = where.organizerIds;
  if (iface === 'legacy') {
    const cats = [...(where.categoryIds ?? []), ...(where.categorySlugs ?? [])];
    const tags = [...(where.tagIds ?? []), ...(where.tagSlugs ?? [])];
    if (cats.length) q.categories = cats.join(',');
    if (tags.length) q.tags = tags.join(',');
    if (strict) q.strict_dates = true;
    if (set(where, 'hasGeolocation')) q.geoloc = where.hasGeolocation;
    if (geo) {
      q.geoloc_lat = geo.latitude;
      q.geoloc_lng = geo.longitude;
    }
    // The legacy interface gives editors every status and everyone a default
    // window from yesterday to +24 months; ask for what calendar-core/v1 gives
    // (published events, no window) so a list means the same thing whichever
    // interface answers it. Both ends are always sent: one alone keeps the
    // default of the other.
    q.status = legacyStatus(statuses);
    q.start_date ??= OPEN_START;
    q.end_date ??= OPEN_END;
  } else {
    if (statuses.length) q.status = statuses.map((s) => s.toLowerCase());
    if (set(where, 'hasGeolocation')) q.has_geoloc = where.hasGeolocation;
    if (geo) {
      q.geoloc_lat = geo.latitude;
      q.geoloc_lng = geo.longitude;
      if (geo.distance !== undefined && geo.distance !== null) q.distance = geo.distance;
    }
    if (set(where, 'near')) q.near = where.near;
    if (set(where, 'inSeries')) q.in_series = where.inSeries;
    if (set(where, 'seriesIds')) q.series = where.seriesIds;
    if (set(where, 'relatedTo')) q.related_to = where.relatedTo;
    if (set(where, 'recurring')) q.recurring = where.recurring;
    if (set(where, 'virtual')) q.virtual = where.virtual;
    if (orderBy) {
      q.orderby = EVENT_ORDER[orderBy.field] ?? 'event_date';
      q.order = orderBy.direction === 'DESC' ? 'DESC' : 'ASC';
    }
  }
  return { iface, query: q };
}

/** Lists of venues or organizers (spec A2 / B3). */
export function planPlaces(site: SiteInfo, kind: 'venues' | 'organizers', where: PlacesWhere = {}): ListPlan {
  const statuses = where.status ?? [];
  const coreOnly: string[] = [];
  const legacyOnly: string[] = [];
  for (const k of ['hasGeolocation', 'geolocation', 'near'] as const) {
    if (set(where, k)) {
      if (kind === 'organizers') throw GatewayError.badInput(`organizers: where.${k} applies to venues only`, { arguments: [`where.${k}`] });
      coreOnly.push(`where.${k}`);
    }
  }
  if (statuses.length > 1) coreOnly.push('where.status (several values)');
  if (statuses.some((s) => !CORE_STATUSES.includes(s))) legacyOnly.push('where.status');
  const iface = choose(site, kind, legacyOnly, coreOnly);
  const q: Record<string, QueryValue> = {};
  if (set(where, 'search')) q.search = where.search;
  if (set(where, 'event')) q.event = where.event;
  if (set(where, 'hasEvents')) q.has_events = where.hasEvents;
  if (set(where, 'onlyWithUpcoming')) q.only_with_upcoming = where.onlyWithUpcoming;
  if (iface === 'legacy') {
    q.status = legacyStatus(statuses);
  } else {
    if (statuses.length) q.status = statuses.map((s) => s.toLowerCase());
    if (set(where, 'hasGeolocation')) q.has_geoloc = where.hasGeolocation;
    const geo = where.geolocation;
    if (geo) {
      q.geoloc_lat = geo.latitude;
      q.geoloc_lng = geo.longitude;
      if (geo.distance !== undefined && geo.distance !== null) q.distance = geo.distance;
    }
    if (set(where, 'near')) q.near = where.near;
  }
  return { iface, query: q };
}

const TERM_ORDER: Record<TermsOrderBy['field'], string> = { NAME: 'name', SLUG: 'slug', COUNT: 'count', ID: 'id', DESCRIPTION: 'description', TERM_GROUP: 'term_group' };

export interface TermPlan extends ListPlan {
  /**
   * Only children of this term (0: top-level terms). Filtered by the gateway:
   * the legacy term archives refuse `parent=0` and take only the ID of an
   * existing term (../shared/reference/real-site-behaviour.md, "Categories").
   */
  parent: number | null;
}

/** Lists of categories or tags (spec A3; the legacy interface has the only term routes). */
export function planTerms(site: SiteInfo, kind: 'categories' | 'tags', where: TermsWhere = {}, orderBy?: TermsOrderBy | null): TermPlan {
  if (!site.hasLegacy) throw new GatewayError('NAMESPACE_UNAVAILABLE', `${kind}: the site's term routes are in ${LEGACY}, which this site does not offer`);
  if (kind === 'tags' && set(where, 'parent')) throw GatewayError.badInput('tags: where.parent applies to categories only', { arguments: ['where.parent'] });
  const parent = where.parent ?? null;
  if (parent !== null && (!Number.isInteger(parent) || parent < 0)) throw GatewayError.badInput(`categories: where.parent must be a term ID or 0, got ${parent}`, { arguments: ['where.parent'] });
  const q: Record<string, QueryValue> = {};
  if (set(where, 'search')) q.search = where.search;
  if (set(where, 'ids')) q.include = where.ids;
  if (set(where, 'excludeIds')) q.exclude = where.excludeIds;
  if (set(where, 'hideEmpty')) q.hide_empty = where.hideEmpty;
  if (set(where, 'event')) q.event = where.event;
  if (set(where, 'slug')) q.slug = where.slug;
  if (orderBy) {
    q.orderby = TERM_ORDER[orderBy.field] ?? 'name';
    q.order = orderBy.direction === 'DESC' ? 'desc' : 'asc';
  }
  return { iface: 'legacy', query: q, parent };
}

/** Lists of series (spec B4; calendar-core/v1 only). */
export function planSeries(site: SiteInfo, where: SeriesWhere = {}, orderBy?: EventsOrderBy | null): ListPlan {
  if (!site.hasCore) throw new GatewayError('NAMESPACE_UNAVAILABLE', `series: series are served by ${CORE}, which this site does not offer`);
  const statuses = where.status ?? [];
  const bad = statuses.filter((s) => !CORE_STATUSES.includes(s));
  if (bad.length) throw GatewayError.badInput(`series: where.status ${bad.join(', ')} cannot be listed (allowed: ${CORE_STATUSES.join(', ')})`, { arguments: ['where.status'] });
  const q: Record<string, QueryValue> = {};
  if (set(where, 'eventIds')) q.event_post_id = where.eventIds;
  if (set(where, 'search')) q.search = where.search;
  if (statuses.length) q.status = statuses.map((s) => s.toLowerCase());
  if (set(where, 'ticketed')) q.ticketed = where.ticketed;
  if (orderBy) {
    q.orderby = EVENT_ORDER[orderBy.field] ?? 'event_date';
    q.order = orderBy.direction === 'DESC' ? 'DESC' : 'ASC';
  }
  return { iface: 'core', query: q };
}
