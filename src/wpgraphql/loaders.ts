/**
 * The compatible graph's own per-operation loaders, beside the main graph's (ctx.loaders): the posts' taxonomy
 * (WordPress's `category`, core/v2), users, pages and media items, read from WordPress's core/v2 routes in `include=`
 * batches. Those routes are not the contract's (spec/routes.tsv lists only core/v2 posts): a site whose index does
 * not list them has them refused by the operation's session's route gate, naming the route, before anything is sent.
 * Posts by ID go through the posts list (`include=`), one request per 100 IDs.
 */
import DataLoader from 'dataloader';
import type { Context } from '../context.ts';
import { GatewayError, isGatewayError } from '../errors.ts';
import { corePost, refuseUndeclared } from '../namespaces/posts/mapping.ts';
import { declaredArgs } from '../upstream/discovery.ts';
import { POSTS_MAX_PER_PAGE, postsPage } from '../namespaces/posts/requests.ts';
import type { PostModel } from '../mapping/platform-models.ts';
import { int, isJson, obj, rendered, str, type Json } from '../mapping/json.ts';
import type { QueryValue } from '../upstream/client.ts';
import { headerInt, listItems, okOrInvalidPage, pastEndOrThrow, type ListPage } from '../upstream/paging.ts';
import type { WpContent, WpTerm, WpUser } from './models.ts';

type Query = Record<string, QueryValue>;

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
    raw,
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

/** A page or a media item: the post's mapping, with what only hierarchical types and attachments carry. */
export function coreContent(raw: unknown, kind: WpContent['kind'], siteZone: string): WpContent {
  const o = obj(raw, kind === 'Page' ? 'page' : 'media item');
  const { kind: _post, ...post } = corePost(raw, siteZone);
  // An attachment's parent is `post` in its answer, a page's `parent`.
  return { ...post, kind, parentId: int(kind === 'Page' ? o.parent : o.post) || null, menuOrder: int(o.menu_order) };
}

/** The core/v2 collections the compatible graph reads besides posts (not the contract's: the gate may refuse them). */
export type CoreCollection = 'categories' | 'tags' | 'tribe_events_cat' | 'users' | 'media' | 'pages';

/** WordPress's post types (core/v2/types: an object by name, in registration order). */
export async function coreTypes(ctx: Context): Promise<Json> {
  const res = await ctx.upstream.request({ method: 'GET', path: `${CORE}/types`, route: `GET ${CORE}/types` });
  return isJson(res.body) ? res.body : {};
}

/** One GET of a core/v2 collection (the gate refuses it on a site without the route). */
export async function coreCollection(ctx: Context, name: CoreCollection, query: Query): Promise<unknown[]> {
  return (await corePage(ctx, name, query)).items;
}

/**
 * One page of a core/v2 collection with the total the site reports; a page past the end (WordPress answers 400
 * rest_post_invalid_page_number) is an empty page, as for posts.
 */
export async function corePage(ctx: Context, name: CoreCollection, query: Query): Promise<ListPage> {
  const path = `${CORE}/${name}`;
  const route = `GET ${path}`;
  // WordPress drops a parameter its route does not declare without a word (the list would answer wider): refused.
  const declared = declaredArgs(ctx.site, 'GET', path);
  if (declared) refuseUndeclared(new Map(Object.keys(query).map((k) => [k.replace(/\[.*$/, ''), k])), declared, route);
  const page = typeof query.page === 'number' ? query.page : 1;
  const res = await ctx.upstream.request({
    method: 'GET',
    path,
    query,
    route,
    ...(page > 1 ? { okStatuses: okOrInvalidPage } : {}),
  });
  const pastEnd = pastEndOrThrow(res, page, route);
  if (pastEnd) return pastEnd;
  return { items: listItems(res, route), total: headerInt(res.headers, 'x-wp-total') };
}

function byInclude<V extends { databaseId: number | null }>(
  ctx: Context,
  name: CoreCollection,
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

/** The core/v2 answers of a taxonomy's terms by ID (for what only those answers carry: Yoast's head). */
function coreTerms(ctx: Context) {
  const byRoute = new Map<string, DataLoader<number, { databaseId: number | null; raw: unknown } | null>>();
  return (name: 'categories' | 'tags' | 'tribe_events_cat') => {
    let l = byRoute.get(name);
    if (!l)
      byRoute.set(name, (l = byInclude(ctx, name, (raw) => ({ databaseId: isJson(raw) ? int(raw.id) : null, raw }))));
    return l;
  };
}

function createWpLoaders(ctx: Context) {
  return {
    /** WordPress's settings, once per operation (site.ts). */
    settings: undefined as Promise<Json> | undefined,
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
    media: byInclude(ctx, 'media', (raw) => coreContent(raw, 'MediaItem', ctx.site.timezone)),
    page: byInclude(ctx, 'pages', (raw) => coreContent(raw, 'Page', ctx.site.timezone)),
    coreTerm: coreTerms(ctx),
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

/**
 * WordPress's settings (GET /core/v2/settings), read once per operation. WordPress serves them to administrators only
 * (manage_options), where WPGraphQL shows every one but the email to anyone: a caller the site refuses gets an error
 * naming the setting and why, never a guess.
 */
export async function settingsOf(ctx: Context, field: string): Promise<Json> {
  const l = wpLoaders(ctx);
  l.settings ??= ctx.upstream
    .request({ method: 'GET', path: `${CORE}/settings`, route: `GET ${CORE}/settings` })
    .then((res) => (isJson(res.body) ? res.body : {}));
  try {
    return await l.settings;
  } catch (err) {
    const status = isGatewayError(err) ? err.extensions.upstream?.status : undefined;
    if (status === 401 || status === 403)
      throw new GatewayError(
        'FORBIDDEN',
        `${field}: WordPress serves its settings (GET /core/v2/settings) to administrators only, and the site refused ` +
          "this caller (or the gateway's service credential); send an administrator's credentials to read it",
        { route: 'GET /core/v2/settings' },
      );
    throw err;
  }
}

/** The reading settings WPGraphQL's front-page fields and `nodeByUri("/")` follow. */
export async function readingOf(
  ctx: Context,
  field: string,
): Promise<{ showOnFront: string | null; pageOnFront: number; pageForPosts: number }> {
  const s = await settingsOf(ctx, field);
  return {
    showOnFront: str(s.show_on_front),
    pageOnFront: int(s.page_on_front) ?? 0,
    pageForPosts: int(s.page_for_posts) ?? 0,
  };
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
