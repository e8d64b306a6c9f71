import type { NamespaceDescriptor } from '../descriptor.ts';

/** facet/v1 (FacetWP): facets are indexed from every post; `fetch` is a search sent as a POST body. */
export const FACET: NamespaceDescriptor = {
  name: 'facet/v1',
  indexed: true,
  family: 'facet',
  derivedFamily: true,
  readingPosts: ['/facet/v1/fetch'],
};
