/**
 * The post writes (core/v2: createPost, updatePost, deletePost, createPosts) as writes of the engine's POSTS kind
 * (kinds.ts): each post written is locked while it is written, sent (the bulk create through /batch/v1 where the site
 * marks POST /core/v2/posts `allow_batch`, as WordPress does, in requests of at most `maxBatchSize`), its answer
 * compared with the input (WRITE_NOT_APPLIED where the site kept something else) and published to subscribers; results
 * per item, in input order, as the calendar's bulk writes answer them (writes/results.ts).
 *
 * A single post write is sent for any caller: the site's refusal of an anonymous one names the capability it lacks.
 */
import type { Context } from '../context.ts';
import type { CreatePostInput, UpdatePostInput } from '../generated/graphql.ts';
import type { PostModel } from '../namespaces/posts/mapping.ts';
import { createMany, createOne, deleteOne, updateOne } from './calendar.ts';
import { POSTS } from './kinds.ts';
import type { ItemResult } from './results.ts';

export async function createPost(ctx: Context, input: CreatePostInput): Promise<PostModel | null> {
  return createOne(ctx, POSTS, input, null, 'site');
}

/** Changes only the fields given (one PATCH); a missing post is NOT_FOUND. */
export async function updatePost(ctx: Context, id: string, input: UpdatePostInput): Promise<PostModel | null> {
  return updateOne(ctx, POSTS, id, null, input, 'PATCH', null, 'site');
}

/** Trashes the post (its answer: the post, status trash), or with `force` deletes it for good. */
export async function deletePost(
  ctx: Context,
  id: string,
  force: boolean,
): Promise<{ databaseId: number; permanently: boolean; post: PostModel | null }> {
  const r = await deleteOne(ctx, POSTS, id, null, force, null, 'site');
  return { databaseId: r.databaseId, permanently: r.permanently, post: r.model };
}

/** At most as many items as the calendar bulk writes (20 batches of 25); credentials needed. */
export async function createPosts(
  ctx: Context,
  inputs: readonly CreatePostInput[],
  atomic: boolean,
): Promise<ItemResult<PostModel>[]> {
  return createMany(ctx, POSTS, inputs, atomic, null);
}
