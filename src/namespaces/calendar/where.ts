/**
 * `where:`/`orderBy:` arguments -> the query of the interface that can answer
 * them. Event lists prefer the legacy interface, places calendar-core/v1; an
 * argument only one interface has pins the list to it, and one the site cannot
 * answer is a BAD_USER_INPUT error naming it (never a silently ignored
 * filter). Pure: no I/O.
 */
import type {
  EventsOrderBy,
  EventsWhere,
  PlacesWhere,
  PostStatus,
  SeriesWhere,
  TermsOrderBy,
  TermsWhere,
} from '../../generated/graphql.ts';
import { GatewayError } from '../../errors.ts';
import { declaredArgs, type SiteInfo } from '../../upstream/discovery.ts';
import { inertArg, type InertArg } from '../../upstream/inert.ts';
import type { QueryValue } from '../../upstream/client.ts';
import { siteLocalToUtc, toSiteLocal } from '../../mapping/dates.ts';
import { chooseInterface, type Refusal } from './choose.ts';
import type { CalendarKind } from './served.ts';
import { NAMESPACE, PREFIX, TYPE_OF, type Iface } from './vocabulary.ts';

export type { Iface } from './vocabulary.ts';
export interface ListPlan {
  iface: Iface;
  query: Record<string, QueryValue>;
}

const LEGACY = NAMESPACE.legacy;
const CORE = NAMESPACE.core;

/** Statuses calendar-core/v1 lists accept (spec B1). */
const CORE_STATUSES: readonly PostStatus[] = ['PUBLISH', 'PENDING', 'DRAFT', 'FUTURE', 'PRIVATE'];

