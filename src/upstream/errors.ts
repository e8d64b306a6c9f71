/**
 * Upstream failures -> typed `GatewayError`s with a stable `extensions.code`.
 *
 * This is the one place that knows every error body the site can send
 * (DESIGN.md "Errors"; reference/site-upstream.md §1, §8; calendar-upstream.md
 * §0, §2, §3, §4; other-upstream.md §5, §7) and every way the transport can
 * fail (undici and Node socket errors). Everything else in the gateway sees
 * only `GatewayError`.
 */
import { GraphQLError } from 'graphql';

/** The stable codes a caller can branch on (`extensions.code`). */
export type GatewayCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'GONE'
  | 'CONFLICT'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_UNAVAILABLE'
  | 'UPSTREAM_ERROR'
  | 'UPSTREAM_BAD_RESPONSE'
  | 'NAMESPACE_UNAVAILABLE'
  /** The operation sent its budget of upstream requests (UPSTREAM_BUDGET; upstream/session.ts). */
  | 'REQUEST_BUDGET_EXCEEDED'
  | 'NOT_IMPLEMENTED'
  /** An operation type the gateway does not serve (subscriptions); HTTP 400. */
  | 'OPERATION_NOT_SUPPORTED'
  /** A write was sent but its answer never arrived (or could not be read): it may or may not have happened. */
  | 'OUTCOME_UNKNOWN';

/** Where an error came from upstream: the site's own code (if it sent one), the HTTP status, our route label. */
export interface UpstreamErrorSource {
  /** The site's error code (`rest_invalid_param`, ...), a transport code (`ECONNRESET`, `UND_ERR_HEADERS_TIMEOUT`), or null when none was sent. */
  code: string | null;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /** The route label of the request, e.g. `GET /calendar-core/v1/events/<id>`. */
  route: string;
}

export interface GatewayErrorExtensions {
  [key: string]: unknown;
  code: GatewayCode;
  upstream?: UpstreamErrorSource;
  /** The offending parameters: `data.params` of a WP_Error (`{name: reason}` or a list of missing names). */
  params?: Record<string, string> | string[];
  /** Extra machine-readable detail (`data.details` of a WP_Error, Yoast `fields`, ...). */
  details?: unknown;
  /** Seconds the site asked us to wait (`Retry-After`). */
  retryAfter?: number;
  /** The offending GraphQL arguments, for errors the gateway raises itself (`['where.startDate']`). */
  arguments?: string[];
}

/** Known extension fields, plus any extra ones (e.g. `max` for a too-large `first`), copied into `extensions`. */
export interface GatewayErrorInit {
  [extension: string]: unknown;
  upstream?: UpstreamErrorSource;
  params?: Record<string, string> | string[];
  details?: unknown;
  retryAfter?: number;
  arguments?: string[];
  originalError?: unknown;
}

/**
 * A GraphQL error with a stable code. The only error class resolvers need to
 * know; anything that is not one is masked as an internal error by the server.
 */
export class GatewayError extends GraphQLError {
  readonly code: GatewayCode;
  declare readonly extensions: GatewayErrorExtensions;

  constructor(code: GatewayCode, message: string, init: GatewayErrorInit = {}) {
    const { originalError: cause, ...fields } = init;
    const extensions: GatewayErrorExtensions = { code };
    // Undefined fields are left out, so `extensions` serialises to exactly what is known.
    for (const [k, v] of Object.entries(fields)) if (v !== undefined && k !== 'code') extensions[k] = v;
    const originalError = cause instanceof Error ? cause : undefined;
    super(message, { extensions, ...(originalError ? { originalError } : {}) });
    this.name = 'GatewayError';
    this.code = code;
  }

  static badInput(message: string, init?: GatewayErrorInit): GatewayError {
    return new GatewayError('BAD_USER_INPUT', message, init);
  }
  static unauthenticated(message = 'Authentication is required.', init?: GatewayErrorInit): GatewayError {
    return new GatewayError('UNAUTHENTICATED', message, init);
  }
  static forbidden(message = 'Not allowed.', init?: GatewayErrorInit): GatewayError {
    return new GatewayError('FORBIDDEN', message, init);
  }
  static notFound(message: string, init?: GatewayErrorInit): GatewayError {
    return new GatewayError('NOT_FOUND', message, init);
  }
  static notImplemented(message: string, init?: GatewayErrorInit): GatewayError {
    return new GatewayError('NOT_IMPLEMENTED', message, init);
  }
  /** A REST namespace absent from the site's root index (DESIGN.md "The graph"). */
  static namespaceUnavailable(namespace: string, init?: GatewayErrorInit): GatewayError {
    return new GatewayError('NAMESPACE_UNAVAILABLE', `The site does not provide the REST namespace "${namespace}".`, init);
  }
}

