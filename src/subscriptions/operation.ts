/**
 * What both subscription transports do with an operation before it runs
 * (docs/subscriptions.md "Transports"), the same as `/graphql` does for a
 * query through Apollo: persisted documents and the safelist
 * (plugins/safelist.ts), the token cap, validation with the depth, alias and
 * introspection rules, the argument-size and cost limits (plugins/limits.ts);
 * only subscriptions are served here. Then the caller as the site will see it
 * (its Authorization and credential headers) and as the limits count it.
 * Errors leave through the same formatting and redaction as a query's.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  GraphQLError,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import type { Config } from '../config.ts';
import { authorizationOf } from '../authorization.ts';
import { GatewayError } from '../errors.ts';
import { gatewayRules } from '../limits.ts';
import { documentTooDeep, nestingError } from '../nesting.ts';
import { limitsCheck } from '../plugins/limits.ts';
import { SECRET_HEADERS, authorizationSecrets, credentialSecrets, scrubValue } from '../plugins/redaction.ts';
import { documentIdWithoutManifest, persistedBody, type PersistedDocuments } from '../plugins/safelist.ts';
import { clientIp } from '../ratelimit.ts';
import { secretForms } from '../redact.ts';
import type { SubscriptionContext } from './context.ts';
import type { Credential } from './hub.ts';

/** A subscription request's fields, from an SSE request or a WebSocket `subscribe` message. */
export interface OperationParams {
  query?: unknown;
  documentId?: unknown;
  operationName?: unknown;
  variables?: unknown;
  extensions?: unknown;
}

/** Who asks: the credential the site sees, and the key the per-caller limit counts. */
export interface Caller {
  credential: Credential;
  caller: string;
  /** The Authorization header could not be read by the site: every operation of this caller is refused with it. */
  refused?: GatewayError;
}

export interface OperationDeps {
  config: Config;
  schema: GraphQLSchema;
  persisted: PersistedDocuments | null;
  /** server.ts formatError: known codes kept, anything else masked. */
  formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError;
}

export type Prepared = { args: ExecutionArgs & { contextValue: SubscriptionContext } } | { errors: GraphQLError[] };

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

export function createOperations(deps: OperationDeps) {
  const { config, schema, persisted } = deps;
  const rules = [...specifiedRules, ...gatewayRules(config.limits, config.introspection)];
  const limits = limitsCheck(config.limits);
  const configured = config.serviceAuth ? credentialSecrets(config.serviceAuth) : [];

  const coded = (message: string, code: string) => new GraphQLError(message, { extensions: { code } });

  /** Checks and parses one operation; `context` makes its context once everything passed. */
  function prepare(raw: OperationParams, context: () => SubscriptionContext): Prepared {
    let params = raw;
    if (persisted) {
      // An empty `query` beside a documentId is what clients bound to a protocol that needs the field send.
      const r = persistedBody(persisted, { ...raw, query: raw.query || undefined });
      if ('status' in r) return { errors: r.body.errors.map((e) => coded(e.message, e.extensions.code)) };
      params = r.body as OperationParams;
    } else {
      const r = documentIdWithoutManifest('POST', raw, '');
      if (r) return { errors: r.body.errors.map((e) => coded(e.message, e.extensions.code)) };
    }
    if (typeof params.query !== 'string' || !params.query)
      return { errors: [coded('The request has no query (or documentId of a persisted document).', 'BAD_REQUEST')] };
    // A WebSocket message's document was never scanned (an SSE request's was, with its body).
    if (documentTooDeep(params.query)) {
      const e = nestingError('The GraphQL document');
      return { errors: [new GraphQLError(e.message, { extensions: e.extensions })] };
    }
    let document: DocumentNode;
    try {
      document = parse(params.query, { maxTokens: config.limits.maxTokens });
    } catch (err) {
      return { errors: [coded((err as Error).message, 'GRAPHQL_PARSE_FAILED')] };
    }
    const invalid = validate(schema, document, rules);
    if (invalid.length)
      return {
        errors: invalid.map(
          (e) =>
            new GraphQLError(e.message, {
              nodes: e.nodes,
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED', ...e.extensions },
            }),
        ),
      };
    const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
    const op = getOperationAST(document, operationName);
    if (!op)
      return {
        errors: [
          coded(
            operationName
              ? `No operation named "${operationName}".`
              : 'Several operations: name the one to run (operationName).',
            'BAD_REQUEST',
          ),
        ],
      };
    if (op.operation !== 'subscription') {
      return {
        errors: [
          new GatewayError(
            'OPERATION_NOT_SUPPORTED',
            `This transport serves subscriptions; send a ${op.operation} as a plain request (POST /graphql).`,
          ),
        ],
      };
    }
    const variables =
      params.variables && typeof params.variables === 'object'
        ? (params.variables as Record<string, unknown>)
        : undefined;
    const refused = limits(schema, document, op, variables);
    if (refused) return { errors: [refused] };
    return { args: { schema, document, operationName, variableValues: variables, contextValue: context() } };
  }

  /** Errors as a query's are: known codes kept, others masked, the caller's secrets out. */
  function formatErrors(
    errors: readonly GraphQLError[] | readonly GraphQLFormattedError[],
    credential: Credential | undefined,
  ): GraphQLFormattedError[] {
    const secrets = new Set(configured);
    for (const s of authorizationSecrets(credential?.authorization)) secrets.add(s);
    for (const h of SECRET_HEADERS) {
      const v = first(credential?.headers[h]);
      if (v) secrets.add(v.trim());
    }
    const formatted = errors.map((e) => (e instanceof GraphQLError ? deps.formatError(e.toJSON(), e) : e));
    return scrubValue(formatted, secretForms(secrets)) as GraphQLFormattedError[];
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
