/**
 * The pure half of full-state updates: what a legacy update must carry
 * (real-site-behaviour.md "Legacy update ... is not a partial update") and the
 * dates of an update that touches one of them.
 */
import { describe, expect, it } from 'vitest';
import { completeLegacyUpdate, isIssue, legacyEventState, storedDates, updatedDates } from '../../src/mapping/inputs.ts';

const legacyBody = {
  id: 83, url: 'https://example.org/event/x/', status: 'publish', title: 'Rock &#038; Roll', description: '<p>Body</p>',
  start_date: '2026-11-22 20:00:00', end_date: '2026-11-22 22:00:00', timezone: 'Asia/Tokyo', all_day: false,
  cost: '$10', website: 'https://example.org/event/x/', show_map: true, show_map_link: false, hide_from_listings: false,
  sticky: false, featured: true, image: { id: 7 }, categories: [{ id: 5 }], tags: [], venue: { id: 21 }, organizer: [{ id: 41 }, { id: 42 }],
};
const o = { siteZone: 'America/New_York', eventZone: 'Asia/Tokyo' };

describe('legacyEventState', () => {
  it('carries the calendar data, never the permalink as a website, nor the rendered title and description', () => {
    expect(legacyEventState(legacyBody, 'legacy')).toEqual({
      start_date: '2026-11-22 20:00:00', end_date: '2026-11-22 22:00:00', timezone: 'Asia/Tokyo', all_day: false, featured: true, sticky: false,
      cost: '$10', status: 'publish', show_map: true, show_map_link: false, hide_from_listings: false,
      venue: 21, organizer: [41, 42], categories: [5], tags: [], image: 7,
    });
    expect(legacyEventState({ ...legacyBody, website: 'https://other.example/' }, 'legacy').website).toBe('https://other.example/');
  });

  it('sends no venue when the event has several (the update takes one, and keeps them when omitted)', () => {
    expect(legacyEventState({ ...legacyBody, venue: [{ id: 1 }, { id: 2 }] }, 'legacy')).not.toHaveProperty('venue');
    expect(legacyEventState({ ...legacyBody, venue: [] }, 'legacy')).not.toHaveProperty('venue');
  });

  it('reads a calendar-core body: IDs of embedded objects, no legacy-only fields', () => {
    const s = legacyEventState({ start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00', timezone: 'UTC', featured: true, cost: '$5', venues: [{ id: 3 }], organizers: [{ id: 4 }], calendar_events_cat: [9], tags: [8], featured_media: 0, status: 'draft' }, 'core');
    expect(s).toEqual({ start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00', timezone: 'UTC', featured: true, cost: '$5', status: 'draft', venue: 3, organizer: [4], categories: [9], tags: [8] });
  });
});

describe('completeLegacyUpdate', () => {
  it('an end date alone goes with the stored start; everything else is kept', () => {
    const out = completeLegacyUpdate([legacyEventState(legacyBody, 'legacy')], { end_date: 'ignored' }, { endDate: '2026-11-22T23:00:00+09:00' }, storedDates(legacyBody), o);
    expect(out).toMatchObject({ start_date: '2026-11-22 20:00:00', end_date: '2026-11-22 23:00:00', timezone: 'Asia/Tokyo', featured: true, cost: '$10', organizer: [41, 42] });
  });

  it('refuses an end before the stored start', () => {
    const out = completeLegacyUpdate([legacyEventState(legacyBody, 'legacy')], {}, { endDate: '2026-11-22T19:00:00+09:00' }, storedDates(legacyBody), o);
    expect(isIssue(out) && out.path).toEqual(['endDate']);
  });

  it('website "" clears it (omitted, it is reset; "" itself is refused as a URL)', () => {
    const out = completeLegacyUpdate([{ website: 'https://a.example/' }], { website: '' }, { website: '' }, storedDates(legacyBody), o);
    expect(out).not.toHaveProperty('website');
  });
});

describe('updatedDates', () => {
  it('duration alone moves the end; a zone change keeps the wall-clock times', () => {
    expect(updatedDates({ duration: 1800 }, storedDates(legacyBody), 'Asia/Tokyo', o)).toEqual({ start: '2026-11-22 20:00:00', end: '2026-11-22 20:30:00', duration: 1800 });
    expect(updatedDates({ timezone: 'Europe/Paris' }, storedDates(legacyBody), 'Europe/Paris', o)).toEqual({ start: '2026-11-22 20:00:00', end: '2026-11-22 22:00:00', duration: 7200 });
  });

  it('refuses a duration that contradicts both dates', () => {
    const r = updatedDates({ startDate: '2031-01-01T10:00:00Z', endDate: '2031-01-01T11:00:00Z', duration: 60 }, { start: null, end: null, timezone: null }, 'UTC', o);
    expect(isIssue(r) && r.path).toEqual(['duration']);
  });
});
