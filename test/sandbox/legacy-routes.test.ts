/**
 * The shape of the legacy namespace: every route of spec/routes.tsv for
 * calendar/events/v1, as the root index and the OpenAPI document describe it.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

/** The calendar/events/v1 rows of spec/routes.tsv (method, path). */
const ROWS: [string, string][] = [
  ['GET', '/calendar/events/v1'],
  ['GET', '/calendar/events/v1/doc'],
  ['GET', '/calendar/events/v1/events'],
  ['POST', '/calendar/events/v1/events'],
  ['GET', '/calendar/events/v1/events/<id>'],
  ['DELETE', '/calendar/events/v1/events/<id>'],
  ['POST', '/calendar/events/v1/events/<id>'],
  ['PUT', '/calendar/events/v1/events/<id>'],
  ['PATCH', '/calendar/events/v1/events/<id>'],
  ['GET', '/calendar/events/v1/events/by-slug/<slug>'],
  ['DELETE', '/calendar/events/v1/events/by-slug/<slug>'],
  ['POST', '/calendar/events/v1/events/by-slug/<slug>'],
  ['PUT', '/calendar/events/v1/events/by-slug/<slug>'],
  ['PATCH', '/calendar/events/v1/events/by-slug/<slug>'],
  ['GET', '/calendar/events/v1/venues'],
  ['POST', '/calendar/events/v1/venues'],
  ['GET', '/calendar/events/v1/venues/<id>'],
  ['DELETE', '/calendar/events/v1/venues/<id>'],
  ['POST', '/calendar/events/v1/venues/<id>'],
  ['PUT', '/calendar/events/v1/venues/<id>'],
  ['PATCH', '/calendar/events/v1/venues/<id>'],
  ['GET', '/calendar/events/v1/venues/by-slug/<slug>'],
  ['DELETE', '/calendar/events/v1/venues/by-slug/<slug>'],
  ['POST', '/calendar/events/v1/venues/by-slug/<slug>'],
  ['PUT', '/calendar/events/v1/venues/by-slug/<slug>'],
  ['PATCH', '/calendar/events/v1/venues/by-slug/<slug>'],
  ['GET', '/calendar/events/v1/organizers'],
  ['POST', '/calendar/events/v1/organizers'],
  ['GET', '/calendar/events/v1/organizers/<id>'],
  ['DELETE', '/calendar/events/v1/organizers/<id>'],
  ['POST', '/calendar/events/v1/organizers/<id>'],
  ['PUT', '/calendar/events/v1/organizers/<id>'],
  ['PATCH', '/calendar/events/v1/organizers/<id>'],
  ['GET', '/calendar/events/v1/organizers/by-slug/<slug>'],
  ['DELETE', '/calendar/events/v1/organizers/by-slug/<slug>'],
  ['POST', '/calendar/events/v1/organizers/by-slug/<slug>'],
  ['PUT', '/calendar/events/v1/organizers/by-slug/<slug>'],
  ['PATCH', '/calendar/events/v1/organizers/by-slug/<slug>'],
  ['GET', '/calendar/events/v1/categories'],
  ['POST', '/calendar/events/v1/categories'],
  ['GET', '/calendar/events/v1/categories/<id>'],
  ['DELETE', '/calendar/events/v1/categories/<id>'],
  ['POST', '/calendar/events/v1/categories/<id>'],
  ['PUT', '/calendar/events/v1/categories/<id>'],
  ['PATCH', '/calendar/events/v1/categories/<id>'],
  ['GET', '/calendar/events/v1/tags'],
  ['POST', '/calendar/events/v1/tags'],
  ['GET', '/calendar/events/v1/tags/<id>'],
  ['DELETE', '/calendar/events/v1/tags/<id>'],
  ['POST', '/calendar/events/v1/tags/<id>'],
  ['PUT', '/calendar/events/v1/tags/<id>'],
  ['PATCH', '/calendar/events/v1/tags/<id>'],
];

const toRegex = (path: string) => path.replace('<id>', '(?P<id>\\d+)').replace('<slug>', '(?P<slug>[^/]+)');

