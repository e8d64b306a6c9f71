/**
 * site-audit-log/v1: `Query.auditLogExport` as a declaration (the CSV, asked
 * for with its `accept` header); mapping.ts reads entries and the export.
 *
 * Hand-written, because the logic is real: `/logs` is a paged list behind a
 * Relay connection (resolvers.ts), read a window of pages at a time.
 */
import type { QueryResolvers } from '../../generated/graphql.ts';
import { routeRows, type FieldRoutes } from '../../routes/declare.ts';
import { handRoute } from '../../routes/hand.ts';
import { rowOf, type RouteUse } from '../../routes/route-use.ts';
import type { QueryValue, UpstreamSession } from '../../upstream/client.ts';
import { headerInt, listItems, type ListPage } from '../../upstream/paging.ts';
import { auditExport, auditQuery } from './mapping.ts';

/** `per_page` maximum of GET /site-audit-log/v1/logs (the spec leaves it open; the site refuses more than 100). */
export const AUDIT_MAX_PER_PAGE = 100;

export const AUDIT_ROUTES: FieldRoutes<QueryResolvers> = {
  auditLogExport: {
    method: 'GET',
    path: '/site-audit-log/v1/export',
    query: ({ where, search, order }) => auditQuery(where, order, search),
    headers: { accept: 'text/csv, application/json' },
    result: (body, { headers }) => auditExport(body, headers),
  },
};

const LOGS = handRoute('GET', '/site-audit-log/v1/logs');

/** One page of GET /site-audit-log/v1/logs: a bare array with X-WP-Total. */
export async function auditLogPage(
  session: UpstreamSession,
  query: Record<string, QueryValue>,
  page: number,
  perPage: number,
): Promise<ListPage> {
  const route = LOGS.label;
  const res = await session.request({
    method: LOGS.method,
    path: LOGS.path,
    query: { ...query, page, per_page: Math.min(perPage, AUDIT_MAX_PER_PAGE) },
    route,
  });
  return { items: listItems(res, route), total: headerInt(res.headers, 'x-wp-total') };
}

export const AUDIT_ROWS: RouteUse[] = [rowOf(LOGS, 'Query.auditLog'), ...routeRows('Query', AUDIT_ROUTES)];
