/**
 * The `where:` walk on each real shape: every filter of `events(where:)` is either applied, its
 * answer the set the seeded data says (computed here from the site's own complete list), or refused
 * with BAD_USER_INPUT naming the argument and the release, with nothing sent. Never the whole list
 * passed off as filtered: a filter the site declares but ignores (an inert argument) shows here as
 * a set that does not match.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, allPublished, realSites, rest, startRealGateway, type RealGateway, type RealSite } from './kit.ts';

const LIST = `query($where: EventsWhere, $orderBy: EventsOrderBy, $after: String) {
  events(first: 100, after: $after, where: $where, orderBy: $orderBy) { pageInfo { hasNextPage endCursor } nodes { databaseId } }
}`;

interface Case {
  name: string;
  where: Record<string, unknown>;
  /** The seeded events it must answer, from the site's complete list; null where the release refuses it. */
  expect: ((events: any[]) => any[]) | null;
  auth?: boolean;
}

const venueId = (e: any): number | null =>
  e.venue && typeof e.venue === 'object' && 'id' in e.venue ? e.venue.id : null;
const orgIds = (e: any): number[] => (Array.isArray(e.organizer) ? e.organizer.map((o: any) => o.id) : []);
const pad = (n: number) => String(n).padStart(2, '0');
/** The zone install.php gives the sites. */
const SITE_ZONE = 'Europe/Paris';
/**
 * A site-local time `offset` days from today, as the site writes dates, as an RFC 3339 instant (with
 * the site's offset on that day), and the end of its day: without `strictDates` the graph's bounds
 * other than `startDate` mean whole days (docs/graph.md), as the legacy list has them.
 */
function at(offset: number, time = '00:00:00'): { local: string; iso: string; endOfDay: string } {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset));
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const iso = DateTime.fromISO(`${day}T${time}`, { zone: SITE_ZONE }).toISO({ suppressMilliseconds: true })!;
  return { local: `${day} ${time}`, iso, endOfDay: `${day} 23:59:59` };
}

