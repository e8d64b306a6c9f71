/**
 * The cache store over the gateway's one Redis connection (store/redis.ts),
 * shared by every instance in front of the same site: entries
 * (`<prefix><site>:c:<family>:<hash>`, with Redis's own expiry) and one
 * generation counter per family (`<prefix><site>:gen:<family>`, INCR on a
 * write through any instance). The prefix is REDIS_KEY_PREFIX and the site
 * the REST root's hash (store/keys.ts): another site's gateways on the same
 * Redis neither see these entries nor bump these counters.
 *
 * While Redis is away every call throws at once (the connection has no
 * offline queue) and the gateway answers uncached. When it comes back, every
 * family is bumped: a write made while it was away could not bump anything, so
 * what was stored before is no longer trusted.
 */
import type { SharedRedis } from '../store/redis.ts';
import type { CacheStore, StoredRead, StoredValue } from './store.ts';

export class RedisStore implements CacheStore {
  /** Redis holds bytes: entries are written as JSON text and parsed when read. */
  readonly keepsObjects = false;

  constructor(private readonly redis: SharedRedis) {}

  get up(): boolean {
    return this.redis.up;
  }

  async read(family: string, key: string): Promise<StoredRead> {
    const [generation, value] = await this.redis.client.mget(this.redis.key('gen', family), this.redis.key('c', key));
    return { generation: generation ?? '0', value: value ?? undefined };
  }

  async write(key: string, value: StoredValue, ttlMs: number): Promise<void> {
    await this.redis.client.set(
      this.redis.key('c', key),
      typeof value === 'string' ? value : JSON.stringify(value),
      'PX',
      ttlMs,
    );
  }

  async bump(families: readonly string[]): Promise<void> {
    if (families.length === 0) return;
    const multi = this.redis.client.multi();
    for (const f of families) multi.incr(this.redis.key('gen', f));
    const results = await multi.exec();
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw failed?.[0] ?? new Error('Redis did not run the invalidation');
  }

  async close(): Promise<void> {
    // The connection is the gateway's (server.ts closes it).
  }
}