export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError;
}

// ---------------------------------------------------------------------------
// Errors the client raises itself while reading a response. They are classes
// with stable codes (like undici's) so `fromTransportError` can classify them.

/** The response body exceeded `maxResponseBytes`; the connection was aborted. */
export class ResponseTooLargeError extends Error {
  readonly code = 'UPSTREAM_RESPONSE_TOO_LARGE';
  constructor(readonly limit: number) {
    super(`response body exceeds ${limit} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

/** A response declared (or looked like) JSON but did not parse: truncated or corrupted. */
export class MalformedResponseError extends Error {
  readonly code = 'UPSTREAM_MALFORMED_JSON';
  constructor(
    readonly status: number,
    cause?: unknown,
  ) {
    super(`response with status ${status} is not valid JSON`, { cause });
    this.name = 'MalformedResponseError';
  }
}

// ---------------------------------------------------------------------------
// HTTP status -> code

/**
 * The gateway code for an upstream HTTP status. 429 is "unavailable" (retry
 * later), not the caller's fault; 413/414/431 are the caller's input being too
 * big (a body, a URL, or the request line and headers a long query string makes).
 */
export function codeForStatus(status: number): GatewayCode {
  switch (status) {
    case 400:
    case 413:
    case 414:
    case 422:
    case 431:
      return 'BAD_USER_INPUT';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 410:
      return 'GONE';
    case 429:
    case 502:
    case 503:
      return 'UPSTREAM_UNAVAILABLE';
    case 501:
      return 'NOT_IMPLEMENTED';
    case 504:
      return 'UPSTREAM_TIMEOUT';
    default:
      return 'UPSTREAM_ERROR';
  }
}

/**
 * `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110
 * §10.2.3). Undefined when absent or unparseable; never negative.
 */
export function parseRetryAfter(value: string | undefined | null, now: number = Date.now()): number | undefined {
  if (value === undefined || value === null) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

// ---------------------------------------------------------------------------
// Body shapes -> {code, message, params, details}

interface Extracted {
  /** The site's code, or null when the shape has none. */
  code: string | null;
  message: string | null;
  params?: Record<string, string> | string[];
  details?: unknown;
  /** A status stated inside the body; used when the HTTP status does not tell the truth (see below). */
  innerStatus?: number;
  /** True when the HTTP status is an artefact and `innerStatus` should decide the gateway code. */
  preferInner?: boolean;
  /** A gateway code decided by the shape itself (quirks whose HTTP status misleads). */
  override?: GatewayCode;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d{3}$/.test(v) ? Number(v) : undefined);

/** `[]` and `{}` are PHP's empty array: nothing to report. */
function nonEmpty(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v) && v.length === 0) return undefined;
  if (isObj(v) && Object.keys(v).length === 0) return undefined;
  return v;
}

/** WP `data.params`: `{name: reason}` for invalid params, `[name, ...]` for missing ones (site-upstream.md §1). */
function toParams(v: unknown): Record<string, string> | string[] | undefined {
  if (Array.isArray(v)) return v.length ? v.map((x) => cleanText(String(x))) : undefined;
  if (isObj(v)) {
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) out[k] = cleanText(typeof x === 'string' ? x : JSON.stringify(x));
    return Object.keys(out).length ? out : undefined;
  }
  return undefined;
}

/**
 * GenerateBlocks-style bodies always come with HTTP 401, whatever went wrong
 * (other-upstream.md §5); permission failures use core `rest_forbidden`
 * instead, so the 401 here says nothing about credentials.
 */
const GENERATEBLOCKS_CODES: Record<string, GatewayCode> = {
  no_url: 'BAD_USER_INPUT',
  no_attachment: 'NOT_FOUND',
};

