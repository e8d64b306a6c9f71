/**
 * `facet/v1` (FacetWP's facetwp/v1; reference/other-upstream.md §3): the
 * open refresh route over the site's published posts, and the fetch route,
 * closed until the sandbox option opens it to administrators.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const REFRESH = '/facet/v1/refresh';
const FETCH = '/facet/v1/fetch';

describe('facet/v1', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  const published = () =>
    sb.site.store.db
      .prepare("SELECT * FROM posts WHERE type = 'post' AND status = 'publish' ORDER BY date DESC, id DESC")
      .all() as { id: number; author: number; title: string }[];
  const inTerm = (slug: string, taxonomy = 'category') => {
    const t = sb.site.store.termBySlug(taxonomy, slug)!;
    const map = sb.site.store.termMap(taxonomy);
    return published().filter((p) => (map.get(p.id) ?? []).includes(t.id));
  };
  const refresh = (data: unknown, who: Who = null) =>
    api.send('POST', REFRESH, { action: 'facetwp_refresh', data }, who);

  beforeAll(async () => {
    sb = await testSandbox({ events: 10 });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  describe('refresh', () => {
    it.each([
      ['no action', {}],
      ['an unknown action', { action: 'facetwp_delete_everything' }],
    ])('answers [] 200 for %s', async (_what, body) => {
      const r = await api.send('POST', REFRESH, body);
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
    });

    it('renders facets, the first page of results and settings for anybody', async () => {
      const r = await refresh({
        facets: {},
        extras: { pager: true, counts: true, per_page: 'default', sort: 'default' },
        paged: 1,
      });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['facets', 'template', 'settings', 'pager', 'counts', 'per_page', 'sort']);
      const all = published();
      expect(r.body.settings.pager).toEqual({
        page: 1,
        per_page: 10,
        total_rows: all.length,
        total_pages: Math.ceil(all.length / 10),
      });
      expect(r.body.settings.labels).toEqual({
        categories: 'Categories',
        tags: 'Tags',
        author: 'Author',
        keywords: 'Keywords',
      });
      expect(Object.keys(r.body.facets)).toEqual(['categories', 'tags', 'author', 'keywords']);
      expect(r.body.facets.categories).toContain('class="facetwp-checkbox" data-value="news"');
      expect(r.body.facets.author).toMatch(/^<select class="facetwp-dropdown"><option value="">Any<\/option>/);
      expect(r.body.facets.keywords).toContain('class="facetwp-search"');
      const shown = [...r.body.template.matchAll(/fwpl-result post-(\d+)/g)].map((m) => Number(m[1]));
      expect(shown).toEqual(all.slice(0, 10).map((p) => p.id));
      expect(r.body.counts).toBe(`1-10 of ${all.length}`);
      expect(r.body.pager).toContain('<a class="facetwp-page active" data-page="1">1</a>');
      expect(r.body.settings.categories).toEqual({ show_expanded: 'no' });
    });

    it('filters by a category (values are slugs), counting other facets within the selection', async () => {
      const news = inTerm('news');
      const r = await refresh({ facets: { categories: ['news'] }, extras: { per_page: 50 } });
      expect(r.body.settings.pager.total_rows).toBe(news.length);
      expect(r.body.facets.categories).toContain('facetwp-checkbox checked" data-value="news"');
      // The category facet ignores its own selection: every category is still offered.
      const unfiltered = await refresh({ facets: {} });
      expect(r.body.settings.num_choices.categories).toBe(unfiltered.body.settings.num_choices.categories);
      const authors = new Set(news.map((p) => p.author));
      expect(r.body.settings.num_choices.author).toBe(authors.size);
    });

    it('ORs values within a facet and ANDs facets together', async () => {
      const either = await refresh({ facets: { categories: ['guides', 'opinion'] }, extras: { per_page: 50 } });
      const ids = new Set([...inTerm('guides'), ...inTerm('opinion')].map((p) => p.id));
      expect(either.body.settings.pager.total_rows).toBe(ids.size);
      const both = await refresh({
        facets: { categories: ['guides', 'opinion'], author: ['1'] },
        extras: { per_page: 50 },
      });
      expect(both.body.settings.pager.total_rows).toBe(
        [...ids].filter((id) => sb.site.store.post(id)!.author === 1).length,
      );
    });

    it('searches with the keywords facet and drops unknown facets', async () => {
      const word = published()[0]!.title.split(' ')[0]!;
      const r = await refresh({ facets: { keywords: word, nonsense: ['x'] }, extras: { per_page: 50 } });
      const want = published().filter((p) => {
        const row = sb.site.store.post(p.id)!;
        return `${row.title} ${row.excerpt} ${row.content}`.toLowerCase().includes(word.toLowerCase());
      });
      expect(r.body.settings.pager.total_rows).toBe(want.length);
      expect(r.body.facets.keywords).toContain(`value="${word}"`);
    });

    it('leaves the template empty on a first load, and takes data as a JSON string', async () => {
      const first = await refresh(JSON.stringify({ facets: { categories: ['news'] }, first_load: 1, paged: 1 }));
      expect(first.body.template).toBe('');
      expect(first.body.settings.pager.total_rows).toBe(inTerm('news').length);
      const bfcache = await refresh({ first_load: 1, is_bfcache: 1 });
      expect(bfcache.body.template).not.toBe('');
    });

    it('pages and sorts', async () => {
      const all = published();
      const r = await refresh({ paged: 2, extras: { per_page: 5, sort: 'title_asc' } });
      const byTitle = [...all].sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
      const shown = [...r.body.template.matchAll(/fwpl-result post-(\d+)/g)].map((m) => Number(m[1]));
      expect(shown).toEqual(byTitle.slice(5, 10).map((p) => p.id));
      expect(r.body.settings.pager).toMatchObject({ page: 2, per_page: 5 });
    });

    it('answers autocomplete loads with matching choices', async () => {
      const r = await api.send('POST', REFRESH, {
        action: 'facetwp_autocomplete_load',
        data: { facet_name: 'categories', query: 'new' },
      });
      expect(r.body).toEqual([{ value: 'news', label: 'News' }]);
    });
  });

  describe('fetch', () => {
    it.each([
      [null, 401],
      ['admin', 403],
    ] as const)('is closed by default: %s gets %i rest_forbidden', async (who, status) => {
      const r = await api.send('POST', FETCH, { data: {} }, who);
      expect(r.status).toBe(status);
      expect(r.body).toEqual({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status },
      });
    });

    describe('once the facetwp_api_can_access option is on', () => {
      beforeAll(() => sb.site.store.setOption('facetwp_api_can_access', true));
      afterAll(() => sb.site.store.setOption('facetwp_api_can_access', false));

      it('serves administrators only', async () => {
        expect((await api.send('POST', FETCH, { data: {} }, 'editor')).status).toBe(403);
        expect((await api.send('POST', FETCH, { data: {} })).status).toBe(401);
        expect((await api.send('POST', FETCH, { data: {} }, 'admin')).status).toBe(200);
      });

      it('answers results, facets with choices, and the pager', async () => {
        const r = await api.send('POST', FETCH, { data: {} }, 'admin');
        const all = published();
        expect(Object.keys(r.body)).toEqual(['results', 'facets', 'pager']);
        expect(r.body.results).toEqual(all.slice(0, 10).map((p) => p.id));
        expect(r.body.pager).toEqual({
          page: 1,
          per_page: 10,
          total_rows: all.length,
          total_pages: Math.ceil(all.length / 10),
        });
        const cats = r.body.facets.categories;
        expect(cats).toMatchObject({ name: 'categories', label: 'Categories', type: 'checkboxes', selected: [] });
        const news = cats.choices.find((c: any) => c.value === 'news');
        expect(news).toEqual({
          value: 'news',
          label: 'News',
          depth: 0,
          count: inTerm('news').length,
          term_id: sb.site.store.termBySlug('category', 'news')!.id,
          parent_id: 0,
        });
        expect(cats.choices.find((c: any) => c.value === 'releases').depth).toBe(1);
        expect(r.body.facets.author.choices.reduce((n: number, c: any) => n + c.count, 0)).toBe(all.length);
        expect(r.body.facets.keywords).not.toHaveProperty('choices');
      });

      it('applies facets and query_args (as a JSON string too)', async () => {
        const data = JSON.stringify({
          facets: { tags: ['howto'] },
          query_args: { posts_per_page: 2, paged: 2, orderby: 'ID', order: 'ASC' },
        });
        const r = await api.send('POST', FETCH, { data }, 'admin');
        const howto = inTerm('howto', 'post_tag')
          .map((p) => p.id)
          .sort((a, b) => a - b);
        expect(r.body.results).toEqual(howto.slice(2, 4));
        expect(r.body.pager).toEqual({
          page: 2,
          per_page: 2,
          total_rows: howto.length,
          total_pages: Math.ceil(howto.length / 2),
        });
        expect(r.body.facets.tags.selected).toEqual(['howto']);
        const pages = await api.send(
          'POST',
          FETCH,
          { data: { query_args: { post_type: 'page', posts_per_page: -1 } } },
          'admin',
        );
        expect(pages.body.results).toHaveLength(4);
      });
    });
  });
});
