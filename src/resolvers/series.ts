/** Query.series and the Series type (calendar-core/v1, spec B4). */
import type { QueryResolvers, SeriesResolvers } from '../generated/graphql.ts';
import { toGlobalId } from '../mapping/ids.ts';
import { statusEnum } from './fields.ts';
import { eventsConnection, seriesConnection } from './lists.ts';

export const seriesQuery: Pick<QueryResolvers, 'series'> = {
  series: (_p, args, ctx) => seriesConnection(ctx, args),
};

export const Series: SeriesResolvers = {
  id: (s) => toGlobalId('Series', s.databaseId),
  databaseId: (s) => s.databaseId,
  title: (s) => s.title ?? null,
  description: (s) => s.description ?? null,
  slug: (s) => s.slug ?? null,
  status: (s) => statusEnum(s.status),
  url: (s) => s.url ?? null,
  publishedAt: (s) => s.publishedAt ?? null,
  publishedAtUtc: (s) => s.publishedAtUtc ?? null,
  eventIds: (s) => s.eventIds,
  events: (s, args, ctx, info) => eventsConnection(ctx, args, info, { seriesIds: [s.databaseId] }),
  raw: (s) => s.raw,
};
