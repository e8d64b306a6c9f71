/**
 * What the upstream cache may keep, for how long, and what a write makes
 * stale. Pure functions: the cache (upstream-cache.ts) and the session apply them.
 *
 * Invalidation works by namespace family: every entry is filed under the
 * family of its REST path, and a write bumps the generation of every family
 * it can have changed, which makes all their entries unreachable at once
 * (in every gateway instance sharing the store). Families are coarse on
 * purpose: a write changes the object, the lists of its type and related
 * objects (an event's venue, organizer, series, terms, and both calendar
 * interfaces, which share one store), and the site derives more from it
 * (SEO indexables, facets, the audit log, governance reports). Guessing
 * exact keys would miss some; a family costs a few extra misses.
 */
import { DERIVED_FAMILIES, FAMILIES, READING_POSTS, SECRET_PARAMS, namespaceOfPath } from '../namespaces/catalog.ts';
import type { UpstreamRequest } from '../upstream/client.ts';

/**
 * Anything else: the root index, `site/v1`, namespaces the gateway does not
 * model. The family of a REST path is its namespace's (each namespace's
 * descriptor, src/namespaces/<ns>/namespace.ts, says it).
 */
const OTHER = 'other';

/**
 * Families whose answers the site computes from content of every kind (the descriptors say which): any write can change
 * them.
 */
const DERIVED: readonly string[] = [...new Set([...DERIVED_FAMILIES, OTHER])];

export const ALL_FAMILIES: readonly string[] = [...new Set([...FAMILIES, OTHER])];

export function familyOf(path: string): string {
  return namespaceOfPath(path)?.family ?? OTHER;
}

/**
 * POSTs that only read (a search body too large for a query string; their
 * namespaces' descriptors list them); they invalidate nothing. Everything else
 * that is not GET/HEAD is a write.
 */
const READS = new Set(READING_POSTS);

/** True for the requests that can change the site (and so must invalidate). */
export function isWrite(req: Pick<UpstreamRequest, 'method' | 'path'>): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  return !(req.method === 'POST' && READS.has(req.path));
}

/**
 * The families a write can have changed: its own, those of a batch's items,
 * and the derived ones. A write that can land anywhere (duplicating: its
 * descriptor says so) or an item path we cannot read: all of them.
 */
export function familiesWrittenBy(req: Pick<UpstreamRequest, 'path' | 'body'>): string[] {
  const own = new Set<string>(DERIVED);
  const add = (path: unknown): boolean => {
    if (typeof path !== 'string' || !path.startsWith('/')) return false;
    if (namespaceOfPath(path)?.writesAnyFamily) return false;
    own.add(familyOf(path));
    return true;
  };
  if (req.path === '/batch/v1') {
    const items = (req.body as { requests?: unknown } | undefined)?.requests;
    if (!Array.isArray(items)) return [...ALL_FAMILIES];
    for (const item of items) if (!add((item as { path?: unknown } | null)?.path)) return [...ALL_FAMILIES];
  } else if (!add(req.path)) {
    return [...ALL_FAMILIES];
  }
  return [...own];
}

/**
 * Query parameters that carry a credential: those the namespaces' descriptors
 * declare (automation tokens and consumer secrets, governance API keys, the
 * embed's nonce), and the names any plugin gives one. A GET carrying one is
 * never cached: what a secret opened stays out of the store, even under a key
 * only its holder can reach.
 */
const GENERIC_SECRET_PARAMS = [
  'tec_access_token',
  'apikey',
  'consumer_key',
  'client_secret',
  'password',
  'token',
  'secret',
];
const SECRET_PARAM_NAMES = new Set([...SECRET_PARAMS, ...GENERIC_SECRET_PARAMS].map((n) => n.toLowerCase()));

export function carriesSecret(req: Pick<UpstreamRequest, 'query' | 'headers'>): boolean {
  for (const [k, v] of Object.entries(req.query ?? {}))
    if (v !== undefined && v !== null && SECRET_PARAM_NAMES.has(k.toLowerCase())) return true;
  for (const k of Object.keys(req.headers ?? {})) if (/^(authorization|x-wp-nonce|cookie)$/i.test(k)) return true;
  return false;
}

/**
 * How long the site lets an answer be reused, in ms, capped by `maxMs` (the
 * configured TTL: the site may shorten it, never lengthen it, since the TTL is
 * the operator's bound on staleness). 0 = do not store.
 *
 * - `no-store`, `no-cache`, `max-age=0`, an `Expires` in the past: 0;
 * - `private`: 0 for the anonymous (shared) identity; per-credential entries may keep it;
 * - `s-maxage` (shared caches) for the anonymous identity, else `max-age`, less `Age`;
 * - else `Expires` − `Date`; else `maxMs`.
 */
export function freshnessMs(
  headers: Readonly<Record<string, string>>,
  shared: boolean,
  maxMs: number,
  now = Date.now(),
): number {
  if (maxMs <= 0) return 0;
  const cc = parseCacheControl(headers['cache-control']);
  if (cc.has('no-store') || cc.has('no-cache')) return 0;
  if (shared && cc.has('private')) return 0;
  const age = Number(headers.age) > 0 ? Number(headers.age) : 0;
  const seconds = (shared ? cc.get('s-maxage') : undefined) ?? cc.get('max-age');
  if (seconds !== undefined) {
    const n = Number(seconds);
    if (!Number.isFinite(n)) return 0;
    return clamp((n - age) * 1000, maxMs);
  }
  if (headers.expires !== undefined) {
    const expires = Date.parse(headers.expires);
    // An unreadable Expires means "already expired" (RFC 9111 §5.3).
    if (Number.isNaN(expires)) return 0;
    const date = headers.date !== undefined ? Date.parse(headers.date) : NaN;
    return clamp(expires - (Number.isNaN(date) ? now : date), maxMs);
  }
  return maxMs;
}

/**
 * How long past its freshness an answer may still be served while it is
 * refreshed in the background (stale-while-revalidate, RFC 5861), in ms,
 * capped by `maxMs` (CACHE_STALE_SECONDS). 0 = never stale.
 *
 * - `no-store`, `no-cache`, `must-revalidate`: 0 (the site wants every use checked);
 * - for the anonymous (shared) identity, `proxy-revalidate` and `s-maxage` too
 *   (RFC 9111: `s-maxage` implies `proxy-revalidate` for shared caches);
 * - `stale-while-revalidate=N` from the site: min(N, max); else `maxMs`.
 */
export function staleGraceMs(headers: Readonly<Record<string, string>>, shared: boolean, maxMs: number): number {
  if (maxMs <= 0) return 0;
  const cc = parseCacheControl(headers['cache-control']);
  if (cc.has('no-store') || cc.has('no-cache') || cc.has('must-revalidate')) return 0;
  if (shared && (cc.has('proxy-revalidate') || cc.has('s-maxage'))) return 0;
  const swr = cc.get('stale-while-revalidate');
  if (swr !== undefined) {
    const n = Number(swr);
    return Number.isFinite(n) ? clamp(n * 1000, maxMs) : 0;
  }
  return maxMs;
}

function clamp(ms: number, maxMs: number): number {
  return Math.max(0, Math.min(maxMs, Math.floor(ms)));
}

/** Directives, lower-cased, with their value (`''` when they have none). */
function parseCacheControl(value: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!value) return out;
  for (const part of value.split(',')) {
    const [k, v] = part.split('=', 2) as [string, string | undefined];
    const name = k.trim().toLowerCase();
    if (name) out.set(name, (v ?? '').trim().replace(/^"|"$/g, ''));
  }
  return out;
}
