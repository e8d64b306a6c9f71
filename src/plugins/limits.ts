/**
 * The abuse limits that need the operation's variables, applied once Apollo
 * has resolved the operation (`didResolveOperation`: the parsed, validated
 * document *and* the variables) and before execution starts, so a refused
 * operation sends nothing upstream:
 *
 * - subscriptions are refused (the gateway serves queries and mutations only);
 * - argument sizes (`limits.ts` `oversizedArgument`): ID lists, search
 *   strings, slugs, URLs, page sizes;
 * - the cost estimate (`limits.ts` `operationCost`) against `MAX_QUERY_COST`.
 *
 * Why a plugin and not graphql-query-complexity: that library looks fields up
 * with `getFields()`, which has no `__schema`/`__type`, so introspection
 * would cost nothing (issue 9, finding 4) and need a second counter; the cost
 * model here (connections multiply by their page size, `nodes` = `edges`,
 * `nodes(ids:)` per ID) is a custom estimator either way, and the same walk
 * serves the argument sizes.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { Config } from '../config.ts';
import { costError, operationCost, oversizedArgument, perOperation, resolveOperation, sizeError, type SizeViolation } from '../limits.ts';
import { GatewayError } from '../errors.ts';

export type LimitsConfig = Pick<
  Config['limits'],
  'maxCost' | 'defaultPageSize' | 'maxPageSize' | 'maxListItems' | 'maxSearchLength' | 'maxSlugLength' | 'maxUrlLength' | 'maxArgumentLength'
>;

/** What the limits say of an operation and its variables (null: variables that do not coerce, execution's to report). */
type Verdict = { oversized: SizeViolation } | { cost: number } | null;

export function limitsPlugin<C extends object>(limits: LimitsConfig): ApolloServerPlugin<C> {
  // One schema per server, so an operation node (without variables) decides the verdict.
  const verdictOf = perOperation((schema, document, operation, variables): Verdict => {
    const resolved = resolveOperation(schema, document, operation, variables);
    // Variables that do not coerce are refused by execution before any resolver runs.
    if (!resolved) return null;
    const oversized = oversizedArgument(resolved, limits);
    return oversized ? { oversized } : { cost: operationCost(resolved, { defaultPageSize: limits.defaultPageSize }) };
  });
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(rc) {
          const op = rc.operation;
          if (!op) return;
          if (op.operation === 'subscription') {
            // A plain 400: the request is well-formed GraphQL this server does not serve. Nothing to log.
            rc.response.http.status = 400;
            throw new GatewayError('OPERATION_NOT_SUPPORTED', 'Subscriptions are not supported by this gateway: send a query or a mutation.');
          }
          const verdict = verdictOf(rc.schema, rc.document, op, rc.request.variables);
          if (!verdict) return;
          if ('oversized' in verdict) {
            rc.response.http.status = 400;
            throw sizeError(verdict.oversized);
          }
          if (verdict.cost > limits.maxCost) {
            rc.response.http.status = 400;
            throw costError(verdict.cost, limits.maxCost);
          }
        },
      };
    },
  };
}
