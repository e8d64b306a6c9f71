/**
 * The calendar's field table (src/mapping/calendar-models.ts) and what is derived from it: the schema's
 * Event/Venue/Organizer fields and inputs are the table's, the never-served sets are those docs/real-sites.md
 * ("Fields by interface") gives, the write keys, the legacy update's state, calendar-core's resets, and the `where:`
 * arguments the table says a field backs are the parameters where.ts sends.
 */
import { isInputObjectType, isObjectType, type GraphQLSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  coreResets,
  crossRead,
  fieldOf,
  legacyKey,
  legacyState,
  modelFields,
  sameOnModels,
  whereArgs,
  writable,
  type FieldKind,
} from '../../src/mapping/calendar-models.ts';
import { NEVER_SERVED } from '../../src/namespaces/calendar/served.ts';
import { planEvents } from '../../src/namespaces/calendar/where.ts';
import { buildSchema } from '../../src/schema.ts';
import { parseIndex } from '../../src/upstream/discovery.ts';
import { eventPayloads, venuePayloads } from '../../src/writes/inputs.ts';
import type { EventsWhere } from '../../src/generated/graphql.ts';

const KINDS: FieldKind[] = ['Event', 'Venue', 'Organizer'];

/** Graph fields that are not fields of the table: IDs, relations, lists and the raw object, with resolvers of their own. */
const NOT_FIELDS: Record<FieldKind, string[]> = {
  Event: ['id', 'databaseId', 'venues', 'organizers', 'categories', 'tags', 'raw'],
  Venue: ['id', 'databaseId', 'events', 'raw'],
  Organizer: ['id', 'databaseId', 'events', 'raw'],
};
/** Input fields that are not fields of the table: inline objects written through the legacy interface. */
const NOT_INPUTS: Record<FieldKind, string[]> = { Event: ['venue', 'organizers'], Venue: [], Organizer: [] };

let schema: GraphQLSchema;
beforeAll(() => {
  schema = buildSchema();
});

const graphFields = (type: string): string[] => {
  const t = schema.getType(type);
  if (!isObjectType(t)) throw new Error(`${type} is not an object type`);
  return Object.keys(t.getFields()).sort();
};
const inputFields = (type: string): string[] => {
  const t = schema.getType(type);
  if (!isInputObjectType(t)) throw new Error(`${type} is not an input type`);
  return Object.keys(t.getFields()).sort();
};

describe('the table and the schema', () => {
  it.each(KINDS)(
    '%s: every graph field is a field of the table (or a relation), and every table field is served',
    (kind) => {
      const table = modelFields(kind).flatMap((name) => {
        const f = fieldOf(kind, name)!;
        return [...(f.resolve === 'none' ? [] : [name]), ...(f.also ?? [])];
      });
      expect(graphFields(kind)).toEqual([...table, ...NOT_FIELDS[kind]].sort());
    },
  );

  it.each(KINDS)('%sInput: every input field is one the table writes', (kind) => {
    expect(inputFields(`${kind}Input`)).toEqual([...writable(kind).map((w) => w.graph), ...NOT_INPUTS[kind]].sort());
  });

  it('the resolvers read across interfaces every model field but those with resolvers of their own', () => {
    expect(crossRead('Event')).not.toContain('status');
    expect(crossRead('Event')).not.toContain('jsonLd');
    expect(crossRead('Event')).not.toContain('seriesId');
    expect(crossRead('Event')).toContain('showMapLink');
    expect(crossRead('Venue')).toEqual(expect.arrayContaining(['showMapLink', 'latitude', 'directionsLink']));
    expect(crossRead('Venue')).not.toContain('passwordProtected');
  });
});

