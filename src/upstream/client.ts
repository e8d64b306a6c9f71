/**
 * The only module that sends HTTP to the site (docs/ARCHITECTURE.md, "The layers").
 *
 * Transport concerns are small layers composed once, in `UpstreamSession.request`:
 *
 *   buildTarget (URL + PHP-style query) -> buildHeaders (auth, UA, JSON, Accept-Encoding)
 *   -> single flight (identical GETs of the same moment: one exchange; flight.ts)
 *   -> retry loop (GET/HEAD only) -> sendOnce (undici Pool, timeouts)
 *   -> readBody (the size cap; gzip/br/deflate undone whole, up to the cap)
 *   -> decodeBody (JSON / text / null) -> errors.ts (fromUpstreamResponse / fromTransportError)
 *
 * with the `onResponse` hook called once per attempt.
 */
import { isAscii } from 'node:buffer';
import { brotliDecompress, brotliDecompressSync, gunzip, gunzipSync, inflate, inflateSync } from 'node:zlib';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { setTimeout as sleep } from 'node:timers/promises';
import { identityOf } from './identity.ts';
import { UPSTREAM_DEFAULTS } from './defaults.ts';
import { GatewayError } from '../errors.ts';
import {
  MalformedResponseError,
  ResponseTooLargeError,
  UndecodableBodyError,
  fromTransportError,
  fromUpstreamResponse,
  parseRetryAfter,
} from './errors.ts';
import { Flights } from './flight.ts';

export interface UpstreamAttemptEvent {
  method: string;
  /**
   * The REST path as sent, in the site's names (`/tribe/events/v1/events/5`),
   * without query string (queries may carry tokens). `route` is the spec's.
   */
  path: string;
  route: string;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /** Wall time of this attempt, in milliseconds. */
  ms: number;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
  /** The gateway code (`UPSTREAM_TIMEOUT`, `NOT_FOUND`, ...) when the attempt failed. */
  error?: string;
  /**
   * When it failed: the site's error code or the transport's (`rest_no_route`, `ECONNREFUSED`,
   * `UND_ERR_HEADERS_TIMEOUT`).
   */
  cause?: string;
  /** When it failed with an answer: its Content-Type (`text/html` where JSON was due tells an error page). */
  contentType?: string;
  /**
   * When it failed: the error's message. It may echo what the site was sent: log it only through src/log.ts
   * (redacting).
   */
  message?: string;
  /** The request's `tag`: whom it was sent for (the GraphQL request's log record). */
  tag?: object;
}

export interface UpstreamOptions {
  /** REST root: `http://host/wp-json/`, or a `?rest_route=` root (`http://host/?rest_route=`). */
  baseUrl: string;
  /** undici Pool connections per origin. @default UPSTREAM_DEFAULTS.connections */
  connections?: number;
  /** Idle keep-alive time when the site sends no `Keep-Alive` hint. @default UPSTREAM_DEFAULTS.keepAliveTimeoutMs */
  keepAliveTimeoutMs?: number;
  /** TCP (and TLS) connect timeout. @default UPSTREAM_DEFAULTS.connectTimeoutMs */
  connectTimeoutMs?: number;
  /**
   * Time allowed until the response headers arrive. undici checks headers and
   * body timeouts on a coarse timer (~0.5-1 s resolution), so sub-second
   * values fire late. @default UPSTREAM_DEFAULTS.headersTimeoutMs
   */
  headersTimeoutMs?: number;
  /** Time allowed between two body chunks (same coarse timer). @default UPSTREAM_DEFAULTS.bodyTimeoutMs */
  bodyTimeoutMs?: number;
  /**
   * Response bodies larger than this are refused (UPSTREAM_BAD_RESPONSE) and the connection aborted. @default
   * UPSTREAM_DEFAULTS.maxResponseBytes
   */
  maxResponseBytes?: number;
  /**
   * Extra attempts for idempotent reads (GET/HEAD) only; writes are never retried. @default UPSTREAM_DEFAULTS.retries
   */
  retries?: number;
  /** First backoff delay; doubles per retry, with jitter. @default UPSTREAM_DEFAULTS.retryBaseDelayMs */
  retryBaseDelayMs?: number;
  /**
   * Longest `Retry-After` we wait for; a longer one fails at once, carrying `retryAfter`. @default
   * UPSTREAM_DEFAULTS.maxRetryAfterMs
   */
  maxRetryAfterMs?: number;
  /** Authorization header value used when the caller has none (server-to-server). @default none */
  serviceAuthorization?: string;
  /** Headers sent on every request (the session's Authorization always wins). @default {} */
  defaultHeaders?: Record<string, string>;
  /** @default UPSTREAM_DEFAULTS.userAgent */
  userAgent?: string;
  /** Metrics/log hook, called once per attempt; must not throw (errors are swallowed). @default none */
  onResponse?: (e: UpstreamAttemptEvent) => void;
  /**
   * Tracing hook (src/telemetry.ts), called as each attempt starts: its headers
   * (`traceparent`) go with the attempt and its `end` is called once when it
   * ends. Must not throw. @default none (no tracing work at all)
   */
  trace?: (a: UpstreamAttemptStart) => UpstreamAttemptTrace;
}

