/**
 * The pure half of full-state updates: what a legacy update must carry
 * (real-site-behaviour.md "Legacy update ... is not a partial update") and the
 * dates of an update that touches one of them.
 */
import { describe, expect, it } from 'vitest';
import {
  completeCoreDates,
  completeLegacyUpdate,
  eventPayloads,
  eventReferences,
  graphField,
  isIssue,
  legacyEventState,
  organizerPayloads,
  storedDates,
  termPayload,
  touchesDates,
  updatedDates,
  validateEvent,
  validateOrganizer,
  validateTerm,
  validateVenue,
  venuePayloads,
} from '../../src/writes/inputs.ts';

const legacyBody = {
  id: 83,
  url: 'https://example.org/event/x/',
  status: 'publish',
  title: 'Rock &#038; Roll',
  description: '<p>Body</p>',
  start_date: '2026-11-22 20:00:00',
  end_date: '2026-11-22 22:00:00',
  timezone: 'Asia/Tokyo',
  all_day: false,
  cost: '$10',
  website: 'https://example.org/event/x/',
  show_map: true,
  show_map_link: false,
  hide_from_listings: false,
  sticky: false,
  featured: true,
  image: { id: 7 },
  categories: [{ id: 5 }],
  tags: [],
  venue: { id: 21 },
  organizer: [{ id: 41 }, { id: 42 }],
};
const o = { siteZone: 'America/New_York', eventZone: 'Asia/Tokyo' };

describe('legacyEventState', () => {
  it('carries the calendar data, never the permalink as a website, nor the rendered title and description', () => {
    expect(legacyEventState(legacyBody, 'legacy')).toEqual({
      start_date: '2026-11-22 20:00:00',
      end_date: '2026-11-22 22:00:00',
      timezone: 'Asia/Tokyo',
      all_day: false,
      featured: true,
      sticky: false,
      cost: '$10',
      status: 'publish',
      show_map: true,
      show_map_link: false,
      hide_from_listings: false,
      venue: 21,
      organizer: [41, 42],
      categories: [5],
      tags: [],
      image: 7,
    });
    expect(legacyEventState({ ...legacyBody, website: 'https://other.example/' }, 'legacy').website).toBe(
      'https://other.example/',
    );
  });

  it('sends no venue when the event has several (the update takes one, and keeps them when omitted)', () => {
    expect(legacyEventState({ ...legacyBody, venue: [{ id: 1 }, { id: 2 }] }, 'legacy')).not.toHaveProperty('venue');
    expect(legacyEventState({ ...legacyBody, venue: [] }, 'legacy')).not.toHaveProperty('venue');
  });

  it('reads a calendar-core body: IDs of embedded objects, no legacy-only fields', () => {
    const s = legacyEventState(
      {
        start_date: '2031-01-01 10:00:00',
        end_date: '2031-01-01 11:00:00',
        timezone: 'UTC',
        featured: true,
        cost: '$5',
        venues: [{ id: 3 }],
        organizers: [{ id: 4 }],
        calendar_events_cat: [9],
        tags: [8],
        featured_media: 0,
        status: 'draft',
      },
      'core',
    );
    expect(s).toEqual({
      start_date: '2031-01-01 10:00:00',
      end_date: '2031-01-01 11:00:00',
      timezone: 'UTC',
      featured: true,
      cost: '$5',
      status: 'draft',
      venue: 3,
      organizer: [4],
      categories: [9],
      tags: [8],
    });
  });
});

describe('completeLegacyUpdate', () => {
  it('an end date alone goes with the stored start; everything else is kept', () => {
    const out = completeLegacyUpdate(
      [legacyEventState(legacyBody, 'legacy')],
      { end_date: 'ignored' },
      { endDate: '2026-11-22T23:00:00+09:00' },
      storedDates(legacyBody),
      o,
    );
    expect(out).toMatchObject({
      start_date: '2026-11-22 20:00:00',
      end_date: '2026-11-22 23:00:00',
      timezone: 'Asia/Tokyo',
      featured: true,
      cost: '$10',
      organizer: [41, 42],
    });
  });

  it('refuses an end before the stored start', () => {
    const out = completeLegacyUpdate(
      [legacyEventState(legacyBody, 'legacy')],
      {},
      { endDate: '2026-11-22T19:00:00+09:00' },
      storedDates(legacyBody),
      o,
    );
    expect(isIssue(out) && out.path).toEqual(['endDate']);
  });

  it('website "" clears it (omitted, it is reset; "" itself is refused as a URL)', () => {
    const out = completeLegacyUpdate(
      [{ website: 'https://a.example/' }],
      { website: '' },
      { website: '' },
      storedDates(legacyBody),
      o,
    );
    expect(out).not.toHaveProperty('website');
  });
});

