/**
 * The shape of the calendar's other namespaces: every row of spec/routes.tsv
 * for views, onboarding, aggregator and the two connectors, as the index and
 * the connectors' OpenAPI documents describe them, and the seeded credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extrasCredentials } from '../../packages/sandbox/src/namespaces/extras/index.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const NAMESPACES = [
  'calendar/views/v2',
  'calendar-core/v2/onboarding',
  'calendar/aggregator/v1',
  'calendar/automation-a/v1',
  'calendar/automation-b/v1',
];

/** The rows of spec/routes.tsv in these namespaces (the namespace indexes included), WordPress regexes for `<import_id>`. */
const ROWS = [
  'GET /calendar/views/v2',
  'GET /calendar/views/v2/html',
  'POST /calendar/views/v2/html',
  'GET /calendar-core/v2/onboarding',
  'POST /calendar-core/v2/onboarding/wizard',
  'GET /calendar/aggregator/v1',
  'POST /calendar/aggregator/v1/import/(?P<import_id>\\w+)/batch',
  'POST /calendar/aggregator/v1/import/(?P<import_id>\\w+)/state',
  'GET /calendar/automation-a/v1',
  'GET /calendar/automation-a/v1/doc',
  'GET /calendar/automation-a/v1/authorize',
  'GET /calendar/automation-a/v1/canceled-events',
  'GET /calendar/automation-a/v1/new-events',
  'GET /calendar/automation-a/v1/updated-events',
  'POST /calendar/automation-a/v1/create-events',
  'POST /calendar/automation-a/v1/update-events',
  'PUT /calendar/automation-a/v1/update-events',
  'PATCH /calendar/automation-a/v1/update-events',
  'GET /calendar/automation-a/v1/find-events',
  'GET /calendar/automation-b/v1',
  'GET /calendar/automation-b/v1/doc',
  'GET /calendar/automation-b/v1/canceled-events',
  'GET /calendar/automation-b/v1/new-events',
  'GET /calendar/automation-b/v1/updated-events',
  'POST /calendar/automation-b/v1/create-events',
];

describe('extras namespaces: routes', () => {
  let sb: RunningSandbox;
  let api: RestClient;

  beforeAll(async () => {
    sb = await testSandbox({ events: 20 });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  it('serves every method of every routes.tsv row of the five namespaces, and nothing else', async () => {
    const served: string[] = [];
    for (const ns of NAMESPACES) {
      const r = await api.get(`/${ns}`);
      expect(r.status).toBe(200);
      expect(r.body.namespace).toBe(ns);
      for (const [path, route] of Object.entries<any>(r.body.routes))
        for (const m of route.methods) served.push(`${m} ${path}`);
    }
    expect(served.sort()).toEqual([...ROWS].sort());
  });

  it('lists the spec arguments with their requiredness', async () => {
    const a = (await api.get('/calendar/automation-a/v1')).body.routes;
    expect(a['/calendar/automation-a/v1/authorize'].endpoints[0].args).toMatchObject({
      consumer_id: { required: true, type: 'string' },
      consumer_secret: { required: true },
      app_name: { required: false },
    });
    expect(a['/calendar/automation-a/v1/new-events'].endpoints[0].args.access_token.required).toBe(true);
    const create = a['/calendar/automation-a/v1/create-events'].endpoints[0].args;
    expect(create.access_token.required).toBe(false);
    expect([create.title.required, create.start_date.required, create.end_date.required]).toEqual([true, true, true]);
    const update = a['/calendar/automation-a/v1/update-events'].endpoints[0];
    expect(update.methods).toEqual(['POST', 'PUT', 'PATCH']);
    expect(Object.values<any>(update.args).every((x) => x.required === false)).toBe(true);
    expect(Object.keys(update.args)).toEqual(
      expect.arrayContaining(['access_token', 'id', 'password', 'title', 'event_status']),
    );
    expect(Object.keys(a['/calendar/automation-a/v1/find-events'].endpoints[0].args)).toEqual(
      expect.arrayContaining(['access_token', 'page', 'per_page', 'start_date', 'search']),
    );
    const b = (await api.get('/calendar/automation-b/v1')).body.routes;
    expect(b['/calendar/automation-b/v1/new-events'].endpoints[0].args.access_token.required).toBe(false);
    const views = (await api.get('/calendar/views/v2')).body.routes['/calendar/views/v2/html'].endpoints[0];
    expect(views.methods).toEqual(['GET', 'POST']);
    expect(Object.keys(views.args)).toEqual(['u', 'view', 'tvn1', 'tvn2', 'view_data', 'action']);
    expect(views.args.u).toEqual({ required: true, description: 'The URL of the view to render.' });
    const wizard = (await api.get('/calendar-core/v2/onboarding')).body.routes['/calendar-core/v2/onboarding/wizard']
      .endpoints[0];
    expect(wizard.args.action_nonce).toMatchObject({ required: true, type: 'string' });
    const batch = (await api.get('/calendar/aggregator/v1')).body.routes[
      '/calendar/aggregator/v1/import/(?P<import_id>\\w+)/batch'
    ].endpoints[0];
    expect(Object.keys(batch.args)).toEqual(['import_id', 'batch_hash', 'status', 'percentage_complete', 'interval']);
    expect(batch.args.interval.required).toBe(false);
  });

  it('documents each connector in OpenAPI 3.0.0, create-events as POST only', async () => {
    for (const [ns, title] of [
      ['calendar/automation-a/v1', 'Zapier'],
      ['calendar/automation-b/v1', 'Power Automate'],
    ] as const) {
      const r = await api.get(`/${ns}/doc`);
      expect(r.status).toBe(200);
      expect(r.body.openapi).toBe('3.0.0');
      expect(r.body.info.title).toBe(`The Events Calendar ${title} REST API`);
      expect(Object.keys(r.body.paths[`/${ns}/create-events`])).toEqual(['post']);
      expect(r.body.paths[`/${ns}/create-events`].post.requestBody.content['application/json'].schema.required).toEqual(
        ['title', 'start_date', 'end_date'],
      );
    }
    const a = await api.get('/calendar/automation-a/v1/doc');
    expect(Object.keys(a.body.paths['/calendar/automation-a/v1/update-events'])).toEqual(['post', 'put', 'patch']);
  });

  it('seeds connections with hashed secrets only, and hands out the plain ones from the seed', () => {
    const creds = extrasCredentials(sb.site);
    expect(creds.zapier.map((z) => [z.name, z.user])).toEqual([
      ['Sandbox Zapier', 'editor'],
      ['Read-only Zapier', 'subscriber'],
    ]);
    expect(creds.powerAutomate).toHaveLength(1);
    for (const c of [...creds.zapier, ...creds.powerAutomate]) {
      expect(c.consumerId).toMatch(/^ci_[0-9a-f]{40}$/);
      expect(c.consumerSecret).toMatch(/^ck_[0-9a-f]{40}$/);
    }
    const stored = JSON.stringify(
      sb.site.store.db.prepare("SELECT name, value FROM options WHERE name LIKE 'tec_%'").all(),
    );
    for (const c of [...creds.zapier, ...creds.powerAutomate]) {
      expect(stored).not.toContain(c.consumerSecret);
      expect(stored).not.toContain(c.consumerId);
    }
    expect(creds.aggregatorImports.map((i) => [i.status, i.locked, Boolean(i.nextBatchHash)])).toEqual([
      ['pending', false, true],
      ['pending', true, true],
      ['success', false, false],
    ]);
    expect(creds.nonces.views).toBe(`${sb.origin}/__sandbox/nonce?action=_view_rest`);
  });
});
