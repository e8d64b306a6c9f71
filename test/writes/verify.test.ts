/**
 * The comparison behind every write's verification (src/writes/verify.ts):
 * what each interface's answer shows, how values are normalised, and which
 * differences count.
 */
import { describe, expect, it } from 'vitest';
import {
  askedOf,
  costKey,
  mismatches,
  plainText,
  sameValue,
  slugKey,
  unseen,
  viewOf,
} from '../../src/writes/verify.ts';

const ZONE = 'America/New_York';

/** A legacy single GET of an event, as both releases answer it. */
const legacyEvent = {
  id: 12,
  title: 'Jazz &#8211; night',
  description: '<p>Body</p>\n',
  excerpt: '',
  slug: 'jazz-night',
  status: 'publish',
  author: 3,
  date: '2026-01-15 10:00:00',
  date_utc: '2026-01-15 15:00:00',
  url: 'https://site/event/jazz-night/',
  start_date: '2026-03-10 10:00:00',
  end_date: '2026-03-10 12:00:00',
  utc_start_date: '2026-03-10 09:00:00',
  utc_end_date: '2026-03-10 11:00:00',
  timezone: 'Europe/Paris',
  all_day: false,
  cost: '$15',
  website: 'https://site/event/jazz-night/',
  show_map: false,
  show_map_link: false,
  hide_from_listings: true,
  sticky: true,
  featured: true,
  venue: { id: 7 },
  organizer: [{ id: 9 }, { id: 8 }],
  categories: [{ id: 4 }],
  tags: [],
  image: false,
};

/** The same event through calendar-core/v1 (6.15.14 spells the category field `tribe_events_cat`). */
const coreEvent = {
  id: 12,
  title: { rendered: 'Jazz – night' },
  content: { rendered: '<p>Body</p>' },
  excerpt: { rendered: '' },
  slug: 'jazz-night',
  status: 'publish',
  author: 3,
  date: '2026-01-15T10:00:00',
  date_gmt: '2026-01-15T15:00:00',
  start_date: '2026-03-10 10:00:00',
  end_date: '2026-03-10 12:00:00',
  start_date_utc: '2026-03-10 09:00:00',
  end_date_utc: '2026-03-10 11:00:00',
  timezone: 'Europe/Paris',
  all_day: false,
  duration: '7200',
  cost: '$15',
  sticky: true,
  featured: true,
  venues: [{ id: 7 }],
  organizers: [8, 9],
  tribe_events_cat: [4],
  tags: [],
  featured_media: 0,
  template: '',
};

describe('views of the answers', () => {
  it('a legacy event: the permalink shown as website is no website; references as sorted IDs; instants from the UTC fields', () => {
    const v = viewOf('events', 'legacy', legacyEvent);
    expect(Object.fromEntries(v)).toMatchObject({
      website: null,
      venueIds: [7],
      organizerIds: [8, 9],
      categoryIds: [4],
      tagIds: [],
      featuredImageId: null,
      startDate: '2026-03-10T09:00:00Z',
      publishedAt: '2026-01-15T15:00:00Z',
      showMap: false,
      sticky: true,
    });
    expect(v.has('duration')).toBe(false);
  });

  it('a calendar-core event shows no legacy-only field; either category spelling is read', () => {
    const v = viewOf('events', 'core', coreEvent);
    expect(Object.fromEntries(v)).toMatchObject({
      categoryIds: [4],
      organizerIds: [8, 9],
      duration: 7200,
      publishedAt: '2026-01-15T15:00:00Z',
    });
    for (const f of ['website', 'showMap', 'showMapLink', 'hideFromListings']) expect(v.has(f)).toBe(false);
    expect(
      viewOf('events', 'core', { ...coreEvent, tribe_events_cat: undefined, calendar_events_cat: [5] }).get(
        'categoryIds',
      ),
    ).toEqual([5]);
  });

  it('legacy venues drop empty values: an absent key is shown as none', () => {
    const v = viewOf('venues', 'legacy', { id: 3, venue: 'Hall', show_map: '1' });
    expect(v.get('city')).toBeNull();
    expect(v.get('showMap')).toBe(true);
    expect(v.get('showMapLink')).toBe(false);
  });

  it('the same stored event reads the same through either interface', () => {
    const l = viewOf('events', 'legacy', legacyEvent);
    const c = viewOf('events', 'core', coreEvent);
    for (const [field, value] of c) if (l.has(field)) expect(sameValue(field, l.get(field)!, value), field).toBe(true);
  });
});

describe('normalisation', () => {
  it('text: tags, entities and typographic quotes and dashes do not count; whitespace collapses', () => {
    expect(plainText('<p>Don&#8217;t  stop &#8211; ever&hellip;</p>\n')).toBe("Don't stop - ever...");
    expect(sameValue('title', '  Jazz - night ', 'Jazz &#8211; night')).toBe(true);
  });
  it('costs by their amounts; slugs as WordPress sanitizes them; lists as sets; dates as instants', () => {
    expect(costKey('$10 – $25')).toBe(costKey('10-25'));
    expect(costKey('Free')).toBe(costKey('0'));
    expect(sameValue('cost', '$20', '$15')).toBe(false);
    expect(slugKey('Jazz Night!')).toBe('jazz-night');
    expect(sameValue('organizerIds', [9, 8], [8, 9])).toBe(true);
    expect(sameValue('startDate', '2026-03-10T10:00:00+01:00', '2026-03-10T09:00:00Z')).toBe(true);
    expect(sameValue('website', '', null)).toBe(true);
  });
});

