/**
 * `GET|POST /core/v2/posts`: WordPress's posts controller (site-upstream.md §2
 * and §7; spec "core/v2 posts"; samples core-*.json and batch-*.json).
 *
 * The list takes every parameter of the spec's table (plus the taxonomy
 * `_exclude` twins, `sticky` and `format`, which WordPress has beside them),
 * answers a bare array with `X-WP-Total`, `X-WP-TotalPages` and `Link`
 * rel="next"/"prev", and refuses a page past the end while something matched
 * (`rest_post_invalid_page_number`). Non-public statuses need `edit_posts`
 * (`private` also `read_private_posts`): otherwise the sanitize callback fails
 * and the 400 wraps `rest_forbidden_status` with its 401/403 inside.
 *
 * Create follows `create_item_permissions_check`, `handle_status_param` and
 * `wp_insert_post`: 201, `Location`, the post in context `edit`.
 *
 * `/core/v2/posts/<id>` is beyond the spec's rows but real WordPress serves it
 * (batchable; real-site-behaviour.md "core/v2 single posts"): GET, the partial
 * update (POST/PUT/PATCH, `update_item`) and DELETE (trash or `force`).
 */
import { can, type User } from '../../auth.ts';
import { canDelete, canEdit, canRead, slugify, trashPost } from '../../calendar/model.ts';
import { localToUtc, nowIn, nowUtc, parseLooseDate, utcToLocal } from '../../dates.ts';
import { prng } from '../../prng.ts';
import { ANY_STATUSES } from '../legacy/post-status.ts';
import { RestError, authStatus } from '../../errors.ts';
import { buildQuery } from '../../rest/query.ts';
import { validateValue } from '../../rest/validate.ts';
import { RestResult, type ArgSchema, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { Storage } from '../../capabilities.ts';
import type { PostRow } from '../../store/db.ts';
import { OPTIONS } from './seed.ts';
import {
  CORE_NS,
  POST_CATEGORY_TAX,
  TAG_TAX,
  postJson,
  postJsonSource,
  setSticky,
  stickyIds,
  type Context,
  type PlatformPostMeta,
} from './post-json.ts';

type Post = PostRow<PlatformPostMeta>;

/** Every registered status plus `any` (spec "States and transitions"). */
export const LIST_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
  'request-pending',
  'request-confirmed',
  'request-failed',
  'request-completed',
  'fields-disabled',
  'calendar-ea-success',
  'calendar-ea-failed',
  'calendar-ea-schedule',
  'calendar-ea-pending',
  'calendar-ea-draft',
  'calendar-ignored',
  'dp-rewrite-republish',
  'any',
] as const;

/** The non-internal statuses: the write enum, exactly as the recorded sample lists it (batch-normal.json). */
export const WRITE_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'calendar-ea-success',
  'calendar-ea-failed',
  'calendar-ea-schedule',
  'calendar-ea-pending',
  'calendar-ea-draft',
  'calendar-ignored',
] as const;

const FORMATS = ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'] as const;
/** The page templates the sandbox's theme offers (check_template refuses others). */
const TEMPLATES = ['templates/full-width.php'];

const contextArg: ArgSchema = {
  type: 'string',
  default: 'view',
  enum: ['view', 'embed', 'edit'],
  description: 'Scope under which the request is made; determines fields present in response.',
};
const ids = (description: string): ArgSchema => ({
  type: 'array',
  items: { type: 'integer' },
  default: [],
  description,
});

/** `categories`/`tags`: an ID list, or `{terms, include_children, operator}` (WordPress's oneOf, merged). */
function termQueryArg(name: string, hierarchical: boolean, exclude: boolean): ArgSchema {
  const properties: Record<string, ArgSchema> = { terms: { type: 'array', items: { type: 'integer' }, default: [] } };
  if (hierarchical) properties.include_children = { type: 'boolean', default: false };
  if (!exclude) properties.operator = { type: 'string', enum: ['AND', 'OR'], default: 'OR' };
  return {
    type: ['object', 'array'],
    items: { type: 'integer' },
    properties,
    additionalProperties: false,
    description: `Limit result set to items ${exclude ? 'except those ' : ''}with specific terms assigned in the ${name} taxonomy.`,
  };
}

/**
 * sanitize_post_statuses: `publish` (the default) is free; any other status
 * needs edit_posts, or read_private_posts for `private`. Only a caller who
 * passes that check gets the schema check (rest_validate_request_arg, called
 * from the callback: `status` has no validate_callback), so an anonymous
 * `status=bogus` is `rest_forbidden_status`, not `rest_not_in_enum`, as on
 * real WordPress.
 */
