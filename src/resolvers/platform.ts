/**
 * The site-platform part of the graph (schema/content.graphql,
 * audit.graphql): core/v2 posts, oEmbed, the
 * audit log, attachments, duplicate-post, the challenge and facets.
 */
import type { Resolvers } from '../generated/graphql.ts';
import { connectionFields } from '../routes/connection.ts';
import { contentMutation, contentQuery, Post } from './platform-content.ts';

export const platformResolvers: Resolvers = {
  Query: { ...contentQuery },
  Mutation: { ...contentMutation },
  Post,
  PostConnection: connectionFields,
};
