/**
 * Relay `first/after/last/before` -> the fewest upstream page requests.
 *
 * A window that fits one upstream page is one request: the smallest page size
 * whose page boundaries contain the whole window is chosen. A larger window
 * fetches every page it spans in parallel — `first: 250` over pages of 100 is
 * 3 requests in 1 round trip. The pages past the end of the list are left out
 * when the list's total is known from an earlier answer (hints.ts); otherwise
 * they cost a cheap "page not found" each.
 */
import { GatewayError } from '../errors.ts';
import type { ListPage, PageFetcher } from '../upstream/paging.ts';
import { NO_HINT, type TotalHint } from './hints.ts';

export interface PagingArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface PageLimits {
  maxPageSize: number;
  defaultPageSize: number;
}

/**
 * How a list is ordered, for cursors that survive change (keyset over offsets):
 * each item's ID, and its sort key where the gateway can compare keys as the
 * site does (ISO dates: start dates of events, publication dates of posts).
 * `list` names the list and its arguments; a cursor of another list is refused.
 */
export interface CursorScope<T = unknown> {
  list: string;
  id: (item: T) => number | null;
  key?: (item: T) => string | null;
  /** The list runs from the latest key to the earliest (posts by date). */
  desc?: boolean;
}

/** Where a cursor points: the offset it had, and the item it names (when it is a keyset cursor). */
export interface Anchor {
  offset: number;
  id: number | null;
  key: string | null;
}

const PREFIX = 'sg1';

/**
 * A cursor: `sg1|<list>|<offset>|<id>|<key>`, base64. Without a scope (or an
 * item), the bare offset form `cursor:<offset>` earlier releases gave out,
 * which is still read, as an offset.
 */
export function encodeCursor<T>(offset: number, scope?: CursorScope<T> | null, item?: T): string {
  if (!scope) return Buffer.from(`cursor:${offset}`, 'utf8').toString('base64');
  const id = item === undefined ? null : scope.id(item);
  const key = item === undefined || !scope.key ? null : scope.key(item);
  return Buffer.from(`${PREFIX}|${scope.list}|${offset}|${id ?? ''}|${key ?? ''}`, 'utf8').toString('base64');
}

/**
 * Reads a cursor; `list` (when known) must be the list it came from: a cursor
 * of another list, or of the same list with other filters, is refused rather
 * than read as an offset into this one.
 */
export function decodeCursor(cursor: string, arg: string, list?: string | null): Anchor {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  const offsetOnly = /^cursor:(\d+)$/.exec(text);
  if (offsetOnly) return { offset: Number(offsetOnly[1]), id: null, key: null };
  const parts = text.split('|');
  if (parts.length !== 5 || parts[0] !== PREFIX || !/^\d+$/.test(parts[2]!) || !/^\d*$/.test(parts[3]!)) {
    throw GatewayError.badInput(`${arg}: ${JSON.stringify(cursor)} is not a cursor this gateway gave out`, {
      arguments: [arg],
    });
  }
  if (list !== undefined && list !== null && parts[1] !== list) {
    throw GatewayError.badInput(
      `${arg}: this cursor belongs to another list, or to this list with other arguments (where, orderBy); a cursor is valid only for the list that gave it`,
      { arguments: [arg] },
    );
  }
  return { offset: Number(parts[2]), id: parts[3] ? Number(parts[3]) : null, key: parts[4] || null };
}

function checkCount(v: number | null | undefined, arg: string, limits: PageLimits): void {
  if (v === null || v === undefined) return;
  if (!Number.isInteger(v) || v < 0)
    throw GatewayError.badInput(`${arg} must be a non-negative integer, got ${v}`, { arguments: [arg] });
  if (v > limits.maxPageSize) {
    throw GatewayError.badInput(
      `${arg} must be at most ${limits.maxPageSize} (the page-size cap); page through larger lists with after/before`,
      { arguments: [arg], max: limits.maxPageSize },
    );
  }
}

