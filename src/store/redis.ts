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

export function connectRedis(url: string): SharedRedis {
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
  client.on('ready', () => {
    up = true;
  });
  // Errors show as `up` false and failed commands (their callers log them); without a
  // listener, ioredis would print each reconnection error.
  client.on('error', () => {});
  const down = () => {
    up = false;
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
