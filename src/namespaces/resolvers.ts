/**
 * The resolver maps of the namespaces gathered here, for src/resolvers/index.ts
 * to merge with the rest (a field defined twice throws there).
 */
import type { Resolvers } from '../generated/graphql.ts';
import { aggregatorResolvers } from './aggregator/routes.ts';
import { auditResolvers } from './audit/resolvers.ts';
import { automationResolvers } from './automation/resolvers.ts';
import { blocksResolvers } from './blocks/routes.ts';
import { calendarExtrasResolvers } from './calendar-extras/routes.ts';
import { challengeResolvers } from './challenge/routes.ts';
import { duplicatePostResolvers } from './duplicate-post/routes.ts';
import { facetResolvers } from './facet/routes.ts';
import { governanceResolvers } from './governance/resolvers.ts';
import { oembedResolvers } from './oembed/routes.ts';
import { onboardingResolvers } from './onboarding/routes.ts';
import { seoResolvers } from './seo/resolvers.ts';
import { viewsResolvers } from './views/resolvers.ts';

export const NAMESPACE_RESOLVERS: readonly Resolvers[] = [
  seoResolvers,
  governanceResolvers,
  oembedResolvers,
  blocksResolvers,
  duplicatePostResolvers,
  challengeResolvers,
  facetResolvers,
  auditResolvers,
  calendarExtrasResolvers,
  viewsResolvers,
  onboardingResolvers,
  aggregatorResolvers,
  automationResolvers,
];
