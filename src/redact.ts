/**
 * Removing credentials from text the gateway sends or logs (error messages,
 * params, details, log lines): by pattern (`redact`) and by known value
 * (`redactValues`). Used by upstream error mapping, the redaction plugin and
 * the logger, so it belongs to none of them.
 */

/** Query parameters and JSON keys whose values are secrets (automation tokens, governance API keys, ...). */
const SECRET_KEYS =
  'access_token|tec_access_token|api_key|apikey|consumer_secret|consumer_key|client_secret|password|pass|pwd|token|_wpnonce|secret|key';

// Compiled once (every log line goes through `redact`); `replace` with a global regex starts at 0 each call.
const SECRET_QUERY = new RegExp(`([?&;](?:${SECRET_KEYS})=)[^&#\\s"'<>]*`, 'gi');
const SECRET_JSON = new RegExp(`("(?:${SECRET_KEYS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
const URL_USERINFO = /\b(https?:\/\/)[^\s/@:]+(?::[^\s/@]*)?@/gi;
const AUTH_VALUE = /\b(Basic|Bearer)\s+[A-Za-z0-9+/=._~-]{6,}/g;

/**
 * Removes credentials from text meant for callers or logs: secret query values
 * (`?access_token=…`, `&api_key=…`), `"access_token":"…"` in JSON,
 * `user:pass@` in URLs and `Basic …`/`Bearer …` header values.
 */
export function redact(text: string): string {
  return text
    .replace(SECRET_QUERY, '$1[REDACTED]')
    .replace(SECRET_JSON, '$1"[REDACTED]"')
    .replace(URL_USERINFO, '$1[REDACTED]@')
    .replace(AUTH_VALUE, '$1 [REDACTED]');
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
