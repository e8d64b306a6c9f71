/**
 * Changed objects read again with a subscriber's credentials (docs/subscriptions.md
 * "Who sees what"): one read per credential and batch of changes, whatever
 * the number of subscribers sharing that credential, through the same paths
 * a query takes, so what comes back is exactly what that credential may read.
 *
 * - Events: the `event` loader (one legacy `include=` request per 50 IDs,
 *   single reads for IDs outside its window, as `nodes(ids:)`).
 * - Posts: one `include=` list request; with a credential, every status
 *   (`trash` included), which the site refuses to those who may not edit
 *   posts: they are asked again for published posts.
 */
import type { Context } from '../context.ts';
import { isGatewayError, type GatewayError } from '../errors.ts';
import type { EventModel } from '../mapping/models.ts';
import { corePost, type PostModel } from '../namespaces/posts/mapping.ts';
import { postsPage } from '../namespaces/posts/requests.ts';
import { namespaceIndex } from '../namespaces/site-index.ts';
import type { Topic } from './types.ts';
import { NAMESPACE } from '../namespaces/calendar/vocabulary.ts';

export type LiveModel = EventModel | PostModel;

/** What the site answers when the credential itself is wrong: the subscription cannot go on. */
const CREDENTIAL_CODES = new Set([
  'incorrect_password',
  'invalid_username',
  'invalid_email',
  'application_passwords_disabled',
  'application_passwords_disabled_for_user',
]);

export function isCredentialError(err: unknown): err is GatewayError {
  return (
    isGatewayError(err) && err.code === 'UNAUTHENTICATED' && CREDENTIAL_CODES.has(err.extensions.upstream?.code ?? '')
  );
}

const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];

function statusRefused(err: unknown): boolean {
  if (!isGatewayError(err)) return false;
  const code = err.extensions.upstream?.code ?? '';
  return code === 'rest_forbidden_status' || code === 'rest_invalid_param';
}

async function posts(ctx: Context, ids: readonly number[]): Promise<Map<number, PostModel>> {
  const query = { include: [...ids] };
  let page;
  try {
    page = await postsPage(
      ctx.upstream,
      ctx.upstream.authenticated ? { ...query, status: POST_STATUSES } : query,
      1,
      ids.length,
    );
  } catch (err) {
    if (!ctx.upstream.authenticated || !statusRefused(err)) throw err;
    page = await postsPage(ctx.upstream, query, 1, ids.length);
  }
  const out = new Map<number, PostModel>();
  for (const raw of page.items) {
    const m = corePost(raw, ctx.site.timezone);
    out.set(m.databaseId, m);
  }
  return out;
}

/**
 * Each ID's object as `ctx`'s credential reads it, or null when it cannot. Throws what the site says of the credential.
 */
export async function reread(
  ctx: Context,
  topic: Topic,
  ids: readonly number[],
): Promise<Map<number, LiveModel | null>> {
  const out = new Map<number, LiveModel | null>();
  if (!ids.length) return out;
  if (topic === 'posts') {
    const found = await posts(ctx, ids);
    for (const id of ids) out.set(id, found.get(id) ?? null);
    return out;
  }
  const found = await ctx.loaders.event.loadMany(ids);
  ids.forEach((id, i) => {
    const r = found[i];
    if (r instanceof Error) throw r;
    out.set(id, r ?? null);
  });
  return out;
}

/** The credential check of a new subscription: one small request (the namespace index) per credential and minute. */
export async function probe(ctx: Context, topic: Topic): Promise<void> {
  const ns = topic === 'posts' ? 'core/v2' : NAMESPACE[ctx.site.hasLegacy ? 'legacy' : 'core'];
  await namespaceIndex(ctx.upstream, ns);
}
