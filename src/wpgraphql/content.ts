/**
 * WPGraphQL's posts, their taxonomies (`Category`: WordPress's `category`; `Tag`: `post_tag`) and users, from the
 * site's core/v2 posts (the main graph's requests and mapping, src/namespaces/posts/) and, for tags, the calendar's
 * legacy tag archive (which is `post_tag`, read by the main graph's loaders).
 */
import type { Context } from '../context.ts';
import { GatewayError, isGatewayError } from '../errors.ts';
import type { PostModel } from '../mapping/platform-models.ts';
import { str, isJson } from '../mapping/json.ts';
import { corePost, postsQuery } from '../namespaces/posts/mapping.ts';
import { POSTS_MAX_PER_PAGE, postsPage } from '../namespaces/posts/requests.ts';
import { declaredArgs } from '../upstream/discovery.ts';
import { siteOffers } from '../upstream/gate.ts';
import { connection, listIdentity, memoryConnection } from '../routes/connection.ts';
import { termsConnection } from '../resolvers/lists.ts';
import { legacyTerm } from '../namespaces/calendar/legacy-mapping.ts';
import { legacyList } from '../namespaces/calendar/legacy-requests.ts';
import { orNull } from '../loaders/index.ts';
import type { PostOrderField, PostsOrderBy, PostsWhere, TermsOrderBy, TermsWhere } from '../generated/graphql.ts';
import type { QueryValue } from '../upstream/client.ts';
import type { CursorScope } from '../paging/window.ts';
import { checkWhere, intIds, oneOrder, paging, renderedOnly, type WpPaging } from './args.ts';
import { databaseIdArg, pathOf, uriOf, wpGlobalId } from './ids.ts';
import { coreCollection, coreTerm, coreUser, renderedOf, wpLoaders, yoastAuthor } from './loaders.ts';
import { fromTerm, wpConnection, type WpConnection, type WpTerm, type WpUser } from './models.ts';
import { postSeo } from './seo.ts';

export type IdType = 'ID' | 'DATABASE_ID' | 'SLUG' | 'URI' | 'NAME';

/** The site's home, which permalinks start with. */
export const homeOf = (ctx: Context): string | null => ctx.site.home ?? ctx.site.url;

/** `2026-11-27T15:55:01` from a REST date with or without offset (WPGraphQL prints dates without one). */
export const wpDate = (v: string | null | undefined): string | null => (v ? v.replace(' ', 'T').slice(0, 19) : null);

// ---- posts

interface PostsWhereArgs {
  search?: string | null;
  categoryId?: number | null;
  categoryIn?: (string | number | null)[] | null;
  categoryNotIn?: (string | number | null)[] | null;
  categoryName?: string | null;
  tag?: string | null;
  tagId?: string | null;
  tagIn?: (string | number | null)[] | null;
  tagNotIn?: (string | number | null)[] | null;
  tagSlugIn?: (string | null)[] | null;
  author?: number | null;
  authorIn?: (string | number | null)[] | null;
  authorNotIn?: (string | number | null)[] | null;
  authorName?: string | null;
  in?: (string | number | null)[] | null;
  notIn?: (string | number | null)[] | null;
  name?: string | null;
  nameIn?: (string | null)[] | null;
  status?: string | null;
  stati?: (string | null)[] | null;
  orderby?: ({ field: string; order: string } | null)[] | null;
}

const POSTS_WHERE = [
  'search',
  'categoryId',
  'categoryIn',
  'categoryNotIn',
  'categoryName',
  'tag',
  'tagId',
  'tagIn',
  'tagNotIn',
  'tagSlugIn',
  'author',
  'authorIn',
  'authorNotIn',
  'authorName',
  'in',
  'notIn',
  'name',
  'nameIn',
  'status',
  'stati',
  'orderby',
];

/** WPGraphQL's post order fields -> the posts controller's (COMMENT_COUNT and MENU_ORDER it does not sort by). */
const POST_ORDER: Record<string, PostOrderField | undefined> = {
  AUTHOR: 'AUTHOR',
  DATE: 'DATE',
  IN: 'INCLUDE',
  MODIFIED: 'MODIFIED',
  NAME_IN: 'INCLUDE_SLUGS',
  PARENT: 'PARENT',
  SLUG: 'SLUG',
  TITLE: 'TITLE',
};

