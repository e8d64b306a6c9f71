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

  it('reads a large window as the first page, then the rest in parallel, stopping at the total', async () => {
    const l = list(230);
    const w = await fetchWindow(l.fetch, { first: 300 }, limits, 100);
    expect(w.items).toHaveLength(230);
    expect(l.asked).toEqual([[1, 100], [2, 100], [3, 100]]);
    expect(w.hasNextPage).toBe(false);
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