describe('NEVER_SERVED, derived', () => {
  it('holds every field docs/real-sites.md "Fields by interface" gives (a field added since may join them)', () => {
    const has = (set: ReadonlySet<string>, names: string[]) => expect([...set]).toEqual(expect.arrayContaining(names));
    has(NEVER_SERVED.legacy.Event, [
      'virtual',
      'ticketed',
      'commentStatus',
      'pingStatus',
      'format',
      'template',
      'passwordProtected',
      'scheduleDetails',
      'seriesId',
      'series',
    ]);
    has(NEVER_SERVED.legacy.Venue, ['directionsLink', 'passwordProtected']);
    has(NEVER_SERVED.legacy.Organizer, ['passwordProtected']);
    has(NEVER_SERVED.core.Event, [
      'website',
      'showMap',
      'showMapLink',
      'hideFromListings',
      'costDetails',
      'timezoneAbbr',
      'jsonLd',
    ]);
    has(NEVER_SERVED.core.Venue, ['showMap', 'showMapLink']);
    // Nothing served by both is in either set.
    for (const kind of KINDS)
      for (const name of ['title', 'description', 'website', 'phone'])
        if (fieldOf(kind, name)?.legacy?.read && fieldOf(kind, name)?.core?.read)
          expect(NEVER_SERVED.legacy[kind].has(name) || NEVER_SERVED.core[kind].has(name), `${kind}.${name}`).toBe(
            false,
          );
  });

  it('follows the table: a field without a reader on one side is never served there', () => {
    for (const kind of KINDS)
      for (const name of modelFields(kind)) {
        const f = fieldOf(kind, name)!;
        expect(NEVER_SERVED.legacy[kind].has(name), `legacy ${kind}.${name}`).toBe(!f.legacy?.read);
        expect(NEVER_SERVED.core[kind].has(name), `core ${kind}.${name}`).toBe(!f.core?.read);
      }
  });
});

describe('writes, derived', () => {
  const zones = { siteZone: 'UTC' };

  it('sends each field under its key in each interface, encoded as the table says', () => {
    expect(legacyKey('Event', 'showMapLink')).toBe('show_map_link');
    expect(legacyKey('Event', 'virtual')).toBeNull();
    expect(eventPayloads({ showMapLink: true, virtual: true }, 'core', zones)).toEqual({
      primary: { virtual: true },
      secondary: { show_map_link: true },
    });
    // Legacy venues take the flags as strings.
    expect(venuePayloads({ showMapLink: false, latitude: 1 }, 'legacy', zones)).toEqual({
      primary: { show_map_link: '0' },
      secondary: { lat: 1 },
    });
  });

  it('the legacy update state: what it resets, from either interface, under the legacy keys', () => {
    const legacy = { show_map_link: '1', show_map: false, sticky: 0, featured: 'yes', website: 'https://x.org' };
    expect(legacyState('Event', legacy, 'legacy')).toEqual({
      show_map_link: true,
      show_map: false,
      sticky: false,
      featured: true,
      website: 'https://x.org',
    });
    // calendar-core shows no legacy-only field: none is sent from it.
    expect(legacyState('Event', { show_map_link: true, sticky: true, tribe_events_cat: [3] }, 'core')).toEqual({
      sticky: true,
      categories: [3],
    });
  });

  it("calendar-core's resets are those it can be sent (6.15.14 resets sticky; showMap it does not take)", () => {
    expect(coreResets('Event')).toEqual(['sticky']);
    expect(coreResets('Venue')).toEqual([]);
    expect(fieldOf('Event', 'showMapLink')?.resets?.core).toBe('6.15.14');
  });

  it('reconciliation compares models on the fields whose model value is the input value', () => {
    expect(sameOnModels()).toEqual(expect.arrayContaining(['showMapLink', 'address', 'email', 'title']));
    expect(sameOnModels()).not.toContain('startDate');
    expect(sameOnModels()).not.toContain('venueIds');
  });
});

describe('where: arguments the table says a field backs', () => {
  const site = (namespaces: string[]) => parseIndex({ namespaces, timezone_string: 'UTC', routes: {} });
  const both = site(['calendar/events/v1', 'calendar-core/v1']);
  const values: Record<string, unknown> = { featured: true, virtual: true, ticketed: true, venueIds: [9] };

  it.each(whereArgs('Event').filter((w) => w.arg in values))('where.$arg', (w) => {
    for (const iface of ['legacy', 'core'] as const) {
      const param = w.param[iface];
      if (!param) continue;
      const plan = planEvents(both, { [w.arg]: values[w.arg] } as EventsWhere, null, iface);
      expect(plan.iface).toBe(iface);
      expect(plan.query[param], `${iface} ${param}`).toBeDefined();
    }
  });

  it('names the arguments of the fields that back one', () => {
    expect(whereArgs('Event').map((w) => w.arg)).toEqual(
      expect.arrayContaining(['featured', 'virtual', 'ticketed', 'categoryIds', 'tagIds', 'venueIds', 'organizerIds']),
    );
  });
});
