/**
 * The site-platform part of the graph (schema/content.graphql,
 * governance.graphql, audit.graphql): core/v2 posts, oEmbed, governance, the
 * audit log, attachments, duplicate-post, the challenge and facets.
 */
import type { Resolvers } from '../generated/graphql.ts';
import { connectionFields } from './connection.ts';
import { auditQueryResolvers } from './platform-audit.ts';
import { contentMutation, contentQuery, Facets, Post } from './platform-content.ts';
import { Governance, GovernanceNetwork, GovernanceRemote, governanceQuery } from './platform-governance.ts';

export const platformResolvers: Resolvers = {
  Query: { ...contentQuery, ...governanceQuery, ...auditQueryResolvers },
  Mutation: { ...contentMutation },
  Post,
  PostConnection: connectionFields,
  AuditLogConnection: connectionFields,
  Facets,
  Governance,
  GovernanceNetwork,
  GovernanceRemote,
};
