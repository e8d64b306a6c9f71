/**
 * One graph over two calendar interfaces: event lists prefer the legacy
 * interface (faster on real sites, and it filters by term), calendar-core/v1
 * serves the filters only it has, fields only the other interface serves are
 * fetched batched, and what a site cannot do is said clearly.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

describe('a site with both interfaces', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('reads legacy-only fields of a core list in one batched legacy request', async () => {
    // `orderBy` pins calendar-core/v1 (the legacy list has no order). The events are upcoming, inside include='s window.
    const r = await h.gql(
      `{ events(first: 20, orderBy: { field: START_DATE }, where: { startDate: "${new Date(Date.now() + 86_400_000).toISOString()}" }) { nodes { databaseId passwordProtected title website hideFromListings showMap costDetails { currencyCode values } timezoneAbbr } } }`,
    );
    expect(r.errors).toBeUndefined();
    // Password-protected events stay masked (null), so they need no legacy copy.
    const open = r.data.events.nodes.filter((n: any) => !n.passwordProtected);
    // Read from the legacy copies: a website where the event has one, null where the legacy read shows only the permalink.
    expect(
      open.every((n: any) => n.website === null || (typeof n.website === 'string' && n.website.startsWith('http'))),
    ).toBe(true);
    expect(open.some((n: any) => typeof n.website === 'string')).toBe(true);
    expect(open.every((n: any) => n.costDetails && typeof n.costDetails.currencyCode === 'string')).toBe(true);
    const calls = h.calls();
    expect(calls.map((c) => c.path)).toEqual(['/calendar-core/v1/events', '/calendar/events/v1/events']);
    expect(String(calls[1]!.query.include).split(',').map(Number).sort()).toEqual(
      open.map((n: any) => n.databaseId).sort(),
    );
  });

  it('reads core-only fields of events fetched by ID from the core interface', async () => {
    const id = (
      await h.gql(
        `{ events(first: 1, where: { startDate: "${new Date(Date.now() + 86_400_000).toISOString()}" }) { nodes { databaseId } } }`,
      )
    ).data.events.nodes[0].databaseId;
    h.mark();
    const r = await h.gql(
      `{ a: event(id: "${id}", idType: DATABASE_ID) { title virtual commentStatus duration scheduleDetails } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(typeof r.data.a.virtual).toBe('boolean');
    expect(typeof r.data.a.duration).toBe('number');
    expect(h.calls().map((c) => c.path)).toEqual(['/calendar/events/v1/events', `/calendar-core/v1/events/${id}`]);
  });

  it('gives the same dates and venues whichever interface served the event', async () => {
    const list = await h.gql(
      `{ events(first: 5) { nodes { databaseId title startDate endDate startDateUtc endDateUtc timezone allDay duration venues { databaseId title } organizers { databaseId } } } }`,
    );
    for (const n of list.data.events.nodes) {
      const one = await h.gql(
        `{ event(id: "${n.databaseId}", idType: DATABASE_ID) { databaseId title startDate endDate startDateUtc endDateUtc timezone allDay duration venues { databaseId title } organizers { databaseId } } }`,
      );
      expect(one.data.event).toEqual(n);
    }
  });

  it('resolves global IDs through node(id:) and the same object through event(id:)', async () => {
    const r = await h.gql(`{ events(first: 1) { nodes { id databaseId venues { id databaseId } } } }`);
    const ev = r.data.events.nodes[0];
    const n = await h.gql(
      `query($id: ID!) { node(id: $id) { id ... on Event { databaseId } } byGlobal: event(id: $id) { databaseId } }`,
      { id: ev.id },
    );
    expect(n.data.node).toEqual({ id: ev.id, databaseId: ev.databaseId });
    expect(n.data.byGlobal.databaseId).toBe(ev.databaseId);
    const bad = await h.gql(`{ event(id: "not-an-id") { title } }`);
    expect(bad.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
  });

  it('finds events, venues and organizers by slug, and returns null for unknown ones', async () => {
    const r = await h.gql(`{ events(first: 1) { nodes { slug venues { slug } organizers { slug } } } }`);
    const ev = r.data.events.nodes.find((n: any) => n.venues.length) ?? r.data.events.nodes[0];
    const s = await h.gql(
      `{ event(id: "${ev.slug}", idType: SLUG) { slug } missing: event(id: "no-such-event-slug", idType: SLUG) { slug } }`,
    );
    expect(s.data.event.slug).toBe(ev.slug);
    expect(s.data.missing).toBeNull();
  });

  it('pages with cursors forwards and backwards without gaps or repeats', async () => {
    const all = await h.gql(`{ events(first: 30) { nodes { databaseId } } }`);
    const ids = all.data.events.nodes.map((n: any) => n.databaseId);
    const p1 = await h.gql(
      `{ events(first: 12) { edges { cursor node { databaseId } } pageInfo { hasNextPage hasPreviousPage endCursor } } }`,
    );
    const p2 = await h.gql(
      `query($a: String) { events(first: 18, after: $a) { nodes { databaseId } pageInfo { hasPreviousPage startCursor } } }`,
      { a: p1.data.events.pageInfo.endCursor },
    );
    expect([
      ...p1.data.events.edges.map((e: any) => e.node.databaseId),
      ...p2.data.events.nodes.map((n: any) => n.databaseId),
    ]).toEqual(ids);
    expect(p1.data.events.pageInfo.hasPreviousPage).toBe(false);
    expect(p2.data.events.pageInfo.hasPreviousPage).toBe(true);
    const back = await h.gql(`query($b: String) { events(last: 5, before: $b) { nodes { databaseId } } }`, {
      b: p2.data.events.pageInfo.startCursor,
    });
    expect(back.data.events.nodes.map((n: any) => n.databaseId)).toEqual(ids.slice(7, 12));
    const tail = await h.gql(
      `{ events(last: 3) { totalCount nodes { databaseId } pageInfo { hasNextPage hasPreviousPage } } }`,
    );
    expect(tail.data.events.nodes).toHaveLength(3);
    expect(tail.data.events.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
  });

  it('says on the admin listener which interface the site reading found, without reading it again', async () => {
    const res = await fetch(`${h.gateway.adminUrl}/readyz`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).calendarInterface).toBe('LEGACY');
    expect(h.calls()).toEqual([]);
  });

  it('serves /healthz, and Prometheus /metrics with upstream counters on the admin listener', async () => {
    await h.gql(`{ events(first: 1) { nodes { title } } }`);
    expect((await fetch(new URL('/healthz', h.gateway.url))).status).toBe(200);
    const text = await (await fetch(`${h.gateway.adminUrl}/metrics`)).text();
    expect(text).toMatch(
      /sitegraph_upstream_requests_total\{route="GET \/calendar\/events\/v1\/events",status="200"\} \d+/,
    );
    expect(text).toMatch(/sitegraph_graphql_requests_total/);
  });
});

describe('a site without calendar-core/v1', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { disable: ['calendar-core/v1'] } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('lists events from the legacy interface with the same meaning', async () => {
    const r = await h.gql(
      `{ site { calendarInterface } events(first: 5) { totalCount nodes { title startDate venues { title } categories { name } virtual } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.site.calendarInterface).toBe('LEGACY');
    expect(r.data.events.nodes).toHaveLength(5);
    expect(r.data.events.nodes[0].virtual).toBeNull();
    expect(h.calls()).toHaveLength(1);
    expect(h.calls()[0]).toMatchObject({
      path: '/calendar/events/v1/events',
      query: { status: 'publish', start_date: '1900-01-01 00:00:00', end_date: '9998-12-31 23:59:59' },
    });
  });

  it('refuses calendar-core-only filters and series, saying why', async () => {
    let r = await h.gql(`{ events(where: { near: "Paris" }) { nodes { title } } }`);
    expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(r.errors![0]!.message).toMatch(/where\.near needs calendar-core\/v1, which this site does not offer/);
    r = await h.gql(`{ series { nodes { title } } }`, undefined, 'admin');
    expect(r.errors![0]!.extensions!.code).toBe('NAMESPACE_UNAVAILABLE');
    expect(h.calls()).toHaveLength(0);
  });
});

describe('a site without the legacy interface', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { disable: ['calendar/events/v1'] } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('reads events by ID from calendar-core, in parallel, and keeps term IDs', async () => {
    const [x, y] = (await h.gql(`{ events(first: 2) { nodes { databaseId } } }`)).data.events.nodes.map(
      (n: any) => n.databaseId,
    );
    h.mark();
    const r = await h.gql(
      `{ a: event(id: "${x}", idType: DATABASE_ID) { title categories { databaseId name } } b: event(id: "${y}", idType: DATABASE_ID) { title } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.a.categories.length).toBeGreaterThan(0);
    expect(r.data.a.categories[0].name).toBeNull();
    expect(
      h
        .calls()
        .map((c) => c.path)
        .sort(),
    ).toEqual([`/calendar-core/v1/events/${x}`, `/calendar-core/v1/events/${y}`].sort());
  });

  it('refuses legacy-only filters and term lists clearly', async () => {
    let r = await h.gql(`{ events(where: { categorySlugs: ["music"] }) { nodes { title } } }`);
    expect(r.errors![0]!.message).toMatch(/needs calendar\/events\/v1/);
    r = await h.gql(`{ categories { nodes { name } } }`);
    expect(r.errors![0]!.extensions!.code).toBe('NAMESPACE_UNAVAILABLE');
  });
});
