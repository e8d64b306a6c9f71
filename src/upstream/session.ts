/**
 * The one seam every upstream request of a GraphQL operation passes through
 * (docs/ARCHITECTURE.md, "The layers").
 * One `OperationSession` is made per operation, in `context.ts`; resolvers and
 * loaders only ever see it as an `UpstreamSession`, so none of them can forget
 * a policy. In the order a request meets them:
 *
 *   1. cancellation: the operation's signal (client gone, shutdown, deadline)
 *      is already aborted -> nothing is sent;
 *   2. the route gate: the site's root index does not list the route ->
 *      NAMESPACE_UNAVAILABLE naming the namespace (no request);
 *   3. the budget: the operation has sent `budget` requests (`anonymousBudget` when
 *      the site sees it as anonymous) -> REQUEST_BUDGET_EXCEEDED naming the limit
 *      (counted before sending; retries count too; a request shared with identical
 *      ones of other operations, upstream/flight.ts, counts for each of them);
 *   4. the concurrency cap: wait for one of `concurrency` slots, held for the
 *      whole request including its retries and backoff;
 *   5. the deadline and cancellation: the request carries the operation's
 *      signal, so passing the deadline aborts it (UPSTREAM_TIMEOUT) and no
 *      retry starts after it.
 *
 * Everything above it works in the spec's names (`/calendar/events/v1/...`):
 * the request is put in the names the site serves (`/tribe/events/v1/...`,
 * upstream/names.ts `toSiteRequest`, `/batch/v1` item paths included) only as
 * it is handed to the client, so the gate, the cache's keys and the route label
 * (metrics, errors, spans) are the spec's, and the client's attempt event
 * (`path`) is the site's (docs/real-sites.md, "Namespace names").
 *
 * Writes (anything not idempotent) are treated differently in one way only: a
 * client that disconnects does not abort a write already sent, because
 * aborting it would not undo it on the site and would only lose what the site
 * answered. The deadline still applies to them.
 */
import { setMaxListeners } from 'node:events';
import type { UpstreamRequest, UpstreamResponse, UpstreamSession } from './client.ts';
import type { SiteInfo } from './discovery.ts';
import { GatewayError, isGatewayError } from '../errors.ts';
import { siteOffers } from './gate.ts';
import { toSiteRequest } from './names.ts';

/** A miss: what to store the answer under once it arrives. */
export interface CacheSlot {
  readonly key: string;
  readonly generation: string;
  readonly shared: boolean;
}

export type Lookup =
  | { kind: 'hit'; response: UpstreamResponse<unknown>; ttlMs: number }
  /**
   * Past its freshness, within its stale-while-revalidate grace: answer with it
   * now; `revalidate` is true for the one lookup that should refresh it (then
   * `revalidated(slot)` when done), false while another refresh is under way.
   */
  | { kind: 'stale'; response: UpstreamResponse<unknown>; slot: CacheSlot; revalidate: boolean }
  | { kind: 'miss'; slot: CacheSlot }
  /** Not cacheable, the cache is off, or the store failed: send it, store nothing. */
  | { kind: 'skip' };

/**
 * What the session asks of the upstream GET cache (src/cache/upstream-cache.ts is one): a lookup
 * before sending, the answer kept after, whether identical reads in flight may be shared, and
 * invalidation after a write.
 */
export interface SessionCache {
  lookup(identity: string, req: UpstreamRequest): Promise<Lookup>;
  save(slot: CacheSlot, res: UpstreamResponse<unknown>, store?: boolean): Promise<number>;
  revalidated(slot: CacheSlot): void;
  shareToken(req: UpstreamRequest, slot: CacheSlot | undefined): string | undefined;
  /** Whether `req`, once sent, changes what the cache holds. */
  writes(req: UpstreamRequest): boolean;
  invalidate(req: UpstreamRequest): Promise<void>;
}

