/** site-blocks/v1 as data: `Query.attachmentByUrl`; mapping.ts reads the answer. */
import type { QueryResolvers, Resolvers } from '../../generated/graphql.ts';
import { resolversOf, routeRows, type FieldRoutes } from '../../routes/declare.ts';
import type { RouteUse } from '../../routes/route-use.ts';
import { attachmentLookup } from './mapping.ts';

export const BLOCKS_ROUTES: FieldRoutes<QueryResolvers> = {
  attachmentByUrl: {
    method: 'GET',
    path: '/site-blocks/v1/get-attachment-id',
    query: ({ url }) => ({ url }),
    result: attachmentLookup,
  },
};

export const blocksResolvers: Resolvers = { Query: resolversOf(BLOCKS_ROUTES) };
export const BLOCKS_ROWS: RouteUse[] = routeRows('Query', BLOCKS_ROUTES);
