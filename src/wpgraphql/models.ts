/**
 * What the compatible graph's resolvers hold. Posts, events, venues and organizers are the main graph's models
 * (src/mapping/), read by its loaders; terms, users and media items are wrapped here, because WPGraphQL tells apart
 * what the main graph keeps together (its `Category` is the calendar's; WPGraphQL's `Category` is the posts').
 */
import type { EventModel, OrganizerModel, TermModel, VenueModel, ConnectionModel } from '../mapping/models.ts';
import type { PostModel } from '../mapping/platform-models.ts';
import { connectionFields } from '../routes/connection.ts';

/** Which WPGraphQL type a term is, and the taxonomy WordPress names it by. */
export const TAXONOMIES = {
  EventsCategory: 'tribe_events_cat',
  Category: 'category',
  Tag: 'post_tag',
} as const;

export type WpTermKind = keyof typeof TAXONOMIES;

export interface WpTerm {
  kind: WpTermKind;
  databaseId: number;
  name: string | null;
  slug: string | null;
  description: string | null;
  count: number | null;
  /** The term archive's permalink; undefined when the answer that carried the term left it out (embedded terms). */
  link: string | null | undefined;
  parentId: number | null;
  /** The term's core/v2 answer, when it was read from there (it carries Yoast's head). */
  raw?: unknown;
}

export interface WpUser {
  kind: 'User';
  databaseId: number;
  name: string | null;
  /** Undefined when only the post's own answer is known (the users route not read): those fields need it. */
  slug?: string | null;
  description?: string | null;
  url?: string | null;
  link?: string | null;
}

/** The fields every content node read from core/v2 carries (a post's, as the main graph maps it). */
export type PostLike = Omit<PostModel, 'kind'>;

/** Pages and media items (WordPress's `page` and `attachment`), read from core/v2 as posts are. */
export interface WpContent extends PostLike {
  kind: 'Page' | 'MediaItem';
  parentId: number | null;
  menuOrder: number | null;
}

/** A post type as WPGraphQL's ContentType (from core/v2/types). */
export interface WpContentType {
  kind: 'ContentType';
  name: string;
  label: string | null;
  description: string | null;
  hierarchical: boolean | null;
  hasArchive: boolean | null;
  restBase: string | null;
}

export type WpNode = PostModel | WpContent | EventModel | VenueModel | OrganizerModel | WpTerm | WpUser | WpContentType;

export function fromTerm(t: TermModel, kind: WpTermKind): WpTerm {
  return {
    kind,
    databaseId: t.databaseId,
    name: t.name,
    slug: t.slug,
    description: t.description,
    count: t.count,
    link: t.url,
    parentId: t.parentId,
  };
}

export interface WpConnection<T> {
  nodes: T[];
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** A window of the main graph's paging (keyset or offset cursors) in WPGraphQL's connection shape. */
export function wpConnection<T, U>(c: ConnectionModel<T>, map: (t: T) => U): WpConnection<U> {
  const edges = connectionFields.edges(c);
  return {
    nodes: c.nodes.map(map),
    edges: edges.map((e) => ({ cursor: e.cursor, node: map(e.node) })),
    pageInfo: connectionFields.pageInfo(c),
  };
}
