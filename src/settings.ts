/**
 * Every setting of the gateway, declared once: one row each, with its environment variable, its path
 * (also its key in the config file), type, default, bounds and meaning, and the reason for its default
 * beside it (the upstream client's are the client's own: upstream/defaults.ts). Made from these rows
 * (src/settings-kit.ts): the validated, typed configuration (src/config.ts: `configSchema`, `Config`,
 * `loadConfig`), `npm start -- --help`, config.schema.json and the table of docs/configuration.md
 * (`npm run config-schema`; `npm run build` fails when either file differs from what it would write).
 * A new setting is one row here; rules across settings are code after the schema, in src/config.ts.
 */
import { LOG_FORMATS, LOG_LEVELS } from './log.ts';
import { setting, type TextCheck } from './settings-kit.ts';
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

/** An origin as browsers send it in `Origin`: `new URL(o).origin` gives it back unchanged. */
function isOrigin(o: string): boolean {
  try {
    const u = new URL(o);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === o;
  } catch {
    return false;
  }
}

const MIB = 1024 * 1024;
/** The main listener's own paths, which the compatible graph cannot take. */
const RESERVED_PATHS = /^\/(graphql|healthz|graphiql(\/.*)?)\/?$/;
const CREDENTIAL: TextCheck = [/^[^:]+:.+$/, 'must be user:application-password'];
const KEY_VALUES: TextCheck = [(v) => parseKeyValues(v) !== null, 'must be key=value pairs, comma-separated'];
const HTTP_URL: TextCheck = [/^https?:\/\//i, 'must be an http:// or https:// URL'];
const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
const OTLP_PROTOCOL_MESSAGE = 'must be http/protobuf or http/json (gRPC is not supported)';

/**
 * `--config <file>` / `SITEGRAPH_CONFIG`: the optional JSON config file (docs/configuration.md). Not a
 * setting of the file itself, so not a row of SETTINGS; `loadConfig` reads it first.
 */
export const CONFIG_FILE_SETTING = {
  env: 'SITEGRAPH_CONFIG',
  flag: 'config',
  kind: 'string',
  meaning: 'JSON config file, keys as in config.schema.json (flags > environment > file > defaults)',
  doc: 'JSON configuration file (see [the configuration file](#the-configuration-file))',
} as const;

/** The settings, in the order `--help` and docs/configuration.md list them. */
export const SETTINGS = [
  // 4000: the usual GraphQL development port.
  setting({
    env: 'PORT',
    flag: 'port',
    path: 'port',
    type: 'int',
    default: 4000,
    min: 0,
    max: 65535,
    meaning: 'gateway port',
  }),
  // Loopback by default: expose it deliberately.
  setting({
    env: 'HOST',
    flag: 'host',
    path: 'host',
    type: 'string',
    default: '127.0.0.1',
    meaning: 'listen address (loopback; expose deliberately)',
  }),
  setting({
    env: 'UPSTREAM_URL',
    flag: 'upstream',
    path: 'upstreamUrl',
    type: 'string',
    url: true,
    check: [
      /^https?:\/\//i,
      "must be an http:// or https:// URL (the site's REST root, e.g. https://example.org/wp-json/)",
    ],
    meaning: "the site's REST root, e.g. https://example.org/wp-json/ (or a ?rest_route= root)",
    doc: "the site's REST root, e.g. `https://example.org/wp-json/` (or a `?rest_route=` root)",
    unset: 'start the embedded sandbox',
  }),
  // For server-to-server jobs, which send no Authorization of their own.
  setting({
    env: 'SITEGRAPH_SERVICE_AUTH',
    path: 'serviceAuth',
    type: 'string',
    check: CREDENTIAL,
    meaning: 'user:application-password for callers without credentials',
    doc: '`user:application-password` used for callers that send no `Authorization` (server-to-server jobs)',
    unset: 'such callers are anonymous',
  }),
  // Basic only: WordPress reads application passwords over HTTP Basic, and would serve a header of another
  // scheme as no credential at all (src/authorization.ts), so the gateway refuses it rather than answer anonymously.
  setting({
    env: 'AUTH_SCHEMES',
    path: 'authSchemes',
    type: 'list',
    default: ['Basic'],
    check: [/^[A-Za-z][A-Za-z0-9._~+-]*$/, 'must be an HTTP authentication scheme name such as Basic or Bearer'],
    normalize: (l) => (l.some((s) => s.toLowerCase() === 'basic') ? l : ['Basic', ...l]),
    meaning:
      'Authorization schemes passed to the site (Basic always; e.g. Basic,Bearer for a token plugin); others are refused with 401',
    doc:
      'the `Authorization` schemes passed to the site: Basic (WordPress application passwords) always; add another ' +
      '(`Basic,Bearer`) only for a site whose plugins read it. A header of any other scheme, or a malformed Basic ' +
      'value, is refused with `UNAUTHENTICATED` (HTTP 401) before anything is sent, never served as anonymous ' +
      '([auth](graph.md#auth)); an empty header counts as none',
  }),
  // Unset, each instance keeps its stores in memory: right for one instance, and nothing to run beside it.
  setting({
    env: 'REDIS_URL',
    path: 'redisUrl',
    type: 'string',
    check: [/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'],
    meaning: 'Redis shared by several gateway instances (redis://host:6379/0)',
    doc:
      'Redis shared by several gateway instances (`redis://host:6379/0`): upstream cache, APQ, invalidations, ' +
      'rate-limit counters, write locks; one Redis may serve gateways for many sites ' +
      '(see [Redis](production.md#redis-several-gateway-instances))',
    unset: 'each instance keeps its stores in memory',
  }),
  // After the prefix comes the site's short hash (of the REST root URL; store/keys.ts), so gateways for
  // different sites share one Redis without sharing a key; a prefix per deployment keeps deployments (staging,
  // production) of the same site apart too. Apollo Router's `redis.namespace` plays the same part.
  setting({
    env: 'REDIS_KEY_PREFIX',
    path: 'redisKeyPrefix',
    type: 'string',
    default: 'sitegraph:',
    min: 1,
    max: 100,
    check: [/^[!-~]+$/, 'must be printable ASCII without spaces'],
    meaning: "prefix of every Redis key (then the site's hash)",
    doc:
      "what every Redis key starts with; the site's hash follows it, so sites never share a key " +
      '(see [Redis](production.md#redis-several-gateway-instances))',
  }),

  // The upstream client: its defaults and their reasons are the client's own (upstream/defaults.ts).
  setting({
    env: 'UPSTREAM_CONNECTIONS',
    path: 'upstream.connections',
    type: 'int',
    default: UPSTREAM_DEFAULTS.connections,
    min: 1,
    max: 256,
    meaning: 'undici pool connections per origin',
  }),
  setting({
    env: 'UPSTREAM_CONNECT_TIMEOUT_MS',
    path: 'upstream.connectTimeoutMs',
    type: 'int',
    default: UPSTREAM_DEFAULTS.connectTimeoutMs,
    min: 1,
    meaning: 'connect timeout',
  }),
  setting({
    env: 'UPSTREAM_HEADERS_TIMEOUT_MS',
    path: 'upstream.headersTimeoutMs',
    type: 'int',
    default: UPSTREAM_DEFAULTS.headersTimeoutMs,
    min: 1,
    meaning: 'time to response headers',
  }),
  setting({
    env: 'UPSTREAM_BODY_TIMEOUT_MS',
    path: 'upstream.bodyTimeoutMs',
    type: 'int',
    default: UPSTREAM_DEFAULTS.bodyTimeoutMs,
    min: 1,
    meaning: 'idle time while reading a body',
  }),
  setting({
    env: 'UPSTREAM_MAX_RESPONSE_BYTES',
    path: 'upstream.maxResponseBytes',
    type: 'int',
    default: UPSTREAM_DEFAULTS.maxResponseBytes,
    min: 1024,
    meaning: 'response size cap',
  }),
  setting({
    env: 'UPSTREAM_RETRIES',
    path: 'upstream.retries',
    type: 'int',
    default: UPSTREAM_DEFAULTS.retries,
    min: 0,
    max: 5,
    meaning: 'retries of idempotent reads (backoff, Retry-After); writes are never retried',
  }),

  // Limits on one GraphQL request (src/limits.ts, plugins/limits.ts).
  // Five core pages of WordPress's largest (100) fetched in parallel.
  setting({
    env: 'MAX_PAGE_SIZE',
    path: 'limits.maxPageSize',
    type: 'int',
    default: 500,
    min: 1,
    max: 10_000,
    meaning: 'first/last cap on every connection',
    doc: 'cap of `first`, `last`, `perPage` and `limit` on every connection',
  }),
  // WPGraphQL's.
  setting({
    env: 'DEFAULT_PAGE_SIZE',
    path: 'limits.defaultPageSize',
    type: 'int',
    default: 10,
    min: 1,
    meaning: 'connection size without first/last',
    doc: 'connection size without `first`/`last`',
  }),
  // The pages of the largest window (MAX_PAGE_SIZE over the legacy list's 50-event pages), so every window is one
  // round trip; a real WordPress serves that many at once comfortably.
  setting({
    env: 'UPSTREAM_CONCURRENCY',
    path: 'limits.upstreamConcurrency',
    type: 'int',
    default: 10,
    min: 1,
    max: 64,
    meaning: 'upstream requests one GraphQL request may have in flight',
  }),
  // GraphQL's standard introspection query (GraphiQL's, graphql 16's type-reference fragment) must pass; graph
  // queries that deep are already bounded by the cost estimate.
  setting({
    env: 'MAX_QUERY_DEPTH',
    path: 'limits.maxDepth',
    type: 'int',
    default: 15,
    min: 1,
    meaning: 'query depth, introspection included',
    doc: "query depth, introspection fields included (GraphQL's standard introspection query, GraphiQL's, is 15 deep)",
  }),
  setting({
    env: 'MAX_QUERY_ALIASES',
    path: 'limits.maxAliases',
    type: 'int',
    default: 50,
    min: 1,
    meaning: 'aliases per document',
    doc: 'aliases per document, `__` fields included',
  }),
  // Stops pathological documents before parsing completes.
  setting({
    env: 'MAX_QUERY_TOKENS',
    path: 'limits.maxTokens',
    type: 'int',
    default: 5_000,
    min: 100,
    meaning: 'tokens per query document',
  }),
  // `events(first: 100) { venues { events(first: 5) } }` costs 501; three levels of nested lists are refused.
  setting({
    env: 'MAX_QUERY_COST',
    path: 'limits.maxCost',
    type: 'int',
    default: 1_000,
    min: 1,
    meaning: 'estimated upstream list requests of one query',
    doc:
      'estimated upstream list requests: a connection costs one request per parent and multiplies what is below ' +
      'it by its page size (`first`, `last`, else `DEFAULT_PAGE_SIZE`), `nodes { … }` and `edges { node { … } }` ' +
      'cost the same, other lists multiply by 5, `nodes(ids:)` costs one per ID, fragments and every alias count; ' +
      "`__schema` costs 100 and lists inside introspection multiply by 10 (GraphiQL's introspection costs 272)",
  }),
  // WordPress's largest `per_page`, so one `include` request can answer it; 100 IDs are ~1 KB of query string.
  setting({
    env: 'MAX_LIST_ITEMS',
    path: 'limits.maxListItems',
    type: 'int',
    default: 100,
    min: 1,
    meaning: 'items of a list argument of IDs, slugs or statuses',
    doc:
      'items of a list of IDs, slugs or statuses: `nodes(ids:)`, `where.ids`, `venueIds`, `categoryIds`, ' +
      "`categorySlugs`, ... in every `where` and input (WordPress's largest page, so one `include` request answers it)",
  }),
  // A sentence; sites match words.
  setting({
    env: 'MAX_SEARCH_LENGTH',
    path: 'limits.maxSearchLength',
    type: 'int',
    default: 200,
    min: 1,
    meaning: 'characters of search-like arguments',
    doc: 'characters of `search`, `near`, `query`, `keyword`, `keyphrase`',
  }),
  // WordPress's `post_name`/term `slug` column size.
  setting({
    env: 'MAX_SLUG_LENGTH',
    path: 'limits.maxSlugLength',
    type: 'int',
    default: 200,
    min: 1,
    meaning: 'characters of a slug',
    doc: "characters of a slug (`slug`, `*Slug`, `*Slugs`; WordPress's column size)",
  }),
  // The common URL limit of browsers and servers.
  setting({
    env: 'MAX_URL_LENGTH',
    path: 'limits.maxUrlLength',
    type: 'int',
    default: 2_048,
    min: 1,
    meaning: 'characters of a URL argument',
    doc: 'characters of a URL (`url`, `*Url`, `website`, `permalink`, `origin`, `image`)',
  }),
  // Reads travel in query strings, which sites refuse beyond ~8 KB (414/431); write bodies are bounded by the
  // 1 MiB request size instead.
  setting({
    env: 'MAX_ARGUMENT_LENGTH',
    path: 'limits.maxArgumentLength',
    type: 'int',
    default: 1_000,
    min: 1,
    meaning: 'characters of any other string or ID argument',
    doc:
      'characters of any other string or ID argument of a query (reads travel in query strings; mutation bodies ' +
      'are bounded by the 1 MiB request size)',
  }),

  // The per-operation upstream session (src/upstream/session.ts); its cap on requests in flight is
  // UPSTREAM_CONCURRENCY.
  // The cost limit estimates; this counts. A page of 100 events with venues, organizers and terms takes under 10;
  // a page at MAX_PAGE_SIZE over five core pages, with single reads for what the lists do not embed, stays well
  // under 100. The whole budget at the default concurrency and ~100 ms a request still ends inside the operation
  // deadline; more is a bulk job that should page (reads of 452 and 1 356 requests were seen).
  setting({
    env: 'UPSTREAM_BUDGET',
    path: 'session.budget',
    type: 'int',
    default: 500,
    min: 1,
    meaning:
      'upstream requests (retries included) one operation with a credential may send; a query estimated over it is refused before sending',
    doc:
      "upstream requests (retries included) one operation may send when the site sees a credential (the caller's, " +
      'or `SITEGRAPH_SERVICE_AUTH`); a query whose estimate is over it is refused before anything is sent',
  }),
  // The canonical front-end reads need 1 to 21 requests (docs/graph.md "How reads go upstream"); this leaves room
  // for a page with several lists while one anonymous request can no longer make hundreds (190 requests, two
  // seconds of a ten-worker PHP site, were seen from one request). Callers with a credential keep UPSTREAM_BUDGET:
  // the site knows who they are.
  setting({
    env: 'UPSTREAM_BUDGET_ANONYMOUS',
    path: 'session.anonymousBudget',
    type: 'int',
    default: 50,
    min: 1,
    meaning: 'the same, for operations the site sees as anonymous',
    doc:
      'the same for operations the site sees as anonymous: no `Authorization` from the caller, no ' +
      '`SITEGRAPH_SERVICE_AUTH` (see [budget](graph.md#budget-deadline-cancellation))',
  }),
  // Longer than one headers timeout so a slow archive still answers, shorter than the usual 30 s of clients and
  // proxies, so the caller gets UPSTREAM_TIMEOUT and partial data rather than a cut connection.
  setting({
    env: 'OPERATION_DEADLINE_MS',
    path: 'session.deadlineMs',
    type: 'int',
    default: 15_000,
    min: 1,
    meaning: "wall time for one operation's upstream work, retries included",
    doc: "wall time for one operation's upstream work, retries and backoff included",
  }),
  // For a site down when the gateway started: often enough to recover within a probe interval, rarely enough not
  // to hammer a site that is down.
  setting({
    env: 'SITE_RETRY_MS',
    path: 'session.siteRetryMs',
    type: 'int',
    default: 5_000,
    min: 0,
    meaning: "while the site's index has never been read, operations retry it at most this often",
  }),

  // Write locks: one update of an object at a time (src/store/lock.ts, docs/writes.md).
  // Twice the default operation deadline, so a lock never runs out under an update still allowed to run.
  setting({
    env: 'WRITE_LOCK_LEASE_MS',
    path: 'writes.lockLeaseMs',
    type: 'int',
    default: 30_000,
    min: 1_000,
    meaning: 'life of a write lock held in Redis whose holder never releases it',
    doc:
      'life of a write lock held in Redis whose holder never releases it (a crashed instance); keep it above ' +
      '`OPERATION_DEADLINE_MS`',
  }),
  // An update holds the lock for a few round trips to the site (read, write, check): dozens of updates of one
  // object queue within this on a site answering in 50 ms; more is a caller hammering one object.
  setting({
    env: 'WRITE_LOCK_WAIT_MS',
    path: 'writes.lockWaitMs',
    type: 'int',
    default: 5_000,
    min: 0,
    meaning: "longest an update waits for its object's lock (then WRITE_LOCK_TIMEOUT)",
    doc:
      'longest an update waits for the lock of its object, then `WRITE_LOCK_TIMEOUT` (nothing sent; see ' +
      '[writes.md](writes.md))',
  }),

  // Per-client limit on GraphQL requests (src/ratelimit.ts).
  // Off by default: a sound number depends on the deployment (behind a proxy, without RATE_LIMIT_TRUST_PROXY every
  // caller has the proxy's address). docs/production.md "Rate limits" recommends 600 per 60 s.
  setting({
    env: 'RATE_LIMIT_MAX',
    path: 'rateLimit.max',
    type: 'int',
    default: 0,
    min: 0,
    meaning: 'GraphQL requests per window and client; 0: no limit',
    doc:
      'GraphQL requests per window and client; `0`: no limit; recommended `600` ' +
      '(see [rate limits](production.md#rate-limits))',
  }),
  // The usual unit of API quotas; short bursts of a page's queries fit in it.
  setting({
    env: 'RATE_LIMIT_WINDOW_SECONDS',
    path: 'rateLimit.windowSeconds',
    type: 'int',
    default: 60,
    min: 1,
    max: 86_400,
    meaning: 'rate-limit window',
  }),
  // `ip` by default because the gateway does not verify credentials (the site does): keyed by credential, a
  // caller could invent a new Authorization value per request and never reach the limit. `credential` suits
  // jobs that share an egress address.
  setting({
    env: 'RATE_LIMIT_KEY',
    path: 'rateLimit.key',
    type: 'enum',
    values: ['ip', 'credential'],
    default: 'ip',
    meaning: 'what a client is counted by; credential: a hash of Authorization, anonymous callers by address',
    doc: 'what a client is counted by: `ip`, or `credential` (a hash of `Authorization`; anonymous callers by IP)',
  }),
  // Without a proxy the header is the client's own invention; 1 behind one load balancer.
  setting({
    env: 'RATE_LIMIT_TRUST_PROXY',
    path: 'rateLimit.trustProxyHops',
    type: 'int',
    default: 0,
    min: 0,
    max: 10,
    meaning: 'reverse proxies in front whose X-Forwarded-For entries are trusted',
    doc:
      'reverse proxies in front whose `X-Forwarded-For` entry is trusted for the client IP (`1` behind one load ' +
      'balancer)',
  }),

  // Persisted documents and the operation safelist (src/plugins/safelist.ts).
  setting({
    env: 'PERSISTED_DOCUMENTS',
    path: 'persistedDocuments.manifest',
    type: 'string',
    min: 1,
    meaning: 'persisted-documents manifest ({ "<id>": "<document>" }, graphql-codegen client preset)',
    doc:
      "persisted-documents manifest (`persisted-documents.json` of graphql-codegen's client preset, or Apollo's " +
      'manifest); its operations run by id',
    unset: 'no manifest',
  }),
  // Off by default: development and GraphiQL send ad-hoc queries; turn it on in production once the clients'
  // manifest is deployed.
  setting({
    env: 'SAFELIST',
    path: 'persistedDocuments.safelist',
    type: 'bool',
    default: false,
    meaning: "run only the manifest's operations (needs PERSISTED_DOCUMENTS)",
    doc: "`1` runs only the manifest's operations (needs `PERSISTED_DOCUMENTS`; APQ registration off)",
  }),

  // The upstream GET cache (src/cache/).
  // Writes through the gateway invalidate at once, so this only bounds how stale an edit made on the site itself
  // (wp-admin, cron) can be seen; a few seconds still turn a burst of identical front-end reads into one upstream
  // request.
  setting({
    env: 'CACHE_TTL_SECONDS',
    path: 'cache.ttlSeconds',
    type: 'int',
    default: 10,
    min: 0,
    max: 86_400,
    meaning: 'how long a site answer is reused; 0: no cache',
    doc:
      "how long a site answer (GET) is reused, per caller identity; the site's `Cache-Control`/`Expires` can " +
      'shorten it; `0` turns the upstream cache off (see [caching](caching.md))',
  }),
  // A few hundred list pages; the oldest entries go first beyond it.
  setting({
    env: 'CACHE_MEMORY_MAX_BYTES',
    path: 'cache.memoryMaxBytes',
    type: 'int',
    default: 64 * MIB,
    min: 0,
    meaning: 'size of the in-memory cache (without REDIS_URL)',
    doc: 'size of the in-memory cache store (without `REDIS_URL`); oldest entries go first',
  }),
  // Off by default: an answer is then never older than the TTL, which is what the documentation promises; turn it
  // on where a few seconds more of staleness beat a visitor waiting for the site.
  setting({
    env: 'CACHE_STALE_SECONDS',
    path: 'cache.staleSeconds',
    type: 'int',
    default: 0,
    min: 0,
    max: 86_400,
    meaning: 'stale-while-revalidate grace past the TTL (RFC 5861); 0: off',
    doc:
      'stale-while-revalidate (RFC 5861): an entry past its TTL but within this grace is answered at once while ' +
      "one background request refreshes it; `0`: off. The site's own directives win: its " +
      '`stale-while-revalidate=N` shortens it; `must-revalidate`, `proxy-revalidate` and `no-cache` forbid it ' +
      '(see [caching](caching.md))',
  }),
  // Answers go stale by the entity tags writes bump, in every instance sharing REDIS_URL (cache/operation-cache.ts).
  setting({
    env: 'RESPONSE_CACHE',
    path: 'cache.responses',
    type: 'bool',
    default: true,
    meaning: 'keep whole answers of queries (the response cache; only while CACHE_TTL_SECONDS > 0)',
    doc:
      'keep whole answers of queries, so a hot read skips execution; only while `CACHE_TTL_SECONDS` > 0 ' +
      '(see [the response cache](caching.md#the-response-cache))',
  }),
  setting({
    env: 'RESPONSE_CACHE_MAX_BYTES',
    path: 'cache.responsesMaxBytes',
    type: 'int',
    default: 32 * MIB,
    min: 0,
    meaning: 'memory for kept whole answers, per process',
    doc: 'memory for kept whole answers, per process; the least recently used go first',
  }),

  // Compression of the gateway's answers (src/compression.ts, docs/production.md "Compression").
  // Below about a kilobyte the coding's headers and the CPU cost more than the bytes saved (a small answer fits
  // one TCP packet either way).
  setting({
    env: 'COMPRESS_MIN_BYTES',
    path: 'compression.minBytes',
    type: 'int',
    default: 1024,
    min: 0,
    meaning: 'answers of at least this size are compressed (br or gzip, as Accept-Encoding asks)',
    doc:
      'answers of at least this many bytes are compressed, brotli or gzip as `Accept-Encoding` asks ' +
      '(see [compression](production.md#compression))',
  }),
  setting({
    env: 'COMPRESSION',
    path: 'compression.enabled',
    type: 'bool',
    default: true,
    meaning: 'compress answers (0: a proxy in front does)',
    doc: '`0` sends every answer uncompressed (a proxy in front compresses)',
  }),

  // The admin listener: /metrics, /readyz, POST /purge (src/admin/, docs/production.md "Admin listener").
  // A port of its own, so the public port never shows the site's URL, namespaces or metrics, and probes and
  // scrapes are not counted by rate limits. Its default is PORT + 1 (adminPortOf, src/config.ts).
  setting({
    env: 'ADMIN_PORT',
    path: 'admin.port',
    type: 'int',
    min: 0,
    max: 65535,
    meaning: 'admin listener port (/metrics, /readyz, POST /purge); 0: a free port',
    doc:
      'the admin listener: `/metrics`, `/readyz`, `POST /purge` (see [admin listener](production.md#admin-listener)); ' +
      '`0` picks a free port',
    unset: 'PORT + 1 (a free port when PORT is 0)',
  }),
  // Loopback by default, like HOST: the purge endpoint has no authentication of its own.
  setting({
    env: 'ADMIN_HOST',
    path: 'admin.host',
    type: 'string',
    default: '127.0.0.1',
    meaning: 'admin listener address (loopback; it has no authentication)',
    doc: "the admin listener's address (loopback: it has no authentication)",
  }),
  // /readyz answers from the last reading, so probes never cost the site a request each; the default is within
  // the usual probe period (Kubernetes: 10 s), and one small request that often is nothing to a site.
  setting({
    env: 'READINESS_REFRESH_SECONDS',
    path: 'admin.readinessRefreshSeconds',
    type: 'int',
    default: 15,
    min: 1,
    max: 3_600,
    meaning: "how often the site's index is read again in the background (/readyz answers from it)",
    doc:
      "how often the site's index is read again in the background (for `/readyz`, and for operations, which then " +
      "see a new plugin's routes); `/readyz` answers from the last reading",
  }),

  // Subscriptions: live changes of events and posts (src/subscriptions/, docs/subscriptions.md).
  setting({
    env: 'SUBSCRIPTIONS',
    path: 'subscriptions.enabled',
    type: 'bool',
    default: true,
    meaning: 'serve subscriptions over SSE and WebSocket on /graphql',
    doc: '`0` turns subscriptions off: no SSE or WebSocket transport, no polling (see [subscriptions.md](subscriptions.md))',
  }),
  // Changes made through the gateway are published at once; polls find those made on the site. One poll per source
  // and interval whatever the number of subscribers and instances (a modified-ordered list is one request), so the
  // default costs a site a few requests a minute, and a change made in wp-admin reaches subscribers about as soon
  // as a cache of CACHE_TTL_SECONDS would show it to a query. Tests poll every few hundred milliseconds.
  setting({
    env: 'SUBSCRIPTION_POLL_SECONDS',
    path: 'subscriptions.pollSeconds',
    type: 'number',
    default: 10,
    min: 0.05,
    max: 3_600,
    meaning: 'how often the site is polled for changes while anyone subscribes',
    doc:
      'how often the site is polled for changes made on it while anyone subscribes (one poll per source and ' +
      'interval, whatever the number of subscribers and instances)',
  }),
  // Polls see what this user may read: anonymous polls see published objects only, so changes of drafts are not
  // found; an editor's credential finds them (and trashed posts).
  setting({
    env: 'SUBSCRIPTION_POLL_AUTH',
    path: 'subscriptions.pollAuth',
    type: 'string',
    check: CREDENTIAL,
    meaning: 'user:application-password the polls read with',
    doc:
      "`user:application-password` the polls read with; an editor's finds changes of drafts and trashed posts " +
      '(subscribers still read with their own credentials)',
    unset: 'SITEGRAPH_SERVICE_AUTH, else anonymous',
  }),
  // Two pages of the legacy list.
  setting({
    env: 'SUBSCRIPTION_WINDOW_EVENTS',
    path: 'subscriptions.windowEvents',
    type: 'int',
    default: 100,
    min: 0,
    max: 1_000,
    meaning: 'upcoming events each poll compares; 0: none',
    doc:
      'upcoming events each poll compares with the previous one (all changes on sites without calendar-core/v1, ' +
      'deletions on sites with it); `0`: none',
  }),
  setting({
    env: 'SUBSCRIPTION_AUTOMATION_TOKEN',
    path: 'subscriptions.automationToken',
    type: 'string',
    min: 1,
    meaning: 'automation-a token: poll its new/updated/canceled feeds',
    doc:
      'an automation-a (Zapier-style) access token: its new, updated and canceled feeds are polled too (reading ' +
      'consumes nothing; the only source of `CANCELED` besides gateway writes)',
    unset: 'not polled',
  }),
  // Never read unless set: its feeds pop an item per read, taking the items from whatever else uses that connection.
  setting({
    env: 'SUBSCRIPTION_AUTOMATION_B_TOKEN',
    path: 'subscriptions.automationBToken',
    type: 'string',
    min: 1,
    meaning: 'automation-b token: poll (and so pop) its feeds',
    doc:
      'an automation-b (Power-Automate-style) token: its feeds are polled, which pops their items from that ' +
      'connection (set it only for a connection made for the gateway)',
    unset: 'never read',
  }),
  setting({
    env: 'SUBSCRIPTION_MAX_PER_CONNECTION',
    path: 'subscriptions.maxPerConnection',
    type: 'int',
    default: 50,
    min: 1,
    max: 10_000,
    meaning: 'subscriptions per WebSocket or SSE stream',
    doc: 'subscriptions one WebSocket or single-connection SSE stream may hold (`SUBSCRIPTION_LIMIT` beyond)',
  }),
  // A browser holds a few; a job mirroring the calendar a handful.
  setting({
    env: 'SUBSCRIPTION_MAX_PER_CALLER',
    path: 'subscriptions.maxPerCaller',
    type: 'int',
    default: 200,
    min: 1,
    max: 1_000_000,
    meaning: 'subscriptions per caller and instance',
    doc: 'subscriptions one caller (as `RATE_LIMIT_KEY` counts it) may hold on one instance',
  }),
  // A few hundred changes with their selections.
  setting({
    env: 'SUBSCRIPTION_MAX_BUFFER_BYTES',
    path: 'subscriptions.maxBufferBytes',
    type: 'int',
    default: MIB,
    min: 1_024,
    meaning: 'unread bytes before a slow subscriber is dropped',
    doc: "bytes a subscriber's connection may leave unread before it is dropped (`SLOW_CONSUMER`, WebSocket close 4008)",
  }),
  // Renewed three times per lease.
  setting({
    env: 'SUBSCRIPTION_LEASE_SECONDS',
    path: 'subscriptions.leaseSeconds',
    type: 'number',
    default: 15,
    min: 0.1,
    max: 3_600,
    meaning: 'life of a poll lease (REDIS_URL): the longest a takeover waits',
    doc:
      'with `REDIS_URL`: life of a poll lease, so the longest polling stops when its instance dies before another ' +
      'takes over',
  }),
  // graphql-sse's own SSE keep-alive.
  setting({
    env: 'SUBSCRIPTION_HEARTBEAT_SECONDS',
    path: 'subscriptions.heartbeatSeconds',
    type: 'number',
    default: 12,
    min: 0.1,
    max: 600,
    meaning: 'WebSocket ping interval',
    doc: "WebSocket ping interval (a missed pong closes the connection); SSE streams get graphql-sse's comment",
  }),

  setting({
    env: 'GRAPHIQL',
    path: 'graphiql',
    type: 'bool',
    default: true,
    meaning: 'serve GraphiQL at /graphql to browsers',
    doc: 'serve GraphiQL at `/graphql` to browsers',
  }),
  // /wpgraphql: where WPGraphQL serves on a WordPress site is /graphql, taken here by the main graph.
  setting({
    env: 'WPGRAPHQL_PATH',
    path: 'wpgraphql.path',
    type: 'string',
    default: '/wpgraphql',
    check: [
      (v) => v === '' || (/^\/[A-Za-z0-9._~/-]+$/.test(v) && !RESERVED_PATHS.test(v)),
      'must be a path starting with / other than /graphql, /healthz and /graphiql/ (or empty, to serve none)',
    ],
    meaning: 'path of the WPGraphQL-compatible graph (empty: not served)',
    doc: 'path of the WPGraphQL-compatible graph ([wpgraphql.md](wpgraphql.md)); empty to serve none',
  }),
  setting({
    env: 'INTROSPECTION',
    path: 'introspection',
    type: 'bool',
    default: true,
    meaning: 'allow introspection (__schema, __type)',
    doc:
      'allow introspection; `0` for production refuses `__schema`/`__type` (HTTP 400, ' +
      '`GRAPHQL_VALIDATION_FAILED`) while `__typename` and the graph keep working (GraphiQL then has no schema docs)',
  }),

  // Browsers on other origins (docs/production.md "CORS"). None by default: no browser on another origin can call
  // the gateway until someone decides which front ends are trusted. No wildcard: every origin is named.
  setting({
    env: 'CORS_ORIGINS',
    path: 'cors.origins',
    type: 'list',
    default: [],
    check: [isOrigin, 'must be an origin: scheme://host[:port], without path or trailing slash'],
    meaning: 'origins whose pages may call the gateway (comma-separated, exact)',
    doc:
      'exact origins (`https://app.example.org`) whose pages may call `/graphql` from a browser ' +
      '(see [CORS](production.md#cors))',
    unset: 'CORS off',
  }),
  // Off by default: the gateway authenticates by the Authorization header, which a page sends explicitly and CORS
  // allows without credentials mode; ambient credentials would only let an allowed page act with whatever the
  // browser holds for the gateway's host.
  setting({
    env: 'CORS_CREDENTIALS',
    path: 'cors.credentials',
    type: 'bool',
    default: false,
    meaning: "allowed origins may send the browser's credentials",
    doc: "`1` lets allowed origins use credentials mode (`fetch(…, { credentials: 'include' })`: cookies, cached HTTP auth)",
  }),

  // `info` writes one line per operation and every upstream failure; `debug` and `trace` add nothing per field.
  setting({
    env: 'LOG_LEVEL',
    path: 'log.level',
    type: 'enum',
    values: LOG_LEVELS,
    default: 'info',
    meaning: 'log level',
    doc: 'log level; `info` writes a line per operation and per upstream failure',
  }),
  setting({
    env: 'LOG_FORMAT',
    path: 'log.format',
    type: 'enum',
    values: LOG_FORMATS,
    default: 'auto',
    meaning: 'log line format; auto is pretty in a terminal, JSON otherwise',
    doc: '`json` (one object per line), `pretty` (for people), `auto`: pretty when stdout is a terminal, JSON otherwise',
  }),
  // Names are chosen by callers; past this many, new names count as `other`, so a client inventing names cannot grow
  // the series without bound (100 names x ~15 outcomes x 12 buckets is ~20 000 series, what one Prometheus target
  // comfortably carries).
  setting({
    env: 'METRICS_MAX_OPERATIONS',
    path: 'metrics.maxOperations',
    type: 'int',
    default: 100,
    min: 1,
    max: 10_000,
    meaning: 'distinct operation names labelled in metrics (others count as "other")',
    doc:
      'distinct operation names with their own metric series; later names count as `other` ' +
      '(see [metrics](production.md#metrics))',
  }),
  // Off by default: a stand-alone graph has no use for `_entities`, and `_service { sdl }` shows the whole schema
  // to anyone, INTROSPECTION=0 or not (composers need it). src/federation.ts.
  setting({
    env: 'FEDERATION',
    path: 'federation',
    type: 'bool',
    default: false,
    meaning: 'serve the schema as an Apollo Federation 2 subgraph',
    doc:
      '`1` serves the schema as an Apollo Federation 2 subgraph: `@key(fields: "id")` on `Node` and its types, ' +
      '`_service`, `_entities` (see [federation](federation.md))',
  }),

  // OpenTelemetry traces (src/telemetry.ts, docs/production.md "Tracing (OpenTelemetry)"), set by the standard
  // OTEL_* variables. Off unless OTEL_TRACES_EXPORTER names an exporter or an OTLP endpoint is given: the spec's
  // default exporter is `otlp`, but a gateway nobody collects traces from should do no tracing work and send
  // nothing to a localhost port.
  // The spec's kill switch.
  setting({
    env: 'OTEL_SDK_DISABLED',
    path: 'tracing.sdkDisabled',
    type: 'bool',
    default: false,
    meaning: 'turn tracing off whatever else is set',
  }),
  setting({
    env: 'OTEL_TRACES_EXPORTER',
    path: 'tracing.exporters',
    type: 'list',
    default: [],
    values: ['otlp', 'console', 'none'],
    message: 'must be otlp, console or none (comma-separated)',
    meaning: 'where spans go, comma-separated; console is stdout, for debugging',
    doc:
      '`otlp`, `console` (stdout, for debugging), both comma-separated, or `none` ' +
      '(see [tracing](production.md#tracing-opentelemetry))',
    unset: 'otlp when an OTLP endpoint is set, else no tracing',
  }),
  // Unset, with only the exporter named: http://localhost:4318, the spec's.
  setting({
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    path: 'tracing.otlpEndpoint',
    type: 'string',
    url: true,
    check: HTTP_URL,
    meaning: "collector's base URL (traces to <base>/v1/traces)",
    doc: "the collector's base URL; traces go to `<base>/v1/traces`",
    unset: 'http://localhost:4318',
  }),
  setting({
    env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    path: 'tracing.otlpTracesEndpoint',
    type: 'string',
    url: true,
    check: HTTP_URL,
    meaning: 'full OTLP traces URL (wins over the base)',
    doc: 'the full traces URL, used as is; wins over the base',
    unset: 'from OTEL_EXPORTER_OTLP_ENDPOINT',
  }),
  // http/protobuf: the spec's default and every collector's. No gRPC exporter is installed.
  setting({
    env: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    path: 'tracing.otlpProtocol',
    type: 'enum',
    values: OTLP_PROTOCOLS,
    default: 'http/protobuf',
    message: OTLP_PROTOCOL_MESSAGE,
    meaning: 'OTLP encoding, no gRPC',
    doc: 'OTLP encoding (no gRPC); the `TRACES_` one wins',
  }),
  setting({
    env: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    path: 'tracing.otlpTracesProtocol',
    type: 'enum',
    values: OTLP_PROTOCOLS,
    message: OTLP_PROTOCOL_MESSAGE,
    meaning: 'the same, for traces only',
    doc: 'the same, for traces only; wins over `OTEL_EXPORTER_OTLP_PROTOCOL`',
    unset: 'OTEL_EXPORTER_OTLP_PROTOCOL',
  }),
  setting({
    env: 'OTEL_EXPORTER_OTLP_HEADERS',
    path: 'tracing.otlpHeaders',
    type: 'string',
    check: KEY_VALUES,
    meaning: 'headers to the collector: key=value,... (e.g. an API key)',
    doc: '`key=value,...` (URL-encoded values) sent to the collector, e.g. its API key',
    unset: 'none',
  }),
  setting({
    env: 'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
    path: 'tracing.otlpTracesHeaders',
    type: 'string',
    check: KEY_VALUES,
    meaning: 'the same, for traces only',
    doc: 'the same, for traces only (added over the general ones)',
    unset: 'none',
  }),
  setting({
    env: 'OTEL_SERVICE_NAME',
    path: 'tracing.serviceName',
    type: 'string',
    min: 1,
    meaning: 'service.name of the spans',
    doc: '`service.name` of the spans',
    unset: 'service.name of OTEL_RESOURCE_ATTRIBUTES, else sitegraph',
  }),
  setting({
    env: 'OTEL_RESOURCE_ATTRIBUTES',
    path: 'tracing.resourceAttributes',
    type: 'string',
    check: KEY_VALUES,
    meaning: 'resource attributes: key=value,...',
    doc: "`key=value,...` added to every span's resource (`deployment.environment.name=prod`)",
    unset: 'none',
  }),
  // The spec's default: a caller that sends a `traceparent` decides; every other operation is traced (a
  // gateway's traffic is modest next to its site's; lower it with parentbased_traceidratio).
  setting({
    env: 'OTEL_TRACES_SAMPLER',
    path: 'tracing.sampler',
    type: 'enum',
    values: TRACE_SAMPLERS,
    default: 'parentbased_always_on',
    meaning: 'which operations are traced',
  }),
  setting({
    env: 'OTEL_TRACES_SAMPLER_ARG',
    path: 'tracing.samplerArg',
    type: 'number',
    min: 0,
    max: 1,
    meaning: 'ratio of the traceidratio samplers',
    doc: 'the ratio of the `*traceidratio` samplers',
    unset: "1 (the spec's)",
  }),
] as const;
