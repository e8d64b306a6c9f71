/**
 * Pure mapping for the platform content routes: core/v2 posts (both ways),
 * oEmbed (JSON and XML), attachment lookups, challenges and FacetWP bodies.
 */
import { DateTime } from 'luxon';
import type { CreatePostInput, FacetFetchInput, FacetRefreshInput, PostsOrderBy, PostsWhere, RestContext, UpdatePostInput } from '../generated/graphql.ts';
import { GatewayError } from '../errors.ts';
import { withOffset, toUtc } from './dates.ts';
import {
  asInt,
  asStr,
  asStrings,
  bool,
  idOf,
  int,
  intList,
  isJson,
  listOf,
  nested,
  obj,
  rendered,
  shape,
  str,
  type Json,
} from './json.ts';
import type { PostModel } from './platform-models.ts';

// ---- posts

// The models live in platform-models.ts (codegen maps `Post` onto them); importers here keep their path.
export type { PostConnectionModel, PostModel } from './platform-models.ts';

/** A posts-controller object (../shared/reference/site-upstream.md §7). Dates come without offset: `date` local, `date_gmt` UTC. */
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
 * ../shared/reference/real-site-behaviour.md, test/wordpress/). So every graph argument whose
 * REST parameter the site does not declare is refused with BAD_USER_INPUT
 * naming it, before anything is sent; a silently wider answer would be wrong.
 */
