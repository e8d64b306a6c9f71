/**
 * `core/v2` posts: the list (every parameter of the spec's table, its bounds
 * and errors, the totals and Link headers) and create, per role
 * (reference/site-upstream.md §1, §2, §7; samples core-*.json, batch-*.json).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const POSTS = '/core/v2/posts';
/**
 * Recorded real answers (reference/samples/*.json, copied here: bodies, and
 * the key order of the post objects without the SEO plugin's `yoast_*` keys).
 */
const SAMPLES = {
  /** core-error-forbidden-status.json: GET /core/v2/posts?status=draft, anonymous. */
  forbiddenStatus: {
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): status',
    data: {
      status: 400,
      params: {
        status: 'Status is forbidden.',
      },
      details: {
        status: {
          code: 'rest_forbidden_status',
          message: 'Status is forbidden.',
          data: {
            status: 401,
          },
        },
      },
    },
  },
  /** core-error-per-page.json: GET /core/v2/posts?per_page=101. */
  perPage: {
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): per_page',
    data: {
      status: 400,
      params: {
        per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
      },
      details: {
        per_page: {
          code: 'rest_out_of_bounds',
          message: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
          data: null,
        },
      },
    },
  },
  /** batch-get-refused.json: a GET item in /batch/v1. */
  batchGetRefused: {
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): requests',
    data: {
      status: 400,
      params: {
        requests: 'requests[0][method] is not one of POST, PUT, PATCH, and DELETE.',
      },
      details: {
        requests: {
          code: 'rest_not_in_enum',
          message: 'requests[0][method] is not one of POST, PUT, PATCH, and DELETE.',
          data: null,
        },
      },
    },
  },
  /** batch-normal.json, second item: status "bogus" on create. */
  bogusStatus: {
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): status',
    data: {
      status: 400,
      params: {
        status:
          'status is not one of publish, future, draft, pending, private, calendar-ea-success, calendar-ea-failed, calendar-ea-schedule, calendar-ea-pending, calendar-ea-draft, and calendar-ignored.',
      },
      details: {
        status: {
          code: 'rest_not_in_enum',
          message:
            'status is not one of publish, future, draft, pending, private, calendar-ea-success, calendar-ea-failed, calendar-ea-schedule, calendar-ea-pending, calendar-ea-draft, and calendar-ignored.',
          data: null,
        },
      },
    },
  },
  /** core-posts-list.json: the keys of a post in context view. */
  listKeys: [
    'id',
    'date',
    'date_gmt',
    'guid',
    'modified',
    'modified_gmt',
    'slug',
    'status',
    'type',
    'link',
    'title',
    'content',
    'excerpt',
    'author',
    'featured_media',
    'comment_status',
    'ping_status',
    'sticky',
    'template',
    'format',
    'meta',
    'categories',
    'tags',
    'yoast_head',
    'yoast_head_json',
    '_links',
  ],
  /** batch-normal.json, first item: the keys of a created post (context edit). */
  createdKeys: [
    'id',
    'date',
    'date_gmt',
    'guid',
    'modified',
    'modified_gmt',
    'password',
    'slug',
    'status',
    'type',
    'link',
    'title',
    'content',
    'excerpt',
    'author',
    'featured_media',
    'comment_status',
    'ping_status',
    'sticky',
    'template',
    'format',
    'meta',
    'categories',
    'tags',
    'permalink_template',
    'generated_slug',
    'yoast_head',
    'yoast_head_json',
    '_links',
  ],
};

interface Row {
  id: number;
  status: string;
  author: number;
  title: string;
  content: string;
  slug: string;
  password: string;
  date: string;
  modified: string;
  format: string;
}

