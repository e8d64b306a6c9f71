/**
 * The shape of the site-platform namespaces: every row of spec/routes.tsv for
 * core/v2, oembed/1.0, site-governance/v1, site-audit-log/v1, site-blocks/v1,
 * duplicate-post/v1, site/v1 and facet/v1 is served and listed in the
 * indexes, with its arguments; only core/v2 posts is batchable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const NAMESPACES = [
  'core/v2',
  'oembed/1.0',
  'site-governance/v1',
  'site-audit-log/v1',
  'site-blocks/v1',
  'duplicate-post/v1',
  'site/v1',
  'facet/v1',
];

/** The rows of spec/routes.tsv in these namespaces (the namespace indexes included). */
const ROWS: [string, string][] = [
  ['GET', '/oembed/1.0/embed'],
  ['GET', '/oembed/1.0/proxy'],
  ['GET', '/site-audit-log/v1/logs'],
  ['GET', '/site-audit-log/v1/export'],
  ['GET', '/site-governance/v1/users-overview'],
  ['GET', '/site-governance/v1/users-training-status'],
  ['GET', '/site-governance/v1/content-review-status/<post_id>'],
  ['GET', '/site-governance/v1/network/compliance-overview'],
  ['GET', '/site-governance/v1/network/sites-out-of-compliance'],
  ['GET', '/site-governance/v1/network/users-overdue-training'],
  ['GET', '/site-governance/v1/network/sites-training-compliance-summary'],
  ['GET', '/site-governance/v1/network/sites-qa-compliance-summary'],
  ['GET', '/site-governance/v1/network/sites-content-review-compliance-summary'],
  ['GET', '/site-governance/v1/remote/training-status'],
  ['GET', '/site-governance/v1/remote/content-review-meta'],
  ['GET', '/site-blocks/v1/get-attachment-id'],
  ['DELETE', '/duplicate-post/v1/original/<post_id>'],
  ['GET', '/site/v1/challenge'],
  ['POST', '/site/v1/challenge'],
  ['POST', '/facet/v1/refresh'],
  ['POST', '/facet/v1/fetch'],
  ['GET', '/core/v2'],
  ['GET', '/core/v2/posts'],
  ['POST', '/core/v2/posts'],
  ['GET', '/oembed/1.0'],
  ['GET', '/site-audit-log/v1'],
  ['GET', '/site-governance/v1'],
  ['GET', '/site-blocks/v1'],
  ['GET', '/duplicate-post/v1'],
  ['GET', '/site/v1'],
  ['GET', '/facet/v1'],
];

/**
 * Routes real WordPress serves beyond the spec's rows: the single post route,
 * whose 404 `rest_post_invalid_id` real-site-behaviour.md records.
 */
const POST_ITEM = '/core/v2/posts/(?P<id>[\\d]+)';
const POST_ITEM_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `<post_id>` as the route regex the index keys routes by. */
const toRegex = (path: string) => path.replace(/<(\w+)>/g, '(?P<$1>\\d+)');

