/**
 * The plugins' own namespace names (the `names` option; docs/sandbox.md
 * "Names"): `plugin` serves the same data under `tribe/events/v1`, `tec/v1`,
 * `yoast/v1` (with `semrush/*`), `wp/v2`, ..., and the spec's renamed names are
 * 404 `rest_no_route`; `both` serves both, as a real site with an alias
 * plugin. Links follow the name the request came in by; the request log keeps
 * the path as requested. calendar-core's event categories are
 * `tribe_events_cat` unless the names are the spec's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { TEC_EEA, restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const CLOCK = { anchor: '2026-06-01', now: '2026-06-01T12:00:00Z', events: 60 };
const EEA = { 'x-tec-eea': TEC_EEA };
const RENAMED: [spec: string, plugin: string][] = [
  ['calendar/events/v1', 'tribe/events/v1'],
  ['calendar-core/v1', 'tec/v1'],
  ['calendar-core/v2/onboarding', 'tec/v2/onboarding'],
  ['calendar/views/v2', 'tribe/views/v2'],
  ['calendar/aggregator/v1', 'tribe/event-aggregator/v1'],
  ['seo/v1', 'yoast/v1'],
  ['core/v2', 'wp/v2'],
  ['facet/v1', 'facetwp/v1'],
];

/** A body as text with the site's origin (and host, in global IDs) replaced and the plugin names written as the spec's. */
function asSpec(sb: RunningSandbox, body: unknown): string {
  let text = JSON.stringify(body).replaceAll(sb.origin, 'ORIGIN').replaceAll(new URL(sb.origin).host, 'HOST');
  for (const [spec, plugin] of RENAMED) text = text.replaceAll(`/wp-json/${plugin}/`, `/wp-json/${spec}/`);
  // calendar-core's category field is the one other name that differs (tested on its own below).
  return text.replaceAll('"tribe_events_cat":', '"calendar_events_cat":');
}

