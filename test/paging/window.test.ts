import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, fetchWindow, readAll } from '../../src/paging/window.ts';
import { TotalHints } from '../../src/paging/hints.ts';
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
    expect(l.asked).toEqual([
      [1, 100],
      [2, 100],
      [3, 100],
    ]);
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
      return {
        items: Array.from({ length: Math.max(0, Math.min(perPage, 130 - start)) }, (_, i) => start + i),
        total: 130,
      };
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
    expect(decodeCursor(encodeCursor(123), 'after')).toEqual({ offset: 123, id: null, key: null });
    const scope = { list: 'L1', id: (x: Item) => x.id, key: (x: Item) => x.key };
    const c = encodeCursor(7, scope, { id: 42, key: '2027-01-01T00:00:00Z' });
    expect(decodeCursor(c, 'after', 'L1')).toEqual({ offset: 7, id: 42, key: '2027-01-01T00:00:00Z' });
  });

  it('refuses a cursor of another list, naming the argument', () => {
    const c = encodeCursor(7, { list: 'L1', id: (x: Item) => x.id }, { id: 42, key: 'k' });
    expect(() => decodeCursor(c, 'after', 'L2')).toThrow(/after: this cursor belongs to another list/);
  });
});

interface Item {
  id: number;
  key: string;
}

/** A list sorted by key then ID that changes between requests. */
function live(n: number) {
  const items: Item[] = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    key: `k${String(i * 10).padStart(6, '0')}`,
  }));
  const sorted = () => [...items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id));
  let next = n + 1;
  const fetch = async (page: number, perPage: number): Promise<ListPage> => {
    const all = sorted();
    return { items: all.slice((page - 1) * perPage, page * perPage), total: all.length };
  };
  return {
    fetch,
    items,
    insertBefore: (key: string) => items.push({ id: next++, key }),
    remove: (id: number) =>
      items.splice(
        items.findIndex((x) => x.id === id),
        1,
      ),
  };
}

describe('keyset cursors: a list that changes during a walk', () => {
  const scope = { list: 'L', id: (x: unknown) => (x as Item).id, key: (x: unknown) => (x as Item).key };

  async function walk(
    l: ReturnType<typeof live>,
    per: number,
    between: (page: number, seen: Item[]) => void,
  ): Promise<Item[]> {
    const seen: Item[] = [];
    let after: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const w = await fetchWindow<Item>(
        l.fetch,
        { first: per, ...(after ? { after } : {}) },
        limits,
        50,
        undefined,
        scope,
      );
      seen.push(...w.items);
      if (!w.hasNextPage || !w.items.length) break;
      after = encodeCursor(w.offset + w.items.length - 1, scope as never, w.items[w.items.length - 1]);
      between(page, seen);
    }
    return seen;
  }

  it('neither repeats nor skips an item when items are added and removed before the cursor', async () => {
    const l = live(200);
    const original = new Set(l.items.map((x) => x.id));
    const removed = new Set<number>();
    const seen = await walk(l, 20, (page, seenSoFar) => {
      // Three new items before everything, and one already-seen item removed, every page.
      for (let i = 0; i < 3; i++) l.insertBefore(`a${page}-${i}`);
      const gone = seenSoFar[page]!.id;
      l.remove(gone);
      removed.add(gone);
    });
    const ids = seen.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of original) expect(ids, `item ${id}`).toContain(id);
  });

  it('resumes after a cursor whose item was deleted, by its key', async () => {
    const l = live(100);
    const first = await fetchWindow<Item>(l.fetch, { first: 10 }, limits, 50, undefined, scope);
    const cursor = encodeCursor(9, scope as never, first.items[9]);
    l.remove(first.items[9]!.id);
    l.remove(first.items[8]!.id);
    const next = await fetchWindow<Item>(l.fetch, { first: 10, after: cursor }, limits, 50, undefined, scope);
    expect(next.items.map((x) => x.id)).toEqual(Array.from({ length: 10 }, (_, i) => i + 11));
  });

  it('finds an item that moved further than the margin', async () => {
    const l = live(100);
    const first = await fetchWindow<Item>(l.fetch, { first: 10 }, limits, 50, undefined, scope);
    const cursor = encodeCursor(9, scope as never, first.items[9]);
    for (let i = 0; i < 70; i++) l.insertBefore(`a${String(i).padStart(3, '0')}`);
    const next = await fetchWindow<Item>(l.fetch, { first: 5, after: cursor }, limits, 50, undefined, scope);
    expect(next.items.map((x) => x.id)).toEqual([11, 12, 13, 14, 15]);
    expect(next.offset).toBe(80);
  });

  it('pages backwards with last/before the same way', async () => {
    const l = live(100);
    const w = await fetchWindow<Item>(
      l.fetch,
      { first: 10, after: encodeCursor(49, scope as never, { id: 50, key: l.items[49]!.key }) },
      limits,
      50,
      undefined,
      scope,
    );
    const before = encodeCursor(w.offset, scope as never, w.items[0]);
    for (let i = 0; i < 5; i++) l.insertBefore(`a${i}`);
    const back = await fetchWindow<Item>(l.fetch, { last: 5, before }, limits, 50, undefined, scope);
    expect(back.items.map((x) => x.id)).toEqual([46, 47, 48, 49, 50]);
  });
});

