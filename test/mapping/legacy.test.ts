/**
 * calendar/events/v1 (legacy) bodies -> graph models (src/namespaces/calendar/legacy-mapping.ts),
 * on plain data. Bodies are trimmed copies of the sandbox's answers and of a
 * real site's (TEC 5.7): `author` as a string, `image: false`, `venue` as
 * `[]` / an object / an array, venues and organizers that drop empty keys,
 * embedded terms with `urls` but no `url`, archive terms with `url`.
 */
import { describe, expect, it } from 'vitest';
import {
  legacyEvent,
  legacyImage,
  legacyOrganizer,
  legacyTerm,
  legacyVenue,
} from '../../src/namespaces/calendar/legacy-mapping.ts';
import { UpstreamShapeError } from '../../src/mapping/json.ts';

const ORIGIN = 'http://127.0.0.1:43515';

const venue = {
  id: 45,
  author: '1',
  status: 'publish',
  date: '2025-06-29 09:00:00',
  date_utc: '2025-06-29 13:00:00',
  modified: '2026-06-01 08:00:00',
  modified_utc: '2026-06-01 12:00:00',
  url: `${ORIGIN}/venue/aurora-arena-37/`,
  venue: 'Aurora Arena 37',
  slug: 'aurora-arena-37',
  address: '37 Aurora Street',
  city: 'London',
  country: 'United Kingdom',
  province: 'England',
  zip: 'EC1A 1BB',
  stateprovince: 'England',
  geo_lat: 51.525754,
  geo_lng: -0.133249,
  show_map: true,
  show_map_link: true,
  global_id: '127.0.0.1:43515?id=45',
  global_id_lineage: ['127.0.0.1:43515?id=45'],
};

const organizers = [
  {
    id: 53,
    author: '1',
    status: 'publish',
    date: '2025-11-08 09:00:00',
    date_utc: '2025-11-08 14:00:00',
    modified: '2026-06-01 08:00:00',
    modified_utc: '2026-06-01 12:00:00',
    url: `${ORIGIN}/organizer/meridian-collective-5/`,
    organizer: 'Meridian Collective 5',
    slug: 'meridian-collective-5',
  },
  {
    id: 66,
    author: '2',
    status: 'publish',
    date: '2025-10-26 09:00:00',
    date_utc: '2025-10-26 13:00:00',
    modified: '2026-06-01 08:00:00',
    modified_utc: '2026-06-01 12:00:00',
    url: `${ORIGIN}/organizer/juniper-foundation-18/`,
    organizer: 'Juniper Foundation 18',
    slug: 'juniper-foundation-18',
    phone: '+1 555 0218',
    website: 'https://org-18.example',
    email: 'org18@example.com',
  },
];

const category = {
  name: 'Technology',
  slug: 'technology',
  term_group: 0,
  term_taxonomy_id: 6,
  taxonomy: 'calendar_events_cat',
  description: '',
  parent: 5,
  count: 33,
  filter: 'raw',
  id: 6,
  urls: {
    self: `${ORIGIN}/wp-json/calendar/events/v1/categories/6`,
    collection: `${ORIGIN}/wp-json/calendar/events/v1/categories`,
    up: `${ORIGIN}/wp-json/calendar/events/v1/categories/5`,
  },
};

const tag = {
  name: 'free',
  slug: 'free',
  term_group: 0,
  term_taxonomy_id: 15,
  taxonomy: 'post_tag',
  description: '',
  parent: 0,
  count: 64,
  filter: 'raw',
  id: 15,
  urls: {
    self: `${ORIGIN}/wp-json/calendar/events/v1/tags/15`,
    collection: `${ORIGIN}/wp-json/calendar/events/v1/tags`,
  },
};

const image = {
  url: `${ORIGIN}/wp-content/uploads/demo-1.jpg`,
  id: 1,
  extension: 'jpg',
  width: 1200,
  height: 800,
  filesize: 121000,
  sizes: {
    thumbnail: {
      width: 150,
      height: 150,
      'mime-type': 'image/jpeg',
      url: `${ORIGIN}/wp-content/uploads/demo-1-150x150.jpg`,
    },
    medium: {
      width: 300,
      height: 200,
      'mime-type': 'image/jpeg',
      url: `${ORIGIN}/wp-content/uploads/demo-1-300x200.jpg`,
    },
  },
};

