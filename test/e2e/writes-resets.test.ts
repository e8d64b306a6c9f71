/**
 * Issue 18, failures 4-7, one by one, on the releases the sandbox acts as
 * (docs/sandbox.md "Releases", "Write resets"), with the requests each write
 * costs (docs/writes.md "What it costs"), and WRITE_NOT_APPLIED when a site
 * keeps contradicting the write after the repair.
 *
 * 4. The legacy update moves an omitted publication date to the time of the
 *    update: the gateway sends the stored one.
 * 5. 6.15's calendar-core PATCH sets an omitted `sticky` to false and
 *    `show_map`/`show_map_link` to true: `sticky` is sent from the stored
 *    state, the other two are restored through the legacy update.
 * 6. 6.15's calendar-core PATCH ignores `featured: false`: written through the
 *    legacy update.
 * 7. The calendar-core category field is `tribe_events_cat` where the route
 *    declares it (6.15 under the plugins' names): categories are stored.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { restClient, TEC_EEA, type RestClient } from '../helpers/sandbox.ts';

const ROUTE = {
  legacyGet: 'GET /calendar/events/v1/events/(?P<id>\\d+)',
  legacyPatch: 'PATCH /calendar/events/v1/events/(?P<id>\\d+)',
  legacyPost: 'POST /calendar/events/v1/events/(?P<id>\\d+)',
  corePatch: 'PATCH /calendar-core/v1/events/(?P<id>\\d+)',
};

const UPDATE = `mutation($id: ID!, $input: EventInput!, $via: WriteInterface) {
  updateEvent(id: $id, input: $input, via: $via) { event { databaseId title featured sticky showMap showMapLink publishedAt categories { databaseId } } }
}`;

interface Site {
  h: Harness;
  rest: RestClient;
  /** A REST path under the names the sandbox serves. */
  path(p: string): string;
}

async function site(sandbox: SandboxOptionsInput): Promise<Site> {
  const h = await startHarness({ sandbox });
  const plugin = sandbox.names === 'plugin';
  return {
    h,
    rest: restClient(h.sandbox),
    path: (p) =>
      plugin ? p.replace(/^\/calendar\/events\/v1/, '/tribe/events/v1').replace(/^\/calendar-core\/v1/, '/tec/v1') : p,
  };
}

/** The sandbox's stored row of an event (whatever either interface shows). */
function stored(s: Site, id: number): Record<string, any> {
  const p = s.h.sandbox.site.store.post<Record<string, unknown>>(id)!;
  return {
    ...p,
    ...p.meta,
    sticky: p.menuOrder === -1,
    categories: s.h.sandbox.site.store.termIdsOf(id, 'calendar_events_cat'),
  };
}

async function event(s: Site, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await s.rest.send(
    'POST',
    s.path('/calendar/events/v1/events'),
    {
      title: 'Reset me',
      start_date: '2031-02-01 10:00:00',
      end_date: '2031-02-01 12:00:00',
      date: '2026-01-15 10:00:00',
      featured: true,
      sticky: true,
      show_map: false,
      show_map_link: false,
      hide_from_listings: true,
      cost: '$15',
      ...extra,
    },
    'admin',
  );
  expect(r.status).toBe(201);
  return r.body.id;
}

const routes = (s: Site) => s.h.calls().map((c) => `${c.method} ${c.route}`);

describe.each([
  { release: '5.7', sandbox: { tec: '5.7' } as SandboxOptionsInput },
  { release: '6.15', sandbox: { tec: '6.15' } as SandboxOptionsInput },
])('4. the legacy update keeps the publication date (TEC $release)', ({ release, sandbox }) => {
  let s: Site;
  beforeAll(async () => {
    s = await site(sandbox);
  });
  afterAll(() => s.h.close());

  it('updateEvent(title) through the legacy interface: date and every flag kept; one read, one write', async () => {
    const id = await event(s);
    const before = stored(s, id);
    expect(before.date).toBe('2026-01-15 10:00:00');
    s.h.mark();
    const r = await s.h.gql(
      UPDATE,
      { id: String(id), input: { title: 'Renamed' }, via: release === '5.7' ? null : 'LEGACY' },
      'admin',
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.updateEvent.event).toMatchObject({
      title: 'Renamed',
      featured: true,
      sticky: true,
      showMap: false,
      showMapLink: false,
    });
    expect(Date.parse(r.data.updateEvent.event.publishedAt)).toBe(Date.parse(`${before.dateGmt.replace(' ', 'T')}Z`));
    const after = stored(s, id);
    expect([
      after.date,
      after.dateGmt,
      after.featured,
      after.sticky,
      after.showMap,
      after.showMapLink,
      after.hideFromListings,
      after.cost,
    ]).toEqual([before.date, before.dateGmt, true, true, false, false, true, before.cost]);
    // No more requests than before verification: the read was needed for the complete state.
    expect(routes(s)).toEqual([ROUTE.legacyGet, ROUTE.legacyPatch]);
  });
});