const slugs = (v: readonly (string | null)[] | null | undefined) =>
  v ? v.filter((s): s is string => typeof s === 'string') : undefined;

/** Term slugs -> IDs through a list that takes `slug` (categories: core/v2; tags: the legacy archive). */
async function termIdsBySlug(ctx: Context, kind: 'categories' | 'tags', names: string[]): Promise<number[]> {
  if (!names.length) return [];
  const raws =
    kind === 'categories'
      ? await coreCollection(ctx, 'categories', { slug: names, per_page: 100 })
      : (await legacyList(ctx.upstream, 'tags', { slug: names.join(','), hide_empty: false }, 1, 50)).items;
  const ids = raws.map((r) => (kind === 'categories' ? coreTerm(r, 'Category') : legacyTerm(r, 'Tag')).databaseId);
  // No term of that slug: no post can match (WordPress answers an empty list).
  if (!ids.length) ids.push(0);
  return ids;
}

async function postsWhere(ctx: Context, w: PostsWhereArgs): Promise<PostsWhere> {
  const out: PostsWhere = {};
  if (w.search) out.search = w.search;
  const cats = [...(w.categoryId ? [w.categoryId] : []), ...(intIds(w.categoryIn, 'where.categoryIn') ?? [])];
  if (w.categoryName) cats.push(...(await termIdsBySlug(ctx, 'categories', [w.categoryName])));
  // WPGraphQL sends categoryId as WP_Query's `cat` and categoryName as `category_name`, which take in the category's
  // children too; categoryIn is `category__in`, which does not.
  const children = (!!w.categoryId || !!w.categoryName) && !w.categoryIn?.length;
  if (cats.length) out.categories = children ? { terms: cats, includeChildren: true } : { terms: cats };
  const notCats = intIds(w.categoryNotIn, 'where.categoryNotIn');
  if (notCats) out.categoriesExclude = { terms: notCats };
  const tags = [
    ...(intIds(w.tagIn, 'where.tagIn') ?? []),
    ...(w.tagId ? (intIds([w.tagId], 'where.tagId') ?? []) : []),
  ];
  const tagSlugs = [...(w.tag ? w.tag.split(',') : []), ...(slugs(w.tagSlugIn) ?? [])];
  if (tagSlugs.length) tags.push(...(await termIdsBySlug(ctx, 'tags', tagSlugs)));
  if (tags.length) out.tags = { terms: tags };
  const notTags = intIds(w.tagNotIn, 'where.tagNotIn');
  if (notTags) out.tagsExclude = notTags;
  const authors = [...(w.author ? [w.author] : []), ...(intIds(w.authorIn, 'where.authorIn') ?? [])];
  if (w.authorName) {
    const users = await coreCollection(ctx, 'users', { slug: [w.authorName] });
    authors.push(...(users.length ? users.map((u) => (isJson(u) ? Number(u.id) : 0)) : [0]));
  }
  if (authors.length) out.author = authors;
  const notAuthors = intIds(w.authorNotIn, 'where.authorNotIn');
  if (notAuthors) out.authorExclude = notAuthors;
  const include = intIds(w.in, 'where.in');
  if (include) out.include = include;
  const exclude = intIds(w.notIn, 'where.notIn');
  if (exclude) out.exclude = exclude;
  const names = [...(w.name ? [w.name] : []), ...(slugs(w.nameIn) ?? [])];
  if (names.length) out.slug = names;
  const stati = [...(w.status ? [w.status] : []), ...(slugs(w.stati) ?? [])];
  if (stati.length) out.status = stati.map((s) => statusOf(s));
  return out;
}

/**
 * The statuses the caller may list, as WPGraphQL keeps them: anyone may list published posts, the other statuses need
 * credentials (WPGraphQL checks edit_posts / read_private_posts; the site refuses a caller without them). Anonymous, a
 * list of other statuses only is empty (WPGraphQL does not run it), mixed ones keep `PUBLISH`.
 */
