/**
 * Pure mapping of core/v2 posts, both ways: the site's JSON -> `PostModel`, the graph's filters and inputs -> query and
 * payloads.
 */
import { DateTime } from 'luxon';
import type {
  CreatePostInput,
  PostsOrderBy,
  PostsWhere,
  RestContext,
  UpdatePostInput,
} from '../../generated/graphql.ts';
import { GatewayError } from '../../errors.ts';
import { withOffset, toUtc } from '../../mapping/dates.ts';
import { bool, idOf, int, intList, obj, rendered, str, type Json } from '../../mapping/json.ts';
import type { PostModel } from '../../mapping/platform-models.ts';

// The models live in platform-models.ts (codegen maps `Post` onto them); importers here keep their path.
export type { PostConnectionModel, PostModel } from '../../mapping/platform-models.ts';

/**
 * A posts-controller object (docs/upstream-answers.md "core/v2 posts"). Dates come without offset: `date` local,
 * `date_gmt` UTC.
 */
export function corePost(raw: unknown, siteZone: string): PostModel {
  const o = obj(raw, 'post');
  const content = typeof o.content === 'object' && o.content !== null ? (o.content as Json) : null;
  const media = int(o.featured_media);
  return {
    kind: 'Post',
    databaseId: idOf(o, 'post'),
    title: rendered(o.title),
    content: rendered(o.content),
    excerpt: rendered(o.excerpt),
    slug: str(o.slug),
    status: str(o.status),
    type: str(o.type),
    url: str(o.link),
    guid: rendered(o.guid),
    authorId: int(o.author),
    featuredMediaId: media !== null && media > 0 ? media : null,
    publishedAt: withOffset(str(o.date), str(o.date_gmt), siteZone),
    publishedAtUtc: toUtc(str(o.date_gmt)),
    modifiedAt: withOffset(str(o.modified), str(o.modified_gmt), siteZone),
    modifiedAtUtc: toUtc(str(o.modified_gmt)),
    commentStatus: str(o.comment_status),
    pingStatus: str(o.ping_status),
    sticky: bool(o.sticky),
    template: str(o.template),
    format: str(o.format),
    passwordProtected: content ? bool(content.protected) : null,
    categoryIds: intList(o.categories),
    tagIds: intList(o.tags),
    raw,
  };
}

/** GraphQL enum value -> WordPress slug: `AUTO_DRAFT` -> `auto-draft`. */
const slugOf = (v: string) => v.toLowerCase().replace(/_/g, '-');
/** `POST_TITLE` -> `post_title`, `INCLUDE_SLUGS` -> `include_slugs`. */
const snake = (v: string) => v.toLowerCase();

const nonEmpty = <T>(v: T[] | null | undefined): T[] | undefined => (v && v.length ? v : undefined);

type PostsQueryValue = string | number | boolean | Array<string | number>;

/**
 * `where`/`orderBy`/`context` -> the query of GET /core/v2/posts (every
 * parameter of the spec's table, plus WordPress's `*_exclude`, `sticky` and
 * `format`). Term filters with only `terms` go as an ID list; with options, as
 * the object form (`categories[terms][]=…&categories[operator]=AND`).
 * `offset` is returned apart: the page fetcher folds it into each page.
 *
 * `declared` is the argument names the site's `GET /core/v2/posts` endpoint
 * announces in its root index (null when it announces none). WordPress drops
 * a query parameter its endpoint does not declare without a word (6.1 has no
 * `search_columns`, 6.2+; `format`, 6.3+; `search_semantics`, 6.9+: it
 * answers every post as if the filter had not been given;
 * docs/real-sites.md, test/wordpress/). So every graph argument whose
 * REST parameter the site does not declare is refused with BAD_USER_INPUT
 * naming it, before anything is sent; a silently wider answer would be wrong.
 */
export function postsQuery(
  where: PostsWhere | null | undefined,
  orderBy: PostsOrderBy | null | undefined,
  context: RestContext | null | undefined,
  declared: ReadonlySet<string> | null = null,
  route = 'GET /core/v2/posts',
): { query: Record<string, PostsQueryValue>; offset: number } {
  const w = where ?? {};
  const q: Record<string, PostsQueryValue> = {};
  /** REST parameter (its base name, before any `[key]`) -> the graph argument it came from. */
  const from = new Map<string, string>();
  const set = (k: string, v: PostsQueryValue | null | undefined, arg: string) => {
    if (v === null || v === undefined) return;
    q[k] = v;
    const base = k.replace(/\[.*$/, '');
    if (!from.has(base)) from.set(base, arg);
  };
  if (context) set('context', context.toLowerCase(), 'context');
  if (w.search != null) set('search', w.search, 'where.search');
  if (w.searchSemantics) set('search_semantics', w.searchSemantics.toLowerCase(), 'where.searchSemantics');
  set('search_columns', nonEmpty(w.searchColumns?.map(snake)), 'where.searchColumns');
  set('after', w.after, 'where.after');
  set('before', w.before, 'where.before');
  set('modified_after', w.modifiedAfter, 'where.modifiedAfter');
  set('modified_before', w.modifiedBefore, 'where.modifiedBefore');
  set('author', nonEmpty(w.author), 'where.author');
  set('author_exclude', nonEmpty(w.authorExclude), 'where.authorExclude');
  set('include', nonEmpty(w.include), 'where.include');
  set('exclude', nonEmpty(w.exclude), 'where.exclude');
  set('slug', nonEmpty(w.slug), 'where.slug');
  set('status', nonEmpty(w.status?.map(slugOf)), 'where.status');
  if (w.taxRelation) set('tax_relation', w.taxRelation, 'where.taxRelation');
  const terms = (
    name: string,
    arg: string,
    f: { terms: number[]; includeChildren?: boolean | null; operator?: string | null } | null | undefined,
  ) => {
    if (!f) return;
    if (f.includeChildren == null && f.operator == null) {
      set(name, f.terms, arg);
      return;
    }
    set(`${name}[terms]`, f.terms, arg);
    if (f.includeChildren != null) set(`${name}[include_children]`, f.includeChildren, arg);
    if (f.operator) set(`${name}[operator]`, f.operator, arg);
  };
  terms('categories', 'where.categories', w.categories);
  terms('categories_exclude', 'where.categoriesExclude', w.categoriesExclude);
  terms('tags', 'where.tags', w.tags);
  set('tags_exclude', nonEmpty(w.tagsExclude), 'where.tagsExclude');
  if (w.sticky != null) set('sticky', w.sticky, 'where.sticky');
  set('format', nonEmpty(w.format?.map(snake)), 'where.format');
  if (orderBy) {
    set('orderby', snake(orderBy.field), 'orderBy.field');
    if (orderBy.direction) set('order', orderBy.direction.toLowerCase(), 'orderBy.direction');
  }
  const offset = w.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0)
    throw GatewayError.badInput(`where.offset must be a non-negative integer, got ${offset}`, {
      arguments: ['where.offset'],
    });
  if (offset > 0) from.set('offset', 'where.offset');
  if (declared) refuseUndeclared(from, declared, route);
  return { query: q, offset };
}

