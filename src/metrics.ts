/**
 * Prometheus metrics (prom-client), one registry per gateway instance.
 * Every label has bounded values (docs/production.md "Metrics"): operation names are the
 * callers' choice, so only the first `maxOperations` distinct ones get their
 * own series; error codes are the gateway's stable codes; upstream routes are
 * route templates (`GET /calendar-core/v1/events/<id>`), never raw paths.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Seconds: from a cached answer (~5 ms) to the operation deadline (15 s). */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

/** Label for operations without a name (`{ events { ... } }`). */
export const ANONYMOUS_OPERATION = 'anonymous';
/** Label for names past the cap, and for names that are not GraphQL names. */
export const OTHER = 'other';
/** `outcome` of an operation answered without errors. */
export const OK = 'ok';

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;
/** Error codes are SCREAMING_SNAKE_CASE by convention (Apollo's and ours); anything else is `other`. */
const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
/** Distinct error codes labelled: the gateway has ~25; the rest are someone else's and counted together. */
const MAX_CODES = 64;

/**
 * Values of one label, at most `max` distinct ones: the first `max` seen keep
 * their own value, later ones are `other` (a restart starts the count again).
 */
export class BoundedLabel {
  readonly #seen = new Set<string>();
  constructor(
    private readonly max: number,
    private readonly valid: RegExp,
  ) {}

  value(v: string): string {
    if (this.#seen.has(v)) return v;
    if (!this.valid.test(v) || this.#seen.size >= this.max) return OTHER;
    this.#seen.add(v);
    return v;
  }
}

export interface MetricsOptions {
  /** Distinct operation names with their own series (config `metrics.maxOperations`). @default 100 */
  maxOperations?: number;
}

/** What one GraphQL request came to, as counted. */
export interface OperationOutcome {
  /** The operation's name, or null for an unnamed (or unparsed) one. */
  operation: string | null;
  /** `extensions.code` of each error of the answer, in order (empty: success). */
  errorCodes: readonly string[];
  /** Wall time of the request, in seconds. */
  seconds: number;
}

const EVENT_LOOP_SAMPLE_MS = 100;

export function createMetrics(options: MetricsOptions = {}) {
  const registry = new Registry();
  // The event-loop lag histogram samples on a timer of its own: prom-client's 10 ms default woke an
  // idle gateway a hundred times a second (about 1% of a core here); 100 ms still measures every lag
  // to the nanosecond, sampling ten times a second.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const operations = new BoundedLabel(options.maxOperations ?? 100, GRAPHQL_NAME);
  const codes = new BoundedLabel(MAX_CODES, ERROR_CODE);
  const graphqlRequests = new Counter({
    name: 'sitegraph_graphql_requests_total',
    help: 'GraphQL requests by operation name and outcome (ok, or the code of the first error)',
    labelNames: ['operation', 'outcome'] as const,
    registers: [registry],
  });
  const graphqlErrors = new Counter({
    name: 'sitegraph_graphql_errors_total',
    help: 'GraphQL errors in answers, by operation name and error code',
    labelNames: ['operation', 'code'] as const,
    registers: [registry],
  });
  const graphqlDuration = new Histogram({
    name: 'sitegraph_graphql_request_seconds',
    help: 'GraphQL request duration by operation name',
    labelNames: ['operation'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  const upstreamRequests = new Counter({
    name: 'sitegraph_upstream_requests_total',
    help: 'Upstream HTTP attempts by route template and status',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  });
  const upstreamDuration = new Histogram({
    name: 'sitegraph_upstream_request_seconds',
    help: 'Upstream HTTP attempt duration by route template',
    labelNames: ['route'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });

  /** Counts one GraphQL request: requests, errors and duration, labelled with bounded values. */
  function observeOperation(o: OperationOutcome): void {
    const operation = o.operation === null ? ANONYMOUS_OPERATION : operations.value(o.operation);
    const labelled = o.errorCodes.map((c) => codes.value(c));
    graphqlRequests.inc({ operation, outcome: labelled[0] ?? OK });
    for (const code of labelled) graphqlErrors.inc({ operation, code });
    graphqlDuration.observe({ operation }, o.seconds);
  }

  const cacheLookups = new Counter({
    name: 'sitegraph_cache_lookups_total',
    help: 'Upstream cache lookups by result: hit, stale (answered while refreshed in the background), miss, or error (the store could not be read; answered uncached)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const responseCacheLookups = new Counter({
    name: 'sitegraph_response_cache_lookups_total',
    help: 'Response cache lookups of queries by result: hit (answered without execution), miss, or error (the tag versions could not be read)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const cacheStoreUp = new Gauge({
    name: 'sitegraph_cache_store_up',
    help: '1 while the cache store answers (always 1 in memory), 0 while Redis is away',
    registers: [registry],
  });

  /**
   * A gauge read when /metrics is scraped (what a long run watches for growth:
   * open connections, listeners on long-lived signals, cache entries).
   */
  function sampled(
    name: string,
    help: string,
    read: () => number | Promise<number> | Record<string, number>,
    label?: string,
  ): void {
    new Gauge({
      name,
      help,
      labelNames: label ? [label] : [],
      registers: [registry],
      async collect() {
        const v = await read();
        if (typeof v === 'number') this.set(v);
        else for (const [k, n] of Object.entries(v)) this.set({ [label!]: k }, n);
      },
    });
  }

  return {
    registry,
    sampled,
    graphqlRequests,
    graphqlErrors,
    graphqlDuration,
    upstreamRequests,
    upstreamDuration,
    observeOperation,
    cacheLookups,
    responseCacheLookups,
    cacheStoreUp,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