function allowedStatuses(ctx: Context, where: PostsWhere): PostsWhere | null {
  if (!where.status || ctx.upstream.authenticated) return where;
  const status = where.status.filter((s) => s === 'PUBLISH');
  return status.length ? { ...where, status } : null;
}

const LIST_STATUSES = ['PUBLISH', 'FUTURE', 'DRAFT', 'PENDING', 'PRIVATE', 'TRASH', 'AUTO_DRAFT', 'INHERIT'] as const;
function statusOf(s: string): (typeof LIST_STATUSES)[number] {
  const found = LIST_STATUSES.find((x) => x === s);
  if (!found)
    throw GatewayError.badInput(`where.status ${s} is not a status the posts list filters by`, {
      arguments: ['where.status'],
    });
  return found;
}

function postOrder(w: PostsWhereArgs): PostsOrderBy | null {
  const o = oneOrder(w.orderby, 'posts');
  if (!o) return null;
  const field = POST_ORDER[o.field];
  if (!field)
    throw GatewayError.badInput(`posts: where.orderby ${o.field} is not an order the site's posts list takes`, {
      arguments: ['where.orderby'],
    });
  return { field, direction: o.desc ? 'DESC' : 'ASC' };
}

const POST_KEYS: Partial<Record<PostOrderField, (m: PostModel) => string | null>> = {
  DATE: (m) => m.publishedAtUtc,
  MODIFIED: (m) => m.modifiedAtUtc,
};

function postCursors(where: PostsWhere, orderBy: PostsOrderBy | null): CursorScope<PostModel> {
  const key = POST_KEYS[orderBy?.field ?? 'DATE'];
  return {
    list: listIdentity('wpgraphql:posts', where, orderBy),
    id: (m) => m.databaseId,
    ...(key ? { key } : {}),
    desc: (orderBy?.direction ?? 'DESC') === 'DESC',
  };
}

export async function postsList(
  ctx: Context,
  args: WpPaging & { where?: PostsWhereArgs | null },
): Promise<WpConnection<PostModel>> {
  checkWhere('posts', args.where, POSTS_WHERE);
  const where = allowedStatuses(ctx, await postsWhere(ctx, args.where ?? {}));
  if (!where) return wpConnection(await memoryConnection(ctx, paging(args), [] as PostModel[]), (p) => p);
  const orderBy = postOrder(args.where ?? {});
  const declared = declaredArgs(ctx.site, 'GET', '/core/v2/posts');
  const { query } = postsQuery(where, orderBy, null, declared);
  const c = await connection(
    ctx,
    paging(args),
    (page, per) => postsPage(ctx.upstream, query, page, per),
    POSTS_MAX_PER_PAGE,
    (raw) => corePost(raw, ctx.site.timezone),
    { cursors: postCursors(where, orderBy) },
  );
  for (const p of c.nodes) wpLoaders(ctx).post.prime(p.databaseId, p);
  return wpConnection(c, (p) => p);
}

/**
 * One post as the caller may read it: with credentials, of any status (`status=any`: drafts and private posts for
 * WordPress's editors, as WPGraphQL finds them by ID or slug for whoever may see them; a caller the site refuses
 * `any` to reads published posts), anonymously published ones.
 */
async function onePost(ctx: Context, query: Record<string, QueryValue>): Promise<PostModel | null> {
  const read = async (q: Record<string, QueryValue>) => {
    const p = (await postsPage(ctx.upstream, q, 1, 1)).items[0];
    return p === undefined ? null : corePost(p, ctx.site.timezone);
  };
  if (!ctx.upstream.authenticated) return read(query);
  try {
    return await read({ ...query, status: ['any'] });
  } catch (err) {
    if (isGatewayError(err) && err.extensions.upstream?.code === 'rest_invalid_param') return read(query);
    throw err;
  }
}

/** A post by slug: the posts list filtered by it (WordPress's `slug=`). */
const postBySlug = (ctx: Context, slug: string) => onePost(ctx, { slug: [slug] });

