/**
 * `facet/v1` = FacetWP's `facetwp/v1` (other-upstream.md §3 [C]), over the
 * site's real posts, with four facets: `categories` and `tags` (checkboxes on
 * the posts' taxonomies, values are term slugs), `author` (dropdown, values
 * are user IDs) and `keywords` (search).
 *
 * - `POST /refresh` is open. `action` must be `facetwp_refresh` or
 *   `facetwp_autocomplete_load`; anything else (or nothing) answers `[]` 200.
 *   A refresh answers what `FWP()->facet->render()` prints: `facets` (HTML per
 *   facet), `template` (HTML of the page of results; empty on a first load
 *   that is not a bfcache restore), `settings` (`pager`, `num_choices`,
 *   `labels`, one entry per facet) and the `pager`/`per_page`/`counts`/`sort`
 *   HTML asked for in `data.extras`.
 * - `POST /fetch` is closed by default, as FacetWP's `facetwp_api_can_access`
 *   filter is: 401/403 `rest_forbidden`. The sandbox option
 *   `facetwp_api_can_access` (true) opens it to `manage_options`. It answers
 *   `{results: [post IDs], facets: {name: {name, label, type, selected,
 *   choices?, settings}}, pager}`.
 *
 * Within a facet the selected values are alternatives (OR); facets combine
 * with AND; a facet's choice counts ignore its own selection, so picking one
 * choice never hides the others.
 */
import { can } from '../../auth.ts';
import { renderedExcerpt } from '../../calendar/core-repr.ts';
import type { RestRequest, RouteDecl } from '../../rest/types.ts';
import type { Storage } from '../../capabilities.ts';
import type { PostRow } from '../../store/db.ts';
import { searchTerms } from './posts.ts';
import { POST_CATEGORY_TAX, TAG_TAX, postLink } from './post-json.ts';
import { OPTIONS } from './seed.ts';

const NS = 'facet/v1';

interface FacetDef {
  name: string;
  label: string;
  type: 'checkboxes' | 'dropdown' | 'search';
  source: string;
}

export const FACETS: FacetDef[] = [
  { name: 'categories', label: 'Categories', type: 'checkboxes', source: `tax/${POST_CATEGORY_TAX}` },
  { name: 'tags', label: 'Tags', type: 'checkboxes', source: `tax/${TAG_TAX}` },
  { name: 'author', label: 'Author', type: 'dropdown', source: 'post_author' },
  { name: 'keywords', label: 'Keywords', type: 'search', source: '' },
];

interface Choice {
  value: string;
  label: string;
  depth: number;
  count: number;
  term_id?: number;
  parent_id?: number;
}

type Selection = Record<string, string[]>;

