/**
 * `Query.auditLog` (a Relay connection over /logs, hand-written) and `Query.auditLogExport` (derived from its
 * declaration).
 */
import type { Resolvers } from '../../generated/graphql.ts';
import { connection, connectionFields } from '../../routes/connection.ts';
import { resolversOf } from '../../routes/declare.ts';
import { auditEntry, auditQuery } from './mapping.ts';
import { AUDIT_MAX_PER_PAGE, AUDIT_ROUTES, auditLogPage } from './routes.ts';

export const auditResolvers: Resolvers = {
  Query: {
    ...resolversOf(AUDIT_ROUTES),
    auditLog: (_p, args, ctx) => {
      const query = auditQuery(args.where, args.order);
      return connection(
        ctx,
        args,
        (page, per) => auditLogPage(ctx.upstream, query, page, per),
        AUDIT_MAX_PER_PAGE,
        auditEntry,
      );
    },
  },
  AuditLogConnection: connectionFields,
};