function sanitizeStatuses(value: unknown, req: RestRequest): string[] {
  const list = (value as unknown[]).map(String);
  for (const status of list) {
    if (status === 'publish') continue;
    if (can(req.user, 'edit_posts') || (status === 'private' && can(req.user, 'read_private_posts'))) {
      validateValue(list, statusArg, 'status');
      continue;
    }
    throw new RestError('rest_forbidden_status', 'Status is forbidden.', authStatus(req.user !== null));
  }
  return list;
}

const statusArg: ArgSchema = {
  type: 'array',
  items: { type: 'string', enum: LIST_STATUSES },
  default: ['publish'],
  description: 'Limit result set to posts assigned one or more statuses.',
};

export const listArgs: Record<string, ArgSchema> = {
  context: contextArg,
  page: { type: 'integer', default: 1, minimum: 1, description: 'Current page of the collection.' },
  per_page: {
    type: 'integer',
    default: 10,
    minimum: 1,
    maximum: 100,
    description: 'Maximum number of items to be returned in result set.',
  },
  search: { type: 'string', description: 'Limit results to those matching a string.' },
  after: {
    type: 'string',
    format: 'date-time',
    description: 'Limit response to posts published after a given ISO8601 compliant date.',
  },
  modified_after: {
    type: 'string',
    format: 'date-time',
    description: 'Limit response to posts modified after a given ISO8601 compliant date.',
  },
  author: ids('Limit result set to posts assigned to specific authors.'),
  author_exclude: ids('Ensure result set excludes posts assigned to specific authors.'),
  before: {
    type: 'string',
    format: 'date-time',
    description: 'Limit response to posts published before a given ISO8601 compliant date.',
  },
  modified_before: {
    type: 'string',
    format: 'date-time',
    description: 'Limit response to posts modified before a given ISO8601 compliant date.',
  },
  exclude: ids('Ensure result set excludes specific IDs.'),
  include: ids('Limit result set to specific IDs.'),
  search_semantics: { type: 'string', enum: ['exact'], description: 'How to interpret the search input.' },
  offset: { type: 'integer', description: 'Offset the result set by a specific number of items.' },
  order: {
    type: 'string',
    default: 'desc',
    enum: ['asc', 'desc'],
    description: 'Order sort attribute ascending or descending.',
  },
  orderby: {
    type: 'string',
    default: 'date',
    enum: [
      'author',
      'date',
      'id',
      'include',
      'modified',
      'parent',
      'relevance',
      'slug',
      'include_slugs',
      'title',
      'rand',
    ],
    description: 'Sort collection by post attribute.',
  },
  search_columns: {
    type: 'array',
    items: { type: 'string', enum: ['post_title', 'post_content', 'post_excerpt'] },
    default: [],
    description: 'Array of column names to be searched.',
  },
  slug: {
    type: 'array',
    items: { type: 'string' },
    description: 'Limit result set to posts with one or more specific slugs.',
  },
  status: { ...statusArg, sanitize: sanitizeStatuses, sanitizeOnly: true },
  tax_relation: {
    type: 'string',
    enum: ['AND', 'OR'],
    description: 'Limit result set based on relationship between multiple taxonomies.',
  },
  categories: termQueryArg(POST_CATEGORY_TAX, true, false),
  categories_exclude: termQueryArg(POST_CATEGORY_TAX, true, true),
  tags: termQueryArg(TAG_TAX, false, false),
  tags_exclude: termQueryArg(TAG_TAX, false, true),
  sticky: { type: 'boolean', description: 'Limit result set to items that are sticky.' },
  format: {
    type: 'array',
    uniqueItems: true,
    items: { type: 'string', enum: FORMATS },
    description: 'Limit result set to items assigned one or more given formats.',
  },
};

const textField = (what: string): ArgSchema => ({
  type: ['string', 'object'],
  properties: { raw: { type: 'string', description: `${what}, as it exists in the database.` } },
  description: `The ${what.toLowerCase()} for the post.`,
});

