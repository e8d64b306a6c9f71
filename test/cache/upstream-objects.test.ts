/**
 * The upstream GET cache keeps parsed answers in memory (issue 19: a partial
 * hit does not parse again), frozen so no consumer can change them for
 * another, and JSON text in a store that holds bytes (Redis).
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore, type CacheStore, type StoredRead, type StoredValue } from '../../src/cache/store.ts';
import { UpstreamCache } from '../../src/cache/upstream-cache.ts';
import type { UpstreamRequest, UpstreamResponse } from '../../src/upstream/client.ts';

const req: UpstreamRequest = {
  method: 'GET',
  path: '/calendar/events/v1/events',
  query: { page: 1, per_page: 20 },
  route: 'GET /calendar/events/v1/events',
};
const answer = (): UpstreamResponse<{ events: { id: number; venue: { venue: string } }[] }> => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: { events: [{ id: 1, venue: { venue: 'Hall' } }] },
  size: 60,
});

/** A store that holds text, as Redis does: what it was given is kept to look at. */
class TextStore implements CacheStore {
  readonly up = true;
  readonly keepsObjects = false;
  readonly written = new Map<string, StoredValue>();
  async read(_family: string, key: string): Promise<StoredRead> {
    return { generation: '0', value: this.written.get(key) };
  }
  async write(key: string, value: StoredValue): Promise<void> {
    this.written.set(key, value);
  }
  async bump(): Promise<void> {}
  async close(): Promise<void> {}
}

async function saveAndHit(cache: UpstreamCache, res: UpstreamResponse<unknown>) {
  const miss = await cache.lookup('anonymous', req);
  if (miss.kind !== 'miss') throw new Error(`expected a miss, got ${miss.kind}`);
  expect(await cache.save(miss.slot, res)).toBeGreaterThan(0);
  const hit = await cache.lookup('anonymous', req);
  if (hit.kind !== 'hit') throw new Error(`expected a hit, got ${hit.kind}`);
  return hit.response;
}

describe('the upstream cache in memory', () => {
  it('hands out the parsed answer itself on a hit, frozen, so no consumer can change it for another', async () => {
    const cache = new UpstreamCache(new MemoryStore(1_000_000), { ttlMs: 60_000, maxEntryBytes: 1_000_000 });
    const res = answer();
    const hit = (await saveAndHit(cache, res)) as ReturnType<typeof answer>;
    // Not parsed again: the very objects the client parsed (and the first operation used).
    expect(hit.body).toBe(res.body);
    expect(Object.isFrozen(hit.body.events[0]!.venue)).toBe(true);
    expect(() => {
      (hit.body.events[0]!.venue as { venue: string }).venue = 'changed';
    }).toThrow(TypeError);
    expect(() => hit.body.events.push({ id: 2, venue: { venue: 'x' } })).toThrow(TypeError);
    const again = (await cache.lookup('anonymous', req)) as { response: ReturnType<typeof answer> };
    expect(again.response.body.events).toEqual([{ id: 1, venue: { venue: 'Hall' } }]);
  });

  it('counts an entry by the bytes the client read, and drops the oldest past its bound', async () => {
    const store = new MemoryStore(100);
    const cache = new UpstreamCache(store, { ttlMs: 60_000, maxEntryBytes: 1_000 });
    await saveAndHit(cache, { ...answer(), size: 60 });
    const other: UpstreamRequest = { ...req, query: { page: 2, per_page: 20 } };
    const miss = await cache.lookup('anonymous', other);
    if (miss.kind !== 'miss') throw new Error('expected a miss');
    await cache.save(miss.slot, { ...answer(), size: 60 });
    // 120 bytes > 100: the first page went.
    expect((await cache.lookup('anonymous', req)).kind).toBe('miss');
    expect((await cache.lookup('anonymous', other)).kind).toBe('hit');
  });

  it('stores nothing larger than its entry bound', async () => {
    const cache = new UpstreamCache(new MemoryStore(1_000_000), { ttlMs: 60_000, maxEntryBytes: 50 });
    const miss = await cache.lookup('anonymous', req);
    if (miss.kind !== 'miss') throw new Error('expected a miss');
    expect(await cache.save(miss.slot, { ...answer(), size: 51 })).toBe(0);
    expect((await cache.lookup('anonymous', req)).kind).toBe('miss');
  });
});

describe('the upstream cache in a store of bytes', () => {
  it('writes JSON text and parses each hit into objects of its own', async () => {
    const store = new TextStore();
    const cache = new UpstreamCache(store, { ttlMs: 60_000, maxEntryBytes: 1_000_000 });
    const res = answer();
    const hit = (await saveAndHit(cache, res)) as ReturnType<typeof answer>;
    expect([...store.written.values()].every((v) => typeof v === 'string')).toBe(true);
    expect(hit.body).toEqual(res.body);
    expect(hit.body).not.toBe(res.body);
    expect(Object.isFrozen(res.body)).toBe(false);
  });
});
