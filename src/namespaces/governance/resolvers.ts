/**
 * `Query.governance { … }`: site-governance/v1 grouped by audience — this
 * site's users and content, the network (`manage_network`), and the remote
 * API (the shared key, passed as an argument or a header and never logged).
 * The reads are derived from their declarations (routes.ts); the remote
 * fields are hand-written (the key is their parent's).
 */
import type { GovernanceRemoteResolvers, Resolvers } from '../../generated/graphql.ts';
import { GatewayError } from '../../errors.ts';
import { resolversOf } from '../../routes/declare.ts';
import * as m from './mapping.ts';
import { GOVERNANCE_NETWORK_ROUTES, GOVERNANCE_ROUTES, governanceRemote } from './routes.ts';

const GovernanceRemote: GovernanceRemoteResolvers = {
  trainingStatuses: async (r, _a, ctx) =>
    m.remoteTrainings(await governanceRemote(ctx.upstream, 'training-status', r.apiKey, {})),
  trainingStatus: async (r, { userLogin, userEmail }, ctx) => {
    if (!userLogin && !userEmail)
      throw GatewayError.badInput('trainingStatus: pass userLogin or userEmail (trainingStatuses lists everyone)', {
        arguments: ['userLogin', 'userEmail'],
      });
    const body = await governanceRemote(ctx.upstream, 'training-status', r.apiKey, {
      user_login: userLogin || undefined,
      user_email: userEmail || undefined,
    });
    return m.remoteTraining(Array.isArray(body) ? body[0] : body);
  },
  contentReviewMeta: async (r, { siteId }, ctx) =>
    m.contentReviewMeta(await governanceRemote(ctx.upstream, 'content-review-meta', r.apiKey, { site_id: siteId })),
};

export const governanceResolvers: Resolvers = {
  // Carries nothing: each field's request is gated on site-governance/v1 by the operation's session.
  Query: { governance: () => ({}) },
  Governance: {
    ...resolversOf(GOVERNANCE_ROUTES),
    network: () => ({}),
    remote: (_p, { apiKey }, ctx) => {
      const key = apiKey ?? ctx.header('x-governance-api-key') ?? '';
      if (!key.trim())
        throw GatewayError.badInput('remote: give the API key as apiKey or in the X-Governance-Api-Key header', {
          arguments: ['apiKey'],
        });
      return { apiKey: key };
    },
  },
  GovernanceNetwork: resolversOf(GOVERNANCE_NETWORK_ROUTES),
  GovernanceRemote,
};