/** As the sites answer: pages past the end are "page not found", read as empty pages without a total. */
function siteList(length: () => number) {
  const asked: number[][] = [];
  let round: number[] = [];
  const fetch = async (page: number, perPage: number): Promise<ListPage> => {
    round.push(page);
    // A round trip ends when the requests sent together have been answered.
    await Promise.resolve();
    if (round.length) {
      asked.push(round);
      round = [];
    }
    const n = length();
    const start = (page - 1) * perPage;
    if (page > 1 && start >= n) return { items: [], total: null };
    return { items: Array.from({ length: Math.max(0, Math.min(perPage, n - start)) }, (_, i) => start + i), total: n };
  };
  return { fetch, asked };
}

describe('total hints', () => {
  it('leave out the pages past a list end seen before, in one round trip', async () => {
    const hints = new TotalHints();
    const first = siteList(() => 130);
    await fetchWindow(first.fetch, { first: 500 }, limits, 50, hints.for('events'));
    expect(first.asked.flat()).toHaveLength(10);
    const again = siteList(() => 130);
    const w = await fetchWindow(again.fetch, { first: 500 }, limits, 50, hints.for('events'));
    expect(again.asked).toEqual([[1, 2, 3]]);
    expect(w).toMatchObject({ total: 130, hasNextPage: false });
    expect(w.items).toHaveLength(130);
  });

  it('fetch the pages a list has grown by since, in a second round trip, and the answer is whole', async () => {
    const hints = new TotalHints();
    let n = 130;
    const l = siteList(() => n);
    await fetchWindow(l.fetch, { first: 500 }, limits, 50, hints.for('events'));
    n = 260;
    const grown = siteList(() => n);
    const w = await fetchWindow(grown.fetch, { first: 500 }, limits, 50, hints.for('events'));
    expect(grown.asked).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(w.items).toEqual(Array.from({ length: 260 }, (_, i) => i));
    expect(w).toMatchObject({ total: 260, hasNextPage: false });
  });

  it('are kept apart by list, expire, and stay bounded', async () => {
    let now = 0;
    const hints = new TotalHints(2, 1_000, () => now);
    hints.for('a').set(1);
    hints.for('b').set(2);
    expect([hints.for('a').get(), hints.for('b').get()]).toEqual([1, 2]);
    hints.for('c').set(3);
    expect(hints.for('a').get()).toBeUndefined();
    now = 2_000;
    expect(hints.for('c').get()).toBeUndefined();
  });

  it('let readAll send every page at once, and still read pages the list has grown by', async () => {
    const hints = new TotalHints();
    let n = 120;
    const cold = siteList(() => n);
    expect(await readAll(cold.fetch, 50, hints.for('terms'))).toHaveLength(120);
    expect(cold.asked).toEqual([[1], [2, 3]]);
    const warm = siteList(() => n);
    expect(await readAll(warm.fetch, 50, hints.for('terms'))).toHaveLength(120);
    expect(warm.asked).toEqual([[1, 2, 3]]);
    n = 170;
    const grown = siteList(() => n);
    expect(await readAll(grown.fetch, 50, hints.for('terms'))).toEqual(Array.from({ length: 170 }, (_, i) => i));
    expect(grown.asked).toEqual([[1, 2, 3], [4]]);
  });
});
