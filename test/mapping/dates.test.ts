import { describe, expect, it } from 'vitest';
import { isValidDateTimeInput, secondsBetween, toSiteLocal, toUtc, withOffset } from '../../src/mapping/dates.ts';

describe('date mapping', () => {
  it('gives a wall-clock time the offset of its UTC twin', () => {
    expect(withOffset('2026-11-22 20:00:00', '2026-11-22 11:00:00')).toBe('2026-11-22T20:00:00+09:00');
    expect(withOffset('2026-07-01 08:30:00', '2026-07-01 12:30:00')).toBe('2026-07-01T08:30:00-04:00');
    expect(withOffset('2026-01-01 10:00:00', '2026-01-01 04:30:00')).toBe('2026-01-01T10:00:00+05:30');
    expect(withOffset('2026-01-01T10:00:00', '2026-01-01T10:00:00')).toBe('2026-01-01T10:00:00Z');
  });

  it('falls back to the zone when there is no UTC twin, and to null for garbage', () => {
    expect(withOffset('2026-07-01 08:30:00', null, 'Europe/Paris')).toBe('2026-07-01T08:30:00+02:00');
    expect(withOffset('2026-07-01 08:30:00', null, 'UTC+2')).toBe('2026-07-01T08:30:00+02:00');
    expect(withOffset(null, null)).toBeNull();
    expect(toUtc('not a date')).toBeNull();
  });

  it('turns DateTime inputs into site-local times, across daylight saving', () => {
    expect(toSiteLocal('2026-03-31T00:00:00-04:00', 'America/New_York')).toBe('2026-03-31 00:00:00');
    expect(toSiteLocal('2026-01-01T00:00:00Z', 'America/New_York')).toBe('2025-12-31 19:00:00');
    expect(toSiteLocal('2026-06-01', 'Europe/Paris')).toBe('2026-06-01 00:00:00');
    expect(toSiteLocal('next tuesday', 'UTC')).toBeNull();
  });

  it('validates DateTime inputs and measures durations', () => {
    expect(isValidDateTimeInput('2026-11-22T20:00:00+09:00')).toBe(true);
    expect(isValidDateTimeInput('2026-02-30T20:00:00Z')).toBe(false);
    expect(isValidDateTimeInput('tomorrow')).toBe(false);
    expect(secondsBetween('2026-01-01 10:00:00', '2026-01-01 12:30:00')).toBe(9000);
  });
});
