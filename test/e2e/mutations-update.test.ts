/**
 * Event updates change what the caller names and nothing else, on both
 * shapes of site and through both interfaces.
 *
 * The legacy update `POST /calendar/events/v1/events/<id>` is not partial on
 * a real site: what it omits is reset (timezone, featured, cost, organizers,
 * website) and an end date without its start date is ignored
 * (real-site-behaviour.md "Legacy update ... is not a partial update"). A
 * calendar-core update with only `end_date` leaves `duration` stale (same
 * file, "calendar-core/v1 ... Updates"). Each case below updates one field of
 * a fully set event — a past one, which the legacy `include=` list cannot
 * find — then reads the event back through the REST API and compares every
 * other field with what it was.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { restClient, type RestClient } from '../helpers/sandbox.ts';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';

const SHAPES: { shape: string; sandbox: SandboxOptionsInput; core: boolean }[] = [
  { shape: 'with calendar-core/v1', sandbox: {}, core: true },
  { shape: 'without calendar-core/v1', sandbox: { disable: ['calendar-core/v1'] }, core: false },
];

interface Refs {
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
}

const ids = (xs: unknown): number[] =>
  (Array.isArray(xs) ? xs : xs && typeof xs === 'object' ? [xs] : []).map((x: any) =>
    typeof x === 'number' ? x : x.id,
  );

/** Every field of a legacy single GET that an update could lose. */
function legacySnap(e: any) {
  return {
    title: e.title,
    description: e.description,
    excerpt: e.excerpt,
    status: e.status,
    start_date: e.start_date,
    end_date: e.end_date,
    timezone: e.timezone,
    all_day: e.all_day,
    featured: e.featured,
    sticky: e.sticky,
    cost: e.cost,
    website: e.website === e.url ? '(none)' : e.website,
    show_map: e.show_map,
    show_map_link: e.show_map_link,
    hide_from_listings: e.hide_from_listings,
    venue: ids(e.venue),
    organizer: ids(e.organizer),
    categories: ids(e.categories),
    tags: ids(e.tags),
    image: e.image ? e.image.id : null,
  };
}

function seconds(local: string): number {
  return Date.parse(`${local.replace(' ', 'T')}Z`) / 1000;
}

/** One field per case: the graph input, and what changes in the legacy single GET. */
const CASES: {
  name: string;
  input: (r: Refs) => Record<string, unknown>;
  change: (r: Refs) => Record<string, unknown>;
}[] = [
  { name: 'title', input: () => ({ title: 'Renamed' }), change: () => ({ title: 'Renamed' }) },
  {
    name: 'endDate alone',
    input: () => ({ endDate: '2024-03-10T13:00:00+01:00' }),
    change: () => ({ end_date: '2024-03-10 13:00:00' }),
  },
  {
    name: 'startDate alone',
    input: () => ({ startDate: '2024-03-10T09:30:00+01:00' }),
    change: () => ({ start_date: '2024-03-10 09:30:00' }),
  },
  {
    name: 'both dates',
    input: () => ({ startDate: '2024-03-11T08:00:00+01:00', endDate: '2024-03-11T09:00:00+01:00' }),
    change: () => ({ start_date: '2024-03-11 08:00:00', end_date: '2024-03-11 09:00:00' }),
  },
  // A new zone keeps the wall-clock times (what the legacy update does with a zone and both dates).
  { name: 'timezone', input: () => ({ timezone: 'Asia/Tokyo' }), change: () => ({ timezone: 'Asia/Tokyo' }) },
  { name: 'featured', input: () => ({ featured: false }), change: () => ({ featured: false }) },
  { name: 'sticky', input: () => ({ sticky: false }), change: () => ({ sticky: false }) },
  { name: 'cost', input: () => ({ cost: '$20' }), change: () => ({ cost: '$20' }) },
  {
    name: 'website',
    input: () => ({ website: 'https://example.org/moved' }),
    change: () => ({ website: 'https://example.org/moved' }),
  },
  { name: 'showMap', input: () => ({ showMap: true }), change: () => ({ show_map: true }) },
  { name: 'showMapLink', input: () => ({ showMapLink: true }), change: () => ({ show_map_link: true }) },
  {
    name: 'hideFromListings',
    input: () => ({ hideFromListings: false }),
    change: () => ({ hide_from_listings: false }),
  },
  { name: 'venueIds', input: (r) => ({ venueIds: [r.venues[1]] }), change: (r) => ({ venue: [r.venues[1]] }) },
  {
    name: 'organizerIds',
    input: (r) => ({ organizerIds: [r.organizers[1]] }),
    change: (r) => ({ organizer: [r.organizers[1]] }),
  },
  {
    name: 'categoryIds',
    input: (r) => ({ categoryIds: [r.categories[1]] }),
    change: (r) => ({ categories: [r.categories[1]] }),
  },
  { name: 'tagIds', input: (r) => ({ tagIds: [r.tags[1]] }), change: (r) => ({ tags: [r.tags[1]] }) },
  { name: 'status', input: () => ({ status: 'DRAFT' }), change: () => ({ status: 'draft' }) },
  { name: 'excerpt', input: () => ({ excerpt: 'New excerpt' }), change: () => ({ excerpt: 'New excerpt' }) },
  {
    name: 'description',
    input: () => ({ description: '<p>New body</p>' }),
    change: () => ({ description: '<p>New body</p>' }),
  },
];

