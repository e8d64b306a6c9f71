/**
 * Lists are planned from the selection as well as the filters: one list
 * request where one interface serves every selected field, and no request per
 * event for a field neither interface can supply (namespaces/calendar/served.ts). Counted
 * from the sandbox's request log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE_SHAPES, startHarness, type Harness } from '../helpers/gateway.ts';

const soon = () => new Date(Date.now() + 86_400_000).toISOString();

describe.each(RELEASE_SHAPES)('lists planned from their selection ($shape)', ({ sandbox, hasCore }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox });
  });
  afterAll(() => h.close());

  it('a field only calendar-core serves: one list request, not one per event', async () => {
    h.mark();
    const r = await h.gql(`{ events(first: 100) { nodes { databaseId ticketed virtual commentStatus } } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes).toHaveLength(100);
    const calls = h.calls();
    // One page of 100 on calendar-core/v1, two of 50 on the legacy list (its largest page).
    expect(calls.length).toBe(hasCore ? 1 : 2);
    expect(calls.every((c) => c.path === (hasCore ? '/calendar-core/v1/events' : '/calendar/events/v1/events'))).toBe(
      true,
    );
    for (const n of r.data.events.nodes) {
      for (const f of ['ticketed', 'virtual']) expect(n[f] === null || typeof n[f] === 'boolean').toBe(true);
      if (!hasCore) expect(n).toMatchObject({ ticketed: null, virtual: null, commentStatus: null });
    }
  });

  it('title and passwordProtected of upcoming events: one request', async () => {
    h.mark();
    const r = await h.gql(
      `{ events(first: 20, where: { startDate: "${soon()}" }) { nodes { title passwordProtected } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes).toHaveLength(20);
    expect(h.calls()).toHaveLength(1);
    if (hasCore) expect(r.data.events.nodes.every((n: any) => typeof n.passwordProtected === 'boolean')).toBe(true);
    else expect(r.data.events.nodes.every((n: any) => n.passwordProtected === null)).toBe(true);
  });

  it('fields of both kinds: the legacy list, and the other copies in one batched round trip', async () => {
    h.mark();
    const r = await h.gql(
      `{ events(first: 20, where: { startDate: "${soon()}" }) { nodes { title website passwordProtected } } }`,
    );
    expect(r.errors).toBeUndefined();
    const calls = h.calls();
    expect(calls[0]!.path).toBe('/calendar/events/v1/events');
    // calendar-core/v1 copies are read by ID, one request per event at most, each event once
    // (they start together; the concurrency cap, 10 by default, spreads them over a few waves).
    if (hasCore) {
      const singles = calls.slice(1).map((c) => c.path);
      expect(singles.every((p) => /^\/calendar-core\/v1\/events\/\d+$/.test(p))).toBe(true);
      expect(new Set(singles).size).toBe(singles.length);
      expect(singles.length).toBeLessThanOrEqual(20);
    } else {
      expect(calls).toHaveLength(1);
    }
  });

  it('a filter that pins the legacy list keeps it, whatever is selected', async () => {
    const cat = (
      await h.gql(`{ events(first: 1, where: { startDate: "${soon()}" }) { nodes { categories { databaseId } } } }`)
    ).data.events.nodes[0].categories[0].databaseId;
    h.mark();
    const r = await h.gql(
      `{ events(first: 5, where: { categoryIds: [${cat}] }) { nodes { title passwordProtected } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(h.calls()[0]!.path).toBe('/calendar/events/v1/events');
  });

  it('venues: showMap (legacy only) selected goes to the legacy list in one request', async () => {
    h.mark();
    const r = await h.gql(`{ venues(first: 20) { nodes { title showMap showMapLink } } }`);
    expect(r.errors).toBeUndefined();
    expect(h.calls()).toHaveLength(1);
    expect(h.calls()[0]!.path).toBe('/calendar/events/v1/venues');
  });
});
