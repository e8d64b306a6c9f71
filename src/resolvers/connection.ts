/** Connection plumbing shared by every list: window -> models -> `{edges, nodes, pageInfo, totalCount}`. */
import type { Context } from '../context.ts';
import { fetchWindow, encodeCursor, memoryPages, type PagingArgs } from '../paging/window.ts';
import type { ConnectionModel } from '../mapping/models.ts';
import type { PageFetcher } from '../upstream/paging.ts';

/**
 * `list`, when given, names the upstream list and its filters (route and query):
 * the total its answers carry is remembered under it, so a later window over the
 * same list leaves out the pages past its end (paging/hints.ts).
 */
export async function connection<T>(
  ctx: Context,
  args: PagingArgs,
  fetch: PageFetcher,
  maxPerPage: number,
  map: (raw: unknown) => T,
  list?: string,
): Promise<ConnectionModel<T>> {
  const w = await fetchWindow(fetch, args, ctx.config.limits, maxPerPage, list === undefined ? undefined : ctx.totals.for(list));
  return { nodes: w.items.map(map), offset: w.offset, totalCount: w.total, hasNextPage: w.hasNextPage, hasPreviousPage: w.hasPreviousPage };
}

/** The same connection over items the gateway already holds (lists it filters itself). */
export function memoryConnection<T>(ctx: Context, args: PagingArgs, items: readonly T[]): Promise<ConnectionModel<T>> {
  return connection(ctx, args, memoryPages(items), Math.max(1, items.length), (x) => x as T);
}

/** Resolvers of every `XConnection` type. */
export const connectionFields = {
  nodes: <T>(c: ConnectionModel<T>) => c.nodes,
  edges: <T>(c: ConnectionModel<T>) => c.nodes.map((node, i) => ({ cursor: encodeCursor(c.offset + i), node })),
  totalCount: <T>(c: ConnectionModel<T>) => c.totalCount,
  pageInfo: <T>(c: ConnectionModel<T>) => ({
    hasNextPage: c.hasNextPage,
    hasPreviousPage: c.hasPreviousPage,
    startCursor: c.nodes.length ? encodeCursor(c.offset) : null,
    endCursor: c.nodes.length ? encodeCursor(c.offset + c.nodes.length - 1) : null,
  }),
};