/** A four-day event in Los Angeles, as GET /calendar/events/v1/events/<id> answers (`*_details` dropped). */
const event = {
  id: 208,
  global_id: '127.0.0.1:43515?id=208',
  author: '3',
  status: 'publish',
  date: '2026-01-30 09:00:00',
  date_utc: '2026-01-30 14:00:00',
  modified: '2026-06-01 08:00:02',
  modified_utc: '2026-06-01 12:00:02',
  url: `${ORIGIN}/event/cedar-concert-92/`,
  rest_url: `${ORIGIN}/wp-json/calendar/events/v1/events/208`,
  title: 'Rock &#038; Roll &#8211; Cedar Concert 92',
  description: '<p>Cedar Concert 92: event number 92.</p>',
  excerpt: '',
  slug: 'cedar-concert-92',
  image: false,
  all_day: false,
  start_date: '2026-06-03 13:00:00',
  end_date: '2026-06-06 15:00:00',
  utc_start_date: '2026-06-03 20:00:00',
  utc_end_date: '2026-06-06 22:00:00',
  timezone: 'America/Los_Angeles',
  timezone_abbr: 'PDT',
  cost: '$10',
  cost_details: { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: ['10'] },
  website: 'https://cedar.example/concert',
  show_map: true,
  show_map_link: false,
  hide_from_listings: false,
  sticky: false,
  featured: true,
  categories: [category],
  tags: [tag],
  venue,
  organizer: organizers,
  custom_fields: [],
  json_ld: { '@context': 'http://schema.org', '@type': 'Event', name: 'Cedar Concert 92' },
};

/** The real site's single event (TEC 5.7, a UTC site): a bare cost_details, no image, one-day, Tokyo. */
const realEvent = {
  id: 83,
  author: '1',
  status: 'publish',
  date: '2026-11-22 01:49:51',
  date_utc: '2026-11-22 01:49:51',
  modified: '2026-11-22 01:49:51',
  modified_utc: '2026-11-22 01:49:51',
  url: 'https://example.org/event/real-event-38/',
  title: 'Real event 38',
  description: '<p>Event number 38</p>',
  excerpt: '',
  slug: 'real-event-38',
  image: false,
  all_day: false,
  start_date: '2026-11-22 20:00:00',
  end_date: '2026-11-22 22:00:00',
  utc_start_date: '2026-11-22 11:00:00',
  utc_end_date: '2026-11-22 13:00:00',
  timezone: 'Asia/Tokyo',
  timezone_abbr: 'JST',
  cost: '$10',
  cost_details: { currency_symbol: '', currency_position: '', values: ['10'] },
  website: 'https://example.org/event/real-event-38/',
  show_map: false,
  show_map_link: false,
  hide_from_listings: false,
  sticky: false,
  featured: false,
  categories: [],
  tags: [],
  venue: [],
  organizer: [],
};

