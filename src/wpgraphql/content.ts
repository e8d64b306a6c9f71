/**
 * WPGraphQL's posts, their taxonomies (`Category`: WordPress's `category`; `Tag`: `post_tag`) and users, from the
 * site's core/v2 posts (the main graph's requests and mapping, src/namespaces/posts/) and, for tags, the calendar's
 * legacy tag archive (which is `post_tag`, read by the main graph's loaders).
 */
import type DataLoader from 'dataloader';
import type { Context } from '../context.ts';
import { GatewayError, isGatewayError } from '../errors.ts';
import type { PostModel } from '../mapping/platform-models.ts';
import { isJson, rendered, str } from '../mapping/json.ts';
import { corePost, postsQuery, refuseUndeclared } from '../namespaces/posts/mapping.ts';
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
import type { ListPage } from '../upstream/paging.ts';
import {
  DAY_QUERY,
  checkWhere,
  dayRange,
  intIds,
  oneOrder,
  paging,
  renderedOnly,
  type DayQuery,
  type WpPaging,
} from './args.ts';
import { databaseIdArg, fromWpGlobalId, pathOf, uriOf, wpGlobalId } from './ids.ts';
import {
  coreCollection,
  coreContent,
  corePage,
  coreTerm,
  coreUser,
  readingOf,
  renderedOf,
  wpLoaders,
  yoastAuthor,
} from './loaders.ts';
import {
  fromTerm,
  wpConnection,
  type PostLike,
  type WpConnection,
  type WpContent,
  type WpTerm,
  type WpUser,
} from './models.ts';
import { postSeo } from './seo.ts';

export type IdType = 'ID' | 'DATABASE_ID' | 'SLUG' | 'URI' | 'NAME';

/** The site's home, which permalinks start with. */
export const homeOf = (ctx: Context): string | null => ctx.site.home ?? ctx.site.url;

/** `2026-11-27T15:55:01` from a REST date with or without offset (WPGraphQL prints dates without one). */
export const wpDate = (v: string | null | undefined): string | null => (v ? v.replace(' ', 'T').slice(0, 19) : null);

// ---- posts, pages and media items: one list engine over core/v2's post-type collections

interface ContentWhereArgs {
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
  dateQuery?: (DayQuery & { column?: string | null }) | null;
  parent?: string | number | null;
  parentIn?: (string | number | null)[] | null;
  parentNotIn?: (string | number | null)[] | null;
  mimeType?: string | null;
}

/** The `where` keys every post type's list applies. */
const CONTENT_WHERE = [
  'search',
  'author',
  'authorIn',
  'authorNotIn',
  'authorName',
  'in',
  'notIn',
  'name',
  'nameIn',
  'orderby',
  'dateQuery',
];
const POSTS_WHERE = [
  ...CONTENT_WHERE,
  'categoryId',
  'categoryIn',
  'categoryNotIn',
  'categoryName',
  'tag',
  'tagId',
  'tagIn',
  'tagNotIn',
  'tagSlugIn',
  'status',
  'stati',
  'parent',
];
const PAGES_WHERE = [...CONTENT_WHERE, 'status', 'stati', 'parent', 'parentIn', 'parentNotIn'];
// WPGraphQL reads media items as `inherit` whatever the status asked, and drops `parent` for them.
const MEDIA_WHERE = [...CONTENT_WHERE, 'parent', 'parentIn', 'parentNotIn', 'mimeType'];

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

/**
 * `dateQuery` as the list's `after`/`before` (or `modified_after`/`modified_before` for the MODIFIED column): the days
 * it matches, in the site's time, which WordPress compares `post_date` with (strictly: the second before the first
 * day, the start of the day after the last).
 */
function dateQueryWhere(q: NonNullable<ContentWhereArgs['dateQuery']>, out: PostsWhere): void {
  checkWhere('dateQuery', q, [...DAY_QUERY, 'column']);
  const { from, to } = dayRange(q, 'where.dateQuery');
  const modified = q.column === 'MODIFIED';
  if (from) out[modified ? 'modifiedAfter' : 'after'] = from.minus({ days: 1 }).toFormat("yyyy-MM-dd'T'23:59:59");
  if (to) out[modified ? 'modifiedBefore' : 'before'] = to.plus({ days: 1 }).toFormat("yyyy-MM-dd'T'00:00:00");
}

