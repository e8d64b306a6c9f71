/**
 * What both subscription transports do with an operation: who is asking (`callerOf`, `headersOf`), then the
 * operation pipeline (src/pipeline/), the same stages and code as `/graphql`: persisted documents and the
 * safelist, parse with the token cap, validation with the depth, alias and introspection rules, the operation the
 * transport serves (subscriptions only here), argument sizes and cost, then the context. Errors leave through the
 * pipeline's respond stage, with the caller's secrets scrubbed out, as a query's do.
 *
 * The transports serve each graph at its path (`SubscriptionGraph`): the main graph (`/graphql`) and, beside it, the
 * WPGraphQL-compatible graph (`otherGraph`: its schema and rules under the same stages, as its HTTP handler runs
 * them), on one hub, so a change is polled and re-read once whichever graph's subscribers listen.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema, type ValidationRule } from 'graphql';
import type { Config } from '../config.ts';
import { authorizationOf } from '../authorization.ts';
import { GatewayError } from '../errors.ts';
import type { OperationParams, Pipeline, Prepared } from '../pipeline/index.ts';
import { SECRET_HEADERS } from '../plugins/redaction.ts';
import { clientIp } from '../ratelimit.ts';
import type { Credential } from './hub.ts';

export type { OperationParams };

/** Who asks: the credential the site sees, and the key the per-caller limit counts. */
export interface Caller {
  credential: Credential;
  caller: string;
  /** The Authorization header could not be read by the site: every operation of this caller is refused with it. */
  refused?: GatewayError;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const sha = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 32);

/** Request headers (lower-case) -> the caller. `ip` is the client's address as the rate limits see it. */
export function callerOf(
  config: Config,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  req: IncomingMessage,
): Caller {
  const checked = authorizationOf(headers.authorization, config.authSchemes);
  const authorization = checked instanceof GatewayError ? undefined : checked;
  const own: Record<string, string | undefined> = { authorization };
  for (const h of SECRET_HEADERS) own[h] = first(headers[h]) || undefined;
  const key = sha(JSON.stringify(own));
  const caller =
    config.rateLimit.key === 'credential' && authorization
      ? `cred:${sha(authorization)}`
      : `ip:${clientIp(req, config.rateLimit.trustProxyHops)}`;
  return {
    credential: { key, authorization, headers: own },
    caller,
    ...(checked instanceof GatewayError ? { refused: checked } : {}),
  };
}

/**
 * WebSocket clients cannot set headers from a browser: the credential comes in `connection_init`'s
 * payload (`{ Authorization }`, any case, or `{ headers: { Authorization } }`), else from the upgrade
 * request's headers (server-side clients, routers).
 */
export function headersOf(
  req: IncomingMessage,
  params: Readonly<Record<string, unknown>> | undefined,
): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = { ...req.headers };
  const nested =
    params?.headers && typeof params.headers === 'object' ? (params.headers as Record<string, unknown>) : {};
  for (const source of [nested, params ?? {}]) {
    for (const [k, v] of Object.entries(source)) if (typeof v === 'string') out[k.toLowerCase()] = v;
  }
  return out;
}

/** A graph whose subscriptions the transports serve: its path, and the pipeline's stages over its schema. */
export interface SubscriptionGraph {
  /** Where it answers: the SSE requests and WebSocket upgrades of this path are its. */
  readonly path: string;
  /** The pipeline's stages for one subscription: its execution arguments, or the errors refusing it. */
  prepare<C>(transport: 'sse' | 'ws', raw: OperationParams, context: () => C): Prepared<C>;
}

/** The main graph, at `/graphql`: the pipeline's own stages. */
export const mainGraph = (pipeline: Pipeline): SubscriptionGraph => ({
  path: '/graphql',
  prepare: (transport, raw, context) => pipeline.operation(transport, raw, context),
});

/** A graph served beside the main one (the compatible graph): what it is, for `otherGraph`. */
export interface OtherGraph {
  path: string;
  schema: GraphQLSchema;
  /** GraphQL's rules as that graph has them, and the codes its rules' errors keep (pipeline.graph). */
  rules: readonly ValidationRule[];
  ruleCodes: readonly string[];
}

/** Another graph's subscriptions: the pipeline's stages in their order, on that graph's schema and rules. */
export function otherGraph(pipeline: Pipeline, graph: OtherGraph): SubscriptionGraph {
  const { operation } = pipeline.graph(graph.schema, graph.rules, graph.ruleCodes);
  return { path: graph.path, prepare: (transport, raw, context) => operation(transport, raw, context) };
}

export function createOperations(pipeline: Pipeline, config: Config) {
  /** The secrets of the gateway and of the caller: out of every error sent. */
  const secretsOf = (credential: Credential | undefined) =>
    pipeline.secretsOf(credential?.authorization, credential?.headers ?? {});

  /** The stages of `graph` for one subscription: its execution arguments, or the errors refusing it. */
  function prepare<C>(
    graph: SubscriptionGraph,
    transport: 'sse' | 'ws',
    raw: OperationParams,
    context: () => C,
  ): Prepared<C> {
    return graph.prepare(transport, raw, context);
  }

  /** Errors as a query's are: known codes kept, others masked, the caller's secrets out. */
  function formatErrors(
    errors: readonly GraphQLError[] | readonly GraphQLFormattedError[],
    credential: Credential | undefined,
  ): GraphQLFormattedError[] {
    return pipeline.formatErrors(errors, secretsOf(credential));
  }

  function formatResult<R extends { errors?: readonly unknown[] }>(result: R, credential: Credential | undefined): R {
    if (!result.errors?.length) return result;
    const errors = result.errors.map((e) =>
      e instanceof GraphQLError ? e : new GraphQLError(String((e as { message?: unknown })?.message ?? e)),
    );
    return { ...result, errors: formatErrors(errors, credential) };
  }

  return { prepare, formatErrors, formatResult };
}

export type Operations = ReturnType<typeof createOperations>;