describe('updatedDates', () => {
  it('duration alone moves the end; a zone change keeps the wall-clock times', () => {
    expect(updatedDates({ duration: 1800 }, storedDates(legacyBody), 'Asia/Tokyo', o)).toEqual({
      start: '2026-11-22 20:00:00',
      end: '2026-11-22 20:30:00',
      duration: 1800,
    });
    expect(updatedDates({ timezone: 'Europe/Paris' }, storedDates(legacyBody), 'Europe/Paris', o)).toEqual({
      start: '2026-11-22 20:00:00',
      end: '2026-11-22 22:00:00',
      duration: 7200,
    });
  });

  it('refuses a duration that contradicts both dates', () => {
    const r = updatedDates(
      { startDate: '2031-01-01T10:00:00Z', endDate: '2031-01-01T11:00:00Z', duration: 60 },
      { start: null, end: null, timezone: null },
      'UTC',
      o,
    );
    expect(isIssue(r) && r.path).toEqual(['duration']);
  });
});

// ---------------------------------------------------------------------------
// Splitting one graph input into the payloads of both interfaces

const tokyo = { siteZone: 'America/New_York', eventZone: 'Asia/Tokyo' };

describe('eventPayloads', () => {
  const full = {
    title: 'Rock & Roll',
    description: '<p>Body</p>',
    excerpt: 'Short',
    slug: 'rock',
    status: 'PUBLISH' as const,
    authorId: 3,
    publishedAt: '2026-11-01T09:00:00Z',
    startDate: '2026-11-22T20:00:00+09:00',
    endDate: '2026-11-22T22:00:00+09:00',
    timezone: 'Asia/Tokyo',
    allDay: false,
    duration: 7200,
    cost: '10',
    website: 'https://rock.example',
    showMap: true,
    showMapLink: false,
    hideFromListings: false,
    sticky: false,
    featured: true,
    virtual: false,
    commentStatus: 'CLOSED' as const,
    pingStatus: 'OPEN' as const,
    format: 'STANDARD' as const,
    template: 'wide',
    categoryIds: [5, 6],
    tagIds: [7],
    venueIds: [21],
    organizerIds: [41, 42],
    featuredImageId: 9,
  };

  it('through calendar-core: each field under its core name, legacy-only fields in the follow-up', () => {
    expect(eventPayloads(full, 'core', tokyo)).toEqual({
      primary: {
        title: 'Rock & Roll',
        content: '<p>Body</p>',
        excerpt: 'Short',
        slug: 'rock',
        status: 'publish',
        author: 3,
        // Publication date in the site zone (New York left summer time at 06:00Z that day), event dates in the event zone.
        date: '2026-11-01 04:00:00',
        start_date: '2026-11-22 20:00:00',
        end_date: '2026-11-22 22:00:00',
        timezone: 'Asia/Tokyo',
        all_day: false,
        duration: 7200,
        cost: '10',
        sticky: false,
        featured: true,
        virtual: false,
        comment_status: 'closed',
        ping_status: 'open',
        format: 'standard',
        template: 'wide',
        calendar_events_cat: [5, 6],
        tags: [7],
        venues: [21],
        organizers: [41, 42],
        featured_media: 9,
      },
      secondary: { website: 'https://rock.example', show_map: true, show_map_link: false, hide_from_listings: false },
    });
  });

  it('through the legacy interface: legacy names, one venue, core-only fields in the follow-up', () => {
    expect(eventPayloads(full, 'legacy', tokyo)).toEqual({
      primary: {
        title: 'Rock & Roll',
        description: '<p>Body</p>',
        excerpt: 'Short',
        slug: 'rock',
        status: 'publish',
        author: 3,
        date: '2026-11-01 04:00:00',
        start_date: '2026-11-22 20:00:00',
        end_date: '2026-11-22 22:00:00',
        timezone: 'Asia/Tokyo',
        all_day: false,
        cost: '10',
        website: 'https://rock.example',
        show_map: true,
        show_map_link: false,
        hide_from_listings: false,
        sticky: false,
        featured: true,
        categories: [5, 6],
        tags: [7],
        venue: 21,
        organizer: [41, 42],
        image: 9,
      },
      secondary: {
        duration: 7200,
        virtual: false,
        comment_status: 'closed',
        ping_status: 'open',
        format: 'standard',
        template: 'wide',
      },
    });
  });

  it('omitted and null are both "not given"; empty strings, false, 0 and [] are values', () => {
    const out = eventPayloads(
      { title: null, description: undefined, cost: '', featured: false, duration: 0, tagIds: [], venueIds: [] },
      'legacy',
      tokyo,
    );
    expect(out).toEqual({ primary: { cost: '', featured: false, tags: [], venue: 0 }, secondary: { duration: 0 } });
    expect(eventPayloads({}, 'core', tokyo)).toEqual({ primary: {}, secondary: null });
    expect(eventPayloads({ website: null }, 'core', tokyo)).toEqual({ primary: {}, secondary: null });
  });

  it('dates without an offset are already in the event zone; with one, they are converted to it', () => {
    const local = eventPayloads(
      { startDate: '2026-11-22T20:00:00', endDate: '2026-11-22 22:30' },
      'core',
      tokyo,
    ).primary;
    expect(local).toEqual({ start_date: '2026-11-22 20:00:00', end_date: '2026-11-22 22:30:00' });
    const utc = eventPayloads({ startDate: '2026-11-22T11:00:00Z' }, 'core', {
      siteZone: 'UTC',
      eventZone: 'Europe/Paris',
    }).primary;
    expect(utc.start_date).toBe('2026-11-22 12:00:00');
    // Summer time on the other side of the change.
    expect(
      eventPayloads({ startDate: '2026-07-01T11:00:00Z' }, 'core', { siteZone: 'UTC', eventZone: 'Europe/Paris' })
        .primary.start_date,
    ).toBe('2026-07-01 13:00:00');
    // No event zone: the site's.
    expect(
      eventPayloads({ startDate: '2026-11-22T11:00:00Z' }, 'legacy', { siteZone: 'UTC+2' }).primary.start_date,
    ).toBe('2026-11-22 13:00:00');
  });

  it('an image URL goes to the legacy interface (core takes only an ID)', () => {
    expect(eventPayloads({ featuredImageUrl: 'https://img.example/a.jpg' }, 'core', tokyo)).toEqual({
      primary: {},
      secondary: { image: 'https://img.example/a.jpg' },
    });
    expect(eventPayloads({ featuredImageUrl: 'https://img.example/a.jpg' }, 'legacy', tokyo).primary).toEqual({
      image: 'https://img.example/a.jpg',
    });
  });

  it('inline venue and organizers are legacy data; through core, the organizer list is set once, by the legacy follow-up', () => {
    const input = {
      title: 'x',
      organizerIds: [41],
      venue: { title: 'New hall', city: 'Lyon', showMap: true },
      organizers: [{ title: 'New org', email: 'a@b.example' }],
    };
    expect(eventPayloads(input, 'core', tokyo)).toEqual({
      primary: { title: 'x' },
      secondary: {
        venue: { venue: 'New hall', city: 'Lyon', show_map: '1' },
        organizer: [41, { organizer: 'New org', email: 'a@b.example' }],
      },
    });
    expect(eventPayloads(input, 'legacy', tokyo)).toEqual({
      primary: {
        title: 'x',
        venue: { venue: 'New hall', city: 'Lyon', show_map: '1' },
        organizer: [41, { organizer: 'New org', email: 'a@b.example' }],
      },
      secondary: null,
    });
    // An empty inline list changes nothing.
    expect(eventPayloads({ organizerIds: [41], organizers: [] }, 'core', tokyo)).toEqual({
      primary: { organizers: [41] },
      secondary: null,
    });
  });
});