async function postsWhere(ctx: Context, w: ContentWhereArgs): Promise<PostsWhere> {
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
  if (w.dateQuery) dateQueryWhere(w.dateQuery, out);
  return out;
}

/** A parent as WPGraphQL takes it: a database ID or a post's global ID (`0`: top-level). */
function parentId(v: string | number, arg: string): number {
  if (typeof v === 'number' || /^\d+$/.test(v)) {
    const n = Number(v);
    if (Number.isSafeInteger(n) && n >= 0) return n;
  } else {
    const g = fromWpGlobalId(v);
    if (g?.loader === 'post') return g.id;
  }
  throw GatewayError.badInput(`${arg}: ${JSON.stringify(v)} is not a database ID or a post's global ID`, {
    arguments: [arg],
  });
}

/**
 * The list parameters only hierarchical types and attachments take (`parent`, `parent_exclude`, `mime_type`), with
 * the argument each came from. Posts have no parent in WordPress (`post_parent` 0, which their route does not filter
 * by): `parent: 0` is every post, any other parent none.
 */
function typeOnlyQuery(
  kind: ContentKind,
  w: ContentWhereArgs,
): { query: Record<string, QueryValue>; from: Map<string, string>; none: boolean } {
  const query: Record<string, QueryValue> = {};
  const from = new Map<string, string>();
  const set = (param: string, v: QueryValue, arg: string) => {
    query[param] = v;
    from.set(param, arg);
  };
  let none = false;
  const parent = w.parent === null || w.parent === undefined ? null : parentId(w.parent, 'where.parent');
  if (kind === 'Post') none = parent !== null && parent !== 0;
  // WPGraphQL drops `parent` for media items (an attachment's parent is the post it was uploaded to).
  else if (parent !== null && kind === 'Page') set('parent', [parent], 'where.parent');
  const parentIn = (w.parentIn ?? []).flatMap((v) => (v === null ? [] : [parentId(v, 'where.parentIn')]));
  if (parentIn.length)
    set('parent', [...((query.parent as number[] | undefined) ?? []), ...parentIn], 'where.parentIn');
  const parentNotIn = (w.parentNotIn ?? []).flatMap((v) => (v === null ? [] : [parentId(v, 'where.parentNotIn')]));
  if (parentNotIn.length) set('parent_exclude', parentNotIn, 'where.parentNotIn');
  // The enum's internal values are the MIME types themselves (schema.ts).
  if (w.mimeType) set('mime_type', w.mimeType, 'where.mimeType');
  return { query, from, none };
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

function postOrder(w: ContentWhereArgs, field: string): PostsOrderBy | null {
  const o = oneOrder(w.orderby, field);
  if (!o) return null;
  const f = POST_ORDER[o.field];
  if (!f)
    throw GatewayError.badInput(`${field}: where.orderby ${o.field} is not an order the site's list takes`, {
      arguments: ['where.orderby'],
    });
  return { field: f, direction: o.desc ? 'DESC' : 'ASC' };
}

const POST_KEYS: Partial<Record<PostOrderField, (m: PostLike) => string | null>> = {
  DATE: (m) => m.publishedAtUtc,
  MODIFIED: (m) => m.modifiedAtUtc,
};

export type ContentKind = 'Post' | 'Page' | 'MediaItem';
type ContentOf<K extends ContentKind> = K extends 'Post' ? PostModel : WpContent;

/** What differs between the post types' lists: route, `where` keys, mapping and loader. */
interface ContentType<M> {
  field: string;
  route: string;
  where: readonly string[];
  page(ctx: Context, query: Record<string, QueryValue>, page: number, per: number): Promise<ListPage>;
  map(ctx: Context, raw: unknown): M;
  loader(ctx: Context): DataLoader<number, M | null>;
}

const coreTypePage =
  (name: 'pages' | 'media') => (ctx: Context, q: Record<string, QueryValue>, page: number, per: number) =>
    corePage(ctx, name, { ...q, page, per_page: Math.min(per, POSTS_MAX_PER_PAGE) });

/** Pages and media items: core/v2 collections beyond the contract's, mapped alike (their models are the same). */
function coreType(
  kind: 'Page' | 'MediaItem',
  field: string,
  name: 'pages' | 'media',
  where: readonly string[],
): ContentType<WpContent> {
  return {
    field,
    route: `GET /core/v2/${name}`,
    where,
    page: coreTypePage(name),
    map: (ctx, raw) => coreContent(raw, kind, ctx.site.timezone),
    loader: (ctx) => wpLoaders(ctx)[kind === 'Page' ? 'page' : 'media'],
  };
}

const CONTENT: { [K in ContentKind]: ContentType<ContentOf<K>> } = {
  Post: {
    field: 'posts',
    route: 'GET /core/v2/posts',
    where: POSTS_WHERE,
    page: (ctx, q, page, per) => postsPage(ctx.upstream, q, page, per),
    map: (ctx, raw) => corePost(raw, ctx.site.timezone),
    loader: (ctx) => wpLoaders(ctx).post,
  },
  Page: coreType('Page', 'pages', 'pages', PAGES_WHERE),
  MediaItem: coreType('MediaItem', 'mediaItems', 'media', MEDIA_WHERE),
};

/** A list of posts, pages or media items, in WPGraphQL's order (newest first unless `orderby` says otherwise). */
export async function contentList<K extends ContentKind>(
  ctx: Context,
  kind: K,
  args: WpPaging & { where?: ContentWhereArgs | null },
  pinned: Pinned | null = null,
): Promise<WpConnection<ContentOf<K>>> {
  const type: ContentType<ContentOf<K>> = CONTENT[kind];
  const w = args.where ?? {};
  const field = pinned?.field ?? type.field;
  checkWhere(field, w, pinned ? type.where.filter((k) => !pinned.refuses.includes(k)) : type.where);
  const only = typeOnlyQuery(kind, w);
  const filtered = only.none ? null : allowedStatuses(ctx, await postsWhere(ctx, w));
  const where = filtered && pinned ? { ...filtered, ...pinned.where } : filtered;
  if (!where) return wpConnection(await memoryConnection(ctx, paging(args), [] as ContentOf<K>[]), (p) => p);
  const orderBy = postOrder(w, type.field);
  const path = type.route.slice('GET '.length);
  const declared = declaredArgs(ctx.site, 'GET', path);
  if (declared) refuseUndeclared(only.from, declared, type.route);
  const query = { ...postsQuery(where, orderBy, null, declared, type.route).query, ...only.query };
  const key = POST_KEYS[orderBy?.field ?? 'DATE'];
  const c = await connection(
    ctx,
    paging(args),
    (page, per) => type.page(ctx, query, page, per),
    POSTS_MAX_PER_PAGE,
    (raw) => type.map(ctx, raw),
    {
      cursors: {
        list: listIdentity(`wpgraphql:${type.field}`, where, orderBy, only.query),
        id: (m: ContentOf<K>) => m.databaseId,
        ...(key ? { key } : {}),
        desc: (orderBy?.direction ?? 'DESC') === 'DESC',
      },
    },
  );
  for (const p of c.nodes) type.loader(ctx).prime(p.databaseId, p);
  return wpConnection(c, (p) => p);
}

export const postsList = (ctx: Context, args: WpPaging & { where?: ContentWhereArgs | null }) =>
  contentList(ctx, 'Post', args);

/** A list's filter its source pins (a term's posts, an author's), and the `where` keys that would clash with it. */
interface Pinned {
  field: string;
  where: PostsWhere;
  refuses: readonly string[];
}

const CATEGORY_ARGS = ['categoryId', 'categoryIn', 'categoryNotIn', 'categoryName'];
const TAG_ARGS = ['tag', 'tagId', 'tagIn', 'tagNotIn', 'tagSlugIn'];
const AUTHOR_ARGS = ['author', 'authorIn', 'authorNotIn', 'authorName'];

/**
 * A term's or a user's `posts`, as WPGraphQL pins them: the term itself without its children (its tax_query's
 * include_children false), the user as the author. The `where` keys of the same filter are refused here rather than
 * combined another way than WPGraphQL's query does.
 */
export function sourcePosts(
  ctx: Context,
  source: WpTerm | WpUser,
  args: WpPaging & { where?: ContentWhereArgs | null },
): Promise<WpConnection<PostModel>> {
  const field = `${source.kind}.posts`;
  if (source.kind === 'User')
    return contentList(ctx, 'Post', args, { field, where: { author: [source.databaseId] }, refuses: AUTHOR_ARGS });
  if (source.kind === 'Category')
    return contentList(ctx, 'Post', args, {
      field,
      where: { categories: { terms: [source.databaseId] } },
      refuses: CATEGORY_ARGS,
    });
  if (source.kind === 'Tag')
    return contentList(ctx, 'Post', args, {
      field,
      where: { tags: { terms: [source.databaseId] } },
      refuses: TAG_ARGS,
    });
  throw GatewayError.badInput(`${field} is not served`, {});
}

/**
 * One post, page or media item as the caller may read it: with credentials, of any status (`status=any`: drafts and
 * private posts for WordPress's editors, as WPGraphQL finds them by ID or slug for whoever may see them; a caller the
 * site refuses `any` to reads published posts), anonymously published ones (media items: WordPress's `inherit`).
 */
async function oneContent<K extends ContentKind>(
  ctx: Context,
  kind: K,
  query: Record<string, QueryValue>,
): Promise<ContentOf<K> | null> {
  const type: ContentType<ContentOf<K>> = CONTENT[kind];
  const read = async (q: Record<string, QueryValue>) => {
    const p = (await type.page(ctx, q, 1, 1)).items[0];
    return p === undefined ? null : type.map(ctx, p);
  };
  if (!ctx.upstream.authenticated || kind === 'MediaItem') return read(query);
  try {
    return await read({ ...query, status: ['any'] });
  } catch (err) {
    if (isGatewayError(err) && err.extensions.upstream?.code === 'rest_invalid_param') return read(query);
    throw err;
  }
}

/**
 * A post, page or media item by the id types WPGraphQL takes. `URI`: the slug is the path's last segment (a child
 * page's path has its parents' slugs before it), and the node's own link must be that URI.
 */
export async function contentBy<K extends ContentKind>(
  ctx: Context,
  kind: K,
  id: string,
  idType: IdType,
): Promise<ContentOf<K> | null> {
  const type: ContentType<ContentOf<K>> = CONTENT[kind];
  switch (idType) {
    case 'SLUG':
      return oneContent(ctx, kind, { slug: [id] });
    case 'URI': {
      const path = pathOf(id, homeOf(ctx));
      const slug = path.split('/').filter(Boolean).pop();
      const found = slug ? await oneContent(ctx, kind, { slug: [slug] }) : null;
      return found && uriOf(found.url, homeOf(ctx)) === path ? found : null;
    }
    case 'ID':
    case 'DATABASE_ID': {
      const n = databaseIdArg(id, idType, 'post', type.field.replace(/s$/, ''));
      // With credentials, any status the caller may read (the loader's batches read published posts).
      return ctx.upstream.authenticated && kind !== 'MediaItem'
        ? oneContent(ctx, kind, { include: [n] })
        : type.loader(ctx).load(n);
    }
    default:
      throw GatewayError.badInput(
        `${type.field.replace(/s$/, '')}(idType: ${idType}) is not served: the site's ${type.route} is read by ID, slug or URI`,
        { arguments: ['idType'] },
      );
  }
}

export const postBy = (ctx: Context, id: string, idType: IdType) => contentBy(ctx, 'Post', id, idType);

/** The author as WPGraphQL's User: the users route where the site offers it, else what the post's answer says. */
function authorOf(ctx: Context, p: PostLike): WpUser | Promise<WpUser | null> | null {
  if (!p.authorId) return null;
  if (siteOffers(ctx.site, 'GET', '/core/v2/users')) return wpLoaders(ctx).user.load(p.authorId);
  return { kind: 'User', databaseId: p.authorId, name: yoastAuthor(p.raw) };
}

async function postCategories(ctx: Context, p: PostLike, args: WpPaging): Promise<WpConnection<WpTerm>> {
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

const raw = (p: PostLike, key: string): string | null => (isJson(p.raw) ? str(p.raw[key]) : null);

/**
 * A password-protected post read without its password (anonymously: the site's view shows no content then, and
 * WPGraphQL restricts its model to who may edit it): WPGraphQL answers its ID, title, slug, status, link and URI and
 * leaves the other fields of its model null (`postId` 0).
 */
function restricted(p: PostLike, ctx: Context): boolean {
  const content = isJson(p.raw) ? p.raw.content : null;
  return !ctx.upstream.authenticated && isJson(content) && content.protected === true;
}

/** A resolver that answers null on a restricted post. */
function guarded<P extends PostLike, A, R>(f: (p: P, a: A, ctx: Context) => R) {
  return (p: P, a: A, ctx: Context): R | null => (restricted(p, ctx) ? null : f(p, a, ctx));
}

const text = (key: 'title' | 'content' | 'excerpt') => (p: PostLike, a: { format?: string | null }) => (
  renderedOnly(a, key),
  renderedOf(p.raw, key)
);

/** The fields of WPGraphQL's ContentNode, NodeWithTitle and NodeWithAuthor, as every post type answers them. */
const contentNode = {
  ...isContent,
  id: (p: PostLike) => wpGlobalId('post', p.databaseId),
  databaseId: (p: PostLike) => p.databaseId,
  uri: (p: PostLike, _a: unknown, ctx: Context) => uriOf(p.url, homeOf(ctx)),
  link: (p: PostLike) => p.url,
  slug: (p: PostLike) => p.slug,
  status: (p: PostLike) => p.status,
  guid: guarded((p: PostLike) => p.guid),
  contentTypeName: (p: PostLike) => p.type ?? 'post',
  date: guarded((p: PostLike) => wpDate(raw(p, 'date'))),
  dateGmt: guarded((p: PostLike) => wpDate(raw(p, 'date_gmt'))),
  modified: guarded((p: PostLike) => wpDate(raw(p, 'modified'))),
  modifiedGmt: guarded((p: PostLike) => wpDate(raw(p, 'modified_gmt'))),
  title: text('title'),
  authorDatabaseId: guarded((p: PostLike) => p.authorId),
  authorId: guarded((p: PostLike) => (p.authorId ? wpGlobalId('user', p.authorId) : null)),
  author: guarded(async (p: PostLike, _a: unknown, ctx: Context) => {
    const node = await authorOf(ctx, p);
    return node ? { node } : null;
  }),
};

/** NodeWithContentEditor and NodeWithFeaturedImage (posts and pages). */
const edited = {
  content: guarded(text('content')),
  commentStatus: guarded((p: PostLike) => p.commentStatus),
  featuredImageDatabaseId: guarded((p: PostLike) => p.featuredMediaId),
  featuredImageId: guarded((p: PostLike) => (p.featuredMediaId ? wpGlobalId('post', p.featuredMediaId) : null)),
  featuredImage: guarded(async (p: PostLike, _a: unknown, ctx: Context) => {
    if (!p.featuredMediaId) return null;
    const node = await wpLoaders(ctx).media.load(p.featuredMediaId);
    return node ? { node } : null;
  }),
};

export const Post = {
  ...contentNode,
  ...edited,
  postId: (p: PostModel, _a: unknown, ctx: Context) => (restricted(p, ctx) ? 0 : p.databaseId),
  excerpt: guarded(text('excerpt')),
  isSticky: (p: PostModel) => p.sticky ?? false,
  pingStatus: guarded((p: PostModel) => p.pingStatus),
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

/** WPGraphQL's HierarchicalContentNode: the parent (a page's page, an attachment's post) and its IDs. */
const hierarchicalContent = {
  parentDatabaseId: (p: WpContent) => p.parentId,
  parentId: (p: WpContent) => (p.parentId ? wpGlobalId('post', p.parentId) : null),
  parent: async (p: WpContent, _a: unknown, ctx: Context) => {
    if (!p.parentId) return null;
    const node = await (p.kind === 'Page' ? wpLoaders(ctx).page : wpLoaders(ctx).post).load(p.parentId);
    return node ? { node } : null;
  },
};

export const Page = {
  ...contentNode,
  ...edited,
  ...hierarchicalContent,
  pageId: (p: WpContent, _a: unknown, ctx: Context) => (restricted(p, ctx) ? 0 : p.databaseId),
  // WPGraphQL's Post model answers an order of 0 as null.
  menuOrder: guarded((p: WpContent) => p.menuOrder || null),
  // WordPress links the page shown as the front page to the home URL itself (get_page_link).
  isFrontPage: (p: WpContent, _a: unknown, ctx: Context) => {
    const home = homeOf(ctx);
    return !!home && !!p.url && p.url.replace(/\/+$/, '') === home.replace(/\/+$/, '');
  },
  // The page that lists the posts is a reading setting, which WordPress shows administrators only.
  isPostsPage: async (p: WpContent, _a: unknown, ctx: Context) => {
    const r = await readingOf(ctx, 'Page.isPostsPage');
    return r.showOnFront === 'page' && r.pageForPosts === p.databaseId;
  },
  seo: (p: WpContent) => postSeo(p.raw, 'page'),
};

/** Media details and sizes as WordPress's REST answer has them (`media_details`); sizes as WPGraphQL lists them. */
function mediaDetails(p: WpContent) {
  const d = isJson(p.raw) && isJson(p.raw.media_details) ? p.raw.media_details : null;
  if (!d) return null;
  const sizes = isJson(d.sizes)
    ? Object.entries(d.sizes).flatMap(([name, v]) =>
        isJson(v)
          ? [
              {
                name,
                file: str(v.file),
                width: v.width === undefined || v.width === null ? null : String(v.width),
                height: v.height === undefined || v.height === null ? null : String(v.height),
                mimeType: str(v.mime_type),
                sourceUrl: str(v.source_url),
              },
            ]
          : [],
      )
    : [];
  const n = (v: unknown) => (typeof v === 'number' ? v : null);
  return { file: str(d.file), width: n(d.width), height: n(d.height), sizes };
}

/**
 * A media item's caption or description as WPGraphQL renders it: the REST description is rendered with WordPress's
 * `prepend_attachment` filter, which puts a link to the file before the text; WPGraphQL renders the text alone.
 */
const mediaText = (key: 'caption' | 'description') => (p: WpContent, a: { format?: string | null }) => {
  renderedOnly(a, key);
  const text = isJson(p.raw) ? rendered(p.raw[key]) : null;
  return key === 'description' && text ? text.replace(/^<p class="attachment">[\s\S]*?<\/p>\n?/, '') : text;
};

/** The size argument of sourceUrl: the full file unless a named size is asked for. */
function sourceUrl(p: WpContent, a: { size?: string | null }): string | null {
  const url = raw(p, 'source_url');
  if (!a.size) return url;
  const name = a.size.toLowerCase();
  return mediaDetails(p)?.sizes.find((s) => s.name === name)?.sourceUrl ?? url;
}

export const MediaItem = {
  ...contentNode,
  ...hierarchicalContent,
  mediaItemId: (p: WpContent) => p.databaseId,
  sourceUrl,
  mediaItemUrl: (p: WpContent) => raw(p, 'source_url'),
  altText: (p: WpContent) => raw(p, 'alt_text'),
  caption: mediaText('caption'),
  description: mediaText('description'),
  mimeType: (p: WpContent) => raw(p, 'mime_type'),
  mediaType: (p: WpContent) => raw(p, 'media_type'),
  mediaDetails,
  seo: (p: WpContent) => postSeo(p.raw, 'media item'),
};

// ---- terms

export interface TermsWhereArgs {
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

const posts = (t: WpTerm | WpUser, a: WpPaging & { where?: ContentWhereArgs | null }, ctx: Context) =>
  sourcePosts(ctx, t, a);

export const Category = { ...termFields, ...hierarchical, categoryId: (t: WpTerm) => t.databaseId, posts };
export const Tag = { ...termFields, tagId: (t: WpTerm) => t.databaseId, posts };

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
  posts,
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
  // WPGraphQL answers an empty description as null, and keeps the website from callers who may not list users.
  description: (u: WpUser) => needsUsersRoute('description')(u) || null,
  url: (u: WpUser, _a: unknown, ctx: Context) =>
    ctx.upstream.authenticated ? needsUsersRoute('url')(u) || null : null,
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
