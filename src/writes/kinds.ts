/**
 * The three post kinds the calendar writes (events, venues, organizers), as
 * data: how an input is checked and split into payloads (inputs.ts),
 * and how either interface's answer becomes the graph's model. The write
 * engine is written once over these; nothing else in writes/ branches on
 * the kind except through `asEvent` (what only events have: dates, zone,
 * references, the legacy update's complete state).
 */
import type { EventInput, OrganizerInput, VenueInput } from '../generated/graphql.ts';
import { coreEvent, coreOrganizer, coreVenue } from '../namespaces/calendar/core-mapping.ts';
import type { NodeType } from '../mapping/ids.ts';
import {
  eventPayloads,
  organizerPayloads,
  validateEvent,
  validateOrganizer,
  validateVenue,
  venuePayloads,
  type ConvertOptions,
  type FieldIssue,
  type SplitPayloads,
  type ValidateOptions,
} from './inputs.ts';
import { legacyEvent, legacyOrganizer, legacyVenue } from '../namespaces/calendar/legacy-mapping.ts';
import type { EventModel, OrganizerModel, VenueModel } from '../mapping/models.ts';
import type { Iface, PostKind } from '../namespaces/calendar/vocabulary.ts';

export type { PostKind } from '../namespaces/calendar/vocabulary.ts';
export type AnyInput = EventInput | VenueInput | OrganizerInput;
export type AnyModel = EventModel | VenueModel | OrganizerModel;

export interface KindSpec<I extends AnyInput, M extends AnyModel> {
  kind: PostKind;
  type: NodeType;
  validate(input: I, o: ValidateOptions): FieldIssue[];
  payloads(input: I, api: Iface, o: ConvertOptions): SplitPayloads;
  fromCore(body: unknown): M;
  fromLegacy(body: unknown): M;
  /** The input as an event input, for what only events have; null for venues and organizers. */
  asEvent(input: I): EventInput | null;
}

export const EVENTS: KindSpec<EventInput, EventModel> = {
  kind: 'events',
  type: 'Event',
  validate: validateEvent,
  payloads: eventPayloads,
  fromCore: coreEvent,
  fromLegacy: legacyEvent,
  asEvent: (input) => input,
};
export const VENUES: KindSpec<VenueInput, VenueModel> = {
  kind: 'venues',
  type: 'Venue',
  validate: validateVenue,
  payloads: venuePayloads,
  fromCore: coreVenue,
  fromLegacy: legacyVenue,
  asEvent: () => null,
};
export const ORGANIZERS: KindSpec<OrganizerInput, OrganizerModel> = {
  kind: 'organizers',
  type: 'Organizer',
  validate: validateOrganizer,
  payloads: organizerPayloads,
  fromCore: coreOrganizer,
  fromLegacy: legacyOrganizer,
  asEvent: () => null,
};

/** Either interface's answer as the kind's model. Throws UpstreamShapeError when the body is not one. */
export function modelOf(api: Iface, kind: PostKind, body: unknown): AnyModel {
  const spec = kind === 'events' ? EVENTS : kind === 'venues' ? VENUES : ORGANIZERS;
  return api === 'core' ? spec.fromCore(body) : spec.fromLegacy(body);
}
