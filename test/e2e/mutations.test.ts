/**
 * Bulk calendar writes through the graph, on both shapes of site (with and
 * without calendar-core/v1): per-item results and errors in input order,
 * references checked at the gateway, deletes that return what they deleted,
 * and the answers read back through the sandbox's REST interfaces.
 *
 * Real sites mark no calendar route `allow_batch` (real-site-behaviour.md
 * "No calendar-core route is batchable"), and neither does the sandbox by
 * default: bulk writes go as direct requests and `atomic: true` is refused.
 * A site filter can mark the calendar-core writes batchable
 * (`calendarBatchable: true`): then they go through /batch/v1, 25 at a time.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { restClient, type RestClient } from '../helpers/sandbox.ts';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';

const SHAPES: { shape: string; sandbox: SandboxOptionsInput; core: boolean; events: string }[] = [
  { shape: 'with calendar-core/v1', sandbox: {}, core: true, events: '/calendar-core/v1/events' },
  {
    shape: 'without calendar-core/v1',
    sandbox: { disable: ['calendar-core/v1'] },
    core: false,
    events: '/calendar/events/v1/events',
  },
];

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

const writesOf = (h: Harness) => h.calls().filter((c) => c.method !== 'GET');

describe.each(SHAPES)('bulk writes on a site $shape, no calendar route batchable', ({ sandbox, core, events }) => {
  let h: Harness;
  let rest: RestClient;
  beforeAll(async () => {
    h = await startHarness({ sandbox });
    rest = restClient(h.sandbox);
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('creates 30 events with direct requests, one per item, results in input order, readable through the REST API', async () => {
    const inputs = Array.from({ length: 30 }, (_, i) => eventInput(i));
    const r = await h.gql(CREATE_EVENTS, { inputs }, 'admin');
    expect(r.errors).toBeUndefined();
    expect(h.calls().map((c) => `${c.method} ${c.path}`)).toEqual(Array(30).fill(`POST ${events}`));
    const p = r.data.createEvents;
    expect(p).toMatchObject({ written: 30, failed: 0 });
    expect(p.results.map((x: any) => x.index)).toEqual(inputs.map((_, i) => i));
    for (const [i, x] of p.results.entries()) {
      expect(x.error).toBeNull();
      expect(x.event).toMatchObject({
        title: inputs[i]!.title,
        startDate: inputs[i]!.startDate,
        endDate: inputs[i]!.endDate,
        timezone: 'Europe/Paris',
        featured: inputs[i]!.featured,
      });
    }
    for (const [i, id] of p.results.map((x: any) => x.databaseId).entries()) {
      const l = (await rest.get(`/calendar/events/v1/events/${id}`, 'admin')).body;
      const day = String((i % 27) + 1).padStart(2, '0');
      // 18:00+01:00 is 18:00 in Paris in March (CET).
      expect(l).toMatchObject({
        title: `Bulk event ${i}`,
        start_date: `2031-03-${day} 18:00:00`,
        end_date: `2031-03-${day} 20:30:00`,
        timezone: 'Europe/Paris',
        featured: i % 2 === 0,
        status: 'publish',
      });
      expect(l.cost_details.values).toEqual([`${10 + i}`]);
      if (core)
        expect((await rest.get(`/calendar-core/v1/events/${id}`, 'admin')).body.title.rendered).toBe(`Bulk event ${i}`);
    }
  });

  it('atomic: true is refused before anything is sent (the routes are not batchable)', async () => {
    const r = await h.gql(CREATE_EVENTS, { inputs: [eventInput(0), eventInput(1)], atomic: true }, 'admin');
    expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(r.errors![0]!.message).toMatch(
      /atomic: true needs \/batch\/v1, but the site does not allow batching POST \/calendar/,
    );
    const del = await h.gql(`mutation { deleteEvents(ids: ["1", "2"], atomic: true) { written } }`, undefined, 'admin');
    expect(del.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(h.calls()).toHaveLength(0);
  });

  it('references to missing venues, organizers, categories and tags are caught at the gateway, one read per kind; the other items are written', async () => {
    const hall = (await rest.send('POST', '/calendar/events/v1/venues', { venue: 'Known hall' }, 'admin')).body.id;
    const org = (await rest.send('POST', '/calendar/events/v1/organizers', { organizer: 'Known org' }, 'admin')).body
      .id;
    const cat = (await rest.send('POST', '/calendar/events/v1/categories', { name: 'Known cat' }, 'admin')).body.id;
    h.mark();
    const inputs = Array.from({ length: 30 }, (_, i) =>
      eventInput(400 + i, { title: `Normal ${i}`, venueIds: [hall], organizerIds: [org], categoryIds: [cat] }),
    );
    inputs[3] = { ...inputs[3]!, venueIds: [999999] };
    inputs[7] = { ...inputs[7]!, categoryIds: [cat, 987654] };
    inputs[12] = { ...inputs[12]!, endDate: '2020-01-01T00:00:00Z' }; // before start: the gateway refuses
    inputs[20] = { ...inputs[20]!, organizerIds: [999998] };
    inputs[26] = { ...inputs[26]!, tagIds: [999997] };
    const r = await h.gql(CREATE_EVENTS, { inputs }, 'admin');
    const p = r.data.createEvents;
    expect(p).toMatchObject({ written: 25, failed: 5 });
    expect(p.results[3].error).toMatchObject({
      code: 'BAD_USER_INPUT',
      path: ['inputs', '3', 'venueIds'],
      upstream: null,
    });
    expect(p.results[3].error.message).toMatch(/no venue with ID 999999/);
    expect(p.results[7].error).toMatchObject({
      code: 'BAD_USER_INPUT',
      path: ['inputs', '7', 'categoryIds'],
      upstream: null,
    });
    expect(p.results[12].error).toMatchObject({
      code: 'BAD_USER_INPUT',
      path: ['inputs', '12', 'endDate'],
      upstream: null,
    });
    expect(p.results[20].error).toMatchObject({
      code: 'BAD_USER_INPUT',
      path: ['inputs', '20', 'organizerIds'],
      upstream: null,
    });
    expect(p.results[26].error).toMatchObject({
      code: 'BAD_USER_INPUT',
      path: ['inputs', '26', 'tagIds'],
      upstream: null,
    });
    for (const i of [3, 7, 12, 20, 26]) expect(p.results[i].databaseId).toBeNull();
    const calls = h.calls();
    // The checks: each distinct venue and organizer read once (never once per item), the terms in one
    // `include=` list per kind. The site refuses a list whose `include` names a term that does not exist
    // (400 naming `include`), so then, and only then, that list's IDs are read one by one.
    const reads = calls
      .filter((c) => c.method === 'GET')
      .map((c) => c.path)
      .sort();
    const ns = core ? '/calendar-core/v1' : '/calendar/events/v1';
    expect(reads).toEqual(
      [
        `${ns}/venues/${hall}`,
        `${ns}/venues/999999`,
        `${ns}/organizers/${org}`,
        `${ns}/organizers/999998`,
        '/calendar/events/v1/categories',
        `/calendar/events/v1/categories/${cat}`,
        '/calendar/events/v1/categories/987654',
        '/calendar/events/v1/tags',
        '/calendar/events/v1/tags/999997',
      ].sort(),
    );
    expect(writesOf(h).map((c) => `${c.method} ${c.path}`)).toEqual(Array(25).fill(`POST ${events}`));
    const written = p.results.filter((x: any) => !x.error);
    for (const x of written.slice(0, 3)) {
      const l = (await rest.get(`/calendar/events/v1/events/${x.databaseId}`, 'admin')).body;
      expect([l.venue.id, l.organizer.map((o: any) => o.id), l.categories.map((c: any) => c.id)]).toEqual([
        hall,
        [org],
        [cat],
      ]);
    }
  });

  it('updates in bulk, then deletes: trashing returns each event (legacy DELETE), GONE when already trashed', async () => {
    const made = await h.gql(
      CREATE_EVENTS,
      { inputs: [0, 1, 2].map((i) => eventInput(500 + i, { title: `Bulk upd ${i}` })) },
      'admin',
    );
    const ids: number[] = made.data.createEvents.results.map((x: any) => x.databaseId);
    h.mark();
    const up = await h.gql(
      `mutation($inputs: [EventUpdateInput!]!) { updateEvents(inputs: $inputs, method: PUT) { failed results { error { code } event { title cost timezone featured } } } }`,
      { inputs: ids.map((id, i) => ({ id: String(id), input: { title: `Renamed ${i}`, cost: '99' } })) },
      'admin',
    );
    expect(up.data.updateEvents.failed).toBe(0);
    expect(up.data.updateEvents.results.map((x: any) => x.event)).toEqual(
      [0, 1, 2].map((i) => ({
        title: `Renamed ${i}`,
        cost: expect.stringContaining('99'),
        timezone: 'Europe/Paris',
        featured: i % 2 === 0,
      })),
    );
    // Every update reads the stored state first (one read each, in parallel); a calendar-core answer hides
    // the legacy-only fields, which are read back after (one more each). Nothing needed a repair.
    // The updates go out in parallel, so their order on the wire is the network's.
    expect(
      writesOf(h)
        .map((c) => `${c.method} ${c.path}`)
        .sort(),
    ).toEqual(ids.map((id) => `PUT ${events}/${id}`).sort());
    expect(h.calls().filter((c) => c.method === 'GET')).toHaveLength(core ? 6 : 3);

    h.mark();
    const DEL = `mutation($ids: [ID!]!, $force: Boolean) { deleteEvents(ids: $ids, force: $force) { written failed results { index databaseId error { code path } event { databaseId title status } } } }`;
    const trash = await h.gql(DEL, { ids: ids.slice(0, 2).map(String) }, 'admin');
    expect(trash.data.deleteEvents).toMatchObject({ written: 2, failed: 0 });
    expect(trash.data.deleteEvents.results.map((x: any) => x.event)).toEqual(
      [0, 1].map((i) => ({ databaseId: ids[i], title: `Renamed ${i}`, status: 'TRASH' })),
    );
    expect(
      h
        .calls()
        .map((c) => `${c.method} ${c.path}`)
        .sort(),
    ).toEqual(
      ids
        .slice(0, 2)
        .map((id) => `DELETE /calendar/events/v1/events/${id}`)
        .sort(),
    );
    const again = await h.gql(DEL, { ids: [String(ids[0]), String(ids[2])] }, 'admin');
    expect(again.data.deleteEvents.results[0]).toMatchObject({
      error: { code: 'GONE', path: ['ids', '0'] },
      event: null,
    });
    expect(again.data.deleteEvents.results[1]).toMatchObject({
      error: null,
      event: { databaseId: ids[2], status: 'TRASH' },
    });
  });

  it('bulk venues and organizers: created, updated, and deleted with their objects in the results', async () => {
    const v = await h.gql(
      `mutation { createVenues(inputs: [{ title: "Bulk Hall A", city: "Lyon" }, { title: "Bulk Hall B", city: "Nice" }]) { written results { venue { databaseId title city } } } }`,
      undefined,
      'admin',
    );
    expect(v.data.createVenues.written).toBe(2);
    expect(v.data.createVenues.results[0].venue).toMatchObject({ title: 'Bulk Hall A', city: 'Lyon' });
    const vids = v.data.createVenues.results.map((x: any) => String(x.venue.databaseId));
    const o = await h.gql(
      `mutation { createOrganizers(inputs: [{ title: "Org A", email: "a@example.org" }, { title: "Org B" }]) { written results { organizer { databaseId email } } } }`,
      undefined,
      'admin',
    );
    expect(o.data.createOrganizers.written).toBe(2);
    const oids = o.data.createOrganizers.results.map((x: any) => String(x.organizer.databaseId));
    const uv = await h.gql(
      `mutation($a: ID!, $b: ID!) { updateVenues(inputs: [{ id: $a, input: { zip: "69001" } }, { id: $b, input: { zip: "06000" } }]) { failed results { venue { zip city } } } }`,
      { a: vids[0], b: vids[1] },
      'admin',
    );
    expect(uv.data.updateVenues.results.map((x: any) => x.venue)).toEqual([
      { zip: '69001', city: 'Lyon' },
      { zip: '06000', city: 'Nice' },
    ]);
    const uo = await h.gql(
      `mutation($a: ID!) { updateOrganizers(inputs: [{ id: $a, input: { phone: "123" } }]) { failed results { organizer { phone email } } } }`,
      { a: oids[0] },
      'admin',
    );
    expect(uo.data.updateOrganizers.results[0].organizer).toEqual({ phone: '123', email: 'a@example.org' });
    h.mark();
    const dv = await h.gql(
      `mutation($ids: [ID!]!) { deleteVenues(ids: $ids) { written results { venue { title } } } }`,
      { ids: vids },
      'admin',
    );
    const dor = await h.gql(
      `mutation($ids: [ID!]!) { deleteOrganizers(ids: $ids) { written results { organizer { title } } } }`,
      { ids: oids },
      'admin',
    );
    expect(dv.data.deleteVenues).toEqual({
      written: 2,
      results: [{ venue: { title: 'Bulk Hall A' } }, { venue: { title: 'Bulk Hall B' } }],
    });
    expect(dor.data.deleteOrganizers).toEqual({
      written: 2,
      results: [{ organizer: { title: 'Org A' } }, { organizer: { title: 'Org B' } }],
    });
    expect(writesOf(h).every((c) => c.method === 'DELETE' && c.path.startsWith('/calendar/events/v1/'))).toBe(true);
    expect(writesOf(h)).toHaveLength(4);
  });
});

describe('forced bulk deletes (calendar-core/v1 only) return the events as read before', () => {
  let h: Harness;
  let rest: RestClient;
  beforeAll(async () => {
    h = await startHarness();
    rest = restClient(h.sandbox);
  });
  afterAll(() => h.close());

  it('reads each event, then deletes it for good', async () => {
    const made = await h.gql(
      CREATE_EVENTS,
      { inputs: [0, 1].map((i) => eventInput(600 + i, { title: `Forced ${i}` })) },
      'admin',
    );
    const ids: number[] = made.data.createEvents.results.map((x: any) => x.databaseId);
    h.mark();
    const r = await h.gql(
      `mutation($ids: [ID!]!) { deleteEvents(ids: $ids, force: true) { written results { databaseId event { databaseId title } } } }`,
      { ids: ids.map(String) },
      'admin',
    );
    expect(r.data.deleteEvents.results).toEqual(
      ids.map((id, i) => ({ databaseId: id, event: { databaseId: id, title: `Forced ${i}` } })),
    );
    expect(
      h
        .calls()
        .map((c) => `${c.method} ${c.path}`)
        .sort(),
    ).toEqual(
      ids.flatMap((id) => [`GET /calendar-core/v1/events/${id}`, `DELETE /calendar-core/v1/events/${id}`]).sort(),
    );
    for (const id of ids)
      expect([400, 404]).toContain((await rest.get(`/calendar/events/v1/events/${id}`, 'admin')).status);
  });
});

describe('bulk writes on a site that marks calendar-core writes batchable (calendarBatchable: true)', () => {
  let h: Harness;
  let rest: RestClient;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { calendarBatchable: true } });
    rest = restClient(h.sandbox);
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('creates 60 events in exactly 3 /batch/v1 requests (25 + 25 + 10)', async () => {
    const inputs = Array.from({ length: 60 }, (_, i) => eventInput(i));
    const r = await h.gql(CREATE_EVENTS, { inputs }, 'admin');
    expect(r.errors).toBeUndefined();
    const calls = h.calls();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(Array(3).fill('POST /batch/v1'));
    expect(calls.map((c) => c.batch!.length)).toEqual([25, 25, 10]);
    expect(
      calls
        .flatMap((c) => c.batch!)
        .every((b) => b.method === 'POST' && b.path === '/calendar-core/v1/events' && b.status === 201),
    ).toBe(true);
    expect(r.data.createEvents).toMatchObject({ written: 60, failed: 0 });
    expect(r.data.createEvents.results.map((x: any) => x.event.title)).toEqual(inputs.map((x) => x.title));
  });

  it("atomic: a missing reference -> nothing written (only the check's reads are sent), the error names the item and field", async () => {
    const inputs = Array.from({ length: 5 }, (_, i) => eventInput(100 + i, { title: `Atomic ref ${i}` }));
    inputs[3] = { ...inputs[3]!, venueIds: [999999] };
    const r = await h.gql(CREATE_EVENTS, { inputs, atomic: true }, 'admin');
    expect(r.errors).toBeUndefined();
    expect(h.calls().map((c) => `${c.method} ${c.path}`)).toEqual(['GET /calendar-core/v1/venues/999999']);
    const p = r.data.createEvents;
    expect(p.written).toBe(0);
    expect(p.results[3].error).toMatchObject({ code: 'BAD_USER_INPUT', path: ['inputs', '3', 'venueIds'] });
    for (const i of [0, 1, 2, 4]) expect(p.results[i].error.code).toBe('NOT_EXECUTED');
    expect((await rest.get(`/calendar-core/v1/events?search=Atomic%20ref&status=publish`, 'admin')).body).toEqual([]);
  });

  it('atomic: one item invalid at the gateway -> nothing sent at all', async () => {
    const inputs = Array.from({ length: 3 }, (_, i) => eventInput(200 + i, { title: `Atomic gateway ${i}` }));
    inputs[1] = { ...inputs[1]!, timezone: 'Mars/Olympus_Mons' };
    const r = await h.gql(CREATE_EVENTS, { inputs, atomic: true }, 'admin');
    expect(r.data.createEvents.results[1].error).toMatchObject({
      code: 'BAD_USER_INPUT',
      path: ['inputs', '1', 'timezone'],
    });
    expect(r.data.createEvents.results[0].error.code).toBe('NOT_EXECUTED');
    expect(h.calls()).toHaveLength(0);
  });

  it('atomic: refuses more than one batch with a clear error, sending nothing', async () => {
    const r = await h.gql(
      CREATE_EVENTS,
      { inputs: Array.from({ length: 26 }, (_, i) => eventInput(300 + i)), atomic: true },
      'admin',
    );
    expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(r.errors![0]!.message).toMatch(/at most 25 items/);
    expect(h.calls()).toHaveLength(0);
  });

  it('atomic deletes go through one /batch/v1 request, with the events read before', async () => {
    const made = await h.gql(
      CREATE_EVENTS,
      { inputs: [0, 1].map((i) => eventInput(700 + i, { title: `Atomic del ${i}` })) },
      'admin',
    );
    const ids: number[] = made.data.createEvents.results.map((x: any) => x.databaseId);
    h.mark();
    const r = await h.gql(
      `mutation($ids: [ID!]!) { deleteEvents(ids: $ids, atomic: true) { written results { event { title status } } } }`,
      { ids: ids.map(String) },
      'admin',
    );
    expect(r.data.deleteEvents).toEqual({
      written: 2,
      results: [0, 1].map((i) => ({ event: { title: `Atomic del ${i}`, status: 'TRASH' } })),
    });
    expect(writesOf(h).map((c) => `${c.method} ${c.path} ${c.batch?.length}`)).toEqual(['POST /batch/v1 2']);
  });

  it('updates go through the batch too: the stored states read before, the fields the answers hide read back after', async () => {
    const made = await h.gql(CREATE_EVENTS, { inputs: [0, 1].map((i) => eventInput(800 + i)) }, 'admin');
    const ids: number[] = made.data.createEvents.results.map((x: any) => x.databaseId);
    h.mark();
    const up = await h.gql(
      `mutation($inputs: [EventUpdateInput!]!) { updateEvents(inputs: $inputs) { failed } }`,
      { inputs: ids.map((id) => ({ id: String(id), input: { cost: '5' } })) },
      'admin',
    );
    expect(up.data.updateEvents.failed).toBe(0);
    const reads = ids.map((id) => `GET /calendar/events/v1/events/${id}`).sort();
    const calls = h
      .calls()
      .map((c) =>
        c.batch ? `${c.method} ${c.path} ${c.batch.map((b) => b.method).join(',')}` : `${c.method} ${c.path}`,
      );
    expect([calls.slice(0, 2).sort(), calls[2], calls.slice(3).sort()]).toEqual([
      reads,
      'POST /batch/v1 PATCH,PATCH',
      reads,
    ]);
  });
});
