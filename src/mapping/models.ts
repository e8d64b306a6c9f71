/**
 * The graph's objects as resolvers see them: one model per type whatever
 * interface served it. A field left `undefined` is one this source does not
 * serve; the resolver then fetches it from the other interface (batched).
 * `null` means the site said "none".
 *
 * Codegen maps the graph's types onto the models here and in the other
 * `*-models.ts` modules (codegen.ts), so these modules import nothing from the
 * generated types: the generated file imports only them, and no import circle
 * runs through it.
 */
import type { EventValues, OrganizerValues, PostValues, Side, VenueValues } from './calendar-models.ts';

export type { CostDetailsModel, ImageModel, ImageSizeModel } from './calendar-models.ts';

/** The interface a model was read through (mapping/calendar-models.ts spells the union). */
export type Source = Side;

/** What every calendar model has besides its fields. */
interface Sourced {
  source: Source;
  databaseId: number;
  raw: unknown;
}

/**
 * An event: its fields as the calendar's field table (mapping/calendar-models.ts) reads them, and what the
 * interfaces embed or list by ID.
 */
export interface EventModel extends Sourced, EventValues {
  kind: 'Event';
  /** Embedded objects, when the source embeds them. */
  venues?: VenueModel[];
  organizers?: OrganizerModel[];
  categories?: TermModel[];
  tags?: TermModel[];
  /** IDs, when the source gives only IDs. */
  categoryIds?: number[];
  tagIds?: number[];
}

export interface VenueModel extends Sourced, VenueValues {
  kind: 'Venue';
}

export interface OrganizerModel extends Sourced, OrganizerValues {
  kind: 'Organizer';
}

export interface TermModel {
  kind: 'Category' | 'Tag';
  databaseId: number;
  name: string | null;
  slug: string | null;
  description: string | null;
  count: number | null;
  url?: string | null;
  parentId: number | null;
  raw: unknown;
}

export interface SeriesModel extends Sourced, PostValues {
  kind: 'Series';
  eventIds: number[];
}

/** A page of a list, ready for the connection resolvers. */
export interface ConnectionModel<T> {
  nodes: T[];
  /** Offset of the first node in the whole list. */
  offset: number;
  totalCount: number | null;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  /** The cursor of a node at an offset (keyset cursors, paging/window.ts); absent: offset cursors. */
  cursor?: (node: T, offset: number) => string;
}

export type EventConnectionModel = ConnectionModel<EventModel>;
export type VenueConnectionModel = ConnectionModel<VenueModel>;
export type OrganizerConnectionModel = ConnectionModel<OrganizerModel>;
export type TermConnectionModel = ConnectionModel<TermModel>;
export type SeriesConnectionModel = ConnectionModel<SeriesModel>;

export type NodeModel = EventModel | VenueModel | OrganizerModel | TermModel | SeriesModel;

/**
 * The parent of a type whose fields each read the context and carry nothing
 * down (SeoQuery, SeoMutation, Governance, GovernanceNetwork, Facets).
 */
export type EmptyModel = Record<string, never>;

/** The parent of `AutomationA` / `AutomationB`: nothing but the connector's name. */
export interface AutomationNamespaceModel {
  connector: 'A' | 'B';
}
