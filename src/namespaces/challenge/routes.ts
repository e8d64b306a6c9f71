/**
 * site/v1 as data: the form challenge (`Query.challenge`, `Mutation.verifyChallenge`); mapping.ts reads and encodes.
 */
import type { MutationResolvers, QueryResolvers, Resolvers } from '../../generated/graphql.ts';
import { GatewayError } from '../../errors.ts';
import { resolversOf, routeRows, type FieldRoutes } from '../../routes/declare.ts';
import type { RouteUse } from '../../routes/route-use.ts';
import { challengeOf, challengePayload, verificationOf } from './mapping.ts';

const PATH = '/site/v1/challenge';

export const CHALLENGE_QUERY_ROUTES: FieldRoutes<QueryResolvers> = {
  challenge: { method: 'GET', path: PATH, result: challengeOf },
};

export const CHALLENGE_MUTATION_ROUTES: FieldRoutes<MutationResolvers> = {
  verifyChallenge: {
    method: 'POST',
    path: PATH,
    check: ({ solution, payload }) => {
      if ((solution == null) === (payload == null)) {
        throw GatewayError.badInput('verifyChallenge: pass exactly one of `solution` and `payload`', {
          arguments: ['solution', 'payload'],
        });
      }
    },
    body: ({ solution, payload }) => ({ payload: solution ? challengePayload(solution) : payload }),
    result: verificationOf,
  },
};

export const challengeResolvers: Resolvers = {
  Query: resolversOf(CHALLENGE_QUERY_ROUTES),
  Mutation: resolversOf(CHALLENGE_MUTATION_ROUTES),
};
export const CHALLENGE_ROWS: RouteUse[] = [
  ...routeRows('Query', CHALLENGE_QUERY_ROUTES),
  ...routeRows('Mutation', CHALLENGE_MUTATION_ROUTES),
];