describe('5, 6. the calendar-core PATCH of TEC 6.15', () => {
  let s: Site;
  beforeAll(async () => {
    s = await site({ tec: '6.15' });
  });
  afterAll(() => s.h.close());
  beforeEach(() => s.h.mark());

  it('5. updateEvent(title): sticky sent from the stored state; show_map and show_map_link, reset to true, restored through the legacy update', async () => {
    const id = await event(s);
    s.h.mark();
    const r = await s.h.gql(UPDATE, { id: String(id), input: { title: 'Core renamed' } }, 'admin');
    expect(r.errors).toBeUndefined();
    expect(r.data.updateEvent.event).toMatchObject({
      title: 'Core renamed',
      sticky: true,
      showMap: false,
      showMapLink: false,
      featured: true,
    });
    expect(stored(s, id)).toMatchObject({
      title: 'Core renamed',
      sticky: true,
      showMap: false,
      showMapLink: false,
      featured: true,
      hideFromListings: true,
      date: '2026-01-15 10:00:00',
    });
    // The stored state, the PATCH, the legacy-only fields read back, the repair.
    expect(routes(s)).toEqual([ROUTE.legacyGet, ROUTE.corePatch, ROUTE.legacyGet, ROUTE.legacyPost]);
  });

  it('5. nothing reset (show_map and show_map_link already true): no repair, one read back', async () => {
    const id = await event(s, { show_map: true, show_map_link: true });
    s.h.mark();
    const r = await s.h.gql(UPDATE, { id: String(id), input: { title: 'Core renamed' } }, 'admin');
    expect(r.errors).toBeUndefined();
    expect(stored(s, id)).toMatchObject({ sticky: true, showMap: true, showMapLink: true });
    expect(routes(s)).toEqual([ROUTE.legacyGet, ROUTE.corePatch, ROUTE.legacyGet]);
  });

  it('6. updateEvent(featured: false): the PATCH ignores it, the legacy update writes it; the payload says false', async () => {
    const id = await event(s);
    s.h.mark();
    const r = await s.h.gql(UPDATE, { id: String(id), input: { featured: false } }, 'admin');
    expect(r.errors).toBeUndefined();
    expect(r.data.updateEvent.event.featured).toBe(false);
    expect(stored(s, id)).toMatchObject({ featured: false, sticky: true, showMap: false, showMapLink: false });
    // The PATCH's answer already shows featured ignored, so the legacy repair follows at once, without
    // reading the legacy-only fields back: it sends the complete state as read before, and its answer shows them.
    expect(routes(s)).toEqual([ROUTE.legacyGet, ROUTE.corePatch, ROUTE.legacyPost]);
  });

  it('an update of legacy-only fields alone goes through the legacy update alone: one read, one write', async () => {
    const id = await event(s);
    s.h.mark();
    const r = await s.h.gql(UPDATE, { id: String(id), input: { website: 'https://example.org/only-legacy' } }, 'admin');
    expect(r.errors).toBeUndefined();
    expect(stored(s, id)).toMatchObject({
      website: 'https://example.org/only-legacy',
      sticky: true,
      showMap: false,
      featured: true,
      date: '2026-01-15 10:00:00',
    });
    expect(routes(s)).toEqual([ROUTE.legacyGet, ROUTE.legacyPatch]);
  });

  it('6. in bulk: each item repaired, results in input order', async () => {
    const ids = [await event(s), await event(s), await event(s)];
    s.h.mark();
    const r = await s.h.gql(
      `mutation($inputs: [EventUpdateInput!]!) { updateEvents(inputs: $inputs) { written failed results { error { code } event { databaseId featured showMap } } } }`,
      { inputs: ids.map((id) => ({ id: String(id), input: { featured: false } })) },
      'admin',
    );
    expect(r.data.updateEvents).toMatchObject({ written: 3, failed: 0 });
    expect(r.data.updateEvents.results.map((x: any) => x.event)).toEqual(
      ids.map((id) => ({ databaseId: id, featured: false, showMap: false })),
    );
    for (const id of ids) expect(stored(s, id)).toMatchObject({ featured: false, sticky: true, showMap: false });
  });

  it('a venue whose legacy-only field the calendar-core PATCH changed (as a release that resets it would): restored through the legacy venue route', async () => {
    const id = (
      await s.rest.send(
        'POST',
        '/calendar/events/v1/venues',
        { venue: 'Reset hall', show_map: '0', show_map_link: '0' },
        'admin',
      )
    ).body.id;
    // The first write of this venue (the PATCH) turns show_map on behind the caller's back.
    const store = s.h.sandbox.site.store;
    const update = store.updatePost.bind(store);
    let first = true;
    store.updatePost = ((postId: number, patch: Parameters<typeof update>[1]) => {
      const out = update(postId, patch);
      if (postId !== id || !first) return out;
      first = false;
      return update(postId, { meta: { showMap: true } });
    }) as typeof store.updatePost;
    try {
      s.h.mark();
      const r = await s.h.gql(
        `mutation($id: ID!) { updateVenue(id: $id, input: { city: "Lille" }) { venue { city showMap } } }`,
        { id: String(id) },
        'admin',
      );
      expect(r.errors).toBeUndefined();
      expect(r.data.updateVenue.venue).toEqual({ city: 'Lille', showMap: false });
      expect(stored(s, id)).toMatchObject({ city: 'Lille', showMap: false, showMapLink: false });
      // The stored state, the PATCH, the legacy-only fields read back, the repair of that one field.
      expect(routes(s)).toEqual([
        'GET /calendar/events/v1/venues/(?P<id>\\d+)',
        'PATCH /calendar-core/v1/venues/(?P<id>\\d+)',
        'GET /calendar/events/v1/venues/(?P<id>\\d+)',
        'POST /calendar/events/v1/venues/(?P<id>\\d+)',
      ]);
    } finally {
      store.updatePost = update;
    }
  });

  it('a read back that fails: written, not verified, and said so (no success claimed)', async () => {
    const id = await event(s, { show_map: true, show_map_link: true });
    // Once the PATCH is stored, the next legacy read of the event fails.
    const store = s.h.sandbox.site.store;
    const update = store.updatePost.bind(store);
    store.updatePost = ((postId: number, patch: Parameters<typeof update>[1]) => {
      if (postId === id)
        s.h.sandbox.faults.add({ path: `^/calendar/events/v1/events/${id}$`, method: 'GET', status: 503, times: 1 });
      return update(postId, patch);
    }) as typeof store.updatePost;
    try {
      const r = await s.h.gql(UPDATE, { id: String(id), input: { title: 'Unchecked' } }, 'admin');
      expect(r.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', databaseId: id });
      expect(r.errors![0]!.message).toMatch(
        /^Written \(ID \d+\), but .*showMap.* could not be read back to check them/,
      );
      expect(stored(s, id).title).toBe('Unchecked');
    } finally {
      store.updatePost = update;
      s.h.sandbox.faults.clear();
    }
  });

  it('a site that keeps contradicting the write after the repair: WRITE_NOT_APPLIED naming the field, what was asked and what was kept', async () => {
    const id = await event(s);
    // The legacy repair answers 200 but keeps the event featured (as if a plugin forced it).
    const body = (await s.rest.get(`/calendar/events/v1/events/${id}`, 'admin')).body;
    s.h.sandbox.faults.add({
      path: `^/calendar/events/v1/events/${id}$`,
      method: 'POST',
      status: 200,
      body: { ...body, featured: true },
      times: 1,
    });
    s.h.mark();
    const r = await s.h.gql(UPDATE, { id: String(id), input: { featured: false } }, 'admin');
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'WRITE_NOT_APPLIED',
      databaseId: id,
      arguments: ['input.featured'],
      notApplied: [{ field: 'featured', path: ['input', 'featured'], reason: 'IGNORED', asked: false, kept: true }],
    });
    expect(r.errors![0]!.message).toMatch(
      /^Written \(ID \d+\) and repaired once, but the site did not keep what was asked: featured \(asked false, the site kept true\)/,
    );
  });

  it('a bulk item the site does not apply: WRITE_NOT_APPLIED on that item (its object returned: written, not as asked), the others written', async () => {
    const [a, b] = [await event(s), await event(s)];
    const body = (await s.rest.get(`/calendar/events/v1/events/${a}`, 'admin')).body;
    s.h.sandbox.faults.add({
      path: `^/calendar/events/v1/events/${a}$`,
      method: 'POST',
      status: 200,
      body: { ...body, featured: true },
      times: 1,
    });
    const r = await s.h.gql(
      `mutation($inputs: [EventUpdateInput!]!) { updateEvents(inputs: $inputs) { written failed results { error { code path notApplied { field reason asked kept } } event { databaseId } } } }`,
      { inputs: [a, b].map((id) => ({ id: String(id), input: { featured: false } })) },
      'admin',
    );
    expect(r.data.updateEvents).toMatchObject({ written: 2, failed: 1 });
    expect(r.data.updateEvents.results[0]).toEqual({
      error: {
        code: 'WRITE_NOT_APPLIED',
        path: ['inputs', '0', 'input', 'featured'],
        notApplied: [{ field: 'featured', reason: 'IGNORED', asked: false, kept: true }],
      },
      event: { databaseId: a },
    });
    expect(r.data.updateEvents.results[1]).toEqual({ error: null, event: { databaseId: b } });
  });
});

