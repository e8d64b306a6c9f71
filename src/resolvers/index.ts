/** All resolvers, one file per schema part, merged type by type. */
import type { Resolvers } from '../generated/graphql.ts';
import { baseResolvers, nodeQuery } from './base.ts';
import { Event, eventQuery } from './events.ts';
import { mutationsResolvers } from './mutations.ts';
import { Organizer, Venue, placeQuery } from './places.ts';
import { NAMESPACE_RESOLVERS } from '../namespaces/resolvers.ts';
import { postsResolvers } from './posts.ts';
import { DateTime, JSONScalar } from './scalars.ts';
import { Series, seriesQuery } from './series.ts';
import { Namespace, siteMutation, siteQuery } from './site.ts';
import { subscriptionResolvers } from './subscriptions.ts';
import { Category, Tag, termQuery } from './taxonomy.ts';

/** Merges resolver maps: object types field by field (a field defined twice is a bug, so it throws). */
export function mergeResolvers(...maps: Resolvers[]): Resolvers {
  const out: Record<string, unknown> = {};
  for (const map of maps) {
    for (const [type, fields] of Object.entries(map)) {
      const prev = out[type];
      if (prev === undefined) {
        out[type] = fields;
      } else if (
        typeof prev === 'object' &&
        prev !== null &&
        typeof fields === 'object' &&
        fields !== null &&
        !(fields as { name?: unknown }).name
      ) {
        for (const f of Object.keys(fields)) if (f in prev) throw new Error(`resolver ${type}.${f} is defined twice`);
        out[type] = { ...prev, ...fields };
      } else {
        throw new Error(`resolver ${type} is defined twice`);
      }
    }
  }
  return out as Resolvers;
}

export const resolvers: Resolvers = mergeResolvers(
  {
    ...baseResolvers,
    DateTime,
    JSON: JSONScalar,
    Query: { ...nodeQuery, ...siteQuery, ...eventQuery, ...placeQuery, ...termQuery, ...seriesQuery },
    Mutation: { ...siteMutation },
    Namespace,
    Event,
    Venue,
    Organizer,
    Category,
    Tag,
    Series,
  },
  mutationsResolvers,
  postsResolvers,
  subscriptionResolvers,
  ...NAMESPACE_RESOLVERS,
);
