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

export function encodeCursor(offset: number): string {
  return Buffer.from(`cursor:${offset}`, 'utf8').toString('base64');
}

export function decodeCursor(cursor: string, arg: string): number {
  const m = /^cursor:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!m) throw GatewayError.badInput(`${arg}: ${JSON.stringify(cursor)} is not a cursor of this list`, { arguments: [arg] });
  return Number(m[1]);
}

function checkCount(v: number | null | undefined, arg: string, limits: PageLimits): void {
  if (v === null || v === undefined) return;
  if (!Number.isInteger(v) || v < 0) throw GatewayError.badInput(`${arg} must be a non-negative integer, got ${v}`, { arguments: [arg] });
  if (v > limits.maxPageSize) {
    throw GatewayError.badInput(`${arg} must be at most ${limits.maxPageSize} (the page-size cap); page through larger lists with after/before`, { arguments: [arg], max: limits.maxPageSize });
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

async function fetchRange(fetch: PageFetcher, offset: number, count: number, maxPer: number, hint: TotalHint): Promise<ListPage> {
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
  const plannedLast = hinted === undefined ? lastPage : Math.max(firstPage, Math.min(lastPage, Math.ceil(hinted / maxPer)));
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

/** Resolves Relay arguments against a paged upstream list. */
export async function fetchWindow(
  fetch: PageFetcher,
  args: PagingArgs,
  limits: PageLimits,
  maxPerPage: number,
  hint: TotalHint = NO_HINT,
): Promise<WindowResult<unknown>> {
  const w = await resolveWindow(fetch, args, limits, maxPerPage, hint);
  if (w.total !== null) hint.set(w.total);
  return w;
}

async function resolveWindow(fetch: PageFetcher, args: PagingArgs, limits: PageLimits, maxPerPage: number, hint: TotalHint): Promise<WindowResult<unknown>> {
  checkCount(args.first, 'first', limits);
  checkCount(args.last, 'last', limits);
  if (args.first != null && args.last != null) throw GatewayError.badInput('pass first or last, not both', { arguments: ['first', 'last'] });
  const after = args.after ? decodeCursor(args.after, 'after') : null;
  const before = args.before ? decodeCursor(args.before, 'before') : null;

  if (args.last != null) {
    let end = before;
    let total: number | null = null;
    if (end === null) {
      // The end of the list is unknown until the total is: one tiny request.
      total = (await fetch(1, 1)).total;
      if (total === null) throw new GatewayError('UPSTREAM_BAD_RESPONSE', 'the site sent no total, so `last` cannot be resolved without `before`');
      end = total;
    }
    const lo = after !== null ? after + 1 : 0;
    const start = Math.max(lo, end - args.last);
    const res = await fetchRange(fetch, start, Math.max(0, end - start), maxPerPage, hint);
    total = res.total ?? total;
    return { items: res.items, offset: start, total, hasPreviousPage: start > lo, hasNextPage: before !== null || (total !== null && end < total) };
  }

  const offset = after !== null ? after + 1 : 0;
  let count = args.first ?? limits.defaultPageSize;
  if (before !== null) count = Math.min(count, Math.max(0, before - offset));
  const res = await fetchRange(fetch, offset, count, maxPerPage, hint);
  const hasNextPage = res.total !== null ? offset + res.items.length < res.total : res.items.length === count && count > 0;
  return { items: res.items, offset, total: res.total, hasNextPage, hasPreviousPage: offset > 0 };
}
