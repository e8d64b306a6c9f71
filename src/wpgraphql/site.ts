/**
 * WPGraphQL's site-wide fields: `generalSettings` and `readingSettings`, `contentTypes`, `users`, `terms` across
 * taxonomies, and the terms' Yoast `seo`. They are read from WordPress's own core/v2 routes (settings, types, users,
 * categories, tags and the calendar's `tribe_events_cat`), which are not the contract's: a site whose index does not
 * list one has it refused by the session's route gate, naming the route, before anything is sent.
 */
import type { Context } from '../context.ts';
import { GatewayError } from '../errors.ts';
import { bool, int, isJson, str } from '../mapping/json.ts';
import { legacyTerm } from '../namespaces/calendar/legacy-mapping.ts';
import { LEGACY_MAX_PER_PAGE, legacyList } from '../namespaces/calendar/legacy-requests.ts';
import { connection, listIdentity, memoryConnection } from '../routes/connection.ts';
import { readAll } from '../paging/window.ts';
import { checkWhere, intIds, paging, type WpPaging } from './args.ts';
import { categoriesList, homeOf, tagsList, type TermsWhereArgs } from './content.ts';
import { eventsCategoriesList } from './calendar.ts';
import { uriOf } from './ids.ts';
import { corePage, coreTerm, coreTypes, coreUser, readingOf, settingsOf, wpLoaders } from './loaders.ts';
import { fromTerm, wpConnection, type WpConnection, type WpContentType, type WpTerm, type WpUser } from './models.ts';
import { postSeo } from './seo.ts';

// ---- settings

const setting =
  (field: string, key: string, as: 'string' | 'int' = 'string') =>
  async (_p: unknown, _a: unknown, ctx: Context) => {
    const v = (await settingsOf(ctx, field))[key];
    // WPGraphQL casts options as their registered type (absint, (string)).
    return as === 'int' ? Math.abs(int(v) ?? 0) : (str(v) ?? (typeof v === 'number' ? String(v) : ''));
  };

/** The site's index carries the title, tagline, address and time zone; the rest needs the settings route. */
export const GeneralSettings = {
  title: (_p: unknown, _a: unknown, ctx: Context) => ctx.site.name ?? '',
  description: (_p: unknown, _a: unknown, ctx: Context) => ctx.site.description ?? '',
  url: (_p: unknown, _a: unknown, ctx: Context) => ctx.site.url ?? '',
  timezone: (_p: unknown, _a: unknown, ctx: Context) =>
    isJson(ctx.site.raw) ? (str(ctx.site.raw.timezone_string) ?? '') : '',
  dateFormat: setting('generalSettings.dateFormat', 'date_format'),
  timeFormat: setting('generalSettings.timeFormat', 'time_format'),
  language: setting('generalSettings.language', 'language'),
  startOfWeek: setting('generalSettings.startOfWeek', 'start_of_week', 'int'),
  email: setting('generalSettings.email', 'email'),
};

export const ReadingSettings = {
  postsPerPage: setting('readingSettings.postsPerPage', 'posts_per_page', 'int'),
  showOnFront: setting('readingSettings.showOnFront', 'show_on_front'),
  pageOnFront: setting('readingSettings.pageOnFront', 'page_on_front', 'int'),
  pageForPosts: setting('readingSettings.pageForPosts', 'page_for_posts', 'int'),
};

// ---- content types

/** The post types the compatible graph serves as content nodes (WPGraphQL lists those it shows in GraphQL). */
const SERVED_TYPES = ['post', 'page', 'attachment', 'tribe_events', 'tribe_venue', 'tribe_organizer'];
/** The Events Calendar registers venues and organizers as not public: WPGraphQL lists them to editors only. */
const NOT_PUBLIC = ['tribe_venue', 'tribe_organizer'];

function contentType(name: string, raw: unknown): WpContentType {
  const o = isJson(raw) ? raw : {};
  const archive = o.has_archive;
  return {
    kind: 'ContentType',
    name,
    label: str(o.name),
    description: str(o.description),
    hierarchical: bool(o.hierarchical),
    hasArchive: typeof archive === 'string' ? archive.length > 0 : bool(archive),
    restBase: str(o.rest_base),
  };
}

/**
 * The site's post types as core/v2/types lists them (an object by name, in registration order), the served ones only.
 * The calendar's are listed there for administrators only (The Events Calendar shows them in REST to manage_options).
 */
async function contentTypesOf(ctx: Context): Promise<WpContentType[]> {
  return Object.entries(await coreTypes(ctx))
    .filter(([name]) => SERVED_TYPES.includes(name) && (ctx.upstream.authenticated || !NOT_PUBLIC.includes(name)))
    .map(([name, raw]) => contentType(name, raw));
}

