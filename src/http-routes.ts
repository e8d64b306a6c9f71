/**
 * The public listener's routes: `/healthz`, GraphiQL (its page for a browser's GET, its assets under `/graphiql/`),
 * `/` to `/graphql`, and `/graphql` itself: CORS and preflights (answered before Apollo's CSRF prevention), the
 * Authorization header checked, GraphQL over SSE (on `/graphql` and the compatible graph's path) handed to the
 * subscriptions (src/subscriptions/), and every other request run through the operation pipeline (src/pipeline/):
 * rate limit, the body read and checked (src/http.ts: the size cap, nesting), persisted documents, the response
 * cache, then Apollo (parse, validate, limits, execute) with a context made by the pipeline. Answers are compressed
 * as the client asks (src/respond.ts).
 *
 * Each GraphQL request in progress has an AbortController: aborted when its client disconnects (its answer is not
 * wanted) or when the gateway shuts down (its answer is given at once, with errors, instead of being cut by the
 * drain).
 */
import { getEventListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer, type HTTPGraphQLRequest } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import { authorizationOf, unauthenticatedAnswer } from './authorization.ts';
import type { GatewayCache } from './cache/index.ts';
import { answerFromCache, keep, type CachedOperation } from './cache/operation-http.ts';
import { tagsOfReads } from './cache/tags.ts';
import type { Config } from './config.ts';
import type { Context } from './context.ts';
import type { createCors } from './cors.ts';
import { GatewayError } from './errors.ts';
import { graphiqlAsset, graphiqlPage } from './graphiql.ts';
import { json, readGraphQLRequest } from './http.ts';
import type { Logger } from './log.ts';
import type { Pipeline } from './pipeline/index.ts';
import type { Observer, RequestRecord } from './plugins/observability.ts';
import { sendRateLimited } from './ratelimit.ts';
import type { Responder } from './respond.ts';
import type { Subscriptions } from './subscriptions/index.ts';
import type { Tracing } from './telemetry.ts';
import { createWpGraphqlHandler } from './wpgraphql/handler.ts';
import type { OperationSession } from './upstream/session.ts';

export interface RoutesDeps {
  config: Config;
  pipeline: Pipeline;
  apollo: ApolloServer<Context>;
  observer: Observer;
  cors: ReturnType<typeof createCors>;
  responder: Responder;
  cache: GatewayCache;
  /** SSE and WebSocket subscriptions, when on. */
  live: Subscriptions | null;
  /** Tracing, when on (src/telemetry.ts): the compatible graph's operations are traced as the main graph's. */
  tracing: Tracing | null;
  log: Logger;
  /** The compatible graph's schema, shared with its subscriptions; made by the handler when not given. */
  wpSchema?: GraphQLSchema | null;
}

const SHUTTING_DOWN = () =>
  new GatewayError('UPSTREAM_UNAVAILABLE', 'The gateway is shutting down; the operation was cut short. Retry it.');

