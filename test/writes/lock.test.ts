/**
 * Write locks (src/store/lock.ts): in process, and across processes through
 * a real redis-server (test/helpers/redis.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type SharedRedis } from '../../src/store/redis.ts';
import { createWriteLocks, LocalLocks, lockKey } from '../../src/store/lock.ts';
import { Redis } from 'ioredis';
import { startTestRedis, type TestRedis } from '../helpers/redis.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const SITE = 'http://site.test/wp-json/';

async function ready(r: SharedRedis): Promise<void> {
  for (let i = 0; i < 100 && !r.up; i += 1) await sleep(20);
  expect(r.up).toBe(true);
}

describe('in process', () => {
  it('one holder per key, first come first served; a waiter that runs out of time leaves the queue', async () => {
    const l = new LocalLocks();
    expect(await l.take('a', 0)).toBe(true);
    const order: string[] = [];
    const b = l.take('a', 1_000).then((ok) => order.push(`b ${ok}`));
    const c = l.take('a', 10).then((ok) => order.push(`c ${ok}`));
    const d = l.take('a', 1_000).then((ok) => order.push(`d ${ok}`));
    await sleep(30);
    expect(order).toEqual(['c false']);
    l.give('a');
    await b;
    l.give('a');
    await d;
    l.give('a');
    expect(order).toEqual(['c false', 'b true', 'd true']);
    expect(l.size).toBe(0);
  });

  it('acquire: keys in sorted order; a key held past the wait fails with reason busy, the others are held', async () => {
    const locks = createWriteLocks({ leaseMs: 10_000, waitMs: 50 });
    const first = await locks.acquire(['k2']);
    const second = await locks.acquire(['k3', 'k2', 'k1']);
    expect(second.failed).toEqual([expect.objectContaining({ key: 'k2', reason: 'busy' })]);
    await first.release();
    const third = await locks.acquire(['k1']);
    expect(third.failed.map((f) => f.key)).toEqual(['k1']);
    await second.release();
    await third.release();
    expect((await locks.acquire(['k1', 'k2', 'k3'])).failed).toEqual([]);
  });

  it('keys name the kind and the ID', () => {
    expect(lockKey('events', 5)).toBe('events:5');
  });
});

describe('across processes (Redis)', () => {
  let redis: TestRedis;
  let a: SharedRedis;
  let b: SharedRedis;
  beforeAll(async () => {
    redis = await startTestRedis();
    a = connectRedis(redis.url, { site: SITE });
    b = connectRedis(redis.url, { site: SITE });
    await ready(a);
    await ready(b);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await redis.stop();
  });

  it('two gateways (each its own in-process locks) never hold one key at once; the second gets it once the first releases', async () => {
    const one = createWriteLocks({ leaseMs: 10_000, waitMs: 2_000 }, a);
    const two = createWriteLocks({ leaseMs: 10_000, waitMs: 2_000 }, b);
    const held = await one.acquire(['x']);
    expect(held.failed).toEqual([]);
    let got = false;
    const waiting = two.acquire(['x']).then((h) => {
      got = true;
      return h;
    });
    await sleep(100);
    expect(got).toBe(false);
    await held.release();
    const h2 = await waiting;
    expect(h2.failed).toEqual([]);
    await h2.release();
  });

  it("the wait is bounded: busy past it fails; a lease that ran out frees the key, and its former holder cannot delete the new holder's lock", async () => {
    const one = createWriteLocks({ leaseMs: 1_000, waitMs: 100 }, a);
    const two = createWriteLocks({ leaseMs: 10_000, waitMs: 100 }, b);
    const held = await one.acquire(['y']);
    const refused = await two.acquire(['y']);
    expect(refused.failed).toEqual([expect.objectContaining({ key: 'y', reason: 'busy' })]);
    await sleep(1_100);
    const taken = await two.acquire(['y']);
    expect(taken.failed).toEqual([]);
    // The first holder's release deletes nothing: the key holds the second's token.
    await held.release();
    const third = await createWriteLocks({ leaseMs: 10_000, waitMs: 50 }, a).acquire(['y']);
    expect(third.failed.map((f) => f.reason)).toEqual(['busy']);
    await taken.release();
  });

  it('the key is scoped by the site: a gateway of another site on the same Redis takes the same object key at once', async () => {
    const other = connectRedis(redis.url, { site: 'http://other.test/wp-json/' });
    await ready(other);
    const mine = await createWriteLocks({ leaseMs: 10_000, waitMs: 50 }, a).acquire(['events:1']);
    const theirs = await createWriteLocks({ leaseMs: 10_000, waitMs: 50 }, other).acquire(['events:1']);
    expect([mine.failed, theirs.failed]).toEqual([[], []]);
    const c = new Redis(redis.port, '127.0.0.1');
    expect((await c.keys('*write-lock*')).sort()).toEqual(
      [a.key('write-lock', 'events:1'), other.key('write-lock', 'events:1')].sort(),
    );
    c.disconnect();
    await mine.release();
    await theirs.release();
    await other.close();
  });

  it('Redis away: the lock cannot be had, and says why (reason store) after the wait', async () => {
    const gone = connectRedis('redis://127.0.0.1:1', { site: SITE });
    const locks = createWriteLocks({ leaseMs: 10_000, waitMs: 150 }, gone);
    const started = Date.now();
    const h = await locks.acquire(['z']);
    expect(h.failed).toEqual([expect.objectContaining({ key: 'z', reason: 'store' })]);
    expect(Date.now() - started).toBeLessThan(2_000);
    await gone.close();
  });
});
