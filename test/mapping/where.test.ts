import { describe, expect, it } from 'vitest';
import { parseIndex } from '../../src/upstream/discovery.ts';
import type { GatewayError } from '../../src/errors.ts';
import type { EventsWhere } from '../../src/generated/graphql.ts';
import {
  OPEN_END,
  OPEN_START,
  planEvents,
  planPlaces,
  planSeries,
  planTerms,
} from '../../src/namespaces/calendar/where.ts';

const site = (namespaces: string[]) => parseIndex({ namespaces, timezone_string: 'America/New_York', routes: {} });
const both = site(['calendar/events/v1', 'calendar-core/v1']);
const legacy = site(['calendar/events/v1']);
const core = site(['calendar-core/v1']);

describe('planEvents', () => {
  it('prefers the legacy list, with published events and an open window that is not the epoch', () => {
    const p = planEvents(both, { search: 'jazz', categoryIds: [3], venueIds: [9], featured: true });
    expect(p).toEqual({
      iface: 'legacy',
      query: {
        search: 'jazz',
        categories: '3',
        venue: [9],
        featured: true,
        status: 'publish',
        start_date: '1900-01-01 00:00:00',
        end_date: '9998-12-31 23:59:59',
      },
    });
    expect(planEvents(both, {}).query).toEqual({ status: 'publish', start_date: OPEN_START, end_date: OPEN_END });
  });

  it('always sends both ends of the legacy window: one date alone would keep the default of the other', () => {
    expect(planEvents(legacy, { endDate: '2026-12-01T00:00:00Z' }).query).toMatchObject({
      start_date: OPEN_START,
      end_date: '2026-11-30 19:00:00',
    });
    expect(planEvents(legacy, { startDate: '2026-12-01T00:00:00Z' }).query).toMatchObject({
      start_date: '2026-11-30 19:00:00',
      end_date: OPEN_END,
    });
  });

  it('uses calendar-core/v1 for what only it has, widening dates to whole days as the legacy list does', () => {
    const p = planEvents(both, {
      near: 'Paris',
      startDate: '2026-12-01T10:00:00+09:00',
      endDate: '2026-12-05T00:00:00Z',
      status: ['DRAFT', 'PENDING'],
    });
    expect(p).toEqual({
      iface: 'core',
      query: {
        near: 'Paris',
        start_date: '2026-11-30 00:00:00',
        end_date: '2026-12-04 23:59:59',
        status: ['draft', 'pending'],
      },
    });
    expect(
      planEvents(both, { near: 'Paris', startDate: '2026-12-01T10:00:00+09:00', strictDates: true }).query.start_date,
    ).toBe('2026-11-30 20:00:00');
    expect(planEvents(core, {}).iface).toBe('core');
  });

  it('refuses mixing the two kinds, and what the site lacks, naming the arguments', () => {
    expect(() => planEvents(both, { categoryIds: [1], near: 'Paris' })).toThrow(
      /where\.categoryIds .*cannot be combined with where\.near/,
    );
    expect(() => planEvents(legacy, { virtual: true })).toThrow(/where\.virtual needs calendar-core\/v1/);
    expect(() => planEvents(core, { tagIds: [2] })).toThrow(/needs calendar\/events\/v1/);
    expect(() => planEvents(both, {}, { field: 'TITLE' }).query).not.toThrow();
    expect(() => planEvents(legacy, {}, { field: 'TITLE' })).toThrow(/orderBy needs calendar-core/);
  });

  it('refuses strictDates on a legacy list that does not declare strict_dates (TEC before 6.0.2)', () => {
    const old = parseIndex({
      namespaces: ['calendar/events/v1'],
      timezone_string: 'UTC',
      routes: {
        '/calendar/events/v1/events': { methods: ['GET'], endpoints: [{ methods: ['GET'], args: { start_date: {} } }] },
      },
    });
    expect(() => planEvents(old, { strictDates: true })).toThrow(/strict_dates/);
    expect(planEvents(legacy, { strictDates: true }).query.strict_dates).toBe(true);
  });

  it('converts DateTime filters to site-local times and refuses bad ones', () => {
    expect(planEvents(both, { startDate: '2026-01-01T00:00:00Z' }).query.start_date).toBe('2025-12-31 19:00:00');
    expect(() => planEvents(both, { startDate: 'soon' })).toThrow(/where\.startDate/);
  });
});

