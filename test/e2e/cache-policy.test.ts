/**
 * The cache's rules on their own (src/cache/policy.ts): how long a site answer
 * may be kept, and which families a write makes stale. The end-to-end
 * behaviour is in cache.test.ts and redis.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  ALL_FAMILIES,
  carriesSecret,
  familiesWrittenBy,
  familyOf,
  freshnessMs,
  isWrite,
  staleGraceMs,
} from '../../src/cache/policy.ts';
import { cacheControlFor } from '../../src/cache/response.ts';
import { MemoryStore } from '../../src/cache/store.ts';

describe('freshnessMs', () => {
  const T = 60_000;
  const now = Date.parse('2030-01-01T00:00:00Z');
  it.each([
    [{}, true, T],
    [{ 'cache-control': 'max-age=5' }, true, 5_000],
    [{ 'cache-control': 'max-age=500' }, true, T],
    [{ 'cache-control': 'public, max-age=20', age: '15' }, true, 5_000],
    [{ 'cache-control': 'max-age=20, s-maxage=2' }, true, 2_000],
    [{ 'cache-control': 'max-age=20, s-maxage=2' }, false, 20_000],
    [{ 'cache-control': 'no-store' }, false, 0],
    [{ 'cache-control': 'no-cache, must-revalidate, max-age=0' }, false, 0],
    [{ 'cache-control': 'private, max-age=30' }, true, 0],
    [{ 'cache-control': 'private, max-age=30' }, false, 30_000],
    [{ 'cache-control': 'max-age=abc' }, true, 0],
    [{ expires: 'Wed, 11 Jan 1984 05:00:00 GMT' }, true, 0],
    [{ expires: '0' }, true, 0],
    [{ expires: 'Tue, 01 Jan 2030 00:00:30 GMT', date: 'Tue, 01 Jan 2030 00:00:00 GMT' }, true, 30_000],
    [{ expires: 'Tue, 01 Jan 2030 00:00:30 GMT' }, true, 30_000],
  ] as [Record<string, string>, boolean, number][])('%j shared=%s -> %i ms', (headers, shared, ms) => {
    expect(freshnessMs(headers, shared, T, now)).toBe(ms);
  });
  it('a TTL of 0 keeps nothing', () => expect(freshnessMs({ 'cache-control': 'max-age=60' }, true, 0)).toBe(0));
});

describe('staleGraceMs (stale-while-revalidate, RFC 5861)', () => {
  const G = 30_000;
  it.each([
    [{}, true, G],
    [{ 'cache-control': 'max-age=10' }, true, G],
    [{ 'cache-control': 'max-age=10, stale-while-revalidate=5' }, true, 5_000],
    [{ 'cache-control': 'max-age=10, stale-while-revalidate=600' }, true, G],
    [{ 'cache-control': 'max-age=10, stale-while-revalidate=x' }, true, 0],
    [{ 'cache-control': 'max-age=10, must-revalidate' }, false, 0],
    [{ 'cache-control': 'no-cache' }, false, 0],
    [{ 'cache-control': 'max-age=10, proxy-revalidate' }, true, 0],
    [{ 'cache-control': 'max-age=10, proxy-revalidate' }, false, G],
    [{ 'cache-control': 's-maxage=10' }, true, 0],
    [{ 'cache-control': 's-maxage=10' }, false, G],
  ] as [Record<string, string>, boolean, number][])('%j shared=%s -> %i ms', (headers, shared, ms) => {
    expect(staleGraceMs(headers, shared, G)).toBe(ms);
  });
  it('is off with no configured grace, whatever the site says', () => {
    expect(staleGraceMs({ 'cache-control': 'stale-while-revalidate=60' }, true, 0)).toBe(0);
  });
});

describe('families', () => {
  it('files reads by namespace', () => {
    expect(familyOf('/calendar-core/v1/events')).toBe('calendar');
    expect(familyOf('/calendar/events/v1/venues/3')).toBe('calendar');
    expect(familyOf('/core/v2/posts')).toBe('content');
    expect(familyOf('/seo/v1/redirects')).toBe('seo');
    expect(familyOf('/')).toBe('other');
  });
  it('a write bumps its own family and the derived ones, not the unrelated ones', () => {
    const ev = familiesWrittenBy({ path: '/calendar-core/v1/events/3' });
    expect(ev).toEqual(expect.arrayContaining(['calendar', 'seo', 'facet', 'governance', 'audit', 'other']));
    expect(ev).not.toContain('content');
    expect(familiesWrittenBy({ path: '/core/v2/posts' })).not.toContain('calendar');
    expect(familiesWrittenBy({ path: '/seo/v1/redirects' })).not.toContain('calendar');
  });
  it('a batch bumps its items’ families; unreadable items, duplicate-post and unknown paths bump everything', () => {
    const b = familiesWrittenBy({
      path: '/batch/v1',
      body: { requests: [{ path: '/core/v2/posts' }, { path: '/calendar-core/v1/venues?x=1' }] },
    });
    expect(b).toEqual(expect.arrayContaining(['calendar', 'content']));
    expect(familiesWrittenBy({ path: '/batch/v1', body: { requests: [{}] } }).sort()).toEqual([...ALL_FAMILIES].sort());
    expect(familiesWrittenBy({ path: '/batch/v1', body: null }).sort()).toEqual([...ALL_FAMILIES].sort());
    expect(familiesWrittenBy({ path: '/duplicate-post/v1/original/3' }).sort()).toEqual([...ALL_FAMILIES].sort());
  });
  it('reading POSTs are not writes', () => {
    expect(isWrite({ method: 'POST', path: '/facet/v1/fetch' })).toBe(false);
    expect(isWrite({ method: 'POST', path: '/facet/v1/refresh' })).toBe(true);
    expect(isWrite({ method: 'DELETE', path: '/core/v2/posts/1' })).toBe(true);
    expect(isWrite({ method: 'GET', path: '/core/v2/posts' })).toBe(false);
  });
  it('secrets in a query keep a GET out of the cache', () => {
    expect(carriesSecret({ query: { access_token: 't' } })).toBe(true);
    expect(carriesSecret({ query: { api_key: 'k', site_id: 1 } })).toBe(true);
    expect(carriesSecret({ query: { per_page: 10, access_token: undefined } })).toBe(false);
  });
});

describe('cacheControlFor', () => {
  const base = {
    mutation: false,
    errors: false,
    credential: false,
    hint: { maxAgeMs: 8_500, private: false },
    ttlMs: 10_000,
  };
  it.each([
    [{}, 'public, max-age=8'],
    [{ hint: { maxAgeMs: null, private: false } }, 'public, max-age=10'],
    [{ credential: true }, 'private, max-age=8'],
    [{ hint: { maxAgeMs: 8_500, private: true } }, 'private, max-age=8'],
    [{ hint: { maxAgeMs: 900, private: false } }, 'no-store'],
    [{ mutation: true }, 'no-store'],
    [{ errors: true }, 'no-store'],
    [{ hint: undefined }, 'no-store'],
  ] as [Partial<typeof base>, string][])('%j -> %s', (over, expected) => {
    expect(cacheControlFor({ ...base, ...over })).toBe(expected);
  });
});

describe('MemoryStore', () => {
  it('drops the oldest entries past its size, and entries past their TTL', async () => {
    const m = new MemoryStore(10);
    await m.write('a', '12345', 60_000);
    await m.write('b', '12345', 60_000);
    expect((await m.read('f', 'a')).value).toBe('12345');
    await m.write('c', '123', 60_000);
    expect((await m.read('f', 'a')).value).toBeUndefined();
    expect((await m.read('f', 'b')).value).toBe('12345');
    await m.write('big', 'x'.repeat(11), 60_000);
    expect((await m.read('f', 'big')).value).toBeUndefined();
    await m.write('short', '1', 1);
    await new Promise((r) => setTimeout(r, 5));
    expect((await m.read('f', 'short')).value).toBeUndefined();
  });
  it('bumps generations per family', async () => {
    const m = new MemoryStore(100);
    expect((await m.read('calendar', 'k')).generation).toBe('0');
    await m.bump(['calendar']);
    expect((await m.read('calendar', 'k')).generation).toBe('1');
    expect((await m.read('content', 'k')).generation).toBe('0');
  });
});
