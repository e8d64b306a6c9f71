/**
 * The gateway's one typed, validated configuration. Every option has its
 * default and its reason here; `loadConfig` reads flags and environment, and a
 * bad value is a ConfigError that names it.
 */
import { z } from 'zod';

export const configSchema = z.object({
  /** `PORT` / `--port`. 4000: the usual GraphQL development port. */
  port: z.number().int().min(0).max(65535).default(4000),
  /** `HOST` / `--host`. Loopback by default: expose it deliberately. */
  host: z.string().default('127.0.0.1'),
  /**
   * `UPSTREAM_URL` / `--upstream`: the site's REST root (`https://site/wp-json/`).
   * Unset: the embedded sandbox is started in-process and used.
   */
  upstreamUrl: z.string().url().optional(),
  /**
   * `SITEGRAPH_SERVICE_AUTH`: `user:application-password` used for callers who
   * send no Authorization (server-to-server jobs). Unset: such callers are anonymous.
   */
  serviceAuth: z.string().regex(/^[^:]+:.+$/, 'must be user:application-password').optional(),
  upstream: z
    .object({
      /** Pool connections per origin. 16: enough for parallel page fetches of several requests. */
      connections: z.number().int().min(1).max(256).default(16),
      /** 2 s: a healthy site accepts a connection in milliseconds. */
      connectTimeoutMs: z.number().int().min(1).default(2_000),
      /** 10 s: well under a typical 30 s request budget, long enough for a slow archive query. */
      headersTimeoutMs: z.number().int().min(1).default(10_000),
      bodyTimeoutMs: z.number().int().min(1).default(10_000),
      /** 20 MiB: a 100-event page with embeds is ~0.5 MiB; more means something is wrong. */
      maxResponseBytes: z.number().int().min(1024).default(20 * 1024 * 1024),
      /** Retries of idempotent reads only (2, backoff, Retry-After). Writes are never retried. */
      retries: z.number().int().min(0).max(5).default(2),
    })
    .default({ connections: 16, connectTimeoutMs: 2_000, headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000, maxResponseBytes: 20 * 1024 * 1024, retries: 2 }),
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
      /** `MAX_SEARCH_LENGTH`: `search`, `near`, `query`, `keyword`, `keyphrase`: 200 characters (a sentence; sites match words). */
      maxSearchLength: z.number().int().min(1).default(200),
      /** `MAX_SLUG_LENGTH`: slugs: 200 characters, WordPress's `post_name`/term `slug` column size. */
      maxSlugLength: z.number().int().min(1).default(200),
      /** `MAX_URL_LENGTH`: URL arguments (`url`, `*Url`, `website`, `permalink`, ...): 2048, the common URL limit of browsers and servers. */
      maxUrlLength: z.number().int().min(1).default(2_048),
      /**
       * `MAX_ARGUMENT_LENGTH`: any other string or ID argument of a query: 1000 characters. Reads
       * travel in query strings, which sites refuse beyond ~8 KB (414/431); write bodies are bounded
       * by the 1 MiB request size instead.
       */
      maxArgumentLength: z.number().int().min(1).default(1_000),
    })
    .default({
      maxPageSize: 500, defaultPageSize: 10, upstreamConcurrency: 10, maxDepth: 15, maxAliases: 50, maxTokens: 5_000, maxCost: 1_000,
      maxListItems: 100, maxSearchLength: 200, maxSlugLength: 200, maxUrlLength: 2_048, maxArgumentLength: 1_000,
    }),
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
       * the deadline; more is a bulk job that should page (issue 9: 452 and 1 356 requests).
       */
      budget: z.number().int().min(1).default(500),
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
    .default({ budget: 500, deadlineMs: 15_000, siteRetryMs: 5_000 }),
  /**
   * `REDIS_URL` (`redis://host:6379/0`): the store shared by several gateway instances
   * (upstream cache, APQ, invalidations, rate-limit counters). Unset: each instance keeps
   * them in memory.
   */
  redisUrl: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  /** `GRAPHIQL=0` turns the GraphiQL page off. */
  graphiql: z.boolean().default(true),
  /** `INTROSPECTION=0` turns introspection off. */
  introspection: z.boolean().default(true),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseConfig(input: ConfigInput): Config {
  const r = configSchema.safeParse(input);
  if (!r.success) throw new ConfigError(`invalid configuration: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return r.data;
}

function intEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v.trim())) throw new ConfigError(`${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  return Number(v);
}

function boolEnv(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  if (['1', 'true', 'on', 'yes'].includes(v.toLowerCase())) return true;
  if (['0', 'false', 'off', 'no'].includes(v.toLowerCase())) return false;
  throw new ConfigError(`${name} must be a boolean (1/0, true/false), got ${JSON.stringify(v)}`);
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Configuration from the environment and command-line flags (flags win). */
export function loadConfig(env: NodeJS.ProcessEnv, flags: { port?: string; host?: string; upstream?: string } = {}): Config {
  if (flags.port !== undefined && !/^\d+$/.test(flags.port)) throw new ConfigError(`--port must be a number, got ${JSON.stringify(flags.port)}`);
  const upstream = defined({
    connections: intEnv(env, 'UPSTREAM_CONNECTIONS'),
    connectTimeoutMs: intEnv(env, 'UPSTREAM_CONNECT_TIMEOUT_MS'),
    headersTimeoutMs: intEnv(env, 'UPSTREAM_HEADERS_TIMEOUT_MS'),
    bodyTimeoutMs: intEnv(env, 'UPSTREAM_BODY_TIMEOUT_MS'),
    maxResponseBytes: intEnv(env, 'UPSTREAM_MAX_RESPONSE_BYTES'),
    retries: intEnv(env, 'UPSTREAM_RETRIES'),
  });
  const limits = defined({
    maxPageSize: intEnv(env, 'MAX_PAGE_SIZE'),
    defaultPageSize: intEnv(env, 'DEFAULT_PAGE_SIZE'),
    upstreamConcurrency: intEnv(env, 'UPSTREAM_CONCURRENCY'),
    maxDepth: intEnv(env, 'MAX_QUERY_DEPTH'),
    maxAliases: intEnv(env, 'MAX_QUERY_ALIASES'),
    maxTokens: intEnv(env, 'MAX_QUERY_TOKENS'),
    maxCost: intEnv(env, 'MAX_QUERY_COST'),
    maxListItems: intEnv(env, 'MAX_LIST_ITEMS'),
    maxSearchLength: intEnv(env, 'MAX_SEARCH_LENGTH'),
    maxSlugLength: intEnv(env, 'MAX_SLUG_LENGTH'),
    maxUrlLength: intEnv(env, 'MAX_URL_LENGTH'),
    maxArgumentLength: intEnv(env, 'MAX_ARGUMENT_LENGTH'),
  });
  const session = defined({
    budget: intEnv(env, 'UPSTREAM_BUDGET'),
    deadlineMs: intEnv(env, 'OPERATION_DEADLINE_MS'),
    siteRetryMs: intEnv(env, 'SITE_RETRY_MS'),
  });
  const base = configSchema.parse({});
  return parseConfig(
    defined({
      port: flags.port !== undefined ? Number(flags.port) : intEnv(env, 'PORT'),
      host: flags.host ?? (env.HOST || undefined),
      upstreamUrl: flags.upstream ?? (env.UPSTREAM_URL || undefined),
      serviceAuth: env.SITEGRAPH_SERVICE_AUTH || undefined,
      redisUrl: env.REDIS_URL || undefined,
      upstream: { ...base.upstream, ...upstream },
      limits: { ...base.limits, ...limits },
      session: { ...base.session, ...session },
      graphiql: boolEnv(env, 'GRAPHIQL'),
      introspection: boolEnv(env, 'INTROSPECTION'),
    }) as ConfigInput,
  );
}