export interface WindowResult<T> {
  items: T[];
  offset: number;
  total: number | null;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/** Finds a page size P (count <= P <= max) whose page contains [offset, offset+count). */
function singlePageSize(offset: number, count: number, max: number): number | null {
  if (count <= 0 || count > max) return null;
  if (offset % count === 0) return count;
  for (let p = count; p <= max; p++) if (Math.floor(offset / p) === Math.floor((offset + count - 1) / p)) return p;
  return null;
}

async function fetchRange(
  fetch: PageFetcher,
  offset: number,
  count: number,
  maxPer: number,
  hint: TotalHint,
): Promise<ListPage> {
  if (count === 0) {
    const first = await fetch(1, 1);
    return { items: [], total: first.total };
  }
  const p = singlePageSize(offset, count, maxPer);
  if (p !== null) {
    const page = Math.floor(offset / p) + 1;
    const res = await fetch(page, p);
    const start = offset - (page - 1) * p;
    return { items: res.items.slice(start, start + count), total: res.total };
  }
  // Every page the window spans is known from its offset, its count and the
  // page size: all of them go out at once (one round trip, not the first page
  // and then the rest), but for pages past a hinted end. Pages past the end
  // of a shorter list answer the sites' "page not found", which the fetchers
  // read as empty pages with no total; the total comes from the first page
  // that has one. If it shows the list grew past the hint, the pages left out
  // follow.
  const firstPage = Math.floor(offset / maxPer) + 1;
  const lastPage = Math.floor((offset + count - 1) / maxPer) + 1;
  const hinted = hint.get();
  const plannedLast =
    hinted === undefined ? lastPage : Math.max(firstPage, Math.min(lastPage, Math.ceil(hinted / maxPer)));
  const pages = await fetchPages(fetch, firstPage, plannedLast, maxPer);
  let total = pages.find((r) => r.total !== null)?.total ?? null;
  if (plannedLast < lastPage && total !== null && total > plannedLast * maxPer) {
    const more = await fetchPages(fetch, plannedLast + 1, Math.min(lastPage, Math.ceil(total / maxPer)), maxPer);
    pages.push(...more);
    total = more.find((r) => r.total !== null)?.total ?? total;
  }
  const all = pages.flatMap((r) => r.items);
  const start = offset - (firstPage - 1) * maxPer;
  return { items: all.slice(start, start + count), total };
}

function fetchPages(fetch: PageFetcher, from: number, to: number, perPage: number): Promise<ListPage[]> {
  return Promise.all(Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => fetch(from + i, perPage)));
}

/**
 * Every item of a paged list. With a hinted total, every page it spans goes out
 * at once (one round trip; pages the list has grown by follow); without, the
 * first page tells the total and the rest follow in parallel.
 */
export async function readAll(fetch: PageFetcher, perPage: number, hint: TotalHint = NO_HINT): Promise<unknown[]> {
  const hinted = hint.get();
  const planned = hinted === undefined ? 1 : Math.max(1, Math.ceil(hinted / perPage));
  const pages = await fetchPages(fetch, 1, planned, perPage);
  const total = pages.find((r) => r.total !== null)?.total ?? null;
  if (total !== null) {
    hint.set(total);
    pages.push(...(await fetchPages(fetch, planned + 1, Math.ceil(total / perPage), perPage)));
  }
  return pages.flatMap((p) => p.items);
}

/** A page fetcher over items already in memory (lists the gateway filters itself). */
export function memoryPages(items: readonly unknown[]): PageFetcher {
  return async (page, perPage) => ({ items: items.slice((page - 1) * perPage, page * perPage), total: items.length });
}

/** Resolves Relay arguments against a paged upstream list; `scope` makes its cursors keyset cursors (CursorScope). */
export async function fetchWindow<T = unknown>(
  fetch: PageFetcher,
  args: PagingArgs,
  limits: PageLimits,
  maxPerPage: number,
  hint: TotalHint = NO_HINT,
  scope?: CursorScope<T>,
): Promise<WindowResult<T>> {
  const w = await resolveWindow(fetch, args, limits, maxPerPage, hint, scope as CursorScope<unknown> | undefined);
  if (w.total !== null) hint.set(w.total);
  return w as WindowResult<T>;
}

/**
 * Items fetched around a keyset cursor's offset on each side: a list that
 * gained or lost up to this many items before the cursor since it was given
 * out is still resumed exactly, in the same requests; beyond, the item is
 * looked for further away (more requests, `MAX_STEPS` at most).
 */
