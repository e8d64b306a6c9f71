/**
 * The gateway's HTTP servers. The public one: `/graphql` (Apollo Server 5 over
 * node:http; a browser gets GraphiQL), `/graphiql/*` assets and a minimal
 * `/healthz`, answers compressed when the client asks (src/respond.ts). The
 * admin listener (src/admin/server.ts, ADMIN_PORT, loopback): `/metrics`,
 * `/readyz` (src/readiness.ts: from the background reading of the site's
 * index, never a request per call) and `POST /purge`.
 */
import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, HeaderMap, type HTTPGraphQLRequest } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import type { Config } from './config.ts';
import { createContext, type Context } from './context.ts';
import { createCors } from './cors.ts';
import { createLogger, type Logger } from './log.ts';
import { createObserver, RequestRecord } from './plugins/observability.ts';
import { TotalHints } from './paging/hints.ts';
import { graphiqlAsset, graphiqlPage } from './graphiql.ts';
import { gatewayRules } from './limits.ts';
import { limitsPlugin } from './plugins/limits.ts';
import { credentialSecrets, redactionPlugin } from './plugins/redaction.ts';
import { UpstreamShapeError } from './mapping/json.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { buildSchema } from './schema.ts';
import { buildFederatedSchema } from './federation.ts';
import { SiteState } from './site.ts';
import { applyPersistedDocuments, documentIdWithoutManifest, loadPersistedDocuments } from './plugins/safelist.ts';
import { createRateLimiter, rateGate, sendRateLimited } from './ratelimit.ts';
import { connectRedis, type SharedRedis } from './store/redis.ts';
import { createWriteLocks } from './store/lock.ts';
import { createGatewayCache } from './cache/index.ts';
import { MemoryStore } from './cache/store.ts';
import { createSubscriptions } from './subscriptions/index.ts';
import { cacheControlPlugin } from './cache/response.ts';
import { UpstreamClient } from './upstream/client.ts';
import type { TracerProvider } from '@opentelemetry/api';
import { createTracing, type Tracing } from './telemetry.ts';
import { tracingPlugin } from './plugins/tracing.ts';
import { GatewayError, isGatewayError } from './errors.ts';
import { MAX_BODY, json, readGraphQLRequest, refuseOversizeBeforeContinue } from './http.ts';
import { authorizationOf, unauthenticatedAnswer } from './authorization.ts';
import { INDEXED_NAMESPACES } from './namespaces/catalog.ts';
import { adminPortOf } from './config.ts';
import { portError } from './cli-kit.ts';
import { Readiness } from './readiness.ts';
import { Lifecycle } from './lifecycle.ts';
import { createResponder } from './respond.ts';
import { answerFromCache, keep, type CachedOperation } from './cache/operation-http.ts';
import { ALL, tagsOfReads } from './cache/tags.ts';
import type { OperationSession } from './upstream/session.ts';
import { startAdmin, type AdminListener } from './admin/server.ts';

/** How long the start waits for Redis before going on without it (a refused connection answers at once). */
const REDIS_START_WAIT_MS = 1_500;

export interface Gateway {
  url: string;
  /** The admin listener, `http://host:port` (GET /metrics, GET /readyz, POST /purge). */
  adminUrl: string;
  client: UpstreamClient;
  site: SiteState;
  metrics: Metrics;
  readiness: Readiness;
  /** The Redis connection (REDIS_URL), or undefined without one: `up`, `problem` and `label` for the banner. */
  redis: SharedRedis | undefined;
  /** The gateway's logger (src/log.ts): modules started with the gateway log through it. */
  log: Logger;
  /** Tracing, when on (OTEL_* or `tracerProvider`; src/telemetry.ts); null when off. */
  tracing: Tracing | null;
  close(): Promise<void>;
}

export interface GatewayOptions {
  /** Logger to use instead of one made from `config.log` (tests capture lines through its destination). */
  logger?: Logger;
  /**
   * Trace into this provider (tests: an InMemorySpanExporter) whatever OTEL_* says; flushed, not shut down, on close.
   */
  tracerProvider?: TracerProvider;
}