export const createArgs: Record<string, ArgSchema> = {
  date: {
    type: ['string', 'null'],
    format: 'date-time',
    description: "The date the post was published, in the site's timezone.",
  },
  date_gmt: { type: ['string', 'null'], format: 'date-time', description: 'The date the post was published, as GMT.' },
  slug: { type: 'string', description: 'An alphanumeric identifier for the post unique to its type.' },
  status: { type: 'string', enum: WRITE_STATUSES, description: 'A named status for the post.' },
  password: { type: 'string', description: 'A password to protect access to the content and excerpt.' },
  title: textField('Title'),
  content: textField('Content'),
  author: { type: 'integer', description: 'The ID for the author of the post.' },
  excerpt: textField('Excerpt'),
  featured_media: { type: 'integer', description: 'The ID of the featured media for the post.' },
  comment_status: {
    type: 'string',
    enum: ['open', 'closed'],
    description: 'Whether or not comments are open on the post.',
  },
  ping_status: { type: 'string', enum: ['open', 'closed'], description: 'Whether or not the post can be pinged.' },
  format: { type: 'string', enum: FORMATS, description: 'The format for the post.' },
  meta: { type: 'object', description: 'Meta fields.' },
  sticky: { type: 'boolean', description: 'Whether or not the post should be treated as sticky.' },
  template: {
    type: 'string',
    description: 'The theme file to use to display the post.',
    validate: (v) =>
      v === '' ||
      TEMPLATES.includes(String(v)) ||
      new RestError('rest_invalid_param', `template is not one of ${TEMPLATES.join(', ')}.`, 400),
  },
  categories: {
    type: 'array',
    items: { type: 'integer' },
    description: 'The terms assigned to the post in the category taxonomy.',
  },
  tags: {
    type: 'array',
    items: { type: 'integer' },
    description: 'The terms assigned to the post in the post_tag taxonomy.',
  },
};

// ---- reading

interface TermQuery {
  taxonomy: string;
  terms: number[];
  includeChildren: boolean;
  operator: 'IN' | 'AND' | 'NOT IN';
}

/** prepare_tax_query: one clause per taxonomy parameter that names terms. */
function taxClauses(p: Record<string, unknown>): TermQuery[] {
  const out: TermQuery[] = [];
  for (const [base, taxonomy] of [
    ['categories', POST_CATEGORY_TAX],
    ['tags', TAG_TAX],
  ] as const) {
    for (const exclude of [false, true]) {
      const v = p[exclude ? `${base}_exclude` : base];
      if (v === undefined || v === null) continue;
      let terms: number[] = [];
      let includeChildren = false;
      let operator: TermQuery['operator'] = exclude ? 'NOT IN' : 'IN';
      if (Array.isArray(v)) terms = v.map(Number);
      else if (typeof v === 'object') {
        const o = v as { terms?: number[]; include_children?: boolean; operator?: string };
        terms = (o.terms ?? []).map(Number);
        includeChildren = Boolean(o.include_children);
        if (!exclude && o.operator === 'AND') operator = 'AND';
      }
      if (terms.length) out.push({ taxonomy, terms, includeChildren, operator });
    }
  }
  return out;
}

function withChildren(site: Storage, taxonomy: string, id: number): Set<number> {
  const all = site.store.terms(taxonomy);
  const out = new Set([id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const t of all)
      if (out.has(t.parent) && !out.has(t.id)) {
        out.add(t.id);
        grew = true;
      }
  }
  return out;
}

/** WP_Query's search terms: quoted phrases kept whole, words split on spaces, commas and plus signs. */
export function searchTerms(s: string): string[] {
  return [...s.matchAll(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g)]
    .map((m) => m[0].replace(/^"|"$/g, '').trim())
    .filter(Boolean);
}

const COLUMN: Record<string, (p: Post) => string> = {
  post_title: (p) => p.title,
  post_excerpt: (p) => p.excerpt,
  post_content: (p) => p.content,
};

/**
 * WP_Query::parse_search: every term must appear in one of the columns (a
 * leading `-` excludes it). `exact` semantics take the whole input as one
 * term that must equal a column (case-insensitively).
 */
function searchMatcher(search: string, columns: string[], exact: boolean): (p: Post) => boolean {
  const cols = (columns.length ? columns : ['post_title', 'post_excerpt', 'post_content']).map((c) => COLUMN[c]!);
  if (exact) {
    const needle = search.trim().toLowerCase();
    return (p) => cols.some((c) => c(p).trim().toLowerCase() === needle);
  }
  const terms = searchTerms(search);
  return (p) =>
    terms.every((t) => {
      const excluded = t.length > 1 && t.startsWith('-');
      const needle = (excluded ? t.slice(1) : t).toLowerCase();
      const hit = cols.some((c) => c(p).toLowerCase().includes(needle));
      return excluded ? !hit : hit;
    });
}

/**
 * WP_Query::parse_search_order: 1 sentence in title, 2 all words in title, 3 any word, 4 excerpt, 5 content, 6 else.
 */
function relevance(search: string): (p: Post) => number {
  const terms = searchTerms(search).filter((t) => !t.startsWith('-'));
  const phrase = /(?:\s|^)-/.test(search) ? '' : search.toLowerCase();
  return (p) => {
    const title = p.title.toLowerCase();
    if (terms.length <= 1) return terms[0] && title.includes(terms[0].toLowerCase()) ? 0 : 1;
    if (phrase && title.includes(phrase)) return 1;
    if (terms.length < 7) {
      if (terms.every((t) => title.includes(t.toLowerCase()))) return 2;
      if (terms.some((t) => title.includes(t.toLowerCase()))) return 3;
    }
    if (phrase && p.excerpt.toLowerCase().includes(phrase)) return 4;
    if (phrase && p.content.toLowerCase().includes(phrase)) return 5;
    return 6;
  };
}

