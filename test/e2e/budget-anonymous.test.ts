/**
 * Budgets by caller kind (docs/graph.md "Budget, deadline, cancellation"): an
 * operation the site sees as anonymous may send UPSTREAM_BUDGET_ANONYMOUS (50)
 * requests, one with a credential UPSTREAM_BUDGET (500).
 *
 * - Before sending: a query whose estimate of site requests (limits.ts
 *   `siteRequests`) is over its caller's budget is refused with the estimate
 *   and the limit, and the site gets no request at all. The nested query that
 *   used to spend 41 to 50 requests anonymously and then answer half of
 *   itself is refused up front; other amplifying shapes too.
 * - The canonical front-end reads (a first query, an event page, a listing, a
 *   month, a venue page, a page of posts, a bulk pull's page) pass
 *   anonymously, each within its estimate.
 * - The runtime budget stays the backstop where the estimate is short (a read
 *   the estimate does not count): it stops at the budget, naming the limit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const NESTED = '{ events(first: 100) { nodes { venues { events(first: 100) { nodes { title } } } } } }';

describe('the budget, before anything is sent and as it is spent', () => {
  let h: Harness;
  let venueIds: string[];
  beforeAll(async () => {
    h = await startHarness();
    const venues = (await h.gql('{ venues(first: 100) { nodes { id } } }')).data.venues.nodes.map(
      (v: { id: string }) => v.id,
    );
    // 100 IDs (MAX_LIST_ITEMS), the sandbox's venues over again: the estimate counts each.
    venueIds = Array.from({ length: 100 }, (_, i) => venues[i % venues.length]);
  }, 60_000);
  afterAll(() => h?.close());
  beforeEach(() => h.mark());

  it('refuses the nested query sent anonymously before sending anything, with the estimate and the limit', async () => {
    const r = await h.gql(NESTED);
    expect(r.status).toBe(400);
    expect(r.data).toBeUndefined();
    expect(r.errors).toHaveLength(1);
    // 2 pages of 50 events, then each of 100 events' venue's 2 pages of events.
    expect(r.errors![0]!.extensions).toEqual({
      code: 'REQUEST_BUDGET_EXCEEDED',
      estimate: 202,
      budget: 50,
      limit: 'UPSTREAM_BUDGET_ANONYMOUS',
    });
    expect(r.errors![0]!.message).toMatch(
      /anonymous query may need about 202 requests to the site, over its budget of 50 \(UPSTREAM_BUDGET_ANONYMOUS\), so none was sent/,
    );
    expect(h.calls()).toEqual([]);
  });

  it('serves it to a caller with a credential (202 of 500), within its estimate', async () => {
    const r = await h.gql(NESTED, {}, 'admin');
    expect(r.errors ?? []).toEqual([]);
    expect(r.data.events.nodes).toHaveLength(100);
    expect(h.calls().length).toBeGreaterThan(50);
    expect(h.calls().length).toBeLessThanOrEqual(202);
  });

  it.each([
    {
      shape: 'lists under a list of 300 venues (606 of 500)',
      query: '{ venues(first: 300) { nodes { title events(first: 100) { nodes { title } } } } }',
      who: 'admin' as const,
      estimate: 606,
    },
    {
      shape: 'a list under each of 100 IDs (102 of 50)',
      query: 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on Venue { events(first: 10) { nodes { title } } } } }',
      who: null,
      estimate: 102,
    },
  ])('refuses an amplifying shape: $shape', async ({ query, who, estimate }) => {
    const variables = { ids: venueIds };
    const r = await h.gql(query, variables, who);
    expect(r.status).toBe(400);
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'REQUEST_BUDGET_EXCEEDED',
      estimate,
      limit: who ? 'UPSTREAM_BUDGET' : 'UPSTREAM_BUDGET_ANONYMOUS',
    });
    expect(h.calls()).toEqual([]);
  });

  it('refuses six aliased bulk pages anonymously (60 of 50), and serves five (50 of 50) and, with a credential, six', async () => {
    const query = `{ ${[1, 2, 3, 4, 5, 6].map((i) => `a${i}: events(first: 500) { nodes { title } }`).join(' ')} }`;
    const anonymous = await h.gql(query);
    expect(anonymous.errors![0]!.extensions).toMatchObject({
      code: 'REQUEST_BUDGET_EXCEEDED',
      estimate: 60,
      budget: 50,
    });
    expect(h.calls()).toEqual([]);
    const five = await h.gql(
      `{ ${[1, 2, 3, 4, 5].map((i) => `a${i}: events(first: 500) { nodes { title } }`).join(' ')} }`,
    );
    expect(five.errors ?? []).toEqual([]);
    const admin = await h.gql(query, {}, 'admin');
    expect(admin.errors ?? []).toEqual([]);
  });

  it.each([
    {
      read: 'the README first query',
      query:
        '{ site { name timezone } event(id: "208") { title venues { title city } organizers { title } categories { name } } categories(first: 2, where: { parent: 0 }) { nodes { name children { name } } } }',
    },
    {
      read: 'an event page',
      query:
        '{ event(id: "208") { title description startDate endDate allDay cost website venues { title address city } organizers { title email } categories { name } tags { name } } }',
    },
    {
      read: 'a listing',
      query:
        '{ events(first: 20) { pageInfo { hasNextPage endCursor } nodes { id title startDate venues { title city } organizers { title } categories { name } } } }',
    },
    {
      read: 'a month',
      query:
        '{ events(first: 100, where: { startsAfter: "2020-01-01", startsBefore: "2030-12-31" }) { nodes { title startDate endDate allDay venues { title } } } }',
    },
    {
      read: 'a venue page with its next events',
      query: '{ venues(first: 1) { nodes { title address city events(first: 10) { nodes { title startDate } } } } }',
    },
    { read: 'a page of posts', query: '{ posts(first: 10) { nodes { title slug publishedAt excerpt } } }' },
    {
      read: "a bulk pull's page",
      query:
        '{ events(first: 500) { pageInfo { hasNextPage endCursor } nodes { id title startDate endDate venues { title } organizers { title } } } }',
    },
  ])('serves a canonical front-end read anonymously: $read', async ({ query }) => {
    const r = await h.gql(query);
    expect(r.status, JSON.stringify(r.errors)).toBe(200);
    expect((r.errors ?? []).filter((e) => e.extensions?.code === 'REQUEST_BUDGET_EXCEEDED')).toEqual([]);
    expect(h.calls().length).toBeLessThanOrEqual(50);
  });

  it('keeps the runtime budget as the backstop where the estimate is short, naming the limit', async () => {
    // A budget of 2: the estimate counts the list (1), not the site's index or the single event's lookups.
    const low = await startHarness({
      config: { session: { budget: 2, anonymousBudget: 2, deadlineMs: 15_000, siteRetryMs: 5_000 } },
    });
    try {
      low.mark();
      const r = await low.gql(
        '{ a: event(id: "208") { title } b: event(id: "209") { title } c: venue(id: "1") { title } events(first: 1) { nodes { title } } }',
      );
      expect(r.status).toBe(200);
      const over = r.errors!.find((e) => e.extensions?.code === 'REQUEST_BUDGET_EXCEEDED')!;
      expect(over.extensions).toMatchObject({ limit: 'UPSTREAM_BUDGET', budget: 2 });
      expect(over.message).toMatch(/operation used its budget of 2 upstream requests \(UPSTREAM_BUDGET\)/);
      expect(low.calls().filter((c) => c.path !== '/').length).toBeLessThanOrEqual(2);
    } finally {
      await low.close();
    }
  });
});
