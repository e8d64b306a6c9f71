/**
 * The list resolvers' common path: plan (which interface, which query) ->
 * page fetcher -> window -> models, primed into the loaders.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../context.ts';
import { nodeFields } from './selection.ts';
import type {
  EventsOrderBy,
  EventsWhere,
  PlacesWhere,
  SeriesWhere,
  TermsOrderBy,
  TermsWhere,
} from '../generated/graphql.ts';
import { readAll, type PagingArgs } from '../paging/window.ts';
import { coreEvent, coreOrganizer, coreSeries, coreVenue } from '../namespaces/calendar/core-mapping.ts';
import { legacyEvent, legacyOrganizer, legacyTerm, legacyVenue } from '../namespaces/calendar/legacy-mapping.ts';
import type {
  ConnectionModel,
  EventModel,
  OrganizerModel,
  SeriesModel,
  TermModel,
  VenueModel,
} from '../mapping/models.ts';
import { planEvents, planPlaces, planSeries, planTerms, WITH_IDS } from '../namespaces/calendar/where.ts';
import { GatewayError } from '../errors.ts';
import { CORE_MAX_PER_PAGE, coreList } from '../namespaces/calendar/core-requests.ts';
import { LEGACY_MAX_PER_PAGE, legacyList } from '../namespaces/calendar/legacy-requests.ts';
import { connection, listIdentity, memoryConnection } from '../routes/connection.ts';
import type { CursorScope } from '../paging/window.ts';

/** A list field's arguments: paging, and the generated `where`/`orderBy` input types of the list. */
export interface ListArgs<W, O = never> extends PagingArgs {
  where?: W | null;
  orderBy?: O | null;
}

/**
 * `where.ids`: the events are read by ID (batched; past events too, which the
 * legacy `include=` cannot reach), kept in the status asked for (published by
 * default, as every list), and ordered by start date like every event list.
 */
async function eventsByIds(
  ctx: Context,
  args: ListArgs<EventsWhere, EventsOrderBy>,
  where: EventsWhere,
  ids: readonly number[],
): Promise<ConnectionModel<EventModel>> {
  const other = Object.entries(where).flatMap(([k, v]) =>
    v !== undefined && v !== null && !WITH_IDS.includes(k) ? [k] : [],
  );
  if (other.length || args.orderBy) {
    const names = [...other.map((k) => `where.${k}`), ...(args.orderBy ? ['orderBy'] : [])];
    throw GatewayError.badInput(
      `events: where.ids cannot be combined with ${names.join(', ')} (only with where.status)`,
      { arguments: ['where.ids', ...names] },
    );
  }
  const statuses = new Set((where.status ?? ['PUBLISH']).map((s) => s.toLowerCase().replace('_', '-')));
  const found = await ctx.loaders.event.loadMany([...new Set(ids)]);
  const events: EventModel[] = [];
  for (const m of found) {
    if (m instanceof Error) throw m;
    if (m && statuses.has(String(m.status ?? 'publish'))) events.push(m);
  }
  events.sort((a, b) => (a.startDateUtc ?? '').localeCompare(b.startDateUtc ?? '') || a.databaseId - b.databaseId);
  return memoryConnection(ctx, args, events, eventCursors(where, null));
}

/**
 * A list of events: the interface is chosen from the filters and the fields
 * `info` selects below it (one list request where one interface has them all).
 */
export function eventsConnection(
  ctx: Context,
  args: ListArgs<EventsWhere, EventsOrderBy>,
  info?: GraphQLResolveInfo,
  pinned: EventsWhere = {},
): Promise<ConnectionModel<EventModel>> {
  const where = { ...(args.where ?? {}), ...pinned };
  if (where.ids !== undefined && where.ids !== null) return eventsByIds(ctx, args, where, where.ids);
  const plan = planEvents(ctx.site, where, args.orderBy, 'legacy', nodeFields(info));
  const legacy = plan.iface === 'legacy';
  return connection(
    ctx,
    args,
    (page, per, read) =>
      legacy
        ? legacyList(ctx.upstream, 'events', plan.query, page, per, read)
        : coreList(ctx.upstream, 'events', plan.query, page, per, read),
    legacy ? LEGACY_MAX_PER_PAGE : CORE_MAX_PER_PAGE,
    (raw) => {
      const m = legacy ? legacyEvent(raw) : coreEvent(raw);
      ctx.loaders.prime(m);
      return m;
    },
    { hint: `${plan.iface}:events:${JSON.stringify(plan.query)}`, cursors: eventCursors(where, args.orderBy) },
  );
}

/** Event lists run by start date unless ordered otherwise; dates are keys the gateway compares as the site does. */
const EVENT_KEYS: Record<EventsOrderBy['field'], ((m: EventModel) => string | null) | undefined> = {
  START_DATE: (m) => m.startDateUtc ?? null,
  PUBLISHED_AT: (m) => m.publishedAtUtc ?? null,
  MODIFIED_AT: (m) => m.modifiedAtUtc ?? null,
  TITLE: undefined,
  MENU_ORDER: undefined,
};