/** WP_Date_Query: offsets converted to the site's zone, plain values taken as site-local. */
function localDate(req: RestRequest, v: unknown): string | undefined {
  return v === undefined || v === null
    ? undefined
    : (parseLooseDate(v, req.site.timezone, req.site.now()) ?? undefined);
}

function sortList(req: RestRequest, list: Post[]): Post[] {
  const p = req.params;
  const orderby = p.orderby as string;
  const dir = p.order === 'asc' ? 1 : -1;
  if (orderby === 'rand') {
    // ORDER BY RAND(), made repeatable: the same seed and query give the same order.
    const rnd = prng((req.site.options.seed + list.length) >>> 0);
    const out = [...list].sort((a, b) => a.id - b.id);
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
  if (orderby === 'relevance') {
    const rank = relevance(p.search as string);
    return [...list].sort((a, b) => rank(a) - rank(b) || cmp(b.date, a.date) || b.id - a.id);
  }
  if (orderby === 'include' || orderby === 'include_slugs') {
    // post__in / post_name__in keep the given order whatever `order` says.
    const order: (string | number)[] =
      orderby === 'include' ? (p.include as number[]) : ((p.slug as string[] | undefined) ?? []);
    const key = (x: Post) => order.indexOf(orderby === 'include' ? x.id : x.slug);
    if (order.length) return [...list].sort((a, b) => key(a) - key(b) || a.id - b.id);
  }
  const key: (x: Post) => string | number =
    {
      author: (x: Post) => x.author,
      id: (x: Post) => x.id,
      modified: (x: Post) => x.modified,
      parent: (x: Post) => x.parent,
      slug: (x: Post) => x.slug,
      title: (x: Post) => x.title.toLowerCase(),
    }[orderby] ?? ((x: Post) => x.date);
  return [...list].sort((a, b) => cmp(key(a), key(b)) * dir || (a.id - b.id) * dir);
}

function cmp(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function findPosts(req: RestRequest): Post[] {
  const { site, user } = req;
  const p = req.params;
  let statuses = p.status as string[];
  if (statuses.includes('any')) statuses = [...new Set([...statuses.filter((s) => s !== 'any'), ...ANY_STATUSES])];
  let list = site.store.posts<PlatformPostMeta>('post', statuses);
  const include = p.include as number[];
  const exclude = p.exclude as number[];
  const authors = p.author as number[];
  const notAuthors = p.author_exclude as number[];
  const slugs = p.slug as string[] | undefined;
  const formats = p.format as string[] | undefined;
  const after = localDate(req, p.after);
  const before = localDate(req, p.before);
  const modifiedAfter = localDate(req, p.modified_after);
  const modifiedBefore = localDate(req, p.modified_before);
  const search = typeof p.search === 'string' && p.search.trim() ? p.search : null;
  const matches = search ? searchMatcher(search, p.search_columns as string[], p.search_semantics === 'exact') : null;
  const sticky = new Set(site.store.option<number[]>('sticky_posts', []));
  const clauses = taxClauses(p).map((c) => ({
    ...c,
    map: site.store.termMap(c.taxonomy),
    // Each named term with its descendants when include_children is set.
    sets: c.terms.map((t) => (c.includeChildren ? withChildren(site, c.taxonomy, t) : new Set([t]))),
  }));
  const orTax = p.tax_relation === 'OR';
  const userCan = (cap: string) => can(user, cap);
  list = list.filter((x) => {
    if (include.length && !include.includes(x.id)) return false;
    if (exclude.includes(x.id)) return false;
    if (authors.length && !authors.includes(x.author)) return false;
    if (notAuthors.includes(x.author)) return false;
    if (slugs?.length && !slugs.includes(x.slug)) return false;
    if (formats?.length && !formats.includes(x.format || 'standard')) return false;
    if (after && !(x.date > after)) return false;
    if (before && !(x.date < before)) return false;
    if (modifiedAfter && !(x.modified > modifiedAfter)) return false;
    if (modifiedBefore && !(x.modified < modifiedBefore)) return false;
    if (p.sticky !== undefined && sticky.has(x.id) !== p.sticky) return false;
    if (matches) {
      // Logged-out searches never match password-protected posts (WP_Query::parse_search).
      if (!user && x.password) return false;
      if (!matches(x)) return false;
    }
    if (clauses.length) {
      const results = clauses.map((c) => {
        const mine = c.map.get(x.id) ?? [];
        const hits = c.sets.map((s) => mine.some((t) => s.has(t)));
        if (c.operator === 'AND') return hits.every(Boolean);
        if (c.operator === 'NOT IN') return !hits.some(Boolean);
        return hits.some(Boolean);
      });
      if (orTax ? !results.some(Boolean) : !results.every(Boolean)) return false;
    }
    // check_read_permission, applied before counting so the totals match what can be paged through.
    return canRead(x, user, userCan);
  });
  return sortList(req, list);
}

/** The collection URL with the request's own query and `page` replaced (add_query_arg). */
function pageLink(req: RestRequest, page: number): string {
  return `${req.site.restRoot}${req.path}?${buildQuery({ ...req.query, page })}`;
}

function listPosts(req: RestRequest): RestResult {
  const p = req.params;
  if (p.orderby === 'relevance' && phpEmpty(p.search)) {
    throw new RestError('rest_no_search_term_defined', 'You need to define a search term to order by relevance.', 400);
  }
  if (p.orderby === 'include' && !(p.include as number[]).length) {
    throw new RestError(
      'rest_orderby_include_missing_include',
      'You need to define an include parameter to order by include.',
      400,
    );
  }
  const all = findPosts(req);
  const page = p.page as number;
  const perPage = p.per_page as number;
  const offset = (p.offset as number | undefined) ? Math.abs(p.offset as number) : 0;
  const total = all.length;
  const maxPages = Math.ceil(total / perPage);
  if (page > maxPages && total > 0) {
    throw new RestError(
      'rest_post_invalid_page_number',
      'The page number requested is larger than the number of pages available.',
      400,
    );
  }
  // WP_Query ignores `paged` when an offset is given.
  const start = offset || (page - 1) * perPage;
  const items = all.slice(start, start + perPage);
  const src = postJsonSource(req.site, req.user, p.context as Context);
  const headers: Record<string, string> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(maxPages) };
  const links: string[] = [];
  if (page > 1) links.push(`<${pageLink(req, Math.min(page - 1, maxPages))}>; rel="prev"`);
  if (maxPages > page) links.push(`<${pageLink(req, page + 1)}>; rel="next"`);
  if (links.length) headers.Link = links.join(', ');
  return new RestResult(
    items.map((x) => postJson(src, x)),
    200,
    headers,
  );
}

// ---- writing

/** rest_get_date_with_gmt: `date` without an offset is site-local; `date_gmt` is UTC. */
function writeDates(req: RestRequest): { date: string; dateGmt: string } | null {
  const { site } = req;
  const p = req.params;
  if (typeof p.date === 'string') {
    const local = parseLooseDate(p.date, site.timezone, site.now())!;
    return { date: local, dateGmt: localToUtc(local, site.timezone) };
  }
  if (typeof p.date_gmt === 'string') {
    const gmt = parseLooseDate(p.date_gmt, 'UTC', site.now())!;
    return { date: utcToLocal(gmt, site.timezone), dateGmt: gmt };
  }
  return null;
}

function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { raw?: unknown }).raw === 'string') return (v as { raw: string }).raw;
  return undefined;
}

