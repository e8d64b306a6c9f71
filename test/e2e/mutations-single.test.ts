/**
 * Single writes: every write route of both calendar interfaces reached
 * through a mutation (by ID and by slug, each method), on both shapes of site
 * (with and without calendar-core/v1); deletes that return what they deleted
 * (calendar-core's DELETE answers `[]`: real-site-behaviour.md), references
 * checked before anything is written, auth, inputs spanning both interfaces,
 * and sites that batch nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { restClient, type RestClient } from '../helpers/sandbox.ts';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';

const SHAPES: { shape: string; sandbox: SandboxOptionsInput; core: boolean }[] = [
  { shape: 'with calendar-core/v1', sandbox: {}, core: true },
  { shape: 'without calendar-core/v1', sandbox: { disable: ['calendar-core/v1'] }, core: false },
];

const writes = (h: Harness) => h.calls().filter((c) => c.method !== 'GET');
const described = (h: Harness) =>
  writes(h).flatMap((c) => (c.batch ? c.batch.map((b) => `batch ${b.method} ${b.route}`) : [`${c.method} ${c.route}`]));

describe.each(SHAPES)('single writes on a site $shape', ({ sandbox, core }) => {
  let h: Harness;
  let rest: RestClient;
  beforeAll(async () => {
    h = await startHarness({ sandbox });
    rest = restClient(h.sandbox);
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('updates and deletes an event with each method, by ID and by slug, through each interface', async () => {
    const made = await h.gql(
      `mutation($i: EventInput!) { createEvent(via: LEGACY, input: $i) { event { databaseId slug template } } }`,
      {
        i: {
          title: 'Legacy made',
          startDate: '2031-06-01T09:00:00Z',
          endDate: '2031-06-01T10:00:00Z',
          ...(core ? { template: 'single-wide.php' } : {}),
        },
      },
      'admin',
    );
    expect(made.errors).toBeUndefined();
    const { databaseId: id, slug } = made.data.createEvent.event;
    if (core) expect(made.data.createEvent.event.template).toBe('single-wide.php'); // core-only: a calendar-core/v1 follow-up
    const U = `mutation($id: ID!, $t: EventIdType, $m: UpdateMethod, $v: WriteInterface, $title: String) { updateEvent(id: $id, idType: $t, method: $m, via: $v, input: { title: $title }) { event { title } } }`;
    const cases: [string, string, string | null, string | null][] = [
      ...(core
        ? ([
            [String(id), 'DATABASE_ID', 'PATCH', 'CORE'],
            [String(id), 'DATABASE_ID', 'PUT', 'CORE'],
          ] as [string, string, string, string][])
        : []),
      [String(id), 'DATABASE_ID', 'PATCH', 'LEGACY'],
      [String(id), 'DATABASE_ID', 'PUT', 'LEGACY'],
      [String(id), 'DATABASE_ID', 'POST', null],
      [slug, 'SLUG', 'PATCH', null],
      [slug, 'SLUG', 'PUT', 'LEGACY'],
      [slug, 'SLUG', 'POST', null],
    ];
    for (const [i, [key, t, m, v]] of cases.entries()) {
      const r = await h.gql(U, { id: key, t, m, v, title: `Title ${i}` }, 'admin');
      expect(r.errors, `${t} ${m} ${v}`).toBeUndefined();
      expect(r.data.updateEvent.event.title).toBe(`Title ${i}`);
    }
    expect((await rest.get(`/calendar/events/v1/events/${id}`, 'admin')).body.title).toBe(`Title ${cases.length - 1}`);
    // Legacy delete by slug answers the trashed event; a second delete is GONE (410).
    const D = `mutation($id: ID!, $t: EventIdType, $v: WriteInterface) { deleteEvent(id: $id, idType: $t, via: $v) { databaseId permanently event { databaseId title status } } }`;
    const d1 = await h.gql(D, { id: slug, t: 'SLUG' }, 'admin');
    expect(d1.data.deleteEvent).toEqual({
      databaseId: id,
      permanently: false,
      event: { databaseId: id, title: `Title ${cases.length - 1}`, status: 'TRASH' },
    });
    const d2 = await h.gql(D, { id: String(id), t: 'DATABASE_ID', v: 'LEGACY' }, 'admin');
    expect(d2.errors![0]!.extensions).toMatchObject({
      code: 'GONE',
      upstream: { code: 'event-is-in-trash', status: 410 },
    });
    const d3 = await h.gql(D, { id: String(id), t: 'DATABASE_ID' }, 'admin');
    expect(d3.errors![0]!.extensions!.code).toBe('GONE');
    if (!core) {
      const f = await h.gql(
        `mutation($id: ID!) { deleteEvent(id: $id, force: true) { permanently } }`,
        { id: String(id) },
        'admin',
      );
      expect(f.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['force'] });
      return;
    }
    // Deleting a trashed event for good: the site will not show it any more (404 `{error}`), so there is no event to return.
    const d4 = await h.gql(
      `mutation($id: ID!) { deleteEvent(id: $id, force: true) { permanently event { title } } }`,
      { id: String(id) },
      'admin',
    );
    expect(d4.data.deleteEvent).toEqual({ permanently: true, event: null });
    // Gone for good: the legacy single read says it does not exist (400 naming `id` as a real site answers, or 404).
    expect([400, 404]).toContain((await rest.get(`/calendar/events/v1/events/${id}`, 'admin')).status);
  });

  it('a delete answers the event it deleted, whichever interface: legacy DELETE (one request), or a read before the calendar-core DELETE', async () => {
    const C = `mutation($t: String!) { createEvent(input: { title: $t, startDate: "2031-06-02T09:00:00Z", endDate: "2031-06-02T10:00:00Z" }) { event { databaseId } } }`;
    const D = `mutation($id: ID!, $v: WriteInterface, $f: Boolean) { deleteEvent(id: $id, via: $v, force: $f) { databaseId permanently event { databaseId title status } } }`;
    const a = (await h.gql(C, { t: 'Delete me A' }, 'admin')).data.createEvent.event.databaseId;
    h.mark();
    const byDefault = await h.gql(D, { id: String(a) }, 'admin');
    expect(byDefault.data.deleteEvent).toEqual({
      databaseId: a,
      permanently: false,
      event: { databaseId: a, title: 'Delete me A', status: 'TRASH' },
    });
    expect(h.calls().map((c) => `${c.method} ${c.route}`)).toEqual(['DELETE /calendar/events/v1/events/(?P<id>\\d+)']);
    if (!core) return;
    for (const [f, status] of [
      [false, 'TRASH'],
      [true, 'PUBLISH'],
    ] as const) {
      const b = (await h.gql(C, { t: `Delete me ${f}` }, 'admin')).data.createEvent.event.databaseId;
      h.mark();
      const viaCore = await h.gql(D, { id: String(b), v: 'CORE', f }, 'admin');
      // Deleted for good, it is shown as it was last read.
      expect(viaCore.data.deleteEvent).toEqual({
        databaseId: b,
        permanently: f,
        event: { databaseId: b, title: `Delete me ${f}`, status },
      });
      expect(h.calls().map((c) => `${c.method} ${c.route}`)).toEqual([
        'GET /calendar-core/v1/events/(?P<id>\\d+)',
        'DELETE /calendar-core/v1/events/(?P<id>\\d+)',
      ]);
    }
  });

  for (const [Type, kind, extra] of [
    ['Venue', 'venues', '{ city: "Gent" }'],
    ['Organizer', 'organizers', '{ phone: "555" }'],
  ] as const) {
    it(`creates, updates and deletes a ${kind.slice(0, -1)} through every route`, async () => {
      const lower = Type.toLowerCase();
      const C = `mutation($v: WriteInterface, $t: String!) { create${Type}(via: $v, input: { title: $t }) { ${lower} { databaseId slug title } } }`;
      const byDefault = await h.gql(C, { t: `${Type} core` }, 'admin');
      const legacy = await h.gql(C, { t: `${Type} legacy`, v: 'LEGACY' }, 'admin');
      expect(byDefault.errors ?? legacy.errors).toBeUndefined();
      const cid = byDefault.data[`create${Type}`][lower].databaseId;
      const { databaseId: lid, slug } = legacy.data[`create${Type}`][lower];
      const U = `mutation($id: ID!, $t: PlaceIdType, $m: UpdateMethod, $v: WriteInterface) { update${Type}(id: $id, idType: $t, method: $m, via: $v, input: ${extra}) { ${lower} { databaseId } } }`;
      for (const [id, t, m, v] of [
        [cid, 'DATABASE_ID', 'PATCH', null],
        [cid, 'DATABASE_ID', 'PUT', null],
        [lid, 'DATABASE_ID', 'PATCH', 'LEGACY'],
        [lid, 'DATABASE_ID', 'PUT', 'LEGACY'],
        [lid, 'DATABASE_ID', 'POST', null],
        [slug, 'SLUG', 'PATCH', null],
        [slug, 'SLUG', 'PUT', null],
        [slug, 'SLUG', 'POST', null],
      ]) {
        const r = await h.gql(U, { id: String(id), t, m, v }, 'admin');
        expect(r.errors, `${t} ${m} ${v}`).toBeUndefined();
      }
      const D = `mutation($id: ID!, $t: PlaceIdType, $v: WriteInterface, $f: Boolean) { delete${Type}(id: $id, idType: $t, via: $v, force: $f) { databaseId permanently ${lower} { title } } }`;
      const byId = await h.gql(D, { id: String(lid), t: 'DATABASE_ID', v: 'LEGACY' }, 'admin');
      expect(byId.data[`delete${Type}`]).toMatchObject({
        databaseId: lid,
        permanently: false,
        [lower]: { title: `${Type} legacy` },
      });
      const bySlug = await h.gql(D, { id: slug, t: 'SLUG' }, 'admin');
      expect(bySlug.errors![0]!.extensions!.code).toBe('GONE');
      // calendar-core's DELETE answers `[]`: the payload carries the object as read just before.
      const coreDel = await h.gql(D, { id: String(cid), t: 'DATABASE_ID', f: core }, 'admin');
      expect(coreDel.data[`delete${Type}`]).toEqual({
        databaseId: cid,
        permanently: core,
        [lower]: { title: `${Type} core` },
      });
      // A fresh one deleted by slug, so that route answers 200 too.
      const fresh = await h.gql(C, { t: `${Type} slugged`, v: 'LEGACY' }, 'admin');
      const del = await h.gql(D, { id: fresh.data[`create${Type}`][lower].slug, t: 'SLUG' }, 'admin');
      expect(del.errors).toBeUndefined();
      const routes = described(h).join('\n');
      for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        expect(routes).toContain(`${m} /calendar/events/v1/${kind}/by-slug/`);
        expect(routes).toContain(`${m} /calendar/events/v1/${kind}/(?P<id>`);
      }
    });
  }

  for (const [Type, kind] of [
    ['Category', 'categories'],
    ['Tag', 'tags'],
  ] as const) {
    it(`creates, updates (POST, PUT, PATCH) and deletes a ${Type.toLowerCase()}`, async () => {
      const lower = Type.toLowerCase();
      const c = await h.gql(
        `mutation { create${Type}(input: { name: "Written ${Type}", description: "d" }) { ${lower} { databaseId name slug } } }`,
        undefined,
        'admin',
      );
      expect(c.errors).toBeUndefined();
      const id = c.data[`create${Type}`][lower].databaseId;
      for (const m of ['POST', 'PUT', 'PATCH']) {
        const u = await h.gql(
          `mutation($id: ID!, $m: UpdateMethod) { update${Type}(id: $id, method: $m, input: { name: "Renamed ${Type} ${m}" }) { ${lower} { name } } }`,
          { id: String(id), m },
          'admin',
        );
        expect(u.data[`update${Type}`][lower].name).toBe(`Renamed ${Type} ${m}`);
      }
      const d = await h.gql(
        `mutation($id: ID!) { delete${Type}(id: $id) { databaseId ${lower} { name } } }`,
        { id: String(id) },
        'admin',
      );
      expect(d.data[`delete${Type}`]).toEqual({ databaseId: id, [lower]: { name: `Renamed ${Type} PATCH` } });
      // A deleted term is no term of the taxonomy: 400 rest_invalid_param naming id, as the real releases answer.
      const gone = await rest.get(`/calendar/events/v1/${kind}/${id}`);
      expect([gone.status, gone.body.code]).toEqual([400, 'rest_invalid_param']);
      const missing = await h.gql(
        `mutation { create${Type}(input: { description: "no name" }) { ${lower} { name } } }`,
        undefined,
        'admin',
      );
      expect(missing.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['input.name'] });
    });
  }

  it('refuses references to venues and organizers that do not exist before writing anything (calendar-core/v1 6.15 would write them)', async () => {
    const C = `mutation($i: EventInput!) { createEvent(input: $i) { event { title } } }`;
    const base = { title: 'Dangling', startDate: '2031-01-01T10:00:00Z', endDate: '2031-01-01T11:00:00Z' };
    const org = await h.gql(C, { i: { ...base, organizerIds: [999998] } }, 'admin');
    expect(org.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['input.organizerIds'] });
    expect(org.errors![0]!.message).toMatch(/no organizer with ID 999998/);
    const ven = await h.gql(
      `mutation($i: EventInput!) { updateEvent(id: "1", input: $i) { event { title } } }`,
      { i: { venueIds: [999999] } },
      'admin',
    );
    expect(ven.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['input.venueIds'] });
    expect(writes(h)).toEqual([]);
  });

  it('maps upstream validation errors of a single write to the input field', async () => {
    // The legacy interface checks that the author exists; the gateway only that it is an ID.
    const r = await h.gql(
      `mutation { createEvent(via: LEGACY, input: { title: "x", startDate: "2031-01-01T10:00:00Z", endDate: "2031-01-01T11:00:00Z", authorId: 999999 }) { event { title } } }`,
      undefined,
      'admin',
    );
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      arguments: ['input.authorId'],
      upstream: { code: 'rest_invalid_param', status: 400 },
    });
  });

  it("refuses anonymous writes with UNAUTHENTICATED and a subscriber's with FORBIDDEN, writing nothing", async () => {
    const input = { title: 'Should not exist', startDate: '2031-07-01T10:00:00Z', endDate: '2031-07-01T11:00:00Z' };
    const anon = await h.gql(`mutation($i: EventInput!) { createEvent(input: $i) { event { title } } }`, { i: input });
    expect(anon.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const anonBulk = await h.gql(`mutation($i: [EventInput!]!) { createEvents(inputs: $i) { written } }`, {
      i: [input],
    });
    expect(anonBulk.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    expect(h.calls()).toHaveLength(0);
    const sub = await h.gql(
      `mutation($i: EventInput!) { createEvent(input: $i) { event { title } } }`,
      { i: input },
      'subscriber',
    );
    expect(sub.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    const subBulk = await h.gql(
      `mutation($i: [EventInput!]!) { createEvents(inputs: $i) { written results { error { code path } } } }`,
      { i: [input, input] },
      'subscriber',
    );
    expect(subBulk.data.createEvents.written).toBe(0);
    expect(subBulk.data.createEvents.results.map((x: any) => x.error.code)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    const subCat = await h.gql(
      `mutation { createCategory(input: { name: "Sub cat" }) { category { name } } }`,
      undefined,
      'subscriber',
    );
    expect(subCat.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    const found = await rest.get(
      `/calendar/events/v1/events?search=Should%20not%20exist&status=publish,draft,pending`,
      'admin',
    );
    expect(found.body.events).toEqual([]);
  });
});

describe('inputs spanning both interfaces (a site with calendar-core/v1)', () => {
  let h: Harness;
  let rest: RestClient;
  beforeAll(async () => {
    h = await startHarness();
    rest = restClient(h.sandbox);
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('creates an event through calendar-core/v1, then the legacy-only fields and inline venue/organizer through the legacy interface', async () => {
    const r = await h.gql(
      `mutation($input: EventInput!) { createEvent(input: $input) { event { databaseId title website showMap hideFromListings duration template startDate venues { title city } organizers { title email } } } }`,
      {
        input: {
          title: 'Spanning event',
          startDate: '2031-05-01T10:00:00+01:00',
          endDate: '2031-05-01T12:00:00+01:00',
          timezone: 'Europe/London',
          featured: true,
          cost: '12',
          website: 'https://example.org/spanning',
          showMap: false,
          hideFromListings: true,
          duration: 7200,
          template: 'single-wide.php',
          venue: { title: 'Inline Hall', city: 'Boston' },
          organizers: [{ title: 'Inline Org', email: 'inline@example.org' }],
        },
      },
      'admin',
    );
    expect(r.errors).toBeUndefined();
    const e = r.data.createEvent.event;
    expect(e).toMatchObject({
      title: 'Spanning event',
      website: 'https://example.org/spanning',
      showMap: false,
      hideFromListings: true,
      duration: 7200,
      template: 'single-wide.php',
      startDate: '2031-05-01T10:00:00+01:00',
    });
    expect(e.venues).toEqual([{ title: 'Inline Hall', city: 'Boston' }]);
    expect(e.organizers).toEqual([{ title: 'Inline Org', email: 'inline@example.org' }]);
    // The create, then the legacy follow-up carrying the event's whole state (the legacy update resets what it omits).
    expect(described(h)).toEqual(['POST /calendar-core/v1/events', 'POST /calendar/events/v1/events/(?P<id>\\d+)']);
    const legacy = (await rest.get(`/calendar/events/v1/events/${e.databaseId}`, 'admin')).body;
    // What the calendar-core create wrote survives the legacy follow-up (zone, featured, cost, organizers).
    expect(legacy).toMatchObject({
      website: 'https://example.org/spanning',
      show_map: false,
      hide_from_listings: true,
      start_date: '2031-05-01 10:00:00',
      end_date: '2031-05-01 12:00:00',
      timezone: 'Europe/London',
      featured: true,
    });
    expect(legacy.cost_details.values).toEqual(['12']);
    const core = (await rest.get(`/calendar-core/v1/events/${e.databaseId}`, 'admin')).body;
    expect(core).toMatchObject({ template: 'single-wide.php', start_date: '2031-05-01 10:00:00' });
    expect(Number(core.duration)).toBe(7200);
  });
});

describe('a site whose index marks nothing batchable', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { batchable: false } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('writes directly, one request per item, and refuses atomic: true', async () => {
    const inputs = [0, 1, 2].map((i) => ({
      title: `Direct ${i}`,
      startDate: '2031-08-01T10:00:00Z',
      endDate: '2031-08-01T11:00:00Z',
    }));
    const r = await h.gql(
      `mutation($i: [EventInput!]!) { createEvents(inputs: $i) { written results { event { title } } } }`,
      { i: inputs },
      'admin',
    );
    expect(r.data.createEvents.written).toBe(3);
    expect(h.calls().map((c) => `${c.method} ${c.path}`)).toEqual(Array(3).fill('POST /calendar-core/v1/events'));
    h.mark();
    const a = await h.gql(
      `mutation($i: [EventInput!]!) { createEvents(inputs: $i, atomic: true) { written } }`,
      { i: inputs },
      'admin',
    );
    expect(a.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(a.errors![0]!.message).toMatch(/atomic: true needs \/batch\/v1/);
    expect(h.calls()).toHaveLength(0);
  });
});

describe('a site without calendar-core/v1', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { disable: ['calendar-core/v1'] } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('writes through the legacy interface, directly (its routes are not batchable)', async () => {
    const inputs = [0, 1].map((i) => ({
      title: `Legacy bulk ${i}`,
      startDate: '2031-09-01T10:00:00Z',
      endDate: '2031-09-01T11:00:00Z',
      website: 'https://example.org/',
    }));
    const r = await h.gql(
      `mutation($i: [EventInput!]!) { createEvents(inputs: $i) { written results { event { title website } } } }`,
      { i: inputs },
      'admin',
    );
    expect(r.data.createEvents.written).toBe(2);
    expect(r.data.createEvents.results[1].event).toEqual({ title: 'Legacy bulk 1', website: 'https://example.org/' });
    expect(h.calls().map((c) => `${c.method} ${c.path}`)).toEqual(Array(2).fill('POST /calendar/events/v1/events'));
    const coreOnly = await h.gql(
      `mutation { createEvent(input: { title: "x", startDate: "2031-01-01T10:00:00Z", endDate: "2031-01-01T11:00:00Z", duration: 5 }) { event { title } } }`,
      undefined,
      'admin',
    );
    expect(coreOnly.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['input.duration'] });
    expect(coreOnly.errors![0]!.message).toMatch(/duration needs calendar-core\/v1/);
  });
});