describe('venuePayloads, organizerPayloads, termPayload', () => {
  it('a venue: legacy map flags as the strings the site reads; coordinates only through core', () => {
    const v = {
      title: 'Hall',
      stateProvince: 'IDF',
      showMap: false,
      showMapLink: true,
      latitude: 48.85,
      longitude: 2.35,
      tagIds: [3],
    };
    expect(venuePayloads(v, 'legacy', tokyo)).toEqual({
      primary: { venue: 'Hall', stateprovince: 'IDF', show_map: '0', show_map_link: '1' },
      secondary: { lat: 48.85, lng: 2.35, tags: [3] },
    });
    expect(venuePayloads(v, 'core', tokyo)).toEqual({
      primary: { title: 'Hall', state_province: 'IDF', lat: 48.85, lng: 2.35, tags: [3] },
      secondary: { show_map: '0', show_map_link: '1' },
    });
  });

  it("a venue: every field under each interface's name", () => {
    const v = {
      title: 'Hall',
      description: '<p>d</p>',
      excerpt: 'e',
      slug: 'hall',
      status: 'PENDING' as const,
      authorId: 2,
      publishedAt: '2026-01-10T12:00:00Z',
      address: '1 Main St',
      city: 'Lyon',
      country: 'France',
      province: 'ARA',
      state: 'S',
      stateProvince: 'ARA',
      zip: '69001',
      phone: '+33 1',
      website: 'https://hall.example',
      featuredImageId: 4,
    };
    const shared = {
      address: '1 Main St',
      city: 'Lyon',
      country: 'France',
      province: 'ARA',
      state: 'S',
      zip: '69001',
      phone: '+33 1',
      website: 'https://hall.example',
      status: 'pending',
      author: 2,
      date: '2026-01-10 07:00:00',
    };
    expect(venuePayloads(v, 'core', tokyo)).toEqual({
      primary: {
        ...shared,
        title: 'Hall',
        content: '<p>d</p>',
        excerpt: 'e',
        slug: 'hall',
        state_province: 'ARA',
        featured_media: 4,
      },
      secondary: null,
    });
    expect(venuePayloads(v, 'legacy', tokyo)).toEqual({
      primary: { ...shared, venue: 'Hall', description: '<p>d</p>', stateprovince: 'ARA', image: 4 },
      secondary: { excerpt: 'e', slug: 'hall' },
    });
    expect(venuePayloads({ featuredImageUrl: 'https://img.example/v.jpg' }, 'core', tokyo)).toEqual({
      primary: {},
      secondary: { image: 'https://img.example/v.jpg' },
    });
  });

  it('an organizer: the title is `organizer` on the legacy interface', () => {
    expect(
      organizerPayloads({ title: 'Org', email: 'o@x.example', phone: null, excerpt: 'e' }, 'legacy', tokyo),
    ).toEqual({ primary: { organizer: 'Org', email: 'o@x.example' }, secondary: { excerpt: 'e' } });
    expect(organizerPayloads({ title: 'Org', status: 'DRAFT' }, 'core', tokyo)).toEqual({
      primary: { title: 'Org', status: 'draft' },
      secondary: null,
    });
  });

  it('terms: legacy names; tags have no parent', () => {
    expect(termPayload({ name: 'Jazz', slug: 'jazz', description: '', parentId: 0 }, 'categories')).toEqual({
      name: 'Jazz',
      slug: 'jazz',
      description: '',
      parent: 0,
    });
    // A parent given for a tag (not in TagInput, but in the object) is not sent.
    expect(termPayload(Object.assign({ name: 'free' }, { parentId: 4 }), 'tags')).toEqual({ name: 'free' });
  });
});

