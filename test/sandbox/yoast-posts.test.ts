/**
 * Posts carry Yoast's `yoast_head` and `yoast_head_json` where Yoast is active,
 * as terms do (real-site-behaviour.md, "Yoast SEO on other namespaces";
 * fixtures/core-posts-list.json), in every context and on every answer that
 * holds a post; none without `seo/v1`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { setPostSeoMeta } from '../../packages/sandbox/src/namespaces/seo/analysis.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const POSTS = '/core/v2/posts';
const SAMPLE = JSON.parse(readFileSync(new URL('./fixtures/core-posts-list.json', import.meta.url), 'utf8')).body[0];

describe('yoast_head on core/v2 posts', () => {
  let sb: RunningSandbox;
  let bare: RunningSandbox;
  let api: RestClient;

  beforeAll(async () => {
    [sb, bare] = await Promise.all([testSandbox({ events: 10 }), testSandbox({ events: 10, disable: ['seo/v1'] })]);
    api = restClient(sb);
  });
  afterAll(() => Promise.all([sb.close(), bare.close()]));

  it("adds both fields after the post's own, before _links, in the sample's shape", async () => {
    const r = await api.get(`${POSTS}?per_page=5`);
    expect(r.status).toBe(200);
    const site = sb.site.store.option('blogname', '');
    for (const p of r.body) {
      const keys = Object.keys(p);
      expect(keys.slice(-3)).toEqual(['yoast_head', 'yoast_head_json', '_links']);
      expect(p.yoast_head).toMatch(/^<!-- This site is optimized with the Yoast SEO plugin v19\.3 /);
      expect(p.yoast_head).toContain(`<link rel="canonical" href="${p.link}" />`);
      const json = p.yoast_head_json;
      expect(json).toMatchObject({
        title: `${p.title.rendered} - ${site}`,
        canonical: p.link,
        og_url: p.link,
        og_type: 'article',
        og_site_name: site,
        twitter_card: 'summary_large_image',
      });
      // Every key of the recorded answer, and none it could not have (modified time and description come when they apply).
      expect(Object.keys(json)).toEqual(expect.arrayContaining(Object.keys(SAMPLE.yoast_head_json)));
      expect(Object.keys(json).filter((k) => !(k in SAMPLE.yoast_head_json))).toEqual(
        Object.keys(json).filter((k) => ['article_modified_time', 'description', 'og_description'].includes(k)),
      );
      expect(json.schema['@graph'].map((n: any) => n['@type'])).toEqual([
        'WebSite',
        'WebPage',
        'BreadcrumbList',
        'Person',
      ]);
      expect(json.schema['@graph'][1]['@id']).toBe(p.link);
    }
  });

  it('is on single reads, the embed and edit contexts, and creates', async () => {
    const id = (await api.get(`${POSTS}?per_page=1`)).body[0].id;
    for (const path of [`${POSTS}/${id}`, `${POSTS}/${id}?context=embed`, `${POSTS}/${id}?context=edit`]) {
      const r = await api.get(path, 'admin');
      expect(typeof r.body.yoast_head, path).toBe('string');
      expect(r.body.yoast_head_json.canonical, path).toBe(r.body.link);
    }
    const created = await api.send('POST', POSTS, { title: 'Yoast on create', status: 'draft' }, 'admin');
    expect(created.status).toBe(201);
    expect(created.body.yoast_head_json.title).toBe(`Yoast on create - ${sb.site.store.option('blogname', '')}`);
  });

  it("follows the post's noindex setting", async () => {
    const id = (await api.get(`${POSTS}?per_page=1`)).body[0].id;
    setPostSeoMeta(sb.site, id, { noindex: true });
    const r = await api.get(`${POSTS}/${id}`);
    expect(r.body.yoast_head_json.robots).toEqual({ index: 'noindex', follow: 'follow' });
    expect(r.body.yoast_head).toContain('<meta name="robots" content="noindex, follow" />');
  });

  it('is absent when Yoast (seo/v1) is not active', async () => {
    const r = await restClient(bare).get(`${POSTS}?per_page=3`);
    expect(r.status).toBe(200);
    for (const p of r.body) {
      expect(p).not.toHaveProperty('yoast_head');
      expect(p).not.toHaveProperty('yoast_head_json');
    }
  });
});