describe('names: plugin', () => {
  let spec: RunningSandbox;
  let plugin: RunningSandbox;
  let specApi: RestClient;
  let api: RestClient;

  beforeAll(async () => {
    [spec, plugin] = await Promise.all([testSandbox(CLOCK), testSandbox({ ...CLOCK, names: 'plugin' })]);
    [specApi, api] = [restClient(spec), restClient(plugin)];
  });
  afterAll(() => Promise.all([spec.close(), plugin.close()]));

  it("lists only the plugins' names in the root index, and keeps the namespaces that have no other name", async () => {
    const root = (await api.get('/')).body;
    for (const [specName, pluginName] of RENAMED) {
      expect(root.namespaces).toContain(pluginName);
      expect(root.namespaces).not.toContain(specName);
      expect(Object.keys(root.routes).filter((r) => r === `/${specName}` || r.startsWith(`/${specName}/`))).toEqual([]);
      expect(Object.keys(root.routes)).toContain(`/${pluginName}`);
    }
    for (const same of ['oembed/1.0', 'duplicate-post/v1', 'site-governance/v1', 'calendar/automation-a/v1'])
      expect(root.namespaces).toContain(same);
    expect(root.routes['/batch/v1']).toBeDefined();
    expect(root.routes['/tribe/events/v1/events'].namespace).toBe('tribe/events/v1');
  });

  it('serves the same data under the plugin names as the spec names serve', async () => {
    const pairs: [string, string, Record<string, string>?][] = [
      ['/calendar/events/v1/events?per_page=5', '/tribe/events/v1/events?per_page=5'],
      ['/calendar/events/v1/venues?per_page=3', '/tribe/events/v1/venues?per_page=3'],
      ['/calendar-core/v1/events?per_page=5', '/tec/v1/events?per_page=5', EEA],
      ['/core/v2/posts?per_page=3', '/wp/v2/posts?per_page=3'],
      ['/seo/v1/statistics', '/yoast/v1/statistics'],
    ];
    for (const [specPath, pluginPath, headers] of pairs) {
      const [a, b] = await Promise.all([
        specApi.get(specPath, 'admin', headers),
        api.get(pluginPath, 'admin', headers),
      ]);
      expect(b.status, pluginPath).toBe(200);
      expect(asSpec(plugin, b.body), pluginPath).toBe(asSpec(spec, a.body));
    }
  });

  it("answers the spec's renamed names with 404 rest_no_route", async () => {
    const gone: [string, string][] = [
      ['GET', '/calendar/events/v1/events'],
      ['GET', '/calendar/events/v1'],
      ['GET', '/calendar-core/v1/events'],
      ['GET', '/core/v2/posts'],
      ['GET', '/seo/v1/statistics'],
      ['GET', '/calendar/views/v2/html'],
      ['POST', '/calendar-core/v2/onboarding/wizard'],
      ['POST', '/calendar/aggregator/v1/import/abc/batch'],
      ['POST', '/facet/v1/refresh'],
      ['POST', '/yoast/v1/keyword_research/authenticate'],
    ];
    for (const [method, path] of gone) {
      const r = await api.send(method, path, method === 'GET' ? undefined : {}, 'admin', EEA);
      expect(r.status, path).toBe(404);
      expect(r.body.code, path).toBe('rest_no_route');
    }
  });

  it("serves Yoast's SEMrush routes as semrush/* (the spec's keyword_research/*)", async () => {
    const r = await api.send('POST', '/yoast/v1/semrush/authenticate', { code: 'abc' }, 'author');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe(200);
    const routes = Object.keys((await api.get('/yoast/v1')).body.routes);
    expect(routes).toEqual(
      expect.arrayContaining([
        '/yoast/v1/semrush/authenticate',
        '/yoast/v1/semrush/country_code',
        '/yoast/v1/semrush/related_keyphrases',
      ]),
    );
    expect(routes.filter((x) => x.includes('keyword_research'))).toEqual([]);
  });

  it('writes every link under the plugin names: rest_url, _links, Location, Link, indexes and OpenAPI documents', async () => {
    const legacy = await api.get('/tribe/events/v1/events?per_page=2');
    expect(legacy.body.rest_url.startsWith(`${plugin.url}tribe/events/v1/events/`)).toBe(true);
    expect(legacy.body.next_rest_url.startsWith(`${plugin.url}tribe/events/v1/events/`)).toBe(true);
    const posts = await api.get('/wp/v2/posts?per_page=1');
    expect(posts.body[0]._links.self[0].href).toBe(`${plugin.url}wp/v2/posts/${posts.body[0].id}`);
    expect(posts.headers.get('link')).toContain(`${plugin.url}wp/v2/posts?`);
    const created = await api.send(
      'POST',
      '/tec/v1/events',
      { title: 'Named', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00' },
      'admin',
      EEA,
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${plugin.url}tec/v1/events/${created.body.id}`);
    const index = (await api.get('/tribe/events/v1')).body;
    expect(index.namespace).toBe('tribe/events/v1');
    expect(Object.keys(index.routes).every((r) => r.startsWith('/tribe/events/v1'))).toBe(true);
    const doc = (await api.get('/tribe/events/v1/doc')).body;
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/tribe/events/v1'))).toBe(true);
    expect(JSON.stringify([legacy.body, posts.body, created.body, index, doc])).not.toMatch(
      /wp-json\/(calendar|seo\/v1|core\/v2)/,
    );
  });

  it('logs the path and route as requested', async () => {
    plugin.log.clear();
    await api.get('/tec/v1/events/999999', null, EEA);
    expect(plugin.log.entries.at(-1)).toMatchObject({
      path: '/tec/v1/events/999999',
      route: '/tec/v1/events/(?P<id>\\d+)',
    });
  });

  it("takes and answers calendar-core's event categories as tribe_events_cat; calendar_events_cat is undeclared, dropped", async () => {
    const cats = plugin.site.store
      .terms('calendar_events_cat')
      .slice(0, 2)
      .map((t) => t.id);
    const declared = (await api.get('/tec/v1')).body.routes['/tec/v1/events'].endpoints.find((e: any) =>
      e.methods.includes('POST'),
    ).args;
    expect(Object.keys(declared)).toContain('tribe_events_cat');
    expect(Object.keys(declared)).not.toContain('calendar_events_cat');
    const body = {
      title: 'Categorised',
      start_date: '2027-03-01 10:00:00',
      end_date: '2027-03-01 12:00:00',
      tribe_events_cat: [cats[0]],
    };
    const created = await api.send('POST', '/tec/v1/events', body, 'admin', EEA);
    expect(created.body.tribe_events_cat).toEqual([cats[0]]);
    expect(created.body).not.toHaveProperty('calendar_events_cat');
    const read = await api.get(`/tec/v1/events/${created.body.id}`, null, EEA);
    expect(read.body.tribe_events_cat).toEqual([cats[0]]);
    // The legacy interface sees the same category.
    expect((await api.get(`/tribe/events/v1/events/${created.body.id}`)).body.categories.map((c: any) => c.id)).toEqual(
      [cats[0]],
    );
    plugin.log.clear();
    const wrong = await api.send(
      'PATCH',
      `/tec/v1/events/${created.body.id}`,
      { calendar_events_cat: [cats[1]] },
      'admin',
      EEA,
    );
    expect(wrong.status).toBe(200);
    expect(wrong.body.tribe_events_cat).toEqual([cats[0]]);
    expect(plugin.log.undeclared()).toEqual([
      {
        method: 'PATCH',
        path: `/tec/v1/events/${created.body.id}`,
        route: '/tec/v1/events/(?P<id>\\d+)',
        undeclared: ['calendar_events_cat'],
      },
    ]);
    const right = await api.send(
      'PATCH',
      `/tec/v1/events/${created.body.id}`,
      { tribe_events_cat: [cats[1]] },
      'admin',
      EEA,
    );
    expect(right.body.tribe_events_cat).toEqual([cats[1]]);
  });

  it('under the spec names the field stays calendar_events_cat, and tribe_events_cat is the undeclared one', async () => {
    const cat = spec.site.store.terms('calendar_events_cat')[0]!.id;
    spec.log.clear();
    const body = {
      title: 'Spec category',
      start_date: '2027-03-01 10:00:00',
      end_date: '2027-03-01 12:00:00',
      tribe_events_cat: [cat],
    };
    const created = await specApi.send('POST', '/calendar-core/v1/events', body, 'admin');
    expect(created.body.calendar_events_cat).toEqual([]);
    expect(spec.log.undeclared()[0]!.undeclared).toEqual(['tribe_events_cat']);
    const fixed = await specApi.send(
      'PATCH',
      `/calendar-core/v1/events/${created.body.id}`,
      { calendar_events_cat: [cat] },
      'admin',
    );
    expect(fixed.body.calendar_events_cat).toEqual([cat]);
  });
});

describe('names: both', () => {
  let sb: RunningSandbox;
  let api: RestClient;

  beforeAll(async () => {
    sb = await testSandbox({ ...CLOCK, names: 'both' });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  it("lists both names of every renamed namespace, and each name's routes", async () => {
    const root = (await api.get('/')).body;
    for (const [specName, pluginName] of RENAMED) {
      expect(root.namespaces).toEqual(expect.arrayContaining([specName, pluginName]));
      expect(root.routes[`/${specName}`].namespace).toBe(specName);
      expect(root.routes[`/${pluginName}`].namespace).toBe(pluginName);
    }
    expect(Object.keys(root.routes)).toEqual(
      expect.arrayContaining([
        '/calendar/events/v1/events',
        '/tribe/events/v1/events',
        '/seo/v1/keyword_research/authenticate',
        '/yoast/v1/semrush/authenticate',
      ]),
    );
  });

  it('answers each name with links in the name it came in by, over the same data', async () => {
    const [bySpec, byPlugin] = await Promise.all([
      api.get('/calendar/events/v1/events?per_page=3'),
      api.get('/tribe/events/v1/events?per_page=3'),
    ]);
    expect(bySpec.body.rest_url.startsWith(`${sb.url}calendar/events/v1/`)).toBe(true);
    expect(byPlugin.body.rest_url.startsWith(`${sb.url}tribe/events/v1/`)).toBe(true);
    expect(asSpec(sb, byPlugin.body)).toBe(asSpec(sb, bySpec.body));
    // Both names write the one store, and calendar-core's categories are tribe_events_cat under either name.
    const cat = sb.site.store.terms('calendar_events_cat')[0]!.id;
    const created = await api.send(
      'POST',
      '/calendar-core/v1/events',
      { title: 'Both', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00', tribe_events_cat: [cat] },
      'admin',
    );
    expect(created.body.tribe_events_cat).toEqual([cat]);
    expect((await api.get(`/tec/v1/events/${created.body.id}`, null, EEA)).body.tribe_events_cat).toEqual([cat]);
  });

  it('runs /batch/v1 items under either name', async () => {
    const r = await api.send(
      'POST',
      '/batch/v1',
      {
        requests: [
          { path: '/wp/v2/posts', body: { title: 'By plugin name', status: 'draft' } },
          { path: '/core/v2/posts', body: { title: 'By spec name', status: 'draft' } },
        ],
      },
      'admin',
    );
    expect(r.body.responses.map((x: any) => x.status)).toEqual([201, 201]);
    expect(r.body.responses[0].body._links.self[0].href).toContain('/wp-json/wp/v2/posts/');
    expect(r.body.responses[1].body._links.self[0].href).toContain('/wp-json/core/v2/posts/');
    expect(sb.log.entries.at(-1)!.batch!.map((b) => b.route)).toEqual(['/wp/v2/posts', '/core/v2/posts']);
  });
});
