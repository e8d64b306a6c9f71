/**
 * The read routes not exercised elsewhere: single venue/organizer reads on
 * both interfaces, slugs, JSON-LD, the namespace indexes, and lists on a
 * legacy-only site.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

describe('single reads and indexes (both interfaces)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('reads a venue and an organizer by ID from calendar-core, and by slug from the legacy interface', async () => {
    const list = await h.gql(
      `{ venues(first: 1) { nodes { databaseId slug title } } organizers(first: 1) { nodes { databaseId slug title } } }`,
    );
    const v = list.data.venues.nodes[0];
    const o = list.data.organizers.nodes[0];
    h.mark();
    const r = await h.gql(
      `query($v: ID!, $o: ID!, $vs: ID!, $os: ID!) {
      v: venue(id: $v, idType: DATABASE_ID) { databaseId title directionsLink }
      o: organizer(id: $o, idType: DATABASE_ID) { databaseId title email }
      vs: venue(id: $vs, idType: SLUG) { databaseId }
      os: organizer(id: $os, idType: SLUG) { databaseId }
      none: venue(id: "no-such-venue", idType: SLUG) { databaseId }
    }`,
      { v: String(v.databaseId), o: String(o.databaseId), vs: v.slug, os: o.slug },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.v).toMatchObject({ databaseId: v.databaseId, title: v.title });
    expect(r.data.o).toMatchObject({ databaseId: o.databaseId, title: o.title });
    expect(r.data.vs.databaseId).toBe(v.databaseId);
    expect(r.data.os.databaseId).toBe(o.databaseId);
    expect(r.data.none).toBeNull();
    const paths = h.calls().map((c) => `${c.method} ${c.route}`);
    expect(paths).toContain('GET /calendar-core/v1/venues/(?P<id>\\d+)');
    expect(paths).toContain('GET /calendar-core/v1/organizers/(?P<id>\\d+)');
  });

  it('reads one category or tag by ID from its own route, and null for an unknown one', async () => {
    const list = await h.gql(
      `{ categories(first: 1) { nodes { databaseId name } } tags(first: 1) { nodes { databaseId name } } }`,
    );
    const c = list.data.categories.nodes[0];
    const t = list.data.tags.nodes[0];
    h.mark();
    const r = await h.gql(
      `{ c: category(id: "${c.databaseId}") { name url } t: tag(id: "${t.databaseId}", idType: DATABASE_ID) { name } none: category(id: "999999") { name } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.c.name).toBe(c.name);
    expect(r.data.c.url).toMatch(/^http/);
    expect(r.data.t.name).toBe(t.name);
    expect(r.data.none).toBeNull();
    expect(
      h
        .calls()
        .map((x) => x.path)
        .sort(),
    ).toEqual(
      [
        '/calendar/events/v1/categories/999999',
        `/calendar/events/v1/categories/${c.databaseId}`,
        `/calendar/events/v1/tags/${t.databaseId}`,
      ].sort(),
    );
  });

  it('reads the JSON-LD of an event from the legacy single route', async () => {
    const id = (await h.gql(`{ events(first: 1, where: { featured: false }) { nodes { databaseId } } }`)).data.events
      .nodes[0].databaseId;
    h.mark();
    const r = await h.gql(`{ event(id: "${id}", idType: DATABASE_ID) { jsonLd } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.event.jsonLd).toMatchObject({ '@type': 'Event' });
    expect(h.calls().some((c) => c.path === `/calendar/events/v1/events/${id}`)).toBe(true);
  });

  it('lists every namespace with its availability, and reads each index', async () => {
    const r = await h.gql(`{ namespaces { name available routes { pattern methods batchMethods } } }`);
    expect(r.errors).toBeUndefined();
    const names = r.data.namespaces.map((n: any) => n.name);
    expect(names).toHaveLength(16);
    expect(r.data.namespaces.every((n: any) => n.available)).toBe(true);
    expect(h.calls()).toHaveLength(0);
    const core = r.data.namespaces.find((n: any) => n.name === 'calendar-core/v1');
    // Real sites mark no calendar route batchable (real-site-behaviour.md); core/v2 posts are.
    expect(core.routes.find((x: any) => x.pattern === '/calendar-core/v1/events').batchMethods).toEqual([]);
    const posts = r.data.namespaces.find((n: any) => n.name === 'core/v2');
    expect(posts.routes.find((x: any) => x.pattern === '/core/v2/posts').batchMethods).toEqual(['GET', 'POST']);
    for (const name of names) {
      const one = await h.gql(`query($n: String!) { namespace(name: $n) { name available routes { pattern } raw } }`, {
        n: name,
      });
      expect(one.errors, name).toBeUndefined();
      expect(
        one.data.namespace.routes.some((x: any) => x.pattern === `/${name}`),
        name,
      ).toBe(true);
    }
    expect(h.calls()).toHaveLength(16);
    const bad = await h.gql(`{ namespace(name: "nope/v9") { name } }`);
    expect(bad.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
  });

  it('refreshes the site facts through a mutation', async () => {
    const r = await h.gql(`mutation { refreshSite { name namespaces } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.refreshSite.name).toBe('Sitegraph Sandbox');
    expect(h.calls().map((c) => c.path)).toEqual(['/']);
  });
});

describe('lists and single reads on a site without calendar-core/v1', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { disable: ['calendar-core/v1'] } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('lists venues and organizers and reads them by ID from the legacy interface', async () => {
    const r = await h.gql(
      `{ venues(first: 3) { totalCount nodes { databaseId title city showMap } } organizers(first: 3) { totalCount nodes { databaseId title } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.venues.nodes).toHaveLength(3);
    expect(r.data.organizers.totalCount).toBeGreaterThan(10);
    const o = r.data.organizers.nodes[0].databaseId;
    const v = r.data.venues.nodes[0].databaseId;
    h.mark();
    const one = await h.gql(
      `{ organizer(id: "${o}", idType: DATABASE_ID) { title phone } venue(id: "${v}", idType: DATABASE_ID) { title city } }`,
    );
    expect(one.errors).toBeUndefined();
    expect(one.data.organizer.title).toBe(r.data.organizers.nodes[0].title);
    expect(
      h
        .calls()
        .map((c) => c.path)
        .sort(),
    ).toEqual([`/calendar/events/v1/organizers/${o}`, `/calendar/events/v1/venues/${v}`].sort());
    const ns = await h.gql(`{ namespace(name: "calendar-core/v1") { available routes { pattern } } }`);
    expect(ns.data.namespace).toEqual({ available: false, routes: [] });
  });
});
