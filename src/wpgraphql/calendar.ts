/**
 * ql-events' `Event`, `Venue`, `Organizer` and `EventsCategory` over the main graph's calendar: its lists
 * (src/resolvers/lists.ts: the interface the calendar's choice gives, page plans, keyset cursors), its loaders (legacy
 * `include=` batches, embedded venues, organizers and terms primed) and its cross-interface fields (a field one
 * interface lacks is read from the other's copy, batched). Values are given as ql-events gives them: dates as the
 * event's local time `YYYY-MM-DD HH:mm:ss`, the duration in seconds, the cost as entered.
 */
import { crossRead } from '../mapping/calendar-models.ts';
import { DateTime } from 'luxon';
import type { Context } from '../context.ts';
import { GatewayError, isGatewayError } from '../errors.ts';
import type { EventsOrderBy, EventsWhere, PlacesWhere } from '../generated/graphql.ts';
import type { EventModel, OrganizerModel, VenueModel } from '../mapping/models.ts';
import { isJson, str, type Json } from '../mapping/json.ts';
import { crossField, type OtherLoader } from '../resolvers/fields.ts';
import { eventsConnection, termsConnection } from '../resolvers/lists.ts';
import { eventBy as mainEventBy, termsOf } from '../resolvers/events.ts';
import { planEvents, planPlaces } from '../namespaces/calendar/where.ts';
import { legacyEvent, legacyOrganizer, legacyVenue } from '../namespaces/calendar/legacy-mapping.ts';
import { coreEvent, coreOrganizer, coreVenue } from '../namespaces/calendar/core-mapping.ts';
import { LEGACY_MAX_PER_PAGE, legacyGet, legacyList } from '../namespaces/calendar/legacy-requests.ts';
import { CORE_MAX_PER_PAGE, coreList } from '../namespaces/calendar/core-requests.ts';
import { readAll } from '../paging/window.ts';
import { listIdentity, memoryConnection } from '../routes/connection.ts';
import { orNull } from '../loaders/index.ts';
import {
  DAY_QUERY,
  checkWhere,
  dayRange,
  intIds,
  oneOrder,
  paging,
  renderedOnly,
  type DayQuery,
  type WpPaging,
} from './args.ts';
import { databaseIdArg, pathOf, uriOf, wpGlobalId } from './ids.ts';
import { fromTerm, wpConnection, type WpConnection, type WpTerm } from './models.ts';
import { homeOf, isContent, termsWhere, wpDate, type IdType } from './content.ts';
import { postSeo } from './seo.ts';

const otherEvent: OtherLoader<EventModel> = (iface, ctx) =>
  iface === 'core' ? ctx.loaders.eventCore : ctx.loaders.eventLegacy;
const otherVenue: OtherLoader<VenueModel> = (iface, ctx) =>
  iface === 'core' ? ctx.loaders.venueCore : ctx.loaders.venueLegacy;
const otherOrganizer: OtherLoader<OrganizerModel> = (iface, ctx) =>
  iface === 'core' ? ctx.loaders.organizerCore : ctx.loaders.organizerLegacy;

/** A field of the model, from the other interface's copy when this one lacks it. */
const ev = <K extends keyof EventModel>(k: K) => crossField<EventModel, K>(k, otherEvent);
const vn = <K extends keyof VenueModel>(k: K) => crossField<VenueModel, K>(k, otherVenue);
const og = <K extends keyof OrganizerModel>(k: K) => crossField<OrganizerModel, K>(k, otherOrganizer);

/**
 * WPGraphQL's fields that are the field table's own under the same name (mapping/calendar-models.ts: `allDay`,
 * `showMap`, a venue's `city`, ...), each read as the main graph reads it, from the other interface's copy when the
 * serving one lacks it. `names` are the fields the compatible type has; a field with a resolver of its own above wins.
 */
export const sameNamed = {
  Event: (names: ReadonlySet<string>) => pick(crossRead('Event'), names, ev),
  Venue: (names: ReadonlySet<string>) => pick(crossRead('Venue'), names, vn),
  Organizer: (names: ReadonlySet<string>) => pick(crossRead('Organizer'), names, og),
};