describe('planPlaces, planTerms, planSeries', () => {
  it('maps place filters and keeps venue-only ones off organizers', () => {
    expect(planPlaces(both, 'venues', { near: 'Paris', hasEvents: true })).toEqual({
      iface: 'core',
      query: { near: 'Paris', has_events: true },
    });
    expect(() => planPlaces(both, 'organizers', { near: 'Paris' })).toThrow(/venues only/);
    expect(planPlaces(legacy, 'organizers', {}).query).toEqual({ status: 'publish' });
  });

  it('maps term filters to the legacy routes, and series to calendar-core', () => {
    expect(
      planTerms(both, 'categories', { ids: [1], hideEmpty: false, parent: 0 }, { field: 'NAME', direction: 'DESC' }),
    ).toEqual({
      iface: 'legacy',
      query: { include: [1], hide_empty: false, orderby: 'name', order: 'desc' },
      parent: 0,
    });
    expect(() => planTerms(both, 'categories', { parent: -1 })).toThrow(/where\.parent/);
    expect(() => planTerms(core, 'tags', {})).toThrow(/does not offer/);
    expect(planSeries(both, { eventIds: [5], status: ['DRAFT'] }).query).toEqual({
      event_post_id: [5],
      status: ['draft'],
    });
    expect(() => planSeries(legacy, {})).toThrow(/does not offer/);
  });
});

/** A root index whose list routes declare `args` (route -> names), as a real site's does. */
function declaring(namespaces: string[], args: Record<string, string[]>) {
  const routes = Object.fromEntries(
    Object.entries(args).map(([route, names]) => [
      route,
      { methods: ['GET'], endpoints: [{ methods: ['GET'], args: Object.fromEntries(names.map((n) => [n, {}])) }] },
    ]),
  );
  return parseIndex({ namespaces, timezone_string: 'UTC', routes });
}

const PLACES = ['event', 'has_events', 'only_with_upcoming', 'page', 'per_page', 'search', 'status'];
const LEGACY_57 = [
  'categories',
  'end_date',
  'featured',
  'geoloc',
  'geoloc_lat',
  'geoloc_lng',
  'include',
  'organizer',
  'page',
  'per_page',
  'post_parent',
  'search',
  'start_date',
  'status',
  'tags',
  'venue',
];
const LEGACY_615 = [
  ...LEGACY_57,
  'ends_after',
  'ends_before',
  'starts_after',
  'starts_before',
  'strict_dates',
  'ticketed',
];
const CORE_615 = [
  'categories',
  'end_date',
  'ends_after',
  'ends_before',
  'featured',
  'order',
  'orderby',
  'organizer',
  'page',
  'per_page',
  'post_parent',
  'search',
  'start_date',
  'starts_after',
  'starts_before',
  'status',
  'tags',
  'ticketed',
  'venue',
];
/** The Events Calendar 5.7.1 (legacy only) and 6.15.14 (both), as their root indexes declare the list routes. */
const tec57 = declaring(['calendar/events/v1'], {
  '/calendar/events/v1/events': LEGACY_57,
  '/calendar/events/v1/venues': PLACES,
  '/calendar/events/v1/organizers': PLACES,
});
const tec615 = declaring(['calendar/events/v1', 'calendar-core/v1'], {
  '/calendar/events/v1/events': LEGACY_615,
  '/calendar/events/v1/venues': PLACES,
  '/calendar/events/v1/organizers': PLACES,
  '/calendar-core/v1/events': CORE_615,
  '/calendar-core/v1/venues': PLACES,
  '/calendar-core/v1/organizers': PLACES,
});

