/** Query.venue(s) / Query.organizer(s) and the Venue and Organizer types. */
import type DataLoader from 'dataloader';
import type { Context } from '../context.ts';
import type { OrganizerResolvers, QueryResolvers, VenueResolvers } from '../generated/graphql.ts';
import { idArgument, toGlobalId, type NodeType } from '../mapping/ids.ts';
import { legacyOrganizer, legacyVenue } from '../namespaces/calendar/legacy-mapping.ts';
import type { OrganizerModel, VenueModel } from '../mapping/models.ts';
import { legacyGet } from '../namespaces/calendar/legacy-requests.ts';
import { orNull } from '../loaders/index.ts';
import { GatewayError } from '../errors.ts';
import { NAMESPACE } from '../namespaces/calendar/vocabulary.ts';
import { crossRead } from '../mapping/calendar-models.ts';
import { crossField, crossFields, statusEnum, andThen, type OtherLoader } from './fields.ts';
import { eventsConnection, placesConnection } from './lists.ts';

const otherVenue: OtherLoader<VenueModel> = (iface, ctx) =>
  iface === 'core' ? ctx.loaders.venueCore : ctx.loaders.venueLegacy;
const otherOrganizer: OtherLoader<OrganizerModel> = (iface, ctx) =>
  iface === 'core' ? ctx.loaders.organizerCore : ctx.loaders.organizerLegacy;

/** How one kind of place is read: its node type, its routes, its loader by ID and its legacy mapping. */
interface PlaceKind<M> {
  type: NodeType;
  kind: 'venues' | 'organizers';
  loader: (ctx: Context) => DataLoader<number, M | null>;
  fromLegacy: (raw: unknown) => M;
}

const VENUES: PlaceKind<VenueModel> = {
  type: 'Venue',
  kind: 'venues',
  loader: (ctx) => ctx.loaders.venue,
  fromLegacy: legacyVenue,
};
const ORGANIZERS: PlaceKind<OrganizerModel> = {
  type: 'Organizer',
  kind: 'organizers',
  loader: (ctx) => ctx.loaders.organizer,
  fromLegacy: legacyOrganizer,
};

async function placeBy<M extends VenueModel | OrganizerModel>(
  ctx: Context,
  { type, kind, loader, fromLegacy }: PlaceKind<M>,
  id: string,
  idType: string | null | undefined,
): Promise<M | null> {
  if (idType === 'SLUG') {
    if (!ctx.site.hasLegacy)
      throw GatewayError.badInput(
        `${type.toLowerCase()}(idType: SLUG) needs ${NAMESPACE.legacy}, which this site does not offer`,
        { arguments: ['idType'] },
      );
    const m = await orNull(legacyGet(ctx.upstream, kind, id, true).then(fromLegacy));
    if (m) ctx.loaders.prime(m);
    return m;
  }
  const dbId = idArgument(id, idType, type);
  if (!dbId)
    throw GatewayError.badInput(
      `${type.toLowerCase()}: ${JSON.stringify(id)} is not a ${type} ID (a global ID or a database ID)`,
      { arguments: ['id'] },
    );
  return loader(ctx).load(dbId);
}

export const placeQuery: Pick<QueryResolvers, 'venue' | 'venues' | 'organizer' | 'organizers'> = {
  venue: (_p, { id, idType }, ctx) => placeBy(ctx, VENUES, id, idType),
  venues: (_p, args, ctx, info) => placesConnection(ctx, 'venues', args, info),
  organizer: (_p, { id, idType }, ctx) => placeBy(ctx, ORGANIZERS, id, idType),
  organizers: (_p, args, ctx, info) => placesConnection(ctx, 'organizers', args, info),
};

export const Venue: VenueResolvers = {
  id: (m) => toGlobalId('Venue', m.databaseId),
  databaseId: (m) => m.databaseId,
  status: (m, a, ctx) => andThen(crossField<VenueModel, 'status'>('status', otherVenue)(m, a, ctx), statusEnum),
  ...crossFields(crossRead('Venue'), otherVenue),
  events: (m, args, ctx, info) => eventsConnection(ctx, args, info, { venueIds: [m.databaseId] }),
  raw: (m) => m.raw,
};

export const Organizer: OrganizerResolvers = {
  id: (m) => toGlobalId('Organizer', m.databaseId),
  databaseId: (m) => m.databaseId,
  status: (m, a, ctx) => andThen(crossField<OrganizerModel, 'status'>('status', otherOrganizer)(m, a, ctx), statusEnum),
  ...crossFields(crossRead('Organizer'), otherOrganizer),
  events: (m, args, ctx, info) => eventsConnection(ctx, args, info, { organizerIds: [m.databaseId] }),
  raw: (m) => m.raw,
};