function eventCursors(where: EventsWhere, orderBy: EventsOrderBy | null | undefined): CursorScope<EventModel> {
  const key = EVENT_KEYS[orderBy?.field ?? 'START_DATE'];
  return {
    list: listIdentity('events', where, orderBy ?? null),
    id: (m) => m.databaseId,
    ...(key ? { key } : {}),
    desc: orderBy?.direction === 'DESC',
  };
}

/** Cursors that name their item (no key the gateway can compare: found by ID near where it was). */
function byId<T extends { databaseId: number }>(kind: string, ...args: unknown[]): CursorScope<T> {
  return { list: listIdentity(kind, ...args), id: (m) => m.databaseId };
}

export function placesConnection<K extends 'venues' | 'organizers'>(
  ctx: Context,
  kind: K,
  args: ListArgs<PlacesWhere>,
  info?: GraphQLResolveInfo,
): Promise<ConnectionModel<K extends 'venues' ? VenueModel : OrganizerModel>> {
  const plan = planPlaces(ctx.site, kind, args.where ?? {}, 'core', nodeFields(info));
  const legacy = plan.iface === 'legacy';
  const map = kind === 'venues' ? (legacy ? legacyVenue : coreVenue) : legacy ? legacyOrganizer : coreOrganizer;
  return connection(
    ctx,
    args,
    (page, per, read) =>
      legacy
        ? legacyList(ctx.upstream, kind, plan.query, page, per, read)
        : coreList(ctx.upstream, kind, plan.query, page, per, read),
    legacy ? LEGACY_MAX_PER_PAGE : CORE_MAX_PER_PAGE,
    (raw) => {
      const m = map(raw);
      ctx.loaders.prime(m);
      return m as K extends 'venues' ? VenueModel : OrganizerModel;
    },
    { hint: `${plan.iface}:${kind}:${JSON.stringify(plan.query)}`, cursors: byId(kind, args.where ?? null) },
  );
}

/** Term-list filters the gateway can apply to the complete taxonomy exactly as the site would. */
const TREE_FILTERS = new Set(['include', 'exclude', 'hide_empty', 'slug']);

function termFilter(
  { ids, excludeIds, hideEmpty, slug }: TermsWhere,
  parent: number | null,
): (t: TermModel) => boolean {
  return (t) =>
    (parent === null || (t.parentId ?? 0) === parent) &&
    (!ids || ids.includes(t.databaseId)) &&
    (!excludeIds || !excludeIds.includes(t.databaseId)) &&
    // The legacy term archives hide empty terms unless told otherwise.
    (hideEmpty === false || (t.count ?? 0) > 0) &&
    (slug === undefined || slug === null || t.slug === slug);
}

export async function termsConnection(
  ctx: Context,
  kind: 'categories' | 'tags',
  args: ListArgs<TermsWhere, TermsOrderBy>,
  pinned: TermsWhere = {},
): Promise<ConnectionModel<TermModel>> {
  const where = { ...(args.where ?? {}), ...pinned };
  const plan = planTerms(ctx.site, kind, where, args.orderBy);
  const map = (raw: unknown) => {
    const t = legacyTerm(raw, kind === 'categories' ? 'Category' : 'Tag');
    ctx.loaders.prime(t);
    return t;
  };
  const list = `legacy:${kind}:${JSON.stringify(plan.query)}`;
  const cursors = byId<TermModel>(kind, where, args.orderBy ?? null);
  if (plan.parent === null)
    return connection(
      ctx,
      args,
      (page, per, read) => legacyList(ctx.upstream, kind, plan.query, page, per, read),
      LEGACY_MAX_PER_PAGE,
      map,
      { hint: list, cursors },
    );
  // The legacy archives refuse `parent=0` (and any ID that is not a term): the
  // gateway filters by parent itself, over the complete taxonomy when the other
  // filters allow, else over every page of the site's answer.
  const keep = termFilter(where, plan.parent);
  if (Object.keys(plan.query).every((k) => TREE_FILTERS.has(k)))
    return memoryConnection(ctx, args, (await ctx.loaders.categoryTree()).filter(keep), cursors);
  const all = await readAll(
    (page, per) => legacyList(ctx.upstream, kind, plan.query, page, per),
    LEGACY_MAX_PER_PAGE,
    ctx.totals.for(list),
  );
  return memoryConnection(ctx, args, all.map(map).filter(keep), cursors);
}

export function seriesConnection(
  ctx: Context,
  args: ListArgs<SeriesWhere, EventsOrderBy>,
): Promise<ConnectionModel<SeriesModel>> {
  const plan = planSeries(ctx.site, args.where ?? {}, args.orderBy);
  return connection(
    ctx,
    args,
    (page, per, read) => coreList(ctx.upstream, 'series', plan.query, page, per, read),
    CORE_MAX_PER_PAGE,
    coreSeries,
    {
      hint: `core:series:${JSON.stringify(plan.query)}`,
      cursors: byId('series', args.where ?? null, args.orderBy ?? null),
    },
  );
}
