/**
 * The gateway's one typed, validated configuration. Every option has its
 * default and its reason here (the upstream client's: upstream/defaults.ts),
 * and its environment variable in SETTINGS below
 * (a new setting: a schema field plus one SETTINGS row; loadConfig needs no
 * change). `loadConfig` reads flags, environment and the optional config file,
 * and a bad value is a ConfigError that names it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describeIssues, parseText, type TextKind } from './cli-kit.ts';
import { LOG_FORMATS, LOG_LEVELS } from './log.ts';
import { UPSTREAM_DEFAULTS } from './upstream/defaults.ts';

/** `OTEL_TRACES_SAMPLER` values (the spec's, less the Jaeger remote sampler). */
export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/**
 * `key=value,key2=value2` as the OTEL_* header and resource variables take
 * them (values URL-encoded); null when malformed, so the schema can refuse it.
 */
export function parseKeyValues(text: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const item of text.split(',')) {
    if (!item.trim()) continue;
    const eq = item.indexOf('=');
    if (eq <= 0) return null;
    const key = item.slice(0, eq).trim();
    if (!key) return null;
    try {
      out[key] = decodeURIComponent(item.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return out;
}

/**
 * Each section is `.prefault({})`: an absent section is parsed as `{}`, so it
 * gets its fields' own defaults, and every default is written once.
 */
export const configSchema = z.object({
  /** `PORT` / `--port`. 4000: the usual GraphQL development port. */
  port: z.number().int().min(0).max(65535).default(4000),
  /** `HOST` / `--host`. Loopback by default: expose it deliberately. */
  host: z.string().default('127.0.0.1'),
  /**
   * `UPSTREAM_URL` / `--upstream`: the site's REST root (`https://site/wp-json/`).
   * Unset: the embedded sandbox is started in-process and used.
   */
  upstreamUrl: z
    .string()
    .url()
    .refine(
      (u) => /^https?:\/\//i.test(u),
      "must be an http:// or https:// URL (the site's REST root, e.g. https://example.org/wp-json/)",
    )
    .optional(),
  /**
   * `SITEGRAPH_SERVICE_AUTH`: `user:application-password` used for callers who
   * send no Authorization (server-to-server jobs). Unset: such callers are anonymous.
   */
  serviceAuth: z
    .string()
    .regex(/^[^:]+:.+$/, 'must be user:application-password')
    .optional(),
  /**
   * `AUTH_SCHEMES`: the Authorization schemes passed to the site. Basic (WordPress application
   * passwords) always; add another (`Basic,Bearer`) only for a site whose plugins read it: a header
   * of any other scheme is refused (401), never served as anonymous (src/authorization.ts).
   */
  authSchemes: z
    .array(
      z
        .string()
        .regex(/^[A-Za-z][A-Za-z0-9._~+-]*$/, 'must be an HTTP authentication scheme name such as Basic or Bearer'),
    )
    .default(['Basic'])
    .transform((l) => (l.some((s) => s.toLowerCase() === 'basic') ? l : ['Basic', ...l])),
  /**
   * The upstream client; its defaults and their reasons are the client's own (UPSTREAM_DEFAULTS, upstream/defaults.ts).
   */
  upstream: z
    .object({
      /** Pool connections per origin. */
      connections: z.number().int().min(1).max(256).default(UPSTREAM_DEFAULTS.connections),
      connectTimeoutMs: z.number().int().min(1).default(UPSTREAM_DEFAULTS.connectTimeoutMs),
      headersTimeoutMs: z.number().int().min(1).default(UPSTREAM_DEFAULTS.headersTimeoutMs),
      bodyTimeoutMs: z.number().int().min(1).default(UPSTREAM_DEFAULTS.bodyTimeoutMs),
      maxResponseBytes: z.number().int().min(1024).default(UPSTREAM_DEFAULTS.maxResponseBytes),
      /** Retries of idempotent reads only (backoff, Retry-After). Writes are never retried. */
      retries: z.number().int().min(0).max(5).default(UPSTREAM_DEFAULTS.retries),
    })
    .prefault({}),
  limits: z
    .object({
      /** `first`/`last` cap on every connection: 500 (5 core pages fetched in parallel). */
      maxPageSize: z.number().int().min(1).max(10_000).default(500),
      /** Default page size when neither `first` nor `last` is given (WPGraphQL's 10). */
      defaultPageSize: z.number().int().min(1).default(10),
      /**
       * Upstream requests one GraphQL request may have in flight at once: 10, the pages of
       * the largest window (`MAX_PAGE_SIZE` 500 over the legacy list's 50-event pages), so
       * every window is one round trip; a real WordPress serves 10 at once comfortably.
       */
      upstreamConcurrency: z.number().int().min(1).max(64).default(10),
      /**
       * Query depth, introspection fields included: 15. GraphQL's standard introspection
       * query (GraphiQL's, graphql 16's type-reference fragment) is 15 deep and must pass;
       * graph queries that deep are already bounded by the cost estimate.
       */
      maxDepth: z.number().int().min(1).default(15),
      /** Aliased or repeated root-level fields: 50. */
      maxAliases: z.number().int().min(1).default(50),
      /** Query document tokens: 5000 stops pathological documents before parsing completes. */
      maxTokens: z.number().int().min(100).default(5_000),
      /**
       * Estimated upstream list requests (see limits.ts): 1000. `events(first: 100)
       * { venues { events(first: 5) } }` costs 501; three levels of nested lists are refused.
       */
      maxCost: z.number().int().min(1).default(1_000),
      /**
       * `MAX_LIST_ITEMS`: items of a list argument of IDs, slugs or statuses (`nodes(ids:)`,
       * `where.ids`, `venueIds`, `categorySlugs`, ...): 100, WordPress's largest `per_page`, so
       * one `include` request can answer it; 100 IDs are ~1 KB of query string.
       */
      maxListItems: z.number().int().min(1).default(100),
      /**
       * `MAX_SEARCH_LENGTH`: `search`, `near`, `query`, `keyword`, `keyphrase`: 200 characters (a sentence; sites match
       * words).
       */
      maxSearchLength: z.number().int().min(1).default(200),
      /** `MAX_SLUG_LENGTH`: slugs: 200 characters, WordPress's `post_name`/term `slug` column size. */
      maxSlugLength: z.number().int().min(1).default(200),
      /**
       * `MAX_URL_LENGTH`: URL arguments (`url`, `*Url`, `website`, `permalink`, ...): 2048, the common URL limit of
       * browsers and servers.
       */
      maxUrlLength: z.number().int().min(1).default(2_048),
      /**
       * `MAX_ARGUMENT_LENGTH`: any other string or ID argument of a query: 1000 characters. Reads
       * travel in query strings, which sites refuse beyond ~8 KB (414/431); write bodies are bounded
       * by the 1 MiB request size instead.
       */
      maxArgumentLength: z.number().int().min(1).default(1_000),
    })
    .prefault({}),
  /**
   * The per-operation upstream session (src/upstream/session.ts). The cap on
   * requests in flight stays `limits.upstreamConcurrency`.
   */
  session: z
    .object({
      /**
       * `UPSTREAM_BUDGET`: upstream requests (retries included) one operation may send: 500.
       * The cost limit estimates; this counts. A page of 100 events with venues, organizers
       * and terms takes under 10; `first: 500` (the page cap) over five core pages with
       * single reads for what the lists do not embed stays well under 100. 500 requests at
       * the default cap of 8 in flight and ~100 ms each is ~6 s of the site's time, inside
       * the deadline; more is a bulk job that should page (reads of 452 and 1 356 requests were seen).
       */
      budget: z.number().int().min(1).default(500),
      /**
       * `UPSTREAM_BUDGET_ANONYMOUS`: the same budget for operations the site sees as anonymous
       * (no Authorization from the caller, no SITEGRAPH_SERVICE_AUTH): 50. The canonical
       * front-end reads need 1 to 21 requests (docs/graph.md "How reads go upstream"); 50 leaves room
       * for a page with several lists while one anonymous request can no longer make hundreds
       * (190 requests, two seconds of a ten-worker PHP site, were seen from one request).
       * Callers with a credential keep `budget`: the site knows who they are.
       */
      anonymousBudget: z.number().int().min(1).default(50),
      /**
       * `OPERATION_DEADLINE_MS`: wall time for one operation's upstream work, retries and
       * backoff included: 15 s. Longer than one headers timeout (10 s) so a slow archive
       * still answers, shorter than the usual 30 s of clients and proxies, so the caller
       * gets UPSTREAM_TIMEOUT and partial data rather than a cut connection.
       */
      deadlineMs: z.number().int().min(1).default(15_000),
      /**
       * `SITE_RETRY_MS`: while the site's index has never been read (a site down when the
       * gateway started), operations retry reading it at most this often: 5 s. Often enough
       * to recover within a probe interval, rarely enough not to hammer a site that is down.
       */
      siteRetryMs: z.number().int().min(0).default(5_000),
    })
    .prefault({}),
  /**
   * `REDIS_URL` (`redis://host:6379/0`): the store shared by several gateway instances
   * (upstream cache, APQ, invalidations, rate-limit counters). Unset: each instance keeps
   * them in memory.
   */
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /**
   * `REDIS_KEY_PREFIX`: what every key this gateway puts in Redis starts with: `sitegraph:`.
   * After it comes the site's short hash (of the REST root URL; store/keys.ts), so gateways for
   * different sites share one Redis without sharing a key; a prefix per deployment keeps
   * deployments (staging, production) of the same site apart too. Apollo Router's
   * `redis.namespace` plays the same part.
   */
  redisKeyPrefix: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[!-~]+$/, 'must be printable ASCII without spaces')
    .default('sitegraph:'),
  /** Write locks: one update of an object at a time (src/store/lock.ts, docs/writes.md). */
  writes: z
    .object({
      /**
       * `WRITE_LOCK_LEASE_MS`: how long a lock held in Redis lives if its holder never
       * releases it (a crashed instance): 30 s, twice the default operation deadline, so a
       * lock never runs out under an update still allowed to run. Keep it above
       * OPERATION_DEADLINE_MS.
       */
      lockLeaseMs: z.number().int().min(1_000).default(30_000),
      /**
       * `WRITE_LOCK_WAIT_MS`: the longest an update waits for the lock of its object before
       * failing with WRITE_LOCK_TIMEOUT (nothing sent): 5 s. An update holds it for a few
       * round trips to the site (read, write, check): dozens of updates of one object queue
       * within it on a site answering in 50 ms; more is a caller hammering one object.
       */
      lockWaitMs: z.number().int().min(0).default(5_000),
    })
    .prefault({}),
  /** Per-client limit on GraphQL requests (src/ratelimit.ts). */
  rateLimit: z
    .object({
      /**
       * `RATE_LIMIT_MAX`: requests per window and client; 0 (the default) is off, since a
       * sound number depends on the deployment (behind a proxy, without `RATE_LIMIT_TRUST_PROXY`
       * every caller has the proxy's address). docs/production.md "Rate limits" recommends 600 per 60 s.
       */
      max: z.number().int().min(0).default(0),
      /** `RATE_LIMIT_WINDOW_SECONDS`: 60, the usual unit of API quotas; short bursts of a page's queries fit in it. */
      windowSeconds: z.number().int().min(1).max(86_400).default(60),
      /**
       * `RATE_LIMIT_KEY`: `ip` (default) counts every caller by address; `credential` counts a
       * caller that sends Authorization by (a hash of) that credential, anonymous callers by
       * address. `ip` by default because the gateway does not verify credentials (the site
       * does): keyed by credential, a caller could invent a new Authorization value per
       * request and never reach the limit. `credential` suits jobs that share an egress address.
       */
      key: z.enum(['ip', 'credential']).default('ip'),
      /**
       * `RATE_LIMIT_TRUST_PROXY`: reverse proxies in front of the gateway whose
       * X-Forwarded-For entries are trusted: 0, since without a proxy the header is the
       * client's own invention; 1 behind one load balancer.
       */
      trustProxyHops: z.number().int().min(0).max(10).default(0),
    })
    .prefault({}),
  /** Persisted documents and the operation safelist (src/plugins/safelist.ts). */
  persistedDocuments: z
    .object({
      /**
       * `PERSISTED_DOCUMENTS`: a manifest `{ "<id>": "<document>" }` as graphql-codegen's client
       * preset writes it (`persisted-documents.json`). Unset: no manifest.
       */
      manifest: z.string().min(1).optional(),
      /**
       * `SAFELIST=1`: only the manifest's operations run; any other query text, unknown ids
       * and APQ registration are refused. Off by default: development and GraphiQL send ad-hoc
       * queries; turn it on in production once the clients' manifest is deployed.
       */
      safelist: z.boolean().default(false),
    })
    .prefault({})
    .refine((p) => !p.safelist || p.manifest, { message: 'SAFELIST=1 needs PERSISTED_DOCUMENTS=<manifest.json>' }),
  /** The upstream GET cache (src/cache/). */
  cache: z
    .object({
      /**
       * `CACHE_TTL_SECONDS`: how long a site answer is reused: 10 s. Writes through the gateway
       * invalidate at once, so this only bounds how stale an edit made on the site itself
       * (wp-admin, cron) can be seen; 10 s still turns a burst of identical front-end reads into
       * one upstream request. The site's own Cache-Control/Expires can shorten it. 0 = off.
       */
      ttlSeconds: z.number().int().min(0).max(86_400).default(10),
      /**
       * `CACHE_STALE_SECONDS`: stale-while-revalidate (RFC 5861): an entry past its freshness but
       * within this grace is answered at once while one request refreshes it in the background.
       * 0 (the default) is off: an answer is then never older than the TTL, which is what the
       * documentation promises by default; turn it on where a few seconds more of staleness beat a
       * visitor waiting for the site. The site's own directives win: its `stale-while-revalidate=N`
       * shortens the grace, and `must-revalidate`, `proxy-revalidate`, `no-cache` allow none.
       */
      staleSeconds: z.number().int().min(0).max(86_400).default(0),
      /**
       * `CACHE_MEMORY_MAX_BYTES`: size of the in-memory store (without REDIS_URL): 64 MiB, a few
       * hundred list pages; the oldest entries go first beyond it.
       */
      memoryMaxBytes: z
        .number()
        .int()
        .min(0)
        .default(64 * 1024 * 1024),
      /**
       * `RESPONSE_CACHE`: whole answers of queries kept (cache/operation-cache.ts), so a hot read
       * skips execution; on by default whenever the upstream cache is (TTL > 0). Answers go stale
       * by the entity tags writes bump, in every instance sharing REDIS_URL.
       */
      responses: z.boolean().default(true),
      /** `RESPONSE_CACHE_MAX_BYTES`: memory for kept answers, per process: 32 MiB; the least recently used go first. */
      responsesMaxBytes: z
        .number()
        .int()
        .min(0)
        .default(32 * 1024 * 1024),
    })
    .prefault({}),
  /** Compression of the gateway's answers (src/compression.ts, docs/production.md "Compression"). */
  compression: z
    .object({
      /**
       * `COMPRESS_MIN_BYTES`: answers of at least this many bytes are compressed (brotli or gzip, as
       * the client's Accept-Encoding asks): 1024. Below about a kilobyte the coding's headers and
       * the CPU cost more than the bytes saved (a small answer fits one TCP packet either way).
       */
      minBytes: z.number().int().min(0).default(1024),
      /** `COMPRESSION=0` turns it off (a proxy in front that compresses itself). */
      enabled: z.boolean().default(true),
    })
    .prefault({}),
  /** The admin listener: /metrics, /readyz, POST /purge (src/admin/, docs/production.md "Admin listener"). */
  admin: z
    .object({
      /**
       * `ADMIN_PORT`. Unset: the public port + 1 (4001 beside the default 4000), and a free
       * port when the public port is 0 (tests); `0`: a free port. A port of its own, so the
       * public port never shows the site's URL, namespaces or metrics, and probes and scrapes
       * are not counted by rate limits.
       */
      port: z.number().int().min(0).max(65535).optional(),
      /** `ADMIN_HOST`: loopback by default, like HOST: the purge endpoint has no authentication of its own. */
      host: z.string().default('127.0.0.1'),
      /**
       * `READINESS_REFRESH_SECONDS`: how often the site's index is read again in the background
       * for /readyz (and for operations, which then see a new plugin's routes): 15 s. /readyz
       * answers from the last reading, so probes never cost the site a request each; 15 s is
       * within the usual probe period (Kubernetes: 10 s) and one small request per 15 s is
       * nothing to a site.
       */
      readinessRefreshSeconds: z.number().int().min(1).max(3_600).default(15),
    })
    .prefault({}),
  /** Subscriptions: live changes of events and posts (src/subscriptions/, docs/subscriptions.md). */
  subscriptions: z
    .object({
      /** `SUBSCRIPTIONS=0` turns them off: no SSE or WebSocket transport, no polling. */
      enabled: z.boolean().default(true),
      /**
       * `SUBSCRIPTION_POLL_SECONDS`: how often the site is polled for changes made on it (not through
       * the gateway, whose writes are published at once), while anyone subscribes: 10 s. One poll per
       * source and interval whatever the number of subscribers and instances (a modified-ordered list is
       * one request), so 10 s costs a site a few requests a minute; a change made in wp-admin then
       * reaches subscribers within about 10 s, as soon as a cache of CACHE_TTL_SECONDS (10 s) would
       * show it to a query. Fractions are accepted (tests poll every few hundred milliseconds).
       */
      pollSeconds: z.number().min(0.05).max(3_600).default(10),
      /**
       * `SUBSCRIPTION_POLL_AUTH`: `user:application-password` the polls read with. Unset:
       * SITEGRAPH_SERVICE_AUTH, else anonymous. Polls see what this user may read: anonymous polls see
       * published objects only, so changes of drafts are not found; an editor's credential finds them
       * (and trashed posts). Subscribers still get only what their own credentials read.
       */
      pollAuth: z
        .string()
        .regex(/^[^:]+:.+$/, 'must be user:application-password')
        .optional(),
      /**
       * `SUBSCRIPTION_WINDOW_EVENTS`: how many upcoming events each poll compares with the previous
       * poll, on sites without calendar-core/v1 (all changes) and with it (deletions): 100, two pages of
       * the legacy list. 0: no window poll.
       */
      windowEvents: z.number().int().min(0).max(1_000).default(100),
      /**
       * `SUBSCRIPTION_AUTOMATION_TOKEN`: an automation-a (Zapier-style) access token; its new, updated
       * and canceled feeds are then polled too (the only source of CANCELED besides gateway writes).
       * Reading them consumes nothing. Unset: not polled.
       */
      automationToken: z.string().min(1).optional(),
      /**
       * `SUBSCRIPTION_AUTOMATION_B_TOKEN`: an automation-b (Power-Automate-style) token. Its feeds pop
       * an item per read, so polling them takes the items from whatever else uses that connection:
       * set it only for a connection made for the gateway. Unset (the default): never read.
       */
      automationBToken: z.string().min(1).optional(),
      /**
       * `SUBSCRIPTION_MAX_PER_CONNECTION`: subscriptions one WebSocket or single-connection SSE stream may hold: 50.
       */
      maxPerConnection: z.number().int().min(1).max(10_000).default(50),
      /**
       * `SUBSCRIPTION_MAX_PER_CALLER`: subscriptions one caller (as RATE_LIMIT_KEY counts it: by address,
       * or by credential) may hold on one instance: 200. A browser holds a few; a job mirroring the
       * calendar a handful.
       */
      maxPerCaller: z.number().int().min(1).max(1_000_000).default(200),
      /**
       * `SUBSCRIPTION_MAX_BUFFER_BYTES`: bytes sent to a connection and not yet read by its client
       * before it is dropped as a slow consumer (with SLOW_CONSUMER and a close reason): 1 MiB, a few
       * hundred changes with their selections.
       */
      maxBufferBytes: z
        .number()
        .int()
        .min(1_024)
        .default(1024 * 1024),
      /**
       * `SUBSCRIPTION_LEASE_SECONDS` (with REDIS_URL): how long a poll lease lives unless renewed, so
       * the longest polling stops when its instance dies before another takes over: 15 s. Renewed
       * three times per lease; fractions are accepted.
       */
      leaseSeconds: z.number().min(0.1).max(3_600).default(15),
      /**
       * `SUBSCRIPTION_HEARTBEAT_SECONDS`: WebSocket pings (a connection that misses one pong is closed): 12 s,
       * graphql-sse's own SSE keep-alive.
       */
      heartbeatSeconds: z.number().min(0.1).max(600).default(12),
    })
    .prefault({}),
  /** `GRAPHIQL=0` turns the GraphiQL page off. */
  graphiql: z.boolean().default(true),
  /** `INTROSPECTION=0` turns introspection off. */
  introspection: z.boolean().default(true),
  /** Browsers on other origins (docs/production.md "CORS"). */
  cors: z
    .object({
      /**
       * `CORS_ORIGINS`: exact origins (`https://app.example.org`, comma-separated) whose pages may
       * call the gateway. Empty by default: no browser on another origin can, until someone
       * decides which front ends are trusted. No wildcard: every origin is named.
       */
      origins: z
        .array(z.string().refine(isOrigin, 'must be an origin: scheme://host[:port], without path or trailing slash'))
        .default([]),
      /**
       * `CORS_CREDENTIALS=1`: allowed origins may send the browser's credentials (cookies,
       * cached HTTP auth; `fetch(..., { credentials: 'include' })`). Off by default: the gateway
       * authenticates by the Authorization header, which a page sends explicitly and CORS allows
       * without credentials mode; ambient credentials would only let an allowed page act with
       * whatever the browser holds for the gateway's host.
       */
      credentials: z.boolean().default(false),
    })
    .prefault({}),
  log: z
    .object({
      /**
       * `LOG_LEVEL`: `info` writes one line per operation and every upstream failure; `debug` and `trace` add nothing
       * per field.
       */
      level: z.enum(LOG_LEVELS).default('info'),
      /** `LOG_FORMAT`: `auto` (pretty in a terminal, JSON otherwise), `json` or `pretty`. */
      format: z.enum(LOG_FORMATS).default('auto'),
    })
    .prefault({}),
  metrics: z
    .object({
      /**
       * `METRICS_MAX_OPERATIONS`: distinct operation names labelled in the GraphQL metrics: 100.
       * Names are chosen by callers; past this many, new names count as `other`, so a client
       * inventing names cannot grow the series without bound (100 names x ~15 outcomes x 12
       * buckets is ~20 000 series at worst, what one Prometheus target comfortably carries).
       */
      maxOperations: z.number().int().min(1).max(10_000).default(100),
    })
    .prefault({}),
  /**
   * `FEDERATION=1`: serve the schema as an Apollo Federation 2 subgraph (`@key(fields: "id")`
   * on `Node` and its types, `_service`, `_entities`; src/federation.ts). Off by default:
   * a stand-alone graph has no use for `_entities`, and `_service { sdl }` shows the
   * whole schema to anyone, `INTROSPECTION=0` or not (composers need it).
   */
  federation: z.boolean().default(false),
  /**
   * OpenTelemetry traces (src/telemetry.ts, docs/production.md "Tracing (OpenTelemetry)"), set by the
   * standard `OTEL_*` variables. Off unless `OTEL_TRACES_EXPORTER` names an exporter or an
   * OTLP endpoint is given: the spec's default exporter is `otlp`, but a gateway nobody
   * collects traces from should do no tracing work and send nothing to a localhost port.
   */
  tracing: z
    .object({
      /** `OTEL_SDK_DISABLED=true`: no traces, whatever else is set (the spec's kill switch). */
      sdkDisabled: z.boolean().default(false),
      /**
       * `OTEL_TRACES_EXPORTER`: `otlp`, `console` (stdout, for debugging), both, or `none`. Empty: `otlp` if an
       * endpoint is set, else off.
       */
      exporters: z
        .array(z.enum(['otlp', 'console', 'none'], { message: 'must be otlp, console or none (comma-separated)' }))
        .default([]),
      /** `OTEL_EXPORTER_OTLP_ENDPOINT`: the collector's base URL; traces go to `<base>/v1/traces`. */
      otlpEndpoint: z
        .string()
        .url()
        .regex(/^https?:\/\//i, 'must be an http:// or https:// URL')
        .optional(),
      /**
       * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`: the full traces URL, used as is (wins over the base). Neither set:
       * `http://localhost:4318/v1/traces`, the spec's.
       */
      otlpTracesEndpoint: z
        .string()
        .url()
        .regex(/^https?:\/\//i, 'must be an http:// or https:// URL')
        .optional(),
      /**
       * `OTEL_EXPORTER_OTLP_PROTOCOL`: `http/protobuf`, the spec's default and every collector's; `http/json`. No gRPC
       * exporter is installed.
       */
      otlpProtocol: z
        .enum(['http/protobuf', 'http/json'], { message: 'must be http/protobuf or http/json (gRPC is not supported)' })
        .default('http/protobuf'),
      /** `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`: the same, for traces only (wins). */
      otlpTracesProtocol: z
        .enum(['http/protobuf', 'http/json'], { message: 'must be http/protobuf or http/json (gRPC is not supported)' })
        .optional(),
      /** `OTEL_EXPORTER_OTLP_HEADERS`: `key=value,...` (URL-encoded values) sent to the collector, e.g. its API key. */
      otlpHeaders: z
        .string()
        .refine((v) => parseKeyValues(v) !== null, 'must be key=value pairs, comma-separated')
        .optional(),
      /** `OTEL_EXPORTER_OTLP_TRACES_HEADERS`: the same, for traces only (added over the general ones). */
      otlpTracesHeaders: z
        .string()
        .refine((v) => parseKeyValues(v) !== null, 'must be key=value pairs, comma-separated')
        .optional(),
      /** `OTEL_SERVICE_NAME`. Unset: `service.name` of `OTEL_RESOURCE_ATTRIBUTES`, else `sitegraph`. */
      serviceName: z.string().min(1).optional(),
      /**
       * `OTEL_RESOURCE_ATTRIBUTES`: `key=value,...` added to every span's resource
       * (`deployment.environment.name=prod`).
       */
      resourceAttributes: z
        .string()
        .refine((v) => parseKeyValues(v) !== null, 'must be key=value pairs, comma-separated')
        .optional(),
      /**
       * `OTEL_TRACES_SAMPLER`: `parentbased_always_on`, the spec's default: a caller that sends a
       * `traceparent` decides; every other operation is traced (a gateway's traffic is modest
       * next to its site's; lower it with `parentbased_traceidratio`).
       */
      sampler: z.enum(TRACE_SAMPLERS).default('parentbased_always_on'),
      /** `OTEL_TRACES_SAMPLER_ARG`: the ratio (0..1) of the `*traceidratio` samplers. Unset: 1, the spec's. */
      samplerArg: z.number().min(0).max(1).optional(),
    })
    .prefault({}),
});

/**
 * The admin listener's port: `ADMIN_PORT`, else the public port + 1, else (the public
 * port is 0, a free one) a free port too. PORT 65535 has no + 1: ADMIN_PORT must be set.
 */
export function adminPortOf(config: Pick<Config, 'port' | 'admin'>): number {
  if (config.admin.port !== undefined) return config.admin.port;
  if (config.port === 0) return 0;
  if (config.port === 65_535)
    throw new ConfigError('invalid configuration: PORT is 65535, so ADMIN_PORT (by default PORT + 1) must be set');
  return config.port + 1;
}

/** An origin as browsers send it in `Origin`: `new URL(o).origin` gives it back unchanged. */
function isOrigin(o: string): boolean {
  try {
    const u = new URL(o);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === o;
  } catch {
    return false;
  }
}

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Every setting that the environment (and for some, a flag) can set: the one
 * table that `loadConfig`, `npm start -- --help` and test/config.test.ts read,
 * so help, parsing and the schema cannot drift. A new setting is a schema field
 * above plus one row here (test/config.test.ts fails on a schema field without
 * a row). The default shown in help is the schema's.
 */
export interface Setting {
  /** Environment variable. */
  env: string;
  /** Where it goes in Config, dotted (`upstream.retries`): also its key in the config file. */
  path: string;
  /** How the variable's text becomes a value (src/cli-kit.ts); the schema validates it after. */
  kind: TextKind;
  /** `--<flag>` of `npm start` that sets it too (flags win over the environment). */
  flag?: string;
  /** One line for `--help`. */
  meaning: string;
  /** What leaving it unset means, for settings without a default. */
  unset?: string;
}

export const SETTINGS: readonly Setting[] = [
  { env: 'PORT', flag: 'port', path: 'port', kind: 'int', meaning: 'gateway port' },
  {
    env: 'HOST',
    flag: 'host',
    path: 'host',
    kind: 'string',
    meaning: 'listen address (loopback; expose deliberately)',
  },
  {
    env: 'UPSTREAM_URL',
    flag: 'upstream',
    path: 'upstreamUrl',
    kind: 'string',
    meaning: "the site's REST root, e.g. https://example.org/wp-json/ (or a ?rest_route= root)",
    unset: 'start the embedded sandbox',
  },
  {
    env: 'SITEGRAPH_SERVICE_AUTH',
    path: 'serviceAuth',
    kind: 'string',
    meaning: 'user:application-password for callers without credentials',
    unset: 'such callers are anonymous',
  },
  {
    env: 'AUTH_SCHEMES',
    path: 'authSchemes',
    kind: 'list',
    meaning:
      'Authorization schemes passed to the site (Basic always; e.g. Basic,Bearer for a token plugin); others are refused with 401',
  },
  {
    env: 'REDIS_URL',
    path: 'redisUrl',
    kind: 'string',
    meaning: 'Redis shared by several gateway instances (redis://host:6379/0)',
    unset: 'each instance keeps its stores in memory',
  },
  {
    env: 'REDIS_KEY_PREFIX',
    path: 'redisKeyPrefix',
    kind: 'string',
    meaning: "prefix of every Redis key (then the site's hash)",
  },
  {
    env: 'UPSTREAM_CONNECTIONS',
    path: 'upstream.connections',
    kind: 'int',
    meaning: 'undici pool connections per origin',
  },
  { env: 'UPSTREAM_CONNECT_TIMEOUT_MS', path: 'upstream.connectTimeoutMs', kind: 'int', meaning: 'connect timeout' },
  {
    env: 'UPSTREAM_HEADERS_TIMEOUT_MS',
    path: 'upstream.headersTimeoutMs',
    kind: 'int',
    meaning: 'time to response headers',
  },
  {
    env: 'UPSTREAM_BODY_TIMEOUT_MS',
    path: 'upstream.bodyTimeoutMs',
    kind: 'int',
    meaning: 'idle time while reading a body',
  },
  { env: 'UPSTREAM_MAX_RESPONSE_BYTES', path: 'upstream.maxResponseBytes', kind: 'int', meaning: 'response size cap' },
  { env: 'UPSTREAM_RETRIES', path: 'upstream.retries', kind: 'int', meaning: 'retries of idempotent reads' },
  { env: 'MAX_PAGE_SIZE', path: 'limits.maxPageSize', kind: 'int', meaning: 'first/last cap on every connection' },
  {
    env: 'DEFAULT_PAGE_SIZE',
    path: 'limits.defaultPageSize',
    kind: 'int',
    meaning: 'connection size without first/last',
  },
  {
    env: 'UPSTREAM_CONCURRENCY',
    path: 'limits.upstreamConcurrency',
    kind: 'int',
    meaning: 'upstream requests one GraphQL request may have in flight',
  },
  { env: 'MAX_QUERY_DEPTH', path: 'limits.maxDepth', kind: 'int', meaning: 'query depth, introspection included' },
  {
    env: 'MAX_QUERY_ALIASES',
    path: 'limits.maxAliases',
    kind: 'int',
    meaning: 'aliased or repeated root-level fields',
  },
  { env: 'MAX_QUERY_TOKENS', path: 'limits.maxTokens', kind: 'int', meaning: 'query document tokens' },
  {
    env: 'MAX_QUERY_COST',
    path: 'limits.maxCost',
    kind: 'int',
    meaning: 'estimated upstream list requests of one query',
  },
  {
    env: 'MAX_LIST_ITEMS',
    path: 'limits.maxListItems',
    kind: 'int',
    meaning: 'items of a list argument of IDs, slugs or statuses',
  },
  {
    env: 'MAX_SEARCH_LENGTH',
    path: 'limits.maxSearchLength',
    kind: 'int',
    meaning: 'characters of search-like arguments',
  },
  { env: 'MAX_SLUG_LENGTH', path: 'limits.maxSlugLength', kind: 'int', meaning: 'characters of a slug' },
  { env: 'MAX_URL_LENGTH', path: 'limits.maxUrlLength', kind: 'int', meaning: 'characters of a URL argument' },
  {
    env: 'MAX_ARGUMENT_LENGTH',
    path: 'limits.maxArgumentLength',
    kind: 'int',
    meaning: 'characters of any other string or ID argument',
  },
  {
    env: 'UPSTREAM_BUDGET',
    path: 'session.budget',
    kind: 'int',
    meaning:
      'upstream requests (retries included) one operation with a credential may send; a query estimated over it is refused before sending',
  },
  {
    env: 'UPSTREAM_BUDGET_ANONYMOUS',
    path: 'session.anonymousBudget',
    kind: 'int',
    meaning: 'the same, for operations the site sees as anonymous',
  },
  {
    env: 'OPERATION_DEADLINE_MS',
    path: 'session.deadlineMs',
    kind: 'int',
    meaning: "wall time for one operation's upstream work, retries included",
  },
  {
    env: 'SITE_RETRY_MS',
    path: 'session.siteRetryMs',
    kind: 'int',
    meaning: "while the site's index has never been read, operations retry it at most this often",
  },
  {
    env: 'WRITE_LOCK_LEASE_MS',
    path: 'writes.lockLeaseMs',
    kind: 'int',
    meaning: 'life of a write lock held in Redis whose holder never releases it',
  },
  {
    env: 'WRITE_LOCK_WAIT_MS',
    path: 'writes.lockWaitMs',
    kind: 'int',
    meaning: "longest an update waits for its object's lock (then WRITE_LOCK_TIMEOUT)",
  },
  {
    env: 'RATE_LIMIT_MAX',
    path: 'rateLimit.max',
    kind: 'int',
    meaning: 'GraphQL requests per window and client; 0: no limit',
  },
  { env: 'RATE_LIMIT_WINDOW_SECONDS', path: 'rateLimit.windowSeconds', kind: 'int', meaning: 'rate-limit window' },
  {
    env: 'RATE_LIMIT_KEY',
    path: 'rateLimit.key',
    kind: 'enum',
    meaning: 'what a client is counted by: ip, or credential (Authorization; anonymous callers by ip)',
  },
  {
    env: 'RATE_LIMIT_TRUST_PROXY',
    path: 'rateLimit.trustProxyHops',
    kind: 'int',
    meaning: 'reverse proxies in front whose X-Forwarded-For entries are trusted',
  },
  {
    env: 'PERSISTED_DOCUMENTS',
    path: 'persistedDocuments.manifest',
    kind: 'string',
    meaning: 'persisted-documents manifest ({ "<id>": "<document>" }, graphql-codegen client preset)',
    unset: 'no manifest',
  },
  {
    env: 'SAFELIST',
    path: 'persistedDocuments.safelist',
    kind: 'bool',
    meaning: "run only the manifest's operations (needs PERSISTED_DOCUMENTS)",
  },
  {
    env: 'CACHE_TTL_SECONDS',
    path: 'cache.ttlSeconds',
    kind: 'int',
    meaning: 'how long a site answer is reused; 0: no cache',
  },
  {
    env: 'CACHE_MEMORY_MAX_BYTES',
    path: 'cache.memoryMaxBytes',
    kind: 'int',
    meaning: 'size of the in-memory cache (without REDIS_URL)',
  },
  {
    env: 'CACHE_STALE_SECONDS',
    path: 'cache.staleSeconds',
    kind: 'int',
    meaning: 'stale-while-revalidate grace past the TTL (RFC 5861); 0: off',
  },
  {
    env: 'RESPONSE_CACHE',
    path: 'cache.responses',
    kind: 'bool',
    meaning: '0: keep no whole answers (the response cache; on while CACHE_TTL_SECONDS > 0)',
  },
  {
    env: 'RESPONSE_CACHE_MAX_BYTES',
    path: 'cache.responsesMaxBytes',
    kind: 'int',
    meaning: 'memory for kept whole answers, per process',
  },
  {
    env: 'COMPRESS_MIN_BYTES',
    path: 'compression.minBytes',
    kind: 'int',
    meaning: 'answers of at least this size are compressed (br or gzip, as Accept-Encoding asks)',
  },
  {
    env: 'COMPRESSION',
    path: 'compression.enabled',
    kind: 'bool',
    meaning: 'compress answers (0: a proxy in front does)',
  },
  {
    env: 'ADMIN_PORT',
    path: 'admin.port',
    kind: 'int',
    meaning: 'admin listener port (/metrics, /readyz, POST /purge); 0: a free port',
    unset: 'PORT + 1 (a free port when PORT is 0)',
  },
  {
    env: 'ADMIN_HOST',
    path: 'admin.host',
    kind: 'string',
    meaning: 'admin listener address (loopback; it has no authentication)',
  },
  {
    env: 'READINESS_REFRESH_SECONDS',
    path: 'admin.readinessRefreshSeconds',
    kind: 'int',
    meaning: "how often the site's index is read again in the background (/readyz answers from it)",
  },
  {
    env: 'SUBSCRIPTIONS',
    path: 'subscriptions.enabled',
    kind: 'bool',
    meaning: 'serve subscriptions over SSE and WebSocket on /graphql',
  },
  {
    env: 'SUBSCRIPTION_POLL_SECONDS',
    path: 'subscriptions.pollSeconds',
    kind: 'json',
    meaning: 'how often the site is polled for changes while anyone subscribes',
  },
  {
    env: 'SUBSCRIPTION_POLL_AUTH',
    path: 'subscriptions.pollAuth',
    kind: 'string',
    meaning: 'user:application-password the polls read with',
    unset: 'SITEGRAPH_SERVICE_AUTH, else anonymous',
  },
  {
    env: 'SUBSCRIPTION_WINDOW_EVENTS',
    path: 'subscriptions.windowEvents',
    kind: 'int',
    meaning: 'upcoming events each poll compares; 0: none',
  },
  {
    env: 'SUBSCRIPTION_AUTOMATION_TOKEN',
    path: 'subscriptions.automationToken',
    kind: 'string',
    meaning: 'automation-a token: poll its new/updated/canceled feeds',
    unset: 'not polled',
  },
  {
    env: 'SUBSCRIPTION_AUTOMATION_B_TOKEN',
    path: 'subscriptions.automationBToken',
    kind: 'string',
    meaning: 'automation-b token: poll (and so pop) its feeds',
    unset: 'never read',
  },
  {
    env: 'SUBSCRIPTION_MAX_PER_CONNECTION',
    path: 'subscriptions.maxPerConnection',
    kind: 'int',
    meaning: 'subscriptions per WebSocket or SSE stream',
  },
  {
    env: 'SUBSCRIPTION_MAX_PER_CALLER',
    path: 'subscriptions.maxPerCaller',
    kind: 'int',
    meaning: 'subscriptions per caller and instance',
  },
  {
    env: 'SUBSCRIPTION_MAX_BUFFER_BYTES',
    path: 'subscriptions.maxBufferBytes',
    kind: 'int',
    meaning: 'unread bytes before a slow subscriber is dropped',
  },
  {
    env: 'SUBSCRIPTION_LEASE_SECONDS',
    path: 'subscriptions.leaseSeconds',
    kind: 'json',
    meaning: 'life of a poll lease (REDIS_URL): the longest a takeover waits',
  },
  {
    env: 'SUBSCRIPTION_HEARTBEAT_SECONDS',
    path: 'subscriptions.heartbeatSeconds',
    kind: 'json',
    meaning: 'WebSocket ping interval',
  },
  { env: 'GRAPHIQL', path: 'graphiql', kind: 'bool', meaning: 'serve GraphiQL at /graphql to browsers' },
  { env: 'INTROSPECTION', path: 'introspection', kind: 'bool', meaning: 'allow introspection (__schema, __type)' },
  {
    env: 'CORS_ORIGINS',
    path: 'cors.origins',
    kind: 'list',
    meaning: 'origins whose pages may call the gateway (comma-separated, exact)',
  },
  {
    env: 'CORS_CREDENTIALS',
    path: 'cors.credentials',
    kind: 'bool',
    meaning: "allowed origins may send the browser's credentials",
  },
  { env: 'LOG_LEVEL', path: 'log.level', kind: 'enum', meaning: 'log level' },
  {
    env: 'LOG_FORMAT',
    path: 'log.format',
    kind: 'enum',
    meaning: 'auto (pretty in a terminal, JSON otherwise), json or pretty',
  },
  {
    env: 'METRICS_MAX_OPERATIONS',
    path: 'metrics.maxOperations',
    kind: 'int',
    meaning: 'distinct operation names labelled in metrics (others count as "other")',
  },
  {
    env: 'FEDERATION',
    path: 'federation',
    kind: 'bool',
    meaning: 'serve the schema as an Apollo Federation 2 subgraph',
  },
  {
    env: 'OTEL_SDK_DISABLED',
    path: 'tracing.sdkDisabled',
    kind: 'bool',
    meaning: 'turn tracing off whatever else is set',
  },
  {
    env: 'OTEL_TRACES_EXPORTER',
    path: 'tracing.exporters',
    kind: 'list',
    meaning: 'otlp, console or none',
    unset: 'otlp when an OTLP endpoint is set, else no tracing',
  },
  {
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    path: 'tracing.otlpEndpoint',
    kind: 'string',
    meaning: "collector's base URL (traces to <base>/v1/traces)",
    unset: 'http://localhost:4318',
  },
  {
    env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    path: 'tracing.otlpTracesEndpoint',
    kind: 'string',
    meaning: 'full OTLP traces URL (wins over the base)',
    unset: 'from OTEL_EXPORTER_OTLP_ENDPOINT',
  },
  {
    env: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    path: 'tracing.otlpProtocol',
    kind: 'enum',
    meaning: 'http/protobuf or http/json',
  },
  {
    env: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    path: 'tracing.otlpTracesProtocol',
    kind: 'enum',
    meaning: 'the same, for traces only',
    unset: 'OTEL_EXPORTER_OTLP_PROTOCOL',
  },
  {
    env: 'OTEL_EXPORTER_OTLP_HEADERS',
    path: 'tracing.otlpHeaders',
    kind: 'string',
    meaning: 'headers to the collector: key=value,... (e.g. an API key)',
    unset: 'none',
  },
  {
    env: 'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
    path: 'tracing.otlpTracesHeaders',
    kind: 'string',
    meaning: 'the same, for traces only',
    unset: 'none',
  },
  {
    env: 'OTEL_SERVICE_NAME',
    path: 'tracing.serviceName',
    kind: 'string',
    meaning: 'service.name of the spans',
    unset: 'service.name of OTEL_RESOURCE_ATTRIBUTES, else sitegraph',
  },
  {
    env: 'OTEL_RESOURCE_ATTRIBUTES',
    path: 'tracing.resourceAttributes',
    kind: 'string',
    meaning: 'resource attributes: key=value,...',
    unset: 'none',
  },
  {
    env: 'OTEL_TRACES_SAMPLER',
    path: 'tracing.sampler',
    kind: 'enum',
    meaning: 'always_on, always_off, traceidratio or parentbased_* of them',
  },
  {
    env: 'OTEL_TRACES_SAMPLER_ARG',
    path: 'tracing.samplerArg',
    kind: 'json',
    meaning: 'ratio 0..1 of the traceidratio samplers',
    unset: '1',
  },
];

/** `--config <file>` / `SITEGRAPH_CONFIG`: the optional JSON config file (docs/configuration.md). */
export const CONFIG_FILE_SETTING = {
  env: 'SITEGRAPH_CONFIG',
  flag: 'config',
  kind: 'string',
  meaning: 'JSON config file, keys as in config.schema.json (flags > environment > file > defaults)',
} as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function getPath(o: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), o);
}

function setPath(o: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop()!;
  let at = o;
  for (const k of keys) {
    if (!isObject(at[k])) at[k] = {};
    at = at[k] as Json;
  }
  at[last] = value;
}

/** `over` on top of `base`, objects merged key by key (arrays and values replaced). */
function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over))
    out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as Json, v) : v;
  return out;
}