export function postsQuery(
  where: PostsWhere | null | undefined,
  orderBy: PostsOrderBy | null | undefined,
  context: RestContext | null | undefined,
  declared: ReadonlySet<string> | null = null,
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
  const terms = (name: string, arg: string, f: { terms: number[]; includeChildren?: boolean | null; operator?: string | null } | null | undefined) => {
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
  if (!Number.isInteger(offset) || offset < 0) throw GatewayError.badInput(`where.offset must be a non-negative integer, got ${offset}`, { arguments: ['where.offset'] });
  if (offset > 0) from.set('offset', 'where.offset');
  if (declared) refuseUndeclared(from, declared);
  return { query: q, offset };
}

/** Throws BAD_USER_INPUT naming every graph argument whose REST parameter the site does not declare. */
function refuseUndeclared(from: ReadonlyMap<string, string>, declared: ReadonlySet<string>): void {
  const missing = [...from].filter(([param]) => !declared.has(param));
  if (!missing.length) return;
  const args = [...new Set(missing.map(([, arg]) => arg))];
  const params = missing.map(([param]) => param);
  const one = params.length === 1;
  throw GatewayError.badInput(
    `The site does not take ${params.map((p) => `\`${p}\``).join(', ')} on GET /core/v2/posts (its root index does not declare ${one ? 'it' : 'them'}; ` +
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
 * an update of /core/v2/posts/<id> (../shared/reference/site-upstream.md §7 "Writes"). Fields
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
 * The answer of DELETE /core/v2/posts/<id> (../shared/reference/site-upstream.md §7 "Delete"):
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

// ---- oEmbed

export interface OEmbedModel {
  format: 'JSON' | 'XML';
  version: string | null;
  type: string | null;
  providerName: string | null;
  providerUrl: string | null;
  authorName: string | null;
  authorUrl: string | null;
  title: string | null;
  width: number | null;
  height: number | null;
  html: string | null;
  thumbnailUrl: string | null;
  thumbnailWidth: number | null;
  thumbnailHeight: number | null;
  xml: string | null;
  raw: unknown;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unxml = (s: string) =>
  s
    .replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1')
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (m, e: string) =>
      e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : (XML_ENTITIES[e.toLowerCase()] ?? m),
    );

/** The flat `<oembed><key>value</key>…</oembed>` document WordPress writes (EMB `_oembed_create_xml`). */
export function parseOEmbedXml(xml: string): Json {
  const root = /<oembed>([\s\S]*)<\/oembed>/.exec(xml);
  if (!root) throw GatewayError.badInput('the site answered XML without an <oembed> root');
  const out: Json = {};
  for (const m of root[1]!.matchAll(/<([a-z_]+)>([\s\S]*?)<\/\1>/g)) out[m[1]!] = unxml(m[2]!);
  return out;
}

/** JSON bodies as they are; XML bodies (a string) read into the same fields. */
export function oembedOf(body: unknown): OEmbedModel {
  const xml = typeof body === 'string' ? body : null;
  const o = xml !== null ? parseOEmbedXml(xml) : obj(body, 'oEmbed response');
  return {
    format: xml !== null ? 'XML' : 'JSON',
    version: str(o.version),
    type: str(o.type),
    providerName: str(o.provider_name),
    providerUrl: str(o.provider_url),
    authorName: str(o.author_name),
    authorUrl: str(o.author_url),
    title: str(o.title),
    width: int(o.width),
    height: int(o.height),
    html: str(o.html),
    thumbnailUrl: str(o.thumbnail_url),
    thumbnailWidth: int(o.thumbnail_width),
    thumbnailHeight: int(o.thumbnail_height),
    xml,
    raw: xml !== null ? o : body,
  };
}

// ---- site-blocks/v1/get-attachment-id

export interface AttachmentLookupModel {
  databaseId: number;
  url: string | null;
  width: number | null;
  height: number | null;
  sizes: { name: string; url: string | null; width: number | null; height: number | null }[];
  raw: unknown;
}

/** GenerateBlocks-style `{success: true, response: {id, full_url, width, height, sizes}}` (../shared/reference/other-upstream.md §5). */
export function attachmentLookup(body: unknown): AttachmentLookupModel {
  const o = obj(body, 'attachment lookup');
  const r = obj(o.response, 'attachment lookup response');
  const sizes = isJson(r.sizes) ? r.sizes : {};
  return {
    databaseId: idOf(r, 'attachment'),
    url: str(r.full_url),
    width: int(r.width),
    height: int(r.height),
    sizes: Object.entries(sizes)
      .filter(([, s]) => typeof s === 'object' && s !== null)
      .map(([name, s]) => ({ name, url: str((s as Json).url), width: int((s as Json).width), height: int((s as Json).height) })),
    raw: body,
  };
}

// ---- site/v1/challenge

export interface ChallengeModel {
  algorithm: string;
  challenge: string;
  maxNumber: number | null;
  salt: string;
  signature: string;
  expiresAt: string | null;
  raw: unknown;
}

/** ALTCHA v1 `{algorithm, challenge, maxnumber, salt, signature}`; `salt` may carry `?expires=<unix>`. */
export function challengeOf(body: unknown): ChallengeModel {
  const o = obj(body, 'challenge');
  const salt = str(o.salt) ?? '';
  const exp = /[?&]expires=(\d+)/.exec(salt);
  return {
    algorithm: str(o.algorithm) ?? '',
    challenge: str(o.challenge) ?? '',
    maxNumber: int(o.maxnumber),
    salt,
    signature: str(o.signature) ?? '',
    expiresAt: exp ? new Date(Number(exp[1]) * 1000).toISOString().replace(/\.000Z$/, 'Z') : null,
    raw: body,
  };
}

/** A solution -> ALTCHA's `payload`: base64 of its JSON. */
export function challengePayload(s: { algorithm?: string | null; challenge: string; number: number; salt: string; signature: string }): string {
  const json = JSON.stringify({ algorithm: s.algorithm ?? 'SHA-256', challenge: s.challenge, number: s.number, salt: s.salt, signature: s.signature });
  return Buffer.from(json, 'utf8').toString('base64');
}

export function verificationOf(body: unknown): { verified: boolean; raw: unknown } {
  return { verified: bool(obj(body, 'challenge verification').verified) === true, raw: body };
}

// ---- facet/v1

const selections = (facets: { name: string; values: string[] }[] | null | undefined): Record<string, string[]> =>
  Object.fromEntries((facets ?? []).map((f) => [f.name, f.values]));

/** FacetRefreshInput -> FacetWP's `data` (includes/class-request.php `process_post_data`). */
export function refreshData(input: FacetRefreshInput | null | undefined): Record<string, unknown> {
  const i = input ?? {};
  const extra = isJson(i.extra) ? i.extra : {};
  const extras: Json = typeof extra.extras === 'object' && extra.extras !== null ? { ...(extra.extras as Json) } : {};
  if (i.pagerHtml) extras.pager = true;
  if (i.countsHtml) extras.counts = true;
  if (i.perPage != null) extras.per_page = i.perPage;
  else if (i.perPageHtml) extras.per_page = 'default';
  if (i.sort) extras.sort = i.sort.toLowerCase();
  else if (i.sortHtml) extras.sort = 'default';
  const data: Json = { ...extra, facets: selections(i.facets), extras };
  if (i.page != null) data.paged = i.page;
  if (i.firstLoad != null) data.first_load = i.firstLoad ? 1 : 0;
  return data;
}

export function fetchData(input: FacetFetchInput | null | undefined): Record<string, unknown> {
  const q = input?.query;
  const query_args: Json = {};
  if (q?.postType) query_args.post_type = q.postType;
  if (q?.postStatus?.length) query_args.post_status = q.postStatus.length === 1 ? q.postStatus[0] : q.postStatus;
  if (q?.postsPerPage != null) query_args.posts_per_page = q.postsPerPage;
  if (q?.paged != null) query_args.paged = q.paged;
  if (q?.orderby) query_args.orderby = q.orderby;
  if (q?.order) query_args.order = q.order;
  return { facets: selections(input?.facets), query_args };
}

const pagerOf = nested(shape('pager', { page: ['page', asInt], perPage: ['per_page', asInt], totalRows: ['total_rows', asInt], totalPages: ['total_pages', asInt] } as const));

export function facetRefreshOf(body: unknown) {
  const o = obj(body, 'facet refresh');
  const facets = typeof o.facets === 'object' && o.facets !== null ? (o.facets as Json) : {};
  const settings = typeof o.settings === 'object' && o.settings !== null ? (o.settings as Json) : null;
  return {
    facets: Object.entries(facets).map(([name, html]) => ({ name, html: str(html) ?? '' })),
    template: str(o.template),
    pager: settings ? pagerOf(settings.pager) : null,
    settings,
    pagerHtml: str(o.pager),
    counts: str(o.counts),
    perPageHtml: str(o.per_page),
    sortHtml: str(o.sort),
    raw: body,
  };
}

export function suggestionsOf(body: unknown): { value: string; label: string | null }[] {
  if (!Array.isArray(body)) return [];
  return body.filter((x) => typeof x === 'object' && x !== null).map((x) => ({ value: str((x as Json).value) ?? '', label: str((x as Json).label) }));
}

const choiceOf = shape('facet choice', {
  value: ['value', (v) => str(v) ?? ''],
  label: ['label', asStr],
  depth: ['depth', asInt],
  count: ['count', asInt],
  termId: ['term_id', asInt],
  parentId: ['parent_id', asInt],
} as const);

export function facetFetchOf(body: unknown) {
  const o = obj(body, 'facet fetch');
  const facets = typeof o.facets === 'object' && o.facets !== null ? (o.facets as Json) : {};
  return {
    results: intList(o.results),
    facets: Object.entries(facets)
      .filter(([, f]) => typeof f === 'object' && f !== null)
      .map(([name, f]) => {
        const x = f as Json;
        return {
          name: str(x.name) ?? name,
          label: str(x.label),
          type: str(x.type),
          selected: asStrings(x.selected),
          choices: Array.isArray(x.choices) ? listOf(choiceOf)(x.choices) : null,
          settings: x.settings ?? null,
        };
      }),
    pager: pagerOf(o.pager),
    raw: body,
  };
}