function extract(raw: unknown): Extracted | null {
  let body = raw;
  if (typeof body === 'string') {
    const t = body.trim();
    if (!t.startsWith('{') && !t.startsWith('[')) return null;
    try {
      body = JSON.parse(t);
    } catch {
      return null;
    }
  }
  if (!isObj(body)) return null; // `[]` (Yoast introductions 400), scalars, null

  // Yoast wraps many answers in `{json: ...}` (other-upstream.md §7).
  if (isObj(body.json) && !('code' in body)) body = body.json as Obj;
  const b = body as Obj;

  // Serialised WP_Error used as response data (Zapier, calendar-upstream.md §4):
  // {"errors":{"<code>":["<msg>"]},"error_data":{"<code>":{"status":400}}}. The
  // HTTP status is always 400, so the status inside decides.
  if (isObj(b.errors) && !('code' in b)) {
    const codes = Object.keys(b.errors);
    const first = codes[0];
    if (first !== undefined) {
      const msgs = b.errors[first];
      const msg = Array.isArray(msgs) ? str(msgs[0]) : str(msgs);
      const data = isObj(b.error_data) ? b.error_data[first] : undefined;
      const rest = codes.slice(1);
      return {
        code: first,
        message: msg,
        innerStatus: isObj(data) ? num(data.status) : undefined,
        preferInner: true,
        details: rest.length ? { otherCodes: rest } : undefined,
      };
    }
  }

  // WP_Error: {code, message, data: {status, params, details} | null} (site-upstream.md §1),
  // including tec/v1's page-not-found with no `data` (calendar-upstream.md §2) and the
  // aggregator's WP_Error whose code is a sentence and message empty (§3).
  if (typeof b.code === 'string' && (typeof b.message === 'string' || b.message === undefined || b.message === null)) {
    const data = isObj(b.data) ? b.data : undefined;
    return {
      code: b.code,
      message: str(b.message),
      params: toParams(data?.params),
      details: nonEmpty(data?.details),
      innerStatus: num(data?.status),
    };
  }

  // GenerateBlocks: {error:true, success:false, error_code, response} (other-upstream.md §5).
  if (b.error === true && typeof b.error_code === 'string') {
    return {
      code: b.error_code,
      message: str(b.response) ?? str(b.message),
      override: GENERATEBLOCKS_CODES[b.error_code],
    };
  }

  // Yoast Premium redirects: {title, message, success:false, fields?, type?} (site-upstream.md §8).
  // A validation failure may come with HTTP 200; its `type` says error or warning.
  if (b.success === false && typeof b.title === 'string') {
    const type = str(b.type);
    const details: Obj = { title: b.title };
    if (b.fields !== undefined) details.fields = b.fields;
    if (type) details.type = type;
    return {
      code: type ? `redirect_${type}` : 'redirect_failed',
      message: str(b.message) ?? b.title,
      details,
      innerStatus: type ? 400 : undefined,
    };
  }

  // Plain bodies: `{error:true, message}` (Yoast redirect settings), `{error:"…"}`
  // (tec/v1 traits, Yoast scores), `{success:false, status, error, failures}`
  // (Yoast configuration), `{type:"failure", response}` (Yoast file_size),
  // `{message, success:false, status}`.
  const message =
    str(b.error) ?? str(b.message) ?? (b.type === 'failure' ? str(b.response) : null);
  const failures = nonEmpty(b.failures);
  if (message !== null || b.success === false || b.error === true) {
    return {
      code: null,
      message,
      details: failures !== undefined ? { failures } : undefined,
      innerStatus: num(b.status),
    };
  }
  return null;
}

/**
 * Maps a non-OK upstream answer to a `GatewayError`.
 *
 * The HTTP status decides the code (`codeForStatus`), except: a 2xx passed in
 * (a route that signals failure inside a 200 body) uses the status stated in
 * the body; a serialised WP_Error (always sent as 400) uses its inner status;
 * GenerateBlocks' constant 401 uses its `error_code`.
 */
export function fromUpstreamResponse(
  status: number,
  body: unknown,
  route: string,
  headers?: Record<string, string>,
): GatewayError {
  const x = extract(body);
  let effective = status;
  if (x?.innerStatus !== undefined && x.innerStatus >= 400 && (x.preferInner || (status >= 200 && status < 300))) {
    effective = x.innerStatus;
  }
  const code = x?.override ?? codeForStatus(effective);

  // Message as given, HTML stripped; a WP_Error with an empty message carries
  // its sentence in `code` (calendar-upstream.md §3).
  let message = x?.message ? cleanText(x.message) : '';
  if (!message && x?.code && /\s/.test(x.code)) message = cleanText(x.code);
  if (!message) message = `HTTP ${status} from upstream`;

  const retryAfterMs = parseRetryAfter(header(headers, 'retry-after'));
  const init: GatewayErrorInit = {
    upstream: { code: x?.code ?? null, status, route },
  };
  if (x?.params) init.params = x.params;
  if (x?.details !== undefined) init.details = x.details;
  else if (!x) init.details = { body: bodyKind(body) };
  if (retryAfterMs !== undefined) init.retryAfter = Math.ceil(retryAfterMs / 1000);
  return new GatewayError(code, redact(message), init);
}