/**
 * Whether the argument `k` was given (GraphQL passes an omitted one as undefined, an explicit one as null); narrows it.
 */
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
 * A query for one interface, with the `where:` argument each parameter came
 * from (null: the gateway's own, such as the open date window).
 */
interface Draft {
  iface: Iface;
  query: Record<string, QueryValue>;
  origin: Record<string, string | null>;
}

/** The list route of `kind` on an interface, as the root index names it. */
function listRoute(iface: Iface, kind: string): string {
  return `${PREFIX[iface]}/${kind}`;
}

/**
 * Which release of The Events Calendar the site's index points to, for error
 * messages: the index names no version, but each release declares its own
 * arguments (docs/real-sites.md, "Declared arguments").
 */
export function calendarRelease(site: SiteInfo): string {
  if (site.hasCore) return 'The Events Calendar 6.15 or later (calendar-core/v1 present)';
  const legacy = declaredArgs(site, 'GET', `/${LEGACY}/events`);
  if (!legacy) return 'The Events Calendar (release unknown: the index lists no arguments)';
  return legacy.has('starts_after')
    ? 'The Events Calendar 6.0 to 6.14 (no calendar-core/v1)'
    : 'The Events Calendar before 6.0 (such as 5.7)';
}

/**
 * The parameters of `d` its list route does not declare, or declares without
 * applying them on this site (upstream/inert.ts); none when the index lists no arguments.
 */
function undeclared(site: SiteInfo, kind: string, d: Draft): string[] {
  const declared = declaredArgs(site, 'GET', listRoute(d.iface, kind));
  if (!declared) return [];
  return Object.keys(d.query).filter((p) => !declared.has(p));
}

/**
 * Chooses among the drafts the site can serve (choose.ts `chooseInterface`).
 * An interface is out when the site lacks it, when an argument only the other
 * one applies was given (`legacyOnly`/`coreOnly`), or when its list route does
 * not declare a parameter the query needs: WordPress drops an undeclared
 * argument without a word, so sending it would answer an unfiltered list as if
 * it were filtered. Of those left, the one that serves every selected field
 * (`fields`, of `type`), then `prefer`, decides; with none left,
 * BAD_USER_INPUT names every argument, the route that does not declare it,
 * and the site's release.
 */
function choose(
  site: SiteInfo,
  kind: string,
  drafts: Record<Iface, Draft>,
  legacyOnly: string[],
  coreOnly: string[],
  pick: Pick,
): Draft {
  const c = chooseInterface(site, {
    only: { legacy: legacyOnly, core: coreOnly },
    undeclared: (iface) => undeclared(site, kind, drafts[iface]),
    ...(pick.type ? { type: pick.type } : {}),
    ...(pick.fields ? { fields: pick.fields } : {}),
    prefer: pick.prefer,
  });
  if ('refused' in c) throw refused(site, kind, drafts, c);
  return drafts[c.iface];
}

/** How a list's interface is picked once its filters allow both: the fields it serves, then the preferred one. */
interface Pick {
  prefer: Iface;
  type?: CalendarKind;
  fields?: Iterable<string> | undefined;
}

/** The error of a refused choice. */
function refused(site: SiteInfo, kind: string, drafts: Record<Iface, Draft>, r: Refusal): GatewayError {
  switch (r.refused) {
    case 'conflict':
      return GatewayError.badInput(
        `${kind}: ${r.legacy.join(', ')} (only ${LEGACY} has ${r.legacy.length > 1 ? 'them' : 'it'}) cannot be combined with ${r.core.join(', ')} (only ${CORE})`,
        { arguments: [...r.legacy, ...r.core] },
      );
    case 'absent':
      return GatewayError.badInput(
        `${kind}: ${r.args.join(', ')} needs ${NAMESPACE[r.needs]}, which this site does not offer`,
        { arguments: [...r.args] },
      );
    case 'neither':
      return new GatewayError('NAMESPACE_UNAVAILABLE', `${kind}: this site offers neither ${CORE} nor ${LEGACY}`);
    case 'undeclared':
      return refusal(
        site,
        kind,
        r.routes.map((x) => ({ draft: drafts[x.iface], params: [...x.params] })),
      );
  }
}

/**
 * The BAD_USER_INPUT for arguments no offered list route applies: each route
 * either does not declare them, or declares them without applying them on this
 * site (upstream/inert.ts, whose reason the message gives).
 */
function refusal(site: SiteInfo, kind: string, refusals: readonly { draft: Draft; params: string[] }[]): GatewayError {
  const args = [...new Set(refusals.flatMap((r) => r.params.map((p) => r.draft.origin[p] ?? p)))];
  const undeclaredWhy: string[] = [];
  const inert = new Map<InertArg, string[]>();
  for (const r of refusals) {
    const route = listRoute(r.draft.iface, kind);
    const missing: string[] = [];
    for (const p of r.params) {
      const row = inertArg(site, 'GET', route, p);
      if (row) inert.set(row, [...(inert.get(row) ?? []), `GET ${route}`]);
      else missing.push(p);
    }
    if (missing.length) undeclaredWhy.push(`GET ${route} does not declare ${missing.join(', ')}`);
  }
  const inertWhy = [...inert].map(
    ([row, routes]) =>
      `${routes.join(' and ')} declare${routes.length > 1 ? '' : 's'} ${row.arg} but do${routes.length > 1 ? '' : 'es'} not apply it: ${row.why}`,
  );
  const because = undeclaredWhy.length
    ? 'WordPress ignores an argument a route does not declare, so the gateway'
    : 'The gateway';
  return GatewayError.badInput(
    `${kind}: ${args.join(', ')} cannot be applied on this site (${calendarRelease(site)}): ${[...undeclaredWhy, ...inertWhy].join('; ')}. ${because} refuses it rather than answer an unfiltered list`,
    {
      arguments: args,
      routes: refusals.map((r) => `GET ${listRoute(r.draft.iface, kind)}`),
      release: calendarRelease(site),
    },
  );
}

/** `d` when its list route declares every parameter, else the refusal naming them. */
function declared(site: SiteInfo, kind: string, d: Draft): ListPlan {
  const params = undeclared(site, kind, d);
  if (params.length) throw refusal(site, kind, [{ draft: d, params }]);
  return { iface: d.iface, query: d.query };
}

/** Builds a draft: `put(param, value, from)` records each parameter with the argument it came from. */
function draft(iface: Iface, fill: (put: Put) => void): Draft {
  const d: Draft = { iface, query: {}, origin: {} };
  fill((param, value, from) => {
    d.query[param] = value;
    d.origin[param] = from;
  });
  return d;
}

type Put = (param: string, value: QueryValue, from: string | null) => void;

/** Each given field of `where` as its parameter (`[field, param]` pairs), recorded as from `where.<field>`. */
function copy<W extends object>(where: W, put: Put, pairs: readonly (readonly [keyof W & string, string])[]): void {
  for (const [k, p] of pairs) {
    const v = where[k];
    if (v !== undefined && v !== null) put(p, v as QueryValue, `where.${k}`);
  }
}

/** A circle (`distance`, calendar-core/v1 only) or a point (`geoloc_lat`/`geoloc_lng`). */
function putGeo(
  put: Put,
  geo: { latitude: number; longitude: number; distance?: number | null } | null | undefined,
): void {
  if (!geo) return;
  put('geoloc_lat', geo.latitude, 'where.geolocation');
  put('geoloc_lng', geo.longitude, 'where.geolocation');
  if (geo.distance !== undefined && geo.distance !== null) put('distance', geo.distance, 'where.geolocation.distance');
}

function localDate(v: string, field: string, site: SiteInfo): string {
  const s = toSiteLocal(v, site.timezone);
  if (!s) throw GatewayError.badInput(`${field}: ${JSON.stringify(v)} is not a valid DateTime`, { arguments: [field] });
  return s;
}

const DATE_KEYS: readonly (readonly [
  'startDate' | 'endDate' | 'startsBefore' | 'startsAfter' | 'endsBefore' | 'endsAfter',
  string,
])[] = [
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
 * (docs/sandbox.md, "As strict as the real site"; docs/graph.md, "How reads go upstream"); these two are accepted.
 * The end is short of the year 9999: with `strict_dates`, 6.15.14 moves a bound by the site's UTC
 * offset, and a site east of UTC pushed 9999-12-31 23:59:59 into the year 10000, which it took as
 * "now" (a strict list silently ended today).
 */
export const OPEN_START = '1900-01-01 00:00:00';
export const OPEN_END = '9998-12-31 23:59:59';

/**
 * With `strict_dates`, the legacy list of 6.15.14 reads each bound as UTC and moves it into the
 * site's zone before filtering (its `rest_url` echoes `ends_after=… 11:00:00` for `10:00:00` in
 * Europe/Paris), so a site-local bound sent as it is lands off by the site's UTC offset. Sending the
 * bound's UTC time makes the site's move land it where it was meant.
 */
function strictLegacy(local: string, site: SiteInfo): string {
  return siteLocalToUtc(local, site.timezone) ?? local;
}

/**
 * Without `strict_dates` the legacy list widens `start_date` to the start of
 * its (site-local) day and every other bound to the end of its day
 * (docs/graph.md, "How reads go upstream"). calendar-core/v1 takes times exactly, so the
 * gateway widens them itself: one meaning whichever interface answers.
 */
function widen(param: string, local: string): string {
  return `${local.slice(0, 10)} ${param === 'start_date' ? '00:00:00' : '23:59:59'}`;
}

const EVENT_ORDER: Record<EventsOrderBy['field'], string> = {
  START_DATE: 'event_date',
  PUBLISHED_AT: 'date',
  TITLE: 'title',
  MENU_ORDER: 'menu_order',
  MODIFIED_AT: 'modified',
};

/** `where` arguments that may go with `ids` (an ID list is read by ID, then filtered by status). */
export const WITH_IDS: readonly string[] = ['ids', 'status'] satisfies (keyof EventsWhere)[];

/**
 * Lists of events (spec A1 / B1). The legacy list is preferred: on real sites
 * it is about twice as fast as calendar-core/v1, and it is the one that filters
 * by category and tag (TEC 6.15's calendar-core list ignores `categories` and
 * `tags`, docs/real-sites.md), so term filters need it. calendar-core/v1
 * serves the filters only it has. Between interfaces that can both answer,
 * the one that serves every field an operation selects (`fields`,
 * resolvers/selection.ts), then `prefer`, picks; each interface's list must
 * declare every parameter it is sent.
 */
export function planEvents(
  site: SiteInfo,
  where: EventsWhere = {},
  orderBy?: EventsOrderBy | null,
  prefer: Iface = 'legacy',
  fields?: Iterable<string>,
): ListPlan {
  const statuses = where.status ?? [];
  const legacyOnly = given(where, ['categorySlugs', 'tagSlugs', 'categoryIds', 'tagIds']);
  if (statuses.some((s) => !CORE_STATUSES.includes(s)))
    legacyOnly.push(`where.status ${statuses.filter((s) => !CORE_STATUSES.includes(s)).join('/')}`);
  const coreOnly = given(where, ['near', 'inSeries', 'seriesIds', 'relatedTo', 'recurring', 'virtual']);
  const geo = where.geolocation;
  if (geo && geo.distance !== undefined && geo.distance !== null) coreOnly.push('where.geolocation.distance');
  if (statuses.length > 1) coreOnly.push('where.status (several values)');
  if (orderBy) coreOnly.push('orderBy');
  // The legacy list refuses `post_parent=0` ("Post with ID 0 is not an event.", docs/real-sites.md).
  if (where.postParent === 0) coreOnly.push('where.postParent 0');
  const strict = where.strictDates === true;

  const common = (iface: Iface, put: Put) => {
    for (const [k, p] of DATE_KEYS) {
      const v = where[k];
      if (v === undefined || v === null) continue;
      const local = localDate(v, `where.${k}`, site);
      put(
        p,
        iface === 'core' && !strict
          ? widen(p, local)
          : iface === 'legacy' && strict
            ? strictLegacy(local, site)
            : local,
        `where.${k}`,
      );
    }
    copy(where, put, [
      ['search', 'search'],
      ['featured', 'featured'],
      ['postParent', 'post_parent'],
      ['ticketed', 'ticketed'],
      ['venueIds', 'venue'],
      ['organizerIds', 'organizer'],
    ]);
  };
  const legacy = draft('legacy', (put) => {
    common('legacy', put);
    const cats = [...(where.categoryIds ?? []), ...(where.categorySlugs ?? [])];
    const tags = [...(where.tagIds ?? []), ...(where.tagSlugs ?? [])];
    if (cats.length)
      put('categories', cats.join(','), where.categoryIds?.length ? 'where.categoryIds' : 'where.categorySlugs');
    if (tags.length) put('tags', tags.join(','), where.tagIds?.length ? 'where.tagIds' : 'where.tagSlugs');
    if (strict) put('strict_dates', true, 'where.strictDates');
    copy(where, put, [['hasGeolocation', 'geoloc']]);
    // A circle is calendar-core's (its `distance` pinned the list there); a point the legacy list takes.
    if (geo) putGeo(put, { latitude: geo.latitude, longitude: geo.longitude });
    // The legacy interface gives editors every status and everyone a default
    // window from yesterday to +24 months; ask for what calendar-core/v1 gives
    // (published events, no window) so a list means the same thing whichever
    // interface answers it. Both ends are always sent: one alone keeps the
    // default of the other.
    put('status', legacyStatus(statuses), statuses.length ? 'where.status' : null);
    if (!set(where, 'startDate')) put('start_date', OPEN_START, null);
    if (!set(where, 'endDate')) put('end_date', OPEN_END, null);
  });
  const core = draft('core', (put) => {
    common('core', put);
    if (statuses.length)
      put(
        'status',
        statuses.map((s) => s.toLowerCase()),
        'where.status',
      );
    putGeo(put, geo);
    copy(where, put, [
      ['hasGeolocation', 'has_geoloc'],
      ['near', 'near'],
      ['inSeries', 'in_series'],
      ['seriesIds', 'series'],
      ['relatedTo', 'related_to'],
      ['recurring', 'recurring'],
      ['virtual', 'virtual'],
    ]);
    if (orderBy) {
      put('orderby', EVENT_ORDER[orderBy.field] ?? 'event_date', 'orderBy');
      put('order', orderBy.direction === 'DESC' ? 'DESC' : 'ASC', 'orderBy');
    }
  });
  // `strict_dates` (TEC 6.0.2+) goes only to a legacy list that declares it, like every parameter.
  const chosen = choose(site, 'events', { legacy, core }, legacyOnly, coreOnly, { prefer, type: 'Event', fields });
  return { iface: chosen.iface, query: chosen.query };
}

/**
 * Lists of venues or organizers (spec A2 / B3); calendar-core/v1 is preferred unless the selected `fields` or `prefer`
 * say otherwise.
 */
export function planPlaces(
  site: SiteInfo,
  kind: 'venues' | 'organizers',
  where: PlacesWhere = {},
  prefer: Iface = 'core',
  fields?: Iterable<string>,
): ListPlan {
  const statuses = where.status ?? [];
  const coreOnly: string[] = [];
  const legacyOnly: string[] = [];
  for (const k of ['hasGeolocation', 'geolocation', 'near'] as const) {
    if (set(where, k)) {
      if (kind === 'organizers')
        throw GatewayError.badInput(`organizers: where.${k} applies to venues only`, { arguments: [`where.${k}`] });
      coreOnly.push(`where.${k}`);
    }
  }
  if (statuses.length > 1) coreOnly.push('where.status (several values)');
  if (statuses.some((s) => !CORE_STATUSES.includes(s))) legacyOnly.push('where.status');
  const common = (put: Put) =>
    copy(where, put, [
      ['search', 'search'],
      ['event', 'event'],
      ['hasEvents', 'has_events'],
      ['onlyWithUpcoming', 'only_with_upcoming'],
    ]);
  const legacy = draft('legacy', (put) => {
    common(put);
    put('status', legacyStatus(statuses), statuses.length ? 'where.status' : null);
  });
  const core = draft('core', (put) => {
    common(put);
    if (statuses.length)
      put(
        'status',
        statuses.map((s) => s.toLowerCase()),
        'where.status',
      );
    putGeo(put, where.geolocation);
    copy(where, put, [
      ['hasGeolocation', 'has_geoloc'],
      ['near', 'near'],
    ]);
  });
  const chosen = choose(site, kind, { legacy, core }, legacyOnly, coreOnly, { prefer, type: TYPE_OF[kind], fields });
  return { iface: chosen.iface, query: chosen.query };
}

const TERM_ORDER: Record<TermsOrderBy['field'], string> = {
  NAME: 'name',
  SLUG: 'slug',
  COUNT: 'count',
  ID: 'id',
  DESCRIPTION: 'description',
  TERM_GROUP: 'term_group',
};

export interface TermPlan extends ListPlan {
  /**
   * Only children of this term (0: top-level terms). Filtered by the gateway:
   * the legacy term archives refuse `parent=0` and take only the ID of an
   * existing term (docs/sandbox.md, "As strict as the real site").
   */
  parent: number | null;
}

/** Lists of categories or tags (spec A3; the legacy interface has the only term routes). */
export function planTerms(
  site: SiteInfo,
  kind: 'categories' | 'tags',
  where: TermsWhere = {},
  orderBy?: TermsOrderBy | null,
): TermPlan {
  if (!site.hasLegacy)
    throw new GatewayError(
      'NAMESPACE_UNAVAILABLE',
      `${kind}: the site's term routes are in ${LEGACY}, which this site does not offer`,
      { namespace: LEGACY },
    );
  if (kind === 'tags' && set(where, 'parent'))
    throw GatewayError.badInput('tags: where.parent applies to categories only', { arguments: ['where.parent'] });
  const parent = where.parent ?? null;
  if (parent !== null && (!Number.isInteger(parent) || parent < 0))
    throw GatewayError.badInput(`categories: where.parent must be a term ID or 0, got ${parent}`, {
      arguments: ['where.parent'],
    });
  const d = draft('legacy', (put) => {
    copy(where, put, [
      ['search', 'search'],
      ['ids', 'include'],
      ['excludeIds', 'exclude'],
      ['hideEmpty', 'hide_empty'],
      ['event', 'event'],
      ['slug', 'slug'],
    ]);
    if (orderBy) {
      put('orderby', TERM_ORDER[orderBy.field] ?? 'name', 'orderBy');
      put('order', orderBy.direction === 'DESC' ? 'desc' : 'asc', 'orderBy');
    }
  });
  return { ...declared(site, kind, d), parent };
}

/** Lists of series (spec B4; calendar-core/v1 only). */
export function planSeries(site: SiteInfo, where: SeriesWhere = {}, orderBy?: EventsOrderBy | null): ListPlan {
  if (!site.hasCore)
    throw new GatewayError(
      'NAMESPACE_UNAVAILABLE',
      `series: series are served by ${CORE}, which this site does not offer`,
      { namespace: CORE },
    );
  const statuses = where.status ?? [];
  const bad = statuses.filter((s) => !CORE_STATUSES.includes(s));
  if (bad.length)
    throw GatewayError.badInput(
      `series: where.status ${bad.join(', ')} cannot be listed (allowed: ${CORE_STATUSES.join(', ')})`,
      { arguments: ['where.status'] },
    );
  const d = draft('core', (put) => {
    copy(where, put, [
      ['eventIds', 'event_post_id'],
      ['search', 'search'],
      ['ticketed', 'ticketed'],
    ]);
    if (statuses.length)
      put(
        'status',
        statuses.map((s) => s.toLowerCase()),
        'where.status',
      );
    if (orderBy) {
      put('orderby', EVENT_ORDER[orderBy.field] ?? 'event_date', 'orderBy');
      put('order', orderBy.direction === 'DESC' ? 'DESC' : 'ASC', 'orderBy');
    }
  });
  return declared(site, 'series', d);
}
