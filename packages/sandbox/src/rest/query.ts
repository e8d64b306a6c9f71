/**
 * PHP-style query strings, as WordPress reads them: `a[]=1&a[]=2`, `a[x][]=1`,
 * `a=1,2` (left as a string; array arguments split it later, like wp_parse_list).
 */
export function parseQuery(search: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const s = search.startsWith('?') ? search.slice(1) : search;
  if (!s) return out;
  for (const pair of s.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawVal = eq < 0 ? '' : pair.slice(eq + 1);
    const key = decode(rawKey);
    const value = decode(rawVal);
    const m = /^([^[]+)((?:\[[^\]]*\])*)$/.exec(key);
    if (!m) {
      out[key] = value;
      continue;
    }
    const base = m[1]!;
    const path = [...(m[2] ?? '').matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]!);
    assign(out, [base, ...path], value);
  }
  return out;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function assign(target: Record<string, unknown>, keys: string[], value: unknown): void {
  let cur: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const last = i === keys.length - 1;
    if (Array.isArray(cur)) {
      if (last) {
        if (k === '') cur.push(value);
        else cur[Number(k)] = value;
        return;
      }
      const nextKey = keys[i + 1]!;
      const idx = k === '' ? cur.length : Number(k);
      if (typeof cur[idx] !== 'object' || cur[idx] === null)
        cur[idx] = nextKey === '' || /^\d+$/.test(nextKey) ? [] : {};
      cur = cur[idx] as Record<string, unknown> | unknown[];
    } else {
      if (last) {
        cur[k] = value;
        return;
      }
      const nextKey = keys[i + 1]!;
      if (typeof cur[k] !== 'object' || cur[k] === null) cur[k] = nextKey === '' || /^\d+$/.test(nextKey) ? [] : {};
      cur = cur[k] as Record<string, unknown> | unknown[];
    }
  }
}

/** `http_build_query`-style encoding (spaces as `+`), arrays as `a[0]=..`. */
export function buildQuery(params: Record<string, unknown>): string {
  const parts: string[] = [];
  const walk = (prefix: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) v.forEach((x, i) => walk(`${prefix}[${i}]`, x));
    else if (typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(`${prefix}[${k}]`, x);
    else parts.push(`${enc(prefix)}=${enc(typeof v === 'boolean' ? (v ? '1' : '0') : String(v))}`);
  };
  for (const [k, v] of Object.entries(params)) walk(k, v);
  return parts.join('&');
}

function enc(s: string): string {
  return encodeURIComponent(s).replace(/%20/g, '+');
}
