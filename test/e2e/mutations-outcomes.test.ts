/**
 * Truthful writes (issue 9, finding 5): a write that was sent but whose answer
 * never arrived has an unknown outcome. It is never reported as failed: the
 * gateway reads the site back and reports what it finds (written, with the
 * object), or OUTCOME_UNKNOWN, counted in `unknown`. Nothing is sent twice.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { restClient, type RestClient } from '../helpers/sandbox.ts';

const UPSTREAM = { headersTimeoutMs: 300, bodyTimeoutMs: 300, retries: 1 };

const CREATE_EVENTS = `mutation($inputs: [EventInput!]!, $atomic: Boolean) {
  createEvents(inputs: $inputs, atomic: $atomic) {
    written failed unknown
    results { index databaseId error { code message path upstream } event { databaseId title } }
  }
}`;

const input = (prefix: string, i: number) => ({
  title: `${prefix} ${i}`,
  startDate: `2033-02-${String((i % 27) + 1).padStart(2, '0')}T10:00:00+01:00`,
  endDate: `2033-02-${String((i % 27) + 1).padStart(2, '0')}T11:00:00+01:00`,
  timezone: 'Europe/Paris',
  status: 'PUBLISH',
});

async function stored(rest: RestClient, prefix: string): Promise<any[]> {
  const r = await rest.get(`/calendar-core/v1/events?search=${encodeURIComponent(prefix)}&per_page=100`, 'admin');
  return (r.body as any[]).filter((e) => e.title.rendered.startsWith(`${prefix} `));
}

describe('writes whose answer is lost, on a site that batches calendar-core writes', () => {
  let h: Harness;
  let rest: RestClient;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { calendarBatchable: true }, config: { upstream: UPSTREAM } });
    rest = restClient(h.sandbox);
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.faults.clear();
    h.mark();
  });

  it('60 inputs, the first /batch/v1 answering after the headers timeout: all 60 written (read back), none failed, nothing re-sent', async () => {
    h.sandbox.faults.add({ path: '^/batch/v1$', method: 'POST', delayMs: 2000, times: 1 });
    const inputs = Array.from({ length: 60 }, (_, i) => input('Lost answer', i));
    const r = await h.gql(CREATE_EVENTS, { inputs }, 'admin');
    expect(r.errors).toBeUndefined();
    const p = r.data.createEvents;
    expect(p).toMatchObject({ written: 60, failed: 0, unknown: 0 });
    const onSite = await stored(rest, 'Lost answer');
    expect(onSite).toHaveLength(60);
    // Each result names the event the site stored for that input.
    const byTitle = new Map(onSite.map((e) => [e.title.rendered, e.id]));
    for (const [i, x] of p.results.entries()) {
      expect(x.error).toBeNull();
      expect(x.databaseId).toBe(byTitle.get(`Lost answer ${i}`));
      expect(x.event.title).toBe(`Lost answer ${i}`);
    }
    // Three batches, each sent once; the reconciliation only reads. (The sandbox logs the delayed batch when it answers.)
    await new Promise((r) => setTimeout(r, 2200));
    expect(
      h
        .calls()
        .filter((c) => c.method !== 'GET')
        .map((c) => `${c.method} ${c.path}`),
    ).toEqual(Array(3).fill('POST /batch/v1'));
  });

  it('atomic: true, the batch answering after the timeout: the 25 stored are reported written, not 0', async () => {
    h.sandbox.faults.add({ path: '^/batch/v1$', method: 'POST', delayMs: 2000, times: 1 });
    const inputs = Array.from({ length: 25 }, (_, i) => input('Atomic lost', i));
    const r = await h.gql(CREATE_EVENTS, { inputs, atomic: true }, 'admin');
    expect(r.data.createEvents).toMatchObject({ written: 25, failed: 0, unknown: 0 });
    expect(await stored(rest, 'Atomic lost')).toHaveLength(25);
  });

  it('a reset after sending, nothing found on reading back: OUTCOME_UNKNOWN per item, counted as unknown, never failed', async () => {
    h.sandbox.faults.add({ path: '^/batch/v1$', method: 'POST', reset: true, times: 1 });
    const inputs = Array.from({ length: 30 }, (_, i) => input('Reset batch', i));
    const r = await h.gql(CREATE_EVENTS, { inputs }, 'admin');
    const p = r.data.createEvents;
    expect(p).toMatchObject({ written: 5, failed: 0, unknown: 25 });
    for (const x of p.results.slice(0, 25)) {
      expect(x.databaseId).toBeNull();
      expect(x.error).toMatchObject({
        code: 'OUTCOME_UNKNOWN',
        path: ['inputs', String(x.index)],
        upstream: { status: null, route: 'POST /batch/v1' },
      });
      expect(x.error.message).toMatch(/no event matching it was found yet/);
      expect(x.error.message).toContain(`titled "Reset batch ${x.index}"`);
    }
    // The sandbox wrote nothing for the reset batch: the client may now retry those 25 after looking.
    expect(await stored(rest, 'Reset batch')).toHaveLength(5);
  });

  it('a 500 with a WordPress error body is the site saying no: failed, not unknown', async () => {
    h.sandbox.faults.add({ path: '^/batch/v1$', method: 'POST', status: 500, times: 1 });
    const r = await h.gql(CREATE_EVENTS, { inputs: [input('Said no', 0), input('Said no', 1)] }, 'admin');
    expect(r.data.createEvents).toMatchObject({ written: 0, failed: 2, unknown: 0 });
    expect(r.data.createEvents.results[0].error.code).toBe('UPSTREAM_ERROR');
  });
});

describe('single writes whose answer is lost', () => {
  let h: Harness;
  let rest: RestClient;
  beforeAll(async () => {
    h = await startHarness({ config: { upstream: UPSTREAM } });
    rest = restClient(h.sandbox);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.faults.clear());

  it('createEvent: a 502 page from a proxy, nothing stored -> OUTCOME_UNKNOWN with what to check; a timeout, stored -> the event', async () => {
    h.sandbox.faults.add({
      path: '^/calendar-core/v1/events$',
      method: 'POST',
      status: 502,
      body: '<html><h1>502 Bad Gateway</h1></html>',
      times: 1,
    });
    const q = `mutation($input: EventInput!) { createEvent(input: $input) { event { databaseId title } } }`;
    const a = await h.gql(q, { input: input('Single lost', 0) }, 'admin');
    expect(a.status).toBe(200);
    expect(a.errors?.[0]?.extensions).toMatchObject({
      code: 'OUTCOME_UNKNOWN',
      upstream: { status: 502, route: 'POST /calendar-core/v1/events' },
    });
    expect(a.errors?.[0]?.message).toMatch(/Outcome unknown.*look for an event titled "Single lost 0"/);

    h.sandbox.faults.add({ path: '^/calendar-core/v1/events$', method: 'POST', delayMs: 2000, times: 1 });
    const b = await h.gql(q, { input: input('Single lost', 1) }, 'admin');
    expect(b.errors).toBeUndefined();
    const [e] = await stored(rest, 'Single lost');
    expect(b.data.createEvent.event).toEqual({ databaseId: e.id, title: 'Single lost 1' });
  });

  it('updateEvent and deleteEvent answering after the timeout: read back, reported written', async () => {
    const c = await rest.send(
      'POST',
      '/calendar-core/v1/events',
      { title: 'To change', start_date: '2033-03-01 10:00:00', end_date: '2033-03-01 11:00:00', status: 'publish' },
      'admin',
    );
    const id = c.body.id as number;
    h.sandbox.faults.add({ path: '^/calendar-core/v1/events/\\d+$', method: 'PATCH', delayMs: 2000, times: 1 });
    const u = await h.gql(
      `mutation($id: ID!) { updateEvent(id: $id, input: { title: "Changed" }) { event { databaseId title } } }`,
      { id: String(id) },
      'admin',
    );
    expect(u.errors).toBeUndefined();
    expect(u.data.updateEvent.event).toEqual({ databaseId: id, title: 'Changed' });

    h.sandbox.faults.add({ path: '^/calendar/events/v1/events/\\d+$', method: 'DELETE', slowBodyMs: 2000, times: 1 });
    const d = await h.gql(
      `mutation($id: ID!) { deleteEvent(id: $id) { databaseId permanently } }`,
      { id: String(id) },
      'admin',
    );
    expect(d.errors).toBeUndefined();
    expect(d.data.deleteEvent).toEqual({ databaseId: id, permanently: false });
    expect((await rest.get(`/calendar/events/v1/events/${id}`, 'admin')).body.code).toBe('event-no-longer-available');
  });

  it('updateEvent whose change is not on the site after a reset: OUTCOME_UNKNOWN saying what differs', async () => {
    const c = await rest.send(
      'POST',
      '/calendar-core/v1/events',
      { title: 'Unchanged', start_date: '2033-03-02 10:00:00', end_date: '2033-03-02 11:00:00', status: 'publish' },
      'admin',
    );
    h.sandbox.faults.add({ path: '^/calendar-core/v1/events/\\d+$', method: 'PATCH', reset: true, times: 1 });
    const u = await h.gql(
      `mutation($id: ID!) { updateEvent(id: $id, input: { title: "New title" }) { event { title } } }`,
      { id: String(c.body.id) },
      'admin',
    );
    expect(u.errors?.[0]?.extensions?.code).toBe('OUTCOME_UNKNOWN');
    expect(u.errors?.[0]?.message).toMatch(/title differ/);
  });
});
