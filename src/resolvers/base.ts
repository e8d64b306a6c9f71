/** node/nodes, Node type resolution, connection types, Site. */
import type { Context } from '../context.ts';
import type { QueryResolvers, Resolvers } from '../generated/graphql.ts';
import { fromGlobalId } from '../mapping/ids.ts';
import type { NodeModel } from '../mapping/models.ts';
import type { PostModel } from '../mapping/platform-models.ts';
import { GatewayError } from '../errors.ts';
import { connectionFields } from '../routes/connection.ts';
import { postById } from './posts.ts';

/** `node(id:)`: the object of a global ID, through the request's loaders (also federation's `_entities`). */
export async function nodeOf(ctx: Context, id: string): Promise<NodeModel | PostModel | null> {
  const g = fromGlobalId(id);
  if (!g) throw GatewayError.badInput(`node: ${JSON.stringify(id)} is not a global ID`, { arguments: ['id'] });
  const l = ctx.loaders;
  switch (g.type) {
    case 'Event':
      return l.event.load(g.id);
    case 'Venue':
      return l.venue.load(g.id);
    case 'Organizer':
      return l.organizer.load(g.id);
    case 'Category':
      return l.category.load(g.id);
    case 'Tag':
      return l.tag.load(g.id);
    case 'Series':
      return l.series.load(g.id);
    case 'Post':
      return postById(ctx, g.id);
  }
}

export const nodeQuery: Pick<QueryResolvers, 'node' | 'nodes'> = {
  node: (_p, { id }, ctx) => nodeOf(ctx, id),
  nodes: (_p, { ids }, ctx) => Promise.all(ids.map((id) => nodeOf(ctx, id))),
};

export const baseResolvers: Resolvers = {
  Node: { __resolveType: (m) => m.kind },
  EventConnection: connectionFields,
  VenueConnection: connectionFields,
  OrganizerConnection: connectionFields,
  CategoryConnection: connectionFields,
  TagConnection: connectionFields,
  SeriesConnection: connectionFields,
  Site: {
    name: (s) => s.name,
    description: (s) => s.description,
    url: (s) => s.url,
    home: (s) => s.home,
    timezone: (s) => s.timezone,
    gmtOffset: (s) => s.gmtOffset,
    namespaces: (s) => s.namespaces,
    calendarInterface: (s) => s.calendarInterface,
    maxBatchSize: (s) => s.maxBatchSize,
  },
};
