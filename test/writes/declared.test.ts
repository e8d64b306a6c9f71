/**
 * Declared spellings and resets (docs/writes.md): what each field is sent
 * under, given the arguments the site's root index declares for the routes of
 * a write (src/writes/plan.ts `jobDeclared`, src/writes/inputs.ts `split`),
 * and what a payload carries from the stored state. Pure.
 */
import { describe, expect, it } from 'vitest';
import { legacyEventState } from '../../src/writes/inputs.ts';
import { parseIndex } from '../../src/upstream/discovery.ts';
import { EVENTS, ORGANIZERS, VENUES } from '../../src/writes/kinds.ts';
import { completePayloads, jobDeclared, routeDeclared, throughOther, writeJob } from '../../src/writes/plan.ts';

const ZONE = 'Europe/Paris';

/** 6.15.14's declared arguments of the event write routes (docs/real-sites.md "Declared arguments"). */
const CORE_EVENT_ARGS = [
  'all_day',
  'author',
  'comment_status',
  'content',
  'cost',
  'date',
  'date_gmt',
  'duration',
  'end_date',
  'end_date_utc',
  'excerpt',
  'featured',
  'featured_media',
  'format',
  'organizers',
  'ping_status',
  'slug',
  'start_date',
  'start_date_utc',
  'status',
  'sticky',
  'tags',
  'template',
  'timezone',
  'title',
  'tribe_events_cat',
  'venues',
];
const LEGACY_EVENT_ARGS = [
  'all_day',
  'author',
  'categories',
  'cost',
  'date',
  'date_utc',
  'description',
  'end_date',
  'excerpt',
  'featured',
  'hide_from_listings',
  'id',
  'image',
  'organizer',
  'show_map',
  'show_map_link',
  'slug',
  'start_date',
  'status',
  'sticky',
  'tags',
  'timezone',
  'title',
  'venue',
  'website',
];
const CORE_VENUE_ARGS = [
  'address',
  'author',
  'city',
  'content',
  'country',
  'date',
  'excerpt',
  'featured_media',
  'phone',
  'province',
  'slug',
  'state',
  'state_province',
  'status',
  'tags',
  'title',
  'website',
  'zip',
];

const args = (names: string[]) => Object.fromEntries(names.map((n) => [n, { type: 'string' }]));
const route = (namespace: string, methods: string[], names: string[]) => ({
  namespace,
  methods,
  endpoints: [{ methods, args: args(names) }],
});

/** A site as TEC 6.15.14 declares its routes. */
const SITE_615 = parseIndex({
  namespaces: ['calendar/events/v1', 'calendar-core/v1'],
  timezone_string: ZONE,
  routes: {
    '/calendar-core/v1/events': route('calendar-core/v1', ['POST'], CORE_EVENT_ARGS),
    '/calendar-core/v1/events/(?P<id>\\d+)': route('calendar-core/v1', ['PATCH'], CORE_EVENT_ARGS),
    '/calendar-core/v1/venues/(?P<id>\\d+)': route('calendar-core/v1', ['PATCH'], CORE_VENUE_ARGS),
    '/calendar/events/v1/events/(?P<id>\\d+)': route('calendar/events/v1', ['POST', 'PUT', 'PATCH'], LEGACY_EVENT_ARGS),
  },
});

const update = (
  spec: typeof EVENTS | typeof VENUES | typeof ORGANIZERS,
  input: object,
  api: 'core' | 'legacy' = 'core',
) =>
  writeJob(
    SITE_615,
    spec as typeof EVENTS,
    0,
    { item: ['input'], fields: ['input'], id: ['id'] },
    input,
    { id: 5 },
    api,
    'PATCH',
  );

