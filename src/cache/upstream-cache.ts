/**
 * The upstream GET cache (docs/caching.md). It sits in the operation's
 * session (upstream/session.ts), below the request-scoped DataLoaders: they
 * still batch within an operation, and what they send is looked up here first.
 *
 * An entry's key is a hash of the caller's identity (anonymous, or a hash of
 * the credential the site sees: the caller's, or the service credential), the
 * method, path, query and request headers. So one credential's answer is never
 * served to another, nor to an anonymous caller. Only 2xx answers that the
 * client read completely (and within the size cap) are stored, for
 * `freshnessMs` (policy.ts). Writes bump their families' generations
 * (policy.ts); an entry carries the generation seen *before* its request was
 * sent, so an answer that raced a write is never served after it.
 *
 * A store that fails (Redis away) never fails a request: the lookup counts an
 * error and the request goes upstream.
 *
 * With CACHE_STALE_SECONDS, an entry past its freshness but within its grace
 * (policy.ts `staleGraceMs`: the site's `stale-while-revalidate` shortens it,
 * `must-revalidate` and its kin forbid it) is answered at once while one
 * background request per key and instance refreshes it (RFC 5861); the
 * session makes that request (upstream/session.ts `#revalidate`).
 *
 * It also says which in-flight requests may be shared (`shareToken`, used by
 * the client's single flight, upstream/flight.ts): identical GETs of the same
 * moment share one request only while no write through this instance came in
 * between (a local epoch per family, bumped with the generations) and, when
 * the store was read, under the same generation, so a read that starts after
 * a write never joins a request sent before it.
 */
import { createHash } from 'node:crypto';
import { encodeQuery, type UpstreamRequest, type UpstreamResponse } from '../upstream/client.ts';
import { ANONYMOUS } from '../upstream/identity.ts';
import {
  ALL_FAMILIES,
  carriesSecret,
  familiesWrittenBy,
  familyOf,
  freshnessMs,
  isWrite,
  staleGraceMs,
} from './policy.ts';
import type { CacheStore } from './store.ts';
import type { CacheSlot, Lookup, SessionCache } from '../upstream/session.ts';

export interface UpstreamCacheOptions {
  /** The configured TTL (`CACHE_TTL_SECONDS`) in ms; 0 turns the cache off. */
  ttlMs: number;
  /** Stale-while-revalidate grace (`CACHE_STALE_SECONDS`) in ms; 0 (the default): none. */
  staleMs?: number;
  /** Larger entries are not stored (`UPSTREAM_MAX_RESPONSE_BYTES`). */
  maxEntryBytes: number;
  /** Metrics hook, once per lookup of a cacheable request. */
  onLookup?: (result: 'hit' | 'stale' | 'miss' | 'error') => void;
  /** After every write, before the operation answers: the response cache's tags (cache/tags.ts) are bumped here. */
  onWrite?: (req: Pick<UpstreamRequest, 'path' | 'body'>) => Promise<void>;
  /** A write could not be recorded in the store (Redis away). */
  onInvalidationError?: (err: unknown) => void;
}

interface Entry {
  /** The family's generation when the request was sent. */
  g: string;
  /** Expiry, epoch ms. */
  e: number;
  /** End of its stale-while-revalidate grace, epoch ms (absent: none). */
  w?: number;
  s: number;
  h: Record<string, string>;
  b: unknown;
}

export class UpstreamCache implements SessionCache {
  readonly #store: CacheStore;
  readonly #o: UpstreamCacheOptions;
  /** Writes through this instance, per family: in-flight reads sent before one are not joined after it. */
  readonly #epochs = new Map<string, number>();
  /** Keys being refreshed in the background (stale-while-revalidate): one refresh per key and instance. */
  readonly #revalidating = new Set<string>();

  constructor(store: CacheStore, options: UpstreamCacheOptions) {
    this.#store = store;
    this.#o = options;
  }

  get enabled(): boolean {
    return this.#o.ttlMs > 0;
  }

  get ttlMs(): number {
    return this.#o.ttlMs;
  }

  get store(): CacheStore {
    return this.#store;
  }

  /** Whether this request may be answered from (and stored in) the cache at all. */
  cacheable(req: UpstreamRequest): boolean {
    return this.enabled && req.method === 'GET' && req.idempotent !== false && !carriesSecret(req);
  }

  async lookup(identity: string, req: UpstreamRequest): Promise<Lookup> {
    if (!this.cacheable(req)) return { kind: 'skip' };
    const family = familyOf(req.path);
    const key = keyOf(family, identity, req);
    let read;
    try {
      read = await this.#store.read(family, key);
    } catch {
      this.#o.onLookup?.('error');
      return { kind: 'skip' };
    }
    const slot = { key, generation: read.generation, shared: identity === ANONYMOUS };
    if (read.value !== undefined) {
      // From memory the entry itself (frozen when saved: parsed once, by the client); from Redis its text.
      const entry = typeof read.value === 'string' ? parseEntry(read.value) : (read.value as Entry);
      const left = entry ? entry.e - Date.now() : 0;
      if (entry && entry.g === read.generation && left > 0) {
        this.#o.onLookup?.('hit');
        return { kind: 'hit', response: { status: entry.s, headers: entry.h, body: entry.b }, ttlMs: left };
      }
      if (entry && entry.g === read.generation && entry.w !== undefined && entry.w > Date.now()) {
        this.#o.onLookup?.('stale');
        const revalidate = !this.#revalidating.has(key);
        if (revalidate) this.#revalidating.add(key);
        return { kind: 'stale', response: { status: entry.s, headers: entry.h, body: entry.b }, slot, revalidate };
      }
    }
    this.#o.onLookup?.('miss');
    return { kind: 'miss', slot };
  }

