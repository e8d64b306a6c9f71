/** All resolvers, one file per schema file. */
import type { Resolvers } from '../generated/graphql.ts';
import { baseResolvers, nodeQuery } from './base.ts';
import { Event, eventQuery } from './events.ts';
import { Organizer, Venue, placeQuery } from './places.ts';
import { DateTime, JSONScalar } from './scalars.ts';
import { Series, seriesQuery } from './series.ts';
import { Category, Tag, termQuery } from './taxonomy.ts';

export const resolvers: Resolvers = {
  ...baseResolvers,
  DateTime,
  JSON: JSONScalar,
  Query: { ...nodeQuery, ...eventQuery, ...placeQuery, ...termQuery, ...seriesQuery },
  Event,
  Venue,
  Organizer,
  Category,
  Tag,
  Series,
};
