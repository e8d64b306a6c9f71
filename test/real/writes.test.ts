/**
 * Writes through the gateway against each real shape, every claim checked against the site's own
 * REST answers (docs/writes.md): an event created with its venue, organizers, terms, dates, cost and
 * flags; single-field updates after which the field holds the new value and every other field the
 * one it had (what a release resets when omitted: the legacy update's publication date and flags on
 * 5.7 and 6.15, calendar-core's `sticky` and ignored `featured: false` on 6.15); trashing and, where
 * calendar-core/v1 is, deleting for good; venues, organizers, categories and tags created, updated
 * and deleted; bulk event creates and updates; NOT_FOUND naming the argument for a missing ID;
 * UNAUTHENTICATED for an anonymous caller, with nothing sent; a field the site cannot take refused
 * rather than reported written.
 *
 * Every object is made by the test itself and expectations come from the site at test time, so the
 * file passes on a fresh site and on one an earlier run (SITEGRAPH_REAL_REUSE=1) wrote to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, realSites, rest, startRealGateway, type RealGateway, type RealSite } from './kit.ts';
import { eventOnSite, paris, sorted, storedEvent, uniq, upstreamRequests } from './stored.ts';

const MISSING = '987654';

const EVENT_FIELDS = `databaseId title status cost featured sticky website showMap showMapLink hideFromListings startDate endDate timezone publishedAt
  venues { databaseId } organizers { databaseId } categories { databaseId } tags { databaseId }`;
const UPDATE_EVENT = `mutation($id: ID!, $input: EventInput!, $via: WriteInterface) { updateEvent(id: $id, input: $input, via: $via) { event { ${EVENT_FIELDS} } } }`;

describe.each(realSites())('$label', (site: RealSite) => {
  const core = site.key.shape === 'tec615';
  const c = site.calendar;
  let g: RealGateway;
  let admin: string;
  const gql = <T = any>(query: string, variables?: Record<string, unknown>, auth: string | null = admin) =>
    g.gql<T>(query, variables, auth);

  beforeAll(async () => {
    g = await startRealGateway(site);
    admin = adminAuth(site);
  });
  afterAll(() => g?.close());

  /** delete<Type> without `force`: answered as trashed, and the admin's legacy read shows it in the trash. */
  async function trash(Type: 'Venue' | 'Organizer', id: number) {
    const del = await gql(`mutation($id: ID!) { delete${Type}(id: $id) { databaseId permanently } }`, {
      id: String(id),
    });
    expect(del.errors, JSON.stringify(del.errors)).toBeUndefined();
    expect(del.data[`delete${Type}`]).toEqual({ databaseId: id, permanently: false });
    const read = await rest(site, 'GET', `/${site.ns.legacy}/${Type.toLowerCase()}s/${id}`, { auth: admin });
    expect(read.body.status).toBe('trash');
  }

  it('createEvent with venue, organizers, categories, tags, dates, cost and featured: answered as the site stores it', async () => {
    const title = uniq('Created');
    const input = {
      title,
      description: '<p>Made through the gateway.</p>',
      status: 'PUBLISH',
      startDate: '2031-04-02T20:00:00+02:00',
      endDate: '2031-04-02T23:00:00+02:00',
      timezone: 'Europe/Paris',
      venueIds: [c.venues[2]],
      organizerIds: [c.organizers[1], c.organizers[3]],
      categoryIds: [c.categories.music, c.categories.rock],
      tagIds: [c.tags[0], c.tags[2]],
      cost: '25',
      featured: true,
    };
    const r = await gql(`mutation($input: EventInput!) { createEvent(input: $input) { event { ${EVENT_FIELDS} } } }`, {
      input,
    });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const e = r.data.createEvent.event;
    const s = await storedEvent(site, e.databaseId);
    expect(s).toMatchObject({
      title,
      status: 'publish',
      start_date: '2031-04-02 20:00:00',
      end_date: '2031-04-02 23:00:00',
      timezone: 'Europe/Paris',
      cost: '25',
      featured: true,
      venue: c.venues[2],
      organizers: sorted([c.organizers[1]!, c.organizers[3]!]),
      categories: sorted([c.categories.music, c.categories.rock]),
      tags: sorted([c.tags[0]!, c.tags[2]!]),
    });
    expect(s.description).toContain('Made through the gateway.');
    // The payload is what the site holds.
    expect(e).toMatchObject({ title, status: 'PUBLISH', featured: true });
    expect(e.cost).toContain('25');
    expect(paris(e.startDate)).toBe(s.start_date);
    expect(paris(e.endDate)).toBe(s.end_date);
    expect(e.venues.map((v: any) => v.databaseId)).toEqual([s.venue]);
    expect(sorted(e.organizers.map((o: any) => o.databaseId))).toEqual(s.organizers);
    expect(sorted(e.categories.map((x: any) => x.databaseId))).toEqual(s.categories);
    expect(sorted(e.tags.map((x: any) => x.databaseId))).toEqual(s.tags);
  });

  /**
   * One field at a time on an event made on the site with every flag set away from its default and
   * a publication date in the past: each update must leave everything else as the site had it.
   */
  const updates: {
    name: string;
    input: Record<string, unknown>;
    via?: 'LEGACY' | 'CORE';
    expect: Record<string, unknown>;
  }[] = [
    { name: 'title', input: { title: 'Renamed' }, expect: { title: 'Renamed' } },
    { name: 'cost', input: { cost: '42' }, expect: { cost: '42' } },
    {
      name: 'featured: false (ignored by 6.15’s calendar-core PATCH)',
      input: { featured: false },
      expect: { featured: false },
    },
    { name: 'sticky: false', input: { sticky: false }, expect: { sticky: false } },
    {
      name: 'website (legacy-only)',
      input: { website: 'https://example.org/changed' },
      expect: { website: 'https://example.org/changed' },
    },
    {
      name: 'categories',
      input: { categoryIds: [c.categories.family] },
      expect: { categories: [c.categories.family] },
    },
    {
      name: 'title through the legacy interface',
      input: { title: 'Renamed via legacy' },
      via: 'LEGACY',
      expect: { title: 'Renamed via legacy' },
    },
    ...(core
      ? [{ name: 'cost through calendar-core', input: { cost: '43' }, via: 'CORE' as const, expect: { cost: '43' } }]
      : []),
  ];
  it.each(updates)('updateEvent($name): the field holds the new value, every other field keeps its own', async (u) => {
    const id = await eventOnSite(site);
    const before = await storedEvent(site, id);
    const r = await gql(UPDATE_EVENT, { id: String(id), input: u.input, via: u.via ?? null });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const after = await storedEvent(site, id);
    expect(after).toEqual({ ...before, ...u.expect });
    // The payload says what the site holds.
    const e = r.data.updateEvent.event;
    expect({
      title: e.title,
      featured: e.featured,
      sticky: e.sticky,
      website: e.website,
      showMap: e.showMap,
      showMapLink: e.showMapLink,
      hideFromListings: e.hideFromListings,
    }).toEqual({
      title: after.title,
      featured: after.featured,
      sticky: after.sticky,
      website: after.website,
      showMap: after.show_map,
      showMapLink: after.show_map_link,
      hideFromListings: after.hide_from_listings,
    });
    expect(paris(e.publishedAt)).toBe(after.date);
    expect(sorted(e.categories.map((x: any) => x.databaseId))).toEqual(after.categories);
  });

  it('updateEvent of the dates: both move, the publication date and flags stay', async () => {
    const id = await eventOnSite(site);
    const before = await storedEvent(site, id);
    const r = await gql(UPDATE_EVENT, {
      id: String(id),
      input: { startDate: '2031-03-11T18:00:00+01:00', endDate: '2031-03-11T21:00:00+01:00' },
    });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    expect(await storedEvent(site, id)).toEqual({
      ...before,
      start_date: '2031-03-11 18:00:00',
      end_date: '2031-03-11 21:00:00',
    });
  });

  it(`deleteEvent trashes; a second delete is GONE; force ${core ? 'deletes for good' : 'is refused (no calendar-core/v1), nothing deleted'}`, async () => {
    const id = await eventOnSite(site);
    const r = await gql(
      `mutation($id: ID!) { deleteEvent(id: $id) { databaseId permanently event { databaseId status } } }`,
      { id: String(id) },
    );
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    expect(r.data.deleteEvent).toMatchObject({
      databaseId: id,
      permanently: false,
      event: { databaseId: id, status: 'TRASH' },
    });
    expect((await rest(site, 'GET', `/${site.ns.legacy}/events/${id}`, { auth: admin })).body.status).toBe('trash');
    const again = await gql(`mutation($id: ID!) { deleteEvent(id: $id) { databaseId } }`, { id: String(id) });
    expect(again.errors?.[0]?.extensions?.code, JSON.stringify(again)).toBe('GONE');

    const other = await eventOnSite(site);
    const forced = await gql(
      `mutation($id: ID!) { deleteEvent(id: $id, force: true) { databaseId permanently event { title } } }`,
      { id: String(other) },
    );
    if (core) {
      expect(forced.errors, JSON.stringify(forced.errors)).toBeUndefined();
      expect(forced.data.deleteEvent).toMatchObject({
        databaseId: other,
        permanently: true,
        event: { title: expect.stringContaining('Stored state') },
      });
      const gone = await rest(site, 'GET', `/${site.ns.core}/events/${other}`, { auth: admin });
      expect(gone.status).not.toBe(200);
      const legacyGone = await rest(site, 'GET', `/${site.ns.legacy}/events/${other}`, { auth: admin });
      expect(legacyGone.status).not.toBe(200);
    } else {
      expect(forced.errors?.[0]?.extensions?.code, JSON.stringify(forced)).toBe('BAD_USER_INPUT');
      expect((await storedEvent(site, other)).status).toBe('publish');
    }
  });

  it('venues: created, one field updated with the others kept, trashed (and deleted for good where calendar-core is)', async () => {
    const title = uniq('Venue');
    const made = await gql(
      `mutation($input: VenueInput!) { createVenue(input: $input) { venue { databaseId title address city country zip phone website } } }`,
      {
        input: {
          title,
          address: '1 Rue de la Paix',
          city: 'Paris',
          country: 'France',
          zip: '75002',
          phone: '+33 1 00 00 00 00',
          website: 'https://example.org/venue',
        },
      },
    );
    expect(made.errors, JSON.stringify(made.errors)).toBeUndefined();
    const id = made.data.createVenue.venue.databaseId as number;
    const read = async () => {
      const v = (await rest(site, 'GET', `/${site.ns.legacy}/venues/${id}`, { auth: admin })).body;
      return {
        title: v.venue,
        address: v.address,
        city: v.city,
        country: v.country,
        zip: v.zip,
        phone: v.phone,
        website: v.website,
        status: v.status,
        show_map: v.show_map,
        show_map_link: v.show_map_link,
      };
    };
    const before = await read();
    expect(before).toMatchObject({
      title,
      address: '1 Rue de la Paix',
      city: 'Paris',
      country: 'France',
      zip: '75002',
      phone: '+33 1 00 00 00 00',
      website: 'https://example.org/venue',
      status: 'publish',
    });
    expect(made.data.createVenue.venue).toMatchObject({ title, city: 'Paris', zip: '75002' });

    const up = await gql(
      `mutation($id: ID!) { updateVenue(id: $id, input: { city: "Lyon" }) { venue { databaseId city zip } } }`,
      { id: String(id) },
    );
    expect(up.errors, JSON.stringify(up.errors)).toBeUndefined();
    expect(up.data.updateVenue.venue).toMatchObject({ databaseId: id, city: 'Lyon', zip: '75002' });
    expect(await read()).toEqual({ ...before, city: 'Lyon' });

    await trash('Venue', id);
    if (core) {
      const forced = await gql(`mutation($id: ID!) { deleteVenue(id: $id, force: true) { databaseId permanently } }`, {
        id: String(id),
      });
      expect(forced.errors, JSON.stringify(forced.errors)).toBeUndefined();
      expect(forced.data.deleteVenue).toMatchObject({ databaseId: id, permanently: true });
      expect((await rest(site, 'GET', `/${site.ns.core}/venues/${id}`, { auth: admin })).status).not.toBe(200);
    }
  });

  it('organizers: created, one field updated with the others kept, trashed', async () => {
    const title = uniq('Organizer');
    const made = await gql(
      `mutation($input: OrganizerInput!) { createOrganizer(input: $input) { organizer { databaseId title phone email website } } }`,
      {
        input: { title, phone: '+33 6 00 00 00 00', email: 'org@example.org', website: 'https://example.org/org' },
      },
    );
    expect(made.errors, JSON.stringify(made.errors)).toBeUndefined();
    const id = made.data.createOrganizer.organizer.databaseId as number;
    const read = async () => {
      const o = (await rest(site, 'GET', `/${site.ns.legacy}/organizers/${id}`, { auth: admin })).body;
      return { title: o.organizer, phone: o.phone, email: o.email, website: o.website, status: o.status };
    };
    const before = await read();
    expect(before).toEqual({
      title,
      phone: '+33 6 00 00 00 00',
      email: 'org@example.org',
      website: 'https://example.org/org',
      status: 'publish',
    });

    const up = await gql(
      `mutation($id: ID!) { updateOrganizer(id: $id, input: { phone: "+33 6 11 11 11 11" }) { organizer { phone email } } }`,
      { id: String(id) },
    );
    expect(up.errors, JSON.stringify(up.errors)).toBeUndefined();
    expect(up.data.updateOrganizer.organizer).toEqual({ phone: '+33 6 11 11 11 11', email: 'org@example.org' });
    expect(await read()).toEqual({ ...before, phone: '+33 6 11 11 11 11' });

    await trash('Organizer', id);
  });

  for (const kind of ['category', 'tag'] as const) {
    const Type = kind === 'category' ? 'Category' : 'Tag';
    const route = kind === 'category' ? 'categories' : 'tags';
    it(`${route}: created, updated (the other fields kept), deleted for good`, async () => {
      const name = uniq(Type);
      const input: Record<string, unknown> = { name, description: 'First words.' };
      if (kind === 'category') input.parentId = c.categories.music;
      const made = await gql(
        `mutation($input: ${Type}Input!) { create${Type}(input: $input) { ${kind} { databaseId name slug description } } }`,
        { input },
      );
      expect(made.errors, JSON.stringify(made.errors)).toBeUndefined();
      const term = made.data[`create${Type}`][kind];
      const read = async () => {
        const r = await rest(site, 'GET', `/${site.ns.legacy}/${route}/${term.databaseId}`, { auth: admin });
        return r.status === 200
          ? {
              name: r.body.name,
              slug: r.body.slug,
              description: r.body.description,
              ...(kind === 'category' ? { parent: r.body.parent } : {}),
            }
          : { gone: r.status };
      };
      const before = await read();
      expect(before).toEqual({
        name,
        slug: term.slug,
        description: 'First words.',
        ...(kind === 'category' ? { parent: c.categories.music } : {}),
      });

      const up = await gql(
        `mutation($id: ID!) { update${Type}(id: $id, input: { description: "Second words." }) { ${kind} { name description } } }`,
        { id: String(term.databaseId) },
      );
      expect(up.errors, JSON.stringify(up.errors)).toBeUndefined();
      expect(up.data[`update${Type}`][kind]).toEqual({ name, description: 'Second words.' });
      expect(await read()).toEqual({ ...before, description: 'Second words.' });

      const del = await gql(`mutation($id: ID!) { delete${Type}(id: $id) { databaseId ${kind} { name } } }`, {
        id: String(term.databaseId),
      });
      expect(del.errors, JSON.stringify(del.errors)).toBeUndefined();
      expect(del.data[`delete${Type}`]).toEqual({ databaseId: term.databaseId, [kind]: { name } });
      // The legacy term read answers a missing term 400 `rest_invalid_param` (naming `id`) on both releases.
      expect((await read()).gone).toBeGreaterThanOrEqual(400);
    });
  }

  it('createEvents and updateEvents in bulk: per-item results in input order, each as the site holds it; a missing ID NOT_FOUND at its index', async () => {
    const titles = [uniq('Bulk'), uniq('Bulk'), uniq('Bulk')];
    const created = await gql(
      `mutation($inputs: [EventInput!]!) { createEvents(inputs: $inputs) { written failed unknown results { index databaseId event { title cost } error { code path } } } }`,
      {
        inputs: titles.map((title, i) => ({
          title,
          startDate: `2031-05-0${i + 1}T10:00:00+02:00`,
          endDate: `2031-05-0${i + 1}T12:00:00+02:00`,
          cost: String(10 + i),
          venueIds: [c.venues[i]],
          categoryIds: [c.categories.sports],
        })),
      },
    );
    expect(created.errors, JSON.stringify(created.errors)).toBeUndefined();
    const p = created.data.createEvents;
    expect({ written: p.written, failed: p.failed, unknown: p.unknown }).toEqual({ written: 3, failed: 0, unknown: 0 });
    expect(p.results.map((x: any) => [x.index, x.event.title, x.error])).toEqual(titles.map((t, i) => [i, t, null]));
    const made = p.results.map((x: any) => x.databaseId as number);
    for (const [i, id] of made.entries()) {
      expect(await storedEvent(site, id)).toMatchObject({
        title: titles[i],
        cost: String(10 + i),
        start_date: `2031-05-0${i + 1} 10:00:00`,
        venue: c.venues[i],
        categories: [c.categories.sports],
      });
    }

    const before = await Promise.all(made.map((id: number) => storedEvent(site, id)));
    const updated = await gql(
      `mutation($inputs: [EventUpdateInput!]!) { updateEvents(inputs: $inputs) { written failed unknown results { index databaseId error { code path } } } }`,
      {
        inputs: [
          { id: String(made[0]), input: { cost: '99' } },
          { id: MISSING, input: { cost: '1' } },
          { id: String(made[1]), input: { title: `${titles[1]} renamed` } },
          { id: String(made[2]), input: { featured: true } },
        ],
      },
    );
    expect(updated.errors, JSON.stringify(updated.errors)).toBeUndefined();
    const u = updated.data.updateEvents;
    expect({ written: u.written, failed: u.failed, unknown: u.unknown }).toEqual({ written: 3, failed: 1, unknown: 0 });
    expect(u.results.map((x: any) => x.error)).toEqual([
      null,
      { code: 'NOT_FOUND', path: ['inputs', '1', 'id'] },
      null,
      null,
    ]);
    expect(await storedEvent(site, made[0])).toEqual({ ...before[0], cost: '99' });
    expect(await storedEvent(site, made[1])).toEqual({ ...before[1], title: `${titles[1]} renamed` });
    expect(await storedEvent(site, made[2])).toEqual({ ...before[2], featured: true });

    const deleted = await gql(
      `mutation($ids: [ID!]!) { deleteEvents(ids: $ids) { written results { error { code } } } }`,
      { ids: made.map(String) },
    );
    expect(deleted.data.deleteEvents.written).toBe(3);
  });

  const missing: [string, string][] = [
    ['updateEvent', `mutation($id: ID!) { updateEvent(id: $id, input: { title: "Nobody" }) { __typename } }`],
    ['deleteEvent', `mutation($id: ID!) { deleteEvent(id: $id) { databaseId } }`],
    ['updateVenue', `mutation($id: ID!) { updateVenue(id: $id, input: { city: "Nowhere" }) { __typename } }`],
    ['deleteVenue', `mutation($id: ID!) { deleteVenue(id: $id) { databaseId } }`],
    ['updateOrganizer', `mutation($id: ID!) { updateOrganizer(id: $id, input: { phone: "0" }) { __typename } }`],
    ['deleteOrganizer', `mutation($id: ID!) { deleteOrganizer(id: $id) { databaseId } }`],
    ['updateCategory', `mutation($id: ID!) { updateCategory(id: $id, input: { name: "Nobody" }) { __typename } }`],
    ['deleteCategory', `mutation($id: ID!) { deleteCategory(id: $id) { databaseId } }`],
    ['updateTag', `mutation($id: ID!) { updateTag(id: $id, input: { name: "Nobody" }) { __typename } }`],
    ['deleteTag', `mutation($id: ID!) { deleteTag(id: $id) { databaseId } }`],
    ...(core
      ? ([
          ['deleteEvent(force: true)', `mutation($id: ID!) { deleteEvent(id: $id, force: true) { databaseId } }`],
          [
            'updateEvent(via: CORE)',
            `mutation($id: ID!) { updateEvent(id: $id, via: CORE, input: { title: "Nobody" }) { __typename } }`,
          ],
          [
            'updateVenue(via: CORE)',
            `mutation($id: ID!) { updateVenue(id: $id, via: CORE, input: { city: "Nowhere" }) { __typename } }`,
          ],
        ] as [string, string][])
      : []),
  ];
  it.each(missing)('%s of a missing ID: NOT_FOUND naming the argument', async (_name, query) => {
    const r = await gql(query, { id: MISSING });
    expect(r.errors?.[0]?.extensions, JSON.stringify(r)).toMatchObject({ code: 'NOT_FOUND', arguments: ['id'] });
  });

  it('anonymous writes: UNAUTHENTICATED, nothing sent, nothing stored', async () => {
    const title = uniq('Anonymous');
    const input = { title, startDate: '2031-07-01T10:00:00Z', endDate: '2031-07-01T11:00:00Z' };
    const target = await eventOnSite(site);
    const before = await storedEvent(site, target);
    const sent = await upstreamRequests(g);
    const writes: [string, Record<string, unknown>][] = [
      [`mutation($i: EventInput!) { createEvent(input: $i) { event { databaseId } } }`, { i: input }],
      [`mutation($i: [EventInput!]!) { createEvents(inputs: $i) { written } }`, { i: [input] }],
      [
        `mutation($id: ID!) { updateEvent(id: $id, input: { title: "Anonymous edit" }) { __typename } }`,
        { id: String(target) },
      ],
      [`mutation($id: ID!) { deleteEvent(id: $id) { databaseId } }`, { id: String(target) }],
      [`mutation($n: String!) { createCategory(input: { name: $n }) { category { databaseId } } }`, { n: title }],
      [`mutation($n: String!) { createVenue(input: { title: $n }) { venue { databaseId } } }`, { n: title }],
    ];
    for (const [q, v] of writes) {
      const r = await gql(q, v, null);
      expect(r.errors?.[0]?.extensions?.code, `${q}: ${JSON.stringify(r)}`).toBe('UNAUTHENTICATED');
    }
    expect(await upstreamRequests(g)).toBe(sent);
    expect(await storedEvent(site, target)).toEqual(before);
    const found = await rest(
      site,
      'GET',
      `/${site.ns.legacy}/events?search=${encodeURIComponent(title)}&status=publish,draft,pending&start_date=2000-01-01&end_date=2100-01-01`,
      { auth: admin },
    );
    expect(found.body.events ?? []).toEqual([]);
  });

  it(`a field the site cannot take is refused, never reported written: virtual ${core ? '(declared by neither interface of 6.15.14: WRITE_NOT_APPLIED, UNDECLARED)' : '(no calendar-core/v1: BAD_USER_INPUT)'}`, async () => {
    const title = uniq('Virtual');
    const sent = await upstreamRequests(g);
    const r = await gql(`mutation($i: EventInput!) { createEvent(input: $i) { event { databaseId virtual } } }`, {
      i: { title, startDate: '2031-07-02T10:00:00Z', endDate: '2031-07-02T11:00:00Z', virtual: true },
    });
    expect(r.data?.createEvent ?? null).toBeNull();
    if (core) {
      expect(r.errors?.[0]?.extensions, JSON.stringify(r)).toMatchObject({
        code: 'WRITE_NOT_APPLIED',
        notApplied: [expect.objectContaining({ field: 'virtual', reason: 'UNDECLARED' })],
      });
    } else {
      expect(r.errors?.[0]?.extensions, JSON.stringify(r)).toMatchObject({
        code: 'BAD_USER_INPUT',
        arguments: ['input.virtual'],
      });
    }
    expect(await upstreamRequests(g)).toBe(sent);
    const found = await rest(
      site,
      'GET',
      `/${site.ns.legacy}/events?search=${encodeURIComponent(title)}&status=publish,draft,pending&start_date=2000-01-01&end_date=2100-01-01`,
      { auth: admin },
    );
    expect(found.body.events ?? []).toEqual([]);
  });
});
