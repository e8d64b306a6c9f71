/** Query.event / Query.events and the Event type. */
import type { Context } from '../context.ts';
import type { EventResolvers, QueryResolvers } from '../generated/graphql.ts';
import { idArgument, toGlobalId } from '../mapping/ids.ts';
import { legacyEvent } from '../namespaces/calendar/legacy-mapping.ts';
import type { EventModel, TermModel } from '../mapping/models.ts';
import { legacyGet } from '../namespaces/calendar/legacy-requests.ts';
import { orNull } from '../loaders/index.ts';
import { GatewayError } from '../errors.ts';
import { NAMESPACE } from '../namespaces/calendar/vocabulary.ts';
import { crossRead } from '../mapping/calendar-models.ts';
import { crossField, crossFields, statusEnum, andThen, type OtherLoader } from './fields.ts';
import { otherCopy as otherCopyIface } from '../namespaces/calendar/choose.ts';
import { eventsConnection } from './lists.ts';
import { prefetchCategoryTree } from './prefetch.ts';

const otherEvent: OtherLoader<EventModel> = (iface, ctx) =>
  iface === 'core' ? ctx.loaders.eventCore : ctx.loaders.eventLegacy;

/** The fields read across interfaces by name (mapping/calendar-models.ts). */
const SCALARS = crossRead('Event');

/** The model itself, or the other interface's copy when this one lacks `key` (masked, or not served). */
async function otherCopy(ctx: Context, m: EventModel): Promise<EventModel> {
  const iface = otherCopyIface(ctx.site, m);
  return (iface && (await otherEvent(iface, ctx).load(m.databaseId))) || m;
}

async function withField(ctx: Context, m: EventModel, key: keyof EventModel): Promise<EventModel> {
  return m[key] !== undefined ? m : otherCopy(ctx, m);
}

/** Embedded venues or organizers, synchronously when this copy has them. */
function embedded<K extends 'venues' | 'organizers'>(
  ctx: Context,
  m: EventModel,
  key: K,
): NonNullable<EventModel[K]> | Promise<NonNullable<EventModel[K]>> {
  const v = m[key];
  if (v !== undefined) return v as NonNullable<EventModel[K]>;
  return otherCopy(ctx, m).then((c) => (c[key] ?? []) as NonNullable<EventModel[K]>);
}

/** Embedded terms synchronously (legacy lists embed them), else by ID. */
export function termsOf(
  ctx: Context,
  model: EventModel,
  kind: 'categories' | 'tags',
): TermModel[] | Promise<TermModel[]> {
  return model[kind] ?? termsById(ctx, model, kind);
}

async function termsById(ctx: Context, model: EventModel, kind: 'categories' | 'tags'): Promise<TermModel[]> {
  const m =
    model[kind] === undefined && (kind === 'categories' ? model.categoryIds : model.tagIds) === undefined
      ? await withField(ctx, model, kind)
      : model;
  const embedded = m[kind];
  if (embedded) return embedded;
  const ids = kind === 'categories' ? m.categoryIds : m.tagIds;
  if (!ids?.length) return [];
  if (!ctx.site.hasLegacy) {
    // No term routes on this site: the IDs are all there is.
    const k = kind === 'categories' ? 'Category' : 'Tag';
    return ids.map((id) => ({
      kind: k,
      databaseId: id,
      name: null,
      slug: null,
      description: null,
      count: null,
      url: null,
      parentId: null,
      raw: null,
    }));
  }
  const loader = kind === 'categories' ? ctx.loaders.category : ctx.loaders.tag;
  const found = await loader.loadMany(ids);
  return found.filter((t): t is TermModel => t !== null && !(t instanceof Error));
}

export async function eventBy(ctx: Context, id: string, idType: string | null | undefined): Promise<EventModel | null> {
  if (idType === 'SLUG') {
    if (!ctx.site.hasLegacy)
      throw GatewayError.badInput(`event(idType: SLUG) needs ${NAMESPACE.legacy}, which this site does not offer`, {
        arguments: ['idType'],
      });
    const m = await orNull(legacyGet(ctx.upstream, 'events', id, true).then(legacyEvent));
    if (m) ctx.loaders.prime(m);
    return m;
  }
  const dbId = idArgument(id, idType, 'Event');
  if (!dbId)
    throw GatewayError.badInput(`event: ${JSON.stringify(id)} is not an Event ID (a global ID or a database ID)`, {
      arguments: ['id'],
    });
  return ctx.loaders.event.load(dbId);
}

export const eventQuery: Pick<QueryResolvers, 'event' | 'events'> = {
  event: (_p, { id, idType }, ctx) => eventBy(ctx, id, idType),
  events: (_p, args, ctx, info) => {
    prefetchCategoryTree(ctx, info);
    return eventsConnection(ctx, args, info);
  },
};

export const Event: EventResolvers = {
  id: (m) => toGlobalId('Event', m.databaseId),
  databaseId: (m) => m.databaseId,
  status: (m, a, ctx) => andThen(crossField<EventModel, 'status'>('status', otherEvent)(m, a, ctx), statusEnum),
  ...crossFields(SCALARS, otherEvent),
  venues: (m, _a, ctx) => embedded(ctx, m, 'venues'),
  organizers: (m, _a, ctx) => embedded(ctx, m, 'organizers'),
  categories: (m, _a, ctx) => termsOf(ctx, m, 'categories'),
  tags: (m, _a, ctx) => termsOf(ctx, m, 'tags'),
  series: async (m, a, ctx) => {
    const id = await crossField<EventModel, 'seriesId'>('seriesId', otherEvent)(m, a, ctx);
    return id && ctx.site.hasCore ? ctx.loaders.series.load(id) : null;
  },
  jsonLd: async (m, _a, ctx) => {
    if (m.jsonLd !== undefined) return m.jsonLd;
    if (!ctx.site.hasLegacy) return null;
    return (await ctx.loaders.eventLegacySingle.load(m.databaseId))?.jsonLd ?? null;
  },
  raw: (m) => m.raw,
};
