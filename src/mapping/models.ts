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
export type Source = 'legacy' | 'core';

export interface ImageSizeModel {
  name: string;
  url: string | null;
  width: number | null;
  height: number | null;
  mimeType: string | null;
}

export interface ImageModel {
  databaseId: number | null;
  url: string | null;
  width: number | null;
  height: number | null;
  extension: string | null;
  filesize: number | null;
  sizes: ImageSizeModel[];
}

export interface CostDetailsModel {
  currencySymbol: string | null;
  currencyCode: string | null;
  currencyPosition: string | null;
  values: string[];
}

interface PostModel {
  source: Source;
  databaseId: number;
  title?: string | null;
  description?: string | null;
  excerpt?: string | null;
  slug?: string | null;
  /** Raw WordPress status string. */
  status?: string | null;
  url?: string | null;
  authorId?: number | null;
  publishedAt?: string | null;
  publishedAtUtc?: string | null;
  modifiedAt?: string | null;
  modifiedAtUtc?: string | null;
  featuredImage?: ImageModel | null;
  raw: unknown;
}

export interface EventModel extends PostModel {
  kind: 'Event';
  startDate?: string | null;
  endDate?: string | null;
  startDateUtc?: string | null;
  endDateUtc?: string | null;
  timezone?: string | null;
  timezoneAbbr?: string | null;
  allDay?: boolean | null;
  duration?: number | null;
  multiday?: boolean | null;
  cost?: string | null;
  costDetails?: CostDetailsModel | null;
  website?: string | null;
  showMap?: boolean | null;
  showMapLink?: boolean | null;
  hideFromListings?: boolean | null;
  sticky?: boolean | null;
  featured?: boolean | null;
  virtual?: boolean | null;
  ticketed?: boolean | null;
  commentStatus?: string | null;
  pingStatus?: string | null;
  format?: string | null;
  template?: string | null;
  passwordProtected?: boolean | null;
  scheduleDetails?: string | null;
  jsonLd?: unknown;
  /** Embedded objects, when the source embeds them. */
  venues?: VenueModel[];
  organizers?: OrganizerModel[];
  categories?: TermModel[];
  tags?: TermModel[];
  /** IDs, when the source gives only IDs. */
  categoryIds?: number[];
  tagIds?: number[];
  seriesId?: number | null;
}

export interface VenueModel extends PostModel {
  kind: 'Venue';
  address?: string | null;
  city?: string | null;
  country?: string | null;
  province?: string | null;
  state?: string | null;
  stateProvince?: string | null;
  zip?: string | null;
  phone?: string | null;
  website?: string | null;
  showMap?: boolean | null;
  showMapLink?: boolean | null;
  latitude?: number | null;
  longitude?: number | null;
  directionsLink?: string | null;
}

export interface OrganizerModel extends PostModel {
  kind: 'Organizer';
  phone?: string | null;
  website?: string | null;
  email?: string | null;
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

export interface SeriesModel extends PostModel {
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