export async function contentTypesList(ctx: Context, args: WpPaging): Promise<WpConnection<WpContentType>> {
  const c = await memoryConnection(ctx, paging(args), await contentTypesOf(ctx));
  return wpConnection(c, (t) => t);
}

const typeGlobalId = (name: string) => Buffer.from(`post_type:${name}`, 'utf8').toString('base64');

export async function contentTypeBy(ctx: Context, id: string, idType: string): Promise<WpContentType | null> {
  let name = id;
  if (idType !== 'NAME') {
    const m = /^post_type:(.+)$/.exec(Buffer.from(id, 'base64').toString('utf8'));
    if (!m)
      throw GatewayError.badInput(`contentType: ${JSON.stringify(id)} is not a content type's global ID`, {
        arguments: ['id'],
      });
    name = m[1]!;
  }
  return (await contentTypesOf(ctx)).find((t) => t.name === name) ?? null;
}

export const ContentType = {
  isContentNode: () => false,
  isTermNode: () => false,
  id: (t: WpContentType) => typeGlobalId(t.name),
  name: (t: WpContentType) => t.name,
  label: (t: WpContentType) => t.label,
  description: (t: WpContentType) => t.description,
  hierarchical: (t: WpContentType) => t.hierarchical,
  // WPGraphQL shows these to callers who may edit the type only.
  hasArchive: (t: WpContentType, _a: unknown, ctx: Context) => (ctx.upstream.authenticated ? t.hasArchive : null),
  restBase: (t: WpContentType, _a: unknown, ctx: Context) => (ctx.upstream.authenticated ? t.restBase : null),
  // WordPress's archive link: posts' is the home page (unless a page shows them: that needs the settings);
  // other types' only when they have an archive, which the types answer does not give the path of.
  uri: (t: WpContentType, _a: unknown, ctx: Context) => (t.name === 'post' ? uriOf(homeOf(ctx), homeOf(ctx)) : null),
  // As WPGraphQL decides them (only the posts' type is either), from the reading settings (administrators only).
  isFrontPage: async (t: WpContentType, _a: unknown, ctx: Context) => {
    if (t.name !== 'post') return false;
    const r = await readingOf(ctx, 'ContentType.isFrontPage');
    return r.showOnFront === 'posts' || !r.pageOnFront;
  },
  isPostsPage: async (t: WpContentType, _a: unknown, ctx: Context) => {
    if (t.name !== 'post') return false;
    const r = await readingOf(ctx, 'ContentType.isPostsPage');
    return r.showOnFront === 'posts' || !r.pageForPosts;
  },
};

// ---- users

interface UsersWhereArgs {
  search?: string | null;
  include?: (number | null)[] | null;
  exclude?: (number | null)[] | null;
  nicename?: string | null;
  nicenameIn?: (string | null)[] | null;
  orderby?: ({ field: string; order?: string | null } | null)[] | null;
}

const USERS_WHERE = ['search', 'include', 'exclude', 'nicename', 'nicenameIn', 'orderby'];

/** WPGraphQL's user orders -> the users route's (it cannot sort by login, which it does not show). */
const USER_ORDER: Record<string, string | undefined> = {
  DISPLAY_NAME: 'name',
  EMAIL: 'email',
  NICE_NAME: 'slug',
  NICE_NAME_IN: 'include_slugs',
  REGISTERED: 'registered_date',
  URL: 'url',
};

/**
 * Users as WPGraphQL lists them (by login, ascending, unless told otherwise). The users route cannot sort by login,
 * which it does not show: the nicename (`slug`), which WordPress makes from the login, stands for it.
 */
export async function usersList(
  ctx: Context,
  args: WpPaging & { where?: UsersWhereArgs | null },
): Promise<WpConnection<WpUser>> {
  const w = args.where ?? {};
  checkWhere('users', w, USERS_WHERE);
  const query: Record<string, string | number | boolean | Array<string | number>> = {};
  if (w.search) query.search = w.search;
  const include = intIds(w.include, 'where.include');
  if (include) query.include = include;
  const exclude = intIds(w.exclude, 'where.exclude');
  if (exclude) query.exclude = exclude;
  const names = [...(w.nicename ? [w.nicename] : []), ...(w.nicenameIn ?? []).filter((s): s is string => !!s)];
  if (names.length) query.slug = names;
  const orders = (w.orderby ?? []).filter((o) => o !== null);
  if (orders.length > 1)
    throw GatewayError.badInput('users: where.orderby takes one field here (the users route sorts by one key)', {
      arguments: ['where.orderby'],
    });
  const o = orders[0];
  const field = o ? USER_ORDER[o.field] : 'slug';
  if (!field)
    throw GatewayError.badInput(`users: where.orderby ${o?.field} is not an order the site's users route takes`, {
      arguments: ['where.orderby'],
    });
  query.orderby = field;
  query.order = o?.order === 'DESC' ? 'desc' : 'asc';
  // The site pages and orders the list: only the pages the window spans are read.
  const c = await connection(
    ctx,
    paging(args),
    (page, per) => corePage(ctx, 'users', { ...query, page, per_page: per }),
    100,
    (raw) => {
      const u = coreUser(raw);
      wpLoaders(ctx).user.prime(u.databaseId, u);
      return u;
    },
    { hint: `core:users:${JSON.stringify(query)}` },
  );
  return wpConnection(c, (u) => u);
}