export function publicRoutes(deps: RoutesDeps) {
  const { config, pipeline, apollo, observer, cors, responder, cache, live, tracing, log } = deps;
  // The WPGraphQL-compatible graph (src/wpgraphql/), at WPGRAPHQL_PATH unless that is empty.
  const wp = config.wpgraphql.path
    ? createWpGraphqlHandler({
        path: config.wpgraphql.path,
        pipeline,
        graphiql: config.graphiql,
        responder,
        responses: cache.operations,
        ttlMs: config.cache.ttlSeconds * 1000,
        tracing,
        ...(deps.wpSchema ? { schema: deps.wpSchema } : {}),
      })
    : null;
  const inProgress = new Set<AbortController>();
  let stopping = false;

  function request(req: IncomingMessage, res: ServerResponse): void {
    handle(req, res).catch((err: unknown) => {
      log.error({ err }, 'request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
        }),
      );
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway.invalid');
    const method = (req.method ?? 'GET').toUpperCase();
    // Only that the process answers: the site's URL, namespaces and metrics are the admin listener's.
    if (url.pathname === '/healthz') return json(res, 200, { status: 'ok' });
    if (url.pathname.startsWith('/graphiql/') && config.graphiql) {
      const name = url.pathname.slice('/graphiql/'.length);
      const asset = graphiqlAsset(name);
      if (asset) {
        res.statusCode = 200;
        res.setHeader('content-type', asset.type);
        res.setHeader('cache-control', 'public, max-age=3600');
        return responder.endStatic(req, res, name, asset.body);
      }
    }
    const compatible = wp && url.pathname === config.wpgraphql.path;
    if (url.pathname !== '/graphql' && url.pathname !== '/' && !compatible)
      return json(res, 404, { error: 'Not found. GraphQL is at /graphql.' });
    if (url.pathname === '/') {
      res.writeHead(302, { location: '/graphql' });
      res.end();
      return;
    }
    const accept = req.headers.accept ?? '';
    const browser = method === 'GET' && accept.includes('text/html') && !url.searchParams.has('query');
    if (browser && config.graphiql && !compatible) {
      res.statusCode = 200;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      responder.end(req, res, graphiqlPage('/graphql'));
      return;
    }
    // CORS headers, and preflights answered before CSRF prevention sees them (cors.ts).
    if (cors(req, res)) return;
    // An Authorization header the site could not read is refused here, not served as anonymous (authorization.ts).
    const authorization = authorizationOf(req.headers.authorization, config.authSchemes);
    if (authorization instanceof GatewayError) {
      const answer = unauthenticatedAnswer(authorization);
      for (const [k, v] of Object.entries(answer.headers)) res.setHeader(k, v);
      return json(res, answer.status, answer.body);
    }
    if (authorization === undefined) delete req.headers.authorization;
    else req.headers.authorization = authorization;
    // GraphQL over SSE on either graph's path: the subscriptions run it on that path's graph.
    if (live?.accepts(req, url)) return live.serve(req, res, url);
    if (compatible)
      return observer.track(req, res, (record) =>
        cancellable(res, (signal) => wp(req, res, async () => contextOf(req, signal, record))),
      );
    await observer.track(req, res, (record) => graphql(req, res, url, method, record));
  }

  /** Stage "context", for an operation of either graph: the caller's, on the request's cancellation. */
  async function contextOf(req: IncomingMessage, signal: AbortSignal, record: RequestRecord): Promise<Context> {
    return pipeline.context({
      site: await pipeline.currentSite(),
      authorization: req.headers.authorization,
      refreshSite: () => pipeline.refreshSite(),
      headers: req.headers,
      signal,
      cache: cache.upstream,
      tag: record,
      ...(live ? { changes: live.sink } : {}),
    });
  }

  /**
   * Runs one request's operation with its cancellation: aborted when the client goes before its answer is finished,
   * or when the gateway shuts down.
   */
  async function cancellable<T>(res: ServerResponse, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const cancel = new AbortController();
    if (stopping) cancel.abort(SHUTTING_DOWN());
    inProgress.add(cancel);
    // 'close' before the answer is finished: the client went away.
    const onClose = () => {
      if (!res.writableFinished)
        cancel.abort(
          new GatewayError(
            'UPSTREAM_UNAVAILABLE',
            'The client disconnected before the answer was sent; the operation was cancelled.',
          ),
        );
    };
    res.once('close', onClose);
    try {
      return await run(cancel.signal);
    } finally {
      inProgress.delete(cancel);
    }
  }

  async function graphql(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    method: string,
    record: RequestRecord,
  ): Promise<void> {
    // Stage "rate limit", before the body is read: a client over its limit costs no more than this.
    if (method !== 'OPTIONS') {
      const refused = await pipeline.rateLimit('http', req, res);
      if (refused) return sendRateLimited(res, refused);
    }
    const read = await readGraphQLRequest(req, res, method, url.search);
    if (!read) return;
    // Stage "persisted documents": manifest ids to document text; with SAFELIST=1, anything else refused.
    const persisted = pipeline.persistedRequest('http', method, read.body, url.search);
    if ('status' in persisted) return json(res, persisted.status, persisted.body);
    const { body, search } = persisted;
    // The response cache (cache/operation-http.ts): a hot query is answered here, without Apollo.
    let cached: CachedOperation = { pending: null };
    if (cache.operations && method !== 'OPTIONS') {
      const found = await answerFromCache(cache.operations, responder, '/graphql', req, res, method, body, search);
      if (found === true) {
        record.operationType = 'query';
        return;
      }
      cached = found;
    }
    // Made only now: a response-cache hit never needs them.
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    // Set by the context function, which Apollo calls.
    const op: { session?: OperationSession } = {};
    const httpGraphQLRequest: HTTPGraphQLRequest = { method, headers, search, body };
    let aborted: AbortSignal | undefined;
    // Stages parse, validate, limits and execute are Apollo's hooks on the pipeline (pipeline/apollo.ts).
    const response = await cancellable(res, (signal) => {
      aborted = signal;
      return apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest,
        // Stage "context".
        context: async () => {
          const ctx = await contextOf(req, signal, record);
          op.session = ctx.upstream;
          return ctx;
        },
      });
    });
    // Stage "respond".
    try {
      if (aborted?.aborted && res.destroyed) return;
      for (const [k, v] of response.headers) res.setHeader(k, v);
      res.statusCode = response.status ?? 200;
      if (response.body.kind === 'complete') {
        const session = op.session;
        keep(
          cache.operations,
          cached.pending,
          res,
          response.headers,
          res.statusCode,
          response.body.string,
          session ? () => tagsOfReads(session.reads()) : undefined,
        );
        responder.end(req, res, response.body.string);
      } else {
        await responder.stream(req, res, response.body.asyncIterator);
      }
    } finally {
      // Its deadline's timer goes with it (nothing of it left in flight).
      op.session?.end();
    }
  }

  return {
    /** The listener's 'request' handler. */
    request,
    /** Listeners on the cancellation signals of the requests in progress (a gauge: it follows the load). */
    listeners: () => [...inProgress].reduce((n, c) => n + getEventListeners(c.signal, 'abort').length, 0),
    /** Shutdown: requests in progress are answered "shutting down" at once, and new ones are too. */
    stop(): void {
      stopping = true;
      for (const c of inProgress) c.abort(SHUTTING_DOWN());
    },
  };
}

export type PublicRoutes = ReturnType<typeof publicRoutes>;