/** wp_filter_post_kses for callers without unfiltered_html: active content is removed. */
function kses(html: string, user: User | null): string {
  if (can(user, 'edit_others_posts')) return html;
  return html
    .replace(/<(script|style|iframe|object|embed|form)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<(script|iframe|object|embed)\b[^>]*\/?>/gi, '');
}

/** PHP's empty(): undefined, null, false, 0, '0', '' and [] are empty. */
function phpEmpty(v: unknown): boolean {
  return (
    v === undefined ||
    v === null ||
    v === false ||
    v === 0 ||
    v === '0' ||
    v === '' ||
    (Array.isArray(v) && v.length === 0)
  );
}

/** create_item_permissions_check, in WordPress's order. */
function createPermission(req: RestRequest): true | RestError {
  const p = req.params;
  const status = authStatus(req.user !== null);
  if (!phpEmpty(p.id)) return new RestError('rest_post_exists', 'Cannot create existing post.', 400);
  if (p.author !== undefined && p.author !== req.user?.id && !can(req.user, 'edit_others_posts')) {
    return new RestError('rest_cannot_edit_others', 'Sorry, you are not allowed to create posts as this user.', status);
  }
  if (p.sticky && !can(req.user, 'edit_others_posts') && !can(req.user, 'publish_posts')) {
    return new RestError('rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.', status);
  }
  if (!can(req.user, 'edit_posts'))
    return new RestError('rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.', status);
  return true;
}

