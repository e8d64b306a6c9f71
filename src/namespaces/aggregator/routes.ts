/** calendar/aggregator/v1 (spec E) as data: the import callbacks `reportImportBatch` and `reportImportState`. */
import type { MutationResolvers, Resolvers } from '../../generated/graphql.ts';
import { resolversOf, routeRows, type FieldRoutes } from '../../routes/declare.ts';
import type { RouteUse } from '../../routes/route-use.ts';
import { importBatchResult, importStateResult } from './mapping.ts';

export const AGGREGATOR_ROUTES: FieldRoutes<MutationResolvers> = {
  reportImportBatch: {
    method: 'POST',
    path: '/calendar/aggregator/v1/import/<import_id>/batch',
    params: ({ input }) => ({ import_id: input.importId }),
    body: ({ input }) => ({
      batch_hash: input.batchHash,
      status: { data: input.data, batch: input.batch },
      percentage_complete: input.percentageComplete,
      interval: input.interval ?? undefined,
      events: input.events ?? undefined,
    }),
    result: importBatchResult,
  },
  reportImportState: {
    method: 'POST',
    path: '/calendar/aggregator/v1/import/<import_id>/state',
    params: ({ input }) => ({ import_id: input.importId }),
    body: ({ input }) => ({
      batch_hash: input.batchHash,
      status: input.status.toLowerCase(),
      message: input.message,
      message_slug: input.messageSlug,
      percentage_complete: input.percentageComplete,
    }),
    result: importStateResult,
  },
};

export const aggregatorResolvers: Resolvers = { Mutation: resolversOf(AGGREGATOR_ROUTES) };
export const AGGREGATOR_ROWS: RouteUse[] = routeRows('Mutation', AGGREGATOR_ROUTES);
