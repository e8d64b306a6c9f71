/**
 * calendar-core/v2/onboarding (spec D) as data: `Mutation.saveOnboardingWizard`.
 * The wizard answers 200 or 500 with `{success, message[]}` (a failing step
 * still says `success: true`), so a 500 of that shape is data; any other 500
 * is a real failure.
 */
import type { MutationResolvers, Resolvers } from '../../generated/graphql.ts';
import { GatewayError } from '../../errors.ts';
import { isJson } from '../../mapping/json.ts';
import { resolversOf, routeRows, type FieldRoutes } from '../../routes/declare.ts';
import type { RouteUse } from '../../routes/route-use.ts';
import { wizardBody, wizardResult } from './mapping.ts';

export const ONBOARDING_ROUTES: FieldRoutes<MutationResolvers> = {
  saveOnboardingWizard: {
    method: 'POST',
    path: '/calendar-core/v2/onboarding/wizard',
    body: ({ input }) => wizardBody(input),
    dataStatus: {
      status: 500,
      isData: (b) => isJson(b) && Array.isArray(b.message),
      refusal: (_b, _a, route) =>
        new GatewayError('UPSTREAM_ERROR', `Upstream failed (${route}) with HTTP 500.`, {
          upstream: { code: null, status: 500, route },
        }),
    },
    result: (body, { status }) => wizardResult(status, body),
  },
};

export const onboardingResolvers: Resolvers = { Mutation: resolversOf(ONBOARDING_ROUTES) };
export const ONBOARDING_ROWS: RouteUse[] = routeRows('Mutation', ONBOARDING_ROUTES);
