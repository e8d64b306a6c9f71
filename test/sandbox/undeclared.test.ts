/**
 * WordPress drops a query or body argument the endpoint does not declare,
 * without a word (declared-args.md; real-site-behaviour.md "Added
 * 2026-11-25"): the answer is what it would be without it. The sandbox does
 * so on every route and records each dropped name in the request log
 * (`undeclared`, `log.undeclared()`, `log.undeclaredCount`), printing it on
 * stderr only with `strictArgs`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { TEC_EEA, restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const LEGACY = '/calendar/events/v1/events';
const CORE = '/calendar-core/v1/events';
const CLOCK = { anchor: '2026-06-01', now: '2026-06-01T12:00:00Z', events: 200 };

/** The IDs and total of a legacy list answer. */
const legacyIds = (r: { body: any }) => ({ ids: r.body.events.map((e: any) => e.id), total: r.body.total });
/** The IDs and total of a calendar-core list answer. */
const coreIds = (r: { body: any; headers: Headers }) => ({
  ids: r.body.map((e: any) => e.id),
  total: Number(r.headers.get('x-wp-total')),
});

describe('undeclared arguments are dropped and logged', () => {
  let old: RunningSandbox;
  let current: RunningSandbox;
  let spec: RunningSandbox;
  let tickets: RunningSandbox;
  let api57: RestClient;
  let api615: RestClient;
  let api617: RestClient;
  let apiTickets: RestClient;

  beforeAll(async () => {
    [old, current, spec, tickets] = await Promise.all([
      testSandbox({ ...CLOCK, tec: '5.7' }),
      testSandbox(CLOCK),
      testSandbox({ ...CLOCK, tec: '6.17' }),
      testSandbox({ ...CLOCK, tickets: true }),
    ]);
    [api57, api615, api617, apiTickets] = [old, current, spec, tickets].map(restClient) as [
      RestClient,
      RestClient,
      RestClient,
      RestClient,
    ];
  });
  afterAll(() => Promise.all([old, current, spec, tickets].map((sb) => sb.close())));

  it('on 5.7, the legacy list ignores starts_after, starts_before, ends_after, ends_before and ticketed, and logs each', async () => {
    const base = legacyIds(await api57.get(`${LEGACY}?per_page=50`));
    for (const [arg, value] of [
      ['starts_after', '2026-09-01'],
      ['starts_before', '2026-07-01'],
      ['ends_after', '2026-09-01'],
      ['ends_before', '2026-07-01'],
      ['ticketed', 'true'],
      ['ticketed', 'false'],
    ]) {
      old.log.clear();
      const r = await api57.get(`${LEGACY}?per_page=50&${arg}=${value}`);
      expect(r.status, arg).toBe(200);
      expect(legacyIds(r), `${arg}=${value}`).toEqual(base);
      expect(old.log.entries.at(-1)!.undeclared, arg).toEqual([arg]);
      expect(old.log.undeclared()).toEqual([{ method: 'GET', path: LEGACY, route: LEGACY, undeclared: [arg] }]);
      expect(old.log.undeclaredCount).toBe(1);
      // The release that declares it applies it (6.15.14's legacy list, which 6.17 keeps); `ticketed` only with Event Tickets.
      const applies = arg === 'ticketed' ? apiTickets : api615;
      expect(legacyIds(await applies.get(`${LEGACY}?per_page=50&${arg}=${value}`)), `${arg} on 6.15`).not.toEqual(
        legacyIds(await applies.get(`${LEGACY}?per_page=50`)),
      );
    }
    expect(current.log.undeclared()).toEqual([]);
  });

  it('on 6.15, the calendar-core list ignores virtual, recurring, in_series, near and the coordinates, and logs each', async () => {
    const eea = { 'x-tec-eea': TEC_EEA };
    const list = (api: RestClient, q = '') => api.get(`${CORE}?per_page=100${q}`, null, eea);
    const base = coreIds(await list(api615));
    const filters: [string, string[]][] = [
      ['&virtual=true', ['virtual']],
      ['&recurring=true', ['recurring']],
      ['&in_series=true', ['in_series']],
      ['&near=Paris', ['near']],
      ['&geoloc_lat=48.8566&geoloc_lng=2.3522&distance=25', ['distance', 'geoloc_lat', 'geoloc_lng']],
    ];
    for (const [q, names] of filters) {
      current.log.clear();
      const r = await list(api615, q);
      expect(r.status, q).toBe(200);
      expect(coreIds(r), q).toEqual(base);
      expect(current.log.entries.at(-1)!.undeclared, q).toEqual(names);
      expect(current.log.undeclaredCount).toBe(names.length);
      // 6.17 declares them, and they filter.
      expect(coreIds(await list(api617, q)).total, `${q} on 6.17`).toBeLessThan(coreIds(await list(api617)).total);
    }
    expect(spec.log.undeclared()).toEqual([]);
  });

  it("drops an undeclared argument on any route, query or body, and keeps the URL captures and WordPress's global parameters", async () => {
    current.log.clear();
    const posts = await api615.get('/core/v2/posts?per_page=2&bogus=1&_fields=id');
    expect(posts.status).toBe(200);
    expect(posts.body.every((p: any) => Object.keys(p).join() === 'id')).toBe(true);
    const id = (await api615.get(`${LEGACY}?per_page=1`)).body.events[0].id;
    await api615.get(`${LEGACY}/${id}?_embed=1&_envelope=1&context=view&color=red`);
    await api615.send('POST', '/calendar/events/v1/venues', { venue: 'Undeclared Hall', colour: 'blue' }, 'admin');
    expect(current.log.undeclared()).toEqual([
      { method: 'GET', path: '/core/v2/posts', route: '/core/v2/posts', undeclared: ['bogus'] },
      { method: 'GET', path: `${LEGACY}/${id}`, route: `${LEGACY}/(?P<id>\\d+)`, undeclared: ['color', 'context'] },
      {
        method: 'POST',
        path: '/calendar/events/v1/venues',
        route: '/calendar/events/v1/venues',
        undeclared: ['colour'],
      },
    ]);
  });

  it('keeps what a callback reads without declaring it (Endpoint.reads), as WordPress hands it the whole request', async () => {
    current.log.clear();
    const r = await api615.send('POST', '/seo/v1/setup_steps_tracking', { setupWidgetLoaded: 'yes' }, 'admin');
    expect(r.body).toEqual({ success: true });
    expect(current.log.undeclared()).toEqual([]);
  });

  it('prints one stderr line per request with undeclared arguments only with strictArgs', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const strict = await testSandbox({ demo: false, strictArgs: true });
    try {
      await api615.get(`${LEGACY}?per_page=1&nope=1`);
      expect(errors).not.toHaveBeenCalled();
      await restClient(strict).get('/core/v2/posts?nope=1&neither=2');
      await restClient(strict).get('/core/v2/posts?per_page=1');
      expect(errors.mock.calls.map((c) => c.join(' '))).toEqual([
        '[sandbox] undeclared argument(s) neither, nope dropped: GET /core/v2/posts, route /core/v2/posts',
      ]);
    } finally {
      errors.mockRestore();
      await strict.close();
    }
  });

  it('records the undeclared arguments of /batch/v1 items with the item', async () => {
    const batchable = await testSandbox({ demo: false });
    try {
      const r = await restClient(batchable).send(
        'POST',
        '/batch/v1',
        {
          requests: [{ path: '/core/v2/posts', body: { title: 'Batched', status: 'draft', mood: 'sunny' } }],
        },
        'admin',
      );
      expect(r.body.responses[0].status).toBe(201);
      expect(batchable.log.entries.at(-1)!.batch).toEqual([
        { method: 'POST', path: '/core/v2/posts', route: '/core/v2/posts', status: 201, undeclared: ['mood'] },
      ]);
      expect(batchable.log.undeclared()).toEqual([
        { method: 'POST', path: '/core/v2/posts', route: '/core/v2/posts', undeclared: ['mood'], inBatch: true },
      ]);
    } finally {
      await batchable.close();
    }
  });
});