describe('graphField', () => {
  it('maps an upstream parameter back to the graph field the caller gave', () => {
    expect(graphField('events', 'core', 'calendar_events_cat')).toBe('categoryIds');
    expect(graphField('events', 'legacy', 'venue', { venueIds: [1] })).toBe('venueIds');
    expect(graphField('events', 'legacy', 'venue', { venue: { title: 'x' } })).toBe('venue');
    expect(graphField('events', 'legacy', 'organizer', { organizers: [{ title: 'x' }] })).toBe('organizers');
    expect(graphField('events', 'legacy', 'image', { featuredImageUrl: 'https://a.example/i.png' })).toBe(
      'featuredImageUrl',
    );
    expect(graphField('events', 'legacy', 'image', { featuredImageId: 3 })).toBe('featuredImageId');
    expect(graphField('venues', 'legacy', 'stateprovince')).toBe('stateProvince');
    expect(graphField('categories', 'legacy', 'parent')).toBe('parentId');
    expect(graphField('tags', 'legacy', 'no_such_param')).toBe('no_such_param');
  });
});

// ---------------------------------------------------------------------------
// Validation: every problem of an input, each at its field, with a clear message

const both = { hasCore: true, hasLegacy: true };
const paths = (issues: { path: string[] }[]) => issues.map((i) => i.path.join('.'));

