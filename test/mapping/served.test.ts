/**
 * namespaces/calendar/served.ts says which fields each calendar interface never serves;
 * the resolvers skip the other interface's copy for those, and lists pick the
 * interface that has every selected field. These tests hold the sets to what
 * the mappings really produce from the sandbox's (spec-complete, TEC 6.17)
 * objects: a field the sets call served must come out defined, a field they
 * call never served must come out undefined.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreEvent, coreOrganizer, coreVenue } from '../../src/namespaces/calendar/core-mapping.ts';
import { legacyEvent, legacyOrganizer, legacyVenue } from '../../src/namespaces/calendar/legacy-mapping.ts';
import { NEVER_SERVED, preferFor, type CalendarKind } from '../../src/namespaces/calendar/served.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

/** The schema's fields of each kind that come straight from the model (the rest have resolvers of their own). */
const FIELDS: Record<CalendarKind, string[]> = {
  Event: [
    'title',
    'description',
    'excerpt',
    'slug',
    'url',
    'authorId',
    'publishedAt',
    'publishedAtUtc',
    'modifiedAt',
    'modifiedAtUtc',
    'startDate',
    'endDate',
    'startDateUtc',
    'endDateUtc',
    'timezone',
    'timezoneAbbr',
    'allDay',
    'duration',
    'multiday',
    'cost',
    'costDetails',
    'website',
    'showMap',
    'showMapLink',
    'hideFromListings',
    'sticky',
    'featured',
    'virtual',
    'ticketed',
    'commentStatus',
    'pingStatus',
    'format',
    'template',
    'passwordProtected',
    'scheduleDetails',
    'jsonLd',
    'seriesId',
  ],
  Venue: [
    'title',
    'address',
    'city',
    'country',
    'zip',
    'phone',
    'website',
    'showMap',
    'showMapLink',
    'directionsLink',
    'passwordProtected',
  ],
  Organizer: ['title', 'phone', 'website', 'email', 'passwordProtected'],
};

/** Fields a copy serves only sometimes (the key is there or not, per object or per release): not held either way. */
const SOMETIMES = new Set(['featuredImage', 'jsonLd', 'seriesId', 'latitude', 'longitude']);
/** Keys calendar-core writes take and some releases echo (6.15.14 and the sandbox do not): absent is null, at no cost. */
const CORE_SOMETIMES = new Set(['commentStatus', 'pingStatus', 'format']);

let sb: RunningSandbox;
let api: RestClient;
beforeAll(async () => {
  sb = await testSandbox({ anchor: '2026-06-01', tec: '6.17' });
  api = restClient(sb);
});
afterAll(() => sb.close());

async function first(path: string, key?: string): Promise<unknown> {
  const r = await api.get(path, 'admin');
  expect(r.status).toBe(200);
  const list = key ? r.body[key] : r.body;
  return list[0];
}

describe('NEVER_SERVED matches the mappings', () => {
  it.each([
    [
      'Event',
      '/calendar/events/v1/events?per_page=1',
      'events',
      legacyEvent,
      '/calendar-core/v1/events?per_page=1',
      coreEvent,
    ],
    [
      'Venue',
      '/calendar/events/v1/venues?per_page=1',
      'venues',
      legacyVenue,
      '/calendar-core/v1/venues?per_page=1',
      coreVenue,
    ],
    [
      'Organizer',
      '/calendar/events/v1/organizers?per_page=1',
      'organizers',
      legacyOrganizer,
      '/calendar-core/v1/organizers?per_page=1',
      coreOrganizer,
    ],
  ] as const)('%s', async (kind, legacyPath, key, fromLegacy, corePath, fromCore) => {
    const legacy = fromLegacy(await first(legacyPath, key)) as unknown as Record<string, unknown>;
    const core = fromCore(await first(corePath)) as unknown as Record<string, unknown>;
    for (const f of FIELDS[kind]) {
      if (SOMETIMES.has(f)) continue;
      expect(legacy[f] === undefined, `legacy ${kind}.${f}`).toBe(NEVER_SERVED.legacy[kind].has(f));
      if (!CORE_SOMETIMES.has(f))
        expect(core[f] === undefined, `core ${kind}.${f}`).toBe(NEVER_SERVED.core[kind].has(f));
    }
  });
});

describe('preferFor', () => {
  it('picks the interface that serves every selected field, else the fallback', () => {
    expect(preferFor('Event', new Set(['title', 'virtual']), 'legacy')).toBe('core');
    expect(preferFor('Event', new Set(['title', 'website']), 'core')).toBe('legacy');
    expect(preferFor('Event', new Set(['virtual', 'website']), 'legacy')).toBe('legacy');
    expect(preferFor('Event', new Set(['title']), 'core')).toBe('core');
    expect(preferFor('Venue', new Set(['showMap']), 'core')).toBe('legacy');
  });
});
