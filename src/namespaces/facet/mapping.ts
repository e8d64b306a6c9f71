/** Pure mapping of facet/v1 (FacetWP): the graph's inputs -> request data, the answers -> graph objects. */
import type { FacetFetchInput, FacetRefreshInput } from '../../generated/graphql.ts';
import {
  asInt,
  asStr,
  asStrings,
  intList,
  isJson,
  listOf,
  nested,
  obj,
  shape,
  str,
  type Json,
} from '../../mapping/json.ts';

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

const pagerOf = nested(
  shape('pager', {
    page: ['page', asInt],
    perPage: ['per_page', asInt],
    totalRows: ['total_rows', asInt],
    totalPages: ['total_pages', asInt],
  } as const),
);

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
  return body
    .filter((x) => typeof x === 'object' && x !== null)
    .map((x) => ({ value: str((x as Json).value) ?? '', label: str((x as Json).label) }));
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