describe('mismatches', () => {
  const before = viewOf('events', 'legacy', legacyEvent);

  it('a field set that the site ignored (featured: false on 6.15.14), and fields not set that changed (sticky, showMap reset)', () => {
    const asked = askedOf('events', { featured: false }, ZONE, legacyEvent);
    const after = viewOf('events', 'legacy', { ...legacyEvent, featured: true, sticky: false, show_map: true });
    expect(mismatches(asked, before, after)).toEqual([
      { field: 'featured', asked: false, kept: true, set: true },
      { field: 'showMap', asked: false, kept: true, set: false },
      { field: 'sticky', asked: true, kept: false, set: false },
    ]);
  });

  it('the publication date moved by the legacy update is a change nobody asked for', () => {
    const asked = askedOf('events', { title: 'New' }, ZONE, legacyEvent);
    const after = viewOf('events', 'legacy', {
      ...legacyEvent,
      title: 'New',
      date: '2026-11-25 15:28:07',
      date_utc: '2026-11-25 20:28:07',
    });
    expect(mismatches(asked, before, after)).toEqual([
      { field: 'publishedAt', asked: '2026-01-15T15:00:00Z', kept: '2026-11-25T20:28:07Z', set: false },
    ]);
  });

  it('dates: the instants the gateway computed (an end alone keeps the stored start); the duration follows', () => {
    const asked = askedOf('events', { endDate: '2026-03-10T13:00:00+01:00' }, ZONE, legacyEvent);
    expect(asked.dates).toEqual({
      start: '2026-03-10T09:00:00Z',
      end: '2026-03-10T12:00:00Z',
      zone: 'Europe/Paris',
      duration: 10800,
    });
    const good = viewOf('events', 'core', {
      ...coreEvent,
      end_date: '2026-03-10 13:00:00',
      end_date_utc: '2026-03-10 12:00:00',
      duration: 10800,
    });
    expect(mismatches(asked, before, good)).toEqual([]);
    const stale = viewOf('events', 'core', {
      ...coreEvent,
      end_date: '2026-03-10 13:00:00',
      end_date_utc: '2026-03-10 12:00:00',
    });
    expect(mismatches(asked, before, stale)).toEqual([{ field: 'duration', asked: 10800, kept: 7200, set: true }]);
  });

  it('a new zone keeps the wall-clock times: the instants move', () => {
    const asked = askedOf('events', { timezone: 'Asia/Tokyo' }, ZONE, legacyEvent);
    expect(asked.dates).toMatchObject({ start: '2026-03-10T01:00:00Z', zone: 'Asia/Tokyo' });
  });

  it('fields the input changes by design are not compared with before (an inline venue, a new description and its excerpt)', () => {
    const asked = askedOf('events', { description: 'New body', venue: { title: 'Inline' } }, ZONE, legacyEvent);
    const after = viewOf('events', 'legacy', {
      ...legacyEvent,
      description: '<p>New body</p>',
      excerpt: 'New body',
      venue: { id: 99 },
    });
    expect(mismatches(asked, before, after)).toEqual([]);
  });

  it('unseen: what the check needs that the answer does not show (legacy-only fields after a calendar-core PATCH)', () => {
    const asked = askedOf('events', { title: 'x' }, ZONE, legacyEvent);
    expect(unseen(asked, before, viewOf('events', 'core', coreEvent)).sort()).toEqual([
      'excerpt',
      'hideFromListings',
      'showMap',
      'showMapLink',
      'website',
    ]);
  });

  it('rendered fields: the description asked must be in what the site renders (paragraphs, embeds); a private title keeps its prefix', () => {
    const asked = askedOf('events', { description: 'Watch this:\nhttps://video.example/v/1', title: 'Secret' }, ZONE);
    const after = viewOf('events', 'core', {
      ...coreEvent,
      title: { rendered: 'Private: Secret' },
      content: {
        rendered: '<p>Watch this:</p>\n<figure><iframe src="https://video.example/embed/1"></iframe></figure>',
      },
    });
    expect(mismatches(asked, null, after)).toEqual([]);
    const ignored = viewOf('events', 'core', {
      ...coreEvent,
      title: { rendered: 'Secret' },
      content: { rendered: '<p>Old body</p>' },
    });
    expect(mismatches(asked, null, ignored).map((m) => m.field)).toEqual(['description']);
  });

  it('creates: only what was asked; a slug the site numbered, and publish scheduled as future, hold', () => {
    const asked = askedOf('events', { title: 'A', slug: 'jazz-night', status: 'PUBLISH' }, ZONE);
    const after = viewOf('events', 'core', {
      ...coreEvent,
      title: { rendered: 'A' },
      slug: 'jazz-night-2',
      status: 'future',
    });
    expect(mismatches(asked, null, after)).toEqual([]);
  });
});