export async function postBy(ctx: Context, id: string, idType: IdType): Promise<PostModel | null> {
  switch (idType) {
    case 'SLUG':
      return postBySlug(ctx, id);
    case 'URI': {
      // `/hello-world/`: the slug is the path's last segment; the post's own link must be that URI.
      const path = pathOf(id, homeOf(ctx));
      const slug = path.split('/').filter(Boolean).pop();
      const post = slug ? await postBySlug(ctx, slug) : null;
      return post && uriOf(post.url, homeOf(ctx)) === path ? post : null;
    }
    default: {
      const n = databaseIdArg(id, idType, 'post', 'post');
      // With credentials, any status the caller may read (the loader's batches read published posts).
      return ctx.upstream.authenticated ? onePost(ctx, { include: [n] }) : wpLoaders(ctx).post.load(n);
    }
  }
}

/** The author as WPGraphQL's User: the users route where the site offers it, else what the post's answer says. */
function authorOf(ctx: Context, p: PostModel): WpUser | Promise<WpUser | null> | null {
  if (!p.authorId) return null;
  if (siteOffers(ctx.site, 'GET', '/core/v2/users')) return wpLoaders(ctx).user.load(p.authorId);
  return { kind: 'User', databaseId: p.authorId, name: yoastAuthor(p.raw) };
}

async function postCategories(ctx: Context, p: PostModel, args: WpPaging): Promise<WpConnection<WpTerm>> {
  const found = p.categoryIds.length ? await wpLoaders(ctx).category.loadMany(p.categoryIds) : [];
  const terms = found.map((t) => {
    if (t instanceof Error) throw t;
    return t;
  });
  const c = await memoryConnection(
    ctx,
    paging(args),
    terms.filter((t): t is WpTerm => t !== null),
  );
  return wpConnection(c, (t) => t);
}

/** Tags by ID through the main graph's loader (the legacy tag archive is WordPress's `post_tag`). */
export async function tagsById(ctx: Context, ids: readonly number[], args: WpPaging): Promise<WpConnection<WpTerm>> {
  const found = ids.length ? await ctx.loaders.tag.loadMany([...ids]) : [];
  const terms: WpTerm[] = [];
  for (const t of found) {
    if (t instanceof Error) throw t;
    if (t) terms.push(fromTerm(t, 'Tag'));
  }
  return wpConnection(await memoryConnection(ctx, paging(args), terms), (t) => t);
}

/** Fields every content node answers the same way from its model. */
export const isContent = { isContentNode: () => true, isTermNode: () => false };
export const isTerm = { isContentNode: () => false, isTermNode: () => true };

const raw = (p: PostModel, key: string): string | null => (isJson(p.raw) ? str(p.raw[key]) : null);

/**
 * A password-protected post read without its password (anonymously: the site's view shows no content then, and
 * WPGraphQL restricts its model to who may edit it): WPGraphQL answers its ID, title, slug, status, link and URI and
 * leaves the other fields of its model null (`postId` 0).
 */
function restricted(p: PostModel, ctx: Context): boolean {
  const content = isJson(p.raw) ? p.raw.content : null;
  return !ctx.upstream.authenticated && isJson(content) && content.protected === true;
}

/** A resolver that answers null on a restricted post. */
function guarded<A, R>(f: (p: PostModel, a: A, ctx: Context) => R) {
  return (p: PostModel, a: A, ctx: Context): R | null => (restricted(p, ctx) ? null : f(p, a, ctx));
}