describe('declared arguments', () => {
  it('are read from the root index per route and method; an interface the site lacks declares nothing; an undescribed route is null', () => {
    expect(routeDeclared(SITE_615, 'core', EVENTS, 'PATCH', { id: 1 })!.has('tribe_events_cat')).toBe(true);
    expect(routeDeclared(SITE_615, 'core', ORGANIZERS, 'PATCH', { id: 1 })).toBeNull();
    const legacyOnly = parseIndex({ namespaces: ['calendar/events/v1'], routes: {} });
    expect(routeDeclared(legacyOnly, 'core', EVENTS, 'PATCH', { id: 1 })).toEqual(new Set());
    expect(jobDeclared(SITE_615, EVENTS, 'core', 'PATCH', { id: 5 }).legacy!.has('website')).toBe(true);
  });

  it('the category field goes under the spelling the route declares (tribe_events_cat), legacy-only fields to the legacy follow-up', () => {
    const job = update(EVENTS, { categoryIds: [3], website: 'https://x.org' });
    expect(job.error).toBeNull();
    const p = completePayloads(ZONE, EVENTS, job.job, null, undefined);
    expect(p).toMatchObject({
      payloads: { primary: { tribe_events_cat: [3] }, secondary: { website: 'https://x.org' } },
    });
    expect(!Array.isArray(p) && p.payloads.primary).not.toHaveProperty('calendar_events_cat');
  });

  it('a field no route declares is refused before anything is sent: WRITE_NOT_APPLIED naming it and both routes', () => {
    const job = update(EVENTS, { virtual: true, title: 'ok' });
    expect(job.error).toMatchObject({
      code: 'WRITE_NOT_APPLIED',
      path: ['input', 'virtual'],
      notApplied: [{ field: 'virtual', path: ['input', 'virtual'], reason: 'UNDECLARED', asked: true, kept: null }],
    });
    expect(job.error!.message).toBe(
      'Not written: virtual: this site does not declare it on PATCH /calendar-core/v1/events/<id> nor on POST /calendar/events/v1/events/<id> (WordPress would drop it without a word), so nothing was sent.',
    );
    // With other problems, it is listed with them.
    const mixed = update(EVENTS, { virtual: true, duration: -1 });
    expect(mixed.error).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(mixed.error!.problems!.map((x) => x.path.join('.'))).toEqual(['input.duration', 'input.virtual']);
  });

  it("a venue's coordinates on 6.15: neither route declares lat/lng", () => {
    expect(update(VENUES, { latitude: 1, longitude: 2 }).error!.notApplied!.map((f) => f.field)).toEqual([
      'latitude',
      'longitude',
    ]);
  });
});

describe('resets and where an update goes', () => {
  const legacyBody = {
    id: 5,
    url: 'https://site/e/',
    title: 'E',
    date: '2026-01-15 10:00:00',
    date_utc: '2026-01-15 09:00:00',
    start_date: '2031-01-01 10:00:00',
    end_date: '2031-01-01 11:00:00',
    timezone: ZONE,
    featured: true,
    sticky: true,
    show_map: false,
    show_map_link: false,
    hide_from_listings: true,
    cost: '$5',
    status: 'publish',
  };

  it('the legacy state carries the publication date (the legacy update moves an omitted one to now)', () => {
    expect(legacyEventState(legacyBody, 'legacy').date).toBe('2026-01-15 10:00:00');
    expect(legacyEventState({ date: '2026-01-15T10:00:00' }, 'core').date).toBe('2026-01-15 10:00:00');
  });

  it('a calendar-core update gets sticky from the stored state; a legacy one the complete state with the date', () => {
    const core = update(EVENTS, { title: 'x' }).job;
    expect(completePayloads(ZONE, EVENTS, core, 'legacy', legacyBody)).toMatchObject({
      payloads: { primary: { title: 'x', sticky: true } },
    });
    const legacy = update(EVENTS, { title: 'x' }, 'legacy').job;
    expect(completePayloads(ZONE, EVENTS, legacy, 'legacy', legacyBody)).toMatchObject({
      payloads: {
        primary: {
          title: 'x',
          date: '2026-01-15 10:00:00',
          featured: true,
          sticky: true,
          show_map: false,
          show_map_link: false,
          hide_from_listings: true,
          cost: '$5',
        },
      },
    });
  });

  it('throughOther: an update none of whose fields its interface takes goes through the other one alone', () => {
    const { job } = throughOther(SITE_615, EVENTS, update(EVENTS, { website: 'https://x.org', showMap: true }));
    expect(job.api).toBe('legacy');
    expect(job.declared.legacy!.has('website')).toBe(true);
    const mixed = throughOther(SITE_615, EVENTS, update(EVENTS, { website: 'https://x.org', title: 't' })).job;
    expect(mixed.api).toBe('core');
    // calendar-core has no POST updates and no slugs: a legacy job stays.
    const post = writeJob(
      SITE_615,
      EVENTS,
      0,
      { item: [], fields: [], id: [] },
      { template: 'x.php' },
      { id: 5 },
      'legacy',
      'POST',
    );
    expect(throughOther(SITE_615, EVENTS, post).job.api).toBe('legacy');
  });
});