function pick<K extends string, R>(
  fields: readonly K[],
  names: ReadonlySet<string>,
  read: (k: K) => R,
): Record<string, R> {
  return Object.fromEntries(fields.filter((k) => names.has(k)).map((k) => [k, read(k)]));
}

async function value<T>(v: T | Promise<T>): Promise<T> {
  return v;
}

/** `2027-06-27T20:00:00+10:00` (the event's zone) -> `2027-06-27 20:00:00`, as ql-events prints `_EventStartDate`. */
const localTime = (iso: string | null | undefined): string | null => (iso ? iso.slice(0, 19).replace('T', ' ') : null);

type PlaceModel = VenueModel | OrganizerModel;
type Model = EventModel | PlaceModel;

/** What events, venues and organizers answer alike (WordPress posts of the calendar's types). */
function commonFields<M extends Model>(cross: <K extends keyof M>(k: K) => (m: M, a: unknown, c: Context) => unknown) {
  const get = <K extends keyof M>(k: K, m: M, ctx: Context) => value(cross(k)(m, {}, ctx));
  return {
    ...isContent,
    id: (m: M) => wpGlobalId('post', m.databaseId),
    databaseId: (m: M) => m.databaseId,
    slug: (m: M, _a: unknown, ctx: Context) => get('slug' as keyof M, m, ctx),
    status: (m: M, _a: unknown, ctx: Context) => get('status' as keyof M, m, ctx),
    link: (m: M, _a: unknown, ctx: Context) => get('url' as keyof M, m, ctx),
    uri: async (m: M, _a: unknown, ctx: Context) => uriOf(str(await get('url' as keyof M, m, ctx)), homeOf(ctx)),
    date: async (m: M, _a: unknown, ctx: Context) => wpDate(str(await get('publishedAt' as keyof M, m, ctx))),
    dateGmt: async (m: M, _a: unknown, ctx: Context) => wpDate(str(await get('publishedAtUtc' as keyof M, m, ctx))),
    modified: async (m: M, _a: unknown, ctx: Context) => wpDate(str(await get('modifiedAt' as keyof M, m, ctx))),
    modifiedGmt: async (m: M, _a: unknown, ctx: Context) => wpDate(str(await get('modifiedAtUtc' as keyof M, m, ctx))),
    title: (m: M, a: { format?: string | null }, ctx: Context) => {
      renderedOnly(a, 'title');
      return get('title' as keyof M, m, ctx);
    },
    content: (m: M, a: { format?: string | null }, ctx: Context) => {
      renderedOnly(a, 'content');
      return get('description' as keyof M, m, ctx);
    },
    excerpt: (m: M, a: { format?: string | null }, ctx: Context) => {
      renderedOnly(a, 'excerpt');
      return get('excerpt' as keyof M, m, ctx);
    },
    authorDatabaseId: (m: M, _a: unknown, ctx: Context) => get('authorId' as keyof M, m, ctx),
    authorId: async (m: M, _a: unknown, ctx: Context) => {
      const id = await get('authorId' as keyof M, m, ctx);
      return typeof id === 'number' && id > 0 ? wpGlobalId('user', id) : null;
    },
    guid: (m: M) => (isJson(m.raw) ? (str(m.raw.global_id) ?? null) : null),
    seo: (m: M) => postSeo(m.raw, m.kind.toLowerCase()),
  };
}

// ---- events

type DateQuery = DayQuery;

interface EventsWhereArgs {
  search?: string | null;
  startDateQuery?: DateQuery | null;
  endDateQuery?: DateQuery | null;
  orderby?: ({ field: string; order: string } | null)[] | null;
  in?: (string | number | null)[] | null;
  venuesIn?: (number | null)[] | null;
  tagIn?: (string | number | null)[] | null;
  tagSlugIn?: (string | null)[] | null;
  tag?: string | null;
  status?: string | null;
}

const EVENTS_WHERE = ['search', 'startDateQuery', 'endDateQuery', 'orderby', 'in', 'venuesIn', 'tagIn', 'tagSlugIn'];
const day = (d: DateTime) => d.toFormat("yyyy-MM-dd'T'00:00:00");

