/**
 * Where upstream cache entries and the families' generations live: in this
 * process (`MemoryStore`), or in Redis for several gateway instances
 * (redis-store.ts). Both give the same guarantee: an entry written under a
 * family's generation is never returned once that generation was bumped.
 */

/**
 * An entry as a store keeps it: JSON text (Redis, which holds bytes), or the
 * object itself, frozen (this process's memory: a hit is not parsed again).
 */
export type StoredValue = string | object;

export interface StoredRead {
  /** The family's current generation. */
  generation: string;
  /** The entry, if present and not expired (the caller still checks its generation). */
  value: StoredValue | undefined;
}

export interface CacheStore {
  /** True while the store answers; while false, reads and writes throw and the gateway answers uncached. */
  readonly up: boolean;
  /** True when it keeps entries as objects (`write` takes them so, with their size); false: as JSON text. */
  readonly keepsObjects: boolean;
  /** The family's generation and the entry under `key`, in one round trip. Throws when the store is unreachable. */
  read(family: string, key: string): Promise<StoredRead>;
  /**
   * `value` is JSON text, or (when `keepsObjects`) the frozen entry with `size`,
   * about the bytes of its JSON, for the memory bound. Throws when the store is unreachable.
   */
  write(key: string, value: StoredValue, ttlMs: number, size?: number): Promise<void>;
  /** Makes every entry of these families unreachable. Throws when the store is unreachable. */
  bump(families: readonly string[]): Promise<void>;
  /** Drops every entry this process holds (the memory store; Redis entries go by their generations and expiry). */
  clear?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One process's store: a Map kept in insertion order, so the oldest entries
 * are dropped first once `maxBytes` (an entry's JSON length, or the size it was
 * written with: close enough for a bound) is passed. Expired entries go when
 * read or when evicted. Entries are kept as given: the upstream cache gives it
 * frozen objects, so a hit hands out the parsed answer itself.
 */
export class MemoryStore implements CacheStore {
  readonly up = true;
  readonly keepsObjects = true;
  readonly #entries = new Map<string, { value: StoredValue; size: number; expires: number }>();
  readonly #generations = new Map<string, number>();
  #bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Entries this process holds (a gauge of the admin listener's /metrics). */
  get size(): number {
    return this.#entries.size;
  }

  async read(family: string, key: string): Promise<StoredRead> {
    const generation = String(this.#generations.get(family) ?? 0);
    const e = this.#entries.get(key);
    if (e && e.expires <= Date.now()) this.#delete(key);
    return { generation, value: e && e.expires > Date.now() ? e.value : undefined };
  }

  async write(key: string, value: StoredValue, ttlMs: number, size?: number): Promise<void> {
    const bytes = size ?? (typeof value === 'string' ? value.length : JSON.stringify(value).length);
    if (bytes > this.maxBytes) return;
    this.#delete(key);
    this.#entries.set(key, { value, size: bytes, expires: Date.now() + ttlMs });
    this.#bytes += bytes;
    for (const [k] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#delete(k);
    }
  }

  async bump(families: readonly string[]): Promise<void> {
    for (const f of families) this.#generations.set(f, (this.#generations.get(f) ?? 0) + 1);
  }

  async clear(): Promise<void> {
    this.#entries.clear();
    this.#bytes = 0;
  }

  async close(): Promise<void> {
    await this.clear();
  }

  #delete(key: string): void {
    const e = this.#entries.get(key);
    if (!e) return;
    this.#bytes -= e.size;
    this.#entries.delete(key);
  }
}
