/**
 * Calendar write mutations (schema/writes.graphql): single, bulk and atomic.
 * Thin: arguments -> writes/calendar.ts (planning, sending, per-item results,
 * reconciliation: the write engine in writes/) -> payload. Each resolver is an
 * `engineMutation`: one that answered without running the engine would be an
 * error (and test/e2e/mutations-engine.test.ts finds it).
 */
import type { MutationResolvers, Resolvers } from '../generated/graphql.ts';
import type { EventModel, OrganizerModel, VenueModel } from '../mapping/models.ts';
import { createMany, createOne, deleteMany, deleteOne, updateMany, updateOne } from '../writes/calendar.ts';
import { engineMutation as E } from '../writes/engine.ts';
import { CATEGORIES, EVENTS, ORGANIZERS, TAGS, VENUES } from '../writes/kinds.ts';
import { bulkPayload } from '../writes/results.ts';

/** Where each kind's model goes in a bulk result (`EventResult.event`, ...). */
const asEvent = (event: EventModel | null) => ({ event });
const asVenue = (venue: VenueModel | null) => ({ venue });
const asOrganizer = (organizer: OrganizerModel | null) => ({ organizer });

const M: MutationResolvers = {
  createEvent: E(async (_p, a, ctx) => ({ event: await createOne(ctx, EVENTS, a.input, a.via) })),
  updateEvent: E(async (_p, a, ctx) => ({
    event: await updateOne(ctx, EVENTS, a.id, a.idType, a.input, a.method, a.via),
  })),
  deleteEvent: E(async (_p, a, ctx) => {
    const r = await deleteOne(ctx, EVENTS, a.id, a.idType, Boolean(a.force), a.via);
    return { databaseId: r.databaseId, permanently: r.permanently, event: r.model };
  }),
  createVenue: E(async (_p, a, ctx) => ({ venue: await createOne(ctx, VENUES, a.input, a.via) })),
  updateVenue: E(async (_p, a, ctx) => ({
    venue: await updateOne(ctx, VENUES, a.id, a.idType, a.input, a.method, a.via),
  })),
  deleteVenue: E(async (_p, a, ctx) => {
    const r = await deleteOne(ctx, VENUES, a.id, a.idType, Boolean(a.force), a.via);
    return { databaseId: r.databaseId, permanently: r.permanently, venue: r.model };
  }),
  createOrganizer: E(async (_p, a, ctx) => ({ organizer: await createOne(ctx, ORGANIZERS, a.input, a.via) })),
  updateOrganizer: E(async (_p, a, ctx) => ({
    organizer: await updateOne(ctx, ORGANIZERS, a.id, a.idType, a.input, a.method, a.via),
  })),
  deleteOrganizer: E(async (_p, a, ctx) => {
    const r = await deleteOne(ctx, ORGANIZERS, a.id, a.idType, Boolean(a.force), a.via);
    return { databaseId: r.databaseId, permanently: r.permanently, organizer: r.model };
  }),

  createCategory: E(async (_p, a, ctx) => ({ category: await createOne(ctx, CATEGORIES, a.input, null) })),
  updateCategory: E(async (_p, a, ctx) => ({
    category: await updateOne(ctx, CATEGORIES, a.id, null, a.input, a.method, null),
  })),
  deleteCategory: E(async (_p, a, ctx) => {
    const r = await deleteOne(ctx, CATEGORIES, a.id, null, false, null);
    return { databaseId: r.databaseId, category: r.model };
  }),
  createTag: E(async (_p, a, ctx) => ({ tag: await createOne(ctx, TAGS, a.input, null) })),
  updateTag: E(async (_p, a, ctx) => ({ tag: await updateOne(ctx, TAGS, a.id, null, a.input, a.method, null) })),
  deleteTag: E(async (_p, a, ctx) => {
    const r = await deleteOne(ctx, TAGS, a.id, null, false, null);
    return { databaseId: r.databaseId, tag: r.model };
  }),

  createEvents: E(async (_p, a, ctx) =>
    bulkPayload(await createMany(ctx, EVENTS, a.inputs, Boolean(a.atomic), a.via), asEvent),
  ),
  updateEvents: E(async (_p, a, ctx) =>
    bulkPayload(await updateMany(ctx, EVENTS, a.inputs, Boolean(a.atomic), a.method, a.via), asEvent),
  ),
  deleteEvents: E(async (_p, a, ctx) =>
    bulkPayload(await deleteMany(ctx, EVENTS, a.ids, Boolean(a.force), Boolean(a.atomic), a.via), asEvent),
  ),
  createVenues: E(async (_p, a, ctx) =>
    bulkPayload(await createMany(ctx, VENUES, a.inputs, Boolean(a.atomic), a.via), asVenue),
  ),
  updateVenues: E(async (_p, a, ctx) =>
    bulkPayload(await updateMany(ctx, VENUES, a.inputs, Boolean(a.atomic), a.method, a.via), asVenue),
  ),
  deleteVenues: E(async (_p, a, ctx) =>
    bulkPayload(await deleteMany(ctx, VENUES, a.ids, Boolean(a.force), Boolean(a.atomic), a.via), asVenue),
  ),
  createOrganizers: E(async (_p, a, ctx) =>
    bulkPayload(await createMany(ctx, ORGANIZERS, a.inputs, Boolean(a.atomic), a.via), asOrganizer),
  ),
  updateOrganizers: E(async (_p, a, ctx) =>
    bulkPayload(await updateMany(ctx, ORGANIZERS, a.inputs, Boolean(a.atomic), a.method, a.via), asOrganizer),
  ),
  deleteOrganizers: E(async (_p, a, ctx) =>
    bulkPayload(await deleteMany(ctx, ORGANIZERS, a.ids, Boolean(a.force), Boolean(a.atomic), a.via), asOrganizer),
  ),
};

export const mutationsResolvers: Resolvers = { Mutation: M };