/** The first and last day (`yyyy-MM-dd`, inclusive) an event's start and end may fall on; null: no bound. */
interface DayBounds {
  startFrom: string | null;
  startTo: string | null;
  endFrom: string | null;
  endTo: string | null;
}

/**
 * A `DateQueryInput` (WordPress's date_query on the event's start or end) as the first and last day that match:
 * `after` is exclusive of the day (or month, or year) it names unless `inclusive`, `before` likewise, and
 * `year`/`month`/`day` match the days they cover.
 */
function dateBounds(q: DateQuery, which: 'start' | 'end', out: DayBounds): void {
  const arg = `where.${which}DateQuery`;
  checkWhere(arg.replace('where.', ''), q, DAY_QUERY);
  const b = dayRange(q, arg);
  const ymd = (d: DateTime | null) => (d ? d.toFormat('yyyy-MM-dd') : null);
  if (which === 'start') [out.startFrom, out.startTo] = [ymd(b.from), ymd(b.to)];
  else [out.endFrom, out.endTo] = [ymd(b.from), ymd(b.to)];
}

/**
 * The day bounds as the main graph's whole-day filters (in the site's time zone): a start on or after its first day
 * is `startDate` and an end on or before its last day `endDate`, which every release's legacy list applies
 * (`start_date`, `end_date`); a start on or before a day is `startsBefore` (before the end of that day) and an end on
 * or after a day `endsAfter` (after the end of the day before), which TEC 5.7 does not declare.
 */
function dayFilters(d: DayBounds, out: EventsWhere): void {
  const at = (ymd: string, days = 0) => day(DateTime.fromISO(ymd, { zone: 'UTC' }).plus({ days }));
  if (d.startFrom) out.startDate = at(d.startFrom);
  if (d.endTo) out.endDate = at(d.endTo);
  if (d.startTo) out.startsBefore = at(d.startTo);
  if (d.endFrom) out.endsAfter = at(d.endFrom, -1);
}

const EVENT_ORDER: Record<string, EventsOrderBy['field'] | undefined> = {
  DATE: 'PUBLISHED_AT',
  TITLE: 'TITLE',
  MENU_ORDER: 'MENU_ORDER',
  MODIFIED: 'MODIFIED_AT',
};

/**
 * WPGraphQL's order when `orderby` is not given: the publication date, newest first (WPGraphQL 1.8.6 sorts a post
 * list by `post_date` DESC, then by ID in the same direction to keep its cursors stable).
 */
const WP_DEFAULT_ORDER: EventsOrderBy = { field: 'PUBLISHED_AT', direction: 'DESC' };

function eventsWhere(w: EventsWhereArgs): { where: EventsWhere; orderBy: EventsOrderBy; days: DayBounds } {
  checkWhere('events', w, EVENTS_WHERE);
  const where: EventsWhere = {};
  if (w.search) where.search = w.search;
  const days: DayBounds = { startFrom: null, startTo: null, endFrom: null, endTo: null };
  if (w.startDateQuery) dateBounds(w.startDateQuery, 'start', days);
  if (w.endDateQuery) dateBounds(w.endDateQuery, 'end', days);
  dayFilters(days, where);
  const ids = intIds(w.in, 'where.in');
  if (ids) where.ids = ids;
  const venues = intIds(w.venuesIn, 'where.venuesIn');
  if (venues) where.venueIds = venues;
  const tags = intIds(w.tagIn, 'where.tagIn');
  if (tags) where.tagIds = tags;
  const tagSlugs = (w.tagSlugIn ?? []).filter((s): s is string => typeof s === 'string');
  if (tagSlugs.length) where.tagSlugs = tagSlugs;
  const o = oneOrder(w.orderby, 'events');
  let orderBy = WP_DEFAULT_ORDER;
  if (o) {
    const field = EVENT_ORDER[o.field];
    if (!field)
      throw GatewayError.badInput(`events: where.orderby ${o.field} is not an order the site's event lists take`, {
        arguments: ['where.orderby'],
      });
    orderBy = { field, direction: o.desc ? 'DESC' : 'ASC' };
  }
  return { where, orderBy, days };
}

