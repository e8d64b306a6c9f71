import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, fetchWindow } from '../../src/loaders/window.ts';
import type { ListPage } from '../../src/upstream/paging.ts';

/** A fake paged list of `total` numbered items that records the pages asked for. */
function list(total: number) {
  const asked: [number, number][] = [];
  const fetch = async (page: number, perPage: number): Promise<ListPage> => {
    asked.push([page, perPage]);
    const start = (page - 1) * perPage;
    return { items: Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, i) => start + i), total };
  };
  return { fetch, asked };
}
const limits = { maxPageSize: 500, defaultPageSize: 10 };

describe('fetchWindow', () => {
  it('reads a window that fits one page in one request, with the smallest fitting page size', async () => {
    const l = list(1000);
    const w = await fetchWindow(l.fetch, { first: 20 }, limits, 100);
    expect(w.items).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(l.asked).toEqual([[1, 20]]);
    const l2 = list(1000);
    const w2 = await fetchWindow(l2.fetch, { first: 20, after: encodeCursor(14) }, limits, 100);
    expect(w2.items[0]).toBe(15);
    expect(l2.asked).toHaveLength(1);
    const [page, per] = l2.asked[0]!;
    expect((page - 1) * per).toBeLessThanOrEqual(15);
    expect(page * per).toBeGreaterThanOrEqual(35);
  });

  it('reads a large window as every page it spans, all sent at once', async () => {
    const l = list(1000);
    let inFlight = 0;
    let most = 0;
    const fetch = async (page: number, perPage: number) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      return l.fetch(page, perPage);
    };
    const w = await fetchWindow(fetch, { first: 250 }, limits, 100);
    expect(w.items).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(l.asked).toEqual([[1, 100], [2, 100], [3, 100]]);
    expect(most).toBe(3);
    expect(w).toMatchObject({ total: 1000, hasNextPage: true, hasPreviousPage: false });
  });

  it('keeps the total and hasNextPage right when the window runs past the end (pages past it are empty, with no total)', async () => {
    const asked: number[] = [];
    // As the sites answer: a page past the end is "page not found", which the fetchers read as an empty page without a total.
    const fetch = async (page: number, perPage: number): Promise<ListPage> => {
      asked.push(page);
      const start = (page - 1) * perPage;
      if (page > 1 && start >= 130) return { items: [], total: null };
      return { items: Array.from({ length: Math.max(0, Math.min(perPage, 130 - start)) }, (_, i) => start + i), total: 130 };
    };
    const w = await fetchWindow(fetch, { first: 300 }, limits, 50);
    expect(w.items).toHaveLength(130);
    expect(w).toMatchObject({ total: 130, hasNextPage: false });
    expect(asked.sort()).toEqual([1, 2, 3, 4, 5, 6]);
    asked.length = 0;
    // Only the last pages of the window hold items: the total still comes from them.
    const tail = await fetchWindow(fetch, { first: 100, after: encodeCursor(109) }, limits, 50);
    expect(tail.items).toEqual(Array.from({ length: 20 }, (_, i) => 110 + i));
    expect(tail).toMatchObject({ offset: 110, total: 130, hasNextPage: false, hasPreviousPage: true });
    // Entirely past the end: nothing, and no total to tell.
    const past = await fetchWindow(fetch, { first: 100, after: encodeCursor(199) }, limits, 50);
    expect(past).toMatchObject({ items: [], total: null, hasNextPage: false });
  });

  it('resolves last without before through the total', async () => {
    const l = list(42);
    const w = await fetchWindow(l.fetch, { last: 5 }, limits, 100);
    expect(w.items).toEqual([37, 38, 39, 40, 41]);
    expect(w).toMatchObject({ offset: 37, hasPreviousPage: true, hasNextPage: false });
  });

  it('answers first: 0 with the total only', async () => {
    const l = list(42);
    const w = await fetchWindow(l.fetch, { first: 0 }, limits, 100);
    expect(w).toMatchObject({ items: [], total: 42 });
  });

  it('refuses bad arguments clearly', async () => {
    const l = list(10);
    await expect(fetchWindow(l.fetch, { first: 501 }, limits, 100)).rejects.toThrow(/first must be at most 500/);
    await expect(fetchWindow(l.fetch, { first: -1 }, limits, 100)).rejects.toThrow(/non-negative/);
    await expect(fetchWindow(l.fetch, { first: 1, last: 1 }, limits, 100)).rejects.toThrow(/not both/);
    await expect(fetchWindow(l.fetch, { after: 'bm9wZQ==' }, limits, 100)).rejects.toThrow(/not a cursor/);
    expect(l.asked).toEqual([]);
  });

  it('round-trips cursors', () => {
    expect(decodeCursor(encodeCursor(123), 'after')).toBe(123);
  });
});
