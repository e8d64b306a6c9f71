/**
 * Posts by modification time (docs/subscriptions.md): core/v2 posts (WordPress's
 * posts controller) take `modified_after` and `orderby=modified`, so each poll
 * asks for what changed since the previous one's newest change, oldest first,
 * and carries on from the last one it got (nothing is skipped however many
 * changed; MAX_PAGES pages per poll, the rest at the next).
 *
 * With a poll credential that may edit posts, every status is asked for,
 * `trash` included: a post moved to the trash is DELETED. Posts deleted for
 * good, and changes the poll's credential cannot see (drafts, for an
 * anonymous poll), are not found here; gateway writes publish them.
 */
import { isGatewayError } from '../../errors.ts';
import { corePost, type PostModel } from '../../namespaces/posts/mapping.ts';
import { POSTS_MAX_PER_PAGE, postsPage } from '../../namespaces/posts/requests.ts';
import type { Change } from '../types.ts';
import { fingerprint, isPublic, utcSecond, type Source } from './source.ts';

const MAX_PAGES = 4;
/** Public or not, of the posts seen lately: who hears of their deletion (hub.ts). */
const KNOWN = 500;
const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];

export interface PostsState {
  /** The newest modification seen, site-local (`modified`): the next poll's `modified_after`, less a second. */
  after: string | null;
  /** Posts already seen at that second, with their fingerprints (a second save in that second changes it). */
  atAfter: [number, string][];
  known: [number, 0 | 1][];
  /** Whether the poll's credential may list every status (false after the site refused it). */
  statuses: boolean;
  /** The highest post ID (`orderby=id`): WordPress numbers new posts upwards, so a new post is above it. */
  maxId: number;
}

/** A site-local wall time a second earlier: `modified_after` is exclusive, and a second may hold several saves. */
function secondBefore(local: string): string {
  const t = Date.parse(`${local}Z`) - 1000;
  return new Date(t).toISOString().slice(0, 19);
}

const wallOf = (m: PostModel) => m.modifiedAt?.slice(0, 19) ?? null;

/** The site refused `status` for this credential (`rest_forbidden_status`). */
function statusRefused(err: unknown): boolean {
  if (!isGatewayError(err)) return false;
  const code = err.extensions.upstream?.code ?? '';
  const params = err.extensions.params;
  const names = Array.isArray(params) ? params : Object.keys(params ?? {});
  return code === 'rest_forbidden_status' || (code === 'rest_invalid_param' && names.includes('status'));
}

export const postsModified: Source<PostsState> = {
  name: 'posts:modified',
  topic: 'posts',
  applies: (site) => site.routes.some((r) => r.pattern === '/core/v2/posts'),
  async poll({ ctx, site }, state) {
    let statuses = state?.statuses ?? ctx.upstream.authenticated;
    const list = async (query: Record<string, string | number | string[]>, page: number) => {
      if (statuses) {
        try {
          return await postsPage(ctx.upstream, { ...query, status: STATUSES }, page, POSTS_MAX_PER_PAGE);
        } catch (err) {
          if (!statusRefused(err)) throw err;
          statuses = false;
        }
      }
      return postsPage(ctx.upstream, query, page, POSTS_MAX_PER_PAGE);
    };
    if (!state) {
      const [newest, highest] = await Promise.all([
        list({ orderby: 'modified', order: 'desc' }, 1),
        list({ orderby: 'id', order: 'desc' }, 1),
      ]);
      const top = newest.items.slice(0, 1).map((raw) => corePost(raw, site.timezone));
      const at = top[0] ? wallOf(top[0]) : null;
      const maxId = Math.max(0, ...highest.items.slice(0, 1).map((raw) => corePost(raw, site.timezone).databaseId));
      return {
        changes: [],
        state: {
          after: at,
          atAfter: top.map((m) => [m.databaseId, fingerprint(m)]),
          known: top.map((m) => [m.databaseId, isPublic(m) ? 1 : 0]),
          statuses,
          maxId,
        },
      };
    }
    const query = {
      orderby: 'modified',
      order: 'asc',
      ...(state.after ? { modified_after: secondBefore(state.after) } : {}),
    };
    const items: PostModel[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const res = await list(query, page);
      items.push(...res.items.map((raw) => corePost(raw, site.timezone)));
      if (res.items.length < POSTS_MAX_PER_PAGE) break;
    }
    const known = new Map(state.known);
    const atAfter = new Map(state.atAfter);
    const changes: Change[] = [];
    let after = state.after;
    let atNewest: [number, string][] = [...state.atAfter];
    let maxId = state.maxId ?? 0;
    for (const m of items) {
      const wall = wallOf(m);
      if (!wall) continue;
      const print = fingerprint(m);
      // Seen at that second already: a change only if its content differs (saved again within the second).
      const again = wall === state.after && atAfter.has(m.databaseId);
      if (again && atAfter.get(m.databaseId) === print) continue;
      const modified = utcSecond(m.modifiedAtUtc ?? m.modifiedAt);
      const pub = known.get(m.databaseId);
      const kind = m.status === 'trash' ? 'DELETED' : m.databaseId > maxId ? 'CREATED' : 'UPDATED';
      maxId = Math.max(maxId, m.databaseId);
      changes.push({
        topic: 'posts',
        id: m.databaseId,
        kind,
        modified,
        at: modified ?? new Date().toISOString(),
        source: 'MODIFIED_LIST',
        wasPublic: pub === undefined ? null : pub === 1,
        ...(again ? { again } : {}),
      });
      known.delete(m.databaseId);
      known.set(m.databaseId, isPublic(m) ? 1 : 0);
      if (after === null || wall > after) {
        after = wall;
        atNewest = [];
      }
      if (wall === after) atNewest = [...atNewest.filter(([id]) => id !== m.databaseId), [m.databaseId, print]];
    }
    return { changes, state: { after, atAfter: atNewest, known: [...known].slice(-KNOWN), statuses, maxId } };
  },
};