/** Title order, as WordPress sorts `post_title` (case-insensitively in its default collation), then by ID. */
const byTitle =
  (desc: boolean) =>
  (a: { title?: string | null; databaseId: number }, b: { title?: string | null; databaseId: number }) =>
    ((a.title ?? '').localeCompare(b.title ?? '', 'en', { sensitivity: 'base' }) || a.databaseId - b.databaseId) *
    (desc ? -1 : 1);

/** Every item of a list the gateway then orders itself (a site without calendar-core has no ordered lists). */
async function readWhole<M>(
  ctx: Context,
  iface: 'legacy' | 'core',
  kind: 'events' | 'venues' | 'organizers',
  query: Record<string, never> | object,
  map: (raw: unknown) => M,
): Promise<M[]> {
  const q = { ...query };
  const raws = await readAll(
    (page, per) =>
      iface === 'legacy' ? legacyList(ctx.upstream, kind, q, page, per) : coreList(ctx.upstream, kind, q, page, per),
    iface === 'legacy' ? LEGACY_MAX_PER_PAGE : CORE_MAX_PER_PAGE,
    ctx.totals.for(`${iface}:${kind}:${JSON.stringify(q)}`),
  );
  return raws.map(map);
}

/** Whether the site's lists can answer `where` as it is (planEvents refuses what no list declares). */
function sitePlans(ctx: Context, where: EventsWhere, orderBy: EventsOrderBy | null): boolean {
  try {
    planEvents(ctx.site, where, orderBy);
    return true;
  } catch (err) {
    if (isGatewayError(err) && err.extensions.code === 'BAD_USER_INPUT') return false;
    throw err;
  }
}

/** The keys the gateway orders a list it read whole by (the models carry them): title, publication, modification. */
const ORDER_KEYS: Partial<Record<EventsOrderBy['field'], (e: EventModel) => string | null | undefined>> = {
  PUBLISHED_AT: (e) => e.publishedAtUtc,
  MODIFIED_AT: (e) => e.modifiedAtUtc,
};

/** As WordPress sorts by a date column, ties by ID in the same direction (WPGraphQL's cursor stabiliser). */
const byKey =
  <M extends { databaseId: number }>(key: (m: M) => string | null | undefined, desc: boolean) =>
  (a: M, b: M) =>
    ((key(a) ?? '').localeCompare(key(b) ?? '') || a.databaseId - b.databaseId) * (desc ? -1 : 1);

