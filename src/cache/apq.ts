/**
 * Apollo Server's `cache` (a KeyValueCache; Apollo keeps automatic persisted
 * queries in it) over the gateway's Redis, so a query registered through one
 * instance is found by every other one (a CDN's GET may reach any of them).
 * Keys are the site's (`<REDIS_KEY_PREFIX><site>:kv:<Apollo's key>`, store/keys.ts):
 * a hash registered in front of one site is unknown in front of another.
 *
 * Redis away: a get is a miss (the client sends the full query again, as the
 * APQ protocol expects) and a set is dropped. Never an error to the caller.
 */
import type { SharedRedis } from '../store/redis.ts';

/**
 * Seconds an entry is kept when Apollo gives no TTL (APQ registrations): a day.
 * A client whose hash was dropped registers it again on PERSISTED_QUERY_NOT_FOUND,
 * and an expiry lets Redis's `volatile-lru` evict these rather than the generation
 * counters, which carry none (docs/production.md "Redis: several gateway instances").
 */
const DEFAULT_TTL_SECONDS = 24 * 60 * 60;

/** The KeyValueCache interface Apollo Server's `cache` option takes (@apollo/utils.keyvaluecache), structurally. */
export interface StringKeyValueCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, options?: { ttl?: number | null }): Promise<void>;
  delete(key: string): Promise<boolean | void>;
}

export class RedisKeyValueCache implements StringKeyValueCache {
  constructor(private readonly redis: SharedRedis) {}

  async get(key: string): Promise<string | undefined> {
    try {
      return (await this.redis.client.get(this.redis.key('kv', key))) ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** `ttl` in seconds, as Apollo passes it; none or null: a day. */
  async set(key: string, value: string, options?: { ttl?: number | null }): Promise<void> {
    try {
      const ttl = options?.ttl && options.ttl > 0 ? Math.ceil(options.ttl) : DEFAULT_TTL_SECONDS;
      await this.redis.client.set(this.redis.key('kv', key), value, 'EX', ttl);
    } catch {
      /* dropped: the next request with this hash sends the query again */
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      return (await this.redis.client.del(this.redis.key('kv', key))) > 0;
    } catch {
      return false;
    }
  }
}
