/**
 * CORS for `/graphql` (docs/production.md "CORS"): pages on the origins of `CORS_ORIGINS`
 * may call the gateway from a browser; every other origin gets no
 * Access-Control-* header, so the browser refuses to hand it the answer (and,
 * for the preflighted JSON POST, never sends the request).
 *
 * Preflights (`OPTIONS`) are answered here, before Apollo: Apollo's CSRF
 * prevention would refuse them (400), and it stays on for everything else,
 * so a cross-site form or `text/plain` POST is still refused whatever the
 * allowlist says.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface CorsOptions {
  /** Exact origins (`https://app.example.org`) allowed; empty: CORS off. */
  origins: readonly string[];
  /** Send `Access-Control-Allow-Credentials: true` to allowed origins. */
  credentials: boolean;
}

/**
 * What a page may call `/graphql` with: PUT and DELETE are GraphQL over SSE's single-connection mode
 * (docs/subscriptions.md).
 */
const ALLOW_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
/**
 * Request headers a page may send: JSON bodies, the caller's credential and
 * the credential headers the graph reads (redaction.ts SECRET_HEADERS),
 * Apollo's CSRF/operation headers, request ids and W3C trace context. A fixed
 * list rather than echoing what is asked, so what pages can send is reviewed here.
 */
const ALLOW_HEADERS = [
  'content-type',
  'authorization',
  'x-governance-api-key',
  'x-automation-token',
  'x-graphql-event-stream-token',
  'apollo-require-preflight',
  'x-apollo-operation-name',
  'x-request-id',
  'traceparent',
  'tracestate',
].join(', ');
/**
 * Response headers a page may read besides the CORS-safelisted ones: rate limits' `Retry-After`, the request id for
 * support.
 */
const EXPOSE_HEADERS = 'retry-after, x-request-id';
/**
 * Seconds a browser may reuse a preflight answer: 10 minutes. One preflight per
 * page and endpoint instead of one per operation, and a changed allowlist
 * reaches browsers soon (Chromium caps this at 2 hours anyway).
 */
const MAX_AGE = '600';

/**
 * Returns a handler for `/graphql` requests: it sets the CORS headers an
 * allowed origin gets and answers `OPTIONS` itself; true when it answered.
 */
export function createCors(options: CorsOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const allowed = new Set(options.origins);
  return (req, res) => {
    const origin = req.headers.origin;
    if (allowed.size > 0) {
      // The answer depends on Origin: shared caches must not give one origin's answer to another.
      res.setHeader('vary', 'Origin');
      if (origin !== undefined && allowed.has(origin)) {
        res.setHeader('access-control-allow-origin', origin);
        if (options.credentials) res.setHeader('access-control-allow-credentials', 'true');
        res.setHeader('access-control-expose-headers', EXPOSE_HEADERS);
        if (req.method === 'OPTIONS') {
          res.setHeader('access-control-allow-methods', ALLOW_METHODS);
          res.setHeader('access-control-allow-headers', ALLOW_HEADERS);
          res.setHeader('access-control-max-age', MAX_AGE);
        }
      }
    }
    if (req.method !== 'OPTIONS') return false;
    // Answered for every origin (no Access-Control-* for the others): a preflight is not a GraphQL request.
    res.writeHead(204, { allow: ALLOW_METHODS });
    res.end();
    return true;
  };
}
