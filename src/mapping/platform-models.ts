/**
 * The site-platform objects as resolvers see them (core/v2 posts, the audit
 * log, governance, facets). Codegen maps the graph's types onto these, so this
 * module imports nothing from the generated types (and nothing that does): the
 * generated file imports only model modules, never a module that imports it back.
 */
import type { ConnectionModel } from './models.ts';

export interface PostModel {
  kind: 'Post';
  databaseId: number;
  title: string | null;
  content: string | null;
  excerpt: string | null;
  slug: string | null;
  status: string | null;
  type: string | null;
  url: string | null;
  guid: string | null;
  authorId: number | null;
  featuredMediaId: number | null;
  publishedAt: string | null;
  publishedAtUtc: string | null;
  modifiedAt: string | null;
  modifiedAtUtc: string | null;
  commentStatus: string | null;
  pingStatus: string | null;
  sticky: boolean | null;
  template: string | null;
  format: string | null;
  passwordProtected: boolean | null;
  categoryIds: number[];
  tagIds: number[];
  raw: unknown;
}

export type PostConnectionModel = ConnectionModel<PostModel>;

/** One site-audit-log/v1 entry (src/namespaces/audit/mapping.ts reads it). */
export interface AuditEntryModel {
  databaseId: number;
  blogId: number | null;
  userId: number | null;
  userLogin: string | null;
  objectType: string | null;
  objectId: number | null;
  objectName: string | null;
  action: string | null;
  priority: string | null;
  message: string | null;
  ip: string | null;
  createdAt: string | null;
  raw: unknown;
}

export type AuditLogConnectionModel = ConnectionModel<AuditEntryModel>;

/** The remote governance API's key, kept only for this request's resolvers. */
export interface GovernanceRemoteModel {
  apiKey: string;
}
