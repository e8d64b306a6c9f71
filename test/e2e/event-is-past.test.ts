/**
 * `Event.isPast`, a field added with one row of the calendar's field table (src/mapping/calendar-models.ts:
 * calendar-core's `is_past`, which the legacy interface never serves) and its line in the schema: read from
 * calendar-core's objects, a list that selects it is served by calendar-core in one request, a single event read
 * through the legacy interface gets it from its calendar-core copy, and a site without calendar-core answers null
 * without asking anything for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE_SHAPES, startHarness, type Harness } from '../helpers/gateway.ts';

describe.each(RELEASE_SHAPES)('Event.isPast ($shape)', ({ sandbox, hasCore }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox });
  });
  afterAll(() => h.close());

  it('a list selecting it: one request, through calendar-core where the site has it', async () => {
    h.mark();
    const r = await h.gql(`{ events(first: 100) { nodes { databaseId isPast endDateUtc passwordProtected } } }`);
    expect(r.errors).toBeUndefined();
    const nodes: {
      databaseId: number;
      isPast: boolean | null;
      endDateUtc: string;
      passwordProtected: boolean | null;
    }[] = r.data.events.nodes;
    expect(nodes.length).toBeGreaterThan(0);
    const calls = h.calls();
    if (!hasCore) {
      // The legacy list alone (two pages of 50), no read per event: nothing can serve the field.
      expect(calls.every((c) => c.path === '/calendar/events/v1/events')).toBe(true);
      expect(nodes.every((n) => n.isPast === null)).toBe(true);
      return;
    }
    expect(calls.map((c) => c.path)).toEqual(['/calendar-core/v1/events']);
    // A password-protected event's fields are masked: null, as the site hides them.
    for (const n of nodes) expect(n.isPast === null, `event ${n.databaseId}`).toBe(n.passwordProtected === true);
    // The site says past for the events that ended before it answered: every past one ended before every other one
    // (the latest events too, which the first page, the earliest, does not reach).
    const latest = await h.gql(
      `{ events(first: 100, orderBy: { field: START_DATE, direction: DESC }) { nodes { isPast endDateUtc } } }`,
    );
    const all: { isPast: boolean | null; endDateUtc: string }[] = [...nodes, ...latest.data.events.nodes];
    const past = all.filter((n) => n.isPast === true).map((n) => Date.parse(n.endDateUtc));
    const coming = all.filter((n) => n.isPast === false).map((n) => Date.parse(n.endDateUtc));
    expect(past.length).toBeGreaterThan(0);
    expect(coming.length).toBeGreaterThan(0);
    expect(Math.max(...past)).toBeLessThan(Math.min(...coming));
  });

  it('an event read through the legacy interface: its calendar-core copy gives it', async () => {
    const list = await h.gql(
      `{ events(first: 1, where: { startDate: "2000-01-01T00:00:00Z" }) { nodes { databaseId } } }`,
    );
    const id: number = list.data.events.nodes[0].databaseId;
    const legacy = await h.gql(`{ event(id: "${id}", idType: DATABASE_ID) { title isPast } }`);
    expect(legacy.errors).toBeUndefined();
    if (hasCore) expect(typeof legacy.data.event.isPast).toBe('boolean');
    else expect(legacy.data.event.isPast).toBeNull();
    const core = await h.gql(`{ events(first: 100) { nodes { databaseId isPast } } }`);
    const same = core.data.events.nodes.find((n: { databaseId: number }) => n.databaseId === id);
    if (same) expect(legacy.data.event.isPast).toBe(same.isPast);
  });
});
