/**
 * Query.posts and the post mutations (core/v2: createPost, updatePost,
 * deletePost, createPosts; schema/content.graphql). Thin: args -> mapping ->
 * src/namespaces/posts/requests.ts (writes/posts.ts for bulk writes) ->
 * mapping. Here, not in src/namespaces/posts/, because it composes the write
 * engine (writes/posts.ts), which itself builds on the namespace's requests
 * and mapping: from the namespace folder that would be a two-way dependency.
 */
import type { Context } from '../context.ts';
import type {
  Resolvers,
  MutationResolvers,
  PostOrderField,
  PostResolvers,
  PostsOrderBy,
  PostsWhere,
  QueryResolvers,
} from '../generated/graphql.ts';
import type { CursorScope } from '../paging/window.ts';
import { databaseIdOf, toGlobalId } from '../mapping/ids.ts';
import { corePost, deletedPost, postBody, postsQuery, type PostModel } from '../namespaces/posts/mapping.ts';
import { GatewayError } from '../errors.ts';
import * as posts from '../namespaces/posts/requests.ts';
import { declaredArgs } from '../upstream/discovery.ts';
import { missingObject } from '../upstream/errors.ts';
import { createPosts } from '../writes/posts.ts';
import { bulkPayload } from '../writes/results.ts';
import { connection, connectionFields, listIdentity } from '../routes/connection.ts';

/** `Post` by database ID, through the list (core/v2 has no single-post route in the spec). Published posts only. */
export async function postById(ctx: Context, id: number): Promise<PostModel | null> {
  const page = await posts.postsPage(ctx.upstream, { include: [id] }, 1, 1);
  return page.items.length ? corePost(page.items[0], ctx.site.timezone) : null;
}

/** Posts run from the newest by date unless ordered otherwise; dates are keys the gateway compares as the site does. */
const POST_KEYS: Partial<Record<PostOrderField, (m: PostModel) => string | null>> = {
  DATE: (m) => m.publishedAtUtc,
  MODIFIED: (m) => m.modifiedAtUtc,
};

function postCursors(
  where: PostsWhere | null | undefined,
  orderBy: PostsOrderBy | null | undefined,
): CursorScope<PostModel> {
  const key = POST_KEYS[orderBy?.field ?? 'DATE'];
  // RAND has no order to keep, and RELEVANCE changes with the text searched: those cursors are offsets in effect.
  return {
    list: listIdentity('posts', where ?? null, orderBy ?? null),
    id: (m) => m.databaseId,
    ...(key ? { key } : {}),
    desc: (orderBy?.direction ?? 'DESC') === 'DESC',
  };
}

function idArg(id: string, arg: string): number {
  const n = databaseIdOf(id, 'Post');
  if (n === null)
    throw GatewayError.badInput(
      `${arg}: ${JSON.stringify(id)} is neither a Post global ID nor a positive database ID`,
      { arguments: [arg] },
    );
  return n;
}

export const contentQuery: Pick<QueryResolvers, 'posts'> = {
  posts: (_p, args, ctx) => {
    // Arguments the site's list does not declare are refused, not silently ignored (mapping/posts.ts postsQuery).
    const declared = declaredArgs(ctx.site, 'GET', '/core/v2/posts');
    const { query, offset } = postsQuery(args.where, args.orderBy, args.context, declared);
    return connection(
      ctx,
      args,
      (page, per) => posts.postsPage(ctx.upstream, query, page, per, offset),
      posts.POSTS_MAX_PER_PAGE,
      (raw) => corePost(raw, ctx.site.timezone),
      { cursors: postCursors(args.where, args.orderBy) },
    );
  },
};

/** Rethrows a write's error, a missing post as NOT_FOUND (upstream/errors.ts `missingObject`). */
const missingPost =
  (id: number) =>
  (err: unknown): never => {
    throw missingObject(err, { argument: 'id', param: 'id', label: 'post', id });
  };

export const contentMutation: Pick<MutationResolvers, 'createPost' | 'updatePost' | 'deletePost' | 'createPosts'> = {
  createPost: async (_p, { input }, ctx) => {
    const post = corePost(await posts.createPost(ctx.upstream, postBody(input)), ctx.site.timezone);
    ctx.changes?.written('posts', post.databaseId, 'CREATED', post);
    return post;
  },
  // A missing post answers 404 rest_post_invalid_id (docs/real-sites.md): NOT_FOUND naming `id`.
  updatePost: async (_p, { id, input }, ctx) => {
    const n = idArg(id, 'id');
    const raw = await posts.updatePost(ctx.upstream, n, postBody(input)).catch(missingPost(n));
    const post = corePost(raw, ctx.site.timezone);
    ctx.changes?.written('posts', post.databaseId, 'UPDATED', post);
    return post;
  },
  deletePost: async (_p, { id, force }, ctx) => {
    const n = idArg(id, 'id');
    const deleted = deletedPost(
      n,
      await posts.deletePost(ctx.upstream, n, Boolean(force)).catch(missingPost(n)),
      ctx.site.timezone,
    );
    ctx.changes?.written('posts', n, 'DELETED', null);
    return deleted;
  },
  createPosts: async (_p, { inputs, atomic }, ctx) =>
    bulkPayload(await createPosts(ctx, inputs, Boolean(atomic)), (post) => ({ post })),
};

export const Post: PostResolvers = {
  id: (p) => toGlobalId('Post', p.databaseId),
};

export const postsResolvers: Resolvers = {
  Query: { ...contentQuery },
  Mutation: { ...contentMutation },
  Post,
  PostConnection: connectionFields,
};