/** The object schema inside `.prefault()`/`.default()`/`.optional()` wrappers, if it is one. */
function objectShape(schema: unknown): Record<string, unknown> | undefined {
  let s = schema as { def?: { innerType?: unknown } } | undefined;
  while (s && !(s instanceof z.ZodObject) && s.def?.innerType) s = s.def.innerType as typeof s;
  return s instanceof z.ZodObject ? (s.shape as Record<string, unknown>) : undefined;
}

/** Every leaf setting of the schema, dotted (`upstream.retries`). */
export function settingPaths(shape: Record<string, unknown> = configSchema.shape, prefix = ''): string[] {
  return Object.entries(shape).flatMap(([k, v]) => {
    const inner = objectShape(v);
    return inner ? settingPaths(inner, `${prefix}${k}.`) : [`${prefix}${k}`];
  });
}

/** Edit distance (insertions, deletions, substitutions), for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The setting an unknown config-file key most likely meant: the same letters in
 * another nesting or case (`cacheTtlSeconds`, `CACHE_TTL_SECONDS` -> `cache.ttlSeconds`),
 * else the nearest dotted path within a third of its length.
 */
export function suggestKey(key: string): string | undefined {
  const squash = (k: string) => k.toLowerCase().replace(/[^a-z0-9]/g, '');
  const paths = settingPaths();
  const bySetting = SETTINGS.find((s) => s.env === key);
  if (bySetting) return bySetting.path;
  const same = paths.find((p) => squash(p) === squash(key));
  if (same) return same;
  let best: { path: string; d: number } | undefined;
  for (const p of paths) {
    const d = Math.min(
      distance(key.toLowerCase(), p.toLowerCase()),
      distance(key.toLowerCase(), p.split('.').pop()!.toLowerCase()),
    );
    if (!best || d < best.d) best = { path: p, d };
  }
  return best && best.d <= Math.max(2, Math.floor(key.length / 3)) ? best.path : undefined;
}