describe('legacy namespace routes (calendar/events/v1)', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let routes: Record<string, any>;

  beforeAll(async () => {
    sb = await testSandbox({ demo: false });
    api = restClient(sb);
    routes = (await api.get('/calendar/events/v1')).body.routes;
  });
  afterAll(() => sb.close());

  it('serves every method of every calendar/events/v1 row of routes.tsv, and nothing else', async () => {
    expect(ROWS).toHaveLength(52);
    for (const [method, path] of ROWS) {
      const route = routes[toRegex(path)];
      expect(route, path).toBeDefined();
      expect(route.methods, `${method} ${path}`).toContain(method);
    }
    const declared = Object.entries(routes).flatMap(([path, r]: [string, any]) =>
      r.methods.map((m: string) => `${m} ${path}`),
    );
    expect(declared.sort()).toEqual(ROWS.map(([m, p]) => `${m} ${toRegex(p)}`).sort());
  });

  it('lets no legacy route into /batch/v1', () => {
    for (const [path, route] of Object.entries(routes)) {
      for (const endpoint of route.endpoints) expect(endpoint, path).not.toHaveProperty('allow_batch');
    }
  });

  it('describes the arguments: required create fields, optional edit fields, and the moving date defaults', () => {
    const events = routes['/calendar/events/v1/events'];
    const create = events.endpoints.find((e: any) => e.methods.includes('POST')).args;
    for (const name of ['title', 'start_date', 'end_date']) expect(create[name].required, name).toBe(true);
    expect(create.all_day).toMatchObject({ required: false, type: 'boolean', default: false });
    const edit = routes['/calendar/events/v1/events/(?P<id>\\d+)'].endpoints.find((e: any) =>
      e.methods.includes('PATCH'),
    ).args;
    expect(edit.id).toMatchObject({ required: true, type: 'integer' });
    expect(edit.title.required).toBe(false);
    expect(edit.password).toMatchObject({ required: false, type: 'string' });
    const list = events.endpoints.find((e: any) => e.methods.includes('GET')).args;
    expect(list.per_page).toMatchObject({ type: 'integer', default: 10 });
    const yesterday = DateTime.utc()
      .minus({ days: 1 })
      .set({ hour: 23, minute: 59, second: 0 })
      .setZone(sb.site.timezone)
      .toFormat('yyyy-MM-dd HH:mm:ss');
    expect(list.start_date.default).toBe(yesterday);
    expect(list.end_date.default.slice(0, 10)).toBe(DateTime.utc().plus({ months: 24 }).toFormat('yyyy-MM-dd'));
    const venue = routes['/calendar/events/v1/venues'].endpoints.find((e: any) => e.methods.includes('POST')).args;
    expect(venue.venue.required).toBe(true);
    expect(venue.show_map.type).toBe('string');
  });

  it('serves an OpenAPI 3.0.0 document of the namespace at /doc', async () => {
    const r = await api.get('/calendar/events/v1/doc');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.0.0');
    expect(r.body.info.title).toBe('The Events Calendar REST API');
    const single = r.body.paths['/calendar/events/v1/events/{id}'];
    expect(Object.keys(single).sort()).toEqual(['delete', 'get', 'patch', 'post', 'put']);
    expect(single.get.parameters.map((p: any) => p.name)).toEqual(['id', 'password']);
    expect(
      Object.keys(
        r.body.paths['/calendar/events/v1/events'].post.requestBody.content['application/json'].schema.properties,
      ),
    ).toContain('venue');
    expect(
      r.body.paths['/calendar/events/v1/events'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['title', 'start_date', 'end_date']);
    for (const [, path] of ROWS) expect(r.body.paths, path).toHaveProperty([path.replace(/<(\w+)>/g, '{$1}')]);
  });

  it('answers unknown legacy paths and methods with rest_no_route', async () => {
    for (const [method, path] of [
      ['GET', '/calendar/events/v1/nope'],
      ['DELETE', '/calendar/events/v1/events'],
      ['PUT', '/calendar/events/v1/categories'],
      ['GET', '/calendar/events/v1/events/abc'],
    ]) {
      const r = await api.send(method!, path!);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.code).toBe('rest_no_route');
    }
  });
});
