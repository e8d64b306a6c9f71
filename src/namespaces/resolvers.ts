/**
 * The resolver maps of the namespaces gathered here, for src/resolvers/index.ts
 * to merge with the rest (a field defined twice throws there).
 */
import type { Resolvers } from '../generated/graphql.ts';
import { auditResolvers } from './audit/resolvers.ts';
import { blocksResolvers } from './blocks/routes.ts';
import { challengeResolvers } from './challenge/routes.ts';
import { duplicatePostResolvers } from './duplicate-post/routes.ts';
import { facetResolvers } from './facet/routes.ts';
import { governanceResolvers } from './governance/resolvers.ts';
import { oembedResolvers } from './oembed/routes.ts';
import { seoResolvers } from './seo/resolvers.ts';

export const NAMESPACE_RESOLVERS: readonly Resolvers[] = [
  seoResolvers, governanceResolvers, oembedResolvers, blocksResolvers, duplicatePostResolvers, challengeResolvers, facetResolvers, auditResolvers,
];
