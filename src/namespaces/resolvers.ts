/**
 * The resolver maps of the namespaces gathered here, for src/resolvers/index.ts
 * to merge with the rest (a field defined twice throws there).
 */
import type { Resolvers } from '../generated/graphql.ts';
import { governanceResolvers } from './governance/resolvers.ts';
import { seoResolvers } from './seo/resolvers.ts';

export const NAMESPACE_RESOLVERS: readonly Resolvers[] = [seoResolvers, governanceResolvers];
