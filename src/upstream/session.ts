/**
 * The one seam every upstream request of a GraphQL operation passes through
 * (docs/ARCHITECTURE.md, "The layers").
 * One `OperationSession` is made per operation, in `context.ts`; resolvers and
 * loaders only ever see it as an `UpstreamSession`, so none of them can forget
 * a policy. Its concerns are steps of one shape (`Step`, undici's `Dispatcher.compose`
 * style: each wraps all those after it), composed in the order a request meets them,
 * listed in `SESSION_STEPS`:
 *
 *   1. cancellation: the operation's signal (client gone, shutdown, deadline)
 *      is already aborted -> nothing is sent;
 *   2. the route gate: the site's root index does not list the route ->
 *      NAMESPACE_UNAVAILABLE naming the namespace (no request);
 *   3. the record: a request carrying a secret makes the answer private; the GETs
 *      are kept for the response cache's tags;
 *   4. the upstream cache: a hit (or a stale answer, refreshed in the background)
 *      spends no budget and takes no slot; a write sent invalidates it;
 *   5. the budget: the operation has sent `budget` requests (`anonymousBudget` when
 *      the site sees it as anonymous) -> REQUEST_BUDGET_EXCEEDED naming the limit
 *      (counted before sending; retries count too; a request shared with identical
 *      ones of other operations, upstream/flight.ts, counts for each of them);
 *   6. the concurrency cap: wait for one of `concurrency` slots, held for the
 *      whole request including its retries and backoff;
 *   7. the deadline and cancellation: the request carries the operation's
 *      signal, so passing the deadline aborts it (UPSTREAM_TIMEOUT) and no
 *      retry starts after it;
 *   8. the store: a read carries the cache's share token, and its answer is kept
 *      (inside the slot, as the cache's second half);
 *   9. the site's names, below.
 *
 * Everything above the last step works in the spec's names (`/calendar/events/v1/...`):
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

/** Not idempotent: a write, or a GET that changes state on the site. */
const isWrite = (req: UpstreamRequest): boolean => !IDEMPOTENT.has(req.method) || req.idempotent === false;

/** What the steps of one request learn on its way down that a step further out needs on the way back. */
export interface Call {
  /** The cache's miss: where the answer is stored (set by `cache`, used by `store`). */
  slot?: CacheSlot;
  /** Handed to the client (set by `site-names`): a write may have changed the site, so the cache is told. */
  sent: boolean;
}

/** Sends a request (in the spec's names) for the operation. */
export type Send = (req: UpstreamRequest, call: Call) => Promise<UpstreamResponse<unknown>>;

/** One concern of the session, around the ones after it (undici's `Dispatcher.compose` shape). */
export type Step = (next: Send) => Send;

/** What the steps work with: one operation's policy, signals and accounting. */
export interface SessionCore {
  readonly policy: SessionPolicy;
  readonly inner: UpstreamSession;
  /** Cut by the deadline or a cancellation. */
  readonly signal: AbortSignal;
  /** Cut by the deadline only. */
  readonly deadline: AbortSignal;
  /** A request starts / ends (the cancellation is listened to only while one is under way). */
  enter(): void;
  leave(): void;
  /** An answer was used that may be reused for `ms` more (0: not at all). */
  used(ms: number): void;
  /** The operation's answer is private. */
  markPrivate(): void;
  /** A GET the operation made. */
  read(req: UpstreamRequest): void;
  /** Takes one request from the budget; false when it is spent. */
  take(): boolean;
  /** Takes a concurrency slot now (null) or queues for one. */
  acquire(route: string): Promise<void> | null;
  release(): void;
  overBudget(route: string): GatewayError;
  /** The error for work the operation's end cut or prevented. */
  stopped(route: string): GatewayError;
  revalidate(req: UpstreamRequest, site: SiteInfo, cache: SessionCache, slot: CacheSlot): void;
}

/** The operation's signal is already aborted -> nothing is sent; listens to the cancellation while under way. */
const cancellation = (s: SessionCore): Step => {
  return (next) => async (req, call) => {
    s.enter();
    try {
      if (s.signal.aborted) throw s.stopped(req.route);
      return await next(req, call);
    } finally {
      s.leave();
    }
  };
};

/** The site is unknown (its error), or its root index does not list the route -> NAMESPACE_UNAVAILABLE. */
const gate = (s: SessionCore): Step => {
  return (next) => (req, call) => {
    const site = s.policy.site;
    if (site instanceof Error) throw site;
    if (!siteOffers(site, req.method, req.path)) throw routeUnavailable(site, req, s.policy.namespaces ?? []);
    return next(req, call);
  };
};

/** What the answer depends on: private when a request carries a secret; the GETs, for the response cache's tags. */
const record = (s: SessionCore): Step => {
  return (next) => (req, call) => {
    if (s.policy.isPrivate?.(req)) s.markPrivate();
    if (req.method === 'GET') s.read(req);
    return next(req, call);
  };
};

/**
 * The upstream cache: a hit, or a stale answer (refreshed in the background), spends no budget and takes no slot; a
 * miss says where to store the answer (`store`); a write sent invalidates what it changed, whatever the outcome (a
 * timeout may still have written), before the operation answers.
 */