function createPost(req: RestRequest): RestResult {
  const { site } = req;
  const { store } = site;
  const p = req.params;
  const user = req.user!;
  // prepare_item_for_database
  const author = (p.author as number | undefined) ?? user.id;
  if (author !== user.id && !store.userById(author))
    throw new RestError('rest_invalid_author', 'Invalid author ID.', 400);
  let status = (p.status as string | undefined) ?? 'draft';
  if (status === 'private' && !can(user, 'publish_posts')) {
    throw new RestError(
      'rest_cannot_publish',
      'Sorry, you are not allowed to create private posts in this post type.',
      403,
    );
  }
  if ((status === 'publish' || status === 'future') && !can(user, 'publish_posts')) {
    throw new RestError('rest_cannot_publish', 'Sorry, you are not allowed to publish posts in this post type.', 403);
  }
  const password = (p.password as string | undefined) ?? '';
  if (password !== '' && p.sticky)
    throw new RestError('rest_invalid_field', 'A post can not be sticky and have a password.', 400);
  const featured = p.featured_media as number | undefined;
  if (featured && store.post(featured)?.type !== 'attachment')
    throw new RestError('rest_invalid_featured_media', 'Invalid featured media ID.', 400);

  // wp_insert_post
  const now = site.now();
  const dates = writeDates(req) ?? { date: nowIn(now, site.timezone), dateGmt: nowUtc(now) };
  const ahead = Date.parse(`${dates.dateGmt.replace(' ', 'T')}Z`) - now.getTime();
  if (status === 'publish' && ahead >= 60_000) status = 'future';
  else if (status === 'future' && ahead < 60_000) status = 'publish';
  const title = textOf(p.title) ?? '';
  const unpublished = ['draft', 'pending', 'auto-draft'].includes(status);
  const givenSlug = typeof p.slug === 'string' && p.slug !== '' ? slugify(p.slug) : '';
  return store.transaction(() => {
    const saved = store.insertPost<PlatformPostMeta>({
      type: 'post',
      status,
      author,
      title,
      content: kses(textOf(p.content) ?? '', user),
      excerpt: kses(textOf(p.excerpt) ?? '', user),
      slug: givenSlug && unpublished ? givenSlug : '',
      password,
      ...dates,
      modified: nowIn(now, site.timezone),
      modifiedGmt: nowUtc(now),
      commentStatus: (p.comment_status as 'open' | 'closed' | undefined) ?? 'open',
      pingStatus: (p.ping_status as 'open' | 'closed' | undefined) ?? 'open',
      format: (p.format as string | undefined) ?? 'standard',
      template: (p.template as string | undefined) ?? '',
      featuredMedia: featured ?? 0,
      meta: {},
    });
    // Published, scheduled and private posts get their slug now (the title, or the ID for an untitled post).
    const slug = unpublished
      ? saved.slug
      : store.uniqueSlug('post', givenSlug || slugify(title) || String(saved.id), saved.id);
    store.updatePost<PlatformPostMeta>(saved.id, {
      slug,
      meta: { guid: status === 'publish' ? `/${slug}/` : `/?p=${saved.id}` },
    });
    // Unknown term IDs are skipped (wp_set_object_terms); no categories means the default one.
    const known = (list: unknown, tax: string) => (list as number[]).filter((id) => store.term(id)?.taxonomy === tax);
    const defaultCategory = store.option<number | null>(OPTIONS.defaultCategory, null);
    if (p.categories !== undefined) store.setTerms(saved.id, POST_CATEGORY_TAX, known(p.categories, POST_CATEGORY_TAX));
    else if (defaultCategory) store.setTerms(saved.id, POST_CATEGORY_TAX, [defaultCategory]);
    if (p.tags !== undefined) store.setTerms(saved.id, TAG_TAX, known(p.tags, TAG_TAX));
    if (p.sticky !== undefined) setSticky(site, saved.id, Boolean(p.sticky));
    const post = store.post<PlatformPostMeta>(saved.id)!;
    const body = postJson(postJsonSource(site, user, 'edit'), post);
    return new RestResult(body, 201, { Location: `${site.restRoot}/${CORE_NS}/posts/${post.id}` });
  });
}

/**
 * handle_status_param for an update: a status other than the stored one is
 * checked (re-sending the current status skips it; site-upstream.md §7).
 */
function checkNewStatus(req: RestRequest, status: string): void {
  if (status === 'private' && !can(req.user, 'publish_posts')) {
    throw new RestError(
      'rest_cannot_publish',
      'Sorry, you are not allowed to create private posts in this post type.',
      authStatus(req.user !== null),
    );
  }
  if ((status === 'publish' || status === 'future') && !can(req.user, 'publish_posts')) {
    throw new RestError(
      'rest_cannot_publish',
      'Sorry, you are not allowed to publish posts in this post type.',
      authStatus(req.user !== null),
    );
  }
}