// ---- terms across taxonomies

type TermsAcrossArgs = TermsWhereArgs & { taxonomies?: (string | null)[] | null };
type TermList = (ctx: Context, a: WpPaging & { where?: TermsWhereArgs | null }) => Promise<WpConnection<WpTerm>>;

const TAXONOMY_LISTS: Record<string, TermList | undefined> = {
  CATEGORY: (ctx, a) => categoriesList(ctx, a),
  TAG: (ctx, a) => tagsList(ctx, a),
  EVENTSCATEGORY: (ctx, a) => eventsCategoriesList(ctx, a),
};

/** Every term of one taxonomy (WordPress's order does not matter: the union is sorted by name). */
async function wholeTaxonomy(ctx: Context, taxonomy: string): Promise<WpTerm[]> {
  if (taxonomy === 'CATEGORY') {
    const raws = await readAll(
      (page, per) => corePage(ctx, 'categories', { hide_empty: false, page, per_page: per }),
      100,
      ctx.totals.for('core:categories:all'),
    );
    return raws.map((r) => coreTerm(r, 'Category'));
  }
  const kind = taxonomy === 'TAG' ? 'tags' : 'categories';
  const raws = await readAll(
    (page, per) => legacyList(ctx.upstream, kind, { hide_empty: false }, page, per),
    LEGACY_MAX_PER_PAGE,
    ctx.totals.for(`legacy:${kind}:all`),
  );
  return raws.map((r) => {
    const t = legacyTerm(r, kind === 'tags' ? 'Tag' : 'Category');
    ctx.loaders.prime(t);
    return fromTerm(t, kind === 'tags' ? 'Tag' : 'EventsCategory');
  });
}

/**
 * `terms`: one taxonomy is that taxonomy's own list, with its `where`; several (WPGraphQL's default is every taxonomy
 * it shows) are read whole and ordered by name, as WordPress's term query does (post formats are not served).
 */
export async function termsList(
  ctx: Context,
  args: WpPaging & { where?: TermsAcrossArgs | null },
): Promise<WpConnection<WpTerm>> {
  const { taxonomies, ...where } = args.where ?? {};
  const asked = (taxonomies ?? []).filter((t): t is string => !!t);
  const scope = asked.length ? [...new Set(asked)] : Object.keys(TAXONOMY_LISTS);
  const unserved = scope.filter((t) => !TAXONOMY_LISTS[t]);
  if (unserved.length)
    throw GatewayError.badInput(
      `terms: where.taxonomies ${unserved.join(', ')} is not served by the compatible graph (CATEGORY, TAG and EVENTSCATEGORY are)`,
      { arguments: ['where.taxonomies'] },
    );
  if (scope.length === 1) return TAXONOMY_LISTS[scope[0]!]!(ctx, { ...args, where });
  checkWhere('terms', where, ['hideEmpty']);
  const lists = await Promise.all(scope.map((t) => wholeTaxonomy(ctx, t)));
  let all = lists.flat();
  if (where.hideEmpty === true) all = all.filter((t) => (t.count ?? 0) > 0);
  all.sort(
    (a, b) => (a.name ?? '').localeCompare(b.name ?? '', 'en', { sensitivity: 'base' }) || a.databaseId - b.databaseId,
  );
  const c = await memoryConnection(ctx, paging(args), all, {
    list: listIdentity('wpgraphql:terms', scope, where),
    id: (t) => t.databaseId,
  });
  return wpConnection(c, (t) => t);
}

// ---- the terms' Yoast SEO

/** The core/v2 route of each taxonomy, whose answers carry Yoast's head. */
const TERM_ROUTES = { Category: 'categories', Tag: 'tags', EventsCategory: 'tribe_events_cat' } as const;

/**
 * WPGraphQL Yoast SEO's TaxonomySEO, from the `yoast_head_json` of the term's core/v2 answer: the posts' categories
 * carry it already; tags and event categories (read from the calendar's archives) are read again from core/v2, in
 * `include=` batches.
 */
export async function termSeo(ctx: Context, t: WpTerm) {
  const raw = t.raw ?? (await wpLoaders(ctx).coreTerm(TERM_ROUTES[t.kind]).load(t.databaseId))?.raw;
  if (!raw)
    throw new GatewayError(
      'NOT_FOUND',
      `seo: the site's ${TERM_ROUTES[t.kind]} route does not list term ${t.databaseId}`,
    );
  return postSeo(raw, 'term');
}
