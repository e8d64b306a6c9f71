/** Connection plumbing shared by every list: window -> models -> `{edges, nodes, pageInfo, totalCount}`. */
import { createHash } from 'node:crypto';
import type { Context } from '../context.ts';
import { fetchWindow, encodeCursor, memoryPages, type CursorScope, type PagingArgs } from '../paging/window.ts';
import type { ConnectionModel } from '../mapping/models.ts';
import type { PageFetcher } from '../upstream/paging.ts';

export interface ConnectionOptions<T> {
  /**
   * Names the upstream list and its filters (route and query): the total its
   * answers carry is remembered under it, so a later window over the same list
   * leaves out the pages past its end (paging/hints.ts).
   */
  hint?: string;
  /**
   * The list's identity and order, for cursors that survive change (keyset:
   * paging/window.ts): a cursor names its item, and the next page starts after
   * that item wherever it now is. Without it, cursors are offsets.
   */
  cursors?: CursorScope<T>;
}

export async function connection<T>(
  ctx: Context,
  args: PagingArgs,
  fetch: PageFetcher,
  maxPerPage: number,
  map: (raw: unknown) => T,
  options: ConnectionOptions<T> = {},
): Promise<ConnectionModel<T>> {
  const scope = options.cursors;
  // With keyset cursors the window compares items, so they are mapped as they arrive (mapping is lazy).
  const source: PageFetcher = scope
    ? async (page, per, read) => {
        const p = await fetch(page, per, read);
        return { ...p, items: p.items.map(map) };
      }
    : fetch;
  const w = await fetchWindow<unknown>(
    source,
    args,
    ctx.config.limits,
    maxPerPage,
    options.hint === undefined ? undefined : ctx.totals.for(options.hint),
    scope as CursorScope<unknown> | undefined,
  );
  return {
    nodes: scope ? (w.items as T[]) : w.items.map(map),
    offset: w.offset,
    totalCount: w.total,
    hasNextPage: w.hasNextPage,
    hasPreviousPage: w.hasPreviousPage,
    ...(scope ? { cursor: (node: T, offset: number) => encodeCursor(offset, scope, node) } : {}),
  };
}

/** The same connection over items the gateway already holds (lists it filters itself). */
export function memoryConnection<T>(
  ctx: Context,
  args: PagingArgs,
  items: readonly T[],
  cursors?: CursorScope<T>,
): Promise<ConnectionModel<T>> {
  return connection(
    ctx,
    args,
    memoryPages(items),
    Math.max(1, items.length),
    (x) => x as T,
    cursors ? { cursors } : {},
  );
}

/**
 * A list's identity for its cursors: its kind and every argument that decides
 * its items and their order (`where`, `orderBy`, the parent it hangs off), not
 * the interface that serves it (which may change with the selection).
 */
export function listIdentity(kind: string, ...args: unknown[]): string {
  return createHash('sha256')
    .update(JSON.stringify([kind, ...args]))
    .digest('base64url')
    .slice(0, 12);
}

/** The cursor of the node at index `i` of a connection. */
function cursorOf<T>(c: ConnectionModel<T>, i: number): string {
  const offset = c.offset + i;
  return c.cursor ? c.cursor(c.nodes[i]!, offset) : encodeCursor(offset);
}

/** Resolvers of every `XConnection` type. */
export const connectionFields = {
  nodes: <T>(c: ConnectionModel<T>) => c.nodes,
  edges: <T>(c: ConnectionModel<T>) => c.nodes.map((node, i) => ({ cursor: cursorOf(c, i), node })),
  totalCount: <T>(c: ConnectionModel<T>) => c.totalCount,
  pageInfo: <T>(c: ConnectionModel<T>) => ({
    hasNextPage: c.hasNextPage,
    hasPreviousPage: c.hasPreviousPage,
    startCursor: c.nodes.length ? cursorOf(c, 0) : null,
    endCursor: c.nodes.length ? cursorOf(c, c.nodes.length - 1) : null,
  }),
};