describe('validateEvent', () => {
  const create = { create: true, api: 'core' as const, site: both };
  const valid = { title: 'Gig', startDate: '2026-11-22T20:00:00+09:00', endDate: '2026-11-22T22:00:00+09:00' };

  it('accepts a minimal create and an empty update', () => {
    expect(validateEvent(valid, create)).toEqual([]);
    expect(validateEvent({}, { ...create, create: false })).toEqual([]);
  });

  it('a create needs a title and both dates; a blank title is missing', () => {
    expect(validateEvent({ title: '  ' }, create)).toEqual([
      { path: ['title'], message: 'title is required to create.' },
      { path: ['startDate'], message: 'startDate is required to create.' },
      { path: ['endDate'], message: 'endDate is required to create.' },
    ]);
  });

  it('reports every problem, not only the first', () => {
    const issues = validateEvent(
      {
        ...valid,
        title: 'x'.repeat(1001),
        status: 'TRASH',
        website: 'rock.example',
        timezone: 'Mars/Olympus',
        duration: -1,
        categoryIds: [1, 1],
        tagIds: [0],
        organizerIds: Array.from({ length: 101 }, (_, i) => i + 1),
        featuredImageId: 3,
        featuredImageUrl: 'https://img.example/a.jpg',
        cost: 'c'.repeat(256),
        authorId: -2,
      },
      create,
    );
    expect(paths(issues).sort()).toEqual(
      [
        'authorId',
        'categoryIds',
        'cost',
        'duration',
        'featuredImageUrl',
        'organizerIds',
        'status',
        'tagIds',
        'timezone',
        'title',
        'website',
      ].sort(),
    );
    const msg = Object.fromEntries(issues.map((i) => [i.path.join('.'), i.message]));
    expect(msg).toMatchObject({
      title: 'title is longer than 1000 characters.',
      status:
        'status must be one of PUBLISH, PENDING, DRAFT, FUTURE, PRIVATE (to trash, use a delete mutation); got TRASH.',
      website: 'website must be an absolute http(s) URL.',
      timezone: 'timezone must be an IANA time zone name (e.g. Europe/Paris); got "Mars/Olympus".',
      duration: 'duration must be 0 or more seconds.',
      categoryIds: 'categoryIds lists an ID twice.',
      tagIds: 'tagIds must list positive IDs.',
      organizerIds: 'organizerIds has more than 100 IDs.',
      featuredImageUrl: 'give featuredImageId or featuredImageUrl, not both.',
      authorId: 'authorId must be a positive ID.',
    });
  });

  it('dates: RFC 3339 only, and the end not before the start (compared as instants)', () => {
    expect(validateEvent({ ...valid, startDate: 'next friday' }, create)).toEqual([
      {
        path: ['startDate'],
        message: 'startDate must be an RFC 3339 date-time, e.g. 2026-11-22T20:00:00+09:00; got "next friday".',
      },
    ]);
    expect(paths(validateEvent({ ...valid, publishedAt: '2026-02-30T10:00:00Z' }, create))).toEqual(['publishedAt']);
    expect(validateEvent({ ...valid, endDate: '2026-11-22T19:59:59+09:00' }, create)).toEqual([
      { path: ['endDate'], message: 'endDate must not be before startDate.' },
    ]);
    // 12:00 in Paris is after 20:00 in Tokyo.
    expect(validateEvent({ ...valid, endDate: '2026-11-22T12:00:00+01:00' }, create)).toEqual([]);
    // Without offsets, both are read in the input's zone.
    expect(
      validateEvent(
        { title: 'x', startDate: '2026-11-22 20:00', endDate: '2026-11-22 21:00', timezone: 'UTC+9' },
        create,
      ),
    ).toEqual([]);
    expect(validateEvent({ title: 'x', startDate: '2026-11-22', endDate: '2026-11-22' }, create)).toEqual([]);
  });

  it('URLs: http(s) only; an empty website is allowed (it clears)', () => {
    expect(paths(validateEvent({ website: 'ftp://rock.example' }, { ...create, create: false }))).toEqual(['website']);
    expect(validateEvent({ website: '' }, { ...create, create: false })).toEqual([]);
  });

  it('the legacy interface links one venue per event', () => {
    const legacy = { create: false, api: 'legacy' as const, site: both };
    expect(validateEvent({ venueIds: [1, 2] }, legacy)).toEqual([
      { path: ['venueIds'], message: 'the legacy interface links one venue per event.' },
    ]);
    expect(validateEvent({ venueIds: [1, 2] }, { ...legacy, api: 'core' })).toEqual([]);
  });

  it('a field only the other interface takes needs that interface on the site', () => {
    expect(
      validateEvent(
        { website: 'https://a.example' },
        { create: false, api: 'core', site: { hasCore: true, hasLegacy: false } },
      ),
    ).toEqual([{ path: ['website'], message: 'website needs calendar/events/v1, which this site does not offer.' }]);
    expect(
      validateEvent(
        { virtual: true, template: 't' },
        { create: false, api: 'legacy', site: { hasCore: false, hasLegacy: true } },
      ),
    ).toEqual([
      { path: ['virtual'], message: 'virtual needs calendar-core/v1, which this site does not offer.' },
      { path: ['template'], message: 'template needs calendar-core/v1, which this site does not offer.' },
    ]);
  });

  it('inline venue and organizers: checked as creates, at their own paths, legacy fields only', () => {
    const issues = validateEvent(
      {
        ...valid,
        venueIds: [3],
        venue: { city: 'Lyon', latitude: 91 },
        organizers: [
          { title: 'Org', email: 'not-an-email' },
          { title: '', website: 'x', tagIds: [1] },
        ],
      },
      create,
    );
    expect(issues).toEqual([
      { path: ['venue'], message: 'give venue (a new venue) or venueIds, not both.' },
      { path: ['venue', 'title'], message: 'title is required to create.' },
      { path: ['venue', 'latitude'], message: 'latitude must be between -90 and 90.' },
      {
        path: ['venue', 'latitude'],
        message: 'latitude cannot be set on an inline venue; create it with its own mutation.',
      },
      { path: ['organizers', '0', 'email'], message: 'email must be an e-mail address.' },
      { path: ['organizers', '1', 'title'], message: 'title is required to create.' },
      { path: ['organizers', '1', 'website'], message: 'website must be an absolute http(s) URL.' },
      {
        path: ['organizers', '1', 'tagIds'],
        message: 'tagIds cannot be set on an inline organizer; create it with its own mutation.',
      },
    ]);
  });

  it('inline objects need the legacy interface, and at most 20 new organizers', () => {
    const coreOnly = { create: true, api: 'core' as const, site: { hasCore: true, hasLegacy: false } };
    expect(validateEvent({ ...valid, venue: { title: 'Hall' } }, coreOnly)).toContainEqual({
      path: ['venue'],
      message: 'inline venues and organizers need calendar/events/v1, which this site does not offer.',
    });
    const many = Array.from({ length: 21 }, (_, i) => ({ title: `Org ${i}` }));
    expect(validateEvent({ ...valid, organizers: many }, create)).toEqual([
      { path: ['organizers'], message: 'at most 20 new organizers per event.' },
    ]);
  });
});

