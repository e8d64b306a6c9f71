/**
 * HS256 JSON Web Tokens as the automation connectors mint and check them
 * (TC `Integration_Connections::decode_jwt`, which uses firebase/php-jwt 6):
 * `{"typ":"JWT","alg":"HS256"}` headers, no `exp`, and the library's own
 * exception messages, which the connectors pass through as `invalid_token`
 * (calendar-upstream.md §4). node:crypto only.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A token the library refuses; `message` is php-jwt's exception message. */
export class JwtError extends Error {
  override name = 'JwtError';
}

/** The algorithms php-jwt knows: any other `alg` is "Algorithm not supported". */
const SUPPORTED = ['ES384', 'ES256', 'ES256K', 'HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'EdDSA'];

function b64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

function sign(input: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(input).digest();
}

/** `JWT::encode($payload, $secret, 'HS256')`. */
export function encodeJwt(payload: Record<string, unknown>, secret: string): string {
  const head = `${b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }))}.${b64url(JSON.stringify(payload))}`;
  return `${head}.${b64url(sign(head, secret))}`;
}

/** php-jwt's `jsonDecode`: JSON errors are DomainExceptions with PHP's messages. */
function jsonDecode(segment: string): unknown {
  const raw = Buffer.from(segment, 'base64url').toString('utf8');
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new JwtError('Syntax error, malformed JSON');
  }
}

/** PHP's `date(DateTime::ISO8601)` in UTC, as BeforeValidException messages show it. */
function iso8601(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}+0000`;
}

/**
 * `JWT::decode($token, new Key($secret, 'HS256'))` at `now` (unix seconds):
 * returns the claims or throws a JwtError in the library's order of checks.
 */
export function decodeJwt(token: string, secret: string, now: number): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtError('Wrong number of segments');
  const [headB64, bodyB64, sigB64] = parts as [string, string, string];
  const header = jsonDecode(headB64);
  if (header === null || typeof header !== 'object') throw new JwtError('Invalid header encoding');
  const payload = jsonDecode(bodyB64);
  if (payload === null) throw new JwtError('Invalid claims encoding');
  if (typeof payload !== 'object' || Array.isArray(payload)) throw new JwtError('Payload must be a JSON object');
  const alg = (header as Record<string, unknown>).alg;
  if (!alg) throw new JwtError('Empty algorithm');
  if (typeof alg !== 'string' || !SUPPORTED.includes(alg)) throw new JwtError('Algorithm not supported');
  if (alg !== 'HS256') throw new JwtError('Incorrect key for this algorithm');
  const given = Buffer.from(sigB64, 'base64url');
  const expected = sign(`${headB64}.${bodyB64}`, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new JwtError('Signature verification failed');
  const claims = payload as Record<string, unknown>;
  // No leeway (JWT::$leeway = 0).
  if (typeof claims.nbf === 'number' && Math.floor(claims.nbf) > now) {
    throw new JwtError(`Cannot handle token with nbf prior to ${iso8601(claims.nbf)}`);
  }
  if (claims.nbf === undefined && typeof claims.iat === 'number' && Math.floor(claims.iat) > now) {
    throw new JwtError(`Cannot handle token with iat prior to ${iso8601(claims.iat)}`);
  }
  if (typeof claims.exp === 'number' && now >= claims.exp) throw new JwtError('Expired token');
  return claims;
}
