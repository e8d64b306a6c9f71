/**
 * The calendar's one interface choice (src/namespaces/calendar/choose.ts),
 * as the list plans, chooseApi, the loaders and the cross-interface fields
 * call it: pins, what the site offers, declared arguments, fields served,
 * preference, in that order.
 */
import { describe, expect, it } from 'vitest';
import { chooseInterface, chosenOr } from '../../../src/namespaces/calendar/choose.ts';
import { NAMESPACE, PLUGIN_NAMESPACE, PREFIX, other } from '../../../src/namespaces/calendar/vocabulary.ts';

const BOTH = { hasLegacy: true, hasCore: true };
const LEGACY = { hasLegacy: true, hasCore: false };
const CORE = { hasLegacy: false, hasCore: true };
const NONE = { hasLegacy: false, hasCore: false };

describe('vocabulary', () => {
  it("names each interface once: spec namespace, prefix, the plugin's name", () => {
    expect(NAMESPACE).toEqual({ legacy: 'calendar/events/v1', core: 'calendar-core/v1' });
    expect(PREFIX).toEqual({ legacy: '/calendar/events/v1', core: '/calendar-core/v1' });
    expect(PLUGIN_NAMESPACE).toEqual({ legacy: 'tribe/events/v1', core: 'tec/v1' });
    expect(other('legacy')).toBe('core');
    expect(other('core')).toBe('legacy');
  });
});

describe('chooseInterface', () => {
  it('prefers as asked when both can serve, else the one the site offers', () => {
    expect(chooseInterface(BOTH, { prefer: 'legacy' })).toEqual({ iface: 'legacy', servesFields: true });
    expect(chooseInterface(BOTH, { prefer: 'core' })).toEqual({ iface: 'core', servesFields: true });
    expect(chooseInterface(LEGACY, { prefer: 'core' })).toMatchObject({ iface: 'legacy' });
    expect(chooseInterface(CORE, { prefer: 'legacy' })).toMatchObject({ iface: 'core' });
    expect(chooseInterface(NONE, { prefer: 'legacy' })).toEqual({ refused: 'neither' });
    expect(chosenOr(chooseInterface(NONE, { prefer: 'legacy' }), 'core')).toBe('core');
  });

  it('pins: one side pins, both sides conflict, a pin to what the site lacks is refused', () => {
    expect(chooseInterface(BOTH, { only: { core: ['where.near'] }, prefer: 'legacy' })).toMatchObject({
      iface: 'core',
    });
    expect(chooseInterface(BOTH, { only: { legacy: ['a'], core: ['b'] }, prefer: 'legacy' })).toEqual({
      refused: 'conflict',
      legacy: ['a'],
      core: ['b'],
    });
    expect(chooseInterface(LEGACY, { only: { core: ['where.near'] }, prefer: 'legacy' })).toEqual({
      refused: 'absent',
      needs: 'core',
      args: ['where.near'],
    });
  });

  it("declared arguments rule an interface out; none left is refused with each route's parameters", () => {
    const undeclared = (i: 'legacy' | 'core') => (i === 'legacy' ? ['strict_dates'] : []);
    expect(chooseInterface(BOTH, { undeclared, prefer: 'legacy' })).toMatchObject({ iface: 'core' });
    expect(chooseInterface(LEGACY, { undeclared, prefer: 'legacy' })).toEqual({
      refused: 'undeclared',
      routes: [{ iface: 'legacy', params: ['strict_dates'] }],
    });
  });

  it('fields served: the interface that serves them all, before the preference, never against the filters', () => {
    expect(chooseInterface(BOTH, { type: 'Event', fields: ['virtual'], prefer: 'legacy' })).toEqual({
      iface: 'core',
      servesFields: true,
    });
    expect(chooseInterface(BOTH, { type: 'Event', fields: ['virtual', 'website'], prefer: 'legacy' })).toEqual({
      iface: 'legacy',
      servesFields: false,
    });
    expect(
      chooseInterface(BOTH, { type: 'Event', fields: ['virtual'], only: { legacy: ['where.tagIds'] }, prefer: 'core' }),
    ).toEqual({ iface: 'legacy', servesFields: false });
  });

  it('a cross-interface field: the other copy, when the site offers it and it can have the field', () => {
    const copy = (fields: string[], site = BOTH) =>
      chooseInterface(site, { type: 'Event', fields, only: { core: ['the core copy'] }, prefer: 'core' });
    expect(copy(['virtual'])).toEqual({ iface: 'core', servesFields: true });
    expect(copy(['website'])).toEqual({ iface: 'core', servesFields: false });
    expect(copy(['virtual'], LEGACY)).toMatchObject({ refused: 'absent' });
  });
});
