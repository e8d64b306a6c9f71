/**
 * What broke on real sites (issue 8), end to end on both kinds of site: lists
 * with no date, one date or both; past events by ID; a namespace or route the
 * site lacks costing only its own fields; category trees; one not-found rule;
 * term filters answered by the interface that applies them; and a list meaning
 * the same thing whichever interface serves it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SITE_SHAPES, startHarness, type Harness } from '../helpers/gateway.ts';

/** Every published event, as the gateway lists them (ordered by start). */
async function everything(h: Harness): Promise<
  {
    databaseId: number;
    startDate: string;
    endDate: string;
    categories: { databaseId: number; parent: { databaseId: number } | null }[];
  }[]
> {
  const r = await h.gql(
    `{ events(first: 500) { totalCount nodes { databaseId startDate endDate categories { databaseId parent { databaseId } } } } }`,
  );
  expect(r.errors).toBeUndefined();
  expect(r.data.events.nodes.length).toBe(r.data.events.totalCount);
  return r.data.events.nodes;
}

/** `Y-m-d` of an RFC 3339 instant in the sandbox's zone (America/New_York). */
const siteDay = (iso: string) => new Date(iso).toLocaleDateString('en-CA', { timeZone: 'America/New_York' });

describe.each(SITE_SHAPES)('real-site regressions ($shape)', ({ sandbox }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('lists with no date cover past and future events, in one request', async () => {
    const r = await h.gql(
      `{ events(first: 20) { totalCount nodes { title startDate } } upcoming: events(where: { startDate: "${new Date().toISOString()}" }) { totalCount } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes).toHaveLength(20);
    expect(Date.parse(r.data.events.nodes[0].startDate)).toBeLessThan(Date.now() - 180 * 86_400_000);
    expect(r.data.events.totalCount).toBeGreaterThan(r.data.upcoming.totalCount + 100);
    const s = await h.gql(`{ events(where: { search: "Harbor" }) { totalCount nodes { title } } }`);
    expect(s.errors).toBeUndefined();
    expect(s.data.events.totalCount).toBeGreaterThan(0);
    const venue = await h.gql(`{ venues(first: 1, where: { hasEvents: true }) { nodes { databaseId } } }`);
    const v = await h.gql(
      `{ venue(id: "${venue.data.venues.nodes[0].databaseId}", idType: DATABASE_ID) { events { totalCount } } }`,
    );
    expect(v.errors).toBeUndefined();
    expect(v.data.venue.events.totalCount).toBeGreaterThan(0);
  });

  it('one date alone keeps the other end open (whole days in the site zone, as the legacy list means)', async () => {
    const all = await everything(h);
    const end = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10) + 'T00:00:00+00:00';
    const r = await h.gql(`{ events(first: 500, where: { endDate: "${end}" }) { totalCount } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.events.totalCount).toBe(all.filter((e) => siteDay(e.endDate) <= siteDay(end)).length);
    const start = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10) + 'T10:00:00+09:00';
    const s = await h.gql(`{ events(first: 500, where: { startDate: "${start}" }) { totalCount } }`);
    expect(s.data.events.totalCount).toBe(all.filter((e) => siteDay(e.startDate) >= siteDay(start)).length);
  });

  it('reads past events by ID, global ID and node(id:)', async () => {
    const past = (await h.gql(`{ events(first: 1) { nodes { id databaseId title } } }`)).data.events.nodes[0];
    const r = await h.gql(
      `query($id: ID!, $db: ID!) { a: event(id: $db, idType: DATABASE_ID) { title } b: event(id: $id) { title } c: node(id: $id) { ... on Event { title } } }`,
      { id: past.id, db: String(past.databaseId) },
    );
    expect(r.errors).toBeUndefined();
    expect([r.data.a.title, r.data.b.title, r.data.c.title]).toEqual([past.title, past.title, past.title]);
  });

  it('category trees: top-level categories and their children in one request', async () => {
    const r = await h.gql(
      `{ categories(first: 50, where: { hideEmpty: false, parent: 0 }) { totalCount nodes { databaseId name parent { name } children { name parent { databaseId } } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const nodes = r.data.categories.nodes;
    expect(nodes.length).toBeGreaterThan(2);
    expect(nodes.every((c: any) => c.parent === null)).toBe(true);
    expect(nodes.some((c: any) => c.children.length > 0)).toBe(true);
    for (const c of nodes) for (const k of c.children) expect(k.parent.databaseId).toBe(c.databaseId);
    expect(h.calls()).toHaveLength(1);
    h.mark();
    // Without hideEmpty, empty categories are left out, as the site's own default.
    const top = await h.gql(`{ categories(first: 50, where: { parent: 0 }) { nodes { count } } }`);
    expect(top.data.categories.nodes.length).toBeGreaterThan(0);
    expect(top.data.categories.nodes.every((c: any) => c.count > 0)).toBe(true);
    expect(top.data.categories.nodes.length).toBeLessThanOrEqual(nodes.length);
    h.mark();
    const plain = await h.gql(
      `{ categories(first: 50, where: { hideEmpty: false }) { nodes { name children { name } } } }`,
    );
    expect(plain.errors).toBeUndefined();
    // The list and the taxonomy prefetched for `children` are the same request: sent once when both are
    // in flight at the same moment (single flight), twice when one has answered before the other starts.
    expect(h.calls().length).toBeGreaterThanOrEqual(1);
    expect(h.calls().length).toBeLessThanOrEqual(2);
    expect(new Set(h.calls().map((c) => `${c.path}?${JSON.stringify(c.query)}`)).size).toBe(1);
  });

  it('not found is null, by ID or by slug', async () => {
    const r = await h.gql(`{
      e: event(id: "no-such-event", idType: SLUG) { title } v: venue(id: "no-such-venue", idType: SLUG) { title }
      o: organizer(id: "no-such-organizer", idType: SLUG) { title } c: category(id: "no-such-category", idType: SLUG) { name }
      ei: event(id: "999999", idType: DATABASE_ID) { title } vi: venue(id: "999999", idType: DATABASE_ID) { title }
      oi: organizer(id: "999999", idType: DATABASE_ID) { title } ci: category(id: "999999", idType: DATABASE_ID) { name }
      n: node(id: "RXZlbnQ6OTk5OTk5") { id }
    }`);
    expect(r.errors).toBeUndefined();
    expect(Object.values(r.data).every((v) => v === null)).toBe(true);
  });

  it('filters by category and tag with the interface that applies them', async () => {
    const all = await everything(h);
    const cat = all.flatMap((e) => e.categories).find((c) => c.parent === null)!.databaseId;
    const r = await h.gql(
      `{ events(first: 500, where: { categoryIds: [${cat}] }) { totalCount nodes { categories { databaseId parent { databaseId } } } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.events.totalCount).toBeLessThan(all.length);
    // A parent category also matches events of its children.
    expect(
      r.data.events.nodes.every((n: any) =>
        n.categories.some((c: any) => c.databaseId === cat || c.parent?.databaseId === cat),
      ),
    ).toBe(true);
    expect(h.calls().every((c) => c.path.startsWith('/calendar/events/v1/'))).toBe(true);
  });
});

describe('a route the site lacks costs only its own fields', () => {
  let h: Harness;
  beforeAll(async () => {
    // Yoast SEO free: seo/v1 without the redirects routes.
    h = await startHarness({ sandbox: { disable: ['/seo/v1/redirects'] } });
  });
  afterAll(() => h.close());

  it('answers the sibling fields, and NAMESPACE_UNAVAILABLE for the missing route, without asking the site', async () => {
    h.mark();
    const r = await h.gql(`{ site { name } seo { redirects { origin } statistics { header } } }`, undefined, 'admin');
    expect(r.data.site.name).toBe('Sitegraph Sandbox');
    expect(r.data.seo.redirects).toBeNull();
    expect(typeof r.data.seo.statistics.header).toBe('string');
    expect(r.errors).toHaveLength(1);
    expect(r.errors![0]).toMatchObject({ path: ['seo', 'redirects'], extensions: { code: 'NAMESPACE_UNAVAILABLE' } });
    expect(h.calls().some((c) => c.path.startsWith('/seo/v1/redirects'))).toBe(false);
  });
});

describe('a namespace the site lacks costs only its own fields', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { disable: ['seo/v1'] } });
  });
  afterAll(() => h.close());

  it('nulls the fields that need it, naming the namespace, without asking the site', async () => {
    h.mark();
    const r = await h.gql(`{ site { name } seo { redirects { origin } statistics { header } } }`);
    expect(r.data).toEqual({ site: { name: 'Sitegraph Sandbox' }, seo: { redirects: null, statistics: null } });
    expect(r.errors).toHaveLength(2);
    for (const e of r.errors!) {
      expect(e.extensions).toMatchObject({ code: 'NAMESPACE_UNAVAILABLE', namespace: 'seo/v1' });
      expect(e.message).toMatch(/REST namespace "seo\/v1"/);
    }
    expect(h.calls()).toEqual([]);
  });
});

