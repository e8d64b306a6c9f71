/** site-audit-log/v1: filters -> query, entries -> graph objects, the CSV export (docs/sandbox-platform.md). */
import type { AuditLogWhere, OrderDirection } from '../../generated/graphql.ts';
import type { AuditEntryModel } from '../../mapping/platform-models.ts';
import { asDateTime, asId, asInt, asStr, shape } from '../../mapping/json.ts';

/** Typed as the model, so the reader and the model the graph is mapped onto cannot drift apart. */
export const auditEntry: (v: unknown) => AuditEntryModel = shape('audit-log entry', {
  databaseId: ['id', asId],
  blogId: ['blog_id', asInt],
  userId: ['user_id', asInt],
  userLogin: ['user_login', asStr],
  objectType: ['object_type', asStr],
  objectId: ['object_id', asInt],
  objectName: ['object_name', asStr],
  action: ['action', asStr],
  priority: ['priority', asStr],
  message: ['message', asStr],
  ip: ['ip', asStr],
  createdAt: ['created_at', asDateTime],
} as const);

/** Lists go comma-separated (the site takes "a value or a comma-separated list"); enum values lower-case. */
export function auditQuery(
  where: AuditLogWhere | null | undefined,
  order: OrderDirection | null | undefined,
  search?: string | null,
): Record<string, string> {
  const w = where ?? {};
  const q: Record<string, string> = {};
  const list = (k: string, v: ReadonlyArray<string | number> | null | undefined) => {
    if (v && v.length) q[k] = v.map((x) => String(x).toLowerCase()).join(',');
  };
  if (order) q.order = order.toLowerCase();
  if (w.startDate) q.start_date = w.startDate;
  if (w.endDate) q.end_date = w.endDate;
  list('blog_id', w.blogIds);
  list('user_id', w.userIds);
  list('object_type', w.objectTypes);
  list('action', w.actions);
  list('priority', w.priorities);
  if (search) q.search = search;
  return q;
}

/** The export answer: CSV text and what its headers say. */
export function auditExport(body: unknown, headers: Record<string, string>) {
  const disposition = headers['content-disposition'] ?? '';
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const total = headers['x-wp-total'];
  return {
    filename: m ? decodeURIComponent(m[1]!) : null,
    contentType: headers['content-type'] ?? null,
    totalCount: total !== undefined && /^\d+$/.test(total) ? Number(total) : null,
    csv: typeof body === 'string' ? body : body === null ? '' : JSON.stringify(body),
  };
}
