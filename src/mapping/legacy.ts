/**
 * `calendar/events/v1` (legacy) JSON -> graph models (reference/calendar-upstream.md
 * §1.3–1.5, samples/legacy-*.json). Legacy venue and organizer objects drop
 * empty values, so an absent key there means "empty" (null), not "not served".
 */
import { secondsBetween, toUtc, withOffset } from './dates.ts';
import { bool, int, idOf, num, obj, str, type Json } from './json.ts';
import type { CostDetailsModel, EventModel, ImageModel, OrganizerModel, TermModel, VenueModel } from './models.ts';

export function legacyImage(v: unknown): ImageModel | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Json;
  const sizes = typeof o.sizes === 'object' && o.sizes !== null ? Object.entries(o.sizes as Json) : [];
  return {
    databaseId: int(o.id),
    url: str(o.url),
    width: int(o.width),
    height: int(o.height),
    extension: str(o.extension),
    filesize: int(o.filesize),
    sizes: sizes.map(([name, s]) => {
      const x = (typeof s === 'object' && s !== null ? s : {}) as Json;
      return { name, url: str(x.url), width: int(x.width), height: int(x.height), mimeType: str(x['mime-type']) };
    }),
  };
}

function costDetails(v: unknown): CostDetailsModel | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Json;
  return {
    currencySymbol: str(o.currency_symbol),
    currencyCode: str(o.currency_code),
    currencyPosition: str(o.currency_position),
    values: Array.isArray(o.values) ? o.values.map((x) => str(x)).filter((x): x is string => x !== null) : [],
  };
}

/** Local date parts differ: the event spans more than one day. */
function isMultiday(start: string | null, end: string | null): boolean | null {
  if (!start || !end) return null;
  return start.slice(0, 10) !== end.slice(0, 10);
}

function postBase(o: Json) {
  return {
    title: str(o.title),
    description: str(o.description),
    excerpt: str(o.excerpt),
    slug: str(o.slug),
    status: str(o.status),
    url: str(o.url),
    authorId: int(o.author),
    publishedAt: withOffset(str(o.date), str(o.date_utc)),
    publishedAtUtc: toUtc(str(o.date_utc)),
    modifiedAt: withOffset(str(o.modified), str(o.modified_utc)),
    modifiedAtUtc: toUtc(str(o.modified_utc)),
  };
}

export function legacyEvent(body: unknown): EventModel {
  const o = obj(body, 'legacy event');
  const id = idOf(o, 'event');
  const start = str(o.start_date);
  const end = str(o.end_date);
  const venueRaw = o.venue;
  // `venue` is [] for none, an object for one, an array for several (calendar-upstream.md §1.3).
  const venues = Array.isArray(venueRaw) ? venueRaw : venueRaw && typeof venueRaw === 'object' ? [venueRaw] : [];
  const base = postBase(o);
  return {
    kind: 'Event',
    source: 'legacy',
    databaseId: id,
    ...base,
    title: str(o.title),
    startDate: withOffset(start, str(o.utc_start_date), str(o.timezone)),
    endDate: withOffset(end, str(o.utc_end_date), str(o.timezone)),
    startDateUtc: toUtc(str(o.utc_start_date)),
    endDateUtc: toUtc(str(o.utc_end_date)),
    timezone: str(o.timezone) || null,
    timezoneAbbr: str(o.timezone_abbr) || null,
    allDay: bool(o.all_day),
    duration: secondsBetween(str(o.utc_start_date), str(o.utc_end_date)),
    multiday: isMultiday(start, end),
    cost: str(o.cost),
    costDetails: costDetails(o.cost_details),
    website: str(o.website),
    showMap: bool(o.show_map),
    showMapLink: bool(o.show_map_link),
    hideFromListings: bool(o.hide_from_listings),
    sticky: bool(o.sticky),
    featured: bool(o.featured),
    featuredImage: legacyImage(o.image),
    jsonLd: 'json_ld' in o ? o.json_ld : undefined,
    venues: venues.map((v) => legacyVenue(v)),
    organizers: (Array.isArray(o.organizer) ? o.organizer : []).map((x) => legacyOrganizer(x)),
    categories: (Array.isArray(o.categories) ? o.categories : []).map((t) => legacyTerm(t, 'Category')),
    tags: (Array.isArray(o.tags) ? o.tags : []).map((t) => legacyTerm(t, 'Tag')),
    raw: body,
  };
}

export function legacyVenue(body: unknown): VenueModel {
  const o = obj(body, 'legacy venue');
  return {
    kind: 'Venue',
    source: 'legacy',
    databaseId: idOf(o, 'venue'),
    ...postBase(o),
    title: str(o.venue),
    address: str(o.address),
    city: str(o.city),
    country: str(o.country),
    province: str(o.province),
    state: str(o.state),
    stateProvince: str(o.stateprovince),
    zip: str(o.zip),
    phone: str(o.phone),
    website: str(o.website),
    showMap: bool(o.show_map) ?? false,
    showMapLink: bool(o.show_map_link) ?? false,
    latitude: num(o.geo_lat),
    longitude: num(o.geo_lng),
    featuredImage: legacyImage(o.image),
    raw: body,
  };
}

export function legacyOrganizer(body: unknown): OrganizerModel {
  const o = obj(body, 'legacy organizer');
  return {
    kind: 'Organizer',
    source: 'legacy',
    databaseId: idOf(o, 'organizer'),
    ...postBase(o),
    title: str(o.organizer),
    phone: str(o.phone),
    website: str(o.website),
    email: str(o.email),
    featuredImage: legacyImage(o.image),
    raw: body,
  };
}

/** Embedded (event) and archive term forms alike (§1.5). */
export function legacyTerm(body: unknown, kind: 'Category' | 'Tag'): TermModel {
  const o = obj(body, `legacy ${kind.toLowerCase()}`);
  return {
    kind,
    databaseId: idOf(o, kind.toLowerCase()),
    name: str(o.name),
    slug: str(o.slug),
    description: str(o.description),
    count: int(o.count),
    // Embedded terms carry only REST `urls`; the permalink comes from the archive form.
    url: 'url' in o ? str(o.url) : undefined,
    parentId: int(o.parent) || null,
    raw: body,
  };
}