describe('legacyEvent', () => {
  it('maps every field of a full body', () => {
    const m = legacyEvent(event);
    expect(m).toMatchObject({
      kind: 'Event',
      source: 'legacy',
      databaseId: 208,
      raw: event,
      title: 'Rock &#038; Roll &#8211; Cedar Concert 92',
      description: '<p>Cedar Concert 92: event number 92.</p>',
      excerpt: '',
      slug: 'cedar-concert-92',
      status: 'publish',
      url: `${ORIGIN}/event/cedar-concert-92/`,
      authorId: 3,
      timezone: 'America/Los_Angeles',
      timezoneAbbr: 'PDT',
      allDay: false,
      duration: 266_400,
      multiday: true,
      cost: '$10',
      costDetails: { currencySymbol: '$', currencyCode: 'USD', currencyPosition: 'prefix', values: ['10'] },
      website: 'https://cedar.example/concert',
      showMap: true,
      showMapLink: false,
      hideFromListings: false,
      sticky: false,
      featured: true,
      featuredImage: null,
      jsonLd: event.json_ld,
    });
    expect(m.venues!.map((v) => [v.kind, v.databaseId, v.title])).toEqual([['Venue', 45, 'Aurora Arena 37']]);
    expect(m.organizers!.map((o) => [o.kind, o.databaseId, o.title])).toEqual([
      ['Organizer', 53, 'Meridian Collective 5'],
      ['Organizer', 66, 'Juniper Foundation 18'],
    ]);
    expect(m.categories!.map((t) => [t.kind, t.databaseId, t.name, t.parentId])).toEqual([
      ['Category', 6, 'Technology', 5],
    ]);
    expect(m.tags!.map((t) => [t.kind, t.databaseId, t.name, t.parentId])).toEqual([['Tag', 15, 'free', null]]);
  });

  it('keeps HTML entities as the site renders them', () => {
    expect(legacyEvent({ ...event, description: '<p>Fish &amp; chips &hellip;</p>' }).description).toBe(
      '<p>Fish &amp; chips &hellip;</p>',
    );
  });

  it('dates: offsets from the local/UTC pair, in the event zone for event dates and the site zone for post dates', () => {
    const m = legacyEvent(event);
    expect([m.startDate, m.endDate]).toEqual(['2026-06-03T13:00:00-07:00', '2026-06-06T15:00:00-07:00']);
    expect([m.startDateUtc, m.endDateUtc]).toEqual(['2026-06-03T20:00:00Z', '2026-06-06T22:00:00Z']);
    expect([m.publishedAt, m.publishedAtUtc]).toEqual(['2026-01-30T09:00:00-05:00', '2026-01-30T14:00:00Z']);
    expect([m.modifiedAt, m.modifiedAtUtc]).toEqual(['2026-06-01T08:00:02-04:00', '2026-06-01T12:00:02Z']);
    // A UTC site: post dates equal their UTC twins; the event is in Tokyo.
    const r = legacyEvent(realEvent);
    expect([r.publishedAt, r.startDate, r.endDate, r.duration, r.multiday]).toEqual([
      '2026-11-22T01:49:51Z',
      '2026-11-22T20:00:00+09:00',
      '2026-11-22T22:00:00+09:00',
      7200,
      false,
    ]);
  });

  it('an all-day event runs 00:00 to 23:59:59 local, one day, whatever day it is in UTC', () => {
    const m = legacyEvent({
      ...event,
      all_day: true,
      timezone: 'Asia/Tokyo',
      timezone_abbr: 'JST',
      start_date: '2026-06-05 00:00:00',
      end_date: '2026-06-05 23:59:59',
      utc_start_date: '2026-06-04 15:00:00',
      utc_end_date: '2026-06-05 14:59:59',
    });
    expect(m).toMatchObject({
      allDay: true,
      multiday: false,
      duration: 86_399,
      startDate: '2026-06-05T00:00:00+09:00',
      endDate: '2026-06-05T23:59:59+09:00',
      startDateUtc: '2026-06-04T15:00:00Z',
    });
  });

  it('an evening event ending after midnight is multiday (its local dates differ)', () => {
    const m = legacyEvent({
      ...event,
      start_date: '2026-06-03 22:00:00',
      end_date: '2026-06-04 02:00:00',
      utc_start_date: '2026-06-04 05:00:00',
      utc_end_date: '2026-06-04 09:00:00',
    });
    expect([m.multiday, m.duration]).toEqual([true, 14_400]);
  });

  it('without the UTC twin, the event zone gives the offset; without dates, null', () => {
    const m = legacyEvent({
      ...event,
      utc_start_date: '',
      utc_end_date: null,
      timezone: 'UTC+2',
      start_date: '2026-01-15 10:00:00',
    });
    expect([m.startDate, m.startDateUtc, m.duration]).toEqual(['2026-01-15T10:00:00+02:00', null, null]);
    const none = legacyEvent({ ...event, start_date: '', utc_start_date: '', end_date: null, utc_end_date: null });
    expect([none.startDate, none.endDate, none.multiday, none.duration]).toEqual([null, null, null, null]);
  });

  it('empty zone strings are null; cost details read a bare real-site object; no image is null', () => {
    const m = legacyEvent({ ...realEvent, timezone: '', timezone_abbr: '' });
    expect([m.timezone, m.timezoneAbbr, m.featuredImage]).toEqual([null, null, null]);
    expect(m.costDetails).toEqual({ currencySymbol: '', currencyCode: null, currencyPosition: '', values: ['10'] });
    expect(legacyEvent({ ...event, cost: '', cost_details: { values: [] } })).toMatchObject({
      cost: '',
      costDetails: { values: [], currencyCode: null },
    });
    expect(legacyEvent({ ...event, cost_details: null }).costDetails).toBeNull();
  });

  it('venue: [] for none, an object for one, an array for several', () => {
    expect(legacyEvent(realEvent).venues).toEqual([]);
    expect(legacyEvent(event).venues!.map((v) => v.databaseId)).toEqual([45]);
    expect(
      legacyEvent({ ...event, venue: [venue, { ...venue, id: 46, venue: 'Annex' }] }).venues!.map((v) => v.title),
    ).toEqual(['Aurora Arena 37', 'Annex']);
    expect(legacyEvent({ ...event, venue: null, organizer: null, categories: undefined }).venues).toEqual([]);
    expect(legacyEvent({ ...event, venue: null, organizer: null, categories: undefined })).toMatchObject({
      organizers: [],
      categories: [],
    });
  });

  it('reads the featured image and its sizes', () => {
    expect(legacyEvent({ ...event, image }).featuredImage).toEqual({
      databaseId: 1,
      url: `${ORIGIN}/wp-content/uploads/demo-1.jpg`,
      width: 1200,
      height: 800,
      extension: 'jpg',
      filesize: 121000,
      sizes: [
        {
          name: 'thumbnail',
          url: `${ORIGIN}/wp-content/uploads/demo-1-150x150.jpg`,
          width: 150,
          height: 150,
          mimeType: 'image/jpeg',
        },
        {
          name: 'medium',
          url: `${ORIGIN}/wp-content/uploads/demo-1-300x200.jpg`,
          width: 300,
          height: 200,
          mimeType: 'image/jpeg',
        },
      ],
    });
    // Empty values are dropped by the site: no filesize, no sizes.
    expect(legacyImage({ id: 2, url: 'https://x.example/a.png' })).toMatchObject({
      databaseId: 2,
      filesize: null,
      width: null,
      sizes: [],
    });
    expect([legacyImage(false), legacyImage(null), legacyImage([image])]).toEqual([null, null, null]);
  });

  it('leaves undefined the fields the legacy interface does not serve', () => {
    const m = legacyEvent(event);
    for (const k of [
      'virtual',
      'ticketed',
      'commentStatus',
      'pingStatus',
      'format',
      'template',
      'scheduleDetails',
      'seriesId',
      'categoryIds',
      'tagIds',
      'passwordProtected',
    ] as const) {
      expect(m[k], k).toBeUndefined();
    }
    // json_ld comes with the single GET only: absent from list items.
    const { json_ld: _ld, ...listItem } = event;
    expect(legacyEvent(listItem).jsonLd).toBeUndefined();
    expect(legacyEvent({ ...event, json_ld: null }).jsonLd).toBeNull();
  });

  describe('lazy model', () => {
    it('reads fields when asked, not when built: a bad embedded venue fails only its own field', () => {
      const m = legacyEvent({ ...event, venue: { venue: 'no id' } });
      expect(m.title).toBe(event.title);
      expect(() => m.venues).toThrow(UpstreamShapeError);
    });

    it('gives the same object twice for embedded objects, image and cost details (loaders are primed with them)', () => {
      const m = legacyEvent({ ...event, image });
      for (const k of ['venues', 'organizers', 'categories', 'tags', 'featuredImage', 'costDetails'] as const)
        expect(m[k], k).toBe(m[k]);
      expect(m.venues![0]!.featuredImage).toBe(m.venues![0]!.featuredImage);
      expect(m.startDate).toBe(m.startDate);
      // A null image is remembered too.
      const n = legacyEvent(event);
      expect([n.featuredImage, n.featuredImage]).toEqual([null, null]);
    });

    it('two models of one body are independent', () => {
      const a = legacyEvent(event);
      const b = legacyEvent(event);
      expect(a.venues).not.toBe(b.venues);
      expect(a.venues).toEqual(b.venues);
    });

    it('fields are getters on the prototype: a spread copies only the plain fields', () => {
      const m = legacyEvent(event);
      expect(Object.keys(m).sort()).toEqual(expect.arrayContaining(['databaseId', 'kind', 'raw', 'source']));
      expect(Object.keys(m)).not.toContain('title');
      expect('title' in m).toBe(true);
      expect('virtual' in m).toBe(false);
    });
  });

  it('refuses a body that is not an event object or has no usable ID', () => {
    expect(() => legacyEvent(null)).toThrow(/expected legacy event to be an object, got null/);
    expect(() => legacyEvent({ ...event, id: -1 })).toThrow(/expected event.id to be a positive integer/);
    expect(legacyEvent({ ...event, id: '208' }).databaseId).toBe(208);
  });

  it('reads fields of the wrong type as null', () => {
    const m = legacyEvent({
      ...event,
      author: 'admin',
      all_day: 'sometimes',
      featured: '1',
      hide_from_listings: 0,
      title: ['x'],
      cost: 15,
    });
    expect(m).toMatchObject({
      authorId: null,
      allDay: null,
      featured: true,
      hideFromListings: false,
      title: null,
      cost: '15',
    });
  });
});