describe('validateVenue, validateOrganizer, validateTerm', () => {
  const update = { create: false, api: 'core' as const, site: both };

  it('venue: coordinates in range, texts bounded, reachable fields', () => {
    expect(validateVenue({ title: 'Hall', latitude: -90, longitude: 180 }, { ...update, create: true })).toEqual([]);
    expect(validateVenue({ latitude: -90.5, longitude: 180.1, zip: 'z'.repeat(65_536) }, update)).toEqual([
      { path: ['zip'], message: 'zip is longer than 65535 characters.' },
      { path: ['latitude'], message: 'latitude must be between -90 and 90.' },
      { path: ['longitude'], message: 'longitude must be between -180 and 180.' },
    ]);
    expect(
      validateVenue({ latitude: 1 }, { create: false, api: 'legacy', site: { hasCore: false, hasLegacy: true } }),
    ).toEqual([{ path: ['latitude'], message: 'latitude needs calendar-core/v1, which this site does not offer.' }]);
    expect(paths(validateVenue({}, { ...update, create: true }))).toEqual(['title']);
  });

  it('organizer: an e-mail address or empty', () => {
    expect(validateOrganizer({ email: '' }, update)).toEqual([]);
    expect(validateOrganizer({ email: 'a@b' }, update)).toEqual([
      { path: ['email'], message: 'email must be an e-mail address.' },
    ]);
    expect(paths(validateOrganizer({ slug: 's'.repeat(201) }, { ...update, create: true }))).toEqual(['title', 'slug']);
  });

  it('terms: a name to create, a parent ID of 0 or more', () => {
    expect(validateTerm({ name: 'Jazz', parentId: 0 }, true)).toEqual([]);
    expect(validateTerm({ parentId: -1 }, true)).toEqual([
      { path: ['name'], message: 'name is required to create.' },
      { path: ['parentId'], message: 'parentId must be a category ID (0 for top level).' },
    ]);
    expect(validateTerm({ name: 'n'.repeat(201) }, false)).toEqual([
      { path: ['name'], message: 'name is longer than 200 characters.' },
    ]);
  });
});

