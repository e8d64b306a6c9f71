import { describe, expect, it } from 'vitest';
import { parseIndex } from '../../src/upstream/discovery.ts';
import { planEvents, planPlaces, planSeries, planTerms } from '../../src/mapping/where.ts';

const site = (namespaces: string[]) => parseIndex({ namespaces, timezone_string: 'America/New_York', routes: {} });
const both = site(['calendar/events/v1', 'calendar-core/v1']);
const legacy = site(['calendar/events/v1']);
const core = site(['calendar-core/v1']);

describe('planEvents', () => {
  it('prefers calendar-core and maps every shared filter', () => {
    const p = planEvents(both, { search: 'jazz', categoryIds: [3], venueIds: [9], featured: true, status: ['DRAFT', 'PENDING'], hasGeolocation: true });
    expect(p).toEqual({ iface: 'core', query: { search: 'jazz', categories: [3], venue: [9], featured: true, status: ['draft', 'pending'], has_geoloc: true } });
  });

  it('sends legacy-only filters to the legacy interface with an explicit window and status', () => {
    const p = planEvents(both, { categorySlugs: ['music'], strictDates: true });
    expect(p.iface).toBe('legacy');
    expect(p.query).toMatchObject({ categories: 'music', strict_dates: true, status: 'publish', start_date: '1970-01-01 00:00:00' });
    expect(planEvents(both, { ids: [1, 2] }).query).not.toHaveProperty('start_date');
  });

  it('refuses mixing the two kinds, and what the site lacks, naming the arguments', () => {
    expect(() => planEvents(both, { ids: [1], near: 'Paris' })).toThrow(/where\.ids .*cannot be combined with where\.near/);
    expect(() => planEvents(legacy, { virtual: true })).toThrow(/where\.virtual needs calendar-core\/v1/);
    expect(() => planEvents(core, { strictDates: false })).toThrow(/needs calendar\/events\/v1/);
    expect(() => planEvents(both, {}, { field: 'TITLE' }).query).not.toThrow();
    expect(() => planEvents(legacy, {}, { field: 'TITLE' })).toThrow(/orderBy needs calendar-core/);
  });

  it('converts DateTime filters to site-local times and refuses bad ones', () => {
    expect(planEvents(both, { startDate: '2026-01-01T00:00:00Z' }).query.start_date).toBe('2025-12-31 19:00:00');
    expect(() => planEvents(both, { startDate: 'soon' })).toThrow(/where\.startDate/);
  });
});

describe('planPlaces, planTerms, planSeries', () => {
  it('maps place filters and keeps venue-only ones off organizers', () => {
    expect(planPlaces(both, 'venues', { near: 'Paris', hasEvents: true })).toEqual({ iface: 'core', query: { near: 'Paris', has_events: true } });
    expect(() => planPlaces(both, 'organizers', { near: 'Paris' })).toThrow(/venues only/);
    expect(planPlaces(legacy, 'organizers', {}).query).toEqual({ status: 'publish' });
  });

  it('maps term filters to the legacy routes, and series to calendar-core', () => {
    expect(planTerms(both, 'categories', { ids: [1], hideEmpty: false, parent: 0 }, { field: 'NAME', direction: 'DESC' }).query).toEqual({ include: [1], hide_empty: false, parent: 0, orderby: 'name', order: 'desc' });
    expect(() => planTerms(core, 'tags', {})).toThrow(/does not offer/);
    expect(planSeries(both, { eventIds: [5], status: ['DRAFT'] }).query).toEqual({ event_post_id: [5], status: ['draft'] });
    expect(() => planSeries(legacy, {})).toThrow(/does not offer/);
  });
});