describe('legacyVenue', () => {
  it('maps every field', () => {
    const m = legacyVenue({
      ...venue,
      phone: '+44 20 0000',
      website: 'https://aurora.example',
      state: 'LDN',
      description: '<p>Hall</p>',
      excerpt: 'Hall',
      image,
    });
    expect(m).toMatchObject({
      kind: 'Venue',
      source: 'legacy',
      databaseId: 45,
      title: 'Aurora Arena 37',
      slug: 'aurora-arena-37',
      status: 'publish',
      url: `${ORIGIN}/venue/aurora-arena-37/`,
      authorId: 1,
      description: '<p>Hall</p>',
      excerpt: 'Hall',
      address: '37 Aurora Street',
      city: 'London',
      country: 'United Kingdom',
      province: 'England',
      state: 'LDN',
      stateProvince: 'England',
      zip: 'EC1A 1BB',
      phone: '+44 20 0000',
      website: 'https://aurora.example',
      showMap: true,
      showMapLink: true,
      latitude: 51.525754,
      longitude: -0.133249,
      publishedAt: '2025-06-29T09:00:00-04:00',
      modifiedAtUtc: '2026-06-01T12:00:00Z',
    });
    expect(m.featuredImage?.databaseId).toBe(1);
  });

  it('an absent key is empty (the site drops empty values): null, and false for the map flags', () => {
    const m = legacyVenue({ id: 14, venue: 'Atlas Hall 6', url: `${ORIGIN}/venue/atlas-hall-6/` });
    expect(m).toMatchObject({
      address: null,
      city: null,
      zip: null,
      phone: null,
      website: null,
      state: null,
      latitude: null,
      longitude: null,
      showMap: false,
      showMapLink: false,
      description: null,
      featuredImage: null,
    });
    // calendar-core's own field: not served here.
    expect(m.directionsLink).toBeUndefined();
  });

  it('reads string coordinates and refuses a venue without an ID', () => {
    expect(legacyVenue({ ...venue, geo_lat: '48.871478', geo_lng: 'n/a' })).toMatchObject({
      latitude: 48.871478,
      longitude: null,
    });
    expect(() => legacyVenue({ venue: 'x' })).toThrow(/expected venue.id to be a positive integer, got undefined/);
  });
});

