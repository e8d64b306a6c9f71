/**
 * site-governance/v1 as data: one declaration per route, keyed by the field
 * it serves (`Governance`, `GovernanceNetwork`); src/routes/declare.ts derives
 * the request, the resolver and the route-coverage row. Bodies are read by
 * mapping.ts (docs/sandbox-platform.md, "site-governance/v1").
 *
 * Hand-written, because the logic is real: the remote routes
 * (`GovernanceRemote`) take the shared key their parent field resolved from
 * an argument or a header (resolvers.ts), which a declaration's arguments do
 * not carry.
 */
import type { GovernanceNetworkResolvers, GovernanceResolvers } from '../../generated/graphql.ts';
import { GatewayError } from '../../errors.ts';
import { databaseIdOf } from '../../mapping/ids.ts';
import { routeRows, type FieldRoutes } from '../../routes/declare.ts';
import { handRoute } from '../../routes/hand.ts';
import { rowOf, type RouteUse } from '../../routes/route-use.ts';
import type { QueryValue, UpstreamSession } from '../../upstream/client.ts';
import * as m from './mapping.ts';

const NS = '/site-governance/v1';

export const GOVERNANCE_ROUTES: FieldRoutes<GovernanceResolvers> = {
  usersOverview: { method: 'GET', path: `${NS}/users-overview`, result: m.usersOverview },
  usersTrainingStatus: { method: 'GET', path: `${NS}/users-training-status`, result: m.usersTraining },
  contentReviewStatus: {
    method: 'GET',
    path: `${NS}/content-review-status/<post_id>`,
    check: ({ postId }) => {
      if (databaseIdOf(postId, 'Post') === null) {
        throw GatewayError.badInput(
          `postId: ${JSON.stringify(postId)} is neither a Post global ID nor a positive database ID`,
          { arguments: ['postId'] },
        );
      }
    },
    params: ({ postId }) => ({ post_id: String(databaseIdOf(postId, 'Post')) }),
    result: m.contentReview,
  },
};

export const GOVERNANCE_NETWORK_ROUTES: FieldRoutes<GovernanceNetworkResolvers> = {
  complianceOverview: { method: 'GET', path: `${NS}/network/compliance-overview`, result: m.complianceOverview },
  sitesOutOfCompliance: {
    method: 'GET',
    path: `${NS}/network/sites-out-of-compliance`,
    result: m.sitesOutOfCompliance,
  },
  usersOverdueTraining: { method: 'GET', path: `${NS}/network/users-overdue-training`, result: m.usersOverdueTraining },
  sitesTrainingCompliance: {
    method: 'GET',
    path: `${NS}/network/sites-training-compliance-summary`,
    result: m.sitesTrainingCompliance,
  },
  sitesQaCompliance: { method: 'GET', path: `${NS}/network/sites-qa-compliance-summary`, result: m.sitesQaCompliance },
  sitesContentReviewCompliance: {
    method: 'GET',
    path: `${NS}/network/sites-content-review-compliance-summary`,
    result: m.sitesContentReviewCompliance,
  },
};

/**
 * The remote routes: the shared key travels as `api_key` (spec "Authentication"); the cache never keeps what it opened
 * (namespace.ts).
 */
export type RemoteRoute = 'training-status' | 'content-review-meta';
/** The remote routes (hand-written: their shared key is their parent field's), the request's and the table's. */
const REMOTE: Readonly<Record<RemoteRoute, ReturnType<typeof handRoute<'GET'>>>> = {
  'training-status': handRoute('GET', `${NS}/remote/training-status`),
  'content-review-meta': handRoute('GET', `${NS}/remote/content-review-meta`),
};

export async function governanceRemote(
  session: UpstreamSession,
  what: RemoteRoute,
  apiKey: string,
  query: Record<string, QueryValue>,
): Promise<unknown> {
  const r = REMOTE[what];
  const res = await session.request({
    method: r.method,
    path: r.path,
    query: { ...query, api_key: apiKey },
    route: r.label,
  });
  return res.body;
}

export const GOVERNANCE_ROWS: RouteUse[] = [
  ...routeRows('Governance', GOVERNANCE_ROUTES),
  ...routeRows('GovernanceNetwork', GOVERNANCE_NETWORK_ROUTES),
  rowOf(REMOTE['training-status'], ['GovernanceRemote.trainingStatuses', 'GovernanceRemote.trainingStatus']),
  rowOf(REMOTE['content-review-meta'], 'GovernanceRemote.contentReviewMeta'),
];