/** Keys of a config file the schema does not have (a typo would otherwise be silently ignored). */
function unknownKeys(value: Json, shape: Record<string, unknown> = configSchema.shape, prefix = ''): string[] {
  return Object.entries(value).flatMap(([k, v]) => {
    if (!(k in shape)) return [`${prefix}${k}`];
    const inner = objectShape(shape[k]);
    return inner && isObject(v) ? unknownKeys(v, inner, `${prefix}${k}.`) : [];
  });
}

/** A setting's default as `--help` shows it (booleans as 1/0, like the environment takes them). */
export function settingDefault(s: Setting): string {
  const v = getPath(configSchema.parse({}), s.path);
  if (v === undefined) return '(unset)';
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (Array.isArray(v)) return v.length ? v.join(',') : '(none)';
  return String(v);
}

/**
 * Validates `input`. `sources` maps dotted paths to where their value came
 * from (`PORT`, `--port`, the file), so an error names what to fix.
 */
export function parseConfig(input: ConfigInput, sources: ReadonlyMap<string, string> = new Map()): Config {
  const r = configSchema.safeParse(input);
  if (r.success) return r.data;
  throw new ConfigError(`invalid configuration: ${describeIssues(r.error.issues, sources)}`);
}

/** The config file: JSON shaped like Config (nested, partial), unknown keys refused. */
export function readConfigFile(file: string): Json {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(value)) throw new ConfigError(`config file ${file} must hold a JSON object`);
  // `$schema` points an editor at config.schema.json (npm run config-schema); it is not a setting.
  const { $schema: _schema, ...settings } = value;
  const unknown = unknownKeys(settings);
  if (unknown.length) {
    const named = unknown.map((k) => {
      const meant = suggestKey(k);
      return meant ? `${JSON.stringify(k)} (did you mean ${JSON.stringify(meant)}?)` : JSON.stringify(k);
    });
    throw new ConfigError(`config file ${file}: unknown key${unknown.length > 1 ? 's' : ''} ${named.join(', ')}`);
  }
  // Checked alone too, so a bad value in the file is an error even where the environment overrides it.
  const sources = new Map(settingPaths().map((p) => [p, `config file ${file}`]));
  parseConfig(settings as ConfigInput, sources);
  return settings;
}

