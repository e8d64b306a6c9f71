/**
 * Upstream failures -> typed `GatewayError`s with a stable `extensions.code`.
 *
 * This is the one place that knows every error body the site can send
 * (docs/upstream-answers.md "Errors"; the codes a caller sees are in docs/graph.md) and every way the transport can
 * fail (undici and Node socket errors). Everything else in the gateway sees
 * only `GatewayError`.
 */
import {
  GatewayError,
  isGatewayError,
  type GatewayCode,
  type GatewayErrorInit,
  type UpstreamErrorSource,
} from '../errors.ts';
import { isJson, statusIn, strict, type Json } from '../mapping/json.ts';
import { cleanText } from '../mapping/text.ts';
import { redact } from '../redact.ts';

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
/** A body whose Content-Encoding could not be undone (corrupt, truncated, or a coding the client does not know). */
export class UndecodableBodyError extends Error {
  readonly code = 'UPSTREAM_BAD_ENCODING';
  constructor(
    readonly encoding: string,
    cause?: unknown,
  ) {
    super(`response body could not be decoded (Content-Encoding: ${encoding})`, { cause });
    this.name = 'UndecodableBodyError';
  }
}
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

/** `[]` and `{}` are PHP's empty array: nothing to report. */
function nonEmpty(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v) && v.length === 0) return undefined;
  if (isJson(v) && Object.keys(v).length === 0) return undefined;
  return v;
}

/**
 * WP `data.params`: `{name: reason}` for invalid params, `[name, ...]` for missing ones (docs/upstream-answers.md
 * "WP_Error").
 */
function toParams(v: unknown): Record<string, string> | string[] | undefined {
  if (Array.isArray(v)) return v.length ? v.map((x) => cleanText(String(x))) : undefined;
  if (isJson(v)) {
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) out[k] = cleanText(typeof x === 'string' ? x : JSON.stringify(x));
    return Object.keys(out).length ? out : undefined;
  }
  return undefined;
}

