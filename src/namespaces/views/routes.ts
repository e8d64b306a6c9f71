/**
 * calendar/views/v2 (spec C): `{html}` of a calendar view, from GET (query)
 * or POST (JSON body), as TEC's views script sends either.
 *
 * Hand-written, because the logic is real: one field reaches the route by
 * two methods, and the GET nests `view_data` PHP-style in the query
 * (`view_data[key]=value`). A POST here only reads (namespace.ts).
 */
import { handRoute } from '../../routes/hand.ts';
import { rowOf, use, type RouteUse } from '../../routes/route-use.ts';
import type { QueryValue, UpstreamSession } from '../../upstream/client.ts';

const PATH = '/calendar/views/v2/html';
/** The route by either method: the request's and the table's. */
const VIEW = { GET: handRoute('GET', PATH), POST: handRoute('POST', PATH) } as const;

export interface ViewHtmlParams {
  u: string;
  view?: string;
  tvn1?: string;
  tvn2?: string;
  view_data?: Record<string, unknown>;
  action?: string;
}

export async function viewHtml(
  session: UpstreamSession,
  method: 'GET' | 'POST',
  params: ViewHtmlParams,
): Promise<unknown> {
  const { path, label: route } = VIEW[method];
  if (method === 'POST') return (await session.request({ method, path, body: params, route })).body;
  const query: Record<string, QueryValue> = {
    u: params.u,
    view: params.view,
    tvn1: params.tvn1,
    tvn2: params.tvn2,
    action: params.action,
  };
  for (const [k, v] of Object.entries(params.view_data ?? {})) {
    if (v === null || v === undefined) continue;
    query[`view_data[${k}]`] = typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean);
  }
  return (await session.request({ method, path, query, route })).body;
}

export const VIEWS_ROWS: RouteUse[] = [
  rowOf(VIEW.GET, use('Query.calendarView', { args: { method: 'GET' } })),
  rowOf(VIEW.POST, use('Query.calendarView', { args: { method: 'POST' } })),
];