function cases(site: RealSite, events: any[]): Case[] {
  const core = site.key.shape === 'tec615';
  const seed = site.calendar;
  const v = seed.venues[2]!;
  const o = seed.organizers[1]!;
  const cat = seed.categories.sports;
  const tag = seed.tags[0]!;
  // Mid-morning: the day's 09:00 event falls on one side of the bound when it is taken exactly and
  // on the other when it is taken as a whole day.
  const after = at(5, '10:00:00');
  const before = at(-10, '10:00:00');
  const only = (f: (e: any) => boolean) => (all: any[]) => all.filter(f);
  return [
    { name: 'search', where: { search: 'quetzal' }, expect: only((e) => e.description.includes('quetzal')) },
    { name: 'venueIds', where: { venueIds: [v] }, expect: only((e) => venueId(e) === v) },
    { name: 'organizerIds', where: { organizerIds: [o] }, expect: only((e) => orgIds(e).includes(o)) },
    {
      name: 'categoryIds',
      where: { categoryIds: [cat] },
      expect: only((e) => e.categories.some((c: any) => c.id === cat)),
    },
    { name: 'tagIds', where: { tagIds: [tag] }, expect: only((e) => e.tags.some((t: any) => t.id === tag)) },
    { name: 'featured: true', where: { featured: true }, expect: only((e) => e.featured === true) },
    { name: 'featured: false', where: { featured: false }, expect: only((e) => e.featured !== true) },
    {
      name: 'ids',
      where: { ids: [seed.events[4], seed.events[9]] },
      expect: only((e) => e.id === seed.events[4] || e.id === seed.events[9]),
    },
    { name: 'status DRAFT', where: { status: ['DRAFT'] }, expect: () => seed.drafts.map((id) => ({ id })), auth: true },
    // No Event Tickets on either shape: no event can have tickets, and the releases that declare
    // `ticketed` ignore it (calendar-core) or refuse `true` (the legacy list), so it is refused.
    { name: 'ticketed: true', where: { ticketed: true }, expect: null },
    { name: 'ticketed: false', where: { ticketed: false }, expect: null },
    {
      name: 'startsAfter',
      where: { startsAfter: after.iso },
      expect: core ? only((e) => e.start_date > after.endOfDay) : null,
    },
    {
      name: 'startsBefore',
      where: { startsBefore: before.iso },
      expect: core ? only((e) => e.start_date <= before.endOfDay) : null,
    },
    {
      name: 'endsAfter',
      where: { endsAfter: after.iso },
      expect: core ? only((e) => e.end_date > after.endOfDay) : null,
    },
    {
      name: 'endsBefore',
      where: { endsBefore: before.iso },
      expect: core ? only((e) => e.end_date <= before.endOfDay) : null,
    },
    {
      name: 'startsAfter, strictDates',
      where: { startsAfter: after.iso, strictDates: true },
      expect: core ? only((e) => e.start_date > after.local) : null,
    },
    {
      name: 'startsBefore, strictDates',
      where: { startsBefore: before.iso, strictDates: true },
      expect: core ? only((e) => e.start_date < before.local) : null,
    },
    {
      name: 'endsAfter, strictDates',
      where: { endsAfter: after.iso, strictDates: true },
      expect: core ? only((e) => e.end_date > after.local) : null,
    },
    {
      name: 'endsBefore, strictDates',
      where: { endsBefore: before.iso, strictDates: true },
      expect: core ? only((e) => e.end_date < before.local) : null,
    },
    { name: 'postParent: 0', where: { postParent: 0 }, expect: core ? (all) => all : null },
    {
      name: 'several statuses',
      where: { status: ['PUBLISH', 'DRAFT'] },
      expect: core ? (all) => [...all, ...seed.drafts.map((id) => ({ id }))] : null,
      auth: true,
    },
    { name: 'recurring', where: { recurring: true }, expect: null },
    { name: 'virtual', where: { virtual: true }, expect: null },
    { name: 'inSeries', where: { inSeries: true }, expect: null },
    { name: 'near', where: { near: 'Paris' }, expect: null },
    // The legacy list leaves these to Events Calendar Pro, which neither shape has: every event
    // would come back as if filtered.
    { name: 'hasGeolocation', where: { hasGeolocation: true }, expect: null },
    { name: 'geolocation (a point)', where: { geolocation: { latitude: 48.85, longitude: 2.35 } }, expect: null },
  ];
}

