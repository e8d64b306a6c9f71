/**
 * The gateway's caches, wired once per instance (server.ts): the upstream GET
 * cache in memory or, with REDIS_URL, in Redis shared with every other
 * instance, and Apollo's KeyValueCache (APQ) in the same Redis.
 *
 * Redis going away is logged once, shown as `sitegraph_cache_store_up 0`, and
 * answered uncached; when it is back, everything stored before is invalidated
 * (writes made meanwhile could not say what they changed).
 */
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { SharedRedis } from '../store/redis.ts';
import { RedisKeyValueCache, type StringKeyValueCache } from './apq.ts';
import { RedisStore } from './redis-store.ts';
import { MemoryStore } from './store.ts';
import { UpstreamCache } from './upstream-cache.ts';
import { MemoryTagVersions, OperationCache, RedisTagVersions } from './operation-cache.ts';
import { writeTags } from './tags.ts';
import type { UpstreamRequest } from '../upstream/client.ts';

export interface GatewayCache {
  upstream: UpstreamCache;
  /** Whole answers (RESPONSE_CACHE, while the upstream cache is on); undefined: off. */
  operations: OperationCache | undefined;
  /** Apollo Server's `cache` option; undefined: Apollo's own in-memory one. */
  apq: StringKeyValueCache | undefined;
}

export function createGatewayCache(
  config: Config,
  redis: SharedRedis | undefined,
  metrics: Metrics,
  log: Logger,
): GatewayCache {
  const store = redis ? new RedisStore(redis) : new MemoryStore(config.cache.memoryMaxBytes);
  const operations =
    config.cache.responses && config.cache.ttlSeconds > 0
      ? new OperationCache(redis ? new RedisTagVersions(redis) : new MemoryTagVersions(), {
          maxBytes: config.cache.responsesMaxBytes,
          onLookup: (result) => metrics.responseCacheLookups.inc({ result }),
        })
      : undefined;
  const upstream = new UpstreamCache(store, {
    ...(operations
      ? {
          onWrite: (req: Pick<UpstreamRequest, 'path' | 'body'>) =>
            operations.invalidate(writeTags(req.path, req.body)),
        }
      : {}),
    ttlMs: config.cache.ttlSeconds * 1000,
    staleMs: config.cache.staleSeconds * 1000,
    maxEntryBytes: config.upstream.maxResponseBytes,
    onLookup: (result) => metrics.cacheLookups.inc({ result }),
    onInvalidationError: (err) =>
      log.warn(
        { err: (err as Error)?.message },
        'cache: a write could not invalidate the shared store (Redis away); entries are invalidated when it is back',
      ),
  });
  metrics.cacheStoreUp.set(!redis || redis.up ? 1 : 0);
  if (redis) watch(redis, upstream, operations, metrics, log);
  return { upstream, operations, apq: redis ? new RedisKeyValueCache(redis) : undefined };
}

function watch(
  redis: SharedRedis,
  cache: UpstreamCache,
  operations: OperationCache | undefined,
  metrics: Metrics,
  log: Logger,
): void {
  // The start waits for the connection (server.ts): it may be up already, or known to be down.
  let wasUp = redis.up;
  let wasDown = !redis.up && redis.problem !== null;
  redis.client.on('ready', () => {
    metrics.cacheStoreUp.set(1);
    // Back after an outage, or up at last after a start without it: writes made meanwhile
    // through this instance could not bump the shared generations.
    if (wasDown) {
      log.info(
        wasUp
          ? 'cache: Redis is back; invalidating what was stored before the outage'
          : 'cache: Redis can be reached now; caching in it from here on',
      );
      void cache.invalidateAll();
      // The tag versions may be gone with the outage (a restarted Redis starts empty): what this process kept goes too.
      operations?.clear();
    }
    wasUp = true;
    wasDown = false;
  });
  const down = () => {
    metrics.cacheStoreUp.set(0);
    // Before it was ever up, the start has said so already (server.ts).
    if (wasUp && !wasDown) log.warn('cache: Redis is away; answering uncached until it is back');
    wasDown = true;
  };
  redis.client.on('close', down);
  redis.client.on('end', down);
}