export async function eventsList(
  ctx: Context,
  args: WpPaging & { where?: EventsWhereArgs | null },
  category: number | null = null,
): Promise<WpConnection<EventModel>> {
  const { where, orderBy, days } = eventsWhere(args.where ?? {});
  if (category !== null) where.categoryIds = [category];
  const page = paging(args);
  // The site's own ordered list (calendar-core's) where it can apply every filter and the order.
  if (!where.ids && category === null && sitePlans(ctx, where, orderBy))
    return wpConnection(await eventsConnection(ctx, { ...page, where, orderBy }), (e) => e);
  // Otherwise the filtered list read whole and ordered here by the same key (TEC 5.7 has no calendar-core; term
  // filters are legacy-only), with the date bounds the site's lists do not declare (a start on or before a day, an
  // end on or after one: not on TEC 5.7) applied here to the events' local days, as ql-events compares them.
  const { ids, ...rest } = where;
  const local: Partial<DayBounds> = {};
  if (!sitePlans(ctx, rest, null)) {
    delete rest.startsBefore;
    delete rest.endsAfter;
    local.startTo = days.startTo;
    local.endFrom = days.endFrom;
  }
  const sort =
    orderBy.field === 'TITLE'
      ? byTitle(orderBy.direction === 'DESC')
      : ORDER_KEYS[orderBy.field]
        ? byKey(ORDER_KEYS[orderBy.field]!, orderBy.direction === 'DESC')
        : null;
  if (!sort)
    throw GatewayError.badInput(
      `events: where.orderby ${orderBy.field} needs calendar-core's ordered lists, which this site's filters or interfaces do not allow`,
      { arguments: ['where.orderby'] },
    );
  let all: EventModel[];
  if (ids && !Object.keys(rest).length) {
    // Only IDs (WPGraphQL's `in`): read by ID, published ones as WPGraphQL's default status keeps.
    const found = await ctx.loaders.event.loadMany(ids);
    all = found.filter((e): e is EventModel => !!e && !(e instanceof Error) && e.status === 'publish');
  } else {
    const plan = planEvents(ctx.site, rest, null);
    all = await readWhole(ctx, plan.iface, 'events', plan.query, (raw) => {
      const m = plan.iface === 'legacy' ? legacyEvent(raw) : coreEvent(raw);
      ctx.loaders.prime(m);
      return m;
    });
    if (ids) all = all.filter((e) => ids.includes(e.databaseId));
  }
  // A category's events, as WPGraphQL's tax_query pins them: the category itself, not its children (the calendar's
  // `categories` filter takes them in).
  if (category !== null)
    all = all.filter((e) => (e.categories?.map((t) => t.databaseId) ?? e.categoryIds ?? []).includes(category));
  if (local.startTo) all = all.filter((e) => (localTime(e.startDate) ?? '') <= `${local.startTo} 23:59:59`);
  if (local.endFrom) all = all.filter((e) => (localTime(e.endDate) ?? '') >= `${local.endFrom} 00:00:00`);
  all.sort(sort);
  const c = await memoryConnection(ctx, page, all, {
    list: listIdentity('wpgraphql:events', where, orderBy, category),
    id: (m) => m.databaseId,
  });
  return wpConnection(c, (e) => e);
}

export async function eventBy(ctx: Context, id: string, idType: IdType): Promise<EventModel | null> {
  if (idType === 'SLUG') return mainEventBy(ctx, id, 'SLUG');
  if (idType === 'URI') {
    const path = pathOf(id, homeOf(ctx));
    const slug = path.split('/').filter(Boolean).pop();
    const m = slug ? await mainEventBy(ctx, slug, 'SLUG') : null;
    return m && uriOf(m.url, homeOf(ctx)) === path ? m : null;
  }
  return ctx.loaders.event.load(databaseIdArg(id, idType, 'post', 'event'));
}

/** `cost_details.values` as entered (`_EventCost`), none for a free-form empty cost. */
async function costValues(ctx: Context, m: EventModel): Promise<string[]> {
  const d = await value(ev('costDetails')(m, {}, ctx));
  return d?.values ?? [];
}

const numbers = (vs: string[]) => vs.map(Number).filter((n) => Number.isFinite(n));