/**
 * The configuration: flags > environment > config file > defaults. `flags`
 * are `npm start`'s, by name without `--` (`port`, `host`, `upstream`, `config`).
 * An empty environment variable counts as unset; an empty flag does not.
 */
export function loadConfig(env: NodeJS.ProcessEnv, flags: Readonly<Record<string, string | undefined>> = {}): Config {
  const file = flags[CONFIG_FILE_SETTING.flag] ?? (env[CONFIG_FILE_SETTING.env] || undefined);
  const sources = new Map<string, string>();
  let input = configSchema.parse({}) as Json;
  if (file !== undefined) {
    input = deepMerge(input, readConfigFile(file));
    for (const p of settingPaths()) if (getPath(input, p) !== undefined) sources.set(p, `config file ${file}`);
  }
  for (const s of SETTINGS) {
    const flag = s.flag !== undefined ? flags[s.flag] : undefined;
    const raw = flag ?? (env[s.env] || undefined);
    if (raw === undefined) continue;
    const name = flag !== undefined ? `--${s.flag}` : s.env;
    setPath(input, s.path, parseText(name, s.kind, raw, ConfigError));
    sources.set(s.path, name);
  }
  return parseConfig(input as ConfigInput, sources);
}

/**
 * A hint when the upstream does not look like a WordPress REST root (no `/wp-json/`,
 * no `rest_route=`): the gateway starts anyway (a site may serve its API elsewhere),
 * but /readyz stays 503 until the root's index is read.
 */
