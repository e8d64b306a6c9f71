/**
 * The abuse limits that need the operation's variables: the operation
 * pipeline's limits stage (src/pipeline/) applies them once the operation is
 * resolved (the parsed, validated document *and* the variables) and before
 * execution starts, so a refused operation sends nothing upstream; on
 * `/graphql` from Apollo's `didResolveOperation` (pipeline/apollo.ts), on the
 * subscription transports to each subscription:
 *
 * - argument sizes (`limits.ts` `oversizedArgument`): ID lists, search
 *   strings, slugs, URLs, page sizes;
 * - the cost estimate (`limits.ts` `operationCost`) against `MAX_QUERY_COST`;
 * - a query's estimate of site requests (`limits.ts` `siteRequests`) against
 *   its caller's budget (`UPSTREAM_BUDGET`, `UPSTREAM_BUDGET_ANONYMOUS`).
 *
 * Why not graphql-query-complexity: that library looks fields up
 * with `getFields()`, which has no `__schema`/`__type`, so introspection
 * would cost nothing and need a second counter; the cost
 * model here (connections multiply by their page size, `nodes` = `edges`,
 * `nodes(ids:)` per ID) is a custom estimator either way, and the same walk
 * serves the argument sizes.
 */
import type { DocumentNode, GraphQLError, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { Config } from '../config.ts';
import {
  costError,
  operationCost,
  oversizedArgument,
  perOperation,
  resolveOperation,
  siteRequests,
  sizeError,
  type SizeViolation,
} from '../limits.ts';
import { GatewayError } from '../errors.ts';

export type LimitsConfig = Pick<
  Config['limits'],
  | 'maxCost'
  | 'defaultPageSize'
  | 'maxPageSize'
  | 'maxListItems'
  | 'maxSearchLength'
  | 'maxSlugLength'
  | 'maxUrlLength'
  | 'maxArgumentLength'
>;

/**
 * What the limits say of an operation and its variables (null: variables that do not coerce, execution's to report).
 */
type Verdict = { oversized: SizeViolation } | { cost: number; requests: number } | null;

/** The upstream budget of the operation's caller (OperationSession['budget']). */
export interface Budget {
  max: number;
  limit: 'UPSTREAM_BUDGET' | 'UPSTREAM_BUDGET_ANONYMOUS';
}

/**
 * The check of one operation with its variables: the error refusing it (an argument too large, a cost
 * over MAX_QUERY_COST, a query's site requests over `budget`), or null: the pipeline's limits stage.
 */
export function limitsCheck(limits: LimitsConfig) {
  // One schema per server, so an operation node (without variables) decides the verdict.
  const verdictOf = perOperation((schema, document, operation, variables): Verdict => {
    const resolved = resolveOperation(schema, document, operation, variables);
    // Variables that do not coerce are refused by execution before any resolver runs.
    if (!resolved) return null;
    const oversized = oversizedArgument(resolved, limits);
    if (oversized) return { oversized };
    const paging = { defaultPageSize: limits.defaultPageSize };
    return {
      cost: operationCost(resolved, paging),
      requests: operation.operation === 'query' ? siteRequests(resolved, paging) : 0,
    };
  });
  return (
    schema: GraphQLSchema,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown> | undefined,
    budget?: Budget,
  ): GraphQLError | null => {
    const verdict = verdictOf(schema, document, operation, variables);
    if (!verdict) return null;
    if ('oversized' in verdict) return sizeError(verdict.oversized);
    if (verdict.cost > limits.maxCost) return costError(verdict.cost, limits.maxCost);
    return budget && verdict.requests > budget.max ? budgetError(verdict.requests, budget) : null;
  };
}

/**
 * A query whose estimate of site requests (limits.ts `siteRequests`) is over
 * the caller's budget: refused before anything is sent, rather than spending
 * the budget and answering part of it.
 */
function budgetError(estimate: number, budget: Budget): GatewayError {
  const anonymous = budget.limit === 'UPSTREAM_BUDGET_ANONYMOUS';
  return new GatewayError(
    'REQUEST_BUDGET_EXCEEDED',
    `This ${anonymous ? 'anonymous ' : ''}query may need about ${estimate} requests to the site, over its budget of ${budget.max} (${budget.limit}), so none was sent. Ask for smaller pages or fewer nested lists${anonymous ? ', or send credentials' : ''}.`,
    { estimate, budget: budget.max, limit: budget.limit },
  );
}
