/**
 * Reads through the gateway against each real shape, checked against the same site's REST answers:
 * discovery (the release inferred, the names found), an event with its venue, organizers and terms,
 * an event with no organizer, the multi-day and all-day events, paging both ways over the whole
 * list, and not-found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPublished, realSites, rest, startRealGateway, type RealGateway, type RealSite } from './kit.ts';

const EVENT = `query($id: ID!) { event(id: $id) {
  databaseId title startDate endDate allDay multiday cost featured website
  venues { databaseId title city } organizers { databaseId title } categories { databaseId name } tags { databaseId name }
} }`;

describe.each(realSites())('$label', (site: RealSite) => {
  let g: RealGateway;
  let published: any[];
  beforeAll(async () => {
    g = await startRealGateway(site);
    published = await allPublished(site);
  });
  afterAll(() => g?.close());

  it('reads an event as the site holds it: venue, organizers, categories and tags', async () => {
    const id = site.calendar.events[3]!;
    const legacy = (await rest(site, 'GET', `/${site.ns.legacy}/events/${id}`)).body;
    const r = await g.gql(EVENT, { id: String(id) });
    expect(r.errors).toBeUndefined();
    const e = r.data.event;
    expect(e.databaseId).toBe(id);
    expect(e.title).toBe(legacy.title);
    expect(e.startDate.slice(0, 19).replace('T', ' ')).toBe(legacy.start_date);
    expect(e.venues.map((v: any) => v.databaseId)).toEqual([legacy.venue.id]);
    expect(e.organizers.map((o: any) => o.databaseId).sort()).toEqual(legacy.organizer.map((o: any) => o.id).sort());
    expect(e.categories.map((c: any) => c.databaseId)).toEqual(legacy.categories.map((c: any) => c.id));
    expect(e.tags.map((t: any) => t.databaseId)).toEqual(legacy.tags.map((t: any) => t.id));
    // The seeded events have no website; the legacy read shows the permalink in its place.
    expect(legacy.website).toBe(legacy.url);
    expect(e.website).toBeNull();
  });

  it('an event with no organizer has none, and one with no venue none', async () => {
    const r = await g.gql(
      `query($a: ID!, $b: ID!) { a: event(id: $a) { organizers { databaseId } } b: event(id: $b) { venues { databaseId } } }`,
      {
        a: String(site.calendar.noOrganizer[0]),
        b: String(site.calendar.noVenue[0]),
      },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.a.organizers).toEqual([]);
    expect(r.data.b.venues).toEqual([]);
  });

  it('the multi-day and the all-day events', async () => {
    const r = await g.gql(
      `query($a: ID!, $b: ID!) { a: event(id: $a) { multiday allDay startDate endDate } b: event(id: $b) { allDay multiday } }`,
      {
        a: String(site.calendar.multiDay),
        b: String(site.calendar.allDay),
      },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.a).toMatchObject({ multiday: true, allDay: false });
    expect(r.data.b).toMatchObject({ allDay: true });
  });

  it('pages forwards and backwards over every published event, each once, in the site’s order', async () => {
    const where = { startDate: '2000-01-01T00:00:00Z', endDate: '2100-01-01T00:00:00Z' };
    const forward: number[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i++) {
      const r: any = await g.gql(
        `query($after: String, $where: EventsWhere) { events(first: 25, after: $after, where: $where) { pageInfo { hasNextPage endCursor } nodes { databaseId } } }`,
        { after, where },
      );
      expect(r.errors).toBeUndefined();
      forward.push(...r.data.events.nodes.map((n: any) => n.databaseId));
      if (!r.data.events.pageInfo.hasNextPage) break;
      after = r.data.events.pageInfo.endCursor;
    }
    expect(forward).toEqual(published.map((e) => e.id));
    const backward: number[] = [];
    let before: string | null = null;
    for (let i = 0; i < 20; i++) {
      const r: any = await g.gql(
        `query($before: String, $where: EventsWhere) { events(last: 25, before: $before, where: $where) { pageInfo { hasPreviousPage startCursor } nodes { databaseId } } }`,
        { before, where },
      );
      expect(r.errors).toBeUndefined();
      backward.unshift(...r.data.events.nodes.map((n: any) => n.databaseId));
      if (!r.data.events.pageInfo.hasPreviousPage) break;
      before = r.data.events.pageInfo.startCursor;
    }
    expect(backward).toEqual(forward);
  });

  it('a missing event is null, with no error', async () => {
    const r = await g.gql(`{ event(id: "999999") { databaseId } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.event).toBeNull();
  });
});