describe('a list means the same whichever interface serves it', () => {
  const now = new Date().toISOString();
  let legacy: Harness;
  let core: Harness;
  beforeAll(async () => {
    // The same seed, anchor and clock: the same site, served by one interface each.
    legacy = await startHarness({ sandbox: { now, disable: ['calendar-core/v1'] } });
    core = await startHarness({ sandbox: { now, disable: ['calendar/events/v1'] } });
  });
  afterAll(async () => {
    await legacy.close();
    await core.close();
  });

  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  for (const [name, where] of [
    ['no where', '{}'],
    ['endDate only', `{ endDate: "${day(10)}T00:00:00+00:00" }`],
    ['startDate with an offset', `{ startDate: "${day(-20)}T10:00:00+09:00" }`],
    ['both dates', `{ startDate: "${day(-5)}T00:00:00-05:00", endDate: "${day(40)}T12:00:00Z" }`],
    ['strict dates', `{ startDate: "${day(-5)}T10:30:00-05:00", endDate: "${day(40)}T12:00:00Z", strictDates: true }`],
    ['search', '{ search: "Harbor" }'],
    ['featured', '{ featured: true }'],
  ] as const) {
    it(`${name}: the same events in the same order`, async () => {
      const q = `{ events(first: 500, where: ${where}) { totalCount nodes { databaseId } } }`;
      const [a, b] = await Promise.all([legacy.gql(q), core.gql(q)]);
      expect(a.errors).toBeUndefined();
      expect(b.errors).toBeUndefined();
      const viaLegacy: number[] = a.data.events.nodes.map((n: any) => n.databaseId);
      const viaCore: number[] = b.data.events.nodes.map((n: any) => n.databaseId);
      // The one difference the sites themselves make: legacy lists leave out events hidden
      // from listings, calendar-core lists show them (docs/real-sites.md).
      const shown = new Set(viaLegacy);
      const hidden = viaCore.filter((id) => !shown.has(id));
      for (const id of hidden) {
        const raw = await legacyRest(`/calendar/events/v1/events/${id}`);
        expect(raw.hide_from_listings, `event ${id}`).toBe(true);
      }
      expect(viaCore.filter((id) => shown.has(id))).toEqual(viaLegacy);
      expect(b.data.events.totalCount - hidden.length).toBe(a.data.events.totalCount);
    });
  }

  async function legacyRest(path: string): Promise<any> {
    return (await fetch(`${legacy.sandbox.url.replace(/\/$/, '')}${path}`)).json();
  }
});