const UPDATE = `mutation($id: ID!, $input: EventInput!, $via: WriteInterface, $m: UpdateMethod) {
  updateEvent(id: $id, input: $input, via: $via, method: $m) { event { databaseId title startDate endDate timezone featured cost } }
}`;

describe.each(SHAPES)('event updates change only what they name, on a site $shape', ({ sandbox, core }) => {
  let h: Harness;
  let rest: RestClient;
  const refs: Refs = { venues: [], organizers: [], categories: [], tags: [] };

  beforeAll(async () => {
    h = await startHarness({ sandbox });
    rest = restClient(h.sandbox);
    for (const i of [0, 1]) {
      refs.venues.push(
        (await rest.send('POST', '/calendar/events/v1/venues', { venue: `State hall ${i}`, city: 'Lyon' }, 'admin'))
          .body.id,
      );
      refs.organizers.push(
        (await rest.send('POST', '/calendar/events/v1/organizers', { organizer: `State org ${i}` }, 'admin')).body.id,
      );
      refs.categories.push(
        (await rest.send('POST', '/calendar/events/v1/categories', { name: `State cat ${i}` }, 'admin')).body.id,
      );
      refs.tags.push(
        (await rest.send('POST', '/calendar/events/v1/tags', { name: `State tag ${i}` }, 'admin')).body.id,
      );
    }
    refs.organizers.push(
      (await rest.send('POST', '/calendar/events/v1/organizers', { organizer: 'State org 2' }, 'admin')).body.id,
    );
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  /** A past event with every field set, written straight to the site. */
  async function richEvent(): Promise<number> {
    const r = await rest.send(
      'POST',
      '/calendar/events/v1/events',
      {
        title: 'Rich event',
        description: '<p>Rich body</p>',
        excerpt: 'Rich excerpt',
        status: 'publish',
        start_date: '2024-03-10 10:00:00',
        end_date: '2024-03-10 12:00:00',
        timezone: 'Europe/Paris',
        all_day: false,
        featured: true,
        sticky: true,
        cost: '$15',
        website: 'https://example.org/rich',
        show_map: false,
        show_map_link: false,
        hide_from_listings: true,
        venue: refs.venues[0],
        organizer: [refs.organizers[0], refs.organizers[2]],
        categories: [refs.categories[0]],
        tags: [refs.tags[0]],
        image: 'https://example.org/rich.jpg',
      },
      'admin',
    );
    expect(r.status).toBe(201);
    return r.body.id;
  }

  const read = async (id: number) => {
    const r = await rest.get(`/calendar/events/v1/events/${id}`, 'admin');
    expect(r.status).toBe(200);
    return r.body;
  };

  const routes: ('LEGACY' | null)[] = core ? ['LEGACY', null] : [null];
  for (const via of routes) {
    const how =
      via === 'LEGACY'
        ? 'via: LEGACY'
        : core
          ? 'the default interface (calendar-core/v1, legacy-only fields in a legacy follow-up)'
          : 'the default interface (legacy)';
    it.each(CASES)(`$name through ${how}`, async ({ input, change }) => {
      const id = await richEvent();
      const before = legacySnap(await read(id));
      expect(before).toMatchObject({
        timezone: 'Europe/Paris',
        featured: true,
        cost: '$15',
        organizer: [refs.organizers[0], refs.organizers[2]],
        website: 'https://example.org/rich',
      });
      h.mark();
      const r = await h.gql(UPDATE, { id: String(id), input: input(refs), via }, 'admin');
      expect(r.errors).toBeUndefined();
      const after = legacySnap(await read(id));
      expect(after).toEqual({ ...before, ...change(refs) });
      if (core) {
        // The stored duration matches the stored dates, whichever interface wrote them.
        const c = (await rest.get(`/calendar-core/v1/events/${id}`, 'admin')).body;
        expect(Number(c.duration)).toBe(seconds(c.end_date) - seconds(c.start_date));
        expect([c.start_date, c.end_date]).toEqual([after.start_date, after.end_date]);
      }
    });
  }

  it('a legacy update reads the event once with the legacy single GET, then sends one write', async () => {
    const id = await richEvent();
    h.mark();
    const r = await h.gql(UPDATE, { id: String(id), input: { cost: '$30' }, via: core ? 'LEGACY' : null }, 'admin');
    expect(r.data.updateEvent.event).toMatchObject({
      databaseId: id,
      cost: '$30',
      timezone: 'Europe/Paris',
      featured: true,
      startDate: '2024-03-10T10:00:00+01:00',
    });
    expect(h.calls().map((c) => `${c.method} ${c.route}`)).toEqual([
      'GET /calendar/events/v1/events/(?P<id>\\d+)',
      'PATCH /calendar/events/v1/events/(?P<id>\\d+)',
    ]);
  });

  it('refuses an update whose stored start falls after the new end, sending no write', async () => {
    const id = await richEvent();
    h.mark();
    const r = await h.gql(
      UPDATE,
      { id: String(id), input: { endDate: '2024-03-10T09:00:00+01:00' }, via: core ? 'LEGACY' : null },
      'admin',
    );
    expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['input.endDate'] });
    expect(h.calls().filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it("an update of an event that does not exist answers the read's error and writes nothing", async () => {
    const r = await h.gql(UPDATE, { id: '987654', input: { cost: '1' }, via: core ? 'LEGACY' : null }, 'admin');
    expect(r.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', arguments: ['id'] });
    expect(h.calls().filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('bulk legacy updates read each event once, in parallel, before writing; an event given twice is refused', async () => {
    const [a, b] = [await richEvent(), await richEvent()];
    h.mark();
    const r = await h.gql(
      `mutation($inputs: [EventUpdateInput!]!, $via: WriteInterface) { updateEvents(inputs: $inputs, via: $via) { failed results { error { code path } event { databaseId cost featured timezone } } } }`,
      {
        inputs: [
          { id: String(a), input: { cost: '$1' } },
          { id: String(b), input: { cost: '$2' } },
          { id: String(a), input: { title: 'Twice' } },
        ],
        via: core ? 'LEGACY' : null,
      },
      'admin',
    );
    const p = r.data.updateEvents;
    expect(p.failed).toBe(1);
    expect(p.results[2].error).toEqual({ code: 'BAD_USER_INPUT', path: ['inputs', '2', 'id'] });
    expect(p.results.slice(0, 2).map((x: any) => x.event)).toEqual([
      { databaseId: a, cost: '$1', featured: true, timezone: 'Europe/Paris' },
      { databaseId: b, cost: '$2', featured: true, timezone: 'Europe/Paris' },
    ]);
    const calls = h.calls();
    expect(
      calls
        .filter((c) => c.method === 'GET')
        .map((c) => c.path)
        .sort(),
    ).toEqual([`/calendar/events/v1/events/${a}`, `/calendar/events/v1/events/${b}`].sort());
    expect(
      calls
        .filter((c) => c.method !== 'GET')
        .map((c) => `${c.method} ${c.path}`)
        .sort(),
    ).toEqual([`PATCH /calendar/events/v1/events/${a}`, `PATCH /calendar/events/v1/events/${b}`].sort());
    expect(legacySnap(await read(a))).toMatchObject({
      title: 'Rich event',
      cost: '$1',
      organizer: [refs.organizers[0], refs.organizers[2]],
    });
  });
});

describe('calendar-core updates send both dates and the matching duration', () => {
  let h: Harness;
  let rest: RestClient;
  beforeAll(async () => {
    h = await startHarness();
    rest = restClient(h.sandbox);
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it.each(['PATCH', 'PUT'])(
    '%s with endDate only: the stored state read, one write, the fields its answer hides read back; duration follows',
    async (m) => {
      const made = await rest.send(
        'POST',
        '/calendar-core/v1/events',
        {
          title: 'Core dates',
          start_date: '2031-03-10 10:00:00',
          end_date: '2031-03-10 12:00:00',
          timezone: 'Europe/Paris',
        },
        'admin',
      );
      const id = made.body.id;
      h.mark();
      const r = await h.gql(UPDATE, { id: String(id), input: { endDate: '2031-03-10T13:00:00+01:00' }, m }, 'admin');
      expect(r.errors).toBeUndefined();
      expect(h.calls().map((c) => `${c.method} ${c.route}`)).toEqual([
        'GET /calendar/events/v1/events/(?P<id>\\d+)',
        `${m} /calendar-core/v1/events/(?P<id>\\d+)`,
        'GET /calendar/events/v1/events/(?P<id>\\d+)',
      ]);
      const c = (await rest.get(`/calendar-core/v1/events/${id}`, 'admin')).body;
      expect([c.start_date, c.end_date, Number(c.duration)]).toEqual([
        '2031-03-10 10:00:00',
        '2031-03-10 13:00:00',
        3 * 3600,
      ]);
    },
  );

  it('duration alone moves the end; both dates and a zone are sent as given', async () => {
    const made = await rest.send(
      'POST',
      '/calendar-core/v1/events',
      {
        title: 'Core duration',
        start_date: '2031-03-12 10:00:00',
        end_date: '2031-03-12 12:00:00',
        timezone: 'Europe/Paris',
      },
      'admin',
    );
    const id = made.body.id;
    const r = await h.gql(UPDATE, { id: String(id), input: { duration: 5400 } }, 'admin');
    expect(r.data.updateEvent.event.endDate).toBe('2031-03-12T11:30:00+01:00');
    h.mark();
    const both = await h.gql(
      UPDATE,
      {
        id: String(id),
        input: { startDate: '2031-03-13T10:00:00Z', endDate: '2031-03-13T11:00:00Z', timezone: 'UTC' },
      },
      'admin',
    );
    expect(both.data.updateEvent.event).toMatchObject({
      startDate: '2031-03-13T10:00:00Z',
      endDate: '2031-03-13T11:00:00Z',
    });
    expect(h.calls().map((c) => c.method)).toEqual(['GET', 'PATCH', 'GET']);
    const c = (await rest.get(`/calendar-core/v1/events/${id}`, 'admin')).body;
    expect(Number(c.duration)).toBe(3600);
  });
});
