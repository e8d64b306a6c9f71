/**
 * The names of everything a gateway puts in a shared store (Redis): the
 * configured prefix (`REDIS_KEY_PREFIX`, `sitegraph:` by default), then the
 * site's short hash, then the feature and its own key:
 *
 *   sitegraph:5f0c2a9be14d:c:calendar:<hash>       an upstream cache entry
 *   sitegraph:5f0c2a9be14d:gen:calendar            a family's invalidation generation
 *   sitegraph:5f0c2a9be14d:kv:apq:<hash>           an APQ registration
 *   sitegraph:5f0c2a9be14d:ratelimit:ip:1.2.3.4    a rate-limit counter
 *   sitegraph:5f0c2a9be14d:write-lock:event:42     a write lock
 *
 * So gateways in front of different sites can share one Redis and never read
 * each other's answers, registrations, counts or locks (a gateway once
 * answered another site's event), while every instance in front of the same
 * site (the same REST root URL) shares all of them. No key holds a
 * credential or a query string: callers' parts are hashes.
 */
import { createHash } from 'node:crypto';

/**
 * The site's short name in keys: 12 hex digits (48 bits) of the SHA-256 of its
 * REST root URL, normalised (scheme and host lower-cased, default port and
 * trailing slashes dropped), so `http://Site.test/wp-json` and
 * `http://site.test:80/wp-json/` are one site. 48 bits make a collision
 * between the sites of one Redis vanishingly unlikely (~1 in 10^10 for a
 * thousand sites) while keys stay short.
 */
export function siteId(restRoot: string): string {
  let normal = restRoot;
  try {
    const u = new URL(restRoot);
    u.hash = '';
    u.pathname = u.pathname.replace(/\/+$/, '') || '/';
    normal = u.href;
  } catch {
    /* not a URL: hashed as written */
  }
  return createHash('sha256').update(normal).digest('hex').slice(0, 12);
}

/** Builds site-scoped keys: `<prefix><site>:<part>:<part>...`. */
export interface Keyspace {
  /** `REDIS_KEY_PREFIX`. */
  readonly prefix: string;
  /** The site's short hash (siteId). */
  readonly site: string;
  /** Everything of this site starts with this (`sitegraph:5f0c2a9be14d:`). */
  readonly root: string;
  /** A key of this site: `key('write-lock', 'event', '42')` is `sitegraph:<site>:write-lock:event:42`. */
  key(...parts: readonly string[]): string;
}

export function keyspace(prefix: string, restRoot: string): Keyspace {
  const site = siteId(restRoot);
  const root = `${prefix}${site}:`;
  return { prefix, site, root, key: (...parts) => root + parts.join(':') };
}

/** One site-scoped key without a Keyspace at hand. */
export function siteScopedKey(prefix: string, restRoot: string, ...parts: readonly string[]): string {
  return keyspace(prefix, restRoot).key(...parts);
}
