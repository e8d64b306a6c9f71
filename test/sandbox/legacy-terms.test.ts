/**
 * Legacy categories and tags (spec A3; calendar-upstream.md §1.5; sample
 * legacy-categories-archive.json): archives, single terms and writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_TAX, EVENT, TAG_TAX, type EventMeta } from '../../packages/sandbox/src/calendar/model.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const CATS = '/calendar/events/v1/categories';
const TAGS = '/calendar/events/v1/tags';

describe('legacy categories and tags (calendar/events/v1)', () => {
  let sb: RunningSandbox;
  let api: RestClient;

  beforeAll(async () => {
    sb = await testSandbox();
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  const store = () => sb.site.store;
  const nonEmpty = (tax: string) => {
    const counts = store().termCounts(tax);
    return store()
      .terms(tax)
      .filter((t) => (counts.get(t.id) ?? 0) > 0);
  };
  const byName = (a: { name: string; id: number }, b: { name: string; id: number }) =>
    a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : a.id - b.id;
  const names = (body: any, key = 'categories') => (body[key] as any[]).map((t) => t.name);

  describe('archives', () => {
    it('answers with rest_url, total, total_pages, the terms and next_rest_url, totals in X-TEC headers', async () => {
      const r = await api.get(`${CATS}?per_page=2`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories', 'next_rest_url']);
      const expected = nonEmpty(CATEGORY_TAX).sort(byName);
      expect(r.body.total).toBe(expected.length);
      expect(r.body.total_pages).toBe(Math.ceil(expected.length / 2));
      expect(names(r.body)).toEqual(expected.slice(0, 2).map((t) => t.name));
      expect(r.body.rest_url).toBe(`${sb.url}calendar/events/v1/categories/`);
      expect(r.body.next_rest_url).toBe(`${sb.url}calendar/events/v1/categories/?page=2`);
      expect(r.headers.get('x-tec-total')).toBe(String(expected.length));
      expect(r.headers.get('x-tec-totalpages')).toBe(String(Math.ceil(expected.length / 2)));
      expect(r.headers.get('x-wp-total')).toBeNull();
      const second = await api.get(`${CATS}?per_page=2&page=2`);
      expect(second.body.previous_rest_url).toBe(`${sb.url}calendar/events/v1/categories/`);
      const third = await api.get(`${CATS}?per_page=2&page=3`);
      expect(third.body.previous_rest_url).toBe(`${sb.url}calendar/events/v1/categories/?page=2`);
      expect(third.body.next_rest_url).toBe(`${sb.url}calendar/events/v1/categories/?page=4`);
    });

    it('shows each term in the archive form, parent for categories only, Yoast fields after meta', async () => {
      const jazz = store().termBySlug(CATEGORY_TAX, 'jazz')!;
      const music = store().term(jazz.parent)!;
      const r = await api.get(`${CATS}?slug=jazz`);
      const [term] = r.body.categories;
      // Key order of sample legacy-categories-archive.json (seo/v1 is active by default).
      expect(Object.keys(term)).toEqual([
        'id',
        'count',
        'description',
        'name',
        'slug',
        'taxonomy',
        'parent',
        'meta',
        'yoast_head',
        'yoast_head_json',
        'url',
        'urls',
      ]);
      const { yoast_head: _head, yoast_head_json: _json, ...rest } = term;
      expect(rest).toEqual({
        id: jazz.id,
        count: store().termCount(jazz.id),
        description: '',
        name: 'Jazz',
        slug: 'jazz',
        taxonomy: CATEGORY_TAX,
        parent: music.id,
        meta: [],
        url: `${sb.origin}/events/category/music/jazz/`,
        urls: {
          self: `${sb.url}calendar/events/v1/categories/${jazz.id}`,
          collection: `${sb.url}calendar/events/v1/categories`,
          up: `${sb.url}calendar/events/v1/categories/${music.id}`,
        },
      });
      const tag = (await api.get(`${TAGS}?slug=outdoor`)).body.tags[0];
      expect(Object.keys(tag)).toEqual([
        'id',
        'count',
        'description',
        'name',
        'slug',
        'taxonomy',
        'meta',
        'yoast_head',
        'yoast_head_json',
        'url',
        'urls',
      ]);
      expect(tag.url).toBe(`${sb.origin}/tag/outdoor/`);
    });

    it('hides empty terms unless hide_empty is false', async () => {
      const all = await api.get(`${TAGS}?per_page=50&hide_empty=0`);
      const shown = await api.get(`${TAGS}?per_page=50`);
      expect(names(all.body, 'tags')).toContain('unused-tag');
      expect(names(shown.body, 'tags')).not.toContain('unused-tag');
      expect(all.body.total).toBe(store().terms(TAG_TAX).length);
      expect(shown.body.total).toBe(nonEmpty(TAG_TAX).length);
    });

    it('caps per_page at 50, refuses non-positive paging, and answers past the last page with an empty list', async () => {
      for (let i = 0; i < 60; i++)
        store().insertTerm({ taxonomy: TAG_TAX, name: `bulk ${i}`, slug: `bulk-${i}`, description: '', parent: 0 });
      const many = await api.get(`${TAGS}?per_page=500&hide_empty=false`);
      expect(many.body.tags).toHaveLength(50);
      expect(many.body.total).toBe(store().terms(TAG_TAX).length);
      expect(many.body.total_pages).toBe(Math.ceil(store().terms(TAG_TAX).length / 50));
      for (const query of ['page=0', 'per_page=0', 'page=x'])
        expect((await api.get(`${CATS}?${query}`)).status, query).toBe(400);
      const past = await api.get(`${CATS}?page=40`);
      expect(past.status).toBe(200);
      expect(past.body.categories).toEqual([]);
      expect(past.body.previous_rest_url).toBe(`${sb.url}calendar/events/v1/categories/?page=39`);
    });

    it('filters by search, include, exclude, parent, slug and post (or its alias event)', async () => {
      const music = store().termBySlug(CATEGORY_TAX, 'music')!;
      const jazz = store().termBySlug(CATEGORY_TAX, 'jazz')!;
      const rock = store().termBySlug(CATEGORY_TAX, 'rock')!;
      expect(names((await api.get(`${CATS}?search=jaz`)).body)).toEqual(['Jazz']);
      expect(names((await api.get(`${CATS}?include=${jazz.id},${rock.id}`)).body).sort()).toEqual(['Jazz', 'Rock']);
      expect(names((await api.get(`${CATS}?include=jazz,rock&exclude=${rock.id}`)).body)).toEqual(['Jazz']);
      const children = store()
        .terms(CATEGORY_TAX)
        .filter((t) => t.parent === music.id)
        .map((t) => t.name)
        .sort();
      expect(names((await api.get(`${CATS}?parent=${music.id}&hide_empty=0`)).body).sort()).toEqual(children);
      expect(names((await api.get(`${CATS}?slug=rock`)).body)).toEqual(['Rock']);
      const e = store()
        .posts<EventMeta>(EVENT, ['publish'])
        .find((x) => store().termIdsOf(x.id, CATEGORY_TAX).length > 1)!;
      const own = store().termIdsOf(e.id, CATEGORY_TAX).sort();
      expect((await api.get(`${CATS}?post=${e.id}`)).body.categories.map((t: any) => t.id).sort()).toEqual(own);
      expect((await api.get(`${CATS}?event=${e.id}`)).body.categories.map((t: any) => t.id).sort()).toEqual(own);
      expect((await api.get(`${CATS}?include=no-such-cat`)).status).toBe(400);
      expect((await api.get(`${CATS}?post=${music.id}`)).status).toBe(400);
    });

    it('orders by name by default, and by orderby and order when given', async () => {
      const counts = store().termCounts(CATEGORY_TAX);
      const r = await api.get(`${CATS}?orderby=count&order=desc&per_page=50`);
      const got = r.body.categories.map((t: any) => t.count);
      expect(got).toEqual([...got].sort((a: number, b: number) => b - a));
      expect(got[0]).toBe(Math.max(...counts.values()));
      const byId = await api.get(`${CATS}?orderby=id&per_page=50`);
      const ids = byId.body.categories.map((t: any) => t.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    });
  });

  describe('single terms', () => {
    it('answers one term in the archive form, and unknown or other-taxonomy IDs with 400 rest_invalid_param naming id', async () => {
      const rock = store().termBySlug(CATEGORY_TAX, 'rock')!;
      const r = await api.get(`${CATS}/${rock.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: rock.id, name: 'Rock', slug: 'rock', taxonomy: CATEGORY_TAX });
      const tag = store().termBySlug(TAG_TAX, 'outdoor')!;
      for (const bad of [`${CATS}/999999`, `${CATS}/${tag.id}`, `${TAGS}/${rock.id}`]) {
        const res = await api.get(bad);
        expect(res.status, bad).toBe(400);
        expect(res.body).toMatchObject({
          code: 'rest_invalid_param',
          data: { status: 400, params: { id: expect.any(String) } },
        });
      }
      for (const method of ['DELETE', 'POST']) {
        const res = await api.send(method, `${CATS}/999999`, method === 'POST' ? { name: 'x' } : undefined, 'admin');
        expect([res.status, res.body.code], method).toEqual([400, 'rest_invalid_param']);
      }
    });
  });

  describe('writes', () => {
    it('creates terms with 201 for editors and administrators only', async () => {
      expect((await api.send('POST', CATS, { name: 'Folk' })).status).toBe(401);
      for (const who of ['subscriber', 'contributor', 'author'] as const) {
        const r = await api.send('POST', CATS, { name: 'Folk' }, who);
        expect(r.status, who).toBe(403);
        expect(r.body.code).toBe('rest_forbidden');
      }
      const music = store().termBySlug(CATEGORY_TAX, 'music')!;
      const r = await api.send('POST', CATS, { name: 'Folk', description: 'Songs', parent: music.id }, 'editor');
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        name: 'Folk',
        slug: 'folk',
        description: 'Songs',
        parent: music.id,
        count: 0,
        taxonomy: CATEGORY_TAX,
      });
      expect(r.body.urls.up).toBe(`${sb.url}calendar/events/v1/categories/${music.id}`);
      const tag = await api.send('POST', TAGS, { name: 'Rainy Day', slug: 'rainy' }, 'admin');
      expect(tag.status).toBe(201);
      expect(tag.body).toMatchObject({ name: 'Rainy Day', slug: 'rainy', taxonomy: TAG_TAX });
      expect(tag.body).not.toHaveProperty('parent');
    });

    it('needs a name, before checking permission', async () => {
      const r = await api.send('POST', CATS, { description: 'nameless' });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['name'] } });
    });

    it('refuses a duplicate name with 400 term_exists and the existing term ID', async () => {
      const rock = store().termBySlug(CATEGORY_TAX, 'rock')!;
      let r = await api.send('POST', CATS, { name: 'Rock', parent: rock.parent }, 'admin');
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'term_exists',
        message: 'A term with the name provided already exists with this parent.',
        data: { status: 400, term_id: rock.id },
      });
      // Another parent is another level of the hierarchy: allowed, with a unique slug.
      r = await api.send('POST', CATS, { name: 'Rock' }, 'admin');
      expect(r.status).toBe(201);
      expect(r.body.slug).toBe('rock-2');
      const outdoor = store().termBySlug(TAG_TAX, 'outdoor')!;
      r = await api.send('POST', TAGS, { name: 'outdoor' }, 'admin');
      expect(r.body).toEqual({
        code: 'term_exists',
        message: 'A term with the name provided already exists in this taxonomy.',
        data: { status: 400, term_id: outdoor.id },
      });
    });

    it('refuses an unknown parent with 400 rest_term_invalid', async () => {
      const r = await api.send('POST', CATS, { name: 'Orphan', parent: 999999 }, 'admin');
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_term_invalid',
        message: 'Parent term does not exist.',
        data: { status: 400 },
      });
    });

    it('updates a term, keeping its slug unless one is given', async () => {
      const created = (await api.send('POST', TAGS, { name: 'Sunny' }, 'admin')).body;
      let r = await api.send('PATCH', `${TAGS}/${created.id}`, { name: 'Very Sunny', description: 'Bright' }, 'editor');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: created.id, name: 'Very Sunny', slug: 'sunny', description: 'Bright' });
      r = await api.send('PUT', `${TAGS}/${created.id}`, { slug: 'very-sunny' }, 'admin');
      expect(r.body.slug).toBe('very-sunny');
      expect((await api.send('POST', `${TAGS}/${created.id}`, { name: 'x' }, 'author')).status).toBe(403);
      expect((await api.send('PATCH', `${TAGS}/999999`, { name: 'x' }, 'admin')).status).toBe(400); // the ID check comes before the callback
    });

    it('deletes for good, answering with the term as it was, and unlinks it from events', async () => {
      const e = store().posts<EventMeta>(EVENT, ['publish'])[0]!;
      const created = (await api.send('POST', CATS, { name: 'Doomed' }, 'admin')).body;
      store().setTerms(e.id, CATEGORY_TAX, [...store().termIdsOf(e.id, CATEGORY_TAX), created.id]);
      expect((await api.send('DELETE', `${CATS}/${created.id}`, undefined, 'author')).status).toBe(403);
      const r = await api.send('DELETE', `${CATS}/${created.id}`, undefined, 'admin');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: created.id, name: 'Doomed', count: 1 });
      expect(store().term(created.id)).toBeUndefined();
      expect(store().termIdsOf(e.id, CATEGORY_TAX)).not.toContain(created.id);
      expect((await api.get(`${CATS}/${created.id}`)).status).toBe(400);
      expect((await api.send('DELETE', `${CATS}/${created.id}`, undefined, 'admin')).status).toBe(400);
    });
  });
});