export const MARGIN = 16;
const MAX_STEPS = 8;

/** `a` against the anchor in list order: by key (as the list runs), then by ID. */
function compare(scope: CursorScope<unknown>, item: unknown, anchor: Anchor): number {
  const k = scope.key?.(item) ?? null;
  if (k !== null && anchor.key !== null && k !== anchor.key) return (k < anchor.key ? -1 : 1) * (scope.desc ? -1 : 1);
  // Ties go by ID, in the list's direction (as the sandbox orders them; a found ID makes ties moot).
  return ((scope.id(item) ?? 0) - (anchor.id ?? 0)) * (scope.desc ? -1 : 1);
}

/**
 * Where an anchor's item is: its offset (`found`), or, once deleted, the offset of the last item before it (-1: none).
 */
interface Place {
  at: number;
  found: boolean;
}

/**
 * Where the anchor's item is now, found by its ID near where it was; an item
 * since deleted is placed by its key among its old neighbours. A list that
 * moved further than the steps allow is a CONFLICT (start the walk again).
 */
async function locate(
  fetch: PageFetcher,
  anchor: Anchor,
  scope: CursorScope<unknown>,
  maxPer: number,
  hint: TotalHint,
): Promise<Place> {
  const span = 2 * MARGIN + 1;
  let lo = Math.max(0, anchor.offset - MARGIN);
  let items = (await fetchRange(fetch, lo, span, maxPer, hint)).items;
  for (let step = 0; ; step++) {
    const at = items.findIndex((x) => scope.id(x) === anchor.id);
    if (at >= 0) return { at: lo + at, found: true };
    // Without keys the gateway cannot tell which way the list moved: the offset stands.
    if (!scope.key || anchor.key === null) return { at: anchor.offset, found: true };
    if (items.length && compare(scope, items[items.length - 1], anchor) < 0) {
      // Everything here is before the anchor: it moved on (items were added before it).
      if (items.length < span) return { at: lo + items.length - 1, found: false };
      lo += items.length;
    } else if (!items.length || compare(scope, items[0], anchor) > 0) {
      // Everything here is after it (items before it were removed), or the list ends before here.
      if (lo === 0) return { at: -1, found: false };
      lo = Math.max(0, lo - span);
    } else {
      // The anchor's item is gone; its neighbours are here.
      return { at: lo + items.findIndex((x) => compare(scope, x, anchor) > 0) - 1, found: false };
    }
    if (step >= MAX_STEPS) {
      throw new GatewayError(
        'CONFLICT',
        `the list changed by more than ${MAX_STEPS * span} items around this cursor since it was given out; start the walk again from the beginning`,
      );
    }
    items = (await fetchRange(fetch, lo, span, maxPer, hint)).items;
  }
}