describe('eventReferences, touchesDates, completeCoreDates', () => {
  it('lists the existing objects an input refers to, by kind, skipping empty lists', () => {
    expect(eventReferences({ venueIds: [3], organizerIds: [], categoryIds: [5, 6], tagIds: undefined })).toEqual([
      { field: 'venueIds', kind: 'venue', ids: [3] },
      { field: 'categoryIds', kind: 'category', ids: [5, 6] },
    ]);
  });

  it('a timezone alone touches the dates; a title does not', () => {
    expect([
      touchesDates({ timezone: 'UTC' }),
      touchesDates({ duration: 60 }),
      touchesDates({ title: 'x' }),
      touchesDates({ startDate: null }),
    ]).toEqual([true, true, false, false]);
  });

  it('a core update that moves only the end sends both dates and the matching duration', () => {
    const payload: Record<string, unknown> = { end_date: 'stale' };
    expect(completeCoreDates(payload, { endDate: '2026-11-22T23:30:00+09:00' }, storedDates(legacyBody), o)).toBeNull();
    expect(payload).toEqual({ start_date: '2026-11-22 20:00:00', end_date: '2026-11-22 23:30:00', duration: 12_600 });
    const nothing: Record<string, unknown> = {};
    expect(
      completeCoreDates(nothing, { endDate: '2026-11-22T23:30:00Z' }, { start: null, end: null, timezone: null }, o),
    ).toBeNull();
    expect(nothing).toEqual({});
  });

  it('storedDates reads either interface and tolerates junk', () => {
    expect(storedDates({ start_date: '2031-01-01T10:00:00', end_date: '', timezone: '' })).toEqual({
      start: '2031-01-01 10:00:00',
      end: null,
      timezone: null,
    });
    expect(storedDates(null)).toEqual({ start: null, end: null, timezone: null });
  });
});
