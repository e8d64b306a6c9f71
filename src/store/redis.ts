/**
 * The one Redis connection of a gateway instance (`REDIS_URL`), shared by
 * everything that several instances must agree on: the upstream cache, the APQ
 * store, invalidations, rate-limit counters and write locks. Every key goes
 * through `key()`: the configured prefix and the site's hash first
 * (store/keys.ts), so gateways for different sites can share one Redis.
 *
 * Redis is an optimisation, never a dependency of an answer: commands fail fast
 * while it is away (no offline queue, one try per command), callers fall back
 * (uncached, in-memory counters) and the connection keeps retrying in the
 * background with capped backoff. `up` says which state it is in; `problem`
 * why it is not up (readiness reports it: src/readiness.ts).
 */
import { Redis } from 'ioredis';
import { keyspace, type Keyspace } from './keys.ts';

export interface SharedRedis {
  readonly client: Redis;
  /** True while commands can be sent. */
  readonly up: boolean;
  /** The site's keys in this Redis (prefix and site hash). */
  readonly keys: Keyspace;
  /** A key of this gateway's site: `key('ratelimit', clientKey)`; see store/keys.ts. */
  key(...parts: readonly string[]): string;
  /** `REDIS_URL` without its password, for logs, the banner and readiness. */
  readonly label: string;
  /** Why it is not up: the last connection error, or null (up, or never tried yet). */
  readonly problem: string | null;
  /** Resolves true once connected, false when `ms` pass first or the first attempt fails. */
  ready(ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface RedisOptions {
  /** `REDIS_KEY_PREFIX`. @default 'sitegraph:' */
  prefix?: string;
  /** The site's REST root URL: its hash scopes every key (store/keys.ts). The gateway always gives it. */
  site?: string;
}

/** Capped backoff between reconnection attempts: 50 ms doubling to 2 s. */
function reconnectDelay(attempt: number): number {
  return Math.min(2_000, 50 * 2 ** Math.min(attempt, 6));
}

/** The URL without user or password (a `redis://:secret@host` must not reach a log line). */
export function redisLabel(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.href.replace(/\/$/, '');
  } catch {
    return 'redis://(unparsable URL)';
  }
}

export function connectRedis(url: string, options: RedisOptions = {}): SharedRedis {
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
  const keys = keyspace(options.prefix ?? 'sitegraph:', options.site ?? '');
  const label = redisLabel(url);
  let up = false;
  let problem: string | null = null;
  client.on('ready', () => {
    up = true;
    problem = null;
  });
  // Errors show as `up` false, `problem` and failed commands (their callers log them);
  // without a listener, ioredis would print each reconnection error.
  client.on('error', (err: Error) => {
    problem = describe(err);
  });
  const down = () => {
    up = false;
    problem ??= 'the connection closed';
  };
  client.on('close', down);
  client.on('end', down);
  return {
    client,
    keys,
    key: keys.key,
    label,
    get up() {
      return up && client.status === 'ready';
    },
    get problem() {
      return up && client.status === 'ready' ? null : problem;
    },
    ready(ms) {
      if (up && client.status === 'ready') return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          client.off('ready', onReady);
          client.off('error', onError);
          resolve(ok);
        };
        const onReady = () => done(true);
        const onError = () => done(false);
        const timer = setTimeout(() => {
          problem ??= `no answer within ${ms} ms`;
          done(false);
        }, ms);
        client.once('ready', onReady);
        client.once('error', onError);
      });
    },
    async close() {
      up = false;
      client.disconnect(false);
    },
  };
}

/** A connection error in a few words, with no URL (it may hold a password): `connect ECONNREFUSED 127.0.0.1:6390`. */
function describe(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  const text = err.message.replace(/rediss?:\/\/\S*/g, 'redis://…');
  return code && !text.includes(code) ? `${code}: ${text}` : text;
}
