/**
 * Calendar write mutations (schema/writes.graphql): single, bulk and atomic.
 * Thin: arguments -> writes/calendar.ts (planning, sending, per-item results,
 * reconciliation: the write engine in writes/) -> payload.
 */
import type { MutationResolvers, Resolvers } from '../generated/graphql.ts';
import type { EventModel, OrganizerModel, VenueModel } from '../mapping/models.ts';
import { createMany, createOne, deleteMany, deleteOne, termWrite, updateMany, updateOne } from '../writes/calendar.ts';
import { EVENTS, ORGANIZERS, VENUES } from '../writes/kinds.ts';
import { updateMethod } from '../writes/plan.ts';
import { bulkPayload } from '../writes/results.ts';

/** Where each kind's model goes in a bulk result (`EventResult.event`, ...). */
const asEvent = (event: EventModel | null) => ({ event });
const asVenue = (venue: VenueModel | null) => ({ venue });
const asOrganizer = (organizer: OrganizerModel | null) => ({ organizer });

const M: MutationResolvers = {
  createEvent: async (_p, a, ctx) => ({ event: await createOne(ctx, EVENTS, a.input, a.via) }),
  updateEvent: async (_p, a, ctx) => ({
    event: await updateOne(ctx, EVENTS, a.id, a.idType, a.input, a.method, a.via),
  }),
  deleteEvent: async (_p, a, ctx) => {
    const r = await deleteOne(ctx, EVENTS, a.id, a.idType, Boolean(a.force), a.via);
    return { databaseId: r.databaseId, permanently: r.permanently, event: r.model };
  },
  createVenue: async (_p, a, ctx) => ({ venue: await createOne(ctx, VENUES, a.input, a.via) }),
  updateVenue: async (_p, a, ctx) => ({
    venue: await updateOne(ctx, VENUES, a.id, a.idType, a.input, a.method, a.via),
  }),
  deleteVenue: async (_p, a, ctx) => {
    const r = await deleteOne(ctx, VENUES, a.id, a.idType, Boolean(a.force), a.via);
    return { databaseId: r.databaseId, permanently: r.permanently, venue: r.model };
  },
  createOrganizer: async (_p, a, ctx) => ({ organizer: await createOne(ctx, ORGANIZERS, a.input, a.via) }),
  updateOrganizer: async (_p, a, ctx) => ({
    organizer: await updateOne(ctx, ORGANIZERS, a.id, a.idType, a.input, a.method, a.via),
  }),
  deleteOrganizer: async (_p, a, ctx) => {
    const r = await deleteOne(ctx, ORGANIZERS, a.id, a.idType, Boolean(a.force), a.via);
    return { databaseId: r.databaseId, permanently: r.permanently, organizer: r.model };
  },

  createCategory: async (_p, a, ctx) => ({
    category: (await termWrite(ctx, 'categories', 'POST', null, a.input)).model,
  }),
  updateCategory: async (_p, a, ctx) => ({
    category: (await termWrite(ctx, 'categories', updateMethod(a.method), a.id, a.input)).model,
  }),
  deleteCategory: async (_p, a, ctx) => {
    const r = await termWrite(ctx, 'categories', 'DELETE', a.id, null);
    return { databaseId: r.databaseId, category: r.model };
  },
  createTag: async (_p, a, ctx) => ({ tag: (await termWrite(ctx, 'tags', 'POST', null, a.input)).model }),
  updateTag: async (_p, a, ctx) => ({
    tag: (await termWrite(ctx, 'tags', updateMethod(a.method), a.id, a.input)).model,
  }),
  deleteTag: async (_p, a, ctx) => {
    const r = await termWrite(ctx, 'tags', 'DELETE', a.id, null);
    return { databaseId: r.databaseId, tag: r.model };
  },

  createEvents: async (_p, a, ctx) =>
    bulkPayload(await createMany(ctx, EVENTS, a.inputs, Boolean(a.atomic), a.via), asEvent),
  updateEvents: async (_p, a, ctx) =>
    bulkPayload(await updateMany(ctx, EVENTS, a.inputs, Boolean(a.atomic), a.method, a.via), asEvent),
  deleteEvents: async (_p, a, ctx) =>
    bulkPayload(await deleteMany(ctx, EVENTS, a.ids, Boolean(a.force), Boolean(a.atomic), a.via), asEvent),
  createVenues: async (_p, a, ctx) =>
    bulkPayload(await createMany(ctx, VENUES, a.inputs, Boolean(a.atomic), a.via), asVenue),
  updateVenues: async (_p, a, ctx) =>
    bulkPayload(await updateMany(ctx, VENUES, a.inputs, Boolean(a.atomic), a.method, a.via), asVenue),
  deleteVenues: async (_p, a, ctx) =>
    bulkPayload(await deleteMany(ctx, VENUES, a.ids, Boolean(a.force), Boolean(a.atomic), a.via), asVenue),
  createOrganizers: async (_p, a, ctx) =>
    bulkPayload(await createMany(ctx, ORGANIZERS, a.inputs, Boolean(a.atomic), a.via), asOrganizer),
  updateOrganizers: async (_p, a, ctx) =>
    bulkPayload(await updateMany(ctx, ORGANIZERS, a.inputs, Boolean(a.atomic), a.method, a.via), asOrganizer),
  deleteOrganizers: async (_p, a, ctx) =>
    bulkPayload(await deleteMany(ctx, ORGANIZERS, a.ids, Boolean(a.force), Boolean(a.atomic), a.via), asOrganizer),
};

export const mutationsResolvers: Resolvers = { Mutation: M };
