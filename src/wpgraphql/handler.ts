/**
 * The compatible graph over HTTP, at its path (`/wpgraphql` by default, WPGRAPHQL_PATH): GraphQL over HTTP (POST
 * JSON, or GET with `query`), GraphiQL for a browser's GET. Mounted by the public routes (src/http-routes.ts) after
 * CORS and the Authorization check, inside the request's record (its log line and metrics), it runs the main graph's
 * operation pipeline (src/pipeline/) on its own schema: rate limit, persisted documents (and the safelist), parse
 * with the token cap and the nesting scan, validate with `wpGraphqlRules()` and the gateway's depth, alias and
 * introspection rules, limits (sizes, cost, the caller's request budget), one main-graph context per operation, and
 * errors formatted and scrubbed as the main graph's. Execution is graphql-js's; it serves queries and mutations
 * (src/wpgraphql/mutations.ts, through the write engine); its subscriptions (src/wpgraphql/subscriptions.ts) are
 * served over SSE and WebSocket by src/subscriptions/ on the same path, and refused here as a plain request. Its
 * answers get the main graph's `cache-control` (src/cache/response.ts) and go through the main graph's response cache
 * (src/cache/operation-http.ts), under keys of their own graph, with purge tags from the operation's session reads.
 * With tracing on, its operations are traced as the main graph's (src/plugins/tracing.ts): a SERVER span per
 * operation, under the caller's `traceparent`, a span for each field whose resolver went upstream, and the upstream
 * attempts under it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { defaultTextMapGetter, type Context as TraceContext } from '@opentelemetry/api';
import { execute, getOperationAST, type GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { OperationCache } from '../cache/operation-cache.ts';
import { answerFromCache, keep, type CachedOperation } from '../cache/operation-http.ts';
import { cacheControlFor, CREDENTIAL_HEADERS } from '../cache/response.ts';
import { tagsOfReads } from '../cache/tags.ts';
import type { Context } from '../context.ts';
import { json, readGraphQLRequest } from '../http.ts';
import type { Pipeline } from '../pipeline/index.ts';
import { startOperation, traceResolvers, type OperationTrace } from '../plugins/tracing.ts';
import { sendRateLimited } from '../ratelimit.ts';
import type { Responder } from '../respond.ts';
import type { Tracing } from '../telemetry.ts';
import { NOT_SERVED, wpGraphqlRules } from './rules.ts';
import { createWpGraphqlSchema } from './schema.ts';

export interface WpGraphqlHandlerOptions {
  /** Where it answers (WPGRAPHQL_PATH, whose default is the settings table's). */
  path: string;
  /** The main graph's pipeline: its stages run here on the compatible graph's schema. */
  pipeline: Pipeline;
  schema?: GraphQLSchema;
  /** GraphiQL for a browser's GET (GRAPHIQL). */
  graphiql?: boolean;
  /** Writes answers compressed as negotiated (the main graph's). */
  responder: Responder;
  /** The main graph's response cache (RESPONSE_CACHE); undefined: off. */
  responses: OperationCache | undefined;
  /** CACHE_TTL_SECONDS in ms: the freshness of an answer that used nothing upstream, as the main graph's. */
  ttlMs: number;
  /** Tracing, when on (src/telemetry.ts): an operation span per executed operation, resolver and upstream spans. */
  tracing?: Tracing | null;
}

