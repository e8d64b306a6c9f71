/** `Query.auditLog` (a Relay connection over /logs) and `Query.auditLogExport` (the CSV). */
import type { QueryResolvers } from '../generated/graphql.ts';
import { auditEntry, auditExport, auditQuery } from '../mapping/platform-audit.ts';
import { AUDIT_MAX_PER_PAGE, auditLogExport, auditLogPage, PLATFORM_NAMESPACES } from '../upstream/platform.ts';
import { connection } from './connection.ts';
import { requireNamespace } from './platform-content.ts';

export const auditQueryResolvers: Pick<QueryResolvers, 'auditLog' | 'auditLogExport'> = {
  auditLog: (_p, args, ctx) => {
    requireNamespace(ctx, PLATFORM_NAMESPACES.audit);
    const query = auditQuery(args.where, args.order);
    return connection(ctx, args, (page, per) => auditLogPage(ctx.upstream, query, page, per), AUDIT_MAX_PER_PAGE, auditEntry);
  },
  auditLogExport: async (_p, { where, search, order }, ctx) => {
    requireNamespace(ctx, PLATFORM_NAMESPACES.audit);
    const res = await ctx.limit(() => auditLogExport(ctx.upstream, auditQuery(where, order, search)));
    return auditExport(res.body, res.headers);
  },
};