/** update_item_permissions_check, in WordPress's order (after the post lookup). */
function updatePermission(req: RestRequest): true | RestError {
  const post = itemPost(req);
  if (post instanceof RestError) return post;
  const p = req.params;
  const status = authStatus(req.user !== null);
  if (!canEdit(post, req.user, (cap) => can(req.user, cap)))
    return new RestError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', status);
  if (!phpEmpty(p.author) && p.author !== req.user?.id && !can(req.user, 'edit_others_posts')) {
    return new RestError('rest_cannot_edit_others', 'Sorry, you are not allowed to update posts as this user.', status);
  }
  if (!phpEmpty(p.sticky) && !can(req.user, 'edit_others_posts') && !can(req.user, 'publish_posts')) {
    return new RestError('rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.', status);
  }
  return true;
}

/**
 * update_item: a partial update (prepare_item_for_database with the existing
 * post, then wp_update_post, which merges the stored post with what was sent):
 * what the request leaves out keeps its value. 200 with the post in context
 * `edit` (site-upstream.md §7 "Writes").
 */
function updatePost(req: RestRequest): RestResult {
  const { site } = req;
  const { store } = site;
  const p = req.params;
  const user = req.user!;
  const before = itemPost(req) as Post;
  const sticky = new Set(stickyIds(site));
  if (p.author !== undefined && p.author !== before.author && !store.userById(p.author as number))
    throw new RestError('rest_invalid_author', 'Invalid author ID.', 400);
  let status = (p.status as string | undefined) ?? before.status;
  if (p.status !== undefined && p.status !== before.status) checkNewStatus(req, status);
  if (typeof p.password === 'string' && p.password !== '') {
    if (!phpEmpty(p.sticky))
      throw new RestError('rest_invalid_field', 'A post can not be sticky and have a password.', 400);
    if (sticky.has(before.id))
      throw new RestError('rest_invalid_field', 'A sticky post can not be password protected.', 400);
  }
  if (!phpEmpty(p.sticky) && before.password !== '')
    throw new RestError('rest_invalid_field', 'A password protected post can not be set to sticky.', 400);
  const featured = p.featured_media as number | undefined;
  if (featured && store.post(featured)?.type !== 'attachment')
    throw new RestError('rest_invalid_featured_media', 'Invalid featured media ID.', 400);

  // wp_update_post -> wp_insert_post
  const now = site.now();
  const dates = writeDates(req) ?? { date: before.date, dateGmt: before.dateGmt };
  const ahead = Date.parse(`${dates.dateGmt.replace(' ', 'T')}Z`) - now.getTime();
  if (status === 'publish' && ahead >= 60_000) status = 'future';
  else if (status === 'future' && ahead < 60_000) status = 'publish';
  const title = textOf(p.title) ?? before.title;
  const unpublished = ['draft', 'pending', 'auto-draft'].includes(status);
  // A given slug is made unique (update_item does so for drafts too); otherwise a post leaving draft gets one from its
  // title.
  const givenSlug = typeof p.slug === 'string' && p.slug !== '' ? slugify(p.slug) : '';
  let slug = before.slug;
  if (givenSlug) slug = store.uniqueSlug('post', givenSlug, before.id);
  else if (p.slug === '' && unpublished) slug = '';
  else if (!slug && !unpublished) slug = store.uniqueSlug('post', slugify(title) || String(before.id), before.id);
  const pick = <T>(v: unknown, stored: T): T => (v === undefined ? stored : (v as T));
  return store.transaction(() => {
    store.updatePost<PlatformPostMeta>(before.id, {
      status,
      author: pick(p.author, before.author),
      title,
      content: textOf(p.content) !== undefined ? kses(textOf(p.content)!, user) : before.content,
      excerpt: textOf(p.excerpt) !== undefined ? kses(textOf(p.excerpt)!, user) : before.excerpt,
      slug,
      password: pick(p.password, before.password),
      ...dates,
      modified: nowIn(now, site.timezone),
      modifiedGmt: nowUtc(now),
      commentStatus: pick(p.comment_status, before.commentStatus),
      pingStatus: pick(p.ping_status, before.pingStatus),
      format: pick(p.format, before.format),
      template: pick(p.template, before.template),
      featuredMedia: pick(featured, before.featuredMedia),
    });
    // handle_terms: a given list replaces the post's terms (unknown IDs skipped, as wp_set_object_terms).
    const known = (list: unknown, tax: string) => (list as number[]).filter((id) => store.term(id)?.taxonomy === tax);
    if (p.categories !== undefined)
      store.setTerms(before.id, POST_CATEGORY_TAX, known(p.categories, POST_CATEGORY_TAX));
    if (p.tags !== undefined) store.setTerms(before.id, TAG_TAX, known(p.tags, TAG_TAX));
    if (p.sticky !== undefined) setSticky(site, before.id, Boolean(p.sticky));
    const post = store.post<PlatformPostMeta>(before.id)!;
    return new RestResult(postJson(postJsonSource(site, user, 'edit'), post), 200);
  });
}