/** The `data` parameter: an object, or a JSON string (form posts); anything unreadable is empty. */
function dataOf(v: unknown): Record<string, unknown> {
  if (typeof v === 'string') {
    try {
      const parsed: unknown = JSON.parse(v);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : {};
    } catch {
      return {};
    }
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Selected values per known facet; unknown facet names are dropped. */
function selectionOf(v: unknown): Selection {
  const raw = dataOf(v);
  const out: Selection = {};
  for (const f of FACETS) {
    const given = raw[f.name];
    const list = Array.isArray(given) ? given : given === undefined || given === null || given === '' ? [] : [given];
    out[f.name] = list.map(String).filter((x) => x !== '');
  }
  return out;
}

/** What a post offers to each facet. */
interface Indexed {
  post: PostRow;
  values: Record<string, string[]>;
  text: string;
}

function index(site: Storage, posts: PostRow[]): Indexed[] {
  const terms = (tax: string) => {
    const map = site.store.termMap(tax);
    const slugs = new Map(site.store.terms(tax).map((t) => [t.id, t.slug]));
    return (id: number) => (map.get(id) ?? []).map((t) => slugs.get(t)!);
  };
  const cats = terms(POST_CATEGORY_TAX);
  const tags = terms(TAG_TAX);
  return posts.map((post) => ({
    post,
    values: { categories: cats(post.id), tags: tags(post.id), author: [String(post.author)] },
    text: `${post.title}\n${post.excerpt}\n${post.content}`.toLowerCase(),
  }));
}

function matches(x: Indexed, f: FacetDef, selected: string[]): boolean {
  if (!selected.length) return true;
  if (f.type === 'search') return searchTerms(selected.join(' ')).every((t) => x.text.includes(t.toLowerCase()));
  return (x.values[f.name] ?? []).some((v) => selected.includes(v));
}

function filter(rows: Indexed[], sel: Selection, except?: string): Indexed[] {
  return rows.filter((x) => FACETS.every((f) => f.name === except || matches(x, f, sel[f.name] ?? [])));
}

/** A facet's choices over the posts matching every other facet, most frequent first. */
function choices(site: Storage, f: FacetDef, rows: Indexed[], sel: Selection): Choice[] | undefined {
  if (f.type === 'search') return undefined;
  const counts = new Map<string, number>();
  for (const x of filter(rows, sel, f.name))
    for (const v of new Set(x.values[f.name] ?? [])) counts.set(v, (counts.get(v) ?? 0) + 1);
  const out: Choice[] = [];
  if (f.source.startsWith('tax/')) {
    const all = site.store.terms(f.source.slice(4));
    const byId = new Map(all.map((t) => [t.id, t]));
    const depth = (t: { parent: number }): number =>
      t.parent && byId.has(t.parent) ? 1 + depth(byId.get(t.parent)!) : 0;
    for (const t of all) {
      const n = counts.get(t.slug);
      if (n) out.push({ value: t.slug, label: t.name, depth: depth(t), count: n, term_id: t.id, parent_id: t.parent });
    }
  } else {
    for (const [v, n] of counts)
      out.push({ value: v, label: site.store.userById(Number(v))?.displayName ?? v, depth: 0, count: n });
  }
  return out.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function facetHtml(f: FacetDef, list: Choice[] | undefined, selected: string[]): string {
  if (f.type === 'search') {
    return `<span class="facetwp-input-wrap"><i class="facetwp-icon"></i><input type="text" class="facetwp-search" value="${esc(selected.join(' '))}" placeholder="Enter keywords" autocomplete="off" /></span>`;
  }
  if (f.type === 'dropdown') {
    const options = (list ?? []).map(
      (c) =>
        `<option value="${esc(c.value)}"${selected.includes(c.value) ? ' selected' : ''}>${esc(c.label)} (${c.count})</option>`,
    );
    return `<select class="facetwp-dropdown"><option value="">Any</option>${options.join('')}</select>`;
  }
  return (list ?? [])
    .map(
      (c) =>
        `<div class="facetwp-checkbox${selected.includes(c.value) ? ' checked' : ''}" data-value="${esc(c.value)}"><span class="facetwp-display-value">${esc(c.label)}</span><span class="facetwp-counter">(${c.count})</span></div>`,
    )
    .join('');
}

function facetSettings(f: FacetDef): Record<string, unknown> {
  if (f.type === 'checkboxes') return { show_expanded: 'no' };
  if (f.type === 'dropdown') return { placeholder: 'Any' };
  return { auto_refresh: 'no' };
}

interface Pager {
  page: number;
  per_page: number;
  total_rows: number;
  total_pages: number;
}

function page<T>(list: T[], pageNo: number, perPage: number): { items: T[]; pager: Pager } {
  const per = perPage > 0 ? perPage : Math.max(list.length, 1);
  const total_pages = Math.max(1, Math.ceil(list.length / per));
  const current = Math.min(Math.max(1, pageNo), total_pages);
  return {
    items: list.slice((current - 1) * per, current * per),
    pager: { page: current, per_page: per, total_rows: list.length, total_pages },
  };
}

const SORTS: Record<string, (a: PostRow, b: PostRow) => number> = {
  default: (a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id),
  date_desc: (a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id),
  date_asc: (a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id),
  title_asc: (a, b) => a.title.localeCompare(b.title) || a.id - b.id,
  title_desc: (a, b) => b.title.localeCompare(a.title) || b.id - a.id,
};

const int = (v: unknown, fallback: number) =>
  Number.isInteger(Number(v)) && v !== '' && v !== null && v !== undefined ? Number(v) : fallback;

function refresh(req: RestRequest): unknown {
  const action = req.params.action;
  if (action !== 'facetwp_refresh' && action !== 'facetwp_autocomplete_load') return [];
  const { site } = req;
  const data = dataOf(req.params.data);
  const rows = index(site, site.store.posts('post', ['publish']));
  if (action === 'facetwp_autocomplete_load') {
    const f = FACETS.find((x) => x.name === data.facet_name);
    const q = String(data.query ?? '').toLowerCase();
    return (f ? (choices(site, f, rows, selectionOf({})) ?? []) : [])
      .filter((c) => c.label.toLowerCase().includes(q))
      .map((c) => ({ value: c.value, label: c.label }));
  }
  const sel = selectionOf(data.facets);
  const extras = dataOf(data.extras);
  const sortKey = typeof extras.sort === 'string' && SORTS[extras.sort] ? extras.sort : 'default';
  const found = filter(rows, sel)
    .map((x) => x.post)
    .sort(SORTS[sortKey]);
  const { items, pager } = page(found, int(data.paged, 1), int(extras.per_page, 10));
  const facets: Record<string, string> = {};
  const settings: Record<string, unknown> = { num_choices: {}, labels: {} };
  for (const f of FACETS) {
    const list = choices(site, f, rows, sel);
    facets[f.name] = facetHtml(f, list, sel[f.name]!);
    (settings.num_choices as Record<string, number>)[f.name] = list?.length ?? 0;
    (settings.labels as Record<string, string>)[f.name] = f.label;
    settings[f.name] = facetSettings(f);
  }
  settings.pager = pager;
  const firstLoad = Boolean(data.first_load) && !data.is_bfcache;
  const template = firstLoad
    ? ''
    : items
        .map(
          (p) =>
            `<div class="fwpl-result post-${p.id}"><h3><a href="${esc(postLink(site, p))}">${esc(p.title)}</a></h3>${p.password ? '' : renderedExcerpt(p)}</div>`,
        )
        .join('');
  const out: Record<string, unknown> = { facets, template, settings };
  if (extras.pager !== undefined) {
    const links = Array.from(
      { length: pager.total_pages },
      (_, i) => `<a class="facetwp-page${i + 1 === pager.page ? ' active' : ''}" data-page="${i + 1}">${i + 1}</a>`,
    );
    out.pager = `<div class="facetwp-pager">${links.join('')}</div>`;
  }
  if (extras.counts !== undefined) {
    const from = pager.total_rows ? (pager.page - 1) * pager.per_page + 1 : 0;
    out.counts = `${from}-${Math.min(pager.page * pager.per_page, pager.total_rows)} of ${pager.total_rows}`;
  }
  if (extras.per_page !== undefined) {
    out.per_page = `<select class="facetwp-per-page-select">${[10, 25, 50].map((n) => `<option value="${n}"${n === pager.per_page ? ' selected' : ''}>${n}</option>`).join('')}</select>`;
  }
  if (extras.sort !== undefined) {
    out.sort = `<select class="facetwp-sort-select">${Object.keys(SORTS)
      .map((k) => `<option value="${k}"${k === sortKey ? ' selected' : ''}>${k}</option>`)
      .join('')}</select>`;
  }
  return out;
}

function fetchPermission(req: RestRequest): boolean {
  return req.site.store.option<boolean>(OPTIONS.facetApi, false) === true && can(req.user, 'manage_options');
}

function fetchResults(req: RestRequest): unknown {
  const { site } = req;
  const data = dataOf(req.params.data);
  const q = {
    post_type: 'post',
    post_status: 'publish',
    posts_per_page: 10,
    paged: 1,
    orderby: 'date',
    order: 'DESC',
    ...dataOf(data.query_args),
  } as Record<string, unknown>;
  // Only posts and pages are indexed; other post types match nothing.
  const types = (Array.isArray(q.post_type) ? q.post_type : [q.post_type])
    .map(String)
    .filter((t) => t === 'post' || t === 'page');
  const statuses = (Array.isArray(q.post_status) ? q.post_status : [q.post_status]).map(String);
  const posts = types.flatMap((t) =>
    site.store.posts(
      t as 'post' | 'page',
      statuses.includes('any') ? ['publish', 'future', 'draft', 'pending', 'private'] : statuses,
    ),
  );
  const rows = index(site, posts);
  const sel = selectionOf(data.facets);
  const dir = String(q.order).toUpperCase() === 'ASC' ? 'asc' : 'desc';
  const sort =
    String(q.orderby) === 'title'
      ? SORTS[`title_${dir}`]!
      : String(q.orderby) === 'ID'
        ? (a: PostRow, b: PostRow) => (dir === 'asc' ? a.id - b.id : b.id - a.id)
        : SORTS[`date_${dir}`]!;
  const found = filter(rows, sel)
    .map((x) => x.post)
    .sort(sort);
  const { items, pager } = page(found, int(q.paged, 1), int(q.posts_per_page, 10));
  const facets: Record<string, unknown> = {};
  for (const f of FACETS) {
    const list = choices(site, f, rows, sel);
    facets[f.name] = {
      name: f.name,
      label: f.label,
      type: f.type,
      selected: sel[f.name],
      ...(list ? { choices: list } : {}),
      settings: facetSettings(f),
    };
  }
  return { results: items.map((p) => p.id), facets, pager };
}

export function facetRoutes(): RouteDecl[] {
  // The spec lists no parameters: `action` and `data` are read from the request as FacetWP does.
  return [
    {
      namespace: NS,
      path: `/${NS}/refresh`,
      endpoints: [
        {
          methods: ['POST'],
          summary: 'Re-render the facets and results for a selection (FacetWP refresh)',
          args: {},
          reads: ['action', 'data'],
          permission: () => true,
          handler: refresh,
        },
      ],
    },
    {
      namespace: NS,
      path: `/${NS}/fetch`,
      endpoints: [
        {
          methods: ['POST'],
          summary: 'Facet choices and matching post IDs (FacetWP fetch)',
          args: {},
          reads: ['data'],
          permission: fetchPermission,
          handler: fetchResults,
        },
      ],
    },
  ];
}