export const Post = {
  ...isContent,
  id: (p: PostModel) => wpGlobalId('post', p.databaseId),
  databaseId: (p: PostModel) => p.databaseId,
  postId: (p: PostModel, _a: unknown, ctx: Context) => (restricted(p, ctx) ? 0 : p.databaseId),
  uri: (p: PostModel, _a: unknown, ctx: Context) => uriOf(p.url, homeOf(ctx)),
  link: (p: PostModel) => p.url,
  slug: (p: PostModel) => p.slug,
  status: (p: PostModel) => p.status,
  guid: guarded((p: PostModel) => p.guid),
  contentTypeName: (p: PostModel) => p.type ?? 'post',
  date: guarded((p: PostModel) => wpDate(raw(p, 'date'))),
  dateGmt: guarded((p: PostModel) => wpDate(raw(p, 'date_gmt'))),
  modified: guarded((p: PostModel) => wpDate(raw(p, 'modified'))),
  modifiedGmt: guarded((p: PostModel) => wpDate(raw(p, 'modified_gmt'))),
  title: (p: PostModel, a: { format?: string | null }) => (renderedOnly(a, 'title'), renderedOf(p.raw, 'title')),
  content: guarded(
    (p: PostModel, a: { format?: string | null }) => (renderedOnly(a, 'content'), renderedOf(p.raw, 'content')),
  ),
  excerpt: guarded(
    (p: PostModel, a: { format?: string | null }) => (renderedOnly(a, 'excerpt'), renderedOf(p.raw, 'excerpt')),
  ),
  isSticky: (p: PostModel) => p.sticky ?? false,
  commentStatus: guarded((p: PostModel) => p.commentStatus),
  pingStatus: guarded((p: PostModel) => p.pingStatus),
  authorDatabaseId: guarded((p: PostModel) => p.authorId),
  authorId: guarded((p: PostModel) => (p.authorId ? wpGlobalId('user', p.authorId) : null)),
  author: guarded(async (p: PostModel, _a: unknown, ctx: Context) => {
    const node = await authorOf(ctx, p);
    return node ? { node } : null;
  }),
  featuredImageDatabaseId: guarded((p: PostModel) => p.featuredMediaId),
  featuredImageId: guarded((p: PostModel) => (p.featuredMediaId ? wpGlobalId('post', p.featuredMediaId) : null)),
  featuredImage: guarded(async (p: PostModel, _a: unknown, ctx: Context) => {
    if (!p.featuredMediaId) return null;
    const node = await wpLoaders(ctx).media.load(p.featuredMediaId);
    return node ? { node } : null;
  }),
  categories: guarded((p: PostModel, a: WpPaging & { where?: Record<string, unknown> | null }, ctx: Context) => {
    checkWhere('categories', a.where, []);
    return postCategories(ctx, p, a);
  }),
  tags: guarded((p: PostModel, a: WpPaging & { where?: Record<string, unknown> | null }, ctx: Context) => {
    checkWhere('tags', a.where, []);
    return tagsById(ctx, p.tagIds, a);
  }),
  seo: (p: PostModel) => postSeo(p.raw, 'post'),
};

// ---- terms

interface TermsWhereArgs {
  search?: string | null;
  include?: (string | number | null)[] | null;
  exclude?: (string | number | null)[] | null;
  hideEmpty?: boolean | null;
  slug?: (string | null)[] | null;
  parent?: number | null;
  orderby?: string | null;
  order?: string | null;
}

const TERMS_WHERE = ['search', 'include', 'exclude', 'hideEmpty', 'slug', 'parent', 'orderby', 'order'];
const TERM_ORDER: Record<string, TermsOrderBy['field'] | undefined> = {
  COUNT: 'COUNT',
  DESCRIPTION: 'DESCRIPTION',
  NAME: 'NAME',
  SLUG: 'SLUG',
  TERM_GROUP: 'TERM_GROUP',
  TERM_ID: 'ID',
};

/** WPGraphQL's term `where` as the main graph's (its term lists are the calendar's legacy archives). */
export function termsWhere(
  field: string,
  w: TermsWhereArgs | null | undefined,
  hierarchical: boolean,
): { where: TermsWhere; orderBy: TermsOrderBy | null } {
  checkWhere(field, w, hierarchical ? TERMS_WHERE : TERMS_WHERE.filter((k) => k !== 'parent'));
  const where: TermsWhere = {};
  const a = w ?? {};
  if (a.search) where.search = a.search;
  const include = intIds(a.include, 'where.include');
  if (include) where.ids = include;
  const exclude = intIds(a.exclude, 'where.exclude');
  if (exclude) where.excludeIds = exclude;
  // WPGraphQL lists empty terms unless told not to; the legacy archives hide them unless told.
  where.hideEmpty = a.hideEmpty ?? false;
  const s = slugs(a.slug) ?? [];
  if (s.length > 1)
    throw GatewayError.badInput(`${field}: where.slug takes one slug here (the site's term archive filters by one)`, {
      arguments: ['where.slug'],
    });
  if (s[0]) where.slug = s[0];
  if (a.parent !== null && a.parent !== undefined) where.parent = a.parent;
  let orderBy: TermsOrderBy | null = null;
  if (a.orderby) {
    const f = TERM_ORDER[a.orderby];
    if (!f)
      throw GatewayError.badInput(`${field}: where.orderby ${a.orderby} is not an order the site's terms take`, {
        arguments: ['where.orderby'],
      });
    orderBy = { field: f, direction: a.order === 'DESC' ? 'DESC' : 'ASC' };
  }
  return { where, orderBy };
}

