/**
 * Per-client rate limiting of GraphQL requests (`RATE_LIMIT_*`): a fixed window
 * of `max` requests per `windowSeconds` for each client key.
 *
 * Counters live in memory, or in Redis when the gateway has one (`REDIS_URL`),
 * so that several instances share one count per client (under the site's keys,
 * `<REDIS_KEY_PREFIX><site>:ratelimit:<client>`, store/keys.ts: a client's count
 * in front of one site is not its count in front of another). Redis is never a
 * reason to refuse service: while it is away (or a command fails) the
 * instance's own in-memory counter answers instead.
 *
 * Only GraphQL operations are counted (the pipeline's rate-limit stage,
 * src/pipeline/: `/graphql`, SSE, WebSocket); health, readiness, metrics and
 * GraphiQL's page and assets are not.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from './config.ts';
import type { SharedRedis } from './store/redis.ts';

export type RateLimitConfig = Config['rateLimit'];

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the current window (0 when refused). */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
  /** Where the count came from: `redis`, or `memory` (no Redis, or Redis away). */
  store: 'memory' | 'redis';
}

export interface RateLimiter {
  /** Counts one request of `key` and says whether it is within the limit. */
  hit(key: string): Promise<RateLimitDecision>;
}

/**
 * The client's key: a hash of its credential or its address, never the raw
 * Authorization value (keys reach Redis and could reach logs).
 *
 * `credential`: callers that send Authorization are counted per credential,
 * anonymous callers per IP. `ip`: every caller per IP.
 */
export function clientKey(req: IncomingMessage, config: Pick<RateLimitConfig, 'key' | 'trustProxyHops'>): string {
  const authorization = req.headers.authorization;
  if (config.key === 'credential' && authorization) {
    return `cred:${createHash('sha256').update(authorization).digest('base64url').slice(0, 32)}`;
  }
  return `ip:${clientIp(req, config.trustProxyHops)}`;
}

/**
 * The caller's address. Behind `hops` trusted proxies it is the entry of
 * X-Forwarded-For that the outermost trusted proxy appended: counted from the
 * right, because everything left of it was written by the client and can be
 * anything. With 0 hops (the default) the header is ignored.
 */
export function clientIp(req: IncomingMessage, hops: number): string {
  const peer = normaliseIp(req.socket.remoteAddress ?? 'unknown');
  if (hops <= 0) return peer;
  const raw = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(raw) ? raw.join(',') : (raw ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // Fewer entries than trusted hops: the left-most one is still the best known
  // (a trusted proxy wrote it); none at all: the peer itself.
  const entry = forwarded[Math.max(0, forwarded.length - hops)];
  return entry ? normaliseIp(entry) : peer;
}

/** `::ffff:1.2.3.4` (an IPv4 peer on a dual-stack socket) and `1.2.3.4` are one client. */
function normaliseIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}

/** Counters of this instance; also the fallback while Redis is away. */
export function memoryCounter(
  windowMs: number,
  now: () => number = Date.now,
): (key: string) => { count: number; resetMs: number } {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweep = now() + windowMs;
  return (key) => {
    const t = now();
    // Expired windows are dropped once per window, so the map holds only the
    // clients seen in the last two windows.
    if (t >= nextSweep) {
      for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
      nextSweep = t + windowMs;
    }
    let w = windows.get(key);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + windowMs };
      windows.set(key, w);
    }
    w.count += 1;
    return { count: w.count, resetMs: w.resetAt - t };
  };
}

/**
 * One round trip: count, start the window's expiry with the first request, and
 * return the count and the time left. A key without expiry (a PEXPIRE lost to
 * a crash between the two commands in some older scheme) gets one, so it can
 * never block a client for ever.
 */
const REDIS_HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}
`;

export function createRateLimiter(
  config: Pick<RateLimitConfig, 'max' | 'windowSeconds'>,
  redis?: SharedRedis,
): RateLimiter {
  const windowMs = config.windowSeconds * 1000;
  const memory = memoryCounter(windowMs);
  const decide = (count: number, resetMs: number, store: RateLimitDecision['store']): RateLimitDecision => ({
    allowed: count <= config.max,
    limit: config.max,
    remaining: Math.max(0, config.max - count),
    resetMs: Math.max(0, resetMs),
    store,
  });
  return {
    async hit(key) {
      if (redis?.up) {
        try {
          const [count, ttl] = (await redis.client.eval(
            REDIS_HIT,
            1,
            redis.key('ratelimit', key),
            String(windowMs),
          )) as [number, number];
          return decide(Number(count), Number(ttl), 'redis');
        } catch {
          // Redis failed this command (timeout, restart): count here instead.
        }
      }
      const { count, resetMs } = memory(key);
      return decide(count, resetMs, 'memory');
    },
  };
}

/**
 * The RateLimit headers of the IETF draft's widely deployed form
 * (draft-ietf-httpapi-ratelimit-headers-06: Limit, Remaining, Reset in seconds)
 * on every counted answer, and `Retry-After` on a refusal.
 */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  const reset = Math.max(1, Math.ceil(d.resetMs / 1000));
  const headers: Record<string, string> = {
    'ratelimit-limit': String(d.limit),
    'ratelimit-remaining': String(d.remaining),
    'ratelimit-reset': String(reset),
  };
  if (!d.allowed) headers['retry-after'] = String(reset);
  return headers;
}

/** A request over its client's limit: its counts, and the error every transport answers with. */
export interface RateLimitRefusal {
  decision: RateLimitDecision;
  error: {
    message: string;
    extensions: { code: 'RATE_LIMITED'; retryAfter: number; limit: number; windowSeconds: number };
  };
}

/**
 * The rate-limit check every transport makes (/graphql, the SSE requests, a
 * WebSocket upgrade and each of its `subscribe` messages), in one place.
 */
export interface RateGate {
  /**
   * Counts one request of the client: null when it is within the limit (the
   * RateLimit headers then set on `res`, when there is one), else the refusal.
   * Nothing is counted without a limit (RATE_LIMIT_MAX=0).
   */
  check(req: IncomingMessage, res?: ServerResponse): Promise<RateLimitRefusal | null> | null;
}

export function rateGate(
  limiter: RateLimiter | null,
  config: Pick<RateLimitConfig, 'key' | 'trustProxyHops' | 'windowSeconds'>,
): RateGate {
  if (!limiter) return { check: () => null };
  return {
    async check(req, res) {
      const decision = await limiter.hit(clientKey(req, config));
      if (decision.allowed) {
        if (res) for (const [k, v] of Object.entries(rateLimitHeaders(decision))) res.setHeader(k, v);
        return null;
      }
      const retryAfter = Math.max(1, Math.ceil(decision.resetMs / 1000));
      return {
        decision,
        error: {
          message: `Too many requests: this client may send ${decision.limit} per ${config.windowSeconds} s. Retry in ${retryAfter} s.`,
          extensions: { code: 'RATE_LIMITED', retryAfter, limit: decision.limit, windowSeconds: config.windowSeconds },
        },
      };
    },
  };
}

/** The 429 answer: GraphQL-shaped, so clients read it like any other error. */
export function sendRateLimited(res: ServerResponse, refusal: RateLimitRefusal): void {
  res.writeHead(429, { 'content-type': 'application/json; charset=utf-8', ...rateLimitHeaders(refusal.decision) });
  res.end(JSON.stringify({ errors: [refusal.error] }));
}
