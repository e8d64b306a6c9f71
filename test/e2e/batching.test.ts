/**
 * Fewest upstream calls: exact counts from the sandbox's request log
 * (issue: "Fewest upstream calls"). The sandbox adds 15 ms to every answer so
 * sequential round trips are unmistakable in the log's timings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

describe('upstream calls per operation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { latencyMs: 15 } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('lists 20 events with venues and organizers in exactly 1 upstream request', async () => {
    const r = await h.gql(`{ events(first: 20) { totalCount nodes { title startDate venues { title city } organizers { title } } } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes).toHaveLength(20);
    expect(r.data.events.totalCount).toBeGreaterThan(400);
    expect(r.data.events.nodes.some((n: any) => n.venues.length > 0 && n.venues[0].city)).toBe(true);
    expect(r.data.events.nodes.some((n: any) => n.organizers.length > 0)).toBe(true);
    expect(h.calls()).toHaveLength(1);
    expect(h.calls()[0]).toMatchObject({ method: 'GET', path: '/calendar-core/v1/events', query: { per_page: '20', page: '1' } });
  });

  it('adds categories and tags in at most 3 requests over 2 round trips', async () => {
    const r = await h.gql(`{ events(first: 20) { totalCount nodes { title passwordProtected startDate venues { title city } organizers { title } categories { name } tags { name } } } }`);
    expect(r.errors).toBeUndefined();
    const open = r.data.events.nodes.filter((n: any) => !n.passwordProtected);
    expect(open.every((n: any) => n.categories.length > 0 && n.categories.every((c: any) => typeof c.name === 'string'))).toBe(true);
    expect(open.some((n: any) => n.tags.length > 0)).toBe(true);
    expect(h.calls().length).toBeLessThanOrEqual(3);
    expect(h.roundTrips()).toBeLessThanOrEqual(2);
  });

  it('fetches first: 250 as page 1, then the other pages in parallel: 3 requests, 2 round trips', async () => {
    const r = await h.gql(`{ events(first: 250) { totalCount pageInfo { hasNextPage endCursor } nodes { databaseId } } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes).toHaveLength(250);
    expect(new Set(r.data.events.nodes.map((n: any) => n.databaseId)).size).toBe(250);
    expect(r.data.events.pageInfo.hasNextPage).toBe(true);
    expect(h.calls()).toHaveLength(3);
    expect(h.roundTrips()).toBe(2);
  });

  it('refuses first above the cap with a clear error', async () => {
    const r = await h.gql(`{ events(first: 501) { nodes { databaseId } } }`);
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0]?.message).toMatch(/first must be at most 500/);
    expect(h.calls()).toHaveLength(0);
  });

  it('batches twenty aliased event(id:) fields into 1 request, duplicates fetched once', async () => {
    const list = await h.gql(`{ events(first: 15) { nodes { databaseId title } } }`);
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

  it('fetches each venue and organizer at most once however many events share them', async () => {
    // Embedded objects serve title/phone without any call; showMap (legacy-only) needs each venue's legacy copy once.
    const r = await h.gql(`{ events(first: 100) { nodes { venues { databaseId title phone showMap } organizers { title email } } } }`);
    expect(r.errors).toBeUndefined();
    const venueIds = new Set(r.data.events.nodes.flatMap((n: any) => n.venues.map((v: any) => v.databaseId)));
    const references = r.data.events.nodes.flatMap((n: any) => n.venues).length;
    expect(references).toBeGreaterThan(venueIds.size);
    const venueCalls = h.calls().filter((c) => /\/venues\/\d+$/.test(c.path));
    expect(new Set(venueCalls.map((c) => c.path)).size).toBe(venueCalls.length);
    expect(venueCalls).toHaveLength(venueIds.size);
    expect(h.calls().filter((c) => /organizers/.test(c.path))).toHaveLength(0);
  });

  it('does not share loaders between requests or callers', async () => {
    const q = `{ a: event(id: "5", idType: DATABASE_ID) { databaseId } }`;
    await h.gql(q);
    await h.gql(q, undefined, 'admin');
    expect(h.calls()).toHaveLength(2);
  });
});
