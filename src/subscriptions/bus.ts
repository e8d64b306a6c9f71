/**
 * How changes reach every instance, and who polls (docs/subscriptions.md
 * "Several instances"): with `REDIS_URL`, batches fan out through Redis
 * pub/sub (each instance, the publisher included, hears each batch once), and
 * each source of changes is polled by the one instance holding its lease; its
 * state (where the last poll stopped) lives beside the lease, so whoever takes
 * over continues from there: nothing is delivered twice, nothing is skipped.
 * A poll's state and its batch are written in one step, and only while the
 * lease is still held (a fenced commit), so an instance that lost its lease
 * mid-poll publishes nothing.
 *
 * Without Redis one process does everything: a lease is always held, batches
 * go straight to its hub.
 *
 * Redis away: no lease can be renewed, so no instance polls until it is back
 * (then polling resumes from the stored state); a write's batch goes to the
 * writing instance's own subscribers only.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../log.ts';
import type { SharedRedis } from '../store/redis.ts';
import type { ChangeBatch } from './types.ts';

/** A source's poll lease. */
export interface Lease {
  /** What the lease key holds while this instance has it. */
  readonly token: string;
  readonly held: boolean;
  /** Takes the lease, or renews it when held; false when another instance holds it (or Redis is away). */
  acquire(): Promise<boolean>;
  /** Gives it up (no subscriber left here), so another instance can take it at once. */
  release(): Promise<void>;
}

/** What the poller stores between polls: the source's own state, and when it was polled. */
export interface Stored {
  polledAt: number;
  state: unknown;
}

export interface Bus {
  /** This instance's name in batches and logs. */
  readonly instance: string;
  /** To every instance, this one included. */
  publish(batch: ChangeBatch): Promise<void>;
  /** The hub's listener: every batch, in the order they were published. */
  listen(fn: (batch: ChangeBatch) => void): void;
  lease(source: string): Lease;
  /** The stored state of a source, or null (none, or unreadable). */
  load(source: string): Promise<Stored | null>;
  /** Stores the state and publishes the batch, in one step, only while `lease` is held; false when it was lost. */
  commit(source: string, lease: Lease, stored: Stored, batch: ChangeBatch | null): Promise<boolean>;
  close(): Promise<void>;
}

export interface BusOptions {
  /** How long a lease lives without renewal: the longest a takeover waits (SUBSCRIPTION_LEASE_SECONDS). */
  leaseMs: number;
  log: Logger;
}

/** One process: leases always held, batches delivered in order on the next tick. */
export function memoryBus(): Bus {
  const listeners: ((b: ChangeBatch) => void)[] = [];
  const states = new Map<string, Stored>();
  const deliver = (batch: ChangeBatch) => {
    // A copy, as Redis would give: no listener shares the publisher's objects.
    const copy = JSON.parse(JSON.stringify(batch)) as ChangeBatch;
    queueMicrotask(() => listeners.forEach((fn) => fn(copy)));
  };
  return {
    instance: randomUUID().slice(0, 8),
    publish: async (batch) => deliver(batch),
    listen: (fn) => void listeners.push(fn),
    lease: () => ({ token: 'local', held: true, acquire: async () => true, release: async () => {} }),
    load: async (source) => states.get(source) ?? null,
    async commit(source, _lease, stored, batch) {
      states.set(source, stored);
      if (batch) deliver(batch);
      return true;
    },
    close: async () => {
      listeners.length = 0;
    },
  };
}

/** GET-compare-then-act, so only the holder renews or releases. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
/** The fenced commit: KEYS lease, state, channel; ARGV token, state JSON, state TTL ms, batch JSON (or ''). */
const COMMIT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
if ARGV[4] ~= '' then redis.call('PUBLISH', KEYS[3], ARGV[4]) end
return 1
`;

/** A stored state outlives a day without polls; older states are ignored anyway (poller.ts). */
const STATE_TTL_MS = 24 * 3600_000;

export function redisBus(redis: SharedRedis, options: BusOptions): Bus {
  const instance = randomUUID().slice(0, 8);
  const key = (...parts: string[]) => redis.key('subs', ...parts);
  const channel = key('changes');
  const listeners: ((b: ChangeBatch) => void)[] = [];
  let warned = false;
  // Pub/sub needs a connection of its own; ioredis subscribes again after each reconnection.
  const sub: Redis = redis.client.duplicate({ enableOfflineQueue: true, lazyConnect: false });
  sub.on('error', () => {});
  sub.on('message', (ch: string, text: string) => {
    if (ch !== channel) return;
    let batch: ChangeBatch;
    try {
      batch = JSON.parse(text) as ChangeBatch;
    } catch {
      return;
    }
    for (const fn of listeners) fn(batch);
  });
  void sub
    .subscribe(channel)
    .catch((err: unknown) =>
      options.log.warn(
        { err: (err as Error).message },
        'subscriptions: cannot subscribe to the Redis channel; retrying on reconnection',
      ),
    );
  const local = (batch: ChangeBatch) =>
    queueMicrotask(() => listeners.forEach((fn) => fn(JSON.parse(JSON.stringify(batch)) as ChangeBatch)));

  return {
    instance,
    async publish(batch) {
      try {
        if (!redis.up) throw new Error('Redis is away');
        await redis.client.publish(channel, JSON.stringify(batch));
        warned = false;
      } catch (err) {
        if (!warned)
          options.log.warn(
            { err: (err as Error).message },
            "subscriptions: a change could not be published through Redis; this instance's subscribers get it, the others' do not",
          );
        warned = true;
        local(batch);
      }
    },
    listen: (fn) => void listeners.push(fn),
    lease(source) {
      const leaseKey = key('lease', source);
      const token = `${instance}:${randomUUID()}`;
      let held = false;
      return {
        token,
        get held() {
          return held;
        },
        async acquire() {
          try {
            if (held && Number(await redis.client.eval(RENEW, 1, leaseKey, token, String(options.leaseMs))) === 1)
              return true;
            held = (await redis.client.set(leaseKey, token, 'PX', options.leaseMs, 'NX')) === 'OK';
          } catch {
            held = false;
          }
          return held;
        },
        async release() {
          if (!held) return;
          held = false;
          await redis.client.eval(RELEASE, 1, leaseKey, token).catch(() => {});
        },
      };
    },
    async load(source) {
      try {
        const text = await redis.client.get(key('state', source));
        return text ? (JSON.parse(text) as Stored) : null;
      } catch {
        return null;
      }
    },
    async commit(source, lease, stored, batch) {
      try {
        const ok = await redis.client.eval(
          COMMIT,
          3,
          key('lease', source),
          key('state', source),
          channel,
          lease.token,
          JSON.stringify(stored),
          String(STATE_TTL_MS),
          batch ? JSON.stringify(batch) : '',
        );
        return Number(ok) === 1;
      } catch {
        return false;
      }
    },
    async close() {
      listeners.length = 0;
      sub.disconnect(false);
    },
  };
}
