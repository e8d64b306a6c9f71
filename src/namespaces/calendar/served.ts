/**
 * Which graph fields each calendar interface never serves, per kind: the
 * legacy objects have no `virtual` or `commentStatus`, calendar-core's have no
 * `website` or `showMap` (docs/real-sites.md, "Fields by interface"). A field
 * one copy lacks is read from the other interface's copy (resolvers/fields.ts)
 * only where that copy can have it; where neither can, it is null and costs no
 * request. A list is served by the interface that has every selected field,
 * when its filters allow (`preferFor`, and the interface choice of choose.ts).
 * Derived from the calendar's field table (mapping/calendar-models.ts): a field an interface has
 * no reader for there is one it never serves. test/mapping/served.test.ts holds
 * the sets to what the mappings produce from the sandbox's objects.
 */
import { neverServed } from '../../mapping/calendar-models.ts';
import type { Iface, PostType } from './vocabulary.ts';

/** The graph types whose fields the interfaces serve differently. */
export type CalendarKind = PostType;

const byKind = (i: Iface): Readonly<Record<CalendarKind, ReadonlySet<string>>> => ({
  Event: neverServed('Event', i),
  Venue: neverServed('Venue', i),
  Organizer: neverServed('Organizer', i),
});

export const NEVER_SERVED: Readonly<Record<Iface, Readonly<Record<CalendarKind, ReadonlySet<string>>>>> = {
  legacy: byKind('legacy'),
  core: byKind('core'),
};

/** Whether the `iface` copy of a `kind` can carry `field`. */
export function serves(iface: Iface, kind: CalendarKind, field: string): boolean {
  return !NEVER_SERVED[iface][kind].has(field);
}

/**
 * The interface a list of `kind` should come from for the `selected` fields:
 * the one that serves them all when only one does, else `fallback` (the
 * faster one, or the one its filters pin).
 */
export function preferFor(kind: CalendarKind, selected: ReadonlySet<string>, fallback: Iface): Iface {
  let legacy = true;
  let core = true;
  for (const f of selected) {
    if (!serves('legacy', kind, f)) legacy = false;
    if (!serves('core', kind, f)) core = false;
  }
  if (legacy !== core) return legacy ? 'legacy' : 'core';
  return fallback;
}