/**
 * Throws BAD_USER_INPUT naming every graph argument whose REST parameter (`from`: parameter -> argument) the site does
 * not declare on `route`.
 */
export function refuseUndeclared(
  from: ReadonlyMap<string, string>,
  declared: ReadonlySet<string>,
  route = 'GET /core/v2/posts',
): void {
  const missing = [...from].filter(([param]) => !declared.has(param));
  if (!missing.length) return;
  const args = [...new Set(missing.map(([, arg]) => arg))];
  const params = missing.map(([param]) => param);
  const one = params.length === 1;
  throw GatewayError.badInput(
    `The site does not take ${params.map((p) => `\`${p}\``).join(', ')} on ${route} (its root index does not declare ${one ? 'it' : 'them'}; ` +
      `WordPress adds list parameters over releases): ${args.join(', ')} would be silently ignored, so ${args.length === 1 ? 'it is' : 'they are'} refused.`,
    { arguments: args, undeclaredParameters: params },
  );
}

/** A DateTime input with an offset -> `date_gmt` (UTC); without one it is site-local -> `date`. */
function dateFields(value: string): Record<string, string> {
  const v = value.trim();
  if (/(Z|[+-]\d{2}:?\d{2})$/i.test(v)) {
    const d = DateTime.fromISO(v, { setZone: true });
    return { date_gmt: d.toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ss") };
  }
  return { date: v.replace(' ', 'T') };
}

/**
 * CreatePostInput / UpdatePostInput -> the body of POST /core/v2/posts or of
 * an update of /core/v2/posts/<id> (docs/upstream-answers.md "core/v2 posts", writes). Fields
 * left out or null are not sent: WordPress's update is partial, so they keep
 * their stored values.
 */
export function postBody(input: CreatePostInput | UpdatePostInput): Record<string, unknown> {
  const b: Record<string, unknown> = {};
  const put = (k: string, v: unknown) => {
    if (v !== null && v !== undefined) b[k] = v;
  };
  put('title', input.title);
  put('content', input.content);
  put('excerpt', input.excerpt);
  put('slug', input.slug);
  if (input.status) put('status', slugOf(input.status));
  if (input.date) Object.assign(b, dateFields(input.date));
  put('password', input.password);
  put('author', input.authorId);
  put('featured_media', input.featuredMediaId);
  if (input.commentStatus) put('comment_status', input.commentStatus.toLowerCase());
  if (input.pingStatus) put('ping_status', input.pingStatus.toLowerCase());
  if (input.format) put('format', input.format.toLowerCase());
  put('sticky', input.sticky);
  put('template', input.template);
  put('meta', input.meta);
  put('categories', input.categoryIds);
  put('tags', input.tagIds);
  return b;
}

/** The input field a body parameter came from (postBody in reverse), for error paths. */
const POST_INPUT_FIELDS: Record<string, string> = {
  date_gmt: 'date',
  author: 'authorId',
  featured_media: 'featuredMediaId',
  comment_status: 'commentStatus',
  ping_status: 'pingStatus',
  categories: 'categoryIds',
  tags: 'tagIds',
};
export function postInputField(param: string): string {
  return POST_INPUT_FIELDS[param] ?? param;
}

export interface DeletedPostModel {
  databaseId: number;
  permanently: boolean;
  post: PostModel | null;
}

/**
 * The answer of DELETE /core/v2/posts/<id> (docs/upstream-answers.md "core/v2 posts", delete):
 * with `force`, `{deleted: true, previous: <the post>}`; without, the trashed
 * post itself (status `trash`).
 */
export function deletedPost(id: number, body: unknown, siteZone: string): DeletedPostModel {
  const o = obj(body, 'post delete answer');
  if ('deleted' in o && 'previous' in o) {
    const prev = typeof o.previous === 'object' && o.previous !== null ? corePost(o.previous, siteZone) : null;
    return { databaseId: prev?.databaseId ?? id, permanently: o.deleted === true, post: prev };
  }
  const post = corePost(o, siteZone);
  return { databaseId: post.databaseId, permanently: false, post };
}
