/**
 * The abuse limits that need the operation's variables, applied once Apollo
 * has resolved the operation (`didResolveOperation`: the parsed, validated
 * document *and* the variables) and before execution starts, so a refused
 * operation sends nothing upstream:
 *
 * - subscriptions are refused here: Apollo answers one result per request, so
 *   they are served by the SSE and WebSocket transports (src/subscriptions/,
 *   docs/subscriptions.md), which apply the same limits through `limitsCheck`;
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
import type { DocumentNode, GraphQLError, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { Config } from '../config.ts';
import { costError, operationCost, oversizedArgument, perOperation, resolveOperation, sizeError, type SizeViolation } from '../limits.ts';
import { GatewayError } from '../errors.ts';

export type LimitsConfig = Pick<
  Config['limits'],
  'maxCost' | 'defaultPageSize' | 'maxPageSize' | 'maxListItems' | 'maxSearchLength' | 'maxSlugLength' | 'maxUrlLength' | 'maxArgumentLength'
>;

/** What the limits say of an operation and its variables (null: variables that do not coerce, execution's to report). */
type Verdict = { oversized: SizeViolation } | { cost: number } | null;

/**
 * The check of one operation with its variables: the error refusing it (an argument too large, a cost
 * over MAX_QUERY_COST), or null. The plugin below applies it to queries and mutations, the
 * subscription transports to each subscription (src/subscriptions/operation.ts).
 */
export function limitsCheck(limits: LimitsConfig) {
  // One schema per server, so an operation node (without variables) decides the verdict.
  const verdictOf = perOperation((schema, document, operation, variables): Verdict => {
    const resolved = resolveOperation(schema, document, operation, variables);
    // Variables that do not coerce are refused by execution before any resolver runs.
    if (!resolved) return null;
    const oversized = oversizedArgument(resolved, limits);
    return oversized ? { oversized } : { cost: operationCost(resolved, { defaultPageSize: limits.defaultPageSize }) };
  });
  return (schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown> | undefined): GraphQLError | null => {
    const verdict = verdictOf(schema, document, operation, variables);
    if (!verdict) return null;
    if ('oversized' in verdict) return sizeError(verdict.oversized);
    return verdict.cost > limits.maxCost ? costError(verdict.cost, limits.maxCost) : null;
  };
}

export function limitsPlugin<C extends object>(limits: LimitsConfig): ApolloServerPlugin<C> {
  const check = limitsCheck(limits);
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(rc) {
          const op = rc.operation;
          if (!op) return;
          if (op.operation === 'subscription') {
            // A plain 400: well-formed GraphQL that wants a streaming transport. Nothing to log.
            rc.response.http.status = 400;
            throw new GatewayError(
              'OPERATION_NOT_SUPPORTED',
              'Subscriptions are not supported as a plain request: subscribe on this same URL over GraphQL over SSE (Accept: text/event-stream) or WebSocket (graphql-transport-ws); see docs/subscriptions.md.',
            );
          }
          const refused = check(rc.schema, rc.document, op, rc.request.variables);
          if (refused) {
            rc.response.http.status = 400;
            throw refused;
          }
        },
      };
    },
  };
}
