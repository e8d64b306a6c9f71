/**
 * One operation pipeline for the gateway's three transports: `/graphql` (Apollo Server over node:http), GraphQL
 * over SSE (subscriptions/sse.ts) and over WebSocket (subscriptions/ws.ts). An operation goes through these stages,
 * in this order, whichever way it came:
 *
 *   rate limit           the client's count (ratelimit.ts): before anything of the request is read, so a client
 *                        over its limit costs no more than the check; once per HTTP request, WebSocket upgrade
 *                        and `subscribe` message
 *   persisted documents  a manifest id -> its text; with SAFELIST=1 anything else refused (plugins/safelist.ts)
 *   parse                nesting scan and the token cap (document.ts)
 *   validate             GraphQL's rules and the gateway's: depth, aliases, introspection (limits.ts)
 *   limits               the operation the transport serves, argument sizes, cost, a query's site requests
 *                        against its caller's budget (plugins/limits.ts `limitsCheck`)
 *   context              one context per operation (context.ts): the caller, the upstream session, the loaders
 *   execute              graphql-js: Apollo's execution for /graphql; `subscribe` through graphql-sse and
 *                        graphql-ws for the others, given the checked document (they parse nothing themselves)
 *   respond              errors formatted and scrubbed the same way (respond.ts), answers written by the transport
 *
 * Each transport calls these functions, the same objects: /graphql through its route (http-routes.ts: rate limit,
 * persisted documents, context) and Apollo's hooks (apollo.ts: parse, validate, limits); the subscription
 * transports through `operation` below. A document is parsed and validated once per operation: Apollo is handed
 * the one parsed here and parses nothing. Every refusal is counted by the stage that made it and the transport
 * (`sitegraph_operations_refused_total`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  GraphQLError,
  getOperationAST,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import { Counter, type Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { createContext, type Context, type ContextInit } from '../context.ts';
import { GatewayError, isGatewayError } from '../errors.ts';
import { gatewayRules } from '../limits.ts';
import type { TotalHints } from '../paging/hints.ts';
import { limitsCheck, type Budget } from '../plugins/limits.ts';
import { SECRET_HEADERS, authorizationSecrets, credentialSecrets } from '../plugins/redaction.ts';
import {
  applyPersistedDocuments,
  documentIdWithoutManifest,
  persistedBody,
  type PersistedDocuments,
  type Refusal,
} from '../plugins/safelist.ts';
import type { RateGate, RateLimitRefusal } from '../ratelimit.ts';
import type { SiteState } from '../site.ts';
import type { SiteInfo } from '../upstream/discovery.ts';
import type { WriteLocks } from '../store/lock.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { documentStages, type CheckedDocument, type DocumentStages } from './document.ts';
import { formatErrors } from './respond.ts';

/** The stages, in the order an operation goes through them. */
export const STAGES = [
  'rate limit',
  'persisted documents',
  'parse',
  'validate',
  'limits',
  'context',
  'execute',
  'respond',
] as const;
export type Stage = (typeof STAGES)[number];

/** `http`: POST or GET /graphql; `sse`: GraphQL over SSE; `ws`: graphql-transport-ws. */
export type Transport = 'http' | 'sse' | 'ws';

/** A subscription request's fields, from an SSE request or a WebSocket `subscribe` message. */
export interface OperationParams {
  query?: unknown;
  documentId?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
}

export interface PipelineDeps {
  config: Config;
  /** The schema Apollo serves (federated or not). */
  schema: GraphQLSchema;
  persisted: PersistedDocuments | null;
  rateLimit: RateGate;
  client: UpstreamClient;
  site: SiteState;
  /** The namespaces the spec indexes, for the sessions (namespaces/catalog.ts). */
  namespaces: readonly string[];
  totals: TotalHints;
  locks: WriteLocks;
  registry: Registry;
}

/** What a context is made of beyond what the gateway shares: the caller, the operation's signal, its record. */
export type ContextInput = Omit<ContextInit, 'client' | 'namespaces' | 'totals' | 'locks' | 'config'> & {
  /** The settings the context is made with, when not the gateway's (a group of subscribers' shared budget). */
  config?: Config;
};

export type Prepared<C> = { args: ExecutionArgs & { contextValue: C } } | { errors: GraphQLError[] };

