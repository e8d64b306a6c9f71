/**
 * facet/v1 (FacetWP) as data: `Query.facets { refresh autocomplete fetch }`.
 * `refresh` and `autocomplete` are the same route with another `action`;
 * `fetch` is a search sent as a POST body (a read: namespace.ts).
 */
import type { FacetsResolvers, Resolvers } from '../../generated/graphql.ts';
import { resolversOf, routeRows, type FieldRoutes } from '../../routes/declare.ts';
import type { RouteUse } from '../../routes/route-use.ts';
import { facetFetchOf, facetRefreshOf, fetchData, refreshData, suggestionsOf } from './mapping.ts';

export const FACET_ROUTES: FieldRoutes<FacetsResolvers> = {
  refresh: {
    method: 'POST',
    path: '/facet/v1/refresh',
    body: ({ input }) => ({ action: 'facetwp_refresh', data: refreshData(input) }),
    result: facetRefreshOf,
  },
  autocomplete: {
    method: 'POST',
    path: '/facet/v1/refresh',
    body: ({ facetName, query }) => ({ action: 'facetwp_autocomplete_load', data: { facet_name: facetName, query } }),
    result: suggestionsOf,
  },
  fetch: {
    method: 'POST',
    path: '/facet/v1/fetch',
    body: ({ input }) => ({ data: fetchData(input) }),
    result: facetFetchOf,
  },
};

export const facetResolvers: Resolvers = {
  // Facets has no state of its own: its fields are the two FacetWP routes.
  Query: { facets: () => ({}) },
  Facets: resolversOf(FACET_ROUTES),
};
export const FACET_ROWS: RouteUse[] = routeRows('Facets', FACET_ROUTES);