const cache = (s: SessionCore): Step => {
  return (next) => async (req, call) => {
    const cache = s.policy.cache;
    try {
      if (req.fresh) s.used(0);
      else if (cache && s.inner.identity !== undefined) {
        const found = await cache.lookup(s.inner.identity, req);
        if (found.kind === 'hit') {
          s.used(found.ttlMs);
          return found.response;
        }
        if (found.kind === 'stale') {
          // Stale-while-revalidate (CACHE_STALE_SECONDS): answered now, as no-store; refreshed in the background.
          s.used(0);
          const site = s.policy.site;
          if (found.revalidate && !(site instanceof Error)) s.revalidate(req, site, cache, found.slot);
          return found.response;
        }
        if (found.kind === 'miss') call.slot = found.slot;
        if (s.signal.aborted) throw s.stopped(req.route);
      }
      return await next(req, call);
    } finally {
      if (call.sent && cache && cache.writes(req)) await cache.invalidate(req);
    }
  };
};

/** The budget spent -> REQUEST_BUDGET_EXCEEDED (counted before sending); a retry is one more request. */
const budget = (s: SessionCore): Step => {
  return (next) => (req, call) => {
    if (!s.take()) throw s.overBudget(req.route);
    const asked = req.mayRetry;
    return next({ ...req, mayRetry: () => (asked?.() ?? true) && s.take() }, call);
  };
};

/** Waits for one of `concurrency` slots, held for the whole request including its retries and backoff. */
const concurrency = (s: SessionCore): Step => {
  return (next) => async (req, call) => {
    const wait = s.acquire(req.route);
    if (wait) await wait;
    try {
      return await next(req, call);
    } finally {
      s.release();
    }
  };
};

/**
 * The deadline and cancellation: nothing starts after the operation's end (a slot handed over just as it ended), the
 * request carries the operation's signal (a write only the deadline: a client leaving does not abort a write already
 * sent), no retry starts after it, and what it cut says so (UPSTREAM_TIMEOUT or the cancellation's reason).
 */
const deadline = (s: SessionCore): Step => {
  return (next) => async (req, call) => {
    const own = isWrite(req) ? s.deadline : s.signal;
    try {
      if (s.signal.aborted) throw s.stopped(req.route);
      const asked = req.mayRetry;
      return await next(
        {
          ...req,
          signal: req.signal ? AbortSignal.any([own, req.signal]) : own,
          mayRetry: () => !own.aborted && (asked?.() ?? true),
        },
        call,
      );
    } catch (err) {
      if (own.aborted) throw s.stopped(req.route);
      throw err;
    }
  };
};

/**
 * The cache again, around the sending: a read carries the cache's share token (identical reads of other operations
 * in flight now may share it, upstream/flight.ts); the answer is stored under the miss's slot (a shared answer once,
 * by the sharer the flight made primary), and its freshness is the operation's.
 */
const store = (s: SessionCore): Step => {
  return (next) => async (req, call) => {
    const cache = s.policy.cache;
    const slot = call.slot;
    const res = await next(cache && !isWrite(req) ? { ...req, share: cache.shareToken(req, slot) } : req, call);
    s.used(slot && cache ? await cache.save(slot, res, !res.joined) : 0);
    return res;
  };
};

/**
 * The request in the site's names (upstream/names.ts `toSiteRequest`, `/batch/v1` item paths included): every step
 * before works in the spec's names, so the gate, the cache's keys and the route label are the spec's, and the
 * client's attempt event (`path`) is the site's. Tagged with whom it is for (the client's attempt events).
 */
const siteNames = (s: SessionCore): Step => {
  return (next) => (req, call) => {
    const site = s.policy.site;
    if (site instanceof Error) throw site;
    call.sent = true;
    return next(
      { ...toSiteRequest(site.names, req), ...(s.policy.tag && !req.tag ? { tag: s.policy.tag } : {}) },
      call,
    );
  };
};

/** The session's concerns, in the order a request meets them: each one wraps all those after it. */
export const SESSION_STEPS: readonly { readonly name: string; readonly step: (s: SessionCore) => Step }[] = [
  { name: 'cancellation', step: cancellation },
  { name: 'gate', step: gate },
  { name: 'record', step: record },
  { name: 'cache', step: cache },
  { name: 'budget', step: budget },
  { name: 'concurrency', step: concurrency },
  { name: 'deadline', step: deadline },
  { name: 'store', step: store },
  { name: 'site-names', step: siteNames },
];

/** The steps around `send`, the first outermost (undici's `Dispatcher.compose`). */
export function composeSteps(steps: readonly Step[], send: Send): Send {
  return steps.reduceRight<Send>((next, step) => step(next), send);
}

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
  /** SESSION_STEPS around the inner session's request. */
  readonly #send: Send;

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
    const core: SessionCore = {
      policy,
      inner,
      signal: this.signal,
      deadline: this.#deadline,
      enter: () => {
        if (this.#underWay++ === 0) this.#link?.();
      },
      leave: () => {
        if (--this.#underWay === 0) this.#unlink?.();
      },
      used: (ms) => this.#used(ms),
      markPrivate: () => {
        this.#private = true;
      },
      read: (req) => {
        this.#reads.push(req);
      },
      take: () => this.#take(),
      acquire: (route) => this.#acquire(route),
      release: () => this.#release(),
      overBudget: (route) => this.#overBudget(route),
      stopped: (route) => this.#stopped(route),
      revalidate: (req, site, cache, slot) => this.#revalidate(req, site, cache, slot),
    };
    this.#send = composeSteps(
      SESSION_STEPS.map((s) => s.step(core)),
      (req) => inner.request(req),
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

  request<T = unknown>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    return this.#send(req, { sent: false }) as Promise<UpstreamResponse<T>>;
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