export function upstreamHint(url: string): string | undefined {
  if (/\/wp-json(\/|$)|[?&]rest_route=/.test(url)) return undefined;
  return (
    `hint: ${url} has no /wp-json/: a WordPress REST root is usually https://<site>/wp-json/ ` +
    "(or https://<site>/?rest_route=/ without pretty permalinks); /readyz stays 503 until the root's index answers"
  );
}

/**
 * The configuration file's JSON Schema, from the same zod schema (input side:
 * every key optional, defaults shown), each setting described with its variable,
 * flag and meaning; unknown keys refused, `$schema` allowed. `npm run config-schema`
 * writes it to config.schema.json.
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  type Node = {
    type?: unknown;
    properties?: Record<string, Node>;
    additionalProperties?: unknown;
    description?: string;
  };
  const closed = (n: Node) => {
    if (n.properties) {
      n.additionalProperties = false;
      for (const child of Object.values(n.properties)) closed(child);
    }
  };
  closed(schema as Node);
  for (const s of SETTINGS) {
    let at = schema as Node | undefined;
    for (const k of s.path.split('.')) at = at?.properties?.[k];
    if (!at) continue;
    const how = [s.env, s.flag ? `--${s.flag}` : undefined].filter(Boolean).join(', ');
    at.description = `${s.meaning}${s.unset ? `; unset: ${s.unset}` : ''} (${how})`;
  }
  const root = schema as Node & Record<string, unknown>;
  root.properties = { $schema: { type: 'string', description: 'this JSON Schema, for editors' }, ...root.properties };
  return { ...root, title: 'sitegraph configuration file (--config, SITEGRAPH_CONFIG)' };
}
