/**
 * The compatible graph's own per-operation loaders, beside the main graph's (ctx.loaders): the posts' taxonomy
 * (WordPress's `category`, core/v2), users and media items, read from WordPress's core/v2 routes in `include=`
 * batches. Those routes are not the contract's (spec/routes.tsv lists only core/v2 posts): a site whose index does
 * not list them has them refused by the operation's session's route gate, naming the route, before anything is sent.
 * Posts by ID go through the posts list (`include=`), one request per 100 IDs.
 */
import DataLoader from 'dataloader';
import type { Context } from '../context.ts';
import { corePost } from '../namespaces/posts/mapping.ts';
import { POSTS_MAX_PER_PAGE, postsPage } from '../namespaces/posts/requests.ts';
import type { PostModel } from '../mapping/platform-models.ts';
import { int, isJson, obj, rendered, str } from '../mapping/json.ts';
import { listItems } from '../upstream/paging.ts';
import type { WpMedia, WpTerm, WpUser } from './models.ts';

const CORE = '/core/v2';
/** `per_page` maximum of WordPress's collections. */
const CORE_MAX = 100;

export function coreTerm(raw: unknown, kind: 'Category' | 'Tag'): WpTerm {
  const o = obj(raw, 'term');
  return {
    kind,
    databaseId: int(o.id) ?? 0,
    name: str(o.name),
    slug: str(o.slug),
    description: str(o.description),
    count: int(o.count),
    link: str(o.link),
    parentId: int(o.parent) || null,
  };
}

export function coreUser(raw: unknown): WpUser {
  const o = obj(raw, 'user');
  return {
    kind: 'User',
    databaseId: int(o.id) ?? 0,
    name: str(o.name),
    slug: str(o.slug),
    description: str(o.description),
    url: str(o.url),
    link: str(o.link),
  };
}

function coreMedia(raw: unknown): WpMedia {
  const o = obj(raw, 'media item');
  return {
    kind: 'MediaItem',
    databaseId: int(o.id),
    sourceUrl: str(o.source_url),
    altText: str(o.alt_text),
    mimeType: str(o.mime_type),
  };
}

/** One GET of a core/v2 collection (the gate refuses it on a site without the route). */
export async function coreCollection(
  ctx: Context,
  name: 'categories' | 'tags' | 'users' | 'media',
  query: Record<string, string | number | boolean | Array<string | number>>,
): Promise<unknown[]> {
  const path = `${CORE}/${name}`;
  const route = `GET ${path}`;
  const res = await ctx.upstream.request({ method: 'GET', path, query, route });
  return listItems(res, route);
}

function byInclude<V extends { databaseId: number | null }>(
  ctx: Context,
  name: 'categories' | 'users' | 'media',
  map: (raw: unknown) => V,
): DataLoader<number, V | null> {
  return new DataLoader<number, V | null>(
    async (ids) => {
      const found = new Map<number, V>();
      const raws = await coreCollection(ctx, name, { include: [...ids], per_page: ids.length });
      for (const raw of raws) {
        const v = map(raw);
        if (v.databaseId !== null) found.set(v.databaseId, v);
      }
      return ids.map((id) => found.get(id) ?? null);
    },
    { maxBatchSize: CORE_MAX },
  );
}

function createWpLoaders(ctx: Context) {
  return {
    post: new DataLoader<number, PostModel | null>(
      async (ids) => {
        const page = await postsPage(ctx.upstream, { include: [...ids] }, 1, ids.length);
        const found = new Map(page.items.map((raw) => corePost(raw, ctx.site.timezone)).map((p) => [p.databaseId, p]));
        return ids.map((id) => found.get(id) ?? null);
      },
      { maxBatchSize: POSTS_MAX_PER_PAGE },
    ),
    category: byInclude(ctx, 'categories', (raw) => coreTerm(raw, 'Category')),
    user: byInclude(ctx, 'users', coreUser),
    media: byInclude(ctx, 'media', coreMedia),
  };
}

export type WpLoaders = ReturnType<typeof createWpLoaders>;

const perContext = new WeakMap<Context, WpLoaders>();

/** This operation's loaders (made on first use, gone with the context). */
export function wpLoaders(ctx: Context): WpLoaders {
  let l = perContext.get(ctx);
  if (!l) perContext.set(ctx, (l = createWpLoaders(ctx)));
  return l;
}

/** The author's name Yoast printed in a post's head (`author`), for sites whose index has no users route. */
export function yoastAuthor(raw: unknown): string | null {
  const head = isJson(raw) && isJson(raw.yoast_head_json) ? raw.yoast_head_json : null;
  return head ? str(head.author) : null;
}

/** The rendered text of a post's field as WPGraphQL gives it. */
export function renderedOf(raw: unknown, key: 'title' | 'content' | 'excerpt'): string | null {
  return isJson(raw) ? rendered(raw[key]) : null;
}