export async function tagsList(
  ctx: Context,
  args: WpPaging & { where?: TermsWhereArgs | null },
): Promise<WpConnection<WpTerm>> {
  const { where, orderBy } = termsWhere('tags', args.where, false);
  const c = await termsConnection(ctx, 'tags', { ...paging(args), where, orderBy });
  return wpConnection(c, (t) => fromTerm(t, 'Tag'));
}

/** The posts' categories (core/v2/categories): every filter is the site's own. */
export async function categoriesList(
  ctx: Context,
  args: WpPaging & { where?: TermsWhereArgs | null },
): Promise<WpConnection<WpTerm>> {
  const { where, orderBy } = termsWhere('categories', args.where, true);
  const query: Record<string, string | number | boolean | number[]> = { hide_empty: where.hideEmpty ?? false };
  if (where.search) query.search = where.search;
  if (where.ids) query.include = where.ids;
  if (where.excludeIds) query.exclude = where.excludeIds;
  if (where.slug) query.slug = where.slug;
  if (where.parent !== undefined && where.parent !== null) query.parent = where.parent;
  if (orderBy) {
    query.orderby = orderBy.field === 'ID' ? 'id' : orderBy.field.toLowerCase();
    query.order = orderBy.direction === 'DESC' ? 'desc' : 'asc';
  }
  const c = await connection(
    ctx,
    paging(args),
    async (page, per) => {
      const items = await coreCollection(ctx, 'categories', { ...query, page, per_page: per });
      return { items, total: null };
    },
    100,
    (raw) => coreTerm(raw, 'Category'),
  );
  return wpConnection(c, (t) => t);
}

/** A term by the id types WPGraphQL takes; `URI` is `/<base>/<slug>/` under the taxonomy's archive base. */
export async function termBy(
  ctx: Context,
  kind: 'Category' | 'Tag' | 'EventsCategory',
  id: string,
  idType: IdType,
): Promise<WpTerm | null> {
  const field = kind === 'EventsCategory' ? 'eventsCategory' : kind.toLowerCase();
  let slug: string | null = null;
  let name: string | null = null;
  if (idType === 'SLUG') slug = id;
  else if (idType === 'NAME') name = id;
  else if (idType === 'URI') slug = pathOf(id, homeOf(ctx)).split('/').filter(Boolean).pop() ?? null;
  if (slug === null && name === null) {
    const n = databaseIdArg(id, idType, 'term', field);
    if (kind === 'Category') return wpLoaders(ctx).category.load(n);
    const t = await (kind === 'Tag' ? ctx.loaders.tag : ctx.loaders.category).load(n);
    return t ? fromTerm(t, kind) : null;
  }
  const found =
    kind === 'Category'
      ? (await coreCollection(ctx, 'categories', slug ? { slug: [slug] } : { search: name ?? '' })).map((r) =>
          coreTerm(r, 'Category'),
        )
      : (
          await legacyList(
            ctx.upstream,
            kind === 'Tag' ? 'tags' : 'categories',
            slug ? { slug, hide_empty: false } : { search: name ?? '', hide_empty: false },
            1,
            50,
          )
        ).items.map((r) => fromTerm(legacyTerm(r, kind === 'Tag' ? 'Tag' : 'Category'), kind));
  const term = found.find((t) => (slug ? t.slug === slug : t.name === name)) ?? null;
  if (term && idType === 'URI' && uriOf(term.link, homeOf(ctx)) !== pathOf(id, homeOf(ctx))) return null;
  return term;
}