/** 6.15.14 with Event Tickets active: its root index lists tribe/tickets/v1, so both lists apply `ticketed`. */
const tec615Tickets = parseIndex({ ...(tec615.raw as object), namespaces: [...tec615.namespaces, 'tribe/tickets/v1'] });
const SERIES_ARGS = ['event_post_id', 'order', 'orderby', 'page', 'per_page', 'search', 'status', 'ticketed'];
const withSeries = (namespaces: string[]) =>
  declaring(namespaces, {
    '/calendar/events/v1/events': LEGACY_615,
    '/calendar-core/v1/events': CORE_615,
    '/calendar-core/v1/series': SERIES_ARGS,
  });

/** The error `f` throws (undefined when it does not). */
function thrown(f: () => unknown): (Error & { extensions?: Record<string, unknown> }) | undefined {
  try {
    f();
  } catch (e) {
    return e as Error & { extensions?: Record<string, unknown> };
  }
  return undefined;
}

describe('inert arguments: declared, not applied (upstream/inert.ts)', () => {
  it('refuses ticketed, true and false, on 6.15 without Event Tickets, naming the argument, both lists, the release and why', () => {
    for (const ticketed of [true, false]) {
      const err = thrown(() => planEvents(tec615, { ticketed }));
      expect(err, String(ticketed)).toMatchObject({
        extensions: {
          code: 'BAD_USER_INPUT',
          arguments: ['where.ticketed'],
          routes: ['GET /calendar/events/v1/events', 'GET /calendar-core/v1/events'],
          release: 'The Events Calendar 6.15 or later (calendar-core/v1 present)',
        },
      });
      expect(err!.message).toContain(
        'GET /calendar/events/v1/events and GET /calendar-core/v1/events declare ticketed but do not apply it',
      );
      expect(err!.message).toContain(
        'Event Tickets is not active on the site (its root index lists no tribe/tickets/v1)',
      );
      // Not the undeclared wording: the routes do declare it.
      expect(err!.message).not.toContain('does not declare');
    }
    // Whatever else is asked and whichever list is preferred.
    expect(() => planEvents(tec615, { ticketed: true, startsAfter: '2027-03-01T00:00:00Z' }, null, 'core')).toThrow(
      /where\.ticketed/,
    );
    expect(() => planEvents(tec615, { ticketed: true }, { field: 'TITLE' })).toThrow(
      /GET \/calendar-core\/v1\/events declares ticketed but does not apply it/,
    );
  });

  it('names both reasons when one argument is undeclared and another inert', () => {
    const err = thrown(() => planEvents(tec615, { ticketed: true, virtual: true }));
    expect(err?.extensions).toMatchObject({ arguments: expect.arrayContaining(['where.ticketed', 'where.virtual']) });
    expect(err!.message).toMatch(
      /GET \/calendar-core\/v1\/events does not declare virtual.*declares ticketed but does not apply it/,
    );
    expect(err!.message).toContain('WordPress ignores an argument a route does not declare');
  });

  it('applies ticketed, true and false, once the index lists tribe/tickets/v1', () => {
    expect(planEvents(tec615Tickets, { ticketed: true })).toMatchObject({ iface: 'legacy', query: { ticketed: true } });
    expect(planEvents(tec615Tickets, { ticketed: false }, null, 'core')).toMatchObject({
      iface: 'core',
      query: { ticketed: false },
    });
  });

  it("keeps 5.7's refusal as an undeclared argument: its legacy list does not declare ticketed", () => {
    const err = thrown(() => planEvents(tec57, { ticketed: true }));
    expect(err?.extensions).toMatchObject({
      arguments: ['where.ticketed'],
      routes: ['GET /calendar/events/v1/events'],
      release: expect.stringMatching(/before 6\.0/),
    });
    expect(err!.message).toContain('GET /calendar/events/v1/events does not declare ticketed');
    expect(err!.message).not.toContain('Event Tickets');
  });

  it("refuses the series list's ticketed the same way, and applies it with Event Tickets", () => {
    const err = thrown(() => planSeries(withSeries(['calendar/events/v1', 'calendar-core/v1']), { ticketed: false }));
    expect(err?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      arguments: ['where.ticketed'],
      routes: ['GET /calendar-core/v1/series'],
    });
    expect(err!.message).toContain(
      'GET /calendar-core/v1/series declares ticketed but does not apply it: Event Tickets is not active',
    );
    expect(
      planSeries(withSeries(['calendar/events/v1', 'calendar-core/v1', 'tribe/tickets/v1']), { ticketed: false }).query,
    ).toEqual({ ticketed: false });
  });
});

