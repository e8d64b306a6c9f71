/**
 * WordPress-style REST errors: `{code, message, data: {status, ...}}`.
 *
 * Handlers throw `RestError`; the server turns it into the body WordPress sends
 * (`rest_convert_error_to_response`, reference/site-upstream.md §1). Some real
 * routes answer with bodies of their own instead (tec/v1 traits send
 * `{"error": msg}`, Zapier sends a serialised WP_Error): those are `RawError`s,
 * which carry the exact body to send.
 *
 * Imports nothing, so everything can answer with it: rest/ (validation), the
 * namespaces, site.ts, and auth.ts (its 401s are raised before routing).
 */
export class RestError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: Record<string, unknown> | null;

  constructor(code: string, message: string, status: number, extra: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.data = { status, ...extra };
  }

  toBody(): Record<string, unknown> {
    return { code: this.code, message: this.message, data: this.data };
  }
}

/** An error answered with an exact body and status, not the WP_Error shape. */
export class RawError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      typeof body === 'object' && body && 'error' in body
        ? String((body as { error: unknown }).error)
        : `HTTP ${status}`,
    );
  }
}

/** 401 when nobody is signed in, 403 when somebody is (`rest_authorization_required_code`). */
export function authStatus(signedIn: boolean): number {
  return signedIn ? 403 : 401;
}

export function forbidden(
  signedIn: boolean,
  message = 'Sorry, you are not allowed to do that.',
  code = 'rest_forbidden',
): RestError {
  return new RestError(code, message, authStatus(signedIn));
}

export function noRoute(): RestError {
  return new RestError('rest_no_route', 'No route was found matching the URL and request method.', 404);
}

/** WordPress joins lists as "a, b, and c" / "a and b" / "a" (wp_sprintf %l). */
export function listJoin(items: readonly unknown[]): string {
  const s = items.map(String);
  if (s.length <= 1) return s.join('');
  if (s.length === 2) return `${s[0]} and ${s[1]}`;
  return `${s.slice(0, -1).join(', ')}, and ${s[s.length - 1]}`;
}
