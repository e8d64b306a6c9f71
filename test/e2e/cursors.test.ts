/**
 * Cursors survive a list that changes during a walk (paging/window.ts keyset
 * cursors): a back-end job paging every event while editors add and remove
 * events sees each event that existed for the whole walk exactly once. The
 * changes are made directly on the site (not through the gateway), before the
 * position the walk has reached, where offset cursors would repeat or skip.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE_SHAPES, startHarness, type GqlResult, type Harness } from '../helpers/gateway.ts';
import { restClient, type RestClient } from '../helpers/sandbox.ts';
import { walkWhileChanging } from '../helpers/changing-walk.ts';

const PAGE = `query($after: String) { events(first: 40, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { databaseId } } }`;

// Also with the upstream cache on and warm: a walk's pages are read from the site (paging/window.ts), or a
// page cached before a change, joined to pages read after it, would skip an event.
const CASES = [
  ...RELEASE_SHAPES.slice(0, 2).map((s) => ({ ...s, cache: 0 })),
  { ...RELEASE_SHAPES[0]!, shape: `${RELEASE_SHAPES[0]!.shape}, upstream cache on and warm`, cache: 300 },
];

describe.each(CASES)('cursors over a changing list ($shape)', ({ sandbox, cache }) => {
  let h: Harness;
  let api: RestClient;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { ...sandbox, events: 300 }, config: { cache: { ttlSeconds: cache } } });
    api = restClient(h.sandbox);
  });
  afterAll(() => h.close());

  let made = 0;
  /** An event that starts before every other, so it lands before the walk's position. */
  async function early(): Promise<number> {
    made++;
    const day = String(1 + (made % 27)).padStart(2, '0');
    const r = await api.send(
      'POST',
      '/calendar/events/v1/events',
      {
        title: `Inserted ${made}`,
        status: 'publish',
        start_date: `2001-01-${day} 10:00:00`,
        end_date: `2001-01-${day} 11:00:00`,
      },
      'admin',
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as number;
  }

  async function remove(id: number): Promise<void> {
    const r = await api.send('DELETE', `/calendar/events/v1/events/${id}`, undefined, 'admin');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }

  it('pages every event once while events are added and removed before the position reached', async () => {
    const start = await h.gql(`{ events(first: 500) { nodes { databaseId } } }`);
    const initial: number[] = start.data.events.nodes.map((n: { databaseId: number }) => n.databaseId);
    expect(initial.length).toBeGreaterThan(200);
    if (cache) {
      // Every page of the walk read once before anything changes: what a cache would then answer.
      for (let after: string | null = null, more = true; more;) {
        const r: GqlResult = await h.gql(PAGE, { after });
        ({ hasNextPage: more, endCursor: after } = r.data.events.pageInfo);
      }
    }
    // Between pages: three events added before everything, one seen event removed,
    // and one not yet seen removed (it did not exist for the whole walk).
    const walk = await walkWhileChanging(
      {
        page: async (after) => {
          const r: GqlResult = await h.gql(PAGE, { after });
          expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
          const { nodes, pageInfo } = r.data.events as {
            nodes: { databaseId: number }[];
            pageInfo: { hasNextPage: boolean; endCursor: string };
          };
          return {
            ids: nodes.map((n) => n.databaseId),
            hasNextPage: pageInfo.hasNextPage,
            endCursor: pageInfo.endCursor,
          };
        },
        insert: early,
        remove,
      },
      initial,
      { changes: 'between', maxPages: 100 },
    );
    expect(walk.removed).toBeGreaterThan(0);
    expect(walk.repeated, 'repeated').toEqual([]);
    expect(walk.skipped, 'skipped').toEqual([]);
  });

  it.runIf(cache > 0)(
    'reads a page placed by a cursor from the site each time, a first page from the cache',
    async () => {
      const first = await h.gql(PAGE, { after: null });
      h.mark();
      await h.gql(PAGE, { after: null });
      expect(h.calls()).toEqual([]);
      const after = first.data.events.pageInfo.endCursor as string;
      await h.gql(PAGE, { after });
      const once = h.calls().length;
      expect(once).toBeGreaterThan(0);
      h.mark();
      await h.gql(PAGE, { after });
      expect(h.calls()).toHaveLength(once);
    },
  );

  it('refuses a cursor of another list, or of the same list with other filters', async () => {
    const a = await h.gql(`{ events(first: 2) { pageInfo { endCursor } } }`);
    const cursor = a.data.events.pageInfo.endCursor;
    const other = await h.gql(
      `query($c: String) { events(first: 2, after: $c, where: { featured: true }) { nodes { databaseId } } }`,
      { c: cursor },
    );
    expect(other.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['after'] });
    expect(other.errors![0]!.message).toMatch(/another list/);
    const venues = await h.gql(`query($c: String) { venues(first: 2, after: $c) { nodes { databaseId } } }`, {
      c: cursor,
    });
    expect(venues.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['after'] });
  });

  it('keeps totalCount and last/before working with keyset cursors', async () => {
    const page = await h.gql(`{ events(first: 10) { totalCount pageInfo { endCursor } nodes { databaseId } } }`);
    const next = await h.gql(
      `query($c: String) { events(first: 5, after: $c) { totalCount pageInfo { hasPreviousPage startCursor } nodes { databaseId } } }`,
      { c: page.data.events.pageInfo.endCursor },
    );
    expect(next.data.events.totalCount).toBe(page.data.events.totalCount);
    expect(next.data.events.pageInfo.hasPreviousPage).toBe(true);
    await early();
    const back = await h.gql(`query($c: String) { events(last: 3, before: $c) { nodes { databaseId } } }`, {
      c: next.data.events.pageInfo.startCursor,
    });
    expect(back.errors).toBeUndefined();
    expect(back.data.events.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(
      page.data.events.nodes.slice(7).map((n: { databaseId: number }) => n.databaseId),
    );
  });
});
