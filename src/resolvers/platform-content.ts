/**
 * Query.posts and the post mutations (core/v2: createPost, updatePost,
 * deletePost, createPosts), oEmbed, attachment lookup, duplicate-post links,
 * the form challenge and FacetWP facets. Thin: args -> mapping ->
 * upstream/platform.ts (and upstream/batch.ts for bulk writes) -> mapping.
 */
import type { Context } from '../context.ts';
import type { CreatePostInput, FacetsResolvers, MutationError, MutationResolvers, PostResolvers, QueryResolvers } from '../generated/graphql.ts';
import { databaseIdOf, toGlobalId } from '../mapping/ids.ts';
import {
  attachmentLookup,
  challengeOf,
  challengePayload,
  corePost,
  deletedPost,
  facetFetchOf,
  facetRefreshOf,
  fetchData,
  oembedOf,
  postBody,
  postInputField,
  postsQuery,
  refreshData,
  suggestionsOf,
  verificationOf,
  type PostModel,
} from '../mapping/platform.ts';
import { obj, UpstreamShapeError } from '../mapping/json.ts';
import { checkAtomic, sendWrites, type WriteOutcome } from '../upstream/batch.ts';
import { GatewayError } from '../upstream/errors.ts';
import * as platform from '../upstream/platform.ts';
import { declaredArgs } from '../upstream/discovery.ts';
import { connection } from './connection.ts';

const NS = platform.PLATFORM_NAMESPACES;

/** Facets has no state of its own: its fields are the two FacetWP routes. */
export type FacetsModel = Record<string, never>;

/** `Post` by database ID, through the list (core/v2 has no single-post route in the spec). Published posts only. */
export async function postById(ctx: Context, id: number): Promise<PostModel | null> {
  const page = await platform.postsPage(ctx.upstream, { include: [id] }, 1, 1);
  return page.items.length ? corePost(page.items[0], ctx.site.timezone) : null;
}

function idArg(id: string, arg: string): number {
  const n = databaseIdOf(id, 'Post');
  if (n === null) throw GatewayError.badInput(`${arg}: ${JSON.stringify(id)} is neither a Post global ID nor a positive database ID`, { arguments: [arg] });
  return n;
}

export const contentQuery: Pick<QueryResolvers, 'posts' | 'oembed' | 'oembedProxy' | 'attachmentByUrl' | 'challenge' | 'facets'> = {
  posts: (_p, args, ctx) => {
    // Arguments the site's list does not declare are refused, not silently ignored (mapping/platform.ts postsQuery).
    const declared = declaredArgs(ctx.site, 'GET', '/core/v2/posts');
    const { query, offset } = postsQuery(args.where, args.orderBy, args.context, declared);
    return connection(
      ctx,
      args,
      (page, per) => platform.postsPage(ctx.upstream, query, page, per, offset),
      platform.POSTS_MAX_PER_PAGE,
      (raw) => corePost(raw, ctx.site.timezone),
    );
  },
  oembed: async (_p, { url, maxWidth, format }, ctx) => {
    const res = await platform.oembed(ctx.upstream, 'embed', { url, maxwidth: maxWidth, format: format?.toLowerCase() });
    return oembedOf(res.body);
  },
  oembedProxy: async (_p, { url, maxWidth, maxHeight, format, discover }, ctx) => {
    const res = await platform.oembed(ctx.upstream, 'proxy', { url, maxwidth: maxWidth, maxheight: maxHeight, format: format?.toLowerCase(), discover });
    return oembedOf(res.body);
  },
  attachmentByUrl: async (_p, { url }, ctx) => {
    return attachmentLookup(await platform.attachmentId(ctx.upstream, url));
  },
  challenge: async (_p, _a, ctx) => {
    return challengeOf(await platform.getChallenge(ctx.upstream));
  },
  facets: (_p, _a, ctx) => {
    return {};
  },
};

/** Most items one `createPosts` takes (20 batches of 25), as the calendar bulk mutations. */
export const MAX_BULK_POSTS = 500;

/** An upstream error as `MutationError.upstream`: `{code, status, route, params, details}`. */
function upstreamOf(e: GatewayError): unknown {
  const x = e.extensions;
  if (!x.upstream) return null;
  const out: Record<string, unknown> = { ...(x.upstream as object) };
  if (x.params !== undefined) out.params = x.params;
  if (x.details !== undefined) out.details = x.details;
  return out;
}

/** One item's failure: the path names the input field of the first parameter the site refused, as the calendar bulk writes do. */
function itemError(e: GatewayError, index: number, notExecuted = false): MutationError {
  const item = ['inputs', String(index)];
  if (notExecuted) return { code: 'NOT_EXECUTED', message: e.message, path: item, upstream: null };
  const params = e.extensions.params;
  const first = Array.isArray(params) ? params[0] : params ? Object.keys(params)[0] : undefined;
  return { code: e.code, message: e.message, path: first ? [...item, postInputField(String(first))] : item, upstream: upstreamOf(e) };
}

interface PostResultModel {
  index: number;
  databaseId: number | null;
  post: PostModel | null;
  error: MutationError | null;
}

