/** `Query.auditLog` (a Relay connection over /logs) and `Query.auditLogExport` (the CSV). */
import type { QueryResolvers } from '../generated/graphql.ts';
import { auditEntry, auditExport, auditQuery } from '../mapping/platform-audit.ts';
import { AUDIT_MAX_PER_PAGE, auditLogExport, auditLogPage } from '../upstream/platform.ts';
import { connection } from './connection.ts';

export const auditQueryResolvers: Pick<QueryResolvers, 'auditLog' | 'auditLogExport'> = {
  auditLog: (_p, args, ctx) => {
    const query = auditQuery(args.where, args.order);
    return connection(ctx, args, (page, per) => auditLogPage(ctx.upstream, query, page, per), AUDIT_MAX_PER_PAGE, auditEntry);
  },
  auditLogExport: async (_p, { where, search, order }, ctx) => {
    const res = await auditLogExport(ctx.upstream, auditQuery(where, order, search));
    return auditExport(res.body, res.headers);
  },
};