async function resolveWindow(
  given: PageFetcher,
  args: PagingArgs,
  limits: PageLimits,
  maxPerPage: number,
  hint: TotalHint,
  scope?: CursorScope<unknown>,
): Promise<WindowResult<unknown>> {
  // A window placed by a cursor is read from the site, never from the upstream cache: a page cached
  // before a change, joined to the pages the walk read after it, would skip or repeat an item.
  const fetch: PageFetcher = args.after || args.before ? (page, per) => given(page, per, { fresh: true }) : given;
  checkCount(args.first, 'first', limits);
  checkCount(args.last, 'last', limits);
  if (args.first != null && args.last != null)
    throw GatewayError.badInput('pass first or last, not both', { arguments: ['first', 'last'] });
  const afterA = args.after ? decodeCursor(args.after, 'after', scope?.list) : null;
  const beforeA = args.before ? decodeCursor(args.before, 'before', scope?.list) : null;
  /** Whether an anchor names its item (a keyset cursor of a scoped list), not just an offset. */
  const keyed = (a: Anchor | null): boolean => a !== null && a.id !== null && scope !== undefined;
  /** The offset just past the anchor's item (or past where it was). */
  const pastAfter = async (a: Anchor): Promise<number> =>
    (keyed(a) ? (await locate(fetch, a, scope!, maxPerPage, hint)).at : a.offset) + 1;

  if (args.last != null) {
    let end: number | null = null;
    if (beforeA) {
      // The window ends just before the `before` item (a deleted one: just after its old neighbour).
      const p = keyed(beforeA)
        ? await locate(fetch, beforeA, scope!, maxPerPage, hint)
        : { at: beforeA.offset, found: true };
      end = p.found ? p.at : p.at + 1;
    }
    let total: number | null = null;
    if (end === null) {
      // The end of the list is unknown until the total is: one tiny request.
      total = (await fetch(1, 1)).total;
      if (total === null)
        throw new GatewayError(
          'UPSTREAM_BAD_RESPONSE',
          'the site sent no total, so `last` cannot be resolved without `before`',
        );
      end = total;
    }
    const lo = afterA ? await pastAfter(afterA) : 0;
    const start = Math.max(lo, end - args.last);
    const res = await fetchRange(fetch, start, Math.max(0, end - start), maxPerPage, hint);
    total = res.total ?? total;
    return {
      items: scope ? once(res.items, scope) : res.items,
      offset: start,
      total,
      hasPreviousPage: start > lo,
      hasNextPage: beforeA !== null || (total !== null && end < total),
    };
  }

  let count = args.first ?? limits.defaultPageSize;
  let offset: number;
  let res: ListPage;
  if (afterA && keyed(afterA)) {
    // One range: the margin around the cursor's item and the window after it. Most
    // often the item is found there and the window is in hand; else it is looked for.
    const lo = Math.max(0, afterA.offset - MARGIN);
    const around = await fetchRange(fetch, lo, afterA.offset + 1 + count + MARGIN - lo, maxPerPage, hint);
    const at = around.items.findIndex((x) => scope!.id(x) === afterA.id);
    if (
      at >= 0 &&
      (around.items.length - at - 1 >= count || (around.total !== null && lo + around.items.length >= around.total))
    ) {
      offset = lo + at + 1;
      res = { items: around.items.slice(at + 1, at + 1 + count), total: around.total };
    } else {
      // Found but the window runs past what was fetched, or not found near: placed, then read.
      offset = at >= 0 ? lo + at + 1 : (await locate(fetch, afterA, scope!, maxPerPage, hint)).at + 1;
      res = await fetchRange(fetch, offset, count, maxPerPage, hint);
    }
  } else {
    offset = afterA !== null ? afterA.offset + 1 : 0;
    if (beforeA !== null && !keyed(beforeA)) count = Math.min(count, Math.max(0, beforeA.offset - offset));
    res = await fetchRange(fetch, offset, count, maxPerPage, hint);
  }
  if (beforeA && keyed(beforeA)) {
    // The window stops at the `before` item (or where it was).
    const stop = res.items.findIndex((x) =>
      scope!.key ? compare(scope!, x, beforeA) >= 0 : scope!.id(x) === beforeA.id,
    );
    if (stop >= 0) res = { items: res.items.slice(0, stop), total: res.total };
  }
  const hasNextPage =
    res.total !== null ? offset + res.items.length < res.total : res.items.length === count && count > 0;
  return {
    items: scope ? once(res.items, scope) : res.items,
    offset,
    total: res.total,
    hasNextPage,
    hasPreviousPage: offset > 0,
  };
}

/**
 * Each item once. A window that spans several of the site's pages reads them
 * at once, but not at the same instant: an item added before the window
 * between two of those reads pushes the last item of one page to the top of
 * the next, and the window would hold it twice (seen in `npm run bench`'s pull
 * under changes). The first is kept; items after it keep their order.
 */
function once(items: unknown[], scope: CursorScope<unknown>): unknown[] {
  const ids = new Set<unknown>();
  let dup = false;
  for (const x of items) {
    const id = scope.id(x);
    if (id !== null && id !== undefined && ids.has(id)) dup = true;
    ids.add(id);
  }
  if (!dup) return items;
  ids.clear();
  return items.filter((x) => {
    const id = scope.id(x);
    if (id === null || id === undefined) return true;
    if (ids.has(id)) return false;
    ids.add(id);
    return true;
  });
}