describe('7. calendar-core categories under the spelling the route declares (TEC 6.15, plugin names: tribe_events_cat)', () => {
  let s: Site;
  const cats: number[] = [];
  beforeAll(async () => {
    s = await site({ tec: '6.15', names: 'plugin' });
    for (const i of [0, 1])
      cats.push(
        (await s.rest.send('POST', s.path('/calendar/events/v1/categories'), { name: `Spelled ${i}` }, 'admin')).body
          .id,
      );
  });
  afterAll(() => s.h.close());
  beforeEach(() => s.h.mark());

  const when = { startDate: '2031-04-01T10:00:00Z', endDate: '2031-04-01T11:00:00Z' };

  it('createEvent, createEvents and updateEvent store the categories asked', async () => {
    const one = await s.h.gql(
      `mutation($i: EventInput!) { createEvent(input: $i) { event { databaseId categories { databaseId } } } }`,
      { i: { title: 'Cat one', ...when, categoryIds: [cats[0]] } },
      'admin',
    );
    expect(one.errors).toBeUndefined();
    const id = one.data.createEvent.event.databaseId;
    expect(one.data.createEvent.event.categories).toEqual([{ databaseId: cats[0] }]);
    expect(stored(s, id).categories).toEqual([cats[0]]);

    const many = await s.h.gql(
      `mutation($inputs: [EventInput!]!) { createEvents(inputs: $inputs) { failed results { databaseId } } }`,
      { inputs: [0, 1].map((i) => ({ title: `Cat many ${i}`, ...when, categoryIds: [cats[i]] })) },
      'admin',
    );
    expect(many.data.createEvents.failed).toBe(0);
    many.data.createEvents.results.forEach((x: any, i: number) =>
      expect(stored(s, x.databaseId).categories).toEqual([cats[i]]),
    );

    s.h.mark();
    const up = await s.h.gql(UPDATE, { id: String(id), input: { categoryIds: [cats[1]] } }, 'admin');
    expect(up.errors).toBeUndefined();
    expect(up.data.updateEvent.event.categories).toEqual([{ databaseId: cats[1] }]);
    expect(stored(s, id).categories).toEqual([cats[1]]);
    // Nothing the route does not declare was sent.
    expect(s.h.calls().filter((c) => c.undeclared?.length)).toEqual([]);
  });

  it('a field no route of the site declares (virtual on 6.15) is refused before anything is sent', async () => {
    const r = await s.h.gql(
      `mutation($i: EventInput!) { createEvent(input: $i) { event { databaseId } } }`,
      { i: { title: 'Virtual', ...when, virtual: true } },
      'admin',
    );
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'WRITE_NOT_APPLIED',
      notApplied: [{ field: 'virtual', reason: 'UNDECLARED', asked: true, kept: null }],
    });
    expect(r.errors![0]!.message).toContain(
      'virtual: this site does not declare it on POST /calendar-core/v1/events nor on POST /calendar/events/v1/events/<id>',
    );
    expect(s.h.calls().filter((c) => c.method !== 'GET')).toEqual([]);
  });
});