export interface SessionPolicy {
  /**
   * The site as discovered, or the error that says why it is not known yet
   * (a site down when the gateway started): then every request fails with it.
   */
  site: SiteInfo | GatewayError;
  /** Upstream requests in flight at once for this operation. */
  concurrency: number;
  /** Upstream requests (attempts, retries included) this operation may send (UPSTREAM_BUDGET). */
  budget: number;
  /**
   * The same when the site sees the operation as anonymous (UPSTREAM_BUDGET_ANONYMOUS); `budget` when that is lower.
   * Absent: `budget`.
   */
  anonymousBudget?: number;
  /** Wall time allowed for the operation's upstream work, from the session's creation. */
  deadlineMs: number;
  /**
   * The namespaces the spec indexes (src/namespaces/catalog.ts INDEXED_NAMESPACES): a request to a
   * namespace the site lacks is refused naming the one its path falls under. Absent: none known.
   */
  namespaces?: readonly string[];
  /**
   * Aborted when the operation's answer is no longer wanted (the client
   * disconnected) or cannot be given (the gateway is shutting down). Its
   * `reason` should be a GatewayError: it becomes the error of what was cut.
   */
  signal?: AbortSignal;
  /**
   * The upstream GET cache (cache/upstream-cache.ts): consulted before the budget
   * and the concurrency cap (a hit sends nothing), told about every write.
   * Absent: nothing is cached.
   */
  cache?: SessionCache;
  /**
   * Whether a request carries a secret, which makes the operation's answer private (cache/policy.ts carriesSecret).
   * Absent: none does.
   */
  isPrivate?: (req: UpstreamRequest) => boolean;
  /** Whom the operation's requests are for, handed to the client's attempt events (the request's log record). */
  tag?: object;
}

/**
 * What the upstream answers used by an operation allow an HTTP cache to do
 * with its GraphQL response (cache/response.ts turns it into `cache-control`).
 */
export interface CacheHint {
  /** The shortest freshness (ms) of the answers used; null when none was used (gateway-only fields). */
  readonly maxAgeMs: number | null;
  /** An answer was opened by a secret in the request (a token or API key argument or header). */
  readonly private: boolean;
}

/** A request gate with the operation's accounting, visible to tests and metrics. */
export interface OperationSession extends UpstreamSession {
  /**
   * Aborted at the deadline, or when the operation is cancelled (seen at once while
   * a request is under way, else by the next request).
   */
  readonly signal: AbortSignal;
  /** Requests sent so far (attempts, retries included). */
  readonly sent: number;
  /** Requests in flight now. */
  readonly active: number;
  readonly cacheHint: CacheHint;
  /**
   * The GETs the operation made (paths and queries): their entity tags (cache/tags.ts) are the response cache's and
   * `Surrogate-Key`'s.
   */
  reads(): readonly Pick<UpstreamRequest, 'path' | 'query'>[];
  /**
   * The budget that applies to this operation, and the setting it comes from (the anonymous one when the site sees no
   * credential).
   */
  readonly budget: { max: number; limit: 'UPSTREAM_BUDGET' | 'UPSTREAM_BUDGET_ANONYMOUS' };
  /**
   * The operation has answered. Its deadline's timer is cleared when nothing
   * of it is still in flight or waiting (what is keeps the deadline); a
   * session never ended keeps its timer until the deadline, harmlessly.
   */
  end(): void;
}

const IDEMPOTENT = new Set(['GET', 'HEAD']);

export function createOperationSession(inner: UpstreamSession, policy: SessionPolicy): OperationSession {
  for (const [name, min] of [
    ['concurrency', 1],
    ['budget', 1],
    ['deadlineMs', 1],
  ] as const) {
    const v = policy[name];
    if (!Number.isInteger(v) || v < min)
      throw new TypeError(`SessionPolicy.${name} must be an integer >= ${min}; got ${String(v)}`);
  }
  return new Session(inner, policy);
}