/**
 * Known errors keep their code; anything else is masked (internal details
 * never leak). Masked errors are logged, with the request's id, by the
 * observer (plugins/observability.ts, `isInternal`).
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  return (
    formatKnown(formatted, error) ?? {
      message: 'Internal server error',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    }
  );
}

/** The error as the caller sees it, or null when it is internal (to be masked). */
function formatKnown(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError | null {
  const original = (error as { originalError?: unknown })?.originalError ?? error;
  if (isGatewayError(original)) return { ...formatted, extensions: { ...original.extensions } };
  if (original instanceof UpstreamShapeError) {
    return {
      ...formatted,
      message: `The site sent an unexpected body: ${original.message}`,
      extensions: { code: 'UPSTREAM_BAD_RESPONSE' },
    };
  }
  // Bad literal values (a scalar's own check) and the abuse limits are the caller's to fix.
  const cause = (original as { originalError?: unknown })?.originalError ?? original;
  const causeCode = (cause as { extensions?: { code?: unknown } })?.extensions?.code;
  // (A request refused whole for its shape, as too deeply nested, stays BAD_REQUEST, as it is on /graphql.)
  const own = (original as { extensions?: { limit?: unknown; code?: unknown } })?.extensions;
  if (causeCode === 'BAD_USER_INPUT' || (own?.limit && own.code !== 'BAD_REQUEST')) {
    return {
      ...formatted,
      extensions: {
        ...formatted.extensions,
        ...(original as { extensions?: object }).extensions,
        code: 'BAD_USER_INPUT',
      },
    };
  }
  const code = formatted.extensions?.code;
  return typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR' ? formatted : null;
}

/** What formatError will mask, as the observer sees the error (before Apollo formats it). */
export function isInternal(error: GraphQLError): boolean {
  return formatKnown({ message: error.message, extensions: error.extensions }, error) === null;
}

const SHUTTING_DOWN = () =>
  new GatewayError('UPSTREAM_UNAVAILABLE', 'The gateway is shutting down; the operation was cut short. Retry it.');

function encodeAuth(userPass: string | undefined): string | undefined {
  return userPass ? `Basic ${Buffer.from(userPass, 'utf8').toString('base64')}` : undefined;
}

export async function startGateway(
  config: Config,
  upstreamUrl: string,
  options: GatewayOptions = {},
): Promise<Gateway> {
  const lifecycle = new Lifecycle();
  try {
    return await compose(config, upstreamUrl, options, lifecycle);
  } catch (err) {
    // A start that fails halfway closes what it had opened.
    await lifecycle.close().catch(() => {});
    throw err;
  }
}

/**
 * The gateway's parts, made and wired in order; each one that holds something open registers its close with
 * `lifecycle`.
 */
async function compose(
  config: Config,
  upstreamUrl: string,
  options: GatewayOptions,
  lifecycle: Lifecycle,
): Promise<Gateway> {
  // Lines are redacted by value of the service credential too (log.ts), whoever logs them.
  const log =
    options.logger ??
    createLogger({ ...config.log, secrets: config.serviceAuth ? credentialSecrets(config.serviceAuth) : [] });
  // First: a bad manifest is a ConfigError before anything is started.
  const persisted = await loadPersistedDocuments(config.persistedDocuments);
  const metrics = createMetrics({ maxOperations: config.metrics.maxOperations });
  // One log line and the metrics of each operation, upstream failures logged (plugins/observability.ts).
  const observer = createObserver({ log, metrics, serviceAuth: config.serviceAuth !== undefined, isInternal });
  const cors = createCors(config.cors);
  // OTEL_* unset (the default): null, and no span, hook or plugin at all (telemetry.ts).
  const tracing = await createTracing(config.tracing, { provider: options.tracerProvider, log });
  // Closed last: the spans of everything else are exported before close resolves.
  if (tracing) lifecycle.add('tracing', () => tracing.shutdown());
  // The one Redis connection of this instance (REDIS_URL), shared by everything several
  // instances must agree on (store/redis.ts), every key under REDIS_KEY_PREFIX and the
  // site's hash (store/keys.ts). Unset: everything stays in memory.
  const redis = config.redisUrl
    ? connectRedis(config.redisUrl, { prefix: config.redisKeyPrefix, site: upstreamUrl })
    : undefined;
  if (redis) lifecycle.add('redis', () => redis.close());
  // A Redis that cannot be reached does not stop the start: said here, in the banner
  // (src/main.ts) and by /readyz ("degraded"); answers go uncached until it is back.
  if (redis && !(await redis.ready(REDIS_START_WAIT_MS))) {
    log.warn(
      { redis: redis.label, problem: redis.problem },
      'Redis cannot be reached: serving uncached (APQ and rate limits per instance) until it is; /readyz says degraded',
    );
  }
  // The upstream GET cache (CACHE_TTL_SECONDS) and the APQ store, in Redis when there is one (cache/index.ts).
  const cache = createGatewayCache(config, redis, metrics, log);
  // One update of an object at a time: in this process, and through Redis across instances (store/lock.ts).
  const locks = createWriteLocks({ leaseMs: config.writes.lockLeaseMs, waitMs: config.writes.lockWaitMs }, redis);
  // RATE_LIMIT_MAX=0 (the default): no limiter at all (ratelimit.ts).
  const rateLimit = rateGate(
    config.rateLimit.max > 0 ? createRateLimiter(config.rateLimit, redis) : null,
    config.rateLimit,
  );
  const client = new UpstreamClient({
    baseUrl: upstreamUrl,
    ...config.upstream,
    serviceAuthorization: encodeAuth(config.serviceAuth),
    onResponse: observer.upstream,
    ...(tracing ? { trace: tracing.upstream } : {}),
  });
  lifecycle.add('upstream client', () => client.close());
  const site = new SiteState(client, { retryMs: config.session.siteRetryMs, timeoutMs: config.session.deadlineMs });
  try {
    await site.refresh();
  } catch (err) {
    // Start anyway: gateway-only fields answer, fields that need
    // the site say UPSTREAM_UNAVAILABLE, /readyz says 503, and it recovers by itself.
    log.warn(
      { err: (err as Error).message },
      "the site's index could not be read yet; it is read again in the background and by the next operations",
    );
  }
  // /readyz answers from the latest reading; the index is read again every READINESS_REFRESH_SECONDS.
  const readiness = new Readiness(site, redis, config.admin.readinessRefreshSeconds * 1000, log);
  readiness.start();
  lifecycle.add('readiness', () => readiness.stop());
  // Answers compressed as the client asks (COMPRESS_MIN_BYTES, COMPRESSION; src/respond.ts).
  const responder = createResponder(config.compression);

  /**
   * One controller per GraphQL request in progress: aborted when its client
   * disconnects (its answer is not wanted) or when the gateway shuts down (its
   * answer is given at once, with errors, instead of being cut by the drain).
   */
  const inProgress = new Set<AbortController>();
  let stopping = false;
  // Lists' totals seen so far, to leave out pages past their end (paging/hints.ts).
  const totals = new TotalHints();

  const httpServer = createServer();
  // Idle keep-alive connections stay open 65 s (Node's default is 5 s): longer than the idle
  // timeouts of the load balancers and routers in front (60 s is common), so they never send
  // a request on a socket this side is closing (an ECONNRESET at the router).
  httpServer.keepAliveTimeout = 65_000;
  // A body whose Content-Length is over the cap is refused before it is sent (Expect: 100-continue).
  refuseOversizeBeforeContinue(httpServer, MAX_BODY);
  // FEDERATION=1: the same schema as a Federation 2 subgraph (`_service`, `_entities`; federation.ts).
  const schema = config.federation ? buildFederatedSchema() : buildSchema();
  const apollo = new ApolloServer<Context>({
    schema,
    // Always on for Apollo: INTROSPECTION=0 is our own rule below, whose refusal names the setting.
    introspection: true,
    // SAFELIST=1: no APQ registration, which would let any client add to the list (plugins/safelist.ts).
    ...(persisted?.safelist ? { persistedQueries: false as const } : {}),
    // With REDIS_URL, APQ registrations are shared by every instance (cache/apq.ts).
    ...(cache.apq ? { cache: cache.apq } : {}),
    includeStacktraceInErrorResponses: false,
    // Whoever started the gateway stops it (src/main.ts on SIGINT/SIGTERM, with gateway.close()):
    // Apollo's own signal handler would race that close (which then never resolves) and re-send the signal.
    stopOnTerminationSignals: false,
    formatError,
    logger: log.child({ component: 'apollo' }),
    parseOptions: { maxTokens: config.limits.maxTokens },
    validationRules: gatewayRules(config.limits, config.introspection),
    plugins: [
      // First: the operation line is written whatever a later plugin decides.
      observer.plugin,
      // The operation's span, and the current field for resolver spans (plugins/tracing.ts).
      ...(tracing ? [tracingPlugin<Context>(tracing, schema)] : []),
      // Subscriptions refused, argument sizes, cost and a query's site requests (against the caller's budget) checked
      // with the variables known (limits.ts).
      limitsPlugin<Context>(config.limits, (ctx) => ctx.upstream.budget),
      // Every secret of the request, by value, out of every error sent or logged.
      redactionPlugin({ serviceAuth: config.serviceAuth }),
      ApolloServerPluginLandingPageDisabled(),
      // Cache-control hints are not used, and its per-field hook costs on every list:
      // `cache-control` is derived from the operation's upstream session instead (cache/response.ts).
      ApolloServerPluginCacheControlDisabled(),
      cacheControlPlugin(config.cache.ttlSeconds * 1000),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginDrainHttpServer({ httpServer }),
    ],
  });
  await apollo.start();
  // Apollo's drain plugin closes the HTTP server: in-flight requests finish, idle connections go.
  lifecycle.add('apollo and the HTTP server', () => apollo.stop());
  // Before the drain: operations in progress are answered at once ("shutting down") instead of being cut by it.
  lifecycle.add('operations in progress', () => {
    stopping = true;
    for (const c of inProgress) c.abort(SHUTTING_DOWN());
  });
  // Subscriptions over SSE and WebSocket on /graphql, fed by the site's changes (src/subscriptions/,
  // docs/subscriptions.md).
  const live = config.subscriptions.enabled
    ? createSubscriptions({
        config,
        schema,
        client,
        site,
        registry: metrics.registry,
        log,
        redis,
        rateLimit,
        persisted,
        totals,
        locks,
        cache: cache.upstream,
        formatError,
      })
    : null;
  live?.attach(httpServer);
  // Every subscription completes before the HTTP server drains.
  if (live) lifecycle.add('subscriptions', () => live.close());
  // Read at each scrape: what a long run watches for growth (docs/production.md "Metrics").
  metrics.sampled(
    'sitegraph_http_open_connections',
    'Open connections of the public listener',
    () => new Promise<number>((resolve) => httpServer.getConnections((_err, n) => resolve(n ?? 0))),
  );
  metrics.sampled(
    'sitegraph_abort_listeners',
    "Listeners on the gateway's long-lived abort signals (the subscriptions' shutdown), and on the cancellation signals of requests in progress",
    () =>
      (live?.listeners() ?? 0) + [...inProgress].reduce((n, c) => n + getEventListeners(c.signal, 'abort').length, 0),
  );
  metrics.sampled(
    'sitegraph_cache_entries',
    'Entries this process holds, by cache (upstream: in memory only, 0 with Redis; response)',
    () => ({
      upstream: cache.upstream.store instanceof MemoryStore ? cache.upstream.store.size : 0,
      response: cache.operations?.size ?? 0,
    }),
    'cache',
  );

  httpServer.on('request', (req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.error({ err }, 'request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
        }),
      );
    });
  });

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
    if (url.pathname !== '/graphql' && url.pathname !== '/')
      return json(res, 404, { error: 'Not found. GraphQL is at /graphql.' });
    if (url.pathname === '/') {
      res.writeHead(302, { location: '/graphql' });
      res.end();
      return;
    }
    const accept = req.headers.accept ?? '';
    if (method === 'GET' && config.graphiql && accept.includes('text/html') && !url.searchParams.has('query')) {
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
    if (live?.accepts(req, url)) return live.serve(req, res, url);
    await observer.track(req, res, (record) => graphql(req, res, url, method, record));
  }

  async function graphql(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    method: string,
    record: object,
  ): Promise<void> {
    // Counted before the body is read: a client over its limit costs no more than this.
    if (method !== 'OPTIONS') {
      const refused = await rateLimit.check(req, res);
      if (refused) return sendRateLimited(res, refused);
    }
    const read = await readGraphQLRequest(req, res, method, url.search);
    if (!read) return;
    let { body } = read;
    let search = url.search;
    if (persisted) {
      // Manifest ids to document text; with SAFELIST=1, anything else refused (plugins/safelist.ts).
      const r = applyPersistedDocuments(persisted, method, body, search);
      if ('status' in r) return json(res, r.status, r.body);
      ({ body, search } = r);
    } else {
      const r = documentIdWithoutManifest(method, body, search);
      if (r) return json(res, r.status, r.body);
    }
    // The response cache (cache/operation-http.ts): a hot query is answered here, without Apollo.
    let cached: CachedOperation = { pending: null };
    if (cache.operations && method !== 'OPTIONS') {
      const found = await answerFromCache(cache.operations, responder, req, res, method, body, search);
      if (found === true) {
        if (record instanceof RequestRecord) record.operationType = 'query';
        return;
      }
      cached = found;
    }
    // Made only now: a response-cache hit never needs them.
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    let session: OperationSession | undefined;
    const httpGraphQLRequest: HTTPGraphQLRequest = { method, headers, search, body };
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
    let response;
    try {
      response = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest,
        context: async () => {
          let info;
          try {
            info = await site.current();
          } catch (err) {
            // Not fatal: only the fields that need the site fail (context.ts).
            info = isGatewayError(err)
              ? err
              : new GatewayError(
                  'UPSTREAM_UNAVAILABLE',
                  `The site's REST index could not be read: ${(err as Error).message}`,
                );
          }
          const ctx = createContext({
            config,
            client,
            site: info,
            namespaces: INDEXED_NAMESPACES,
            authorization: req.headers.authorization,
            refreshSite: () => site.refresh(),
            headers: req.headers,
            signal: cancel.signal,
            totals,
            locks,
            cache: cache.upstream,
            tag: record,
            ...(live ? { changes: live.sink } : {}),
          });
          session = ctx.upstream;
          return ctx;
        },
      });
    } finally {
      inProgress.delete(cancel);
    }
    try {
      if (cancel.signal.aborted && res.destroyed) return;
      for (const [k, v] of response.headers) res.setHeader(k, v);
      res.statusCode = response.status ?? 200;
      if (response.body.kind === 'complete') {
        keep(
          cache.operations,
          cached.pending,
          res,
          response.headers,
          res.statusCode,
          response.body.string,
          session ? () => tagsOfReads(session!.reads()) : undefined,
        );
        responder.end(req, res, response.body.string);
      } else {
        await responder.stream(req, res, response.body.asyncIterator);
      }
    } finally {
      // Its deadline's timer goes with it (nothing of it left in flight).
      (session as OperationSession | undefined)?.end();
    }
  }

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  // The admin listener: ADMIN_PORT, else the public port + 1 (a free one when PORT is 0).
  let admin: AdminListener;
  const adminPort = adminPortOf(config);
  try {
    admin = await startAdmin(config.admin.host, adminPort, {
      metrics,
      readiness,
      responder,
      log,
      // By tag: the answers carrying one go (every instance), and the upstream layer beneath, which knows no tags,
      // whole.
      purge: {
        purgeAll: async () => {
          await cache.upstream.purge();
          await cache.operations?.invalidate([ALL]);
          cache.operations?.clear();
        },
        ...(cache.operations
          ? {
              purgeTags: async (tags: readonly string[]) => {
                await cache.operations!.invalidate(tags);
                await cache.upstream.purge();
                return null;
              },
            }
          : {}),
      },
    });
  } catch (err) {
    throw (
      portError(
        err,
        config.admin.host,
        adminPort,
        'the admin listener is PORT + 1 by default: choose its port with ADMIN_PORT',
      ) ?? err
    );
  }
  lifecycle.add('admin listener', () => admin.close());
  return {
    url: `http://${host}:${port}/graphql`,
    adminUrl: admin.url,
    client,
    site,
    metrics,
    readiness,
    redis,
    log,
    tracing,
    close: async () => {
      // New requests meanwhile are answered "shutting down" at once.
      stopping = true;
      await lifecycle.close();
    },
  };
}
