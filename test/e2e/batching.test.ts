/**
 * Fewest upstream calls: exact counts from the sandbox's request log. The
 * sandbox adds 15 ms to every answer so sequential round trips are
 * unmistakable in the log's timings. Event lists go through the legacy
 * interface on both kinds of site (pages of at most 50); calendar-core/v1
 * serves the filters only it has (pages of 100).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SITE_SHAPES, startHarness, type Harness } from '../helpers/gateway.ts';

describe.each(SITE_SHAPES)('upstream calls per operation ($shape)', ({ sandbox }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { latencyMs: 15, ...sandbox } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('lists 20 events with venues, organizers, categories and tags in exactly 1 upstream request', async () => {
    const r = await h.gql(
      `{ events(first: 20) { totalCount nodes { title startDate venues { title city } organizers { title } categories { name } tags { name } } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes).toHaveLength(20);
    expect(r.data.events.totalCount).toBeGreaterThan(400);
    expect(r.data.events.nodes.some((n: any) => n.venues.length > 0 && n.venues[0].city)).toBe(true);
    expect(r.data.events.nodes.some((n: any) => n.organizers.length > 0)).toBe(true);
    // The legacy list embeds whole terms: no term request at all.
    expect(
      r.data.events.nodes.filter(
        (n: any) => n.categories.length > 0 && n.categories.every((c: any) => typeof c.name === 'string'),
      ).length,
    ).toBeGreaterThan(15);
    expect(r.data.events.nodes.some((n: any) => n.tags.length > 0)).toBe(true);
    expect(h.calls()).toHaveLength(1);
    expect(h.calls()[0]).toMatchObject({
      method: 'GET',
      path: '/calendar/events/v1/events',
      query: {
        per_page: '20',
        page: '1',
        status: 'publish',
        start_date: '1900-01-01 00:00:00',
        end_date: '9998-12-31 23:59:59',
      },
    });
  });

  it('fetches first: 250 as its 5 pages of 50 at once: 1 round trip', async () => {
    const r = await h.gql(
      `{ events(first: 250) { totalCount pageInfo { hasNextPage endCursor } nodes { databaseId } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes).toHaveLength(250);
    expect(new Set(r.data.events.nodes.map((n: any) => n.databaseId)).size).toBe(250);
    expect(r.data.events.pageInfo.hasNextPage).toBe(true);
    expect(h.calls()).toHaveLength(5);
    expect(
      h
        .calls()
        .map((c) => c.query.page)
        .sort(),
    ).toEqual(['1', '2', '3', '4', '5']);
    expect(h.roundTrips()).toBe(1);
  });

  it('keeps totalCount and hasNextPage right when a window runs past the end of the list, still 1 round trip', async () => {
    const all = await h.gql(`{ events(first: 1) { totalCount } }`);
    const total: number = all.data.events.totalCount;
    h.mark();
    // Offset total-30, 120 wide: three pages of 50, the last ones past the end.
    const after = Buffer.from(`cursor:${total - 31}`, 'utf8').toString('base64');
    const r = await h.gql(
      `query($after: String) { events(first: 120, after: $after) { totalCount pageInfo { hasNextPage hasPreviousPage } nodes { databaseId } } }`,
      { after },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes).toHaveLength(30);
    expect(r.data.events.totalCount).toBe(total);
    expect(r.data.events.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
    expect(h.calls().length).toBeGreaterThanOrEqual(2);
    expect(h.calls().every((c) => c.path === '/calendar/events/v1/events')).toBe(true);
    expect(h.roundTrips()).toBe(1);
  });

  it('refuses first above the cap with a clear error', async () => {
    const r = await h.gql(`{ events(first: 501) { nodes { databaseId } } }`);
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0]?.message).toMatch(/first must be at most 500/);
    expect(h.calls()).toHaveLength(0);
  });

  it('batches twenty aliased event(id:) fields into 1 request, duplicates fetched once', async () => {
    const list = await h.gql(
      `{ events(first: 15, where: { startDate: "${new Date(Date.now() + 86_400_000).toISOString()}" }) { nodes { databaseId title } } }`,
    );
    const ids: number[] = list.data.events.nodes.map((n: any) => n.databaseId);
    h.mark();
    const picks = [...ids, ...ids.slice(0, 5)];
    const query = `{ ${picks.map((id, i) => `e${i}: event(id: "${id}") { databaseId title }`).join(' ')} }`;
    const r = await h.gql(query);
    expect(r.errors).toBeUndefined();
    picks.forEach((id, i) => expect(r.data[`e${i}`].databaseId).toBe(id));
    expect(r.data.e15.title).toBe(list.data.events.nodes[0].title);
    const calls = h.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.path).toBe('/calendar/events/v1/events');
    const include = String(calls[0]!.query.include).split(',');
    expect(include).toHaveLength(15);
  });

  it('reads past events by ID one by one where include= cannot reach them: still batched, duplicates once', async () => {
    const past = await h.gql(
      `{ events(first: 3, where: { endDate: "${new Date(Date.now() - 30 * 86_400_000).toISOString()}" }) { nodes { databaseId title } } }`,
    );
    const ids: number[] = past.data.events.nodes.map((n: any) => n.databaseId);
    expect(ids).toHaveLength(3);
    h.mark();
    const r = await h.gql(
      `query($a: ID!, $b: ID!, $c: ID!) {
      a: event(id: $a, idType: DATABASE_ID) { databaseId title } b: event(id: $b, idType: DATABASE_ID) { databaseId }
      c: event(id: $c) { databaseId } again: event(id: $a, idType: DATABASE_ID) { databaseId }
    }`,
      { a: String(ids[0]), b: String(ids[1]), c: String(ids[2]) },
    );
    expect(r.errors).toBeUndefined();
    expect([r.data.a.databaseId, r.data.b.databaseId, r.data.c.databaseId, r.data.again.databaseId]).toEqual([
      ids[0],
      ids[1],
      ids[2],
      ids[0],
    ]);
    expect(r.data.a.title).toBe(past.data.events.nodes[0].title);
    // One include= list (which the site answers inside its default window: empty), then one single read per ID.
    const paths = h
      .calls()
      .map((c) => c.path)
      .sort();
    expect(paths).toEqual(
      ['/calendar/events/v1/events', ...ids.map((id) => `/calendar/events/v1/events/${id}`)].sort(),
    );
    expect(h.roundTrips()).toBe(2);
  });

  it('reads venues and organizers embedded in a list without any further request', async () => {
    const r = await h.gql(
      `{ events(first: 100) { nodes { venues { databaseId title phone showMap } organizers { title email } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const references = r.data.events.nodes.flatMap((n: any) => n.venues).length;
    expect(references).toBeGreaterThan(10);
    expect(h.calls()).toHaveLength(2);
    expect(h.calls().every((c) => c.path === '/calendar/events/v1/events')).toBe(true);
  });

  it('reads the category taxonomy for children in parallel with the list: 1 round trip, parents from it', async () => {
    const r = await h.gql(
      `{ categories(first: 20, where: { hideEmpty: false }) { nodes { name children { name } parent { name } } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.categories.nodes.some((n: any) => n.children.length > 0)).toBe(true);
    expect(r.data.categories.nodes.some((n: any) => n.parent !== null)).toBe(true);
    const calls = h.calls();
    expect(calls.every((c) => c.path === '/calendar/events/v1/categories' && c.query.include === undefined)).toBe(true);
    // The list page and the complete taxonomy (one page of 50 here), nothing by ID.
    expect(calls).toHaveLength(2);
    expect(h.roundTrips()).toBe(1);
  });

  it('leaves out the pages past the end of a list whose total an earlier operation saw', async () => {
    // A filter no other test uses, so nothing is known of this list yet.
    const all = await h.gql(`{ events(first: 1) { totalCount } }`);
    const after = Buffer.from(`cursor:${all.data.events.totalCount - 131}`, 'utf8').toString('base64');
    const q = `query($after: String) { events(first: 300, after: $after, where: { startDate: "2001-02-03T00:00:00Z" }) { totalCount nodes { databaseId } } }`;
    h.mark();
    const cold = await h.gql(q, { after });
    expect(cold.errors).toBeUndefined();
    const { totalCount: total, nodes } = cold.data.events;
    expect(nodes.length).toBeLessThan(200);
    // Nothing known yet: every page of 50 the window spans (7, within the cap of 10 in flight), at once.
    const offset = total - nodes.length;
    const spanned = Math.floor((offset + 299) / 50) - Math.floor(offset / 50) + 1;
    expect(h.calls()).toHaveLength(spanned);
    expect(h.roundTrips()).toBe(1);
    h.mark();
    const warm = await h.gql(q, { after });
    expect(warm.data.events).toEqual(cold.data.events);
    // Only the pages up to the list's end, still 1 round trip.
    expect(h.calls()).toHaveLength(Math.ceil(total / 50) - Math.floor(offset / 50));
    expect(h.calls().length).toBeLessThan(spanned);
    expect(h.roundTrips()).toBe(1);
  });

  it('does not share loaders between requests or callers', async () => {
    const q = `{ a: event(id: "5", idType: DATABASE_ID) { databaseId } }`;
    await h.gql(q);
    const one = h.calls().length;
    await h.gql(q, undefined, 'admin');
    expect(h.calls().length).toBe(2 * one);
  });
});

describe('upstream calls of lists served by calendar-core/v1', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { latencyMs: 15 } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('fetches first: 250 as its 3 pages of 100 at once: 1 round trip', async () => {
    const r = await h.gql(`{ events(first: 250, orderBy: { field: START_DATE }) { nodes { databaseId } } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes).toHaveLength(250);
    expect(h.calls()).toHaveLength(3);
    expect(h.calls().every((c) => c.path === '/calendar-core/v1/events')).toBe(true);
    expect(h.roundTrips()).toBe(1);
  });

  it('fetches each venue once for a field only the legacy interface has, however many events share it', async () => {
    // Embedded objects serve title/phone without any call; showMap (legacy-only) needs each venue's legacy copy once.
    const r = await h.gql(
      `{ events(first: 100, orderBy: { field: START_DATE }) { nodes { venues { databaseId title phone showMap } organizers { title email } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const venueIds = new Set(r.data.events.nodes.flatMap((n: any) => n.venues.map((v: any) => v.databaseId)));
    const references = r.data.events.nodes.flatMap((n: any) => n.venues).length;
    expect(references).toBeGreaterThan(venueIds.size);
    const venueCalls = h.calls().filter((c) => /\/venues\/\d+$/.test(c.path));
    expect(new Set(venueCalls.map((c) => c.path)).size).toBe(venueCalls.length);
    expect(venueCalls).toHaveLength(venueIds.size);
    expect(h.calls().filter((c) => /organizers/.test(c.path))).toHaveLength(0);
  });
});