class Session implements OperationSession {
  readonly authenticated: boolean;
  readonly signal: AbortSignal;
  readonly #inner: UpstreamSession;
  readonly #policy: SessionPolicy;
  readonly #deadline: AbortSignal;
  /** Cuts everything: the deadline and cancellation. */
  readonly #cancel: AbortSignal | undefined;
  readonly #timer: ReturnType<typeof setTimeout>;
  #link: (() => void) | null = null;
  #unlink: (() => void) | null = null;
  /** Requests of this session under way (in request(), from its first line to its last). */
  #underWay = 0;
  #sent = 0;
  #active = 0;
  #maxAgeMs: number | null = null;
  #private = false;
  /** The reads asked for (their tags are worked out only when asked: most operations never need them). */
  readonly #reads: Pick<UpstreamRequest, 'path' | 'query'>[] = [];
  readonly #waiting: { run: () => void; fail: () => void }[] = [];

  constructor(inner: UpstreamSession, policy: SessionPolicy) {
    this.#inner = inner;
    this.#policy = policy;
    this.authenticated = inner.authenticated;
    // The deadline is a timer of this session's own, cleared when the operation
    // ends (end()): AbortSignal.timeout's timer could not be, and fired for
    // every operation long after its answer, a DOMException and an abort event each.
    const deadline = new AbortController();
    this.#deadline = deadline.signal;
    this.#timer = setTimeout(
      () => deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      policy.deadlineMs,
    );
    this.#timer.unref();
    this.#cancel = policy.signal;
    if (policy.signal) {
      // Cut by either: the deadline, or the cancellation (client gone, shutdown).
      const cut = new AbortController();
      const cancel = policy.signal;
      const onCancel = () => cut.abort(cancel.reason);
      this.#deadline.addEventListener('abort', () => cut.abort(this.#deadline.reason), { once: true });
      // Linked to the cancellation only while a request of this session is under way: a
      // long-lived signal (the subscriptions' shutdown, shared by every poll and re-read)
      // then holds no listener, and no session, of an operation that is over, ended or not.
      this.#link = () => {
        if (cancel.aborted) onCancel();
        else cancel.addEventListener('abort', onCancel, { once: true });
      };
      this.#unlink = () => cancel.removeEventListener('abort', onCancel);
      if (cancel.aborted) onCancel();
      this.signal = cut.signal;
    } else {
      this.signal = this.#deadline;
    }
    // Every request in flight listens on these signals (undici adds one
    // listener per request); the cap bounds them, so the leak warning is noise.
    setMaxListeners(0, this.signal, this.#deadline);
    // Requests still waiting for a slot when the operation ends never start.
    this.signal.addEventListener(
      'abort',
      () => {
        for (const w of this.#waiting.splice(0)) w.fail();
      },
      { once: true },
    );
  }

  get sent(): number {
    return this.#sent;
  }

  get active(): number {
    return this.#active;
  }

  get budget(): OperationSession['budget'] {
    return { max: this.#budget, limit: this.#anonymousLimit ? 'UPSTREAM_BUDGET_ANONYMOUS' : 'UPSTREAM_BUDGET' };
  }

  get cacheHint(): CacheHint {
    return { maxAgeMs: this.#maxAgeMs, private: this.#private };
  }

  reads(): readonly Pick<UpstreamRequest, 'path' | 'query'>[] {
    return this.#reads;
  }

  end(): void {
    if (this.#active > 0 || this.#waiting.length > 0) return;
    clearTimeout(this.#timer);
  }

  /** An answer was used that may be reused for `ms` more (0: not at all). */
  #used(ms: number): void {
    this.#maxAgeMs = this.#maxAgeMs === null ? ms : Math.min(this.#maxAgeMs, ms);
  }

  async request<T = unknown>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    if (this.#underWay++ === 0) this.#link?.();
    try {
      return await this.#request<T>(req);
    } finally {
      if (--this.#underWay === 0) this.#unlink?.();
    }
  }

  async #request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    if (this.signal.aborted) throw this.#stopped(req.route);
    const site = this.#policy.site;
    if (site instanceof Error) throw site;
    if (!siteOffers(site, req.method, req.path)) throw routeUnavailable(site, req, this.#policy.namespaces ?? []);
    if (this.#policy.isPrivate?.(req)) this.#private = true;
    if (req.method === 'GET') this.#reads.push(req);

    // The cache first: a hit spends no budget and takes no slot.
    const cache = this.#policy.cache;
    let slot: CacheSlot | undefined;
    if (req.fresh) this.#used(0);
    else if (cache && this.#inner.identity !== undefined) {
      const found = await cache.lookup(this.#inner.identity, req);
      if (found.kind === 'hit') {
        this.#used(found.ttlMs);
        return found.response as UpstreamResponse<T>;
      }
      if (found.kind === 'stale') {
        // Stale-while-revalidate (CACHE_STALE_SECONDS): answered now, as no-store; refreshed in the background.
        this.#used(0);
        if (found.revalidate) this.#revalidate(req, site, cache, found.slot);
        return found.response as UpstreamResponse<T>;
      }
      if (found.kind === 'miss') slot = found.slot;
      if (this.signal.aborted) throw this.#stopped(req.route);
    }
    if (!this.#take()) throw this.#overBudget(req.route);

    const wait = this.#acquire(req.route);
    if (wait) await wait;
    const write = !IDEMPOTENT.has(req.method) || req.idempotent === false;
    const own = write ? this.#deadline : this.signal;
    let sent = false;
    try {
      // Handed a slot just as the operation ended: nothing starts after its end.
      if (this.signal.aborted) throw this.#stopped(req.route);
      sent = true;
      const res = await this.#inner.request<T>({
        // In the site's names from here on (upstream/names.ts); the route label, the cache and the gate keep the
        // spec's.
        ...toSiteRequest(site.names, req),
        ...(this.#policy.tag && !req.tag ? { tag: this.#policy.tag } : {}),
        signal: req.signal ? AbortSignal.any([own, req.signal]) : own,
        // A retry is one more request: it needs budget, and none starts once the operation is over.
        mayRetry: () => (req.mayRetry?.() ?? true) && !own.aborted && this.#take(),
        // Identical reads of other operations in flight now may share this one (upstream/flight.ts).
        ...(cache && !write ? { share: cache.shareToken(req, slot) } : {}),
      });
      // A shared answer is stored once, by the sharer the flight made primary.
      this.#used(slot && cache ? await cache.save(slot, res, !res.joined) : 0);
      return res;
    } catch (err) {
      // What the deadline or a cancellation cut says so, rather than "aborted".
      if (own.aborted) throw this.#stopped(req.route);
      throw err;
    } finally {
      this.#release();
      // Whatever the outcome (a timeout may still have written): before the
      // operation answers, so a read after it never sees the old state.
      if (sent && cache && cache.writes(req)) await cache.invalidate(req);
    }
  }

  /**
   * Refreshes a stale entry: the gateway's own request, not the operation's (no
   * budget, no slot, not cut when the operation ends; bounded by the deadline),
   * shared with identical reads of the moment, stored when it succeeds.
   */
  #revalidate(req: UpstreamRequest, site: SiteInfo, cache: SessionCache, slot: CacheSlot): void {
    const { signal: _own, mayRetry: _retry, tag: _tag, ...rest } = req;
    this.#inner
      .request({
        ...toSiteRequest(site.names, rest),
        signal: AbortSignal.timeout(this.#policy.deadlineMs),
        share: cache.shareToken(req, slot),
      })
      .then(
        (res) => cache.save(slot, res, !res.joined),
        () => 0,
      )
      .finally(() => cache.revalidated(slot));
  }

  /** Takes one request from the budget; false when it is spent. */
  #take(): boolean {
    if (this.#sent >= this.#budget) return false;
    this.#sent += 1;
    return true;
  }

  /**
   * Takes a slot now (null) or queues for one (a promise that resolves when a
   * finishing request hands its slot over). Taken synchronously: requests
   * asked for in the same tick must not all see the same free count.
   */
  #acquire(route: string): Promise<void> | null {
    if (this.#active < this.#policy.concurrency) {
      this.#active += 1;
      return null;
    }
    return new Promise<void>((resolve, reject) =>
      this.#waiting.push({ run: resolve, fail: () => reject(this.#stopped(route)) }),
    );
  }

  /** Hands the slot to the next waiter, in order, or frees it. */
  #release(): void {
    const next = this.#waiting.shift();
    if (next) next.run();
    else this.#active -= 1;
  }

  /** The budget that applies: the anonymous one when the site sees no credential (never above `budget`). */
  get #budget(): number {
    return this.#anonymousLimit ? this.#policy.anonymousBudget! : this.#policy.budget;
  }

  /** True when the anonymous budget is the one that applies (anonymous, and lower than `budget`). */
  get #anonymousLimit(): boolean {
    const a = this.#policy.anonymousBudget;
    return !this.authenticated && a !== undefined && a < this.#policy.budget;
  }

  #overBudget(route: string): GatewayError {
    const budget = this.#budget;
    const anonymous = this.#anonymousLimit;
    const limit = anonymous ? 'UPSTREAM_BUDGET_ANONYMOUS' : 'UPSTREAM_BUDGET';
    const who = anonymous ? 'anonymous operation' : 'operation';
    return new GatewayError(
      'REQUEST_BUDGET_EXCEEDED',
      `This ${who} used its budget of ${budget} upstream requests (${limit}), so ${route} was not sent. Ask for fewer objects or split the operation${anonymous ? ', or send credentials' : ''}.`,
      { budget, limit, upstream: { code: null, status: null, route } },
    );
  }

  /** The error for work the operation's end cut or prevented: the deadline's, or the cancellation's reason. */
  #stopped(route: string): GatewayError {
    if (this.#deadline.aborted) {
      const ms = this.#policy.deadlineMs;
      return new GatewayError(
        'UPSTREAM_TIMEOUT',
        `The operation's deadline of ${ms} ms (OPERATION_DEADLINE_MS) passed before ${route} answered.`,
        {
          deadlineMs: ms,
          upstream: { code: 'OPERATION_DEADLINE', status: null, route },
        },
      );
    }
    const reason: unknown = this.#cancel?.reason;
    // A fresh error per request, so each field's error names its own route.
    if (isGatewayError(reason))
      return new GatewayError(reason.code, reason.message, { upstream: { code: 'CANCELLED', status: null, route } });
    return new GatewayError('UPSTREAM_UNAVAILABLE', `The operation was cancelled before ${route} answered.`, {
      upstream: { code: 'CANCELLED', status: null, route },
    });
  }
}

