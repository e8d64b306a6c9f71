/**
 * `createPosts` (core/v2): each input -> one POST /core/v2/posts write;
 * upstream/batch.ts sends those the site marks `allow_batch` (WordPress marks
 * the posts routes; docs/real-sites.md) in /batch/v1 requests of at most
 * `maxBatchSize`, the rest directly; results per item, in input order, as
 * the calendar bulk writes answer them (writes/results.ts).
 */
import type { Context } from '../context.ts';
import type { CreatePostInput } from '../generated/graphql.ts';
import { UpstreamShapeError } from '../mapping/json.ts';
import { corePost, postBody, postInputField, type PostModel } from '../namespaces/posts/mapping.ts';
import { checkAtomic, sendWrites, type WriteOutcome } from '../upstream/batch.ts';
import { GatewayError } from '../errors.ts';
import * as platform from '../namespaces/posts/requests.ts';
import { checkBulkSize, needAuth } from './plan.ts';
import { failedItem, unknownError, type ItemResult } from './results.ts';

/**
 * Why a post write sent may have been written though its answer was lost or unreadable (docs/writes.md, "Write
 * outcomes").
 */
const unknownMessage = (why: string) =>
  `Outcome unknown: the post create was sent but ${why}; look for the post (by title, status any) before creating it again`;

function unknownPost(e: GatewayError, index: number, why: string) {
  return unknownError(e, ['inputs', String(index)], unknownMessage(why));
}

/** One item's result: the post the site answered, or why it was not (or may not have been) written. */
export function postResult(o: WriteOutcome, index: number, siteZone: string): ItemResult<PostModel> {
  const item = ['inputs', String(index)];
  // As the calendar's bulk writes answer (results.ts `failedItem`): the path names the input field of the first
  // parameter the site refused.
  if (!o.ok) {
    const error = failedItem(o, item, {
      unknown: (e) => unknownMessage(`its answer was lost (${e.message})`),
      fieldOf: (param) => [...item, postInputField(param)],
    });
    return { index, databaseId: null, model: null, error };
  }
  try {
    const post = corePost(o.body, siteZone);
    return { index, databaseId: post.databaseId, model: post, error: null };
  } catch (err) {
    // The site answered 2xx, so it did something, but the body is not a post: whether this item was written is unknown.
    if (!(err instanceof UpstreamShapeError)) throw err;
    const e = new GatewayError('UPSTREAM_BAD_RESPONSE', err.message, {
      upstream: { code: null, status: o.status, route: 'POST /core/v2/posts' },
    });
    return {
      index,
      databaseId: null,
      model: null,
      error: unknownPost(e, index, `the site answered a body that is not a post (${err.message})`),
    };
  }
}

export async function createPosts(
  ctx: Context,
  inputs: readonly CreatePostInput[],
  atomic: boolean,
): Promise<ItemResult<PostModel>[]> {
  // At most as many items as the calendar bulk writes (20 batches of 25).
  checkBulkSize(inputs.length, 'inputs');
  needAuth(ctx.upstream);
  const writes = inputs.map((input) => platform.createPostWrite(postBody(input)));
  if (atomic) checkAtomic(ctx.site, writes);
  const outcomes = writes.length ? await sendWrites(ctx.upstream, ctx.site, writes, { atomic }) : [];
  const results = outcomes.map((o, i) => postResult(o, i, ctx.site.timezone));
  // Published to subscribers at once (src/subscriptions/).
  for (const r of results) if (r.model) ctx.changes?.written('posts', r.databaseId!, 'CREATED', r.model);
  return results;
}
