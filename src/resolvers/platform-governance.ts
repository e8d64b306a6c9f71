/**
 * `Query.governance { … }`: site-governance/v1 grouped by audience — this
 * site's users and content, the network (`manage_network`), and the remote
 * API (the shared key, passed as an argument and never logged).
 */
import type { GovernanceNetworkResolvers, GovernanceRemoteResolvers, GovernanceResolvers, QueryResolvers } from '../generated/graphql.ts';
import { databaseIdOf } from '../mapping/ids.ts';
import * as m from '../mapping/platform-governance.ts';
import { GatewayError } from '../errors.ts';
import { contentReviewStatus, governanceRead, governanceRemote } from '../upstream/platform.ts';

export const governanceQuery: Pick<QueryResolvers, 'governance'> = {
  // Carries nothing: each field's request is gated on site-governance/v1 by the operation's session.
  governance: () => ({}),
};

export const Governance: GovernanceResolvers = {
  usersOverview: async (_p, _a, ctx) => m.usersOverview(await governanceRead(ctx.upstream, 'usersOverview')),
  usersTrainingStatus: async (_p, _a, ctx) => m.usersTraining(await governanceRead(ctx.upstream, 'usersTrainingStatus')),
  contentReviewStatus: async (_p, { postId }, ctx) => {
    const id = databaseIdOf(postId, 'Post');
    if (id === null) throw GatewayError.badInput(`postId: ${JSON.stringify(postId)} is neither a Post global ID nor a positive database ID`, { arguments: ['postId'] });
    return m.contentReview(await contentReviewStatus(ctx.upstream, id));
  },
  network: () => ({}),
  remote: (_p, { apiKey }, ctx) => {
    const key = apiKey ?? ctx.header('x-governance-api-key') ?? '';
    if (!key.trim()) throw GatewayError.badInput('remote: give the API key as apiKey or in the X-Governance-Api-Key header', { arguments: ['apiKey'] });
    return { apiKey: key };
  },
};

export const GovernanceNetwork: GovernanceNetworkResolvers = {
  complianceOverview: async (_p, _a, ctx) => m.complianceOverview(await governanceRead(ctx.upstream, 'complianceOverview')),
  sitesOutOfCompliance: async (_p, _a, ctx) => m.sitesOutOfCompliance(await governanceRead(ctx.upstream, 'sitesOutOfCompliance')),
  usersOverdueTraining: async (_p, _a, ctx) => m.usersOverdueTraining(await governanceRead(ctx.upstream, 'usersOverdueTraining')),
  sitesTrainingCompliance: async (_p, _a, ctx) => m.sitesTrainingCompliance(await governanceRead(ctx.upstream, 'sitesTrainingCompliance')),
  sitesQaCompliance: async (_p, _a, ctx) => m.sitesQaCompliance(await governanceRead(ctx.upstream, 'sitesQaCompliance')),
  sitesContentReviewCompliance: async (_p, _a, ctx) => m.sitesContentReviewCompliance(await governanceRead(ctx.upstream, 'sitesContentReviewCompliance')),
};

export const GovernanceRemote: GovernanceRemoteResolvers = {
  trainingStatuses: async (r, _a, ctx) => m.remoteTrainings(await governanceRemote(ctx.upstream, 'training-status', r.apiKey, {})),
  trainingStatus: async (r, { userLogin, userEmail }, ctx) => {
    if (!userLogin && !userEmail) throw GatewayError.badInput('trainingStatus: pass userLogin or userEmail (trainingStatuses lists everyone)', { arguments: ['userLogin', 'userEmail'] });
    const body = await governanceRemote(ctx.upstream, 'training-status', r.apiKey, { user_login: userLogin || undefined, user_email: userEmail || undefined });
    return m.remoteTraining(Array.isArray(body) ? body[0] : body);
  },
  contentReviewMeta: async (r, { siteId }, ctx) => m.contentReviewMeta(await governanceRemote(ctx.upstream, 'content-review-meta', r.apiKey, { site_id: siteId })),
};
