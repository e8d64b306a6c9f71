/**
 * `POST /batch/v1` on calendar-core/v1 routes (reference/site-upstream.md §3;
 * samples batch-*.json): always 207; normal mode runs every item in order;
 * `require-all-validate` runs nothing unless every item validates; items are
 * authorised one by one as the outer caller; routes without allow_batch are
 * refused per item; the request log lists the items. A real site marks no
 * calendar-core route batchable (real-site-behaviour.md), so these run on a
 * site that does (`calendarBatchable: true`, as a site filter would); the
 * default refusal is in real-site-core.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { TEC_EEA, restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const EVENTS = '/calendar-core/v1/events';

describe('batch/v1 on calendar-core/v1', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  const titled = (title: string) =>
    (
      sb.site.store.db
        .prepare("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND title = ?")
        .get(title) as { n: number }
    ).n;
  const event = (title: string, extra: Record<string, unknown> = {}) => ({
    path: EVENTS,
    body: { title, start_date: '2027-02-02 10:00:00', end_date: '2027-02-02 11:00:00', ...extra },
  });
  /** A batch from `who`, acknowledging the experimental endpoints for every item. */
  const batch = (body: Record<string, unknown>, who: Who = 'admin') =>
    api.send('POST', '/batch/v1', body, who, { 'x-tec-eea': TEC_EEA });

  beforeAll(async () => {
    sb = await testSandbox({ anchor: '2026-06-01', events: 60, calendarBatchable: true });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  describe('normal mode', () => {
    it('runs every item in order; a failure does not stop later items; each answer is {body, status, headers}', async () => {
      const existing = (await api.send('POST', EVENTS, event('Batch target').body, 'admin')).body.id;
      const r = await batch({
        requests: [
          event('Batch normal 1'),
          event('Batch normal 2', { status: 'bogus' }),
          { method: 'PATCH', path: `${EVENTS}/${existing}`, body: { title: 'Batch target, patched' } },
          { method: 'DELETE', path: `${EVENTS}/${existing}?force=true` },
        ],
      });
      expect(r.status).toBe(207);
      expect(Object.keys(r.body)).toEqual(['responses']);
      const [created, invalid, patched, deleted] = r.body.responses;
      expect(created.status).toBe(201);
      expect(created.body.title.rendered).toBe('Batch normal 1');
      expect(created.headers.Location).toBe(`${sb.url}calendar-core/v1/events/${created.body.id}`);
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, details: { status: { code: 'rest_not_in_enum' } } },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.title.rendered).toBe('Batch target, patched');
      expect(deleted).toMatchObject({ status: 200, body: [] });
      expect(titled('Batch normal 1')).toBe(1);
      expect(titled('Batch normal 2')).toBe(0);
      expect(sb.site.store.post(existing)).toBeUndefined();
    });

    it('answers 207 even when every item fails', async () => {
      const r = await batch({
        requests: [event('Batch all bad', { timezone: 'Mars/Olympus' }), event('Batch all bad', { format: 'novel' })],
      });
      expect(r.status).toBe(207);
      expect(r.body.responses.map((x: any) => x.status)).toEqual([400, 400]);
      expect(titled('Batch all bad')).toBe(0);
    });

    it('takes 25 items', async () => {
      const requests = Array.from({ length: 25 }, (_, i) => event(`Batch 25 #${i}`));
      const r = await batch({ requests });
      expect(r.status).toBe(207);
      expect(r.body.responses).toHaveLength(25);
      expect(r.body.responses.every((x: any) => x.status === 201)).toBe(true);
      expect(new Set(r.body.responses.map((x: any) => x.body.id)).size).toBe(25);
      expect(
        (await api.get(`${EVENTS}?search=${encodeURIComponent('Batch 25 #')}&per_page=100`)).headers.get('x-wp-total'),
      ).toBe('25');
    });
  });

  describe('require-all-validate', () => {
    it('runs nothing when one item is invalid: null for the items that validated', async () => {
      const r = await batch({
        validation: 'require-all-validate',
        requests: [event('Atomic A'), event('Atomic B', { timezone: 'Mars/Olympus' }), event('Atomic C')],
      });
      expect(r.status).toBe(207);
      expect(r.body.failed).toBe('validation');
      expect(r.body.responses[0]).toBeNull();
      expect(r.body.responses[2]).toBeNull();
      expect(r.body.responses[1]).toMatchObject({
        status: 400,
        body: {
          code: 'rest_invalid_param',
          data: { details: { timezone: { code: 'tec_rest_invalid_timezone_argument' } } },
        },
      });
      const read = await api.get(`${EVENTS}?search=Atomic&per_page=100`);
      expect(read.body).toEqual([]);
      expect(titled('Atomic A') + titled('Atomic C')).toBe(0);
    });

    it('treats an item on an unknown route or a route without allow_batch as a failed validation', async () => {
      const r = await batch({
        validation: 'require-all-validate',
        requests: [event('Atomic D'), { path: '/calendar-core/v1/nope', body: {} }],
      });
      expect(r.body.failed).toBe('validation');
      expect(r.body.responses[1]).toMatchObject({ status: 404, body: { code: 'rest_no_route' } });
      expect(titled('Atomic D')).toBe(0);
    });

    it('runs every item when all validate', async () => {
      const r = await batch({
        validation: 'require-all-validate',
        requests: [
          event('Atomic ok 1'),
          { path: '/calendar-core/v1/venues', body: { title: 'Atomic venue' } },
          { path: '/calendar-core/v1/organizers', body: { title: 'Atomic organizer' } },
        ],
      });
      expect(r.status).toBe(207);
      expect(r.body.failed).toBeUndefined();
      expect(r.body.responses.map((x: any) => x.status)).toEqual([201, 201, 201]);
      expect(r.body.responses.map((x: any) => x.body.type)).toEqual([
        'calendar_events',
        'calendar_venue',
        'calendar_organizer',
      ]);
      expect((await api.get(`${EVENTS}/${r.body.responses[0].body.id}`)).body.title.rendered).toBe('Atomic ok 1');
    });

    it('still authorises items when they run: validation passes, permission fails per item', async () => {
      const r = await batch(
        { validation: 'require-all-validate', requests: [event('Atomic as subscriber')] },
        'subscriber',
      );
      expect(r.body.failed).toBeUndefined();
      expect(r.body.responses[0]).toMatchObject({
        status: 403,
        body: { code: 'rest_forbidden', data: { status: 403 } },
      });
      expect(titled('Atomic as subscriber')).toBe(0);
    });
  });

  describe('per-item authorisation and admission', () => {
    it('authorises each item as the outer caller', async () => {
      const published = (await api.get(`${EVENTS}?per_page=1`)).body[0].id;
      let r = await batch(
        { requests: [event('As subscriber'), { method: 'DELETE', path: `${EVENTS}/${published}` }] },
        'subscriber',
      );
      expect(r.status).toBe(207);
      expect(r.body.responses.map((x: any) => [x.status, x.body.code])).toEqual([
        [403, 'rest_forbidden'],
        [403, 'rest_forbidden'],
      ]);
      r = await batch({ requests: [event('As nobody')] }, null);
      expect(r.body.responses[0]).toMatchObject({ status: 401, body: { code: 'rest_forbidden' } });
      r = await batch(
        { requests: [event('As contributor', { status: 'draft' }), event('As contributor, published')] },
        'contributor',
      );
      expect(r.body.responses.map((x: any) => x.status)).toEqual([201, 403]);
      expect(r.body.responses[1].body.code).toBe('rest_cannot_publish');
      expect(sb.site.store.post(published)!.status).toBe('publish');
    });

    it('passes the outer headers to the items, and item headers win', async () => {
      let r = await api.send('POST', '/batch/v1', { requests: [event('No acknowledgement')] }, 'admin');
      expect(r.body.responses[0]).toMatchObject({
        status: 400,
        body: { code: 'missing_experimental_endpoint_acknowledgement' },
      });
      r = await api.send(
        'POST',
        '/batch/v1',
        { requests: [{ ...event('Item acknowledgement'), headers: { 'X-TEC-EEA': TEC_EEA } }] },
        'admin',
      );
      expect(r.body.responses[0].status).toBe(201);
      expect(titled('No acknowledgement')).toBe(0);
    });

    it('refuses, per item, a route without allow_batch', async () => {
      const id = (await api.get(`${EVENTS}?per_page=1`)).body[0].id;
      const r = await batch({
        requests: [{ method: 'DELETE', path: `${EVENTS}/${id}/notices/occurrences` }, event('After the refused one')],
      });
      expect(r.status).toBe(207);
      expect(r.body.responses[0]).toMatchObject({
        status: 400,
        body: {
          code: 'rest_batch_not_allowed',
          message: 'The requested route does not support batch requests.',
          data: { status: 400 },
        },
      });
      expect(r.body.responses[1].status).toBe(201);
    });

    it('refuses GET items as a whole', async () => {
      const r = await batch({ requests: [{ method: 'GET', path: EVENTS }] });
      expect(r.status).toBe(400);
      expect(r.body.data.params.requests).toBe('requests[0][method] is not one of POST, PUT, PATCH, and DELETE.');
    });
  });

  describe('the request log', () => {
    it('lists the items of a batch with their routes and statuses', async () => {
      const id = (await api.get(`${EVENTS}?per_page=1`)).body[0].id;
      await batch({
        requests: [
          event('Logged'),
          { method: 'PUT', path: `${EVENTS}/${id}?x=1`, body: { cost: '3' } },
          { path: '/calendar-core/v1/venues', body: { title: 'V', status: 'bogus' } },
        ],
      });
      const entry = sb.log.entries.filter((e) => e.path === '/batch/v1').at(-1)!;
      expect(entry.status).toBe(207);
      // An argument the item's route does not declare (`x`) is dropped and logged with the item.
      expect(entry.batch).toEqual([
        { method: 'POST', path: EVENTS, route: EVENTS, status: 201 },
        {
          method: 'PUT',
          path: `${EVENTS}/${id}`,
          route: '/calendar-core/v1/events/(?P<id>\\d+)',
          status: 200,
          undeclared: ['x'],
        },
        { method: 'POST', path: '/calendar-core/v1/venues', route: '/calendar-core/v1/venues', status: 400 },
      ]);
      expect(
        sb.log
          .undeclared()
          .filter((u) => u.inBatch)
          .at(-1),
      ).toEqual({
        method: 'PUT',
        path: `${EVENTS}/${id}`,
        route: '/calendar-core/v1/events/(?P<id>\\d+)',
        undeclared: ['x'],
        inBatch: true,
      });
    });
  });
});