describe('site-platform namespaces', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let routes: Record<string, any>;

  beforeAll(async () => {
    sb = await testSandbox({ events: 0 });
    api = restClient(sb);
    routes = (await api.get('/')).body.routes;
  });
  afterAll(() => sb.close());

  it('serves every method of every row of routes.tsv, and nothing else but the single post route', () => {
    expect(ROWS).toHaveLength(31);
    const declared = Object.entries(routes)
      .filter(([path, r]) => NAMESPACES.includes(r.namespace) && path !== POST_ITEM)
      .flatMap(([path, r]) => r.methods.map((m: string) => `${m} ${path}`));
    expect(declared.sort()).toEqual(ROWS.map(([m, p]) => `${m} ${toRegex(p)}`).sort());
    expect([...routes[POST_ITEM].methods].sort()).toEqual([...POST_ITEM_METHODS].sort());
  });

  it('lists each namespace in the root index and answers its own index', async () => {
    const root = await api.get('/');
    for (const ns of NAMESPACES) {
      expect(root.body.namespaces).toContain(ns);
      const r = await api.get(`/${ns}`);
      expect(r.status, ns).toBe(200);
      const want = new Set(
        ROWS.filter(([, p]) => p === `/${ns}` || p.startsWith(`/${ns}/`)).map(([, p]) => toRegex(p)),
      );
      if (ns === 'core/v2') want.add(POST_ITEM);
      expect(Object.keys(r.body.routes).sort(), ns).toEqual([...want].sort());
    }
  });

  it('marks only the core/v2 posts endpoints with allow_batch', () => {
    for (const [path, route] of Object.entries(routes)) {
      if (!NAMESPACES.includes(route.namespace)) continue;
      for (const e of route.endpoints)
        expect(Boolean(e.allow_batch), `${e.methods} ${path}`).toBe(path === '/core/v2/posts' || path === POST_ITEM);
    }
  });

  it("declares the spec's arguments with their defaults and requirements", () => {
    const args = (path: string, method = 'GET') =>
      routes[path].endpoints.find((e: any) => e.methods.includes(method)).args;
    expect(args('/oembed/1.0/embed')).toMatchObject({
      url: { required: true, type: 'string', format: 'uri' },
      format: { default: 'json' },
      maxwidth: { default: 600 },
    });
    expect(args('/oembed/1.0/proxy')).toMatchObject({
      url: { required: true },
      format: { enum: ['json', 'xml'], default: 'json' },
      maxwidth: { type: 'integer', default: 600 },
      maxheight: { type: 'integer' },
      discover: { type: 'boolean', default: true },
    });
    const logs = args('/site-audit-log/v1/logs');
    expect(Object.keys(logs)).toEqual([
      'order',
      'start_date',
      'end_date',
      'blog_id',
      'user_id',
      'object_type',
      'action',
      'priority',
      'page',
      'per_page',
    ]);
    expect(logs).toMatchObject({
      order: { default: 'desc' },
      start_date: { default: '' },
      priority: { default: '' },
      page: { default: 1 },
      per_page: { default: 20, maximum: 100 },
    });
    expect(Object.keys(args('/site-audit-log/v1/export'))).toEqual([
      'order',
      'start_date',
      'end_date',
      'blog_id',
      'user_id',
      'object_type',
      'action',
      'priority',
      'search',
    ]);
    expect(args('/site-governance/v1/remote/training-status')).toMatchObject({
      api_key: { required: true, type: 'string' },
      user_email: { required: false },
      user_login: { required: false },
    });
    expect(args('/site-governance/v1/remote/content-review-meta')).toMatchObject({
      api_key: { required: true },
      site_id: { required: true, type: 'integer' },
    });
    expect(args('/site-blocks/v1/get-attachment-id')).toMatchObject({ url: { required: true } });
    expect(args('/duplicate-post/v1/original/(?P<post_id>\\d+)', 'DELETE')).toMatchObject({
      post_id: { required: true, type: 'integer' },
    });
    const list = args('/core/v2/posts');
    for (const name of [
      'context',
      'page',
      'per_page',
      'search',
      'after',
      'before',
      'modified_after',
      'modified_before',
      'author',
      'author_exclude',
      'exclude',
      'include',
      'search_semantics',
      'offset',
      'order',
      'orderby',
      'search_columns',
      'slug',
      'status',
      'tax_relation',
      'categories',
      'tags',
    ]) {
      expect(list, name).toHaveProperty(name);
    }
    expect(list).toMatchObject({
      context: { default: 'view', enum: ['view', 'embed', 'edit'] },
      order: { default: 'desc', enum: ['asc', 'desc'] },
      orderby: { default: 'date' },
      status: { default: ['publish'] },
      author: { default: [] },
      search_semantics: { enum: ['exact'] },
      after: { format: 'date-time' },
      categories: {
        type: ['object', 'array'],
        properties: {
          terms: { type: 'array' },
          include_children: { type: 'boolean', default: false },
          operator: { enum: ['AND', 'OR'] },
        },
      },
    });
  });
});
