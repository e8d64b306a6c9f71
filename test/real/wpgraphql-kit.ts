/**
 * What test/real/wpgraphql.test.ts needs to hold sitegraph's WPGraphQL-compatible graph (`/wpgraphql`) to
 * WPGraphQL 1.8.6 + WPGraphQL Yoast SEO 4.18.1 + ql-events 0.1.0 on the same real site (`/graphql`): a client
 * for each, the normalising of an answer (what is opaque or random on either side), and the field-by-field
 * comparison that yields one line per difference.
 */
import { basic, type RealSite } from './kit.ts';

/** A GraphQL answer as sent, status included. */
export interface Answer {
  status: number;
  data?: any;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
}

export interface AskOptions {
  /** Send the administrator's application password (both servers take it as a Basic Authorization). */
  auth?: boolean;
  operationName?: string;
}

/** One server: a query in, its answer out. */
export type Ask = (query: string, variables?: Record<string, unknown>, opts?: AskOptions) => Promise<Answer>;

/** A client of a GraphQL endpoint on loopback. */
export function client(url: string, site: RealSite): Ask {
  const auth = basic(site.admin.login, site.admin.appPassword);
  return async (query, variables, opts = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (opts.auth) headers.authorization = auth;
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables, operationName: opts.operationName }),
    });
    const text = await res.text();
    let body: { data?: unknown; errors?: Answer['errors'] };
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${url}: ${res.status}, not JSON: ${text.slice(0, 300)}`);
    }
    return { status: res.status, data: body.data, errors: body.errors };
  };
}

const CURSOR_KEYS = new Set(['cursor', 'startCursor', 'endCursor']);

/** `&#111;rg&#049;` -> `org1`: WordPress's antispambot() encodes an address's characters at random on every read. */
function decodeEntities(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)));
}

const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An answer made comparable: cursors (opaque on both sides: each is compared by the page it leads to, not by its
 * text) become `<cursor>`; an `email` loses antispambot's random entity encoding; each error is put in the data at
 * its path as `<error>` (the servers word their messages differently, but where an error stands is compared), and
 * an error with no path (the request refused whole) becomes `$refused`. `extensions` (WPGraphQL's debug notes) go.
 */
export function normalise(a: Answer): unknown {
  const walk = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    if (key && CURSOR_KEYS.has(key) && typeof v === 'string') return '<cursor>';
    if (key === 'email' && typeof v === 'string') return decodeEntities(v);
    return v;
  };
  const out: Record<string, unknown> = { data: walk(a.data ?? null) };
  for (const e of a.errors ?? []) {
    if (!e.path?.length) {
      out.$refused = true;
      continue;
    }
    let parent: any = out;
    let k: string | number = 'data';
    for (const p of e.path) {
      if (!isObj(parent[k]) && !Array.isArray(parent[k])) parent[k] = typeof p === 'number' ? [] : {};
      parent = parent[k];
      k = p;
    }
    parent[k] = '<error>';
  }
  if (a.status !== 200) out.$status = a.status;
  return out;
}

/** A value in a difference line: JSON, long strings cut. */
export function show(v: unknown): string {
  if (v === undefined) return '(none)';
  const s = JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
}

/** Items of a list known by `databaseId` (or, failing that, `id`), when every item has one. */
function keyed(list: unknown[]): (string | number)[] | null {
  const keys = list.map((x) => (isObj(x) ? (x.databaseId ?? x.id) : undefined));
  return keys.every((k) => typeof k === 'number' || typeof k === 'string') ? (keys as (string | number)[]) : null;
}

/**
 * The differences between WPGraphQL's value (`wp`) and sitegraph's (`sg`), one line each:
 * `<path>: wpgraphql <value>, sitegraph <value>`. Lists of nodes (every item with a databaseId) are compared by
 * their IDs in order first (one line when they differ), then item by item by ID; other lists index by index.
 */
export function compare(wp: unknown, sg: unknown, path = ''): string[] {
  const at = path || '.';
  if (Array.isArray(wp) && Array.isArray(sg)) {
    const kw = keyed(wp);
    const ks = keyed(sg);
    if (kw && ks && (wp.length || sg.length)) {
      const out: string[] = [];
      if (JSON.stringify(kw) !== JSON.stringify(ks))
        out.push(`${path}[*]: wpgraphql ${show(kw)}, sitegraph ${show(ks)}`);
      const bySg = new Map(ks.map((k, i) => [k, sg[i]]));
      wp.forEach((item, i) => {
        const other = bySg.get(kw[i]!);
        if (other !== undefined) out.push(...compare(item, other, `${path}[${show(kw[i]).replace(/"/g, '')}]`));
      });
      return out;
    }
    const out: string[] = [];
    if (wp.length !== sg.length) out.push(`${path}.length: wpgraphql ${wp.length}, sitegraph ${sg.length}`);
    for (let i = 0; i < Math.min(wp.length, sg.length); i++) out.push(...compare(wp[i], sg[i], `${path}[${i}]`));
    return out;
  }
  if (isObj(wp) && isObj(sg)) {
    const keys = [...new Set([...Object.keys(wp), ...Object.keys(sg)])].sort();
    return keys.flatMap((k) => compare(wp[k], sg[k], path ? `${path}.${k}` : k));
  }
  return JSON.stringify(wp) === JSON.stringify(sg) ? [] : [`${at}: wpgraphql ${show(wp)}, sitegraph ${show(sg)}`];
}

/**
 * Every page of a connection, followed by each server's own cursors: forwards (`first` + `after: endCursor`) or
 * backwards (`last` + `before: startCursor`), until `hasNextPage` / `hasPreviousPage` says there is no more or
 * `max` pages were read. The query takes `$n: Int` and `$after`/`$before: String` and selects the connection at
 * `field` with `pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`. The pages are answered as they
 * were read (normalised), so two servers' walks compare page by page.
 */
export async function walk(
  ask: Ask,
  query: string,
  field: string,
  dir: 'forwards' | 'backwards',
  opts: { vars?: Record<string, unknown>; max?: number; auth?: boolean } = {},
): Promise<unknown[]> {
  const pages: unknown[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < (opts.max ?? 20); i++) {
    const vars = { ...opts.vars, ...(dir === 'forwards' ? { after: cursor } : { before: cursor }) };
    const a = await ask(query, vars, { auth: opts.auth });
    pages.push(normalise(a));
    const conn = a.data?.[field];
    const info = conn?.pageInfo;
    if (!info) break;
    const more = dir === 'forwards' ? info.hasNextPage : info.hasPreviousPage;
    cursor = dir === 'forwards' ? info.endCursor : info.startCursor;
    if (!more || !cursor) break;
  }
  return pages;
}
