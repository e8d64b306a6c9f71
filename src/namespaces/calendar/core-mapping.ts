/**
 * `calendar-core/v1` JSON -> graph models (docs/real-sites.md, "Fields by interface"):
 * WordPress posts-controller objects with `title.rendered`, dates without
 * offsets, embedded `venues`/`organizers`, term IDs only.
 */
import { secondsBetween, toUtc, withOffset } from '../../mapping/dates.ts';
import { bool, boolOpt, int, intList, idOf, num, obj, rendered, str, strOpt, type Json } from '../../mapping/json.ts';
import type { EventModel, OrganizerModel, SeriesModel, VenueModel } from '../../mapping/models.ts';
import { unescapeUrl } from '../../mapping/text.ts';

function postBase(o: Json) {
  const content = typeof o.content === 'object' && o.content !== null ? (o.content as Json) : {};
  return {
    title: rendered(o.title),
    description: rendered(o.content),
    excerpt: rendered(o.excerpt),
    slug: str(o.slug),
    status: str(o.status),
    url: str(o.link),
    authorId: int(o.author),
    publishedAt: withOffset(str(o.date), str(o.date_gmt)),
    publishedAtUtc: toUtc(str(o.date_gmt)),
    modifiedAt: withOffset(str(o.modified), str(o.modified_gmt)),
    modifiedAtUtc: toUtc(str(o.modified_gmt)),
    // Only the ID is here; the image itself comes from the legacy interface.
    featuredImage: int(o.featured_media) ? undefined : null,
    // Masked protected posts say `{rendered: "Password protected", protected: null}` (docs/graph.md, "How reads go
    // upstream").
    passwordProtected:
      'protected' in content
        ? (bool(content.protected) ?? (content.rendered === 'Password protected' ? true : null))
        : undefined,
  };
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

/** What TC leaves unmasked on a password-protected post (TC `REST/TEC/V1/Controller.php`). */
const UNMASKED_KEYS = new Set([
  'id',
  'date',
  'date_gmt',
  'guid',
  'modified',
  'modified_gmt',
  'slug',
  'status',
  'type',
  'link',
  'title',
  'author',
  'class_list',
]);

/**
 * A masked venue, organizer or series with its masked keys as null: "Password
 * protected" and 0 are not an address or coordinates (and null, unlike an
 * absent key, is never read from the other interface instead).
 */
function visible(o: Json): Json {
  return isMasked(o) ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, UNMASKED_KEYS.has(k) ? v : null])) : o;
}

/**
 * TEC's `multiday` is `false` or the number of days the event touches (its
 * Event model counts them), not a boolean: any count means "more than one day".
 */
function multiday(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  const n = num(v);
  return n === null ? null : n > 0;
}

const MASKED_EVENT_FIELDS = [
  'description',
  'excerpt',
  'featuredImage',
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
  'scheduleDetails',
  'jsonLd',
  'seriesId',
] as const;

export function coreEvent(body: unknown): EventModel {
  const o = obj(body, 'calendar-core event');
  if (isMasked(o)) {
    const base = postBase(o);
    // The site hides the rest until the password is given, and so does the graph:
    // masked fields read as null (never unmasked through the other interface).
    const hidden = Object.fromEntries(MASKED_EVENT_FIELDS.map((k) => [k, null]));
    return {
      kind: 'Event',
      source: 'core',
      databaseId: idOf(o, 'event'),
      title: base.title,
      slug: base.slug,
      status: base.status,
      url: base.url,
      authorId: base.authorId,
      publishedAt: base.publishedAt,
      publishedAtUtc: base.publishedAtUtc,
      modifiedAt: base.modifiedAt,
      modifiedAtUtc: base.modifiedAtUtc,
      passwordProtected: true,
      ...hidden,
      venues: [],
      organizers: [],
      categoryIds: [],
      tagIds: [],
      raw: body,
    };
  }
  const start = str(o.start_date);
  const end = str(o.end_date);
  const startUtc = str(o.start_date_utc);
  const endUtc = str(o.end_date_utc);
  const tz = str(o.timezone);
  return {
    kind: 'Event',
    source: 'core',
    databaseId: idOf(o, 'event'),
    ...postBase(o),
    startDate: withOffset(start, startUtc, tz),
    endDate: withOffset(end, endUtc, tz),
    startDateUtc: toUtc(startUtc),
    endDateUtc: toUtc(endUtc),
    timezone: tz || null,
    allDay: bool(o.all_day),
    // The real server sends the duration as a string ("28800").
    duration: int(o.duration) ?? secondsBetween(startUtc, endUtc),
    multiday: multiday(o.multiday),
    cost: str(o.cost),
    sticky: bool(o.sticky),
    featured: bool(o.featured),
    virtual: boolOpt(o, 'virtual'),
    ticketed: boolOpt(o, 'ticketed'),
    commentStatus: strOpt(o, 'comment_status'),
    pingStatus: strOpt(o, 'ping_status'),
    format: strOpt(o, 'format'),
    template: strOpt(o, 'template'),
    scheduleDetails: strOpt(o, 'schedule_details'),
    venues: (Array.isArray(o.venues) ? o.venues : [])
      .filter((v) => typeof v === 'object' && v !== null)
      .map((v) => coreVenue(v)),
    organizers: (Array.isArray(o.organizers) ? o.organizers : [])
      .filter((v) => typeof v === 'object' && v !== null)
      .map((v) => coreOrganizer(v)),
    categoryIds: intList(o.calendar_events_cat ?? o.tribe_events_cat),
    tagIds: intList(o.tags),
    seriesId: 'series' in o ? int(o.series) || null : undefined,
    raw: body,
  };
}

export function coreVenue(body: unknown): VenueModel {
  const o = visible(obj(body, 'calendar-core venue'));
  return {
    kind: 'Venue',
    source: 'core',
    databaseId: idOf(o, 'venue'),
    ...postBase(o),
    address: str(o.address),
    city: str(o.city),
    country: str(o.country),
    province: str(o.province),
    state: str(o.state),
    stateProvince: str(o.state_province),
    zip: str(o.zip),
    phone: str(o.phone),
    website: str(o.website),
    directionsLink: unescapeUrl(str(o.directions_link)),
    latitude: 'lat' in o ? num(o.lat) : undefined,
    longitude: 'lng' in o ? num(o.lng) : undefined,
    raw: body,
  };
}

export function coreOrganizer(body: unknown): OrganizerModel {
  const o = visible(obj(body, 'calendar-core organizer'));
  return {
    kind: 'Organizer',
    source: 'core',
    databaseId: idOf(o, 'organizer'),
    ...postBase(o),
    phone: str(o.phone),
    website: str(o.website),
    email: str(o.email),
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
