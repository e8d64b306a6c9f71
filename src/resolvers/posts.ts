/**
 * Query.posts and the post mutations (core/v2: createPost, updatePost,
 * deletePost, createPosts; schema/content.graphql). Thin: reads are args ->
 * mapping -> src/namespaces/posts/requests.ts -> mapping; every mutation is an
 * `engineMutation` writing through the engine (writes/posts.ts: locked,
 * verified against the site's answer). Here, not in src/namespaces/posts/,
 * because it composes the write engine, which itself builds on the namespace's
 * requests and mapping: from the namespace folder that would be a two-way
 * dependency.
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
import { toGlobalId } from '../mapping/ids.ts';
import { corePost, postsQuery, type PostModel } from '../namespaces/posts/mapping.ts';
import * as posts from '../namespaces/posts/requests.ts';
import { declaredArgs } from '../upstream/discovery.ts';
import { engineMutation as E } from '../writes/engine.ts';
import { createPost, createPosts, deletePost, updatePost } from '../writes/posts.ts';
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

export const contentMutation: Pick<MutationResolvers, 'createPost' | 'updatePost' | 'deletePost' | 'createPosts'> = {
  createPost: E(async (_p, { input }, ctx) => createPost(ctx, input)),
  // A missing post answers 404 rest_post_invalid_id (docs/real-sites.md): NOT_FOUND naming `id`.
  updatePost: E(async (_p, { id, input }, ctx) => updatePost(ctx, id, input)),
  deletePost: E(async (_p, { id, force }, ctx) => deletePost(ctx, id, Boolean(force))),
  createPosts: E(async (_p, { inputs, atomic }, ctx) =>
    bulkPayload(await createPosts(ctx, inputs, Boolean(atomic)), (post) => ({ post })),
  ),
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
