/**
 * calendar-core/v1 bodies -> graph models (src/namespaces/calendar/core-mapping.ts), on plain
 * data. The bodies are trimmed copies of what the sandbox answers (TEC 6.15's
 * tec/v1 shapes: posts-controller objects, `duration` as a string, `multiday`
 * false or a day count, masked password-protected posts), plus the real
 * site's spellings where they differ (`tribe_events_cat`).
 */
import { describe, expect, it } from 'vitest';
import { coreEvent, coreOrganizer, coreSeries, coreVenue } from '../../src/namespaces/calendar/core-mapping.ts';
import { UpstreamShapeError } from '../../src/mapping/json.ts';

const ORIGIN = 'http://127.0.0.1:43515';

/** The body without some keys (a key set to undefined is still "in" it). */
const without = (o: object, ...keys: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

const organizer = {
  id: 66,
  date: '2025-10-26T09:00:00',
  date_gmt: '2025-10-26T13:00:00',
  modified: '2026-06-01T08:00:00',
  modified_gmt: '2026-06-01T12:00:00',
  slug: 'juniper-foundation-18',
  status: 'publish',
  type: 'calendar_organizer',
  link: `${ORIGIN}/organizer/juniper-foundation-18/`,
  title: { rendered: 'Juniper Foundation 18' },
  content: { rendered: '', protected: false },
  excerpt: { rendered: '', protected: false },
  author: 2,
  featured_media: 0,
  template: '',
  phone: '+1 555 0218',
  website: 'https://org-18.example',
  email: 'org18@example.com',
};

const venue = {
  id: 14,
  date: '2025-07-30T09:00:00',
  date_gmt: '2025-07-30T13:00:00',
  modified: '2026-06-01T08:00:00',
  modified_gmt: '2026-06-01T12:00:00',
  slug: 'atlas-hall-6',
  status: 'publish',
  type: 'calendar_venue',
  link: `${ORIGIN}/venue/atlas-hall-6/`,
  title: { rendered: 'Atlas Hall 6' },
  content: { rendered: '<p>A venue in Sydney.</p>\n', protected: false },
  excerpt: { rendered: '<p>A venue in Sydney.</p>\n', protected: false },
  author: 1,
  featured_media: 0,
  template: '',
  address: '6 Orchard Street',
  country: 'Australia',
  city: 'Sydney',
  state_province: 'NSW',
  state: 'NSW',
  province: '',
  zip: '2000',
  phone: '+1 555 0106',
  directions_link:
    'https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=6+Orchard+Street+Sydney+NSW+2000+Australia',
  website: 'https://venue-6.example',
  lat: -33.875088,
  lng: 151.23666,
};

/** A four-day event in Los Angeles (summer time), as GET /calendar-core/v1/events/<id> answers. */
const event = {
  id: 208,
  date: '2026-01-30T09:00:00',
  date_gmt: '2026-01-30T14:00:00',
  modified: '2026-06-01T08:00:02',
  modified_gmt: '2026-06-01T12:00:02',
  slug: 'cedar-concert-92',
  status: 'publish',
  type: 'calendar_events',
  link: `${ORIGIN}/event/cedar-concert-92/`,
  title: { rendered: 'Rock &#038; Roll &#8211; Cedar Concert 92' },
  content: { rendered: '<p>Cedar Concert 92: event number 92.</p>\n', protected: false },
  excerpt: { rendered: '<p>Short &amp; sweet.</p>\n', protected: false },
  author: 3,
  featured_media: 0,
  template: '',
  tags: [17, 24],
  calendar_events_cat: [6, 10],
  start_date: '2026-06-03 13:00:00',
  start_date_utc: '2026-06-03 20:00:00',
  end_date: '2026-06-06 15:00:00',
  end_date_utc: '2026-06-06 22:00:00',
  timezone: 'America/Los_Angeles',
  duration: '266400',
  multiday: 4,
  is_past: false,
  is_now: false,
  all_day: false,
  starts_this_week: null,
  ends_this_week: null,
  this_week_duration: null,
  happens_this_week: null,
  displays_on: [],
  featured: false,
  sticky: false,
  cost: '$10',
  organizer_names: ['Juniper Foundation 18'],
  organizers: [organizer],
  venues: [venue],
  schedule_details:
    '<span class="tribe-event-date-start">June 3 @ 1:00 pm</span> - <span class="tribe-event-date-end">June 6 @ 3:00 pm</span>',
  short_schedule_details: 'June 3 @ 1:00 pm - June 6 @ 3:00 pm',
  ticketed: false,
  virtual: false,
  series: null,
  lat: null,
  lng: null,
};

/** A one-day all-day event in Sydney (winter there). */
const allDay = {
  ...event,
  id: 558,
  all_day: true,
  multiday: false,
  featured_media: 1,
  timezone: 'Australia/Sydney',
  start_date: '2025-06-06 00:00:00',
  start_date_utc: '2025-06-05 14:00:00',
  end_date: '2025-06-06 23:59:59',
  end_date_utc: '2025-06-06 13:59:59',
  duration: '86399',
  venues: [],
  organizers: [],
  series: 110,
  virtual: true,
  ticketed: true,
  comment_status: 'closed',
};

/** The same event, password-protected: TC masks every field but the post basics ("Password protected", 0, null). */
const masked = {
  id: 196,
  date: '2026-02-11T09:00:00',
  date_gmt: '2026-02-11T14:00:00',
  modified: '2026-06-01T08:00:02',
  modified_gmt: '2026-06-01T12:00:02',
  slug: 'juniper-hackathon-80',
  status: 'publish',
  type: 'calendar_events',
  link: `${ORIGIN}/event/juniper-hackathon-80/`,
  title: { rendered: 'Juniper Hackathon 80' },
  content: { rendered: 'Password protected', protected: null },
  excerpt: { rendered: 'Password protected', protected: null },
  author: 1,
  featured_media: 0,
  template: 'Password protected',
  tags: [],
  calendar_events_cat: [0, 0],
  start_date: 'Password protected',
  start_date_utc: 'Password protected',
  end_date: 'Password protected',
  end_date_utc: 'Password protected',
  timezone: 'Password protected',
  duration: 'Password protected',
  multiday: null,
  all_day: null,
  featured: null,
  sticky: null,
  cost: 'Password protected',
  organizer_names: ['Password protected'],
  organizers: [
    { ...organizer, content: { rendered: 'Password protected', protected: null }, phone: 'Password protected' },
  ],
  venues: [{ ...venue, content: { rendered: 'Password protected', protected: null }, lat: 0, lng: 0 }],
  schedule_details: 'Password protected',
  ticketed: null,
  virtual: null,
  series: null,
};

describe('coreEvent', () => {
  it('maps every field of a full body', () => {
    const m = coreEvent(event);
    expect(m).toMatchObject({
      kind: 'Event',
      source: 'core',
      databaseId: 208,
      slug: 'cedar-concert-92',
      status: 'publish',
      url: `${ORIGIN}/event/cedar-concert-92/`,
      authorId: 3,
      description: '<p>Cedar Concert 92: event number 92.</p>\n',
      timezone: 'America/Los_Angeles',
      allDay: false,
      cost: '$10',
      sticky: false,
      featured: false,
      virtual: false,
      ticketed: false,
      template: '',
      scheduleDetails: event.schedule_details,
      categoryIds: [6, 10],
      tagIds: [17, 24],
      seriesId: null,
      passwordProtected: false,
      raw: event,
    });
    expect(m.venues!.map((v) => [v.kind, v.databaseId, v.title])).toEqual([['Venue', 14, 'Atlas Hall 6']]);
    expect(m.organizers!.map((o) => [o.kind, o.databaseId, o.email])).toEqual([['Organizer', 66, 'org18@example.com']]);
  });

  it('keeps rendered text as the site renders it: HTML entities neither decoded nor encoded again', () => {
    const m = coreEvent(event);
    expect(m.title).toBe('Rock &#038; Roll &#8211; Cedar Concert 92');
    expect(m.excerpt).toBe('<p>Short &amp; sweet.</p>\n');
  });

  it('gives dates the offset of their own zone, from the local/UTC pair (summer and winter, both hemispheres)', () => {
    const m = coreEvent(event);
    expect(m.startDate).toBe('2026-06-03T13:00:00-07:00');
    expect(m.endDate).toBe('2026-06-06T15:00:00-07:00');
    expect(m.startDateUtc).toBe('2026-06-03T20:00:00Z');
    expect(m.endDateUtc).toBe('2026-06-06T22:00:00Z');
    // Publication dates are site-local (New York): winter for the date, summer for the modification.
    expect(m.publishedAt).toBe('2026-01-30T09:00:00-05:00');
    expect(m.publishedAtUtc).toBe('2026-01-30T14:00:00Z');
    expect(m.modifiedAt).toBe('2026-06-01T08:00:02-04:00');
    expect(m.modifiedAtUtc).toBe('2026-06-01T12:00:02Z');
    const d = coreEvent(allDay);
    expect([d.startDate, d.endDate, d.startDateUtc]).toEqual([
      '2025-06-06T00:00:00+10:00',
      '2025-06-06T23:59:59+10:00',
      '2025-06-05T14:00:00Z',
    ]);
  });

  it('falls back to the event zone when the UTC twin is missing, and to null when both are', () => {
    const noUtc = coreEvent({
      ...event,
      start_date_utc: undefined,
      end_date_utc: '',
      timezone: 'Europe/Paris',
      start_date: '2026-01-15 10:00:00',
      end_date: '2026-07-15 10:00:00',
    });
    expect(noUtc.startDate).toBe('2026-01-15T10:00:00+01:00');
    expect(noUtc.endDate).toBe('2026-07-15T10:00:00+02:00');
    expect(noUtc.startDateUtc).toBeNull();
    // The real site's default zone after a legacy reset is an offset name.
    expect(
      coreEvent({ ...event, start_date_utc: null, start_date: '2026-01-15 10:00:00', timezone: 'UTC+5:30' }).startDate,
    ).toBe('2026-01-15T10:00:00+05:30');
    const none = coreEvent({ ...event, start_date: null, start_date_utc: null, timezone: '' });
    expect([none.startDate, none.startDateUtc, none.timezone]).toEqual([null, null, null]);
  });

  it('reads the all-day flags, the duration string and the multiday day count', () => {
    expect(coreEvent(event)).toMatchObject({ duration: 266400, multiday: true, allDay: false });
    expect(coreEvent(allDay)).toMatchObject({ duration: 86399, multiday: false, allDay: true });
    // No duration: the UTC dates give it.
    expect(coreEvent({ ...event, duration: undefined }).duration).toBe(266_400);
    expect(coreEvent({ ...event, multiday: '2' }).multiday).toBe(true);
    expect(coreEvent({ ...event, multiday: true }).multiday).toBe(true);
    expect(coreEvent({ ...event, multiday: null }).multiday).toBeNull();
  });

  it('leaves undefined what calendar-core does not serve, and null what it says is none', () => {
    const m = coreEvent(event);
    // Legacy-only fields: undefined, so the resolver reads the legacy copy.
    for (const k of [
      'timezoneAbbr',
      'costDetails',
      'website',
      'showMap',
      'showMapLink',
      'hideFromListings',
      'jsonLd',
      'categories',
      'tags',
    ] as const) {
      expect(m[k], k).toBeUndefined();
    }
    // Keys absent from this body: not served either.
    expect(m.commentStatus).toBeUndefined();
    expect(coreEvent(without(event, 'series')).seriesId).toBeUndefined();
    expect(coreEvent(without(event, 'virtual')).virtual).toBeUndefined();
    // Served: a value, or null for none.
    expect(coreEvent(allDay)).toMatchObject({ commentStatus: 'closed', seriesId: 110, virtual: true, ticketed: true });
    expect(m.seriesId).toBeNull();
    expect(coreEvent({ ...event, series: 0 }).seriesId).toBeNull();
  });

  it('featured image: none is null; an ID is left to the legacy interface (undefined)', () => {
    expect(coreEvent(event).featuredImage).toBeNull();
    expect(coreEvent(allDay).featuredImage).toBeUndefined();
  });

  it("reads the real site's term key (tribe_events_cat), and no terms as an empty list", () => {
    expect(coreEvent({ ...event, calendar_events_cat: undefined, tribe_events_cat: [3, '5', 0] }).categoryIds).toEqual([
      3, 5,
    ]);
    expect(coreEvent({ ...event, calendar_events_cat: undefined, tags: undefined })).toMatchObject({
      categoryIds: [],
      tagIds: [],
    });
  });

  it('embeds venues and organizers only when they are objects', () => {
    const m = coreEvent({ ...event, venues: [14, null, venue], organizers: 'none' });
    expect(m.venues!.map((v) => v.databaseId)).toEqual([14]);
    expect(m.organizers).toEqual([]);
  });

  it('masks a password-protected event: its masked fields read null, never "Password protected" or 0', () => {
    const m = coreEvent(masked);
    expect(m).toMatchObject({
      kind: 'Event',
      source: 'core',
      databaseId: 196,
      title: 'Juniper Hackathon 80',
      slug: 'juniper-hackathon-80',
      status: 'publish',
      url: `${ORIGIN}/event/juniper-hackathon-80/`,
      authorId: 1,
      publishedAt: '2026-02-11T09:00:00-05:00',
      passwordProtected: true,
      venues: [],
      organizers: [],
      categoryIds: [],
      tagIds: [],
    });
    for (const k of [
      'description',
      'excerpt',
      'startDate',
      'endDate',
      'startDateUtc',
      'timezone',
      'duration',
      'cost',
      'template',
      'scheduleDetails',
      'allDay',
      'featured',
      'seriesId',
      'featuredImage',
    ] as const) {
      expect(m[k], k).toBeNull();
    }
  });

  it('a protected post the site unmasked (the password was given) is data, flagged protected', () => {
    const m = coreEvent({ ...event, content: { rendered: '<p>secret</p>', protected: true } });
    expect(m).toMatchObject({ passwordProtected: true, description: '<p>secret</p>', cost: '$10' });
    expect(coreEvent({ ...event, content: undefined }).passwordProtected).toBeUndefined();
  });

  it('refuses a body that is not an event object, or has no usable ID, with a typed error', () => {
    expect(() => coreEvent(null)).toThrow(UpstreamShapeError);
    expect(() => coreEvent([event])).toThrow(/expected calendar-core event to be an object, got an array/);
    expect(() => coreEvent({ ...event, id: 'abc' })).toThrow(/expected event.id to be a positive integer/);
    expect(() => coreEvent({ ...event, id: 0 })).toThrow(UpstreamShapeError);
    expect(coreEvent({ ...event, id: '208' }).databaseId).toBe(208);
  });

  it('reads fields of the wrong type as null rather than failing', () => {
    const m = coreEvent({ ...event, author: 'someone', all_day: 'maybe', cost: 10, featured: 1, tags: 'x' });
    expect(m).toMatchObject({ authorId: null, allDay: null, cost: '10', featured: true, tagIds: [] });
  });
});

describe('coreVenue', () => {
  it('maps every field, with entity-escaped links made usable URLs', () => {
    expect(coreVenue(venue)).toEqual({
      kind: 'Venue',
      source: 'core',
      databaseId: 14,
      title: 'Atlas Hall 6',
      description: '<p>A venue in Sydney.</p>\n',
      excerpt: '<p>A venue in Sydney.</p>\n',
      slug: 'atlas-hall-6',
      status: 'publish',
      url: `${ORIGIN}/venue/atlas-hall-6/`,
      authorId: 1,
      publishedAt: '2025-07-30T09:00:00-04:00',
      publishedAtUtc: '2025-07-30T13:00:00Z',
      modifiedAt: '2026-06-01T08:00:00-04:00',
      modifiedAtUtc: '2026-06-01T12:00:00Z',
      featuredImage: null,
      passwordProtected: false,
      address: '6 Orchard Street',
      city: 'Sydney',
      country: 'Australia',
      province: '',
      state: 'NSW',
      stateProvince: 'NSW',
      zip: '2000',
      phone: '+1 555 0106',
      website: 'https://venue-6.example',
      directionsLink:
        'https://maps.google.com/maps?f=q&source=s_q&hl=en&geocode=&q=6+Orchard+Street+Sydney+NSW+2000+Australia',
      latitude: -33.875088,
      longitude: 151.23666,
      raw: venue,
    });
  });

  it('coordinates: absent keys are not served (undefined), null is none, numeric strings are read', () => {
    expect(coreVenue(without(venue, 'lat', 'lng'))).toMatchObject({ latitude: undefined, longitude: undefined });
    expect(coreVenue({ ...venue, lat: null, lng: '' })).toMatchObject({ latitude: null, longitude: null });
    expect(coreVenue({ ...venue, lat: '48.85', lng: '2.35' })).toMatchObject({ latitude: 48.85, longitude: 2.35 });
    expect(coreVenue({ ...venue, directions_link: null }).directionsLink).toBeNull();
  });

  it('a password-protected venue: the masked fields read null, never "Password protected" or 0', () => {
    const m = coreVenue({
      ...masked.venues[0]!,
      address: 'Password protected',
      city: 'Password protected',
      directions_link: 'Password protected',
    });
    expect(m).toMatchObject({
      databaseId: 14,
      title: 'Atlas Hall 6',
      slug: 'atlas-hall-6',
      url: `${ORIGIN}/venue/atlas-hall-6/`,
      publishedAt: '2025-07-30T09:00:00-04:00',
    });
    for (const k of [
      'description',
      'excerpt',
      'address',
      'city',
      'zip',
      'phone',
      'website',
      'directionsLink',
      'latitude',
      'longitude',
      'featuredImage',
    ] as const) {
      expect(m[k], k).toBeNull();
    }
  });

  it('refuses a venue without an ID', () => {
    expect(() => coreVenue({ ...venue, id: undefined })).toThrow(
      /expected venue.id to be a positive integer, got undefined/,
    );
  });
});

describe('coreOrganizer', () => {
  it('maps every field; empty strings stay empty strings (calendar-core sends them)', () => {
    expect(coreOrganizer({ ...organizer, website: '' })).toEqual({
      kind: 'Organizer',
      source: 'core',
      databaseId: 66,
      title: 'Juniper Foundation 18',
      description: '',
      excerpt: '',
      slug: 'juniper-foundation-18',
      status: 'publish',
      url: `${ORIGIN}/organizer/juniper-foundation-18/`,
      authorId: 2,
      publishedAt: '2025-10-26T09:00:00-04:00',
      publishedAtUtc: '2025-10-26T13:00:00Z',
      modifiedAt: '2026-06-01T08:00:00-04:00',
      modifiedAtUtc: '2026-06-01T12:00:00Z',
      featuredImage: null,
      passwordProtected: false,
      phone: '+1 555 0218',
      website: '',
      email: 'org18@example.com',
      raw: { ...organizer, website: '' },
    });
  });

  it('a password-protected organizer: contact fields read null', () => {
    const m = coreOrganizer(masked.organizers[0]);
    expect(m).toMatchObject({
      databaseId: 66,
      title: 'Juniper Foundation 18',
      phone: null,
      website: null,
      email: null,
      description: null,
    });
  });

  it('refuses a string body', () => {
    expect(() => coreOrganizer('<html>')).toThrow(
      /expected calendar-core organizer to be an object, got the string "<html>"/,
    );
  });
});

describe('coreSeries', () => {
  const series = {
    id: 110,
    date: '2025-12-31T09:00:00',
    date_gmt: '2025-12-31T14:00:00',
    modified: '2025-12-31T09:00:00',
    modified_gmt: '2025-12-31T14:00:00',
    slug: 'cedar-concert-series',
    status: 'publish',
    type: 'calendar_event_series',
    link: `${ORIGIN}/series/cedar-concert-series/`,
    title: { rendered: 'Cedar Concert Series' },
    content: { rendered: '<p>A recurring programme.</p>\n', protected: false },
    excerpt: { rendered: '', protected: false },
    author: 1,
    featured_media: 7,
    template: '',
    events: [413, 557, 269, '629', 0, null],
  };

  it('maps the post fields and the event IDs, in the order given, dropping the unusable ones', () => {
    expect(coreSeries(series)).toMatchObject({
      kind: 'Series',
      source: 'core',
      databaseId: 110,
      title: 'Cedar Concert Series',
      slug: 'cedar-concert-series',
      publishedAt: '2025-12-31T09:00:00-05:00',
      featuredImage: undefined,
      eventIds: [413, 557, 269, 629],
    });
    expect(coreSeries({ ...series, events: undefined }).eventIds).toEqual([]);
    // Masked: no event IDs (TC writes 0 for each), no description.
    const hidden = coreSeries({
      ...series,
      content: { rendered: 'Password protected', protected: null },
      events: [0, 0],
    });
    expect(hidden).toMatchObject({ title: 'Cedar Concert Series', description: null, eventIds: [] });
  });
});