/**
 * GenerateBlocks-style bodies always come with HTTP 401, whatever went wrong
 * (docs/upstream-answers.md "GenerateBlocks-style bodies"); permission failures use core `rest_forbidden`
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
  if (!isJson(body)) return null; // `[]` (Yoast introductions 400), scalars, null

  // Yoast wraps many answers in `{json: ...}` (docs/upstream-answers.md "Yoast").
  if (isJson(body.json) && !('code' in body)) body = body.json as Json;
  const b = body as Json;

  // Serialised WP_Error used as response data (the automation connectors; docs/upstream-answers.md "Serialised
  // WP_Error"):
  // {"errors":{"<code>":["<msg>"]},"error_data":{"<code>":{"status":400}}}. The
  // HTTP status is always 400, so the status inside decides.
  if (isJson(b.errors) && !('code' in b)) {
    const codes = Object.keys(b.errors);
    const first = codes[0];
    if (first !== undefined) {
      const msgs = b.errors[first];
      const msg = Array.isArray(msgs) ? strict(msgs[0]) : strict(msgs);
      const data = isJson(b.error_data) ? b.error_data[first] : undefined;
      const rest = codes.slice(1);
      return {
        code: first,
        message: msg,
        innerStatus: isJson(data) ? statusIn(data.status) : undefined,
        preferInner: true,
        details: rest.length ? { otherCodes: rest } : undefined,
      };
    }
  }

  // WP_Error: {code, message, data: {status, params, details} | null} (docs/upstream-answers.md "WP_Error"),
  // including the legacy namespace's page-not-found with no `data` and the
  // aggregator's WP_Error whose code is a sentence and message empty.
  if (typeof b.code === 'string' && (typeof b.message === 'string' || b.message === undefined || b.message === null)) {
    const data = isJson(b.data) ? b.data : undefined;
    return {
      code: b.code,
      message: strict(b.message),
      params: toParams(data?.params),
      details: nonEmpty(data?.details),
      innerStatus: statusIn(data?.status),
    };
  }

  // GenerateBlocks: {error:true, success:false, error_code, response} (docs/upstream-answers.md "GenerateBlocks-style
  // bodies").
  if (b.error === true && typeof b.error_code === 'string') {
    return {
      code: b.error_code,
      message: strict(b.response) ?? strict(b.message),
      override: GENERATEBLOCKS_CODES[b.error_code],
    };
  }

  // Yoast Premium redirects: {title, message, success:false, fields?, type?} (docs/upstream-answers.md "Yoast").
  // A validation failure may come with HTTP 200; its `type` says error or warning.
  if (b.success === false && typeof b.title === 'string') {
    const type = strict(b.type);
    const details: Json = { title: b.title };
    if (b.fields !== undefined) details.fields = b.fields;
    if (type) details.type = type;
    return {
      code: type ? `redirect_${type}` : 'redirect_failed',
      message: strict(b.message) ?? b.title,
      details,
      innerStatus: type ? 400 : undefined,
    };
  }

  // Plain bodies: `{error:true, message}` (Yoast redirect settings), `{error:"…"}`
  // (tec/v1 traits, Yoast scores), `{success:false, status, error, failures}`
  // (Yoast configuration), `{type:"failure", response}` (Yoast file_size),
  // `{message, success:false, status}`.
  const message = strict(b.error) ?? strict(b.message) ?? (b.type === 'failure' ? strict(b.response) : null);
  const failures = nonEmpty(b.failures);
  if (message !== null || b.success === false || b.error === true) {
    return {
      code: null,
      message,
      details: failures !== undefined ? { failures } : undefined,
      innerStatus: statusIn(b.status),
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
  // its sentence in `code` (docs/upstream-answers.md "WP_Error").
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

/**
 * Collects codes and names from an error, its `cause` chain and AggregateError members (Node's happy-eyeballs connect).
 */
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
  ['UPSTREAM_BAD_ENCODING', 'the response body could not be decompressed (its Content-Encoding is corrupt or unknown)'],
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
    if (f.codes.has(code))
      return new GatewayError('UPSTREAM_TIMEOUT', `Upstream timed out (${route}): ${why}.`, {
        upstream: upstream(code),
        originalError: err,
      });
  }
  // AbortSignal.timeout() aborts with a DOMException named TimeoutError.
  if (f.names.has('TimeoutError')) {
    return new GatewayError('UPSTREAM_TIMEOUT', `Upstream timed out (${route}): the request deadline passed.`, {
      upstream: upstream('TimeoutError'),
      originalError: err,
    });
  }
  for (const [code, why] of BAD_RESPONSES) {
    if (f.codes.has(code))
      return new GatewayError('UPSTREAM_BAD_RESPONSE', `Bad upstream response (${route}): ${why}.`, {
        upstream: upstream(code),
        originalError: err,
      });
  }
  if (f.names.has('SyntaxError')) {
    return new GatewayError(
      'UPSTREAM_BAD_RESPONSE',
      `Bad upstream response (${route}): the response is not valid JSON (truncated or corrupted).`,
      { upstream: upstream('UPSTREAM_MALFORMED_JSON'), originalError: err },
    );
  }
  const parser = [...f.codes].find((c) => c.startsWith('HPE_'));
  if (parser || f.names.has('HTTPParserError')) {
    return new GatewayError(
      'UPSTREAM_BAD_RESPONSE',
      `Bad upstream response (${route}): the response is not valid HTTP.`,
      { upstream: upstream(parser ?? 'HTTPParserError'), originalError: err },
    );
  }
  for (const [code, why] of UNAVAILABLE) {
    if (f.codes.has(code))
      return new GatewayError('UPSTREAM_UNAVAILABLE', `Upstream unavailable (${route}): ${why}.`, {
        upstream: upstream(code),
        originalError: err,
      });
  }
  if (f.names.has('AbortError') || f.codes.has('UND_ERR_ABORTED') || f.codes.has('ABORT_ERR')) {
    return new GatewayError('UPSTREAM_UNAVAILABLE', `Upstream request aborted (${route}).`, {
      upstream: upstream('ABORTED'),
      originalError: err,
    });
  }
  const known = [...f.codes].find((c) => /^[A-Z][A-Z0-9_]+$/.test(c)) ?? null;
  return new GatewayError(
    'UPSTREAM_UNAVAILABLE',
    `Upstream request failed (${route})${known ? ` with ${known}` : ''}.`,
    { upstream: upstream(known), originalError: err },
  );
}

/** The object a write names by ID, for `missingObject`. */
export interface WriteTarget {
  /** The GraphQL argument that names it (`id`, `eventId`, `postId`). */
  argument: string;
  /** The route's ID parameter (`id`, `post_id`). */
  param: string;
  /** What it is, for the message (`post`, `event`). */
  label: string;
  id: number;
}

/**
 * One not-found rule for writes (docs/writes.md "Not found"): the site's
 * refusal of a write to an object that does not exist, however it says it (a
 * 404, or a 400 `rest_invalid_param` naming only the ID parameter, where the
 * route validates the ID as an argument), is NOT_FOUND naming the argument,
 * with the site's answer kept. Any other error is returned as it is.
 */
export function missingObject(err: unknown, t: WriteTarget): unknown {
  if (!isGatewayError(err) || !err.extensions.upstream) return err;
  const up = err.extensions.upstream;
  const params = err.extensions.params;
  const named = Array.isArray(params) ? params : Object.keys(params ?? {});
  const idRefused =
    err.code === 'BAD_USER_INPUT' && up.code === 'rest_invalid_param' && named.length === 1 && named[0] === t.param;
  const absent = err.code === 'NOT_FOUND' && up.code !== 'rest_no_route';
  if (!idRefused && !absent) return err;
  return GatewayError.notFound(`No ${t.label} with ID ${t.id} exists on the site.`, {
    arguments: [t.argument],
    upstream: up,
  });
}