  /**
   * What makes identical in-flight GETs shareable (upstream/flight.ts): the
   * family's local write epoch and, after a lookup, the generation it read.
   * Undefined: never shared (a write, or a GET that is not idempotent).
   */
  shareToken(req: UpstreamRequest, slot: CacheSlot | undefined): string | undefined {
    if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
    if (req.idempotent === false || isWrite(req)) return undefined;
    const family = familyOf(req.path);
    return `${family}:${this.#epochs.get(family) ?? 0}:${slot?.generation ?? ''}`;
  }

  /**
   * Stores a complete 2xx answer for as long as the site and the TTL allow;
   * returns that time in ms (0: not stored). Never throws. `store` false: only
   * says how long it could be kept (another sharer of the same request stores it).
   */
  async save(slot: CacheSlot, res: UpstreamResponse<unknown>, store = true): Promise<number> {
    if (res.status < 200 || res.status >= 300) return 0;
    const ttlMs = freshnessMs(res.headers, slot.shared, this.#o.ttlMs);
    if (ttlMs <= 0) return 0;
    if (!store) return ttlMs;
    const { 'set-cookie': _cookie, ...headers } = res.headers;
    const graceMs = staleGraceMs(res.headers, slot.shared, this.#o.staleMs ?? 0);
    const e = Date.now() + ttlMs;
    const entry: Entry = {
      g: slot.generation,
      e,
      ...(graceMs > 0 ? { w: e + graceMs } : {}),
      s: res.status,
      h: headers,
      b: res.body,
    };
    let value: string | Entry;
    let size: number;
    if (this.#store.keepsObjects) {
      // The parsed answer itself, frozen: every later hit (and the operation that read it now)
      // shares it, and none can change it for another. Its size is the bytes the client read.
      size = res.size ?? JSON.stringify(entry).length;
      value = deepFreeze(entry);
    } else {
      value = JSON.stringify(entry);
      size = value.length;
    }
    if (size > this.#o.maxEntryBytes) return 0;
    try {
      // Kept through its grace too: the store's own expiry is the end of all use.
      await this.#store.write(slot.key, value, ttlMs + graceMs, size);
      return ttlMs;
    } catch {
      return 0;
    }
  }

  /** The background refresh of a stale entry ended (stored or not): another may start. */
  revalidated(slot: CacheSlot): void {
    this.#revalidating.delete(slot.key);
  }

  /** Whether a request sent changes what this cache holds (cache/policy.ts). */
  writes(req: UpstreamRequest): boolean {
    return isWrite(req);
  }

  /** After a write was sent (whatever its outcome: a timeout may still have written). Never throws. */
  async invalidate(req: Pick<UpstreamRequest, 'path' | 'body'>): Promise<void> {
    await this.#bump(familiesWrittenBy(req));
    try {
      await this.#o.onWrite?.(req);
    } catch (err) {
      this.#o.onInvalidationError?.(err);
    }
  }

  /** Everything stored so far becomes unreachable (Redis came back after an outage). */
  async invalidateAll(): Promise<void> {
    await this.#bump(ALL_FAMILIES);
  }

  /**
   * The admin purge (src/admin/purge.ts): every family bumped in the store (in
   * Redis, for every instance of this site) and this process's memory emptied.
   * Throws when the store cannot be reached, so the purge can say it failed.
   */
  async purge(): Promise<void> {
    this.#local(ALL_FAMILIES);
    await this.#store.bump(ALL_FAMILIES);
    await this.#store.clear?.();
  }

  #local(families: readonly string[]): void {
    for (const f of families) this.#epochs.set(f, (this.#epochs.get(f) ?? 0) + 1);
  }

  async #bump(families: readonly string[]): Promise<void> {
    this.#local(families);
    try {
      await this.#store.bump(families);
    } catch (err) {
      this.#o.onInvalidationError?.(err);
    }
  }
}

/**
 * The entry's key: a hash, so neither credentials nor query strings (which may
 * name private objects) appear in the store's key space.
 */
function keyOf(family: string, identity: string, req: UpstreamRequest): string {
  const headers = Object.entries(req.headers ?? {})
    .map(([k, v]) => `${k.toLowerCase()}:${v}`)
    .sort();
  const material = JSON.stringify([identity, req.method, req.path, encodeQuery(req.query), headers]);
  return `${family}:${createHash('sha256').update(material).digest('base64url')}`;
}

/** Freezes `value` and everything it holds (plain JSON: objects and arrays). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) for (const v of value) deepFreeze(v);
  else for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
  return value;
}

function parseEntry(value: string): Entry | null {
  try {
    const e = JSON.parse(value) as Entry;
    return e && typeof e.g === 'string' && typeof e.e === 'number' && typeof e.s === 'number' ? e : null;
  } catch {
    return null;
  }
}