const coded = (message: string, code: string) => new GraphQLError(message, { extensions: { code } });
const errorsOf = (r: Refusal) => r.body.errors.map((e) => coded(e.message, e.extensions.code));

export function createPipeline(deps: PipelineDeps) {
  const { config, schema, persisted } = deps;
  const documents = documentStages({
    schema,
    maxTokens: config.limits.maxTokens,
    rules: gatewayRules(config.limits, config.introspection),
  });
  const check = limitsCheck(config.limits);
  const refusals = new Counter({
    name: 'sitegraph_operations_refused_total',
    help: 'Operations refused before execution, by the pipeline stage that refused them and the transport',
    labelNames: ['transport', 'stage'] as const,
    registers: [deps.registry],
  });
  const refused = (transport: Transport, stage: Stage) => refusals.inc({ transport, stage });

  /** Stage "rate limit": null when the client is within its limit (RateLimit headers then set on `res`). */
  async function rateLimit(
    transport: Transport,
    req: IncomingMessage,
    res?: ServerResponse,
  ): Promise<RateLimitRefusal | null> {
    const refusal = await deps.rateLimit.check(req, res);
    if (refusal) refused(transport, 'rate limit');
    return refusal;
  }

  /** Stage "persisted documents", on a GraphQL-over-HTTP request (a POST body or a batch, or GET parameters). */
  function persistedRequest(
    transport: Transport,
    method: string,
    body: unknown,
    search: string,
  ): { body: unknown; search: string } | Refusal {
    const r = persisted
      ? applyPersistedDocuments(persisted, method, body, search)
      : (documentIdWithoutManifest(method, body, search) ?? { body, search });
    if ('status' in r) refused(transport, 'persisted documents');
    return r;
  }

  /** Stage "persisted documents", on one operation's fields. */
  function persistedParams(transport: Transport, raw: OperationParams): { params: OperationParams } | Refusal {
    if (persisted) {
      // An empty `query` beside a documentId is what clients bound to a protocol that needs the field send.
      const r = persistedBody(persisted, { ...raw, query: raw.query || undefined });
      if ('status' in r) {
        refused(transport, 'persisted documents');
        return r;
      }
      return { params: r.body as OperationParams };
    }
    const r = documentIdWithoutManifest('POST', raw, '');
    if (r) refused(transport, 'persisted documents');
    return r ?? { params: raw };
  }

  /** The parse, validate and limits stages over one graph's schema, each refusal counted by this pipeline. */
  function checksOf(graph: GraphQLSchema, stages: DocumentStages) {
    return {
      /** Stages "parse" and "validate": the document, or the stage that refused it and why. */
      document(transport: Transport, source: string): CheckedDocument {
        const checked = stages.check(source);
        if ('stage' in checked) refused(transport, checked.stage);
        return checked;
      },
      /**
       * Stage "limits": an operation the transport does not serve (a subscription as a plain request, a query over a
       * subscription transport), an argument too large, a cost over MAX_QUERY_COST, a query whose site requests are
       * over its caller's budget; null when it may run.
       */
      limits(
        transport: Transport,
        document: DocumentNode,
        operation: OperationDefinitionNode,
        variables: Record<string, unknown> | undefined,
        budget?: Budget,
      ): GraphQLError | null {
        const error = served(transport, operation) ?? check(graph, document, operation, variables, budget);
        if (error) refused(transport, 'limits');
        return error;
      },
    };
  }
  const mainChecks = checksOf(schema, documents);
  const { document, limits } = mainChecks;

  /**
   * The same stages for a second graph served beside the main one (the WPGraphQL-compatible graph, src/wpgraphql/):
   * its schema, GraphQL's rules as that graph has them, and the codes its rules' errors keep; the gateway's rules
   * (depth, aliases, introspection), the token cap, the nesting scan and the limits are the main graph's.
   */
  function graph(other: GraphQLSchema, baseRules: readonly ValidationRule[], ruleCodes: readonly string[] = []) {
    const checks = checksOf(
      other,
      documentStages({
        schema: other,
        maxTokens: config.limits.maxTokens,
        rules: gatewayRules(config.limits, config.introspection),
        baseRules,
        ruleCodes,
      }),
    );
    /** The subscription transports' stages on this graph, as `operation` on the main graph's. */
    return { ...checks, operation: operationOf(other, checks) };
  }

  /** Stage "context": one per operation, on what the gateway shares (client, totals, locks, the indexed names). */
  function context(input: ContextInput): Context {
    return createContext({
      ...input,
      config: input.config ?? config,
      client: deps.client,
      namespaces: deps.namespaces,
      totals: deps.totals,
      locks: deps.locks,
    });
  }

  const configured = config.serviceAuth ? credentialSecrets(config.serviceAuth) : [];
  /** The secrets of the gateway and of a caller (its Authorization, its secret headers): out of every error sent. */
  function secretsOf(
    authorization: string | undefined,
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ): Set<string> {
    const secrets = new Set(configured);
    for (const s of authorizationSecrets(authorization)) secrets.add(s);
    for (const h of SECRET_HEADERS) {
      const v = headers[h];
      const value = Array.isArray(v) ? v[0] : v;
      if (value) secrets.add(value.trim());
    }
    return secrets;
  }

  /** The site for a new operation's context, or why it is not known (only the fields that need it then fail). */
  async function currentSite(): Promise<SiteInfo | GatewayError> {
    try {
      return await deps.site.current();
    } catch (err) {
      return isGatewayError(err)
        ? err
        : new GatewayError(
            'UPSTREAM_UNAVAILABLE',
            `The site's REST index could not be read: ${(err as Error).message}`,
          );
    }
  }

  /**
   * The stages from persisted documents to context, in order, for one operation of a subscription transport on a
   * graph (its schema and checks): its execution arguments, or the errors refusing it (formatted by `formatErrors`
   * with the caller's secrets). The rate limit is the transport's, counted per request or message before this.
   */
  function operationOf(graphSchema: GraphQLSchema, checks: ReturnType<typeof checksOf>) {
    return function operation<C>(transport: 'sse' | 'ws', raw: OperationParams, makeContext: () => C): Prepared<C> {
      const p = persistedParams(transport, raw);
      if ('status' in p) return { errors: errorsOf(p) };
      const { params } = p;
      if (typeof params.query !== 'string' || !params.query) {
        refused(transport, 'parse');
        return {
          errors: [coded('The request has no query (or documentId of a persisted document).', 'BAD_REQUEST')],
        };
      }
      const checked = checks.document(transport, params.query);
      if ('stage' in checked) return { errors: checked.errors };
      const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
      const op = getOperationAST(checked.document, operationName);
      if (!op) {
        refused(transport, 'limits');
        const message = operationName
          ? `No operation named "${operationName}".`
          : 'Several operations: name the one to run (operationName).';
        return { errors: [coded(message, 'BAD_REQUEST')] };
      }
      const variables =
        params.variables && typeof params.variables === 'object'
          ? (params.variables as Record<string, unknown>)
          : undefined;
      const error = checks.limits(transport, checked.document, op, variables);
      if (error) return { errors: [error] };
      return {
        args: {
          schema: graphSchema,
          document: checked.document,
          operationName,
          variableValues: variables,
          contextValue: makeContext(),
        },
      };
    };
  }
  const operation = operationOf(schema, mainChecks);

  return {
    stages: STAGES,
    rateLimit,
    persistedRequest,
    persistedParams,
    document,
    limits,
    graph,
    context,
    currentSite,
    /** Reads the site's index again (Mutation.refreshSite). */
    refreshSite: () => deps.site.refresh(),
    operation,
    secretsOf,
    /** Stage "respond": errors as the caller receives them, `secrets` scrubbed out (respond.ts). */
    formatErrors,
    /** Documents parsed so far: each text once, whatever the transport and however often it is sent. */
    parses: documents.parses,
  };
}

export type Pipeline = ReturnType<typeof createPipeline>;

/** Which operations each transport serves: subscriptions stream, so they need SSE or a WebSocket. */
function served(transport: Transport, op: OperationDefinitionNode): GatewayError | null {
  if (transport === 'http') {
    return op.operation === 'subscription'
      ? new GatewayError(
          'OPERATION_NOT_SUPPORTED',
          'Subscriptions are not supported as a plain request: subscribe on this same URL over GraphQL over SSE (Accept: text/event-stream) or WebSocket (graphql-transport-ws); see docs/subscriptions.md.',
        )
      : null;
  }
  return op.operation === 'subscription'
    ? null
    : new GatewayError(
        'OPERATION_NOT_SUPPORTED',
        `This transport serves subscriptions; send a ${op.operation} as a plain request (POST /graphql).`,
      );
}