describe.each(realSites())('$label', (site: RealSite) => {
  let g: RealGateway;
  let events: any[];
  beforeAll(async () => {
    g = await startRealGateway(site);
    events = await allPublished(site);
  });
  afterAll(() => g?.close());

  async function walk(where: Record<string, unknown>, auth: boolean, orderBy?: Record<string, unknown>) {
    const ids: number[] = [];
    let afterCursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const r: any = await g.gql(LIST, { where, orderBy, after: afterCursor }, auth ? adminAuth(site) : null);
      if (r.errors) return { ids, errors: r.errors as any[] };
      ids.push(...r.data.events.nodes.map((n: any) => n.databaseId as number));
      if (!r.data.events.pageInfo.hasNextPage) break;
      afterCursor = r.data.events.pageInfo.endCursor;
    }
    return { ids, errors: undefined };
  }

  it('applies or refuses every filter: never the unfiltered list', async () => {
    const sort = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const wrong: string[] = [];
    for (const c of cases(site, events)) {
      const { ids, errors } = await walk(c.where, c.auth === true);
      if (c.expect === null) {
        const ext = errors?.[0]?.extensions;
        if (
          !errors ||
          ext?.code !== 'BAD_USER_INPUT' ||
          !String(ext?.arguments).includes(`where.${Object.keys(c.where)[0]}`)
        ) {
          wrong.push(
            `${c.name}: expected a refusal naming the argument, got ${errors ? JSON.stringify(errors[0]) : `${ids.length} events`}`,
          );
        } else if (!/\b(5\.7|6\.\d+)|calendar-core\/v1/.test(errors[0].message)) {
          // A parameter no list of this release declares names the release; a filter only
          // calendar-core/v1 has names the interface the site lacks.
          wrong.push(
            `${c.name}: the refusal names neither the release nor the interface it needs: ${errors[0].message}`,
          );
        }
        continue;
      }
      if (errors) {
        wrong.push(`${c.name}: refused: ${errors[0].message}`);
        continue;
      }
      const expected = sort(c.expect(events).map((e) => e.id as number));
      if (expected.length === 0 || expected.length === events.length) {
        if (!['postParent: 0'].includes(c.name))
          wrong.push(
            `${c.name}: the seeded data does not tell this filter apart (${expected.length} of ${events.length})`,
          );
      }
      if (JSON.stringify(sort(ids)) !== JSON.stringify(expected))
        wrong.push(`${c.name}: ${ids.length} events, expected ${expected.length}`);
    }
    expect(wrong).toEqual([]);
  });

  it('startDate and endDate answer what the site’s own list answers for the same window', async () => {
    const from = at(-3);
    const to = at(4);
    const { ids, errors } = await walk({ startDate: from.iso, endDate: to.iso }, false);
    expect(errors).toBeUndefined();
    const site_ = await rest(
      site,
      'GET',
      `/${site.ns.legacy}/events?per_page=50&start_date=${encodeURIComponent(from.local)}&end_date=${encodeURIComponent(to.local)}`,
    );
    expect(site_.status).toBe(200);
    const expected = site_.body.events.map((e: any) => e.id as number);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(events.length);
    expect(ids).toEqual(expected);
  });

  it('venues and organizers: hasEvents, onlyWithUpcoming and event leave out a place with no events', async () => {
    const auth = adminAuth(site);
    const v = await rest(site, 'POST', `/${site.ns.legacy}/venues`, {
      auth,
      body: { venue: `Where walk venue ${Date.now()}`, status: 'publish' },
    });
    const o = await rest(site, 'POST', `/${site.ns.legacy}/organizers`, {
      auth,
      body: { organizer: `Where walk organizer ${Date.now()}`, status: 'publish' },
    });
    expect([v.status, o.status]).toEqual([201, 201]);
    try {
      for (const [list, lonely, seeded] of [
        ['venues', v.body.id, site.calendar.venues],
        ['organizers', o.body.id, site.calendar.organizers],
      ] as const) {
        const ids = async (where: Record<string, unknown>) => {
          const r = await g.gql(
            `query($where: PlacesWhere) { ${list}(first: 100, where: $where) { nodes { databaseId } } }`,
            { where },
          );
          expect(r.errors, `${list} ${JSON.stringify(where)}`).toBeUndefined();
          return (r.data[list].nodes as any[]).map((n) => n.databaseId as number);
        };
        expect(await ids({})).toContain(lonely);
        for (const where of [{ hasEvents: true }, { onlyWithUpcoming: true }]) {
          const got = await ids(where);
          expect(got, `${list} ${JSON.stringify(where)}`).not.toContain(lonely);
          // Every seeded place has past and upcoming events.
          expect(got, `${list} ${JSON.stringify(where)}`).toEqual(expect.arrayContaining([...seeded]));
        }
        const event = events.find((e) => venueId(e) !== null && orgIds(e).length > 0)!;
        const linked = list === 'venues' ? [venueId(event)] : orgIds(event);
        expect((await ids({ event: event.id })).sort()).toEqual([...linked].sort());
      }
    } finally {
      await rest(site, 'DELETE', `/${site.ns.legacy}/venues/${v.body.id}`, { auth });
      await rest(site, 'DELETE', `/${site.ns.legacy}/organizers/${o.body.id}`, { auth });
    }
  });

  it.runIf(site.key.shape === 'tec615')('orders by title, descending, through calendar-core', async () => {
    const { ids, errors } = await walk({}, false, { field: 'TITLE', direction: 'DESC' });
    expect(errors).toBeUndefined();
    const byTitle = [...events].sort((a, b) => (a.title < b.title ? 1 : a.title > b.title ? -1 : 0)).map((e) => e.id);
    expect(ids).toEqual(byTitle);
  });
});