/** What the tracing hook is told as an attempt starts. */
export interface UpstreamAttemptStart {
  method: string;
  /** The bounded label, e.g. `GET /calendar-core/v1/events/<id>`. */
  route: string;
  /** `http://host:port` of the site. */
  origin: string;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
}

/** One traced attempt: headers to send with it, and its end (status null: no answer; error: it failed). */
export interface UpstreamAttemptTrace {
  headers: Record<string, string>;
  end(status: number | null, error?: GatewayError): void;
}

export interface ResolvedUpstreamOptions {
  baseUrl: string;
  connections: number;
  keepAliveTimeoutMs: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  maxResponseBytes: number;
  retries: number;
  retryBaseDelayMs: number;
  maxRetryAfterMs: number;
  serviceAuthorization: string | undefined;
  defaultHeaders: Readonly<Record<string, string>>;
  userAgent: string;
  onResponse: ((e: UpstreamAttemptEvent) => void) | undefined;
  trace: ((a: UpstreamAttemptStart) => UpstreamAttemptTrace) | undefined;
}

/** Fills in defaults and fails early, saying what was expected and what arrived. */
export function resolveUpstreamOptions(options: UpstreamOptions): ResolvedUpstreamOptions {
  if (!options || typeof options.baseUrl !== 'string') {
    throw new TypeError(`UpstreamOptions.baseUrl must be a URL string; got ${typeof options?.baseUrl}`);
  }
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError(
      `UpstreamOptions.baseUrl must be an absolute http(s) URL; got "${stripQuery(options.baseUrl)}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`UpstreamOptions.baseUrl must use http or https; got "${url.protocol}"`);
  }
  const int = (name: keyof typeof UPSTREAM_DEFAULTS, min: number): number => {
    // `unknown`: callers in plain JavaScript may pass anything, hence the check below.
    const v: unknown = options[name] ?? UPSTREAM_DEFAULTS[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
      throw new TypeError(`UpstreamOptions.${name} must be an integer >= ${min}; got ${String(v)}`);
    }
    return v;
  };
  const defaultHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.defaultHeaders ?? {})) defaultHeaders[k.toLowerCase()] = v;
  return {
    baseUrl: options.baseUrl,
    connections: int('connections', 1),
    keepAliveTimeoutMs: int('keepAliveTimeoutMs', 1),
    connectTimeoutMs: int('connectTimeoutMs', 1),
    headersTimeoutMs: int('headersTimeoutMs', 1),
    bodyTimeoutMs: int('bodyTimeoutMs', 1),
    maxResponseBytes: int('maxResponseBytes', 1),
    retries: int('retries', 0),
    retryBaseDelayMs: int('retryBaseDelayMs', 0),
    maxRetryAfterMs: int('maxRetryAfterMs', 0),
    serviceAuthorization: options.serviceAuthorization || undefined,
    defaultHeaders,
    userAgent: options.userAgent ?? UPSTREAM_DEFAULTS.userAgent,
    onResponse: options.onResponse,
    trace: options.trace,
  };
}

export type QueryValue = string | number | boolean | null | undefined | Array<string | number | boolean>;

export interface UpstreamRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** REST path, e.g. `/calendar-core/v1/events/12`; dynamic segments already URI-encoded; no query string. */
  path: string;
  /** Arrays as `key[]=a&key[]=b`; booleans as `true`/`false`; null/undefined skipped. */
  query?: Record<string, QueryValue>;
  /** JSON-encoded, sent with `content-type: application/json`. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Label for errors and metrics, e.g. `GET /calendar-core/v1/events/<id>`. */
  route: string;
  /**
   * Read from the site, not the upstream cache (the answer is not kept either): the pages of a
   * cursor walk, which a cached page read before a change could not be joined to (paging/window.ts).
   */
  fresh?: boolean;
  /** Statuses returned as data instead of thrown. @default 2xx */
  okStatuses?: (status: number) => boolean;
  /**
   * A GET that changes state on the site (a queue that pops on read) is not
   * idempotent: `false` turns retries off for it. @default true for GET/HEAD
   */
  idempotent?: boolean;
  signal?: AbortSignal;
  /**
   * Asked before each retry (not before the first attempt): false stops
   * retrying and the last failure is thrown. The operation's session uses it
   * to count retries against its request budget (upstream/session.ts). @default always
   */
  mayRetry?: () => boolean;
  /** Whom it is sent for, handed back in its attempt events (`onResponse`): the GraphQL request's log record. */
  tag?: object;
  /**
   * Single flight (flight.ts): a GET or HEAD with a `share` token is sent once for
   * every identical request (same caller identity, method, path, query, headers
   * and token) in flight at the same moment; each sharer keeps its own signal
   * and retry budget (`mayRetry`) and decodes its own copy of the body. The
   * session passes the cache's token (cache/upstream-cache.ts `shareToken`).
   * Absent, or a write: never shared.
   */
  share?: string;
}

export interface UpstreamResponse<T = unknown> {
  status: number;
  /**
   * Lower-case names; repeated headers joined with `, `. The body is decoded: no `content-encoding`, `content-length`.
   */
  headers: Record<string, string>;
  /** Parsed JSON, a string for non-JSON bodies, null for 204/HEAD/empty. */
  body: T;
  /** This answer was shared with identical requests of the same moment, and another sharer is the one to store it. */
  joined?: boolean;
  /**
   * Bytes of the decoded body as read: what the upstream cache counts it as in memory, where it keeps the parsed body.
   */
  size?: number;
}

export interface UpstreamSession {
  request<T = unknown>(req: UpstreamRequest): Promise<UpstreamResponse<T>>;
  /** True when requests carry an Authorization header (the caller's or the service credential). */
  readonly authenticated: boolean;
  /**
   * Who the site sees, for the upstream cache's keys: `anonymous`, or a hash of
   * the credential sent (upstream/identity.ts). Absent: never cached.
   */
  readonly identity?: string;
}

export class UpstreamClient {
  /** Resolved options, without the service credential (so logging them is safe). */
  readonly options: Readonly<Omit<ResolvedUpstreamOptions, 'serviceAuthorization'>> & {
    readonly hasServiceAuthorization: boolean;
  };
  readonly #serviceAuthorization: string | undefined;
  readonly #resolved: ResolvedUpstreamOptions;
  /** One Pool per origin, created lazily; safe to share across sessions (one pool per origin, as undici advises). */
  readonly #pools = new Map<string, Pool>();
  /** Identical GETs in flight (one site per client, so the site is part of every key). */
  readonly flights = new Flights<Exchange>();
  #closed = false;

  constructor(options: UpstreamOptions) {
    const resolved = resolveUpstreamOptions(options);
    const { serviceAuthorization, ...rest } = resolved;
    this.#resolved = resolved;
    this.#serviceAuthorization = serviceAuthorization;
    this.options = Object.freeze({ ...rest, hasServiceAuthorization: serviceAuthorization !== undefined });
  }

  /** A per-request session carrying the caller's Authorization, else the service credential, else none. */
  session(authorization?: string | null): UpstreamSession {
    const auth = authorization || this.#serviceAuthorization || undefined;
    return new Session(this, auth);
  }

  /** Closes every pool after in-flight requests finish. Requests after close fail with UPSTREAM_UNAVAILABLE. */
  async close(): Promise<void> {
    this.#closed = true;
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((p) => p.close()));
  }

  /** @internal */
  get resolved(): ResolvedUpstreamOptions {
    return this.#resolved;
  }

  /** @internal */
  pool(origin: string): Pool {
    if (this.#closed) throw new ClientClosed();
    let pool = this.#pools.get(origin);
    if (!pool) {
      const o = this.#resolved;
      pool = new Pool(origin, {
        connections: o.connections,
        keepAliveTimeout: o.keepAliveTimeoutMs,
        headersTimeout: o.headersTimeoutMs,
        bodyTimeout: o.bodyTimeoutMs,
        connect: { timeout: o.connectTimeoutMs },
      });
      this.#pools.set(origin, pool);
    }
    return pool;
  }
}

class ClientClosed extends Error {
  readonly code = 'UND_ERR_CLOSED';
  constructor() {
    super('the upstream client is closed');
  }
}

/** Upstream statuses worth retrying for reads: gateway trouble and rate limits. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const IDEMPOTENT = new Set(['GET', 'HEAD']);
const is2xx = (s: number) => s >= 200 && s < 300;

class Session implements UpstreamSession {
  readonly authenticated: boolean;
  readonly identity: string;

  constructor(
    private readonly client: UpstreamClient,
    private readonly authorization: string | undefined,
  ) {
    this.authenticated = authorization !== undefined;
    this.identity = identityOf(authorization);
  }

  async request<T = unknown>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    const o = this.client.resolved;
    const target = buildTarget(o.baseUrl, req);
    const headers = buildHeaders(o, req, this.authorization);
    const ok = req.okStatuses ?? is2xx;
    if (req.share !== undefined && IDEMPOTENT.has(req.method) && req.idempotent !== false && req.body === undefined) {
      const key = flightKey(this.identity, req.method, target.path, headers, req.share);
      const member = { signal: req.signal, mayRetry: req.mayRetry ? () => req.mayRetry!() : undefined };
      let joined;
      try {
        joined = await this.client.flights.run(key, member, (shared) =>
          this.#exchange(req, target, headers, null, ok, shared.signal, (last) => shared.mayRetry(last)),
        );
      } catch (err) {
        // This sharer's own signal aborted (the others carry on).
        throw fromTransportError(err, req.route);
      }
      return finish<T>(req, joined.value, ok, joined.primary);
    }
    const body = req.body === undefined ? null : JSON.stringify(req.body);
    const last = await this.#exchange(
      req,
      target,
      headers,
      body,
      ok,
      req.signal,
      req.mayRetry ? () => req.mayRetry!() : undefined,
    );
    return finish<T>(req, last, ok, true);
  }

  /**
   * The attempts of one request (retries of reads included), to its final
   * outcome: an answer that is not retried any more, or a transport failure.
   * Never throws. Reported (onResponse, tracing) once per attempt, for `req`:
   * when shared, the first sharer's route and tag.
   */
  async #exchange(
    req: UpstreamRequest,
    target: Target,
    headers: Record<string, string>,
    body: string | null,
    ok: (status: number) => boolean,
    signal: AbortSignal | undefined,
    mayRetry: ((last: Exchange) => boolean) | undefined,
  ): Promise<Exchange> {
    const o = this.client.resolved;
    const maxAttempts = IDEMPOTENT.has(req.method) && req.idempotent !== false ? 1 + o.retries : 1;

    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      // Traced (telemetry.ts): a span per attempt, whose traceparent goes with it to the site.
      const traced = o.trace?.({ method: req.method, route: req.route, origin: target.origin, attempt });
      let status: number | null = null;
      let last: Exchange;
      let failure: GatewayError;
      let retryable = false;
      let retryAfterMs: number | undefined;
      let contentType: string | undefined;
      try {
        const raw = await sendOnce(this.client.pool(target.origin), {
          method: req.method,
          path: target.path,
          headers: traced ? { ...headers, ...traced.headers } : headers,
          body,
          headersTimeout: o.headersTimeoutMs,
          bodyTimeout: o.bodyTimeoutMs,
          maxBytes: o.maxResponseBytes,
          signal,
        });
        status = raw.status;
        contentType = raw.headers['content-type'];
        if (ok(raw.status)) {
          const parsed = decodeBody(raw, true);
          traced?.end(status);
          report(o, req, target, status, started, attempt);
          return { raw, parsed: { value: parsed } };
        }
        failure = fromUpstreamResponse(raw.status, decodeBody(raw, false), req.route, raw.headers);
        last = { raw, failure };
        retryable = RETRY_STATUSES.has(raw.status);
        retryAfterMs = parseRetryAfter(raw.headers['retry-after']);
      } catch (err) {
        failure = fromTransportError(err, req.route);
        last = { error: failure };
        // Timeouts, resets and refusals may pass; a bad body will be bad again.
        retryable = failure.code === 'UPSTREAM_TIMEOUT' || failure.code === 'UPSTREAM_UNAVAILABLE';
      }
      traced?.end(status, failure);
      report(o, req, target, status, started, attempt, failure.code, {
        cause: failure.extensions.upstream?.code ?? undefined,
        contentType,
        message: failure.message,
      });

      // The caller gave up (its own deadline or disconnect): never retry.
      if (signal?.aborted) return { error: fromTransportError(signal.reason ?? failure, req.route) };
      if (!retryable || attempt >= maxAttempts) return last;
      // A Retry-After beyond our patience fails now, passing `retryAfter` on to the caller.
      if (retryAfterMs !== undefined && retryAfterMs > o.maxRetryAfterMs) return last;
      try {
        await sleep(Math.max(retryAfterMs ?? 0, backoff(attempt, o.retryBaseDelayMs)), undefined, { signal });
      } catch (err) {
        return { error: fromTransportError(signal?.reason ?? err, req.route) };
      }
      // Asked after the backoff: a retry that would start after the operation ended is not sent.
      if (mayRetry && !mayRetry(last)) return last;
    }
  }
}

/**
 * The final outcome of one exchange: an answer (with, for the sharer that
 * owns them, the body as parsed and the error as mapped during the attempt),
 * or a failure with no usable answer.
 */
type Exchange = { raw: RawResponse; parsed?: { value: unknown }; failure?: GatewayError } | { error: GatewayError };

/**
 * The exchange's outcome as this request's answer or error. `own`: the outcome
 * is this request's alone (not shared, or this is the primary sharer), so what
 * was parsed or mapped during the attempt is used as is; other sharers decode
 * their own copy of the bytes and get their own error, under their own route
 * and status rule, so nothing one operation holds is another's object.
 */
function finish<T>(
  req: UpstreamRequest,
  last: Exchange,
  ok: (status: number) => boolean,
  own: boolean,
): UpstreamResponse<T> {
  if ('error' in last) throw own ? last.error : copyError(last.error, req.route);
  const { raw } = last;
  const joined = own ? {} : { joined: true };
  if (ok(raw.status)) {
    if (own && last.parsed)
      return { status: raw.status, headers: raw.headers, body: last.parsed.value as T, size: raw.bytes.length };
    let body: unknown;
    try {
      body = decodeBody(raw, true);
    } catch (err) {
      throw fromTransportError(err, req.route);
    }
    return { status: raw.status, headers: { ...raw.headers }, body: body as T, size: raw.bytes.length, ...joined };
  }
  if (own && last.failure) throw last.failure;
  throw fromUpstreamResponse(raw.status, decodeBody(raw, false), req.route, raw.headers);
}

/** The same failure as an error of its own, under this request's route (errors are annotated by their operation). */
function copyError(e: GatewayError, route: string): GatewayError {
  const { code: _code, upstream, ...rest } = e.extensions;
  return new GatewayError(e.code, e.message, {
    ...rest,
    ...(upstream ? { upstream: { ...upstream, route } } : {}),
    originalError: e.originalError ?? undefined,
  });
}

/**
 * What makes two requests the same request: the caller's identity (upstream/identity.ts),
 * method, path and query as sent, every header but the credential (the identity
 * stands for it), and the cache's share token. The site is the client's own.
 */
function flightKey(
  identity: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  share: string,
): string {
  const h = Object.keys(headers)
    .filter((k) => k !== 'authorization')
    .sort()
    .map((k) => `${k}:${headers[k]}`)
    .join('\n');
  return `${identity}\u0000${method}\u0000${path}\u0000${h}\u0000${share}`;
}

/** Exponential backoff with "equal jitter": half the step fixed, half random (spreads retries of many callers). */
export function backoff(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const step = baseMs * 2 ** (attempt - 1);
  return step / 2 + random() * (step / 2);
}

function report(
  o: ResolvedUpstreamOptions,
  req: UpstreamRequest,
  target: Target,
  status: number | null,
  started: number,
  attempt: number,
  error?: string,
  detail: Pick<UpstreamAttemptEvent, 'cause' | 'contentType' | 'message'> = {},
): void {
  if (!o.onResponse) return;
  const event: UpstreamAttemptEvent = {
    method: req.method,
    path: target.restPath,
    route: req.route,
    status,
    ms: performance.now() - started,
    attempt,
  };
  if (error !== undefined) event.error = error;
  if (req.tag !== undefined) event.tag = req.tag;
  for (const k of ['cause', 'contentType', 'message'] as const) if (detail[k] !== undefined) event[k] = detail[k];
  try {
    o.onResponse(event);
  } catch {
    /* a metrics hook must never fail a request */
  }
}

// ---------------------------------------------------------------------------
// URL

interface Target {
  origin: string;
  /** Path and query sent on the wire. */
  path: string;
  /** The REST path alone, for logs. */
  restPath: string;
}

/**
 * Builds origin + request path. Pretty roots (`/wp-json/`) get the REST path
 * appended; `?rest_route=` roots (sites without pretty permalinks) get it
 * appended to that parameter. Other query parameters of the root are kept.
 */
export function buildTarget(baseUrl: string, req: Pick<UpstreamRequest, 'path' | 'query'>): Target {
  const p = req.path;
  if (typeof p !== 'string' || !p.startsWith('/') || /[?#\s]/.test(p)) {
    throw new TypeError(
      `UpstreamRequest.path must be a REST path starting with "/" with no query string or spaces (put parameters in "query"); got ${JSON.stringify(stripQuery(String(p)))}`,
    );
  }
  const base = rootOf(baseUrl);
  const extra = encodeQuery(req.query);
  let path: string;
  if (base.route !== null) {
    const params = [...base.params];
    params[base.route.index] = `rest_route=${base.route.current}${p}`;
    path = `${base.pathname}?${[...params, ...extra].join('&')}`;
  } else {
    const all = base.params.length ? [...base.params, ...extra] : extra;
    path = `${base.trimmed}${p}${all.length ? `?${all.join('&')}` : ''}`;
  }
  return { origin: base.origin, path, restPath: p };
}

interface Root {
  origin: string;
  pathname: string;
  /** The pathname without trailing slashes (a pretty root's REST paths are appended to it). */
  trimmed: string;
  /** The root's own query parameters, as sent. */
  params: readonly string[];
  /** A `?rest_route=` root: which parameter it is, and its value. */
  route: { index: number; current: string } | null;
}

/** A REST root, read once (a client has one: this is not a cache of callers' input). */
const roots = new Map<string, Root>();

function rootOf(baseUrl: string): Root {
  let root = roots.get(baseUrl);
  if (root) return root;
  const url = new URL(baseUrl);
  const params = url.search.replace(/^\?/, '').split('&').filter(Boolean);
  const index = params.findIndex((kv) => kv === 'rest_route' || kv.startsWith('rest_route='));
  root = {
    origin: url.origin,
    pathname: url.pathname,
    trimmed: url.pathname.replace(/\/+$/, ''),
    params,
    route:
      index >= 0
        ? { index, current: decodeURIComponent(params[index]!.slice('rest_route='.length)).replace(/\/+$/, '') }
        : null,
  };
  if (roots.size >= 16) roots.clear();
  roots.set(baseUrl, root);
  return root;
}

/** PHP-style query: `key[]=a&key[]=b`, booleans `true`/`false`, null/undefined (and empty arrays) skipped. */
export function encodeQuery(query: Record<string, QueryValue> | undefined): string[] {
  const out: string[] = [];
  if (!query) return out;
  const enc = (v: string | number | boolean) =>
    encodeURIComponent(typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v));
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    const k = encodeURIComponent(key);
    if (Array.isArray(value)) {
      for (const v of value) out.push(`${k}[]=${enc(v)}`);
    } else {
      out.push(`${k}=${enc(value)}`);
    }
  }
  return out;
}

function stripQuery(s: string): string {
  const i = s.search(/[?#]/);
  return i < 0 ? s : `${s.slice(0, i)}?…`;
}

// ---------------------------------------------------------------------------
// Headers

/** What the client asks the site for, and can undo (readBody). */
export const ACCEPT_ENCODING = 'gzip, br';

function buildHeaders(
  o: ResolvedUpstreamOptions,
  req: UpstreamRequest,
  authorization: string | undefined,
): Record<string, string> {
  // gzip and brotli: a 50-event page is 77 KB as JSON and a tenth of it compressed (readBody undoes it).
  const h: Record<string, string> = {
    accept: 'application/json',
    'accept-encoding': ACCEPT_ENCODING,
    'user-agent': o.userAgent,
    ...o.defaultHeaders,
  };
  for (const [k, v] of Object.entries(req.headers ?? {})) h[k.toLowerCase()] = v;
  if (req.body !== undefined && !h['content-type']) h['content-type'] = 'application/json';
  // The session decides who is calling: the caller's header passes through unchanged.
  delete h.authorization;
  if (authorization !== undefined) h.authorization = authorization;
  return h;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

// ---------------------------------------------------------------------------
// One attempt

interface SendOptions {
  method: UpstreamRequest['method'];
  path: string;
  headers: Record<string, string>;
  body: string | null;
  headersTimeout: number;
  bodyTimeout: number;
  maxBytes: number;
  signal: AbortSignal | undefined;
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

async function sendOnce(pool: Pool, s: SendOptions): Promise<RawResponse> {
  const opts: Dispatcher.RequestOptions = {
    method: s.method,
    path: s.path,
    headers: s.headers,
    body: s.body,
    headersTimeout: s.headersTimeout,
    bodyTimeout: s.bodyTimeout,
  };
  if (s.signal) opts.signal = s.signal;
  const res = await pool.request(opts);
  const headers = flattenHeaders(res.headers);
  const encoding = headers['content-encoding'];
  const bytes = await readBody(res.body, encoding, headers['content-length'], s.maxBytes);
  if (encoding !== undefined) {
    // What the caller gets is the decoded body: these described the bytes on the wire.
    delete headers['content-encoding'];
    delete headers['content-length'];
  }
  return { status: res.statusCode, headers, bytes };
}

/**
 * The codings of a Content-Encoding (`gzip`, `x-gzip`, `br`, `deflate`), in
 * the order they are undone (last applied first); empty when there is none.
 * A coding the client does not know is an UndecodableBodyError.
 */
function codingsOf(encoding: string | undefined): Coding[] {
  if (encoding === undefined) return [];
  const codings = encoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  return codings.reverse().map((c) => {
    if (c === 'gzip' || c === 'x-gzip') return 'gzip';
    if (c === 'br' || c === 'deflate') return c;
    throw new UndecodableBodyError(encoding);
  });
}

type Coding = 'gzip' | 'br' | 'deflate';
type ZlibOptions = { maxOutputLength: number };
const UNDO_SYNC: Record<Coding, (b: Buffer, o: ZlibOptions) => Buffer> = {
  gzip: gunzipSync,
  br: brotliDecompressSync,
  deflate: inflateSync,
};
const UNDO_ASYNC: Record<Coding, (b: Buffer, o: ZlibOptions, cb: (err: Error | null, out: Buffer) => void) => void> = {
  gzip: gunzip,
  br: brotliDecompress,
  deflate: inflate,
};
/**
 * Compressed bodies up to this size are undone in one synchronous call (a
 * 20-event page is 6-8 KB compressed and about 0.1 ms to undo: a stream of
 * Transforms cost several times that); larger ones on libuv's thread pool, so
 * a big body never holds the event loop.
 */
const SYNC_UNDO_BYTES = 64 * 1024;

/** One coding undone, whole, stopping at `max` decoded bytes (a zip bomb is cut at the cap, never inflated whole). */
async function undo(coding: Coding, bytes: Buffer, max: number, encoding: string): Promise<Buffer> {
  const options = { maxOutputLength: Math.max(1, max) };
  const failed = (err: unknown): Error =>
    (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      ? new ResponseTooLargeError(max)
      : new UndecodableBodyError(encoding, err);
  if (bytes.length <= SYNC_UNDO_BYTES) {
    try {
      return UNDO_SYNC[coding](bytes, options);
    } catch (err) {
      throw failed(err);
    }
  }
  return new Promise((resolve, reject) =>
    UNDO_ASYNC[coding](bytes, options, (err, out) => (err ? reject(failed(err)) : resolve(out))),
  );
}

/**
 * Reads a body and undoes its Content-Encoding, refusing it once it passes
 * `max` bytes: up front from Content-Length, while streaming on the bytes
 * received, and on the decoded bytes while they are decoded (so a small
 * compressed body that would inflate past the cap, a zip bomb, is cut at the
 * cap). Destroying the body makes undici abort the request and drop the
 * socket, so the rest is never downloaded.
 */
async function readBody(
  body: Dispatcher.ResponseData['body'],
  encoding: string | undefined,
  contentLength: string | undefined,
  max: number,
): Promise<Buffer> {
  // undici's body emits 'error' when destroyed early; without a listener that
  // would be an uncaught exception. Real errors still reach the iterator below.
  body.on('error', noop);
  const refuse = (err: Error): never => {
    body.destroy(err);
    throw err;
  };
  if (contentLength !== undefined && Number(contentLength) > max) refuse(new ResponseTooLargeError(max));
  let codings: Coding[];
  try {
    codings = codingsOf(encoding);
  } catch (err) {
    return refuse(err as Error);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    total += buf.length;
    if (total > max) refuse(new ResponseTooLargeError(max));
    chunks.push(buf);
  }
  let bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  for (const coding of codings) bytes = await undo(coding, bytes, max, encoding!);
  return bytes;
}

function noop(): void {}

/**
 * UTF-8 text of a body, without the leading BOM some PHP sites emit before
 * JSON. Buffer#toString rather than TextDecoder: the same text, at a fraction
 * of the CPU on bodies of tens of kilobytes.
 */
function utf8(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const NON_ASCII_RUN = /[\x80-\xff]+/g;

/**
 * The text JSON.parse gets, decoded fast: a body in ASCII (WordPress escapes
 * everything else as `\uXXXX`) is read byte for byte; in a body with raw UTF-8
 * (the sandbox, sites that send unescaped Unicode) each run of non-ASCII bytes
 * becomes its characters' `\uXXXX` escapes. UTF-8 bytes of 0x80 and above can
 * only stand inside a JSON string, where an escape means the same character, so
 * JSON.parse returns the same value; the text stays one byte per character,
 * which V8 decodes and parses much faster than the two-byte string one
 * non-ASCII character makes of the whole body (a 77 KB list page with 51 such
 * bytes: ~0.45 ms against ~0.95 ms). A run decodes alone exactly as
 * in the whole (ASCII bytes end every UTF-8 sequence), invalid bytes included
 * (U+FFFD). Never used as text: a body that is not JSON is read by `utf8`.
 */
function jsonText(bytes: Buffer): string {
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const text = bytes.toString('latin1', start);
  if (isAscii(bytes)) return text;
  const parts: string[] = [];
  let last = 0;
  NON_ASCII_RUN.lastIndex = 0;
  for (let m = NON_ASCII_RUN.exec(text); m; m = NON_ASCII_RUN.exec(text)) {
    parts.push(
      text.slice(last, m.index),
      escapeAll(bytes.toString('utf8', start + m.index, start + m.index + m[0].length)),
    );
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

function escapeAll(chars: string): string {
  let out = '';
  for (let i = 0; i < chars.length; i++) out += `\\u${chars.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * JSON when declared (`application/json`, `+json`) or when the body looks
 * like JSON; text otherwise; null when empty. `strict`: a declared-JSON body
 * that does not parse is an error (truncated/corrupted); for error answers it
 * is returned as text so the status still decides the code.
 */
function decodeBody(raw: RawResponse, strict: boolean): unknown {
  if (raw.status === 204 || raw.bytes.length === 0) return null;
  const type = raw.headers['content-type'] ?? '';
  const declared = /[/+]json\b/i.test(type);
  const t = jsonText(raw.bytes).trimStart();
  const looks = t.startsWith('{') || t.startsWith('[');
  if (!declared && !looks) return utf8(raw.bytes);
  if (t === '') return null;
  try {
    return JSON.parse(t);
  } catch {
    // Read again as plain UTF-8: the site's own text for the error, or for a body that is not JSON.
    const text = utf8(raw.bytes);
    try {
      return JSON.parse(text.trimStart());
    } catch (err) {
      if (strict && declared) throw new MalformedResponseError(raw.status, err);
      return text;
    }
  }
}
