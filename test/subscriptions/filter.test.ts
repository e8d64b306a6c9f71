/** Subscription filters (src/subscriptions/filter.ts): `where:` on one object, refused where it cannot be. */
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.ts';
import { eventFilter, postFilter, statusPasses } from '../../src/subscriptions/filter.ts';
import type { EventModel } from '../../src/mapping/models.ts';
import type { PostModel } from '../../src/mapping/platform-models.ts';
import { parseIndex, type SiteInfo } from '../../src/upstream/discovery.ts';

const site = { timezone: 'America/New_York', hasCore: true, hasLegacy: true } as SiteInfo;
const legacyOnly = { ...site, hasCore: false } as SiteInfo;
const ctx = {} as Context;

const event = (over: Partial<EventModel> = {}): EventModel => ({
  kind: 'Event',
  source: 'legacy',
  databaseId: 5,
  status: 'publish',
  raw: {},
  startDateUtc: '2026-06-10T14:00:00Z',
  endDateUtc: '2026-06-10T16:00:00Z',
  featured: true,
  venues: [{ kind: 'Venue', source: 'legacy', databaseId: 40, raw: {}, latitude: 1, longitude: 2 }],
  organizers: [],
  tags: [
    {
      kind: 'Tag',
      databaseId: 3,
      slug: 'jazz',
      name: 'Jazz',
      description: null,
      count: 1,
      url: null,
      parentId: null,
      raw: null,
    },
  ],
  ...over,
});

const post = (over: Partial<PostModel> = {}): PostModel => ({
  kind: 'Post',
  databaseId: 9,
  title: 't',
  content: '',
  excerpt: '',
  slug: 'hello',
  status: 'publish',
  type: 'post',
  url: null,
  guid: null,
  authorId: 2,
  featuredMediaId: null,
  publishedAt: null,
  publishedAtUtc: '2026-06-01T12:00:00Z',
  modifiedAt: null,
  modifiedAtUtc: null,
  commentStatus: null,
  pingStatus: null,
  sticky: false,
  template: '',
  format: 'standard',
  passwordProtected: false,
  categoryIds: [1, 4],
  tagIds: [7],
  raw: {},
  ...over,
});

describe('event filters', () => {
  it('apply dates as whole site-local days unless strictDates, and the flags, places and tags', async () => {
    // 2026-06-10 14:00Z is 10:00 in New York: the day of 2026-06-10 there.
    expect(await eventFilter(site, { startDate: '2026-06-10T23:00:00' }).fields(ctx, event())).toBe(true);
    expect(await eventFilter(site, { startDate: '2026-06-10T23:00:00', strictDates: true }).fields(ctx, event())).toBe(
      false,
    );
    expect(await eventFilter(site, { endsBefore: '2026-06-10' }).fields(ctx, event())).toBe(true);
    expect(await eventFilter(site, { startsAfter: '2026-06-10' }).fields(ctx, event())).toBe(false);
    expect(
      await eventFilter(site, { featured: true, venueIds: [40], tagSlugs: ['jazz'], hasGeolocation: true }).fields(
        ctx,
        event(),
      ),
    ).toBe(true);
    expect(await eventFilter(site, { featured: false }).fields(ctx, event())).toBe(false);
    expect(await eventFilter(site, { organizerIds: [1] }).fields(ctx, event())).toBe(false);
  });

  it("default to published events; ids and statuses are the caller's to check", () => {
    const f = eventFilter(site, { ids: [5], status: ['PUBLISH', 'DRAFT'] });
    expect([...f.ids!]).toEqual([5]);
    expect(statusPasses(f, 'draft')).toBe(true);
    expect(statusPasses(eventFilter(site, {}), 'draft')).toBe(false);
    expect(statusPasses(eventFilter(site, {}), 'publish')).toBe(true);
    expect(eventFilter(site, {}).readsFields).toBe(false);
  });

  it('refuse what one event cannot answer, and calendar-core filters where the site lacks it, naming the argument', () => {
    for (const where of [
      { search: 'x' },
      { near: 'Paris' },
      { relatedTo: 3 },
      { recurring: true },
      { postParent: 0 },
      { geolocation: { latitude: 0, longitude: 0 } },
    ]) {
      expect(() => eventFilter(site, where)).toThrow(/cannot be used by a subscription/);
    }
    try {
      eventFilter(legacyOnly, { virtual: true });
      expect.unreachable();
    } catch (err) {
      expect((err as { extensions: unknown }).extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        arguments: ['where.virtual'],
      });
    }
  });
});

