/**
 * `/core/v2/posts/<id>` beyond the spec's rows, as real WordPress serves it
 * (real-site-behaviour.md "core/v2 single posts"; site-upstream.md §1, §3, §7):
 * the partial update (POST/PUT/PATCH), its permission checks and validation,
 * batching of updates, and the list's `status` argument, whose permission
 * check runs before its enum check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const POSTS = '/core/v2/posts';

let sb: RunningSandbox;
let api: RestClient;

beforeAll(async () => {
  sb = await testSandbox({ events: 0 });
  api = restClient(sb);
});
afterAll(() => sb.close());

async function draft(who: Exclude<Who, null> = 'admin', body: Record<string, unknown> = {}): Promise<any> {
  const r = await api.send(
    'POST',
    POSTS,
    { title: 'Item test', content: 'Body', excerpt: 'Short', status: 'draft', ...body },
    who,
  );
  expect(r.status).toBe(201);
  return r.body;
}

const userId = (login: string) => sb.users.find((u) => u.login === login)!.id;
const termId = (taxonomy: string, slug: string) => sb.site.store.terms(taxonomy).find((t) => t.slug === slug)!.id;

describe('update: POST, PUT and PATCH /core/v2/posts/<id>', () => {
  it('is partial: what the request leaves out keeps its value; 200 in context edit', async () => {
    const p = await draft('admin', { comment_status: 'closed', format: 'aside' });
    const r = await api.send('PATCH', `${POSTS}/${p.id}`, { excerpt: 'Patched' }, 'admin');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: p.id,
      title: { raw: 'Item test' },
      content: { raw: 'Body' },
      excerpt: { raw: 'Patched' },
      status: 'draft',
      comment_status: 'closed',
      format: 'aside',
      categories: p.categories,
    });
    expect(r.body).toHaveProperty('generated_slug');
    expect(r.body.modified >= p.modified).toBe(true);
    for (const method of ['POST', 'PUT']) {
      const u = await api.send(method, `${POSTS}/${p.id}`, { title: `By ${method}` }, 'admin');
      expect(u.status, method).toBe(200);
      expect(u.body).toMatchObject({ title: { raw: `By ${method}` }, excerpt: { raw: 'Patched' } });
    }
    expect((await api.get(`${POSTS}/${p.id}?context=embed`, 'admin')).body.title.rendered).toBe('By PUT');
  });

  it('publishing a draft gives it a slug from its title; a given slug is made unique', async () => {
    const p = await draft();
    expect(p.slug).toBe('');
    const pub = await api.send('POST', `${POSTS}/${p.id}`, { status: 'publish', title: 'Item published now' }, 'admin');
    expect(pub.body).toMatchObject({ status: 'publish', slug: 'item-published-now' });
    expect(pub.body.link).toMatch(/\/item-published-now\/$/);
    const other = await draft();
    const same = await api.send('PATCH', `${POSTS}/${other.id}`, { slug: 'Item Published Now' }, 'admin');
    expect(same.body.slug).toBe('item-published-now-2');
  });

  it('replaces categories and tags when given, keeps them when not; sticky on and off', async () => {
    const news = termId('category', 'news');
    const tag = sb.site.store.terms('post_tag')[0]!.id;
    const p = await draft('admin', { categories: [news] });
    const r = await api.send('PATCH', `${POSTS}/${p.id}`, { tags: [tag, 999999], sticky: true }, 'admin');
    expect(r.body).toMatchObject({ categories: [news], tags: [tag], sticky: true });
    const off = await api.send('PATCH', `${POSTS}/${p.id}`, { categories: [], sticky: false }, 'admin');
    expect(off.body).toMatchObject({ categories: [], tags: [tag], sticky: false });
  });

  it('a date without an offset is site-local; date_gmt is UTC; publish with a future date schedules', async () => {
    const p = await draft();
    const r = await api.send('PATCH', `${POSTS}/${p.id}`, { date_gmt: '2030-01-02T03:04:05' }, 'admin');
    expect(r.body.date_gmt).toBe('2030-01-02T03:04:05');
    const pub = await api.send('PATCH', `${POSTS}/${p.id}`, { status: 'publish' }, 'admin');
    expect(pub.body.status).toBe('future');
  });

  it('a missing post: 404 rest_post_invalid_id, for every caller and method', async () => {
    for (const [method, who] of [
      ['POST', 'admin'],
      ['PUT', null],
      ['PATCH', 'subscriber'],
    ] as const) {
      const r = await api.send(method, `${POSTS}/999999`, { title: 'x' }, who);
      expect(r.status, `${method} ${who}`).toBe(404);
      expect(r.body).toEqual({ code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
    }
  });

  it('permissions: 401 rest_cannot_edit anonymous, 403 for a user who may not edit it', async () => {
    const p = await draft('admin');
    const anon = await api.send('POST', `${POSTS}/${p.id}`, { title: 'x' });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({
      code: 'rest_cannot_edit',
      message: 'Sorry, you are not allowed to edit this post.',
      data: { status: 401 },
    });
    for (const who of ['subscriber', 'contributor', 'author'] as const) {
      const r = await api.send('PATCH', `${POSTS}/${p.id}`, { title: 'x' }, who);
      expect([r.status, r.body.code], who).toEqual([403, 'rest_cannot_edit']);
    }
    expect((await api.send('PATCH', `${POSTS}/${p.id}`, { title: 'By the editor' }, 'editor')).status).toBe(200);
  });

  it('an author edits their own draft, but may not give it to another user; a contributor may not publish', async () => {
    const own = await draft('author');
    expect((await api.send('PATCH', `${POSTS}/${own.id}`, { title: 'Mine' }, 'author')).status).toBe(200);
    const other = await api.send('PATCH', `${POSTS}/${own.id}`, { author: userId('admin') }, 'author');
    expect([other.status, other.body.code]).toEqual([403, 'rest_cannot_edit_others']);
    const contrib = await draft('contributor');
    const pub = await api.send('PATCH', `${POSTS}/${contrib.id}`, { status: 'publish' }, 'contributor');
    expect([pub.status, pub.body.code]).toEqual([403, 'rest_cannot_publish']);
    // Re-sending the current status is not a status change.
    expect(
      (await api.send('PATCH', `${POSTS}/${contrib.id}`, { status: 'draft', title: 'Still a draft' }, 'contributor'))
        .status,
    ).toBe(200);
  });

  it('the same validation as create, before the permission check (a 400 beats a 401)', async () => {
    const p = await draft();
    const bad = await api.send('PATCH', `${POSTS}/${p.id}`, { status: 'bogus', template: 'nope.php' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(Object.keys(bad.body.data.params).sort()).toEqual(['status', 'template']);
    expect(bad.body.data.details.status.code).toBe('rest_not_in_enum');
    const type = await api.send('PATCH', `${POSTS}/${p.id}`, { author: 'someone' }, 'admin');
    expect(type.body.data.details.author.code).toBe('rest_invalid_type');
    const author = await api.send('PATCH', `${POSTS}/${p.id}`, { author: 999999 }, 'admin');
    expect([author.status, author.body.code]).toEqual([400, 'rest_invalid_author']);
  });

  it('password and sticky exclude each other', async () => {
    const p = await draft();
    const both = await api.send('PATCH', `${POSTS}/${p.id}`, { password: 'secret', sticky: true }, 'admin');
    expect([both.status, both.body.code]).toEqual([400, 'rest_invalid_field']);
    await api.send('PATCH', `${POSTS}/${p.id}`, { sticky: true }, 'admin');
    const onSticky = await api.send('PATCH', `${POSTS}/${p.id}`, { password: 'secret' }, 'admin');
    expect(onSticky.body).toMatchObject({
      code: 'rest_invalid_field',
      message: 'A sticky post can not be password protected.',
    });
    const q = await draft('admin', { password: 'secret' });
    const stick = await api.send('PATCH', `${POSTS}/${q.id}`, { sticky: true }, 'admin');
    expect(stick.body).toMatchObject({
      code: 'rest_invalid_field',
      message: 'A password protected post can not be set to sticky.',
    });
  });

  it('the index lists the update endpoint with the create arguments plus id, batchable', async () => {
    const route = (await api.get('/')).body.routes['/core/v2/posts/(?P<id>[\\d]+)'];
    const update = route.endpoints.find((e: any) => e.methods.includes('PATCH'));
    expect(update.methods).toEqual(['POST', 'PUT', 'PATCH']);
    expect(update.allow_batch).toEqual({ v1: true });
    const create = (await api.get('/')).body.routes[POSTS].endpoints.find((e: any) => e.methods.includes('POST'));
    expect(Object.keys(update.args).sort()).toEqual(['id', ...Object.keys(create.args)].sort());
  });
});

describe('updates and deletes through /batch/v1', () => {
  it('runs PUT/PATCH/DELETE items in order, each checked on its own', async () => {
    const a = await draft();
    const b = await draft();
    const r = await api.send(
      'POST',
      '/batch/v1',
      {
        requests: [
          { method: 'PATCH', path: `${POSTS}/${a.id}`, body: { title: 'Batched A' } },
          { method: 'PUT', path: `${POSTS}/999999`, body: { title: 'x' } },
          { method: 'POST', path: `${POSTS}/${b.id}`, body: { status: 'bogus' } },
          { method: 'DELETE', path: `${POSTS}/${b.id}?force=true` },
        ],
      },
      'admin',
    );
    expect(r.status).toBe(207);
    expect(r.body.responses.map((x: any) => [x.status, x.body.code ?? null])).toEqual([
      [200, null],
      [404, 'rest_post_invalid_id'],
      [400, 'rest_invalid_param'],
      [200, null],
    ]);
    expect(r.body.responses[0].body.title.raw).toBe('Batched A');
    expect(r.body.responses[3].body).toMatchObject({ deleted: true, previous: { id: b.id } });
  });

  it('require-all-validate: an invalid update item stops every item', async () => {
    const a = await draft();
    const r = await api.send(
      'POST',
      '/batch/v1',
      {
        validation: 'require-all-validate',
        requests: [
          { method: 'PATCH', path: `${POSTS}/${a.id}`, body: { title: 'Never' } },
          { method: 'PATCH', path: `${POSTS}/${a.id}`, body: { status: 'bogus' } },
        ],
      },
      'admin',
    );
    expect(r.body.failed).toBe('validation');
    expect(r.body.responses[0]).toBeNull();
    expect((await api.get(`${POSTS}/${a.id}?context=edit`, 'admin')).body.title.raw).toBe('Item test');
  });
});

describe("the list's status argument: the permission check comes before the enum check", () => {
  it('anonymous status=bogus: 400 wrapping rest_forbidden_status (401), as real WordPress', async () => {
    const r = await api.get(`${POSTS}?status=bogus`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'rest_invalid_param',
      data: {
        params: { status: 'Status is forbidden.' },
        details: { status: { code: 'rest_forbidden_status', data: { status: 401 } } },
      },
    });
    const sub = await api.get(`${POSTS}?status=publish,bogus`, 'subscriber');
    expect(sub.body.data.details.status).toMatchObject({ code: 'rest_forbidden_status', data: { status: 403 } });
  });

  it('a caller who may see other statuses gets the enum check: rest_not_in_enum', async () => {
    const r = await api.get(`${POSTS}?status=bogus`, 'editor');
    expect(r.status).toBe(400);
    expect(r.body.data.details.status.code).toBe('rest_not_in_enum');
    expect(r.body.data.params.status).toMatch(/^status\[0\] is not one of publish, future/);
  });

  it('the index still shows the status schema', async () => {
    const list = (await api.get('/')).body.routes[POSTS].endpoints.find((e: any) => e.methods.includes('GET')).args;
    expect(list.status).toMatchObject({ type: 'array', default: ['publish'], items: { type: 'string' } });
    expect(list.status.items.enum).toContain('any');
    expect(list.status).not.toHaveProperty('sanitizeOnly');
  });
});
