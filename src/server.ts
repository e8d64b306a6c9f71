/**
 * The gateway: what is built and how it is wired (`compose`), and its lifecycle (`startGateway`: each part that
 * holds something open registers its close, shut in reverse order on `close()` or when a start fails halfway;
 * src/lifecycle.ts). The public listener's routes are src/http-routes.ts; every operation, on `/graphql` and on the
 * subscription transports, goes through the operation pipeline (src/pipeline/); the admin listener (`/metrics`,
 * `/readyz`, `POST /purge`) is src/admin/.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TracerProvider } from '@opentelemetry/api';
import { startAdminListener } from './admin/start.ts';
import { createGatewayCache } from './cache/index.ts';
import { MemoryStore } from './cache/store.ts';
import type { Config } from './config.ts';
import { createCors } from './cors.ts';
import { buildFederatedSchema } from './federation.ts';
import { MAX_BODY, refuseOversizeBeforeContinue } from './http.ts';
import { publicRoutes } from './http-routes.ts';
import { Lifecycle } from './lifecycle.ts';
import { createLogger, type Logger } from './log.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { INDEXED_NAMESPACES } from './namespaces/catalog.ts';
import { TotalHints } from './paging/hints.ts';
import { createApollo } from './pipeline/apollo.ts';
import { createPipeline } from './pipeline/index.ts';
import { isInternal } from './pipeline/respond.ts';
import { createObserver } from './plugins/observability.ts';
import { credentialSecrets } from './plugins/redaction.ts';
import { loadPersistedDocuments } from './plugins/safelist.ts';
import { createRateLimiter, rateGate } from './ratelimit.ts';
import { Readiness } from './readiness.ts';
import { createResponder } from './respond.ts';
import { buildSchema } from './schema.ts';
import { SiteState } from './site.ts';
import { createWriteLocks } from './store/lock.ts';
import { connectRedis, type SharedRedis } from './store/redis.ts';
import { createSubscriptions } from './subscriptions/index.ts';
import { createWpGraphqlSchema } from './wpgraphql/schema.ts';
import { wpGraphqlLive } from './wpgraphql/subscriptions.ts';
import { createTracing, type Tracing } from './telemetry.ts';
import { UpstreamClient } from './upstream/client.ts';

export { formatError, isInternal } from './pipeline/respond.ts';

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
  /** The stages every operation goes through, in order, on every transport (src/pipeline/). */
  stages: readonly string[];
  /** Documents parsed so far, whatever the transport: each text once. */
  parses(): number;
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

  // FEDERATION=1: the same schema as a Federation 2 subgraph (`_service`, `_entities`; federation.ts).
  const schema = config.federation ? buildFederatedSchema() : buildSchema();
  // The stages every operation goes through, on every transport (src/pipeline/).
  const pipeline = createPipeline({
    config,
    schema,
    persisted,
    // RATE_LIMIT_MAX=0 (the default): no limiter at all (ratelimit.ts).
    rateLimit: rateGate(config.rateLimit.max > 0 ? createRateLimiter(config.rateLimit, redis) : null, config.rateLimit),
    client,
    site,
    namespaces: INDEXED_NAMESPACES,
    // Lists' totals seen so far, to leave out pages past their end (paging/hints.ts).
    totals: new TotalHints(),
    // One update of an object at a time: in this process, and through Redis across instances (store/lock.ts).
    locks: createWriteLocks({ leaseMs: config.writes.lockLeaseMs, waitMs: config.writes.lockWaitMs }, redis),
    registry: metrics.registry,
  });

  const httpServer = createServer();
  // Idle keep-alive connections stay open 65 s (Node's default is 5 s): longer than the idle
  // timeouts of the load balancers and routers in front (60 s is common), so they never send
  // a request on a socket this side is closing (an ECONNRESET at the router).
  httpServer.keepAliveTimeout = 65_000;
  // A body whose Content-Length is over the cap is refused before it is sent (Expect: 100-continue).
  refuseOversizeBeforeContinue(httpServer, MAX_BODY);
  const apollo = createApollo({
    config,
    schema,
    pipeline,
    observer,
    tracing,
    log,
    httpServer,
    apq: cache.apq,
    safelist: persisted?.safelist ?? false,
  });
  await apollo.start();
  // Apollo's drain plugin closes the HTTP server: in-flight requests finish, idle connections go.
  lifecycle.add('apollo and the HTTP server', () => apollo.stop());
  // The WPGraphQL-compatible graph's schema (src/wpgraphql/), made once for its HTTP handler and its subscriptions.
  const wpSchema = config.wpgraphql.path ? createWpGraphqlSchema() : null;
  // Subscriptions over SSE and WebSocket on /graphql and the compatible graph's path, fed by the site's changes
  // (src/subscriptions/, docs/subscriptions.md).
  const live = config.subscriptions.enabled
    ? createSubscriptions({
        config,
        pipeline,
        site,
        registry: metrics.registry,
        log,
        redis,
        persisted,
        cache: cache.upstream,
        graphs: wpSchema ? [wpGraphqlLive(config.wpgraphql.path, wpSchema)] : [],
      })
    : null;
  live?.attach(httpServer);
  // Answers compressed as the client asks (COMPRESS_MIN_BYTES, COMPRESSION; src/respond.ts).
  const responder = createResponder(config.compression);
  const routes = publicRoutes({
    config,
    pipeline,
    apollo,
    observer,
    cors: createCors(config.cors),
    responder,
    cache,
    live,
    tracing,
    log,
    wpSchema,
  });
  // Before the drain: operations in progress are answered at once ("shutting down") instead of being cut by it.
  lifecycle.add('operations in progress', () => routes.stop());
  // Every subscription completes before the HTTP server drains.
  if (live) lifecycle.add('subscriptions', () => live.close());
  httpServer.on('request', routes.request);
  // Read at each scrape: what a long run watches for growth (docs/production.md "Metrics").
  metrics.sampled(
    'sitegraph_http_open_connections',
    'Open connections of the public listener',
    () => new Promise<number>((resolve) => httpServer.getConnections((_err, n) => resolve(n ?? 0))),
  );
  metrics.sampled(
    'sitegraph_abort_listeners',
    "Listeners on the gateway's long-lived abort signals (the subscriptions' shutdown), and on the cancellation signals of requests in progress",
    () => (live?.listeners() ?? 0) + routes.listeners(),
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

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  // The admin listener: ADMIN_PORT, else the public port + 1 (a free one when PORT is 0).
  const admin = await startAdminListener(config, { metrics, readiness, responder, log, cache });
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
    stages: pipeline.stages,
    parses: pipeline.parses,
    close: async () => {
      // New requests meanwhile are answered "shutting down" at once.
      routes.stop();
      await lifecycle.close();
    },
  };
}