interface Params {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function paramsOf(method: string, body: unknown, search: string): Params | string {
  if (method !== 'GET') return isRecord(body) ? body : 'The body must be one GraphQL request (a JSON object)';
  const q = new URLSearchParams(search);
  const variables = q.get('variables');
  let parsed: unknown;
  try {
    parsed = variables ? JSON.parse(variables) : undefined;
  } catch {
    return 'variables is not valid JSON';
  }
  return { query: q.get('query') ?? undefined, variables: parsed, operationName: q.get('operationName') ?? undefined };
}

/**
 * The compatible graph's request handler; the caller routes only its path here, with the maker of the operation's
 * context (the main graph's, on the request's credentials and cancellation), called once the operation may run.
 */
export function createWpGraphqlHandler(
  options: WpGraphqlHandlerOptions,
): (req: IncomingMessage, res: ServerResponse, context: () => Promise<Context>) => Promise<void> {
  const { path, pipeline, responder, responses, ttlMs } = options;
  const tracing = options.tracing ?? null;
  // Each operation's span, by its context value: the wrapped resolvers find their parent there.
  const operations = new WeakMap<Context, TraceContext>();
  const plain = options.schema ?? createWpGraphqlSchema();
  // graphql-js has no per-field hook: with tracing on, the resolvers are wrapped once; off, the schema is as made.
  const schema = tracing ? traceResolvers<Context>(plain, tracing, (c) => operations.get(c)) : plain;
  const checks = pipeline.graph(schema, wpGraphqlRules(), [NOT_SERVED]);
  // A refusal is an answer with errors: `no-store`, as cacheControlFor gives the main graph's.
  const send = (res: ServerResponse, status: number, errors: GraphQLFormattedError[], span?: OperationTrace) => {
    span?.failed(errors);
    res.setHeader('cache-control', 'no-store');
    json(res, status, { errors });
  };
  const bad = (res: ServerResponse, status: number, message: string, code = 'BAD_REQUEST', span?: OperationTrace) =>
    send(res, status, [{ message, extensions: { code } }], span);
  const refuse = (res: ServerResponse, errors: readonly GraphQLError[], span: OperationTrace | undefined) =>
    send(res, 400, pipeline.formatErrors(errors), span);
  return async (req, res, makeContext) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'POST') {
      res.setHeader('allow', 'GET, POST');
      return bad(res, 405, `${path} answers GET and POST`, 'METHOD_NOT_ALLOWED');
    }
    const browser =
      method === 'GET' && !url.searchParams.has('query') && (req.headers.accept ?? '').includes('text/html');
    if (browser && options.graphiql !== false) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(wpGraphiqlPage(path));
      return;
    }
    const limited = await pipeline.rateLimit('http', req, res);
    if (limited) return sendRateLimited(res, limited);
    const read = await readGraphQLRequest(req, res, method, url.search);
    if (!read) return;
    const persisted = pipeline.persistedRequest('http', method, read.body, url.search);
    if ('status' in persisted) return json(res, persisted.status, persisted.body);
    // The response cache, keyed by this graph's path: a hot query is answered here, without parsing or executing.
    let cached: CachedOperation = { pending: null };
    if (responses) {
      const found = await answerFromCache(
        responses,
        responder,
        path,
        req,
        res,
        method,
        persisted.body,
        persisted.search,
      );
      if (found === true) return;
      cached = found;
    }
    // The operation's span, started as Apollo's plugin starts the main graph's: after the cache (a hit has none).
    const span = tracing ? startOperation(tracing, req.headers, defaultTextMapGetter) : undefined;
    try {
      await operation(req, res, method, persisted, cached, makeContext, span);
    } finally {
      span?.end();
    }
  };

  /** Parse, validate, limits, execute and answer: one operation, under its span when tracing is on. */
  async function operation(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    persisted: { body: unknown; search: string },
    cached: CachedOperation,
    makeContext: () => Promise<Context>,
    span: OperationTrace | undefined,
  ): Promise<void> {
    const no = (status: number, message: string, code?: string) => bad(res, status, message, code, span);
    const params = paramsOf(method, persisted.body, persisted.search);
    if (typeof params === 'string') return no(400, params);
    if (typeof params.query !== 'string' || !params.query) return no(400, 'The request has no query');
    const checked = checks.document('http', params.query);
    if ('stage' in checked) return refuse(res, checked.errors, span);
    const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
    const op = getOperationAST(checked.document, operationName);
    if (!op) return no(400, operationName ? `No operation named "${operationName}"` : 'Name the operation to run');
    span?.resolved(op.operation, op.name?.value);
    // A mutation over GET could be sent by a link or an image: only POST writes.
    if (op.operation === 'mutation' && method !== 'POST')
      return no(405, 'Mutations are sent with POST', 'METHOD_NOT_ALLOWED');
    const variables = isRecord(params.variables) ? params.variables : undefined;
    const context = await makeContext();
    if (span) operations.set(context, span.context);
    try {
      // A subscription is refused here as the main graph's is (OPERATION_NOT_SUPPORTED, naming SSE and WebSocket).
      const refused = checks.limits('http', checked.document, op, variables, context.upstream.budget);
      if (refused) return refuse(res, [refused], span);
      const result = await execute({
        schema,
        document: checked.document,
        contextValue: context,
        variableValues: variables,
        operationName,
      });
      const errors = result.errors
        ? pipeline.formatErrors(result.errors, pipeline.secretsOf(req.headers.authorization, req.headers))
        : undefined;
      if (errors) span?.failed(errors);
      const body = JSON.stringify({ ...(errors ? { errors } : {}), data: result.data ?? null });
      const session = context.upstream;
      const headers: [string, string][] = [
        ['content-type', 'application/json; charset=utf-8'],
        [
          'cache-control',
          cacheControlFor({
            mutation: op.operation !== 'query',
            errors: (result.errors?.length ?? 0) > 0,
            credential: session.authenticated || CREDENTIAL_HEADERS.some((h) => Boolean(req.headers[h])),
            hint: session.cacheHint,
            ttlMs,
          }),
        ],
      ];
      res.statusCode = 200;
      for (const [k, v] of headers) res.setHeader(k, v);
      keep(responses, cached.pending, res, headers, 200, body, () => tagsOfReads(session.reads()));
      responder.end(req, res, body);
    } finally {
      context.upstream.end();
    }
  }
}

/** GraphiQL's first tab on the compatible graph (a test runs it). */
export const FIRST_TAB = `query Posts {
  posts(first: 5, where: { orderby: { field: DATE, order: DESC } }) {
    pageInfo { hasNextPage endCursor }
    nodes { databaseId title uri date seo { title metaDesc } }
  }
}`;

/** GraphiQL on the compatible graph, with the main listener's assets (/graphiql/*, src/graphiql.ts). */
export function wpGraphiqlPage(endpoint: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>sitegraph · WPGraphQL-compatible graph</title>
<link rel="stylesheet" href="/graphiql/graphiql.min.css">
<style>html,body,#graphiql{height:100%;margin:0;}</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="/graphiql/react.production.min.js"></script>
<script src="/graphiql/react-dom.production.min.js"></script>
<script src="/graphiql/graphiql.min.js"></script>
<script>
  const endpoint = new URL(${JSON.stringify(endpoint)}, location.href);
  const fetcher = async (params, opts) => {
    const headers = { 'content-type': 'application/json', ...(opts && opts.headers) };
    const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(params) });
    return res.json();
  };
  ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, {
    fetcher,
    defaultQuery: ${JSON.stringify(FIRST_TAB).replace(/</g, '\\u003c')},
    shouldPersistHeaders: false,
  }));
</script>
</body>
</html>`;
}
