/**
 * The response cache: whole GraphQL answers, so a hot read skips parsing,
 * validation, execution and mapping (docs/caching.md).
 *
 * - **What is kept.** Queries whose answer says it may be reused
 *   (`cache-control` with a max-age: no errors, no mutation, every upstream
 *   answer used still fresh), for that long. The key is the graph that answers
 *   (`/graphql`, or the WPGraphQL-compatible graph's path), the operation (its
 *   text or persisted hash, name and variables) and the caller's identity, as
 *   the upstream cache's: one credential's answer never reaches another.
 *   Answers are kept in this process's memory (bounded, oldest first), with
 *   their brotli and gzip forms made once, on first use.
 * - **What makes one stale.** Each answer carries the entity tags of what it
 *   was built from (tags.ts: `Event:208`, `list:events`, ...). A tag has a
 *   version, in memory or in Redis (shared by every instance of the site);
 *   every write through the gateway bumps the versions of the tags it can have
 *   changed before the mutation answers, and an answer whose tags moved is a
 *   miss. An answer built while any write happened is not kept at all (a
 *   global write counter is read before and after). The admin purge bumps
 *   tags (or everything).
 * - **What a CDN sees.** Cacheable answers carry `Surrogate-Key` with the same
 *   tags, so a CDN can purge by them.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { SharedRedis } from '../store/redis.ts';
import { ALL } from './tags.ts';

/** The versions of tags, and the count of every bump (`*`), where every instance of the site sees them. */
export interface TagVersions {
  /** The current version of each tag (0: never bumped), and the write counter last. Throws when unreachable. */
  read(tags: readonly string[]): Promise<number[]>;
  bump(tags: readonly string[]): Promise<void>;
}

const COUNTER = '*';