/** A post write sent whose answer was lost or unreadable: it may have been written (see the README, "Write outcomes"). */
function unknownError(e: GatewayError, index: number, why: string): MutationError {
  const message = `Outcome unknown: the post create was sent but ${why}; look for the post (by title, status any) before creating it again.`;
  return { code: 'OUTCOME_UNKNOWN', message, path: ['inputs', String(index)], upstream: upstreamOf(e) };
}

function postResult(ctx: Context, o: WriteOutcome, index: number): PostResultModel {
  if (!o.ok && o.unknown) return { index, databaseId: null, post: null, error: unknownError(o.error, index, `its answer was lost (${o.error.message})`) };
  if (!o.ok) return { index, databaseId: null, post: null, error: itemError(o.error, index, o.notExecuted) };
  try {
    const post = corePost(o.body, ctx.site.timezone);
    return { index, databaseId: post.databaseId, post, error: null };
  } catch (err) {
    // The site answered 2xx, so it did something, but the body is not a post: whether this item was written is unknown.
    if (!(err instanceof UpstreamShapeError)) throw err;
    const e = new GatewayError('UPSTREAM_BAD_RESPONSE', err.message, { upstream: { code: null, status: o.status, route: 'POST /core/v2/posts' } });
    return { index, databaseId: null, post: null, error: unknownError(e, index, `the site answered a body that is not a post (${err.message})`) };
  }
}

/**
 * createPosts: each input -> one POST /core/v2/posts write; upstream/batch.ts
 * sends those the site marks `allow_batch` (WordPress marks the posts routes;
 * real-site-behaviour.md) in /batch/v1 requests of at most `maxBatchSize`,
 * the rest directly; outcomes per item, in input order.
 */
async function createPosts(ctx: Context, inputs: readonly CreatePostInput[], atomic: boolean) {
  if (inputs.length > MAX_BULK_POSTS) {
    throw GatewayError.badInput(`inputs: at most ${MAX_BULK_POSTS} items per mutation; got ${inputs.length}.`, { arguments: ['inputs'], max: MAX_BULK_POSTS });
  }
  // WordPress never lets an anonymous caller create posts; refusing here sends nothing.
  if (!ctx.upstream.authenticated) throw GatewayError.unauthenticated('Writes need credentials: send an Authorization header (application password).');
  const writes = inputs.map((input) => platform.createPostWrite(postBody(input)));
  if (atomic) checkAtomic(ctx.site, writes);
  const outcomes = writes.length ? await sendWrites(ctx.upstream, ctx.site, writes, { atomic }) : [];
  const results = outcomes.map((o, i) => postResult(ctx, o, i));
  const written = results.filter((r) => !r.error).length;
  const unknown = results.filter((r) => r.error?.code === 'OUTCOME_UNKNOWN').length;
  return { results, written, failed: results.length - written - unknown, unknown };
}

export const contentMutation: Pick<MutationResolvers, 'createPost' | 'updatePost' | 'deletePost' | 'createPosts' | 'removeDuplicatePostOriginal' | 'verifyChallenge'> = {
  createPost: async (_p, { input }, ctx) => {
    return corePost(await platform.createPost(ctx.upstream, postBody(input)), ctx.site.timezone);
  },
  // A missing post answers 404 rest_post_invalid_id (real-site-behaviour.md "core/v2 single posts"): NOT_FOUND.
  updatePost: async (_p, { id, input }, ctx) => {
    const n = idArg(id, 'id');
    return corePost(await platform.updatePost(ctx.upstream, n, postBody(input)), ctx.site.timezone);
  },
  deletePost: async (_p, { id, force }, ctx) => {
    const n = idArg(id, 'id');
    return deletedPost(n, await platform.deletePost(ctx.upstream, n, Boolean(force)), ctx.site.timezone);
  },
  createPosts: (_p, { inputs, atomic }, ctx) => createPosts(ctx, inputs, Boolean(atomic)),
  removeDuplicatePostOriginal: async (_p, { postId }, ctx) => {
    const body = obj(await platform.removeDuplicateOriginal(ctx.upstream, idArg(postId, 'postId')), 'duplicate-post answer');
    return { success: body.success === true, message: typeof body.message === 'string' ? body.message : null, raw: body };
  },
  verifyChallenge: async (_p, { solution, payload }, ctx) => {
    if ((solution == null) === (payload == null)) {
      throw GatewayError.badInput('verifyChallenge: pass exactly one of `solution` and `payload`', { arguments: ['solution', 'payload'] });
    }
    const encoded = solution ? challengePayload(solution) : payload!;
    return verificationOf(await platform.verifyChallenge(ctx.upstream, encoded));
  },
};

export const Post: PostResolvers = {
  id: (p) => toGlobalId('Post', p.databaseId),
};

export const Facets: FacetsResolvers = {
  refresh: async (_p, { input }, ctx) => facetRefreshOf(await platform.facetRefresh(ctx.upstream, 'facetwp_refresh', refreshData(input))),
  autocomplete: async (_p, { facetName, query }, ctx) =>
    suggestionsOf(await platform.facetRefresh(ctx.upstream, 'facetwp_autocomplete_load', { facet_name: facetName, query })),
  fetch: async (_p, { input }, ctx) => facetFetchOf(await platform.facetFetch(ctx.upstream, fetchData(input))),
};