describe('legacyOrganizer', () => {
  it('maps every field; dropped keys are null', () => {
    expect(legacyOrganizer(organizers[1])).toMatchObject({
      kind: 'Organizer',
      source: 'legacy',
      databaseId: 66,
      title: 'Juniper Foundation 18',
      slug: 'juniper-foundation-18',
      authorId: 2,
      phone: '+1 555 0218',
      website: 'https://org-18.example',
      email: 'org18@example.com',
      url: `${ORIGIN}/organizer/juniper-foundation-18/`,
      publishedAt: '2025-10-26T09:00:00-04:00',
      publishedAtUtc: '2025-10-26T13:00:00Z',
    });
    expect(legacyOrganizer(organizers[0])).toMatchObject({
      phone: null,
      website: null,
      email: null,
      description: null,
    });
    expect(() => legacyOrganizer('organizer')).toThrow(UpstreamShapeError);
  });
});

describe('legacyTerm', () => {
  it('an embedded term: no permalink (undefined: read from the archive form), parent 0 is none', () => {
    expect(legacyTerm(category, 'Category')).toEqual({
      kind: 'Category',
      databaseId: 6,
      name: 'Technology',
      slug: 'technology',
      description: '',
      count: 33,
      url: undefined,
      parentId: 5,
      raw: category,
    });
    expect(legacyTerm(tag, 'Tag')).toMatchObject({ kind: 'Tag', databaseId: 15, parentId: null, url: undefined });
  });

  it('an archive term carries its permalink; tags have no parent key', () => {
    const archive = {
      id: 39,
      count: 5,
      description: 'Step-free &amp; quiet',
      name: 'accessibility',
      slug: 'accessibility',
      taxonomy: 'post_tag',
      meta: [],
      url: `${ORIGIN}/tag/accessibility/`,
    };
    expect(legacyTerm(archive, 'Tag')).toEqual({
      kind: 'Tag',
      databaseId: 39,
      name: 'accessibility',
      slug: 'accessibility',
      description: 'Step-free &amp; quiet',
      count: 5,
      url: `${ORIGIN}/tag/accessibility/`,
      parentId: null,
      raw: archive,
    });
    expect(legacyTerm({ ...archive, url: false }, 'Tag').url).toBeNull();
  });

  it('refuses a term without an ID, naming its kind', () => {
    expect(() => legacyTerm({ name: 'x' }, 'Category')).toThrow(/expected category.id to be a positive integer/);
    expect(() => legacyTerm(7, 'Tag')).toThrow(/expected legacy tag to be an object, got number/);
  });
});