export class MemoryTagVersions implements TagVersions {
  readonly #v = new Map<string, number>();
  async read(tags: readonly string[]): Promise<number[]> {
    const out = tags.map((t) => this.#v.get(t) ?? 0);
    out.push(this.#v.get(COUNTER) ?? 0);
    return out;
  }
  async bump(tags: readonly string[]): Promise<void> {
    for (const t of [...tags, COUNTER]) this.#v.set(t, (this.#v.get(t) ?? 0) + 1);
  }
}

/** One Redis hash per site (`<prefix><site>:tags`): HMGET for a lookup, HINCRBY for a write. */
export class RedisTagVersions implements TagVersions {
  readonly #key: string;
  constructor(private readonly redis: SharedRedis) {
    this.#key = redis.key('tags');
  }
  async read(tags: readonly string[]): Promise<number[]> {
    const got = await this.redis.client.hmget(this.#key, ...tags, COUNTER);
    return got.map((v) => Number(v ?? 0));
  }
  async bump(tags: readonly string[]): Promise<void> {
    const multi = this.redis.client.multi();
    for (const t of [...tags, COUNTER]) multi.hincrby(this.#key, t, 1);
    await multi.exec();
  }
}

interface Entry {
  body: Buffer;
  headers: Record<string, string>;
  /** `headers` and `x-sitegraph-cache: hit` as `writeHead` takes them, `cache-control` apart. */
  head: string[];
  /** `cache-control` split around its max-age, which a hit fills with what is left (a string: it has none). */
  cacheControl: readonly [string, string] | string;
  key: string;
  tags: readonly string[];
  versions: readonly number[];
  expires: number;
  br?: Buffer;
  gzip?: Buffer;
}

export interface Hit {
  body: Buffer;
  headers: Record<string, string>;
  /** Seconds it may still be reused. */
  maxAge: number;
  /** The headers a hit is written with (`cache-control` with what is left of its max-age last), flat. */
  head(): string[];
  /** The body in `coding`, made once per entry. */
  encoded(coding: 'br' | 'gzip'): Buffer;
}

/** What a lookup leaves for the store after a miss: the key and the write counter before execution. */
export interface Pending {
  key: string;
  counter: number;
}

export interface OperationCacheOptions {
  /** Bytes of answers kept in memory (`RESPONSE_CACHE_MAX_BYTES`). */
  maxBytes: number;
  /** Metrics hook. */
  onLookup?: (result: 'hit' | 'miss' | 'error') => void;
}

const LISTS: Record<string, string> = {
  Event: 'events',
  Venue: 'venues',
  Organizer: 'organizers',
  Series: 'series',
  Post: 'posts',
};

/** Tags are joined into `Surrogate-Key` up to this many; past it the kinds stand for their objects. */
const MAX_HEADER_TAGS = 200;

export class OperationCache {
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(
    readonly versions: TagVersions,
    private readonly options: OperationCacheOptions,
  ) {}

  /** Answers this process holds (a gauge of the admin listener's /metrics). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The key of a request's operation on `graph` (the path of the graph that answers it: the same text is another
   * operation on another schema) for this identity, or null when it is not a plain query (no text or persisted
   * hash, or a mutation by its text).
   */
  keyOf(
    graph: string,
    identity: string,
    op: { query?: unknown; operationName?: unknown; variables?: unknown; hash?: unknown },
  ): string | null {
    const text = typeof op.query === 'string' ? op.query : null;
    const hash = typeof op.hash === 'string' ? op.hash : null;
    if (text === null && hash === null) return null;
    if (text !== null && /^\s*(mutation|subscription)\b/.test(text)) return null;
    // Only a key of this process's memory (the credential in `identity` is already a hash): no need to hash it again.
    return JSON.stringify([graph, identity, text ?? `#${hash}`, op.operationName ?? null, op.variables ?? null]);
  }

  /** A kept, current answer; else what `store` needs. Never throws (a store that fails is a miss). */
  async lookup(key: string): Promise<{ hit: Hit } | { pending: Pending | null }> {
    const e = this.#entries.get(key);
    try {
      if (e && e.expires > Date.now()) {
        const now = await this.versions.read(e.tags);
        const counter = now.pop()!;
        if (now.every((v, i) => v === e.versions[i])) {
          this.options.onLookup?.('hit');
          // Most recently used last: the oldest go first when memory is short.
          this.#entries.delete(key);
          this.#entries.set(key, e);
          return { hit: this.#hitOf(e) };
        }
        this.#delete(key);
        this.options.onLookup?.('miss');
        return { pending: { key, counter } };
      }
      if (e) this.#delete(key);
      const [counter] = await this.versions.read([]);
      this.options.onLookup?.('miss');
      return { pending: { key, counter: counter! } };
    } catch {
      this.options.onLookup?.('error');
      return { pending: null };
    }
  }

  /**
   * Keeps an answer built after `pending` was read, unless a write happened
   * meanwhile (it may have been built from the old state). Never throws.
   */
  async store(
    pending: Pending,
    body: Buffer,
    headers: Record<string, string>,
    maxAgeSeconds: number,
    tags: readonly string[],
  ): Promise<void> {
    if (maxAgeSeconds <= 0 || body.length > this.options.maxBytes / 4) return;
    const all = [...new Set([ALL, ...tags])];
    let versions: number[];
    try {
      versions = await this.versions.read(all);
    } catch {
      return;
    }
    if (versions.pop() !== pending.counter) return;
    this.#delete(pending.key);
    const cc = headers['cache-control'] ?? 'private';
    const at = /max-age=\d+/.exec(cc);
    const head: string[] = [];
    for (const [k, v] of Object.entries(headers)) if (k !== 'cache-control') head.push(k, v);
    head.push('x-sitegraph-cache', 'hit');
    this.#entries.set(pending.key, {
      body,
      headers,
      head,
      cacheControl: at ? [cc.slice(0, at.index + 'max-age='.length), cc.slice(at.index + at[0].length)] : cc,
      key: pending.key,
      tags: all,
      versions,
      expires: Date.now() + maxAgeSeconds * 1000,
    });
    this.#bytes += body.length;
    for (const [k] of this.#entries) {
      if (this.#bytes <= this.options.maxBytes) break;
      this.#delete(k);
    }
  }

  /** After a write was sent: the tags it can have changed. Throws when the versions cannot be bumped. */
  async invalidate(tags: readonly string[]): Promise<void> {
    await this.versions.bump(tags);
  }

  /** Drops what this process keeps (a purge of everything also bumps `all`). */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #hitOf(e: Entry): Hit {
    const maxAge = Math.max(0, Math.floor((e.expires - Date.now()) / 1000));
    return {
      body: e.body,
      headers: e.headers,
      maxAge,
      head: () => [
        ...e.head,
        'cache-control',
        typeof e.cacheControl === 'string' ? e.cacheControl : `${e.cacheControl[0]}${maxAge}${e.cacheControl[1]}`,
      ],
      encoded: (coding) => {
        const have = coding === 'br' ? e.br : e.gzip;
        if (have) return have;
        const made =
          coding === 'br'
            ? brotliCompressSync(e.body, {
                params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: e.body.length },
              })
            : gzipSync(e.body);
        // Counted while the entry is kept (and uncounted with it, #delete), so the bound covers them.
        if (this.#entries.get(e.key) !== e) return made;
        this.#bytes += made.length;
        if (coding === 'br') e.br = made;
        else e.gzip = made;
        return made;
      },
    };
  }

  #delete(key: string): void {
    const e = this.#entries.get(key);
    if (!e) return;
    this.#bytes -= e.body.length + (e.br?.length ?? 0) + (e.gzip?.length ?? 0);
    this.#entries.delete(key);
  }
}

/** The `Surrogate-Key` value for these tags (space-separated, bounded). */
export function surrogateKey(tags: readonly string[]): string {
  const list = [...new Set(tags)];
  if (list.length <= MAX_HEADER_TAGS) return list.join(' ');
  // Too many objects to name: their kinds' lists stand for them (a write of any one bumps its list).
  const kinds = new Set(
    list.map((t) => (/^[A-Z]\w*:\d+$/.test(t) ? `list:${LISTS[t.split(':')[0]!] ?? 'events'}` : t)),
  );
  return [...kinds].join(' ');
}
