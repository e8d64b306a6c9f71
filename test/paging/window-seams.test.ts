/**
 * A window that spans several of the site's pages reads them at once, but
 * not at the same instant: an item added before the window between two reads
 * pushes one item onto the next page too. The window keeps each item once
 * (issue 19: the bulk pull under changes).
 */
import { describe, expect, it } from 'vitest';
import { fetchWindow, type CursorScope } from '../../src/paging/window.ts';
import type { ListPage } from '../../src/upstream/paging.ts';

interface Item {
  id: number;
  key: string;
}

const limits = { maxPageSize: 500, defaultPageSize: 10 };
const scope: CursorScope<Item> = { list: 'events:test', id: (x) => x.id, key: (x) => x.key };

/** 300 items in key order; after the first page is read, one item is added before them all. */
function shiftingList() {
  let items: Item[] = Array.from({ length: 300 }, (_, i) => ({
    id: i + 1,
    key: `2030-01-01 ${String(i).padStart(5, '0')}`,
  }));
  let reads = 0;
  const fetch = async (page: number, perPage: number): Promise<ListPage> => {
    const out = items.slice((page - 1) * perPage, page * perPage);
    if (++reads === 1) items = [{ id: 1000, key: '2001-01-01 00:00' }, ...items];
    return { items: out, total: items.length };
  };
  return { fetch };
}

describe('a window over pages read around a change', () => {
  it('holds each item once when an item added before it pushed one onto the next page', async () => {
    const l = shiftingList();
    const w = await fetchWindow<Item>(l.fetch, { first: 100 }, limits, 50, undefined, scope);
    const ids = w.items.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Item 50, the last of the first page, came again at the top of the second: kept once, in order.
    expect(ids.slice(48, 51)).toEqual([49, 50, 51]);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('leaves a window of a list without a scope as the pages gave it', async () => {
    const l = shiftingList();
    const w = await fetchWindow<Item>(l.fetch, { first: 100 }, limits, 50);
    expect(w.items.filter((x) => x.id === 50)).toHaveLength(2);
  });
});