/**
 * The post of `/core/v2/posts/<id>`, looked up first as WordPress's permission
 * checks do (get_post): a missing ID or another type is 404
 * `rest_post_invalid_id`, not rest_no_route (real-site-behaviour.md "core/v2
 * single posts"; site-upstream.md §1).
 */
function itemPost(req: RestRequest): Post | RestError {
  const post = req.site.store.post<PlatformPostMeta>(Number(req.params.id));
  return post && post.type === 'post' ? post : new RestError('rest_post_invalid_id', 'Invalid post ID.', 404);
}

/** `/core/v2/posts/<id>` (site-upstream.md §7): read in view context; partial update; trash, or force-delete. */
function postItemRoute(): RouteDecl {
  const id: ArgSchema = { type: 'integer', description: 'Unique identifier for the post.' };
  const userCan = (req: RestRequest) => (cap: string) => can(req.user, cap);
  return {
    namespace: CORE_NS,
    path: `/${CORE_NS}/posts/(?P<id>[\\d]+)`,
    endpoints: [
      {
        methods: ['GET'],
        summary: 'Retrieve a post',
        args: { id, context: contextArg },
        allowBatch: true,
        // get_item_permissions_check: `edit` context needs the right to edit this post.
        permission: (req) => {
          const post = itemPost(req);
          if (post instanceof RestError) return post;
          if (req.params.context === 'edit' && !canEdit(post, req.user, userCan(req))) {
            return new RestError(
              'rest_forbidden_context',
              'Sorry, you are not allowed to edit this post.',
              authStatus(req.user !== null),
            );
          }
          return canRead(post, req.user, userCan(req));
        },
        handler: (req) =>
          postJson(postJsonSource(req.site, req.user, req.params.context as Context), itemPost(req) as Post),
      },
      {
        methods: ['POST', 'PUT', 'PATCH'],
        summary: 'Update a post',
        // WordPress's EDITABLE args: the create arguments (no defaults) plus the ID.
        args: { id, ...createArgs },
        allowBatch: true,
        permission: updatePermission,
        handler: updatePost,
      },
      {
        methods: ['DELETE'],
        summary: 'Delete a post',
        args: {
          id,
          force: { type: 'boolean', default: false, description: 'Whether to bypass the trash and force deletion.' },
        },
        allowBatch: true,
        permission: (req) => {
          const post = itemPost(req);
          if (post instanceof RestError) return post;
          return (
            canDelete(post, req.user, userCan(req)) ||
            new RestError(
              'rest_cannot_delete',
              'Sorry, you are not allowed to delete this post.',
              authStatus(req.user !== null),
            )
          );
        },
        handler: (req) => {
          const { site, user } = req;
          const post = itemPost(req) as Post;
          if (req.params.force) {
            const previous = postJson(postJsonSource(site, user, 'edit'), post);
            site.store.transaction(() => site.store.deletePost(post.id));
            return { deleted: true, previous };
          }
          if (post.status === 'trash')
            throw new RestError('rest_already_trashed', 'The post has already been deleted.', 410);
          trashPost(site, post.id);
          return postJson(postJsonSource(site, user, 'edit'), site.store.post<PlatformPostMeta>(post.id)!);
        },
      },
    ],
  };
}

export function postsRoutes(): RouteDecl[] {
  return [
    {
      namespace: CORE_NS,
      path: `/${CORE_NS}/posts`,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'List posts',
          args: listArgs,
          // The spec marks GET as batchable; /batch/v1 still refuses GET items by its method enum.
          allowBatch: true,
          permission: (req) =>
            req.params.context !== 'edit' ||
            can(req.user, 'edit_posts') ||
            new RestError(
              'rest_forbidden_context',
              'Sorry, you are not allowed to edit posts in this post type.',
              authStatus(req.user !== null),
            ),
          handler: listPosts,
        },
        {
          methods: ['POST'],
          summary: 'Create a post',
          args: createArgs,
          // create_item refuses any `id` (rest_post_exists) though the route does not declare it.
          reads: ['id'],
          allowBatch: true,
          permission: createPermission,
          handler: createPost,
        },
      ],
    },
    postItemRoute(),
  ];
}