/** The term's archive link; embedded terms lack it, and are read whole (batched) when it is asked for. */
async function termLink(ctx: Context, t: WpTerm): Promise<string | null> {
  if (t.link !== undefined) return t.link;
  if (t.kind === 'Category') return null;
  const full = await (t.kind === 'Tag' ? ctx.loaders.tag : ctx.loaders.category).load(t.databaseId);
  return full?.url ?? null;
}

export const termFields = {
  ...isTerm,
  id: (t: WpTerm) => wpGlobalId('term', t.databaseId),
  databaseId: (t: WpTerm) => t.databaseId,
  name: (t: WpTerm) => t.name,
  slug: (t: WpTerm) => t.slug,
  // WPGraphQL's Term model answers an empty description as null.
  description: (t: WpTerm) => t.description || null,
  count: (t: WpTerm) => t.count,
  link: (t: WpTerm, _a: unknown, ctx: Context) => termLink(ctx, t),
  uri: async (t: WpTerm, _a: unknown, ctx: Context) => uriOf(await termLink(ctx, t), homeOf(ctx)),
  taxonomyName: (t: WpTerm) =>
    t.kind === 'EventsCategory' ? 'tribe_events_cat' : t.kind === 'Category' ? 'category' : 'post_tag',
};

/** Categories' (posts' and events') parents. */
export const hierarchical = {
  parentDatabaseId: (t: WpTerm) => t.parentId,
  parentId: (t: WpTerm) => (t.parentId ? wpGlobalId('term', t.parentId) : null),
};

export const Category = { ...termFields, ...hierarchical, categoryId: (t: WpTerm) => t.databaseId };
export const Tag = { ...termFields, tagId: (t: WpTerm) => t.databaseId };

// ---- users

/** A user field that needs the users route, on a User known only from a post's answer. */
function needsUsersRoute<K extends 'slug' | 'description' | 'url' | 'link'>(key: K) {
  return (u: WpUser) => {
    const v = u[key];
    if (v !== undefined) return v;
    throw new GatewayError(
      'NAMESPACE_UNAVAILABLE',
      `User.${key === 'link' ? 'uri' : key}: the site's index does not list GET /core/v2/users (only the author's ` +
        "name, from the post's Yoast head, is known)",
      { route: 'GET /core/v2/users' },
    );
  };
}

export const User = {
  ...isContent,
  isContentNode: () => false,
  id: (u: WpUser) => wpGlobalId('user', u.databaseId),
  databaseId: (u: WpUser) => u.databaseId,
  userId: (u: WpUser) => u.databaseId,
  name: (u: WpUser) => {
    if (u.name !== null) return u.name;
    throw new GatewayError(
      'NAMESPACE_UNAVAILABLE',
      "User.name: the site's index does not list GET /core/v2/users, and the post's answer carries no author name",
      { route: 'GET /core/v2/users' },
    );
  },
  slug: needsUsersRoute('slug'),
  description: needsUsersRoute('description'),
  url: needsUsersRoute('url'),
  uri: (u: WpUser, _a: unknown, ctx: Context) => uriOf(needsUsersRoute('link')(u), homeOf(ctx)),
};

export async function userBy(ctx: Context, id: string, idType: string): Promise<WpUser | null> {
  if (idType === 'SLUG' || idType === 'URI') {
    const slug = idType === 'SLUG' ? id : pathOf(id, homeOf(ctx)).split('/').filter(Boolean).pop();
    const users = slug ? await coreCollection(ctx, 'users', { slug: [slug] }) : [];
    return users.length ? coreUser(users[0]) : null;
  }
  if (idType !== 'ID' && idType !== 'DATABASE_ID')
    throw GatewayError.badInput(`user(idType: ${idType}) is not served: the site's users route is read by ID or slug`, {
      arguments: ['idType'],
    });
  return orNull(wpLoaders(ctx).user.load(databaseIdArg(id, idType, 'user', 'user')));
}