/** ql-events' linked data from TEC's JSON-LD (the legacy single read, the only answer that carries it). */
async function jsonLd(ctx: Context, m: EventModel): Promise<Json | null> {
  if (m.jsonLd !== undefined) return isJson(m.jsonLd) ? m.jsonLd : null;
  if (!ctx.site.hasLegacy)
    throw new GatewayError(
      'NAMESPACE_UNAVAILABLE',
      "Event.linkedData: the event's JSON-LD is served by the legacy interface only, which this site does not offer",
    );
  const full = await ctx.loaders.eventLegacySingle.load(m.databaseId);
  return full && isJson(full.jsonLd) ? full.jsonLd : null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** PHP's html_entity_decode for the entities WordPress prints (numeric ones and the common named ones). */
function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** WordPress's wp_strip_all_tags (script and style with their content, then every tag, then trimmed). */
const stripAllTags = (s: string) =>
  s
    .replace(/<(script|style)[^>]*?>.*?<\/\1>/gis, '')
    .replace(/<[^>]*>/g, '')
    .trim();

/** A linked-data text as ql-events answers it: empty is null. */
const text = (v: unknown): string | null => str(v) || null;
/** ql-events' name and description of events and organizers: entities decoded, tags stripped. */
const plain = (v: unknown): string | null => {
  const t = text(v);
  return t === null ? null : stripAllTags(decodeEntities(t)) || null;
};

const ld = (o: unknown) => {
  if (!isJson(o)) return null;
  const address = isJson(o.address) ? o.address : null;
  return {
    type: text(o['@type']),
    // ql-events 0.1.0's VenueLinkedData declares `name` and `description` twice; the second, unstripped, wins.
    name: o['@type'] === 'Place' ? text(o.name) : plain(o.name),
    description: o['@type'] === 'Place' ? text(o.description) : plain(o.description),
    url: text(o.url),
    telephone: text(o.telephone),
    email: text(o.email),
    sameAs: text(o.sameAs),
    address: address
      ? {
          type: text(address['@type']),
          streetAddress: text(address.streetAddress),
          addressLocality: text(address.addressLocality),
          addressRegion: text(address.addressRegion),
          postalCode: text(address.postalCode),
          addressCountry: text(address.addressCountry),
        }
      : null,
  };
};

/**
 * An event's categories or tags, read as the main graph reads them (termsOf): embedded in a legacy copy, else by
 * their IDs through the operation's term loaders, one `include=` request for a whole list's events, not a read of
 * every event's legacy copy. A password-protected event's calendar-core copy masks its terms (no IDs), so they come
 * from its legacy copy, which lists them.
 */
async function eventTerms(
  ctx: Context,
  m: EventModel,
  kind: 'categories' | 'tags',
  a: WpPaging & { where?: object | null },
  type: 'EventsCategory' | 'Tag',
): Promise<WpConnection<WpTerm>> {
  checkWhere(kind === 'categories' ? 'eventsCategories' : 'tags', a.where, []);
  const terms =
    m.source === 'core' && m.passwordProtected
      ? ((await value(ev(kind)(m, {}, ctx))) ?? [])
      : await termsOf(ctx, m, kind);
  return wpConnection(
    await memoryConnection(
      ctx,
      paging(a),
      terms.map((t) => fromTerm(t, type)),
    ),
    (t) => t,
  );
}

export const Event = {
  ...commonFields<EventModel>(ev),
  eventId: (m: EventModel) => m.databaseId,
  contentTypeName: () => 'tribe_events',
  startDate: async (m: EventModel, _a: unknown, ctx: Context) => localTime(await value(ev('startDate')(m, {}, ctx))),
  endDate: async (m: EventModel, _a: unknown, ctx: Context) => localTime(await value(ev('endDate')(m, {}, ctx))),
  cost: async (m: EventModel, _a: unknown, ctx: Context) => {
    const vs = await costValues(ctx, m);
    return vs.length ? vs.join(' - ') : null;
  },
  costMin: async (m: EventModel, _a: unknown, ctx: Context) => {
    const ns = numbers(await costValues(ctx, m));
    return ns.length ? String(Math.min(...ns)) : null;
  },
  costMax: async (m: EventModel, _a: unknown, ctx: Context) => {
    const ns = numbers(await costValues(ctx, m));
    return ns.length ? String(Math.max(...ns)) : null;
  },
  // The event's own `_EventCurrencySymbol` / `_EventCurrencyPosition` (the legacy answer's cost_details: empty when
  // unset, where the cost text shows the site's default), null when unset as ql-events answers.
  currencySymbol: async (m: EventModel, _a: unknown, ctx: Context) =>
    (await value(ev('costDetails')(m, {}, ctx)))?.currencySymbol || null,
  currencyPosition: async (m: EventModel, _a: unknown, ctx: Context) =>
    (await value(ev('costDetails')(m, {}, ctx)))?.currencyPosition || null,
  url: ev('website'),
  // The Events Calendar keeps no phone for an event (venues and organizers have one): ql-events' field is always null.
  phone: () => null,
  hideFromUpcoming: ev('hideFromListings'),
  origin: () => {
    throw GatewayError.notImplemented(
      "Event.origin: the site's REST answers do not carry an event's origin (`_EventOrigin`)",
    );
  },
  venue: async (m: EventModel, _a: unknown, ctx: Context) => (await value(ev('venues')(m, {}, ctx)))?.[0] ?? null,
  organizers: async (m: EventModel, a: WpPaging & { where?: object | null }, ctx: Context) => {
    checkWhere('organizers', a.where, []);
    // In WPGraphQL's default order (publication date, newest first, then ID), not the order the event lists them.
    const list = [...((await value(ev('organizers')(m, {}, ctx))) ?? [])].sort(byKey((o) => o.publishedAtUtc, true));
    return wpConnection(await memoryConnection(ctx, paging(a), list), (o) => o);
  },
  eventsCategories: (m: EventModel, a: WpPaging & { where?: object | null }, ctx: Context) =>
    eventTerms(ctx, m, 'categories', a, 'EventsCategory'),
  tags: (m: EventModel, a: WpPaging & { where?: object | null }, ctx: Context) => eventTerms(ctx, m, 'tags', a, 'Tag'),
  featuredImageDatabaseId: async (m: EventModel, _a: unknown, ctx: Context) =>
    (await value(ev('featuredImage')(m, {}, ctx)))?.databaseId ?? null,
  featuredImageId: async (m: EventModel, _a: unknown, ctx: Context) => {
    const id = (await value(ev('featuredImage')(m, {}, ctx)))?.databaseId;
    return id ? wpGlobalId('post', id) : null;
  },
  featuredImage: async (m: EventModel, _a: unknown, ctx: Context) => {
    const img = await value(ev('featuredImage')(m, {}, ctx));
    if (!img) return null;
    return {
      node: { kind: 'MediaItem', databaseId: img.databaseId, sourceUrl: img.url, altText: null, mimeType: null },
    };
  },
  author: () => {
    throw GatewayError.notImplemented('Event.author is not served: read authorDatabaseId (docs/wpgraphql.md)');
  },
  linkedData: async (m: EventModel, _a: unknown, ctx: Context) => {
    const o = await jsonLd(ctx, m);
    if (!o) return null;
    const organizer = Array.isArray(o.organizer) ? o.organizer[0] : o.organizer;
    return {
      type: text(o['@type']),
      name: plain(o.name),
      description: plain(o.description),
      url: text(o.url),
      startDate: text(o.startDate),
      endDate: text(o.endDate),
      location: ld(o.location),
      organizer: ld(organizer),
    };
  },
};

// ---- venues and organizers

interface PlacesWhereArgs {
  search?: string | null;
  in?: (string | number | null)[] | null;
  orderby?: ({ field: string; order: string } | null)[] | null;
}
const PLACES_WHERE = ['search', 'in', 'orderby'];

export async function placesList<K extends 'venues' | 'organizers'>(
  ctx: Context,
  kind: K,
  args: WpPaging & { where?: PlacesWhereArgs | null },
): Promise<WpConnection<K extends 'venues' ? VenueModel : OrganizerModel>> {
  const w = args.where ?? {};
  checkWhere(kind, w, PLACES_WHERE);
  const where: PlacesWhere = {};
  if (w.search) where.search = w.search;
  const ids = intIds(w.in, 'where.in');
  const o = oneOrder(w.orderby, kind);
  // WPGraphQL's default order: the publication date, newest first (the site's lists break ties as MySQL returns them).
  const sort = !o
    ? byKey((m: PlaceModel) => m.publishedAtUtc, true)
    : o.field === 'TITLE'
      ? byTitle(o.desc)
      : o.field === 'DATE'
        ? byKey((m: PlaceModel) => m.publishedAtUtc, o.desc)
        : o.field === 'MODIFIED'
          ? byKey((m: PlaceModel) => m.modifiedAtUtc, o.desc)
          : null;
  if (!sort)
    throw GatewayError.badInput(`${kind}: where.orderby ${o?.field} is not served (TITLE, DATE and MODIFIED are)`, {
      arguments: ['where.orderby'],
    });
  const page = paging(args);
  type M = K extends 'venues' ? VenueModel : OrganizerModel;
  // The calendar's venue and organizer lists take no order: the whole list (one request per 50), ordered here.
  const plan = planPlaces(ctx.site, kind, where);
  const legacy = plan.iface === 'legacy';
  const map = kind === 'venues' ? (legacy ? legacyVenue : coreVenue) : legacy ? legacyOrganizer : coreOrganizer;
  let all = await readWhole(ctx, plan.iface, kind, plan.query, (raw) => {
    const m = map(raw);
    ctx.loaders.prime(m);
    return m;
  });
  if (ids) all = all.filter((m) => ids.includes(m.databaseId));
  all.sort(sort);
  const c = await memoryConnection(ctx, page, all, {
    list: listIdentity(`wpgraphql:${kind}`, w),
    id: (m) => m.databaseId,
  });
  return wpConnection(c, (m) => m as M);
}

export async function placeBy(
  ctx: Context,
  kind: 'venues' | 'organizers',
  id: string,
  idType: IdType,
): Promise<PlaceModel | null> {
  const field = kind === 'venues' ? 'venue' : 'organizer';
  let slug: string | null = null;
  if (idType === 'SLUG') slug = id;
  if (idType === 'URI') slug = pathOf(id, homeOf(ctx)).split('/').filter(Boolean).pop() ?? null;
  if (slug === null)
    return (kind === 'venues' ? ctx.loaders.venue : ctx.loaders.organizer).load(
      databaseIdArg(id, idType, 'post', field),
    );
  if (!ctx.site.hasLegacy)
    throw GatewayError.badInput(
      `${field}(idType: ${idType}) needs the legacy interface, which this site does not offer`,
      {
        arguments: ['idType'],
      },
    );
  const s = slug;
  const m = await orNull(
    legacyGet(ctx.upstream, kind, s, true).then((raw) => (kind === 'venues' ? legacyVenue(raw) : legacyOrganizer(raw))),
  );
  if (m) ctx.loaders.prime(m);
  if (m && idType === 'URI' && uriOf(m.url, homeOf(ctx)) !== pathOf(id, homeOf(ctx))) return null;
  return m;
}

export const Venue = {
  ...commonFields<VenueModel>(vn),
  venueId: (m: VenueModel) => m.databaseId,
  contentTypeName: () => 'tribe_venue',
  url: vn('website'),
  // Built from the venue's own fields, as TEC builds a venue's JSON-LD: no `url` without Events Calendar Pro (TEC's
  // JSON_LD/Venue.php links a venue's page only with Pro), the website as `sameAs`, empty values null (ql-events).
  linkedData: async (m: VenueModel, _a: unknown, ctx: Context) => {
    const f = async <K extends keyof VenueModel>(k: K) => text(await value(vn(k)(m, {}, ctx)));
    return {
      type: 'Place',
      name: await f('title'),
      description: await f('description'),
      url: null,
      telephone: await f('phone'),
      sameAs: await f('website'),
      address: {
        type: 'PostalAddress',
        streetAddress: await f('address'),
        addressLocality: await f('city'),
        addressRegion: await f('stateProvince'),
        postalCode: await f('zip'),
        addressCountry: await f('country'),
      },
    };
  },
};

export const Organizer = {
  ...commonFields<OrganizerModel>(og),
  organizerId: (m: OrganizerModel) => m.databaseId,
  contentTypeName: () => 'tribe_organizer',
  // As TEC builds an organizer's JSON-LD (no `url` without Events Calendar Pro, the website as `sameAs`) and
  // ql-events prints it (name and description without tags, empty values null).
  linkedData: async (m: OrganizerModel, _a: unknown, ctx: Context) => {
    const f = async <K extends keyof OrganizerModel>(k: K) => text(await value(og(k)(m, {}, ctx)));
    return {
      type: 'Person',
      name: plain(await f('title')),
      description: plain(await f('description')),
      url: null,
      telephone: await f('phone'),
      email: await f('email'),
      sameAs: await f('website'),
    };
  },
};

// ---- events categories

export async function eventsCategoriesList(
  ctx: Context,
  args: WpPaging & { where?: Parameters<typeof termsWhere>[1] },
): Promise<WpConnection<WpTerm>> {
  const { where, orderBy } = termsWhere('eventsCategories', args.where, true);
  const c = await termsConnection(ctx, 'categories', { ...paging(args), where, orderBy });
  return wpConnection(c, (t) => fromTerm(t, 'EventsCategory'));
}
