/**
 * Loaders split IDs into pages with DataLoader's `maxBatchSize` (the legacy
 * list takes at most 50 `include=` IDs): 60 events by ID are 2 list requests
 * of 50 and 10 IDs, sent together in 1 round trip. (Terms by ID share the same
 * option; the sandbox has too few categories to fill two pages.)
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

describe('loaders by ID over more than one page of include= IDs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { latencyMs: 15 } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const byIds = (type: string, field: string) =>
    `query($ids: [ID!]!) { nodes(ids: $ids) { ... on ${type} { databaseId ${field} } } }`;
  const includeSizes = (path: string) =>
    h
      .calls()
      .filter((c) => c.path === path)
      .map((c) => String(c.query.include).split(',').length)
      .sort((a, b) => b - a);

  it('reads 60 events by ID as 2 include= requests (50 + 10) in 1 round trip', async () => {
    // Future events: the legacy list's default window (which include= applies) reaches them.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const list = await h.gql(
      `{ events(first: 60, where: { startDate: "${tomorrow}" }) { nodes { id databaseId title } } }`,
    );
    expect(list.errors).toBeUndefined();
    const nodes: { id: string; databaseId: number; title: string }[] = list.data.events.nodes;
    expect(nodes).toHaveLength(60);
    h.mark();
    const r = await h.gql(byIds('Event', 'title'), { ids: nodes.map((n) => n.id) });
    expect(r.errors).toBeUndefined();
    expect(r.data.nodes.map((n: any) => n.databaseId)).toEqual(nodes.map((n) => n.databaseId));
    expect(r.data.nodes[59].title).toBe(nodes[59]!.title);
    expect(h.calls()).toHaveLength(2);
    expect(includeSizes('/calendar/events/v1/events')).toEqual([50, 10]);
    expect(h.roundTrips()).toBe(1);
  });
});