/**
 * A 2xx answer whose body is not the shape the route promises (a list that is
 * not an array, an envelope without its array). The site answered, so this is
 * UPSTREAM_BAD_RESPONSE with the real status, not an invented 502.
 */
export function badResponseShape(route: string, status: number, body: unknown, why: string): GatewayError {
  return new GatewayError('UPSTREAM_BAD_RESPONSE', `Bad upstream response (${route}): ${why}.`, {
    upstream: { code: null, status, route },
    details: { body: bodyKind(body) },
  });
}

function header(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** What kind of body came back when it was not one we know: for logs, never the body itself. */
function bodyKind(body: unknown): 'empty' | 'html' | 'text' | 'json' {
  if (body === null || body === undefined) return 'empty';
  if (typeof body !== 'string') return 'json';
  const t = body.trim();
  if (t === '') return 'empty';
  if (/^<(!doctype|html|head|body|\?xml|br|b>)/i.test(t) || /<\/html>\s*$/i.test(t)) return 'html';
  return 'text';
}

// ---------------------------------------------------------------------------
// Transport failures

interface ErrorFacts {
  codes: Set<string>;
  names: Set<string>;
}

/** Collects codes and names from an error, its `cause` chain and AggregateError members (Node's happy-eyeballs connect). */
function facts(err: unknown): ErrorFacts {
  const out: ErrorFacts = { codes: new Set(), names: new Set() };
  const seen = new Set<unknown>();
  const walk = (e: unknown, depth: number) => {
    if (!e || typeof e !== 'object' || seen.has(e) || depth > 8) return;
    seen.add(e);
    const o = e as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown; reason?: unknown };
    if (typeof o.code === 'string') out.codes.add(o.code);
    if (typeof o.name === 'string') out.names.add(o.name);
    if (e instanceof SyntaxError) out.names.add('SyntaxError');
    walk(o.cause, depth + 1);
    if (Array.isArray(o.errors)) for (const x of o.errors) walk(x, depth + 1);
  };
  walk(err, 0);
  return out;
}

const TIMEOUTS: Array<[string, string]> = [
  ['UND_ERR_CONNECT_TIMEOUT', 'no connection within the connect timeout'],
  ['UND_ERR_HEADERS_TIMEOUT', 'no response headers within the headers timeout'],
  ['UND_ERR_BODY_TIMEOUT', 'the response body stalled beyond the body timeout'],
  ['ETIMEDOUT', 'the connection timed out'],
  ['ESOCKETTIMEDOUT', 'the socket timed out'],
];

