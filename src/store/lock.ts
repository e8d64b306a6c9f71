/**
 * Write locks: the read-merge-write of one object (an update reads the stored
 * state, sends a payload completed from it, verifies and repairs) is
 * serialized, so two updates of the same object at the same moment cannot
 * each send a state the other has not seen (docs/writes.md "Serialization").
 *
 * - Within a process: an async mutex per key, first come first served.
 * - Across processes, when REDIS_URL is set: `SET key token NX PX lease` on
 *   the gateway's one Redis connection (store/redis.ts), released with a
 *   compare-and-delete script, so a lock whose lease ran out and was taken by
 *   another process is never deleted by its former holder. The Redis key is
 *   scoped by the site (`<prefix><site hash>:write-lock:<kind>:<id>`,
 *   store/keys.ts), so gateways of different sites sharing a Redis never
 *   wait on each other.
 *
 * A key names the kind and the object's ID (a gateway serves one site). Acquiring
 * waits at most `waitMs` in all (backing off between Redis attempts); a lock
 * that cannot be had by then is a `WRITE_LOCK_TIMEOUT` for that item, and
 * nothing of it is sent. With REDIS_URL set and Redis away, the lock cannot
 * be had either: writes wait for it and then fail, rather than risk a lost
 * update between instances.
 */
import { randomBytes } from 'node:crypto';
import type { SharedRedis } from './redis.ts';

export interface LockSettings {
  /** How long a Redis lock lives if its holder never releases it (a crash): WRITE_LOCK_LEASE_MS. */
  leaseMs: number;
  /** The longest an update waits for the lock of its object: WRITE_LOCK_WAIT_MS. */
  waitMs: number;
}

export const DEFAULT_LOCK_SETTINGS: LockSettings = { leaseMs: 30_000, waitMs: 5_000 };

/** Why a lock was not had: the wait ran out behind another holder, or the shared store could not be reached. */
export interface LockFailure {
  key: string;
  reason: 'busy' | 'store';
  waitedMs: number;
}

export interface HeldLocks {
  /** The keys that could not be locked (their writes must not be sent). */
  failed: LockFailure[];
  release(): Promise<void>;
}

export interface WriteLocks {
  /**
   * Locks every key (in sorted order, so two writers of overlapping sets never
   * wait on each other in a circle), each within what is left of `waitMs`.
   * Keys that could not be had are in `failed`; the others are held until `release`.
   */
  acquire(keys: readonly string[]): Promise<HeldLocks>;
}

/** The lock key of one object of the gateway's site: the kind, the ID. */
export function lockKey(kind: string, id: number): string {
  return `${kind}:${id}`;
}

// ---------------------------------------------------------------------------
// Within a process

interface Waiter {
  grant: () => void;
}

/** One FIFO mutex per key; a key with no holder and no waiter is forgotten. */
export class LocalLocks {
  readonly #held = new Map<string, Waiter[]>();

  /** Resolves true once held, false when `waitMs` passed first (the waiter then leaves the queue). */
  take(key: string, waitMs: number): Promise<boolean> {
    const queue = this.#held.get(key);
    if (!queue) {
      this.#held.set(key, []);
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(
        () => {
          const i = queue.indexOf(waiter);
          if (i >= 0) queue.splice(i, 1);
          resolve(false);
        },
        Math.max(0, waitMs),
      );
      queue.push(waiter);
    });
  }

  give(key: string): void {
    const queue = this.#held.get(key);
    if (!queue) return;
    const next = queue.shift();
    if (next) next.grant();
    else this.#held.delete(key);
  }

  /** Keys held now (tests). */
  get size(): number {
    return this.#held.size;
  }
}

// ---------------------------------------------------------------------------
// Across processes (Redis)

/**
 * Deletes the key only if it still holds our token: a lease that ran out and was taken by another is not ours to free.
 */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** Backoff between attempts on a busy key: 5 ms doubling to 100 ms, with jitter so waiters do not retry in step. */
function backoff(attempt: number): number {
  const base = Math.min(100, 5 * 2 ** Math.min(attempt, 5));
  return base / 2 + Math.random() * base;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

class RedisLocks {
  constructor(
    private readonly redis: SharedRedis,
    private readonly leaseMs: number,
  ) {}

  /** The token the lock is held with, or why it was not had by `until`. */
  async take(key: string, until: number): Promise<{ token: string } | { reason: 'busy' | 'store' }> {
    const token = randomBytes(12).toString('hex');
    let reason: 'busy' | 'store' = 'busy';
    for (let attempt = 0; ; attempt += 1) {
      try {
        const ok = await this.redis.client.set(this.redis.key('write-lock', key), token, 'PX', this.leaseMs, 'NX');
        if (ok === 'OK') return { token };
        reason = 'busy';
      } catch {
        // Redis away or slow: nothing was locked; try again while the wait lasts.
        reason = 'store';
      }
      const pause = backoff(attempt);
      if (Date.now() + pause >= until) return { reason };
      await sleep(pause);
    }
  }

  async give(key: string, token: string): Promise<void> {
    try {
      await this.redis.client.eval(RELEASE, 1, this.redis.key('write-lock', key), token);
    } catch {
      // Not released (Redis away): the lease ends it.
    }
  }
}

/**
 * A gateway's write locks: in-process always, and through Redis too when the
 * gateway has a Redis connection.
 */
export function createWriteLocks(settings: LockSettings = DEFAULT_LOCK_SETTINGS, redis?: SharedRedis): WriteLocks {
  const local = new LocalLocks();
  const shared = redis ? new RedisLocks(redis, settings.leaseMs) : null;
  return {
    async acquire(keys) {
      const started = Date.now();
      const until = started + settings.waitMs;
      const held: { key: string; token: string | null }[] = [];
      const failed: LockFailure[] = [];
      for (const key of [...new Set(keys)].sort()) {
        if (!(await local.take(key, until - Date.now()))) {
          failed.push({ key, reason: 'busy', waitedMs: Date.now() - started });
          continue;
        }
        if (!shared) {
          held.push({ key, token: null });
          continue;
        }
        const got = await shared.take(key, until);
        if ('token' in got) held.push({ key, token: got.token });
        else {
          local.give(key);
          failed.push({ key, reason: got.reason, waitedMs: Date.now() - started });
        }
      }
      let released = false;
      return {
        failed,
        async release() {
          if (released) return;
          released = true;
          await Promise.all(
            held.map(async (h) => {
              if (shared && h.token) await shared.give(h.key, h.token);
              local.give(h.key);
            }),
          );
        },
      };
    },
  };
}
