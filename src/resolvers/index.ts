/** All resolvers, one file per schema file. */
import type { Resolvers } from '../generated/graphql.ts';
import { baseResolvers, nodeQuery } from './base.ts';
import { Event, eventQuery } from './events.ts';
import { Organizer, Venue, placeQuery } from './places.ts';
import { DateTime, JSONScalar } from './scalars.ts';
import { Series, seriesQuery } from './series.ts';
import { Namespace, siteMutation, siteQuery } from './site.ts';
import { Category, Tag, termQuery } from './taxonomy.ts';

export const resolvers: Resolvers = {
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
};
