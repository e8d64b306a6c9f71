/**
 * `GET /site-blocks/v1/get-attachment-id`: the sandbox's GenerateBlocks-style
 * contract (docs/sandbox-platform.md, after other-upstream.md §5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const ROUTE = '/site-blocks/v1/get-attachment-id';

describe('site-blocks/v1 get-attachment-id', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let image: { id: number; url: string };
  const q = (url: string) => `${ROUTE}?url=${encodeURIComponent(url)}`;

  beforeAll(async () => {
    sb = await testSandbox({ events: 10 });
    api = restClient(sb);
    const a = sb.site.store.posts<{ url: string }>('attachment')[2]!;
    image = { id: a.id, url: a.meta.url };
  });
  afterAll(() => sb.close());

  it.each([
    [null, 401],
    ['subscriber', 403],
  ] as const)('needs edit_posts: %s gets %i rest_forbidden', async (who, status) => {
    const r = await api.get(q(`${sb.origin}${image.url}`), who);
    expect(r.status).toBe(status);
    expect(r.body.code).toBe('rest_forbidden');
  });

  it('finds the attachment of a full-size URL, with its sizes', async () => {
    const r = await api.get(q(`${sb.origin}${image.url}`), 'contributor');
    expect(r.status).toBe(200);
    const full = `${sb.origin}${image.url}`;
    const sized = (w: number, h: number) => full.replace(/\.jpg$/, `-${w}x${h}.jpg`);
    expect(r.body).toEqual({
      success: true,
      response: {
        id: image.id,
        full_url: full,
        width: 1200,
        height: 800,
        sizes: {
          thumbnail: { url: sized(150, 150), width: 150, height: 150 },
          medium: { url: sized(300, 200), width: 300, height: 200 },
          large: { url: sized(1024, 683), width: 1024, height: 683 },
          full: { url: full, width: 1200, height: 800 },
        },
      },
    });
  });

  it('strips the -WxH size suffix, and takes relative and protocol-relative URLs and query strings', async () => {
    const host = new URL(sb.origin);
    for (const url of [
      `${sb.origin}${image.url.replace('.jpg', '-300x200.jpg')}`,
      `${sb.origin}${image.url.replace('.jpg', '-150x150.jpg')}?ver=2`,
      image.url,
      `//${host.host}${image.url}`,
    ]) {
      const r = await api.get(q(url), 'author');
      expect(r.status, url).toBe(200);
      expect(r.body.response.id).toBe(image.id);
    }
  });

  it('answers 404 no_attachment for unknown files and other hosts', async () => {
    for (const url of [`${sb.origin}/wp-content/uploads/none.jpg`, `https://cdn.example.com${image.url}`]) {
      const r = await api.get(q(url), 'editor');
      expect(r.status).toBe(404);
      expect(r.body).toEqual({
        error: true,
        success: false,
        error_code: 'no_attachment',
        response: 'No attachment found.',
      });
    }
  });

  it('answers 400 no_url for an empty url, and rest_missing_callback_param without one', async () => {
    const empty = await api.get(`${ROUTE}?url=`, 'editor');
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: true, success: false, error_code: 'no_url', response: 'No URL provided.' });
    const missing = await api.get(ROUTE, 'editor');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): url',
      data: { status: 400, params: ['url'] },
    });
  });
});
