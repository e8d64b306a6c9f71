/**
 * The caller's `Authorization` header, checked before anything runs.
 *
 * The gateway passes it to the site unchanged. A WordPress site reads
 * application passwords over HTTP Basic; a header it cannot read is not
 * refused there but ignored, so the caller is served as anonymous without a
 * word: no drafts, no private fields, and writes refused as if the password
 * were wrong. sitegraph says so instead, with `UNAUTHENTICATED` (HTTP 401):
 *
 *   - no header, or an empty one (what a blank GraphiQL headers editor sends): anonymous;
 *   - `Basic <base64 of login:password>`: passed on (the scheme word in any case, sent as `Basic`);
 *   - a Basic value that is not base64 of `login:password`, or a value with no scheme word: refused;
 *   - another scheme (`Bearer …`): refused unless AUTH_SCHEMES names it, for a site whose
 *     plugins read such tokens.
 *
 * Messages never hold the credential.
 */
import { GatewayError } from './errors.ts';

/** The schemes WordPress itself reads: application passwords over HTTP Basic. */
export const DEFAULT_AUTH_SCHEMES: readonly string[] = ['Basic'];

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function refuse(message: string, scheme: string | null): GatewayError {
  return new GatewayError('UNAUTHENTICATED', message, { scheme });
}

/**
 * The Authorization value to pass to the site (undefined: anonymous), or a GatewayError
 * (UNAUTHENTICATED) saying what is wrong with it. `accepted`: the schemes taken, Basic always.
 */
export function authorizationOf(
  value: string | readonly string[] | undefined,
  accepted: readonly string[] = DEFAULT_AUTH_SCHEMES,
): string | undefined | GatewayError {
  if (Array.isArray(value)) {
    if (value.length > 1) return refuse('The request has several Authorization headers; send one.', null);
    value = value[0];
  }
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return undefined;
  const m = /^(\S+)\s+(\S+)$/.exec(text);
  if (!m) {
    return refuse(
      'The Authorization header is not "<scheme> <credentials>": send "Basic " followed by the base64 of login:application-password.',
      null,
    );
  }
  const scheme = m[1]!;
  const credentials = m[2]!;
  if (scheme.toLowerCase() === 'basic') {
    const decoded =
      BASE64.test(credentials) && credentials.length % 4 === 0
        ? Buffer.from(credentials, 'base64').toString('utf8')
        : '';
    const colon = decoded.indexOf(':');
    if (colon < 1) {
      return refuse(
        'The Authorization header says Basic, but what follows is not the base64 of login:application-password (a login, a colon, the password).',
        'Basic',
      );
    }
    // The scheme word is case-insensitive (RFC 9110); sent as the site's own code writes it.
    return `Basic ${credentials}`;
  }
  if (accepted.some((s) => s.toLowerCase() === scheme.toLowerCase())) return text;
  return refuse(
    `The site reads application passwords over HTTP Basic; an Authorization header of scheme "${scheme}" would reach it as no credential at all, ` +
      `and the answer would be an anonymous one. Send "Basic " followed by the base64 of login:application-password, ` +
      `or set AUTH_SCHEMES=Basic,${scheme} if a plugin of the site reads ${scheme} credentials.`,
    scheme,
  );
}

/** The body and headers of a 401 answer for a refused Authorization header. */
export function unauthenticatedAnswer(error: GatewayError): {
  status: 401;
  headers: Record<string, string>;
  body: { errors: { message: string; extensions: Record<string, unknown> }[] };
} {
  return {
    status: 401,
    headers: { 'www-authenticate': 'Basic realm="sitegraph", charset="UTF-8"' },
    body: { errors: [{ message: error.message, extensions: { ...error.extensions } }] },
  };
}