describe('the site declares what is sent', () => {
  it('refuses on 5.7 the date bounds and ticketed its legacy list does not declare, naming the route and release', () => {
    for (const where of [
      { startsAfter: '2027-03-01T00:00:00Z' },
      { startsBefore: '2027-03-01T00:00:00Z' },
      { endsAfter: '2027-03-01T00:00:00Z' },
      { endsBefore: '2027-03-01T00:00:00Z' },
      { ticketed: true },
      { ticketed: false },
      { strictDates: true },
    ]) {
      const name = `where.${Object.keys(where)[0]}`;
      let err: unknown;
      try {
        planEvents(tec57, where);
      } catch (e) {
        err = e;
      }
      expect(err, name).toMatchObject({
        extensions: {
          code: 'BAD_USER_INPUT',
          arguments: [name],
          routes: ['GET /calendar/events/v1/events'],
          release: expect.stringMatching(/before 6\.0/),
        },
      });
      expect((err as Error).message).toContain(name);
    }
  });

  it('serves on 6.15 what either list declares, from the list that declares it', () => {
    expect(planEvents(tec615Tickets, { startsAfter: '2027-03-01T00:00:00Z', ticketed: true })).toMatchObject({
      iface: 'legacy',
      query: { starts_after: '2027-03-01 00:00:00', ticketed: true },
    });
    // A legacy-only argument the core list lacks, with a preference for core: still the legacy list.
    expect(planEvents(tec615, { categoryIds: [3] }, null, 'core').iface).toBe('legacy');
    expect(planEvents(tec615, {}, { field: 'TITLE' }).iface).toBe('core');
    expect(planEvents(tec615, { featured: true }, null, 'core').iface).toBe('core');
  });

  it("refuses the legacy list's geolocation filters, which only Events Calendar Pro applies, naming the argument and why", () => {
    for (const where of [{ hasGeolocation: true }, { geolocation: { latitude: 48.8, longitude: 2.3 } }]) {
      try {
        planEvents(tec615, where);
        expect.unreachable();
      } catch (err) {
        expect((err as GatewayError).extensions).toMatchObject({
          code: 'BAD_USER_INPUT',
          arguments: [`where.${Object.keys(where)[0]}`],
        });
        expect((err as Error).message).toContain('Events Calendar Pro');
      }
    }
  });

  it('refuses on 6.15 the calendar-core filters its list does not declare', () => {
    const cases: [EventsWhere, string][] = [
      [{ virtual: true }, 'where.virtual'],
      [{ recurring: false }, 'where.recurring'],
      [{ inSeries: true }, 'where.inSeries'],
      [{ near: 'Paris' }, 'where.near'],
      [{ seriesIds: [4] }, 'where.seriesIds'],
      [{ relatedTo: 5 }, 'where.relatedTo'],
      [{ geolocation: { latitude: 48.8, longitude: 2.3, distance: 25 } }, 'where.geolocation'],
    ];
    for (const [where, arg] of cases) {
      expect(() => planEvents(tec615, where), arg).toThrow(
        new RegExp(`${arg.replace('.', '\\.')}.*GET /calendar-core/v1/events does not declare`),
      );
    }
    expect(() => planPlaces(tec615, 'venues', { near: 'Paris' })).toThrow(
      /where\.near cannot be applied.*calendar-core\/v1\/venues does not declare near/,
    );
    expect(() => planPlaces(tec615, 'venues', { hasGeolocation: true })).toThrow(/has_geoloc/);
    expect(planPlaces(tec615, 'venues', { hasEvents: true })).toEqual({ iface: 'core', query: { has_events: true } });
  });

  it('trusts an index that lists no arguments (nothing can be checked)', () => {
    expect(planEvents(both, { virtual: true }).iface).toBe('core');
    expect(planEvents(legacy, { ticketed: true }).query.ticketed).toBe(true);
  });
});