describe('core/v2 posts', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  const rows = (sql: string, ...args: unknown[]) => sb.site.store.db.prepare(sql).all(...args) as Row[];
  const posts = (where = "status = 'publish'") =>
    rows(`SELECT * FROM posts WHERE type = 'post' AND ${where} ORDER BY date DESC, id DESC`);
  const ids = (body: any[]) => body.map((p) => p.id);
  /** Every page of a query, as IDs (per_page 100 covers the seeded posts in one page). */
  const all = async (query: string, who: Who = null) => {
    const r = await api.get(`${POSTS}?per_page=100${query ? `&${query}` : ''}`, who);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('x-wp-total')).toBe(String(r.body.length));
    return r.body as any[];
  };
  const termId = (taxonomy: string, slug: string) => sb.site.store.termBySlug(taxonomy, slug)!.id;

  beforeAll(async () => {
    sb = await testSandbox({ events: 40 });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  describe('the list envelope', () => {
    it('is a bare array of 10 published posts, newest first, with X-WP-Total, X-WP-TotalPages and a next link', async () => {
      const r = await api.get(POSTS);
      expect(r.status).toBe(200);
      const published = posts();
      expect(ids(r.body)).toEqual(published.slice(0, 10).map((p) => p.id));
      expect(r.headers.get('x-wp-total')).toBe(String(published.length));
      expect(r.headers.get('x-wp-totalpages')).toBe(String(Math.ceil(published.length / 10)));
      expect(r.headers.get('link')).toBe(`<${sb.url}core/v2/posts?page=2>; rel="next"`);
    });

    it("answers posts-controller objects with the sample's keys, in its order", async () => {
      const r = await api.get(`${POSTS}?per_page=1`);
      expect(Object.keys(r.body[0])).toEqual(SAMPLES.listKeys);
      const p = r.body[0];
      expect(p.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(p.date_gmt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(p.link).toBe(`${sb.origin}/${p.slug}/`);
      expect(p.guid).toEqual({ rendered: p.link });
      expect(p.meta).toEqual([]);
      expect(p._links.self).toEqual([{ href: `${sb.url}core/v2/posts/${p.id}` }]);
      expect(p._links['wp:term'].map((t: any) => t.taxonomy)).toEqual(['category', 'post_tag']);
      const row = sb.site.store.post(p.id)!;
      expect(p.categories).toEqual(sb.site.store.termIdsOf(p.id, 'category'));
      expect(p.title).toEqual({ rendered: row.title });
    });

    it('keeps only the embed fields in context=embed', async () => {
      const r = await api.get(`${POSTS}?per_page=1&context=embed`);
      // Yoast's fields are registered without a context, so they are in every one.
      expect(Object.keys(r.body[0])).toEqual([
        'id',
        'date',
        'slug',
        'type',
        'link',
        'title',
        'author',
        'excerpt',
        'featured_media',
        'yoast_head',
        'yoast_head_json',
        '_links',
      ]);
    });

    it('adds the raw fields in context=edit for callers who may edit posts', async () => {
      const r = await api.get(`${POSTS}?per_page=1&context=edit`, 'contributor');
      expect(r.status).toBe(200);
      const p = r.body[0];
      expect(Object.keys(p)).toEqual(expect.arrayContaining(['password', 'permalink_template', 'generated_slug']));
      expect(p.title.raw).toBe(sb.site.store.post(p.id)!.title);
      expect(p.content).toHaveProperty('block_version', 0);
      expect(p.permalink_template).toBe(`${sb.origin}/%postname%/`);
    });

    it.each([
      [null, 401],
      ['subscriber', 403],
    ] as const)('refuses context=edit to %s with rest_forbidden_context %i', async (who, status) => {
      const r = await api.get(`${POSTS}?context=edit`, who);
      expect(r.status).toBe(status);
      expect(r.body).toEqual({
        code: 'rest_forbidden_context',
        message: 'Sorry, you are not allowed to edit posts in this post type.',
        data: { status },
      });
    });

    it('links prev and next from a middle page, keeping the other parameters', async () => {
      const r = await api.get(`${POSTS}?order=asc&per_page=3&page=2`);
      expect(r.headers.get('link')).toBe(
        `<${sb.url}core/v2/posts?order=asc&per_page=3&page=1>; rel="prev", <${sb.url}core/v2/posts?order=asc&per_page=3&page=3>; rel="next"`,
      );
      const last = Number(r.headers.get('x-wp-totalpages'));
      const end = await api.get(`${POSTS}?order=asc&per_page=3&page=${last}`);
      expect(end.headers.get('link')).toBe(
        `<${sb.url}core/v2/posts?order=asc&per_page=3&page=${last - 1}>; rel="prev"`,
      );
    });

    it('refuses a page past the end while something matched', async () => {
      const r = await api.get(`${POSTS}?page=99`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_post_invalid_page_number',
        message: 'The page number requested is larger than the number of pages available.',
        data: { status: 400 },
      });
    });

    it('answers [] with zero totals when nothing matched, even past the first page (prev then points at page 0)', async () => {
      const r = await api.get(`${POSTS}?search=nothing-matches-this&page=2`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
      expect(r.headers.get('x-wp-total')).toBe('0');
      expect(r.headers.get('x-wp-totalpages')).toBe('0');
      expect(r.headers.get('link')).toBe(`<${sb.url}core/v2/posts?search=nothing-matches-this&page=0>; rel="prev"`);
    });
  });

  describe('paging bounds', () => {
    it('refuses per_page 101 exactly as the recorded sample', async () => {
      const r = await api.get(`${POSTS}?per_page=101`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(SAMPLES.perPage);
    });

    it.each([
      ['per_page=0', 'per_page', 'rest_out_of_bounds', 'per_page must be between 1 (inclusive) and 100 (inclusive)'],
      ['page=0', 'page', 'rest_out_of_bounds', 'page must be greater than or equal to 1'],
      ['page=two', 'page', 'rest_invalid_type', 'page is not of type integer.'],
      ['offset=x', 'offset', 'rest_invalid_type', 'offset is not of type integer.'],
    ])('refuses %s', async (query, param, code, message) => {
      const r = await api.get(`${POSTS}?${query}`);
      expect(r.status).toBe(400);
      expect(r.body.data.params[param]).toBe(message);
      expect(r.body.data.details[param].code).toBe(code);
    });

    it('takes 1 and 100 as per_page', async () => {
      expect((await api.get(`${POSTS}?per_page=1`)).body).toHaveLength(1);
      expect((await api.get(`${POSTS}?per_page=100`)).body).toHaveLength(posts().length);
    });

    it('skips `offset` posts and ignores page then', async () => {
      const published = posts();
      const r = await api.get(`${POSTS}?offset=3&per_page=2&page=1`);
      expect(ids(r.body)).toEqual(published.slice(3, 5).map((p) => p.id));
      expect(r.headers.get('x-wp-total')).toBe(String(published.length));
    });
  });

  describe('filters', () => {
    it('searches title, excerpt and content; every word must match; a leading - excludes', async () => {
      const published = posts("status = 'publish' AND password = ''");
      const target = published[3]!;
      const word = target.title.split(' ')[0]!;
      const found = await all(`search=${encodeURIComponent(word)}`);
      const expected = published.filter((p) => `${p.title} ${p.content}`.toLowerCase().includes(word.toLowerCase()));
      expect(ids(found).sort()).toEqual(expected.map((p) => p.id).sort());
      const both = await all(`search=${encodeURIComponent(`${word} paragraph`)}`);
      expect(ids(both)).toContain(target.id);
      const without = await all(`search=${encodeURIComponent(`paragraph -${word}`)}`);
      expect(ids(without)).not.toContain(target.id);
      expect(without.length).toBeGreaterThan(0);
    });

    it('limits the searched columns with search_columns', async () => {
      // "Paragraph two" is only in the content.
      expect((await all('search=Paragraph&search_columns[]=post_title')).length).toBe(0);
      expect((await all('search=Paragraph&search_columns[]=post_content')).length).toBeGreaterThan(0);
      const bad = await api.get(`${POSTS}?search=x&search_columns[]=post_author`);
      expect(bad.status).toBe(400);
      expect(bad.body.data.params.search_columns).toBe(
        'search_columns[0] is not one of post_title, post_content, and post_excerpt.',
      );
    });

    it('matches a whole column with search_semantics=exact', async () => {
      const target = posts("status = 'publish' AND password = ''")[0]!;
      const loose = await all(`search=${encodeURIComponent(target.title.split(' ')[0]!)}`);
      const exact = await all(`search=${encodeURIComponent(target.title.toUpperCase())}&search_semantics=exact`);
      expect(ids(exact)).toEqual([target.id]);
      expect(loose.length).toBeGreaterThan(1);
      expect((await api.get(`${POSTS}?search=a&search_semantics=fuzzy`)).body.data.params.search_semantics).toBe(
        'search_semantics is not one of exact.',
      );
    });

    it('never matches password-protected posts in logged-out searches', async () => {
      const locked = posts("status = 'publish' AND password != ''")[0]!;
      const q = `search=${encodeURIComponent(locked.title)}&search_semantics=exact`;
      expect(await all(q)).toEqual([]);
      expect(ids(await all(q, 'subscriber'))).toEqual([locked.id]);
    });

    it('filters by publication and modification dates (exclusive bounds, site-local, offsets converted)', async () => {
      const published = posts();
      const pivot = published[5]!;
      const iso = pivot.date.replace(' ', 'T');
      expect(ids(await all(`after=${iso}`))).toEqual(published.filter((p) => p.date > pivot.date).map((p) => p.id));
      expect(ids(await all(`before=${iso}`))).toEqual(published.filter((p) => p.date < pivot.date).map((p) => p.id));
      const mod = pivot.modified.replace(' ', 'T');
      expect(ids(await all(`modified_after=${mod}`)).sort()).toEqual(
        published
          .filter((p) => p.modified > pivot.modified)
          .map((p) => p.id)
          .sort(),
      );
      expect(ids(await all(`modified_before=${mod}`)).sort()).toEqual(
        published
          .filter((p) => p.modified < pivot.modified)
          .map((p) => p.id)
          .sort(),
      );
      // The same instant written in UTC selects the same posts.
      const gmt = sb.site.store.post(pivot.id)!.dateGmt.replace(' ', 'T');
      expect(ids(await all(`after=${gmt}Z`))).toEqual(ids(await all(`after=${iso}`)));
    });

    it('refuses a date that is not ISO 8601', async () => {
      const r = await api.get(`${POSTS}?after=yesterday`);
      expect(r.status).toBe(400);
      expect(r.body.data.details.after).toEqual({ code: 'rest_invalid_date', message: 'Invalid date.', data: null });
    });

    it('filters by author, author_exclude, include and exclude', async () => {
      const published = posts();
      expect(ids(await all('author=2'))).toEqual(published.filter((p) => p.author === 2).map((p) => p.id));
      expect(ids(await all('author[]=1&author[]=3'))).toEqual(
        published.filter((p) => [1, 3].includes(p.author)).map((p) => p.id),
      );
      expect(ids(await all('author_exclude=2'))).toEqual(published.filter((p) => p.author !== 2).map((p) => p.id));
      const some = published.slice(0, 3).map((p) => p.id);
      expect(ids(await all(`include=${some.join(',')}`))).toEqual(some);
      expect(ids(await all(`exclude=${some.join(',')}`))).toEqual(published.slice(3).map((p) => p.id));
      expect((await api.get(`${POSTS}?author=me`)).body.data.params.author).toBe('author[0] is not of type integer.');
    });

    it('filters by slug (one or several)', async () => {
      const [a, b] = posts();
      expect(ids(await all(`slug=${a!.slug}`))).toEqual([a!.id]);
      expect(ids(await all(`slug=${a!.slug},${b!.slug}`))).toEqual([a!.id, b!.id]);
    });

    it('filters by categories as a list, or as {terms, include_children, operator}', async () => {
      const news = termId('category', 'news');
      const releases = termId('category', 'releases');
      const map = sb.site.store.termMap('category');
      const published = posts();
      const has = (p: Row, t: number[]) => (map.get(p.id) ?? []).some((x) => t.includes(x));
      expect(ids(await all(`categories=${releases}`))).toEqual(
        published.filter((p) => has(p, [releases])).map((p) => p.id),
      );
      const children = sb.site.store
        .terms('category')
        .filter((t) => t.parent === news)
        .map((t) => t.id);
      const withKids = await all(`categories[terms][]=${news}&categories[include_children]=true`);
      expect(ids(withKids)).toEqual(published.filter((p) => has(p, [news, ...children])).map((p) => p.id));
      expect(withKids.length).toBeGreaterThan((await all(`categories[terms][]=${news}`)).length);
      const both = await all(`categories[terms][]=${releases}&categories[terms][]=${news}&categories[operator]=AND`);
      expect(ids(both)).toEqual(published.filter((p) => has(p, [releases]) && has(p, [news])).map((p) => p.id));
      expect(both.length).toBeGreaterThan(0);
      expect(both.length).toBeLessThan((await all(`categories=${releases},${news}`)).length);
      expect(ids(await all(`categories_exclude=${releases}`))).toEqual(
        published.filter((p) => !has(p, [releases])).map((p) => p.id),
      );
      const bad = await api.get(`${POSTS}?categories[operator]=XOR`);
      expect(bad.body.data.params.categories).toBe('categories[operator] is not one of AND and OR.');
    });

    it('combines taxonomies with AND unless tax_relation=OR', async () => {
      const cat = termId('category', 'interviews');
      const tag = termId('post_tag', 'howto');
      const cats = sb.site.store.termMap('category');
      const tags = sb.site.store.termMap('post_tag');
      const published = posts();
      const inCat = (p: Row) => (cats.get(p.id) ?? []).includes(cat);
      const inTag = (p: Row) => (tags.get(p.id) ?? []).includes(tag);
      const and = await all(`categories=${cat}&tags=${tag}`);
      const or = await all(`categories=${cat}&tags=${tag}&tax_relation=OR`);
      expect(ids(and)).toEqual(published.filter((p) => inCat(p) && inTag(p)).map((p) => p.id));
      expect(ids(or)).toEqual(published.filter((p) => inCat(p) || inTag(p)).map((p) => p.id));
      expect(and.length).toBeGreaterThan(0);
      expect(or.length).toBeGreaterThan(and.length);
      expect(ids(await all(`tags_exclude=${tag}`))).toEqual(published.filter((p) => !inTag(p)).map((p) => p.id));
      expect((await api.get(`${POSTS}?tax_relation=XOR`)).status).toBe(400);
    });

    it('filters by sticky and format', async () => {
      const sticky = sb.site.store.option<number[]>('sticky_posts', []);
      const published = posts();
      expect(ids(await all('sticky=true'))).toEqual(published.filter((p) => sticky.includes(p.id)).map((p) => p.id));
      expect((await all('sticky=false')).length).toBe(published.length - sticky.length);
      expect((await all('sticky=true')).every((p) => p.sticky === true)).toBe(true);
      expect(ids(await all('format=aside'))).toEqual(published.filter((p) => p.format === 'aside').map((p) => p.id));
    });
  });

  describe('ordering', () => {
    it('orders by date desc by default and asc on request', async () => {
      const published = posts();
      expect(ids(await all('order=asc'))).toEqual([...published].reverse().map((p) => p.id));
      expect((await api.get(`${POSTS}?order=up`)).body.data.params.order).toBe('order is not one of asc and desc.');
    });

    it.each([
      ['title', (p: Row) => p.title.toLowerCase()],
      ['slug', (p: Row) => p.slug],
      ['id', (p: Row) => p.id],
      ['modified', (p: Row) => p.modified],
    ] as const)('orders by %s', async (orderby, key) => {
      const got = await all(`orderby=${orderby}&order=asc`);
      const keys = got.map((p) => key(sb.site.store.post(p.id) as unknown as Row));
      expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(got.length).toBe(posts().length);
    });

    it('orders by author, then ID', async () => {
      const got = await all('orderby=author&order=asc');
      const authors = got.map((p) => p.author);
      expect(authors).toEqual([...authors].sort((a, b) => a - b));
    });

    it('keeps the include order with orderby=include, and needs include for it', async () => {
      const published = posts();
      const picked = [published[4]!.id, published[0]!.id, published[9]!.id];
      expect(ids(await all(`include=${picked.join(',')}&orderby=include`))).toEqual(picked);
      const r = await api.get(`${POSTS}?orderby=include`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_orderby_include_missing_include',
        message: 'You need to define an include parameter to order by include.',
        data: { status: 400 },
      });
    });

    it('keeps the slug order with orderby=include_slugs', async () => {
      const [a, b, c] = posts();
      expect(ids(await all(`slug=${c!.slug},${a!.slug},${b!.slug}&orderby=include_slugs`))).toEqual([
        c!.id,
        a!.id,
        b!.id,
      ]);
    });

    it('needs a search term to order by relevance, and ranks title matches first', async () => {
      const r = await api.get(`${POSTS}?orderby=relevance`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_no_search_term_defined',
        message: 'You need to define a search term to order by relevance.',
        data: { status: 400 },
      });
      const got = await all('search=harbor&orderby=relevance');
      const inTitle = got.map((p) => p.title.rendered.toLowerCase().includes('harbor'));
      expect(inTitle.indexOf(false) === -1 || inTitle.slice(inTitle.indexOf(false)).every((x) => !x)).toBe(true);
      expect(inTitle[0]).toBe(true);
    });

    it('shuffles with orderby=rand, the same way each time', async () => {
      const a = ids(await all('orderby=rand'));
      const b = ids(await all('orderby=rand'));
      expect(a).toEqual(b);
      expect([...a].sort()).toEqual(
        posts()
          .map((p) => p.id)
          .sort(),
      );
      expect(a).not.toEqual(posts().map((p) => p.id));
      expect((await api.get(`${POSTS}?orderby=random`)).body.data.params.orderby).toBe(
        'orderby is not one of author, date, id, include, modified, parent, relevance, slug, include_slugs, title, and rand.',
      );
    });
  });

  describe('statuses and permissions', () => {
    it('refuses a non-public status to anonymous callers exactly as the recorded sample', async () => {
      const r = await api.get(`${POSTS}?status=draft`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(SAMPLES.forbiddenStatus);
    });

    it.each(['subscriber', null] as const)('wraps rest_forbidden_status for %s, also for private', async (who) => {
      const r = await api.get(`${POSTS}?status=private`, who);
      expect(r.status).toBe(400);
      expect(r.body.data.details.status).toEqual({
        code: 'rest_forbidden_status',
        message: 'Status is forbidden.',
        data: { status: who ? 403 : 401 },
      });
      expect((await api.get(`${POSTS}?status=any`, who)).body.data.details.status.code).toBe('rest_forbidden_status');
    });

    it('lets anybody ask for publish explicitly', async () => {
      expect((await api.get(`${POSTS}?status=publish`)).status).toBe(200);
    });

    it('refuses an unknown status with the enum message', async () => {
      const r = await api.get(`${POSTS}?status=bogus`, 'admin');
      expect(r.status).toBe(400);
      expect(r.body.data.details.status.code).toBe('rest_not_in_enum');
      expect(r.body.data.params.status).toMatch(
        /^status\[0\] is not one of publish, future, draft, .*dp-rewrite-republish, and any\.$/,
      );
    });

    it('shows a contributor its own drafts only; an editor every draft', async () => {
      const drafts = posts("status = 'draft'");
      expect(ids(await all('status=draft', 'contributor'))).toEqual(
        drafts.filter((p) => p.author === 4).map((p) => p.id),
      );
      expect((await all('status=draft', 'contributor')).length).toBeGreaterThan(0);
      expect(ids(await all('status=draft', 'editor'))).toEqual(drafts.map((p) => p.id));
    });

    it('shows an author its own private posts; an editor all of them', async () => {
      const priv = posts("status = 'private'");
      expect(ids(await all('status=private', 'author'))).toEqual(priv.filter((p) => p.author === 3).map((p) => p.id));
      expect(ids(await all('status=private', 'editor'))).toEqual(priv.map((p) => p.id));
    });

    it('gives an editor every status but trash with status=any, and the trash on request', async () => {
      const any = await all('status=any', 'editor');
      expect(ids(any)).toEqual(
        posts("status IN ('publish', 'future', 'draft', 'pending', 'private')").map((p) => p.id),
      );
      expect(new Set(any.map((p) => p.status))).toEqual(new Set(['publish', 'future', 'draft', 'pending', 'private']));
      expect(ids(await all('status=trash', 'editor'))).toEqual(posts("status = 'trash'").map((p) => p.id));
      expect(ids(await all('status[]=draft&status[]=pending', 'editor'))).toEqual(
        posts("status IN ('draft', 'pending')").map((p) => p.id),
      );
    });

    it('links drafts and scheduled posts by ID, with an empty slug for drafts', async () => {
      const draft = (await all('status=draft', 'editor'))[0];
      expect(draft.slug).toBe('');
      expect(draft.link).toBe(`${sb.origin}/?p=${draft.id}`);
      const future = (await all('status=future', 'editor'))[0];
      expect(future.link).toBe(`${sb.origin}/?p=${future.id}`);
      expect(future.slug).not.toBe('');
    });

    it('hides the content and excerpt of a password-protected post, except in context=edit', async () => {
      const locked = posts("status = 'publish' AND password != ''")[0]!;
      const [view] = await all(`include=${locked.id}`);
      expect(view.content).toEqual({ rendered: '', protected: true });
      expect(view.excerpt).toEqual({ rendered: '', protected: true });
      expect(view.title.rendered).toBe(locked.title);
      const [edit] = await all(`include=${locked.id}&context=edit`, 'editor');
      expect(edit.content.rendered).toContain('Paragraph two');
      expect(edit.password).toBe('letmein');
    });
  });

  describe('create (POST)', () => {
    it.each([
      [null, 401],
      ['subscriber', 403],
    ] as const)('refuses %s with rest_cannot_create %i', async (who, status) => {
      const r = await api.send('POST', POSTS, { title: 'Nope' }, who);
      expect(r.status).toBe(status);
      expect(r.body).toEqual({
        code: 'rest_cannot_create',
        message: 'Sorry, you are not allowed to create posts as this user.',
        data: { status },
      });
    });

    it("creates a contributor's draft: 201, Location, the edit-context object of the sample", async () => {
      const r = await api.send('POST', POSTS, { title: 'sample one', status: 'draft' }, 'contributor');
      expect(r.status).toBe(201);
      const body = r.body;
      expect(r.headers.get('location')).toBe(`${sb.url}core/v2/posts/${body.id}`);
      expect(Object.keys(body)).toEqual(SAMPLES.createdKeys);
      expect(body).toMatchObject({
        status: 'draft',
        slug: '',
        link: `${sb.origin}/?p=${body.id}`,
        guid: { rendered: `${sb.origin}/?p=${body.id}`, raw: `${sb.origin}/?p=${body.id}` },
        title: { raw: 'sample one', rendered: 'sample one' },
        content: { raw: '', rendered: '', protected: false, block_version: 0 },
        author: 4,
        password: '',
        sticky: false,
        format: 'standard',
        meta: [],
        tags: [],
        categories: [sb.site.store.option('default_category', 0)],
        generated_slug: 'sample-one',
        permalink_template: `${sb.origin}/%postname%/`,
      });
      expect(sb.site.store.post(body.id)!.status).toBe('draft');
    });

    it('drafts without a status, and takes title/content/excerpt as {raw}', async () => {
      const r = await api.send(
        'POST',
        POSTS,
        { title: { raw: 'Raw title' }, content: { raw: 'Body text' }, excerpt: 'Short' },
        'author',
      );
      expect(r.status).toBe(201);
      expect(r.body.status).toBe('draft');
      expect(r.body.title.raw).toBe('Raw title');
      expect(r.body.content).toMatchObject({ raw: 'Body text', rendered: '<p>Body text</p>\n' });
      expect(r.body.excerpt.raw).toBe('Short');
    });

    it.each([
      ['publish', 'Sorry, you are not allowed to publish posts in this post type.'],
      ['future', 'Sorry, you are not allowed to publish posts in this post type.'],
      ['private', 'Sorry, you are not allowed to create private posts in this post type.'],
    ])('refuses status=%s to a contributor (rest_cannot_publish 403)', async (status, message) => {
      const r = await api.send('POST', POSTS, { title: 'x', status }, 'contributor');
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ code: 'rest_cannot_publish', message, data: { status: 403 } });
    });

    it('publishes for an author: slug from the title, pretty link, listed publicly', async () => {
      const r = await api.send(
        'POST',
        POSTS,
        {
          title: 'Fresh Author News',
          status: 'publish',
          categories: [termId('category', 'news')],
          tags: [termId('post_tag', 'community'), 999999],
        },
        'author',
      );
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        status: 'publish',
        slug: 'fresh-author-news',
        link: `${sb.origin}/fresh-author-news/`,
        author: 3,
      });
      expect(r.body.categories).toEqual([termId('category', 'news')]);
      expect(r.body.tags).toEqual([termId('post_tag', 'community')]);
      const listed = await api.get(`${POSTS}?slug=fresh-author-news`);
      expect(ids(listed.body)).toEqual([r.body.id]);
    });

    it('schedules a publish dated in the future, and publishes a future dated in the past', async () => {
      const later = await api.send(
        'POST',
        POSTS,
        { title: 'Later', status: 'publish', date_gmt: '2099-01-01T10:00:00' },
        'editor',
      );
      expect(later.body.status).toBe('future');
      expect(later.body.date_gmt).toBe('2099-01-01T10:00:00');
      const past = await api.send(
        'POST',
        POSTS,
        { title: 'Past', status: 'future', date: '2020-01-01T10:00:00' },
        'editor',
      );
      expect(past.body.status).toBe('publish');
      expect(past.body.date).toBe('2020-01-01T10:00:00');
    });

    it("refuses a status outside the write enum with the sample's message", async () => {
      const r = await api.send('POST', POSTS, { title: 'sample two', status: 'bogus' }, 'admin');
      expect(r.status).toBe(400);
      expect(r.body).toEqual(SAMPLES.bogusStatus);
    });

    it.each([
      [
        'contributor',
        { author: 1 },
        403,
        'rest_cannot_edit_others',
        'Sorry, you are not allowed to create posts as this user.',
      ],
      [
        'contributor',
        { sticky: true },
        403,
        'rest_cannot_assign_sticky',
        'Sorry, you are not allowed to make posts sticky.',
      ],
      ['editor', { author: 4242 }, 400, 'rest_invalid_author', 'Invalid author ID.'],
      ['editor', { featured_media: 1 + 1_000_000 }, 400, 'rest_invalid_featured_media', 'Invalid featured media ID.'],
      [
        'editor',
        { sticky: true, password: 'pw' },
        400,
        'rest_invalid_field',
        'A post can not be sticky and have a password.',
      ],
      ['editor', { id: 5 }, 400, 'rest_post_exists', 'Cannot create existing post.'],
    ] as const)('as %s with %j: %i %s', async (who, extra, status, code, message) => {
      const before = posts('1 = 1').length;
      const r = await api.send('POST', POSTS, { title: 'Refused', ...extra }, who);
      expect(r.status).toBe(status);
      expect(r.body).toEqual({ code, message, data: { status } });
      expect(posts('1 = 1').length).toBe(before);
    });

    it('makes a post sticky and strips scripts for callers without unfiltered_html', async () => {
      const r = await api.send(
        'POST',
        POSTS,
        { title: 'Pinned', status: 'publish', sticky: true, content: 'ok<script>alert(1)</script>' },
        'author',
      );
      expect(r.body.sticky).toBe(true);
      expect(r.body.content.raw).toBe('ok');
      expect(sb.site.store.option<number[]>('sticky_posts', [])).toContain(r.body.id);
    });

    it('runs through /batch/v1 (normal mode, 207 per item), and refuses GET items as a whole', async () => {
      const r = await api.send(
        'POST',
        '/batch/v1',
        {
          requests: [
            { path: POSTS, body: { title: 'Batched', status: 'draft' } },
            { path: POSTS, body: { title: 'x', status: 'bogus' } },
          ],
        },
        'admin',
      );
      expect(r.status).toBe(207);
      expect(r.body.responses.map((x: any) => x.status)).toEqual([201, 400]);
      expect(r.body.responses[0].headers.Location).toBe(`${sb.url}core/v2/posts/${r.body.responses[0].body.id}`);
      const get = await api.send('POST', '/batch/v1', { requests: [{ method: 'GET', path: POSTS }] }, 'admin');
      expect(get.body).toEqual(SAMPLES.batchGetRefused);
    });

    it('marks both endpoints with allow_batch in the namespace index', async () => {
      const r = await api.get('/core/v2');
      const route = r.body.routes['/core/v2/posts'];
      expect(route.endpoints.map((e: any) => [e.methods, e.allow_batch])).toEqual([
        [['GET'], { v1: true }],
        [['POST'], { v1: true }],
      ]);
      expect(route.endpoints[0].args.per_page).toEqual({
        required: false,
        type: 'integer',
        description: expect.any(String),
        default: 10,
        minimum: 1,
        maximum: 100,
      });
      expect(route.endpoints[0].args.status.items.enum).toContain('dp-rewrite-republish');
    });
  });
});