describe('ticketed, as events refuses it (upstream/inert.ts)', () => {
  /** TEC 6.15.14's calendar-core events list, which declares ticketed; Event Tickets active or not. */
  const tec615 = (tickets: boolean) =>
    parseIndex({
      namespaces: ['tribe/events/v1', 'tec/v1', ...(tickets ? ['tribe/tickets/v1'] : [])],
      timezone_string: 'America/New_York',
      routes: {
        '/tec/v1/events': {
          namespace: 'tec/v1',
          methods: ['GET'],
          endpoints: [{ methods: ['GET'], args: { ticketed: {}, featured: {} } }],
        },
      },
    });

  it('is refused, true and false, where Event Tickets is not active, naming the argument, the release and why', () => {
    for (const ticketed of [true, false]) {
      let err: unknown;
      try {
        eventFilter(tec615(false), { ticketed });
      } catch (e) {
        err = e;
      }
      expect(err, String(ticketed)).toMatchObject({
        extensions: {
          code: 'BAD_USER_INPUT',
          arguments: ['where.ticketed'],
          release: expect.stringMatching(/6\.15 or later/),
        },
      });
      expect((err as Error).message).toContain('Event Tickets is not active on the site');
    }
    // Other calendar-core filters are unaffected.
    expect(() => eventFilter(tec615(false), { featured: true })).not.toThrow();
  });

  it("filters on the calendar-core copy's flag where Event Tickets is active", async () => {
    const f = eventFilter(tec615(true), { ticketed: true });
    expect(await f.fields(ctx, event({ source: 'core', ticketed: true }))).toBe(true);
    expect(await f.fields(ctx, event({ source: 'core', ticketed: false }))).toBe(false);
  });

  it('needs calendar-core/v1, whose copies alone carry it, as events does', () => {
    expect(() => eventFilter(legacyOnly, { ticketed: true })).toThrow(/where\.ticketed needs calendar-core\/v1/);
  });
});

describe('post filters', () => {
  it('apply authors, slugs, terms (any or all), formats, stickiness and dates', () => {
    const m = post();
    expect(
      postFilter(site, {
        author: [2],
        slug: ['hello'],
        categories: { terms: [4, 99] },
        format: ['STANDARD'],
        sticky: false,
      }).fields(ctx, m),
    ).toBe(true);
    expect(postFilter(site, { categories: { terms: [4, 99], operator: 'AND' } }).fields(ctx, m)).toBe(false);
    expect(postFilter(site, { categoriesExclude: { terms: [1] } }).fields(ctx, m)).toBe(false);
    expect(postFilter(site, { tagsExclude: [8], authorExclude: [3] }).fields(ctx, m)).toBe(true);
    expect(postFilter(site, { after: '2026-06-01T07:00:00' }).fields(ctx, m)).toBe(true);
    expect(postFilter(site, { before: '2026-06-01T07:00:00' }).fields(ctx, m)).toBe(false);
  });

  it('ANY lets every status but trash and auto-draft through', () => {
    const f = postFilter(site, { status: ['ANY'] });
    expect(statusPasses(f, 'draft')).toBe(true);
    expect(statusPasses(f, 'trash')).toBe(false);
    expect(statusPasses(postFilter(site, {}), 'private')).toBe(false);
  });

  it('refuse includeChildren: the category tree is not read', () => {
    expect(() => postFilter(site, { categories: { terms: [1], includeChildren: true } })).toThrow(/includeChildren/);
  });
});
