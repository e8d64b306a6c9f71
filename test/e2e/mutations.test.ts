/**
 * Calendar writes through the graph: bulk creates in one /batch/v1 request
 * per 25 items, atomic batches that write nothing unless all validate,
 * per-item errors in input order, and the answers read back through both
 * REST interfaces of the sandbox.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { restClient, type RestClient } from '../helpers/sandbox.ts';

const CREATE_EVENTS = `mutation($inputs: [EventInput!]!, $atomic: Boolean) {
  createEvents(inputs: $inputs, atomic: $atomic) {
    written failed
    results { index databaseId error { code message path upstream } event { databaseId title startDate endDate timezone cost allDay featured } }
  }
}`;

function eventInput(i: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const day = String((i % 27) + 1).padStart(2, '0');
  return {
    title: `Bulk event ${i}`,
    description: `<p>Body ${i}</p>`,
    startDate: `2031-03-${day}T18:00:00+01:00`,
    endDate: `2031-03-${day}T20:30:00+01:00`,
    timezone: 'Europe/Paris',
    cost: `${10 + i}`,
    featured: i % 2 === 0,
    status: 'PUBLISH',
    ...extra,
  };
}

describe('bulk writes through /batch/v1', () => {
  let h: Harness;
  let rest: RestClient;
  beforeAll(async () => {
    h = await startHarness();
    rest = restClient(h.sandbox);
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('creates 60 events in exactly 3 /batch/v1 requests, readable through both interfaces', async () => {
    const inputs = Array.from({ length: 60 }, (_, i) => eventInput(i));
    const r = await h.gql(CREATE_EVENTS, { inputs }, 'admin');
    expect(r.errors).toBeUndefined();
    const calls = h.calls();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(Array(3).fill('POST /batch/v1'));
    expect(calls.map((c) => c.batch!.length)).toEqual([25, 25, 10]);
    expect(calls.flatMap((c) => c.batch!).every((b) => b.method === 'POST' && b.path === '/calendar-core/v1/events' && b.status === 201)).toBe(true);

    const p = r.data.createEvents;
    expect(p).toMatchObject({ written: 60, failed: 0 });
    expect(p.results.map((x: any) => x.index)).toEqual(inputs.map((_, i) => i));
    for (const [i, x] of p.results.entries()) {
      expect(x.error).toBeNull();
      expect(x.event).toMatchObject({ title: inputs[i]!.title, startDate: inputs[i]!.startDate, endDate: inputs[i]!.endDate, timezone: 'Europe/Paris', featured: inputs[i]!.featured });
    }

    const ids: number[] = p.results.map((x: any) => x.databaseId);
    const legacy = await rest.get(`/calendar/events/v1/events?include=${ids.join(',')}&per_page=50&status=publish`, 'admin');
    const legacy2 = await rest.get(`/calendar/events/v1/events?include=${ids.join(',')}&per_page=50&page=2&status=publish`, 'admin');
    const byId = new Map([...legacy.body.events, ...legacy2.body.events].map((e: any) => [e.id, e]));
    expect(byId.size).toBe(60);
    for (const [i, id] of ids.entries()) {
      const core = await rest.get(`/calendar-core/v1/events/${id}`, 'admin');
      expect(core.status).toBe(200);
      const l = byId.get(id)!;
      const day = String((i % 27) + 1).padStart(2, '0');
      // 18:00+01:00 is 18:00 in Paris in March (CET).
      for (const e of [l, core.body]) {
        expect(e.start_date).toBe(`2031-03-${day} 18:00:00`);
        expect(e.end_date).toBe(`2031-03-${day} 20:30:00`);
        expect(e.timezone).toBe('Europe/Paris');
        expect(e.featured).toBe(i % 2 === 0);
        expect(e.status).toBe('publish');
      }
      expect(l.title).toBe(`Bulk event ${i}`);
      expect(core.body.title.rendered).toBe(`Bulk event ${i}`);
      expect(l.cost_details.values).toEqual([`${10 + i}`]);
      expect(String(core.body.cost)).toContain(`${10 + i}`);
    }
  });

  it('atomic: one item invalid upstream -> nothing written, the error names the item and field', async () => {
    const inputs = Array.from({ length: 5 }, (_, i) => eventInput(100 + i, { title: `Atomic upstream ${i}` }));
    inputs[3] = { ...inputs[3]!, venueIds: [999999] };
    const r = await h.gql(CREATE_EVENTS, { inputs, atomic: true }, 'admin');
    expect(r.errors).toBeUndefined();
    const calls = h.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.path).toBe('/batch/v1');
    const p = r.data.createEvents;
    expect(p.written).toBe(0);
    expect(p.results[3].error).toMatchObject({ code: 'BAD_USER_INPUT', path: ['inputs', '3', 'venueIds'] });
    expect(p.results[3].error.upstream).toMatchObject({ code: 'rest_invalid_param', status: 400 });
    for (const i of [0, 1, 2, 4]) expect(p.results[i].error.code).toBe('NOT_EXECUTED');
    const found = await rest.get(`/calendar-core/v1/events?search=Atomic%20upstream&status=publish`, 'admin');
    expect(found.body).toEqual([]);
  });

  it('atomic: one item invalid at the gateway -> nothing sent at all, error at the item and field', async () => {
    const inputs = Array.from({ length: 3 }, (_, i) => eventInput(200 + i, { title: `Atomic gateway ${i}` }));
    inputs[1] = { ...inputs[1]!, timezone: 'Mars/Olympus_Mons' };
    const r = await h.gql(CREATE_EVENTS, { inputs, atomic: true }, 'admin');
    expect(r.data.createEvents.results[1].error).toMatchObject({ code: 'BAD_USER_INPUT', path: ['inputs', '1', 'timezone'] });
    expect(r.data.createEvents.results[0].error.code).toBe('NOT_EXECUTED');
    expect(h.calls()).toHaveLength(0);
  });

  it('atomic: refuses more than one batch with a clear error, sending nothing', async () => {
    const inputs = Array.from({ length: 26 }, (_, i) => eventInput(300 + i));
    const r = await h.gql(CREATE_EVENTS, { inputs, atomic: true }, 'admin');
    expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(r.errors![0]!.message).toMatch(/at most 25 items/);
    expect(h.calls()).toHaveLength(0);
  });

  it('normal mode: failures in the middle are reported at their index, the others are written', async () => {
    const inputs = Array.from({ length: 30 }, (_, i) => eventInput(400 + i, { title: `Normal ${i}` }));
    inputs[7] = { ...inputs[7]!, categoryIds: [987654] }; // unknown category: upstream refuses
    inputs[12] = { ...inputs[12]!, endDate: '2020-01-01T00:00:00Z' }; // before start: the gateway refuses
    inputs[26] = { ...inputs[26]!, venueIds: [999999] };
    const r = await h.gql(CREATE_EVENTS, { inputs }, 'admin');
    const p = r.data.createEvents;
    expect(p).toMatchObject({ written: 27, failed: 3 });
    expect(p.results[7].error).toMatchObject({ code: 'BAD_USER_INPUT', path: ['inputs', '7', 'categoryIds'] });
    expect(p.results[12].error).toMatchObject({ code: 'BAD_USER_INPUT', path: ['inputs', '12', 'endDate'], upstream: null });
    expect(p.results[26].error).toMatchObject({ code: 'BAD_USER_INPUT', path: ['inputs', '26', 'venueIds'] });
    expect(p.results.filter((x: any) => !x.error).every((x: any) => x.event.title.startsWith('Normal '))).toBe(true);
    // 29 items sent (the gateway kept #12 back): 2 batches.
    expect(h.calls().map((c) => c.batch!.length)).toEqual([25, 4]);
    const found = await rest.get(`/calendar-core/v1/events?search=Normal&status=publish&per_page=100`, 'admin');
    expect(found.body.map((e: any) => e.title.rendered).sort()).toEqual(p.results.filter((x: any) => !x.error).map((x: any) => x.event.title).sort());
  });

  it('updates and deletes in bulk through the batch, with trash, force and 410 semantics', async () => {
    const made = await h.gql(CREATE_EVENTS, { inputs: [0, 1, 2].map((i) => eventInput(500 + i, { title: `Bulk upd ${i}` })) }, 'admin');
    const ids = made.data.createEvents.results.map((x: any) => x.databaseId);
    h.mark();
    const up = await h.gql(
      `mutation($inputs: [EventUpdateInput!]!) { updateEvents(inputs: $inputs, method: PUT) { failed results { error { code } event { title cost } } } }`,
      { inputs: ids.map((id: number, i: number) => ({ id: String(id), input: { title: `Renamed ${i}`, cost: '99' } })) },
      'admin',
    );
    expect(up.data.updateEvents.failed).toBe(0);
    expect(up.data.updateEvents.results.map((x: any) => x.event.title)).toEqual(['Renamed 0', 'Renamed 1', 'Renamed 2']);
    expect(h.calls().flatMap((c) => c.batch ?? []).map((b) => `${b.method} ${b.status}`)).toEqual(Array(3).fill('PUT 200'));

    h.mark();
    const DEL = `mutation($ids: [ID!]!, $force: Boolean) { deleteEvents(ids: $ids, force: $force) { written failed results { index databaseId error { code path } } } }`;
    const trash = await h.gql(DEL, { ids: ids.slice(0, 2).map(String) }, 'admin');
    expect(trash.data.deleteEvents).toMatchObject({ written: 2, failed: 0 });
    expect((await rest.get(`/calendar-core/v1/events/${ids[0]}`, 'admin')).body.status).toBe('trash');
    // Already trashed: 410 -> GONE at its index; the other item is deleted for good.
    const again = await h.gql(DEL, { ids: [String(ids[0]), String(ids[2])] }, 'admin');
    expect(again.data.deleteEvents.results[0].error).toEqual({ code: 'GONE', path: ['ids', '0'] });
    expect(again.data.deleteEvents.results[1].error).toBeNull();
    const forced = await h.gql(DEL, { ids: [String(ids[1])], force: true }, 'admin');
    expect(forced.data.deleteEvents.failed).toBe(0);
    expect((await rest.get(`/calendar/events/v1/events/${ids[1]}`, 'admin')).status).toBe(404);
    // (The GETs are this test's own reads.)
    expect(h.calls().filter((c) => c.method !== 'GET').every((c) => c.path === '/batch/v1')).toBe(true);
  });

  it('bulk venues and organizers go through the batch too', async () => {
    const v = await h.gql(
      `mutation { createVenues(inputs: [{ title: "Bulk Hall A", city: "Lyon", latitude: 45.76, longitude: 4.83 }, { title: "Bulk Hall B", city: "Nice" }]) { written results { venue { databaseId title city latitude } } } }`,
      undefined,
      'admin',
    );
    expect(v.data.createVenues.written).toBe(2);
    expect(v.data.createVenues.results[0].venue).toMatchObject({ title: 'Bulk Hall A', city: 'Lyon', latitude: 45.76 });
    const vids = v.data.createVenues.results.map((x: any) => String(x.venue.databaseId));
    const o = await h.gql(`mutation { createOrganizers(inputs: [{ title: "Org A", email: "a@example.org" }, { title: "Org B" }]) { written results { organizer { databaseId email } } } }`, undefined, 'admin');
    expect(o.data.createOrganizers.written).toBe(2);
    const oids = o.data.createOrganizers.results.map((x: any) => String(x.organizer.databaseId));
    const uv = await h.gql(`mutation($a: ID!, $b: ID!) { updateVenues(inputs: [{ id: $a, input: { zip: "69001" } }, { id: $b, input: { zip: "06000" } }]) { failed results { venue { zip } } } }`, { a: vids[0], b: vids[1] }, 'admin');
    expect(uv.data.updateVenues.results.map((x: any) => x.venue.zip)).toEqual(['69001', '06000']);
    const uo = await h.gql(`mutation($a: ID!) { updateOrganizers(inputs: [{ id: $a, input: { phone: "123" } }]) { failed results { organizer { phone } } } }`, { a: oids[0] }, 'admin');
    expect(uo.data.updateOrganizers.results[0].organizer.phone).toBe('123');
    const dv = await h.gql(`mutation($ids: [ID!]!) { deleteVenues(ids: $ids, force: true) { written } }`, { ids: vids }, 'admin');
    const dor = await h.gql(`mutation($ids: [ID!]!) { deleteOrganizers(ids: $ids) { written } }`, { ids: oids }, 'admin');
    expect([dv.data.deleteVenues.written, dor.data.deleteOrganizers.written]).toEqual([2, 2]);
    expect(h.calls().every((c) => c.path === '/batch/v1')).toBe(true);
  });
});
