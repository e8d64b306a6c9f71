/**
 * A walk over a list that changes under it (issue 19, stable cursors): page
 * through every item with `after` cursors while items are added and removed,
 * then count what was seen. Shared by the cursor-stability test
 * (test/e2e/cursors.test.ts: changes between pages, at fixed places) and the
 * bulk pull of `npm run bench` (bench/gateway.ts: another client changing the
 * list while the pull runs).
 *
 * An item "present throughout" is one of the list when the walk started that
 * nobody removed; each must be seen exactly once. Items removed during the walk
 * (marked removed before the request is sent, so a removal racing a page read
 * is never counted against the walk) and items added may be seen or not, but
 * never twice.
 */

export interface WalkPage {
  ids: number[];
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface ChangingList {
  /** One page of the walk: the items after `after` (null: from the start). */
  page(after: string | null): Promise<WalkPage>;
  /** Adds an item before the walk's position (where offset cursors would repeat one); its id. */
  insert(): Promise<number>;
  remove(id: number): Promise<void>;
}

export interface WalkResult {
  pages: number;
  /** Items seen, repeats included. */
  seen: number;
  inserted: number;
  removed: number;
  /** Items present throughout (in the list at the start, never removed). */
  throughout: number;
  /** Ids seen more than once. */
  repeated: number[];
  /** Ids present throughout and never seen. */
  skipped: number[];
}

export interface WalkOptions {
  /**
   * `between`: after each page, three items added and two removed (one seen,
   * one not yet seen), at fixed places, before the next page is asked for.
   * `concurrent`: another client adds one item and removes a seen and an unseen
   * one, again and again, while the walk runs, without waiting for it.
   */
  changes: 'between' | 'concurrent';
  /** Pages at most (a walk that never ends is a failure too). @default 1000 */
  maxPages?: number;
}

export async function walkWhileChanging(
  list: ChangingList,
  initial: readonly number[],
  options: WalkOptions,
): Promise<WalkResult> {
  const removed = new Set<number>();
  const seen: number[] = [];
  const seenSet = new Set<number>();
  let inserted = 0;
  let pages = 0;

  const remove = async (id: number | undefined) => {
    if (id === undefined || removed.has(id)) return;
    removed.add(id);
    await list.remove(id);
  };
  const unseen = () => initial.find((id) => !seenSet.has(id) && !removed.has(id));
  /** One round of an editor's changes: `adds` items added, one seen and one unseen item removed. */
  const round = async (adds: number, seenOne: number | undefined) => {
    for (let i = 0; i < adds; i++) {
      await list.insert();
      inserted++;
    }
    await remove(seenOne);
    await remove(unseen());
  };

  let walking = true;
  const editor =
    options.changes === 'concurrent'
      ? (async () => {
          // Until the walk ends: the most recently seen item not yet removed, and the next unseen one.
          while (walking)
            await round(
              1,
              [...seen].reverse().find((id) => !removed.has(id)),
            );
        })()
      : null;
  try {
    let after: string | null = null;
    for (let p = 0; p < (options.maxPages ?? 1000); p++) {
      const page = await list.page(after);
      pages++;
      for (const id of page.ids) {
        seen.push(id);
        seenSet.add(id);
      }
      if (!page.hasNextPage) break;
      after = page.endCursor;
      if (options.changes === 'between') await round(3, seen[p * 3]);
    }
  } finally {
    walking = false;
    await editor;
  }

  const counts = new Map<number, number>();
  for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
  const throughout = initial.filter((id) => !removed.has(id));
  return {
    pages,
    seen: seen.length,
    inserted,
    removed: removed.size,
    throughout: throughout.length,
    repeated: [...counts].filter(([, n]) => n > 1).map(([id]) => id),
    skipped: throughout.filter((id) => !counts.has(id)),
  };
}