/**
 * NAMESPACE_UNAVAILABLE, naming the namespace when the site lacks all of it
 * (no calendar-core/v1 before TEC 6.15), else the route (Yoast SEO free has
 * seo/v1 without its redirects routes; docs/real-sites.md). Both
 * in the spec's names, whatever the site serves them as.
 */
function routeUnavailable(site: SiteInfo, req: UpstreamRequest, known: readonly string[]): GatewayError {
  const present = site.namespaces
    .filter((n) => req.path === `/${n}` || req.path.startsWith(`/${n}/`))
    .sort((a, b) => b.length - a.length)[0];
  if (present) {
    return new GatewayError(
      'NAMESPACE_UNAVAILABLE',
      `The site's "${present}" namespace does not provide the REST route ${req.route}.`,
      {
        namespace: present,
        upstream: { code: null, status: null, route: req.route },
      },
    );
  }
  const namespace = namespaceOf(req.path, known);
  return new GatewayError(
    'NAMESPACE_UNAVAILABLE',
    `The site does not provide the REST namespace "${namespace}" (needed for ${req.route}).`,
    {
      namespace,
      upstream: { code: null, status: null, route: req.route },
    },
  );
}

/**
 * The namespace of a REST path the site does not know: the namespace of `known`
 * it falls under (the longest, so `calendar-core/v2/onboarding` wins over a
 * shorter prefix), else its first two segments (`vendor/v1`).
 */
export function namespaceOf(path: string, known: readonly string[] = []): string {
  const under = [...known, 'batch/v1']
    .filter((n) => path === `/${n}` || path.startsWith(`/${n}/`))
    .sort((a, b) => b.length - a.length)[0];
  return under ?? path.split('/').filter(Boolean).slice(0, 2).join('/');
}
