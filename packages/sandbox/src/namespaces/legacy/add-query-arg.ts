/**
 * WordPress's `add_query_arg` / `remove_query_arg`, which TEC uses to build the
 * archive URLs (`Archive_Base::get_current_rest_url`, `get_next_rest_url`).
 * Their quirks are visible in real answers (sample legacy-events-archive.json):
 * values added to a URL are written as given (`start_date=2026-11-21 00:00:00`),
 * while values already in the URL are re-encoded with PHP's `urlencode`
 * (`start_date=2026-11-21+00%3A00%3A00`) whenever another argument is added.
 */

/** A query value as PHP would hold it; `false` removes the key, `null` is skipped. */
export type QueryValue = string | number | boolean | null | readonly (string | number)[];

/** PHP `urlencode`: everything but `A-Za-z0-9-_.` is %-encoded, spaces become `+`. */
export function phpUrlencode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** `wp_parse_str`: `a=1&b[0]=x&b[1]=y`, decoded, in order; `b[...]` keys become lists. */
function parse(query: string): Map<string, QueryValue> {
  const out = new Map<string, QueryValue>();
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = decode(eq < 0 ? '' : pair.slice(eq + 1));
    const m = /^([^[]+)\[[^\]]*\]$/.exec(key);
    if (m) {
      const list = out.get(m[1]!);
      out.set(m[1]!, [...(Array.isArray(list) ? list : []), value]);
    } else {
      out.set(key, value);
    }
  }
  return out;
}

/** `build_query` (no encoding): lists as `k%5B0%5D=v`, true as `1`, false as `0`, null skipped. */
function build(qs: Map<string, QueryValue>): string {
  const parts: string[] = [];
  for (const [k, v] of qs) {
    if (v === null) continue;
    if (Array.isArray(v)) v.forEach((x, i) => parts.push(`${k}%5B${i}%5D=${x}`));
    else parts.push(`${k}=${v === true ? '1' : v === false ? '0' : String(v)}`);
  }
  return parts.join('&');
}

/** `add_query_arg($args, $url)` */
export function addQueryArg(url: string, args: Iterable<[string, QueryValue]>): string {
  const q = url.indexOf('?');
  const base = q < 0 ? `${url}?` : url.slice(0, q + 1);
  const qs = parse(q < 0 ? '' : url.slice(q + 1));
  // urlencode_deep: what was already in the URL is encoded again.
  for (const [k, v] of qs) {
    qs.set(k, Array.isArray(v) ? v.map((x) => phpUrlencode(String(x))) : phpUrlencode(String(v)));
  }
  for (const [k, v] of args) qs.set(k, v);
  for (const [k, v] of qs) if (v === false) qs.delete(k);
  const query = build(qs).replace(/=(&|$)/g, '$1');
  return `${base}${query}`.replace(/\?$/, '');
}

/** `remove_query_arg($key, $url)`: an add_query_arg that sets the key to false, so it re-encodes too. */
export function removeQueryArg(url: string, key: string): string {
  return addQueryArg(url, [[key, false]]);
}
