/**
 * oembed/1.0 as data: `Query.oembed` and `Query.oembedProxy`, one declaration each; mapping.ts reads JSON and XML
 * answers.
 */
import type { QueryResolvers, Resolvers } from '../../generated/graphql.ts';
import { resolversOf, routeRows, type FieldRoutes } from '../../routes/declare.ts';
import type { RouteUse } from '../../routes/route-use.ts';
import { oembedOf } from './mapping.ts';

export const OEMBED_ROUTES: FieldRoutes<QueryResolvers> = {
  oembed: {
    method: 'GET',
    path: '/oembed/1.0/embed',
    query: ({ url, maxWidth, format }) => ({ url, maxwidth: maxWidth, format: format?.toLowerCase() }),
    result: oembedOf,
  },
  oembedProxy: {
    method: 'GET',
    path: '/oembed/1.0/proxy',
    query: ({ url, maxWidth, maxHeight, format, discover }) => ({
      url,
      maxwidth: maxWidth,
      maxheight: maxHeight,
      format: format?.toLowerCase(),
      discover,
    }),
    result: oembedOf,
  },
};

export const oembedResolvers: Resolvers = { Query: resolversOf(OEMBED_ROUTES) };
export const OEMBED_ROWS: RouteUse[] = routeRows('Query', OEMBED_ROUTES);