const BAD_RESPONSES: Array<[string, string]> = [
  ['UPSTREAM_RESPONSE_TOO_LARGE', 'the response body is larger than the configured limit'],
  ['UND_ERR_RES_EXCEEDED_MAX_SIZE', 'the response body is larger than the configured limit'],
  ['UPSTREAM_MALFORMED_JSON', 'the response is not valid JSON (truncated or corrupted)'],
  ['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'the response body does not match its Content-Length'],
  ['UND_ERR_HEADERS_OVERFLOW', 'the response headers are too large'],
];

const UNAVAILABLE: Array<[string, string]> = [
  ['ECONNREFUSED', 'connection refused'],
  ['ECONNRESET', 'connection reset'],
  ['EPIPE', 'connection closed while sending'],
  ['ENOTFOUND', 'host not found'],
  ['EAI_AGAIN', 'host name lookup failed'],
  ['EHOSTUNREACH', 'host unreachable'],
  ['ENETUNREACH', 'network unreachable'],
  ['UND_ERR_SOCKET', 'the connection closed unexpectedly'],
  ['UND_ERR_CLOSED', 'the upstream client is closed'],
  ['UND_ERR_DESTROYED', 'the upstream client is destroyed'],
];

/**
 * Maps a failure to get a usable answer (no response, or an unreadable one)
 * to a `GatewayError`. Messages are composed here from known facts, never
 * copied from the underlying error, so they cannot carry credentials; the
 * route is a label, not a URL.
 */
export function fromTransportError(err: unknown, route: string): GatewayError {
  if (isGatewayError(err)) return err;
  const f = facts(err);
  const upstream = (code: string | null): UpstreamErrorSource => ({
    code,
    status: err instanceof MalformedResponseError ? err.status : null,
    route,
  });

  for (const [code, why] of TIMEOUTS) {
    if (f.codes.has(code)) return new GatewayError('UPSTREAM_TIMEOUT', `Upstream timed out (${route}): ${why}.`, { upstream: upstream(code), originalError: err });
  }
  // AbortSignal.timeout() aborts with a DOMException named TimeoutError.
  if (f.names.has('TimeoutError')) {
    return new GatewayError('UPSTREAM_TIMEOUT', `Upstream timed out (${route}): the request deadline passed.`, { upstream: upstream('TimeoutError'), originalError: err });
  }
  for (const [code, why] of BAD_RESPONSES) {
    if (f.codes.has(code)) return new GatewayError('UPSTREAM_BAD_RESPONSE', `Bad upstream response (${route}): ${why}.`, { upstream: upstream(code), originalError: err });
  }
  if (f.names.has('SyntaxError')) {
    return new GatewayError('UPSTREAM_BAD_RESPONSE', `Bad upstream response (${route}): the response is not valid JSON (truncated or corrupted).`, { upstream: upstream('UPSTREAM_MALFORMED_JSON'), originalError: err });
  }
  const parser = [...f.codes].find((c) => c.startsWith('HPE_'));
  if (parser || f.names.has('HTTPParserError')) {
    return new GatewayError('UPSTREAM_BAD_RESPONSE', `Bad upstream response (${route}): the response is not valid HTTP.`, { upstream: upstream(parser ?? 'HTTPParserError'), originalError: err });
  }
  for (const [code, why] of UNAVAILABLE) {
    if (f.codes.has(code)) return new GatewayError('UPSTREAM_UNAVAILABLE', `Upstream unavailable (${route}): ${why}.`, { upstream: upstream(code), originalError: err });
  }
  if (f.names.has('AbortError') || f.codes.has('UND_ERR_ABORTED') || f.codes.has('ABORT_ERR')) {
    return new GatewayError('UPSTREAM_UNAVAILABLE', `Upstream request aborted (${route}).`, { upstream: upstream('ABORTED'), originalError: err });
  }
  const known = [...f.codes].find((c) => /^[A-Z][A-Z0-9_]+$/.test(c)) ?? null;
  return new GatewayError('UPSTREAM_UNAVAILABLE', `Upstream request failed (${route})${known ? ` with ${known}` : ''}.`, { upstream: upstream(known), originalError: err });
}

// ---------------------------------------------------------------------------
// Text hygiene

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ',
  rsquo: '\u2019', lsquo: '\u2018', rdquo: '\u201d', ldquo: '\u201c', hellip: '\u2026', ndash: '\u2013', mdash: '\u2014', rsaquo: '\u203a', laquo: '\u00ab', raquo: '\u00bb',
};

/** Strips HTML tags and decodes common entities: WordPress messages may carry `<strong>`, `&hellip;`. */
export function cleanText(s: string): string {
  return s
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** Query parameters and JSON keys whose values are secrets (automation tokens, governance API keys, ...). */
const SECRET_KEYS = 'access_token|tec_access_token|api_key|apikey|consumer_secret|consumer_key|client_secret|password|pass|pwd|token|_wpnonce|secret|key';

/**
 * Removes credentials from text meant for callers or logs: secret query values
 * (`?access_token=…`, `&api_key=…`), `"access_token":"…"` in JSON,
 * `user:pass@` in URLs and `Basic …`/`Bearer …` header values.
 */
export function redact(text: string): string {
  return text
    .replace(new RegExp(`([?&;](?:${SECRET_KEYS})=)[^&#\\s"'<>]*`, 'gi'), '$1[REDACTED]')
    .replace(new RegExp(`("(?:${SECRET_KEYS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), '$1"[REDACTED]"')
    .replace(/\b(https?:\/\/)[^\s/@:]+(?::[^\s/@]*)?@/gi, '$1[REDACTED]@')
    .replace(/\b(Basic|Bearer)\s+[A-Za-z0-9+/=._~-]{6,}/g, '$1 [REDACTED]');
}

/** Placeholder for a secret removed from text. */
export const REDACTED = '[REDACTED]';

/**
 * The forms a secret can take in an echo: as given, URL-encoded (a query
 * string the site repeats), JSON-escaped. Values shorter than 4 characters are
 * not secrets anyone can be protected for, and would shred every message.
 */
export function secretForms(secrets: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length < 4) continue;
    out.add(s);
    out.add(encodeURIComponent(s));
    out.add(encodeURIComponent(s).replace(/%20/g, '+'));
    out.add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first, so a secret that contains another is removed whole.
  return [...out].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
}

/**
 * Redaction by value: every occurrence of a known secret (the forms from
 * `secretForms`) is replaced, whatever the text around it, then the pattern
 * rules of `redact` apply. Used on everything the gateway sends or logs about
 * an error, because a site may echo a key anywhere (message, params, details).
 */
export function redactValues(text: string, forms: readonly string[]): string {
  let out = text;
  for (const f of forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
  return redact(out);
}
