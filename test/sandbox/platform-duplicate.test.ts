/**
 * `DELETE /duplicate-post/v1/original/<post_id>`: every case of Yoast
 * Duplicate Post's handler (reference/other-upstream.md §6), in its order of
 * checks, and the one effect: the `_dp_original` reference is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const ROUTE = '/duplicate-post/v1/original';

describe('duplicate-post/v1', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  const meta = (id: number) => sb.site.store.post(id)!.meta as Record<string, unknown>;
  /** Seeded posts carrying `_dp_original`, by author. */
  const copies = () =>
    sb.site.store.posts('post').filter((p) => (p.meta as Record<string, unknown>)._dp_original !== undefined);
  const del = (id: number | string, who: Parameters<RestClient['get']>[1] = 'admin') =>
    api.send('DELETE', `${ROUTE}/${id}`, undefined, who);

  beforeAll(async () => {
    sb = await testSandbox({ events: 10 });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  it('has seeded copies: two plain ones and a Rewrite & Republish copy', () => {
    const list = copies();
    expect(list).toHaveLength(3);
    const rr = list.filter((p) => (p.meta as Record<string, unknown>)._dp_is_rewrite_republish_copy === 1);
    expect(rr).toHaveLength(1);
    const original = sb.site.store.post(Number((rr[0]!.meta as Record<string, unknown>)._dp_original))!;
    expect((original.meta as Record<string, unknown>)._dp_has_rewrite_republish_copy).toBe(rr[0]!.id);
  });

  it('answers 404 rest_no_route for a non-numeric ID or another method', async () => {
    expect((await del('abc')).body.code).toBe('rest_no_route');
    const get = await api.get(`${ROUTE}/5`, 'admin');
    expect(get.status).toBe(404);
    expect(get.body.code).toBe('rest_no_route');
  });

  it("refuses post_id 0 with the plugin's bare validate_callback failure", async () => {
    const r = await del(0);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): post_id',
      data: { status: 400, params: { post_id: 'Invalid parameter.' }, details: [] },
    });
  });

  it('answers 404 rest_post_not_found for a missing post, even logged out', async () => {
    for (const who of [null, 'admin'] as const) {
      const r = await del(987654, who);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 'rest_post_not_found', message: 'Post not found.', data: { status: 404 } });
    }
  });

  it.each([null, 'subscriber', 'contributor'] as const)(
    'answers 403 (never 401) to %s, who may not edit the post',
    async (who) => {
      const copy = copies().find((p) => p.author !== 4)!;
      const r = await del(copy.id, who);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({
        code: 'rest_forbidden',
        message: 'You do not have permission to edit this post.',
        data: { status: 403 },
      });
      expect(meta(copy.id)._dp_original).toBeDefined();
    },
  );

  it('refuses a Rewrite & Republish copy with 403', async () => {
    const rr = copies().find((p) => (p.meta as Record<string, unknown>)._dp_is_rewrite_republish_copy === 1)!;
    const r = await del(rr.id);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      code: 'rest_forbidden',
      message: 'Cannot remove original reference from a Rewrite & Republish copy.',
      data: { status: 403 },
    });
    expect(meta(rr.id)._dp_original).toBeDefined();
  });

  it('answers 500 rest_cannot_delete for a post without an original reference', async () => {
    const plain = sb.site.store
      .posts('post', ['publish'])
      .find((p) => (p.meta as Record<string, unknown>)._dp_original === undefined)!;
    const r = await del(plain.id);
    expect(r.status).toBe(500);
    expect(r.body).toEqual({
      code: 'rest_cannot_delete',
      message: 'Could not remove the original reference.',
      data: { status: 500 },
    });
  });

  it('removes the reference for an editor of the post, then has nothing left to remove', async () => {
    const copy = copies().find(
      (p) => (p.meta as Record<string, unknown>)._dp_is_rewrite_republish_copy === undefined && p.author !== 2,
    )!;
    const before = sb.site.store.post(copy.id)!;
    const r = await del(copy.id, 'editor');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: 'Original reference removed successfully.' });
    expect(meta(copy.id)).not.toHaveProperty('_dp_original');
    expect(sb.site.store.post(copy.id)).toMatchObject({
      title: before.title,
      status: before.status,
      modified: before.modified,
    });
    expect((await del(copy.id, 'editor')).status).toBe(500);
  });

  it('lets the author of a copy remove its reference (edit_post on own post)', async () => {
    const mine = sb.site.store.insertPost({
      type: 'post',
      status: 'draft',
      author: 4,
      title: 'Contributor copy',
      date: '2026-01-01 00:00:00',
      dateGmt: '2026-01-01 05:00:00',
      meta: { _dp_original: 1 },
    });
    expect((await del(mine.id, 'contributor')).status).toBe(200);
    expect(meta(mine.id)).not.toHaveProperty('_dp_original');
  });
});
