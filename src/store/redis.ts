/**
 * The one Redis connection of a gateway instance (`REDIS_URL`), shared by
 * everything that several instances must agree on: the upstream cache, the APQ
 * store, invalidations and rate-limit counters.
 *
 * Redis is an optimisation, never a dependency of an answer: commands fail fast
 * while it is away (no offline queue, one try per command), callers fall back
 * (uncached, in-memory counters) and the connection keeps retrying in the
 * background with capped backoff. `up` says which state it is in.
 */
import { Redis } from 'ioredis';

export interface RedisEvents {
  /** Redis became reachable (first time, or again after an outage). */
  onUp?: () => void;
  /** Redis went away; `error` is the last error seen. */
  onDown?: (error: Error | undefined) => void;
}

export interface SharedRedis {
  readonly client: Redis;
  /** True while commands can be sent. */
  readonly up: boolean;
  close(): Promise<void>;
}

/** Capped backoff between reconnection attempts: 50 ms doubling to 2 s. */
function reconnectDelay(attempt: number): number {
  return Math.min(2_000, 50 * 2 ** Math.min(attempt, 6));
}

export function connectRedis(url: string, events: RedisEvents = {}): SharedRedis {
  const client = new Redis(url, {
    // A command while Redis is away fails at once instead of waiting in a queue:
    // the caller answers uncached rather than late.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1_000,
    commandTimeout: 500,
    retryStrategy: reconnectDelay,
    lazyConnect: false,
  });
  let up = false;
  let lastError: Error | undefined;
  client.on('ready', () => {
    if (!up) {
      up = true;
      events.onUp?.();
    }
  });
  client.on('error', (err: Error) => {
    lastError = err;
  });
  const down = () => {
    if (up) {
      up = false;
      events.onDown?.(lastError);
    }
  };
  client.on('close', down);
  client.on('end', down);
  return {
    client,
    get up() {
      return up && client.status === 'ready';
    },
    async close() {
      up = false;
      client.disconnect(false);
    },
  };
}
