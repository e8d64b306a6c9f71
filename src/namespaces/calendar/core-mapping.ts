/**
 * `calendar-core/v1` JSON -> graph models (docs/real-sites.md, "Fields by interface"):
 * WordPress posts-controller objects with `title.rendered`, dates without
 * offsets, embedded `venues`/`organizers`, term IDs only.
 */
import { int, intList, idOf, obj, type Json } from '../../mapping/json.ts';
import type { EventModel, OrganizerModel, SeriesModel, VenueModel } from '../../mapping/models.ts';
import {
  CORE_POST,
  readAll,
  readPart,
  readsOf,
  UNMASKED_KEYS,
  type PostValues,
} from '../../mapping/calendar-models.ts';

/** The post fields (`CORE_POST` of the field table), for series: not a kind of the table, the same post fields. */
function postBase(o: Json): PostValues {
  return Object.fromEntries(Object.entries(CORE_POST).map(([name, p]) => [name, readPart(p, o)]));
}

/**
 * A password-protected post as calendar-core/v1 sends it: every field but the
 * post basics becomes "Password protected", 0 or null, and `content.protected`
 * is null (docs/graph.md, "How reads go upstream"). Those values are not data.
 */
function isMasked(o: Json): boolean {
  const c = o.content;
  return (
    typeof c === 'object' &&
    c !== null &&
    (c as Json).protected === null &&
    (c as Json).rendered === 'Password protected'
  );
}

/**
 * A masked venue, organizer or series with its masked keys as null: "Password
 * protected" and 0 are not an address or coordinates (and null, unlike an
 * absent key, is never read from the other interface instead).
 */
function visible(o: Json): Json {
  return isMasked(o) ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, UNMASKED_KEYS.has(k) ? v : null])) : o;
}

/**
 * The fields a masked event shows (the field table's `UNMASKED_KEYS`); the rest read null, never unmasked through
 * the other interface.
 */
const SHOWN_WHEN_MASKED = new Set(
  readsOf('Event', 'core')
    .filter(([, p]) => p.key !== undefined && UNMASKED_KEYS.has(p.key))
    .map(([name]) => name),
);
const MASKED_EVENT_FIELDS = readsOf('Event', 'legacy')
  .concat(readsOf('Event', 'core'))
  .map(([name]) => name)
  .filter((name) => !SHOWN_WHEN_MASKED.has(name) && name !== 'passwordProtected');

export function coreEvent(body: unknown): EventModel {
  const o = obj(body, 'calendar-core event');
  if (isMasked(o)) {
    const shown = Object.fromEntries(
      readsOf('Event', 'core')
        .filter(([name]) => SHOWN_WHEN_MASKED.has(name))
        .map(([name, p]) => [name, readPart(p, o)]),
    );
    // The site hides the rest until the password is given, and so does the graph:
    // masked fields read as null (never unmasked through the other interface).
    const hidden = Object.fromEntries(MASKED_EVENT_FIELDS.map((k) => [k, null]));
    return {
      kind: 'Event',
      source: 'core',
      databaseId: idOf(o, 'event'),
      ...shown,
      passwordProtected: true,
      ...hidden,
      venues: [],
      organizers: [],
      categoryIds: [],
      tagIds: [],
      raw: body,
    };
  }
  return {
    kind: 'Event',
    source: 'core',
    databaseId: idOf(o, 'event'),
    ...readAll('Event', 'core', o),
    venues: (Array.isArray(o.venues) ? o.venues : [])
      .filter((v) => typeof v === 'object' && v !== null)
      .map((v) => coreVenue(v)),
    organizers: (Array.isArray(o.organizers) ? o.organizers : [])
      .filter((v) => typeof v === 'object' && v !== null)
      .map((v) => coreOrganizer(v)),
    categoryIds: intList(o.calendar_events_cat ?? o.tribe_events_cat),
    tagIds: intList(o.tags),
    raw: body,
  };
}

export function coreVenue(body: unknown): VenueModel {
  const o = visible(obj(body, 'calendar-core venue'));
  return { kind: 'Venue', source: 'core', databaseId: idOf(o, 'venue'), ...readAll('Venue', 'core', o), raw: body };
}

export function coreOrganizer(body: unknown): OrganizerModel {
  const o = visible(obj(body, 'calendar-core organizer'));
  return {
    kind: 'Organizer',
    source: 'core',
    databaseId: idOf(o, 'organizer'),
    ...readAll('Organizer', 'core', o),
    raw: body,
  };
}

export function coreSeries(body: unknown): SeriesModel {
  const o = visible(obj(body, 'calendar-core series'));
  return {
    kind: 'Series',
    source: 'core',
    databaseId: idOf(o, 'series'),
    ...postBase(o),
    eventIds: intList(o.events),
    raw: body,
  };
}
