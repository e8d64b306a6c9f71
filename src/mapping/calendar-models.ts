/**
 * The calendar's fields as one table: every field of Event, Venue and
 * Organizer, declared once with what each interface does with it. The rest of
 * the gateway derives its field knowledge from here:
 *
 * - the mappings (namespaces/calendar/legacy-mapping.ts, core-mapping.ts) read each field with its
 *   part's `read`, and the models' field types (mapping/models.ts) are the
 *   readers' result types;
 * - namespaces/calendar/served.ts's `NEVER_SERVED`: an interface whose part has no `read` never
 *   serves the field, and the resolvers (resolvers/events.ts, places.ts) read
 *   across interfaces the fields `crossRead` lists;
 * - the writes: payload keys and encodings (`write`, writes/inputs.ts), the
 *   state a legacy update must carry (`resets.legacy`), what calendar-core's
 *   PATCH resets (`resets.core`, writes/kinds.ts `coreResets`), how an answer shows a value
 *   (`show`, writes/verify.ts `viewOf`) and how two values compare (`compare`);
 * - the `where:` argument a field backs (`where`; test/mapping/calendar-models.test.ts holds it to where.ts).
 *
 * Keys are the plugins' (docs/real-sites.md "Fields by interface", docs/writes.md "Declared spellings"); `alt` lists
 * the other spellings a release uses (6.15.14's calendar-core writes and answers `tribe_events_cat` where the spec says
 * `calendar_events_cat`). To add a field: a row here, the field in the schema (schema/*.graphql, then
 * `npm run codegen`), and a test.
 *
 * A model module: mapping/models.ts takes the calendar models' field types from here, and codegen's mappers name
 * mapping/models.ts, so this module imports only mapping/'s readers (nothing generated, no namespace: the
 * calendar's folder, namespaces/calendar/, imports it).
 */
import { secondsBetween, toSiteLocal, toUtc, withOffset } from './dates.ts';
import { bool, int, isJson, num, rendered, str, type Json } from './json.ts';
import { unescapeUrl } from './text.ts';

/**
 * An interface of the calendar, spelled here once: mapping/models.ts names it `Source`, namespaces/calendar/
 * vocabulary.ts `Iface` (docs/real-sites.md).
 */
export type Side = 'legacy' | 'core';
const SIDES: readonly Side[] = ['legacy', 'core'];

// ---------------------------------------------------------------------------
// Value types the readers give

export interface ImageSizeModel {
  name: string;
  url: string | null;
  width: number | null;
  height: number | null;
  mimeType: string | null;
}

export interface ImageModel {
  databaseId: number | null;
  url: string | null;
  width: number | null;
  height: number | null;
  extension: string | null;
  filesize: number | null;
  sizes: ImageSizeModel[];
}

export interface CostDetailsModel {
  currencySymbol: string | null;
  currencyCode: string | null;
  currencyPosition: string | null;
  values: string[];
}

/** A field's value as the graph input gives it: text, a number, a flag, an instant (`…Z`), IDs (sorted). */
export type FieldValue = string | number | boolean | null | number[];

/** Zones a write's values are converted in: the site's (publication dates), the event's (its dates). */
export interface Zones {
  siteZone: string;
  eventZone?: string;
}

/** How two values of a field are compared when a write is verified (writes/verify.ts `sameValue`). */
export type Compare = 'exact' | 'text' | 'lower' | 'instant' | 'coordinate' | 'cost' | 'slug' | 'url';

/** One interface's part of a field. */
export interface Part {
  /** The key its objects carry the field under, read and written (absent: made from other keys only). */
  readonly key?: string;
  /** Other spellings of `key` a release uses: read when `key` is absent; written when the route declares them. */
  readonly alt?: readonly string[];
  /** The model's value (`v`: the key's value; `present`: whether the key is there). Absent: never served. */
  readonly read?: (v: unknown, o: Json, present: boolean) => unknown;
  /** Writable through this interface under `key`: as given (`true`) or encoded. Absent: not writable here. */
  readonly write?: true | ((v: unknown, z: Zones) => unknown);
  /** The key an answer shows the written value under, when not `key` (the UTC date beside a local one). */
  readonly shownAs?: string;
  /** The input's value as an answer shows it (verification); undefined: this answer does not show it. */
  readonly show?: (v: unknown, o: Json, present: boolean) => FieldValue | undefined;
}

/** Sends a stored value back (the state a legacy update must carry); undefined: nothing to send. */
export type Keep = (v: unknown, o: Json, present: boolean) => unknown;

export interface Field {
  readonly legacy?: Part;
  readonly core?: Part;
  /** How two values compare (default: equal as they are). */
  readonly compare?: Compare;
  /**
   * How the graph resolves it: `cross` (default), the model's value, read from the other interface's copy when this
   * one lacks it; `own`, a resolver of its own; `none`, no graph field of that name (the model's only).
   */
  readonly resolve?: 'cross' | 'own' | 'none';
  /** Graph fields served wherever this one is (`series` through `seriesId`). */
  readonly also?: readonly string[];
  /**
   * What an update that omits it does: `legacy`, the legacy event update resets it on every release, so the update is
   * sent the stored value (`Keep`); `core`, the release whose calendar-core PATCH resets it (writes/plan.ts sends the
   * stored value where calendar-core takes the field, else the verification finds it and the legacy route restores it).
   */
  readonly resets?: { readonly legacy?: Keep; readonly core?: string };
  /** A value an interface's update answers 200 to and does not store, and the release seen doing it. */
  readonly ignores?: { readonly core?: { readonly value: unknown; readonly release: string } };
  /**
   * Fields a write of it changes by design (an excerpt made from a new description), unless the write sets them too:
   * the verification does not hold them to their value before (writes/verify.ts `askedOf`).
   */
  readonly affects?: readonly string[];
  /** The `where:` argument it backs, and the list parameter each interface takes it as. */
  readonly where?: { readonly arg: string; readonly param: { readonly legacy?: string; readonly core?: string } };
}

// ---------------------------------------------------------------------------
// Readers

/** A reader that serves the key only when it is there (absent: not served by this object, undefined). */
const opt =
  <T>(f: (v: unknown) => T) =>
  (v: unknown, _o: Json, present: boolean): T | undefined =>
    present ? f(v) : undefined;
const strOrNull = (v: unknown) => str(v) || null;
const orFalse = (v: unknown) => bool(v) ?? false;

/** TEC's `multiday`: `false` or the number of days the event touches (any count means "more than one day"). */
function multiday(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  const n = num(v);
  return n === null ? null : n > 0;
}

/** Local date parts differ: the event spans more than one day. */
function localDaysDiffer(start: string | null, end: string | null): boolean | null {
  if (!start || !end) return null;
  return start.slice(0, 10) !== end.slice(0, 10);
}

export function legacyImage(v: unknown): ImageModel | null {
  if (!isJson(v)) return null;
  const sizes = isJson(v.sizes) ? Object.entries(v.sizes) : [];
  return {
    databaseId: int(v.id),
    url: str(v.url),
    width: int(v.width),
    height: int(v.height),
    extension: str(v.extension),
    filesize: int(v.filesize),
    sizes: sizes.map(([name, s]) => {
      const x = isJson(s) ? s : {};
      return { name, url: str(x.url), width: int(x.width), height: int(x.height), mimeType: str(x['mime-type']) };
    }),
  };
}

function costDetails(v: unknown): CostDetailsModel | null {
  if (!isJson(v)) return null;
  return {
    currencySymbol: str(v.currency_symbol),
    currencyCode: str(v.currency_code),
    currencyPosition: str(v.currency_position),
    values: Array.isArray(v.values) ? v.values.map((x) => str(x)).filter((x): x is string => x !== null) : [],
  };
}

/**
 * Masked protected posts say `{rendered: "Password protected", protected: null}` (docs/graph.md, "How reads go
 * upstream").
 */
function passwordProtected(v: unknown): boolean | null | undefined {
  if (!isJson(v) || !('protected' in v)) return undefined;
  return bool(v.protected) ?? (v.rendered === 'Password protected' ? true : null);
}

/** The legacy read shows the event's permalink as `website` when it has none (5.7.1 and 6.15.14): no website. */
const ownWebsite = (v: unknown, o: Json): string | null => {
  const w = str(v);
  return w && w !== str(o.url) ? w : null;
};

// Views (verification): the input's value as an answer shows it.

const idOfRef = (x: unknown): number | null => int(isJson(x) ? x.id : x);
/** IDs as a sorted set (an object or a list of objects or IDs). */
export const ids = (v: unknown): number[] => {
  const list = Array.isArray(v) ? v : isJson(v) ? [v] : [];
  return [...new Set(list.map(idOfRef).filter((x): x is number => x !== null && x > 0))].sort((a, b) => a - b);
};
export const textOrNull = (v: unknown): string | null => {
  const s = rendered(v);
  return s === null || s.trim() === '' ? null : s;
};
/** A `Y-m-d H:i:s` UTC value (or RFC 3339 without offset) as an instant `…Z`. */
export const instant = (utc: unknown): string | null => toUtc(str(utc));
const imageId = (v: unknown): number | null => {
  const n = idOfRef(v);
  return n && n > 0 ? n : null;
};
const urlOrNull = (v: unknown) => unescapeUrl(textOrNull(v));

type View = (v: unknown, o: Json) => FieldValue;
/** Shown when the key is there (absent: this answer does not show the field). */
const has =
  (f: View) =>
  (v: unknown, o: Json, present: boolean): FieldValue | undefined =>
    present ? f(v, o) : undefined;
/** Legacy venues and organizers drop empty values: an absent key is "none", still shown. */
const always =
  (f: View) =>
  (v: unknown, o: Json): FieldValue =>
    f(v, o);

// Writes: how a value is sent.

/** The statuses a write may set (spec "calendar-core/v1 event - fields": status). */
export const WRITE_STATUSES = ['publish', 'pending', 'draft', 'future', 'private'];
export const statusOut = (v: unknown) => String(v).toLowerCase().replace('_', '-');
const lower = (v: unknown) => String(v).toLowerCase();
const siteDate = (v: unknown, z: Zones) => toSiteLocal(String(v), z.siteZone);
export const eventDate = (v: unknown, z: Zones) => toSiteLocal(String(v), z.eventZone ?? z.siteZone);
/** Legacy venues type `show_map`/`show_map_link` as strings (spec "Legacy venue"); `tribe_is_truthy` reads them. */
const truthyString = (v: unknown) => (v ? '1' : '0');

// Keeps: the stored value as a legacy update is sent it.

const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true' || v === 'yes';
const flag: Keep = (v, _o, present) => (present ? truthy(v) : undefined);
const keepId = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
};
const keepIds = (v: unknown): number[] =>
  (Array.isArray(v) ? v : []).map((x) => keepId(isJson(x) ? x.id : x)).filter((x): x is number => x !== null);
const keptIds: Keep = (v, _o, present) => (present ? keepIds(v) : undefined);
/** `Y-m-d H:i:s` from either interface's local dates (`T` or a space). */
const sqlLocal: Keep = (v) => (typeof v === 'string' && v ? v.replace('T', ' ').slice(0, 19) : undefined);

// ---------------------------------------------------------------------------
// The post fields (all three kinds), then each kind's own

/** The keys TC leaves unmasked on a password-protected post (TC `REST/TEC/V1/Controller.php`). */
export const UNMASKED_KEYS = new Set([
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

/** calendar-core's post fields: the same for every kind (and for series). */
export const CORE_POST = {
  title: { key: 'title', read: rendered, write: true, show: has(textOrNull) },
  description: { key: 'content', read: rendered, write: true, show: has(textOrNull) },
  status: { key: 'status', read: str, write: statusOut, show: has(str) },
  authorId: { key: 'author', read: int, write: true, show: has(int) },
  publishedAt: {
    key: 'date',
    read: (v: unknown, o: Json) => withOffset(str(v), str(o.date_gmt)),
    write: siteDate,
    shownAs: 'date_gmt',
    show: has(instant),
  },
  // No view of the excerpt: `excerpt.rendered` is made from the content when the post has none.
  excerpt: { key: 'excerpt', read: rendered, write: true },
  slug: { key: 'slug', read: str, write: true, show: has(str) },
  url: { key: 'link', read: str },
  publishedAtUtc: { key: 'date_gmt', read: (v: unknown) => toUtc(str(v)) },
  modifiedAt: { key: 'modified', read: (v: unknown, o: Json) => withOffset(str(v), str(o.modified_gmt)) },
  modifiedAtUtc: { key: 'modified_gmt', read: (v: unknown) => toUtc(str(v)) },
  // Only the ID is here; the image itself comes from the legacy interface.
  featuredImage: { key: 'featured_media', read: (v: unknown) => (int(v) ? undefined : null) },
  passwordProtected: { key: 'content', read: passwordProtected },
} as const satisfies Record<string, Part>;

/**
 * The post fields of a kind. Legacy events carry every key; legacy venues and organizers drop empty values (an absent
 * key is "none") and take neither excerpt nor slug in writes.
 */
function post<T extends string>(titleKey: T, dropsEmpty: boolean) {
  const shown = dropsEmpty ? always : has;
  const legacyWrite = dropsEmpty ? undefined : true;
  return {
    title: {
      legacy: { key: titleKey, read: str, write: true, show: shown(textOrNull) },
      core: CORE_POST.title,
      compare: 'text',
    },
    description: {
      legacy: { key: 'description', read: str, write: true, show: shown(textOrNull) },
      core: CORE_POST.description,
      compare: 'text',
      affects: ['excerpt'],
    },
    status: {
      legacy: { key: 'status', read: str, write: statusOut, show: has(str) },
      core: CORE_POST.status,
      compare: 'lower',
      // The graph's status is an enum (resolvers/fields.ts `statusEnum`).
      resolve: 'own',
      // Publishing sets the publication date.
      affects: ['publishedAt'],
      resets: { legacy: (v: unknown) => (typeof v === 'string' && WRITE_STATUSES.includes(v) ? v : undefined) },
    },
    authorId: {
      legacy: { key: 'author', read: int, write: true, show: has(int) },
      core: CORE_POST.authorId,
    },
    publishedAt: {
      legacy: {
        key: 'date',
        read: (v: unknown, o: Json) => withOffset(str(v), str(o.date_utc)),
        write: siteDate,
        shownAs: 'date_utc',
        show: has(instant),
      },
      core: CORE_POST.publishedAt,
      compare: 'instant',
      // The legacy update moves the publication date to the time of the update when it is omitted (docs/writes.md
      // "Resets").
      resets: {
        legacy: (v: unknown) =>
          typeof v === 'string' && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}/.test(v)
            ? v.replace('T', ' ').slice(0, 19)
            : undefined,
      },
    },
    excerpt: {
      legacy: { key: 'excerpt', read: str, write: legacyWrite, show: shown(textOrNull) },
      core: CORE_POST.excerpt,
      compare: 'text',
    },
    slug: {
      legacy: { key: 'slug', read: str, write: legacyWrite, show: has(str) },
      core: CORE_POST.slug,
      compare: 'slug',
    },
    url: { legacy: { key: 'url', read: str }, core: CORE_POST.url },
    publishedAtUtc: {
      legacy: { key: 'date_utc', read: (v: unknown) => toUtc(str(v)) },
      core: CORE_POST.publishedAtUtc,
    },
    modifiedAt: {
      legacy: { key: 'modified', read: (v: unknown, o: Json) => withOffset(str(v), str(o.modified_utc)) },
      core: CORE_POST.modifiedAt,
    },
    modifiedAtUtc: {
      legacy: { key: 'modified_utc', read: (v: unknown) => toUtc(str(v)) },
      core: CORE_POST.modifiedAtUtc,
    },
    featuredImage: { legacy: { key: 'image', read: legacyImage }, core: CORE_POST.featuredImage },
  } as const satisfies Record<string, Field>;
}

/** The featured image as written: by ID through either interface, by URL through the legacy one (side-loaded). */
function image(dropsEmpty: boolean) {
  return {
    featuredImageId: {
      legacy: { key: 'image', write: true, show: (dropsEmpty ? always : has)(imageId) },
      core: { key: 'featured_media', write: true, show: has(imageId) },
      resets: { legacy: (v: unknown) => (isJson(v) ? keepId(v.id) : keepId(v)) ?? undefined },
    },
    // A side-loaded image gets an ID of its own.
    featuredImageUrl: { legacy: { key: 'image', write: true }, affects: ['featuredImageId'] },
  } as const satisfies Record<string, Field>;
}

/**
 * A text field of a venue or an organizer: written as given through both interfaces; legacy objects drop it when
 * empty (an absent key is "none").
 */
function placeText<L extends string, C extends string>(legacy: L, core: C, affects: readonly string[] = []) {
  return {
    legacy: { key: legacy, read: str, write: true, show: always(textOrNull) },
    core: { key: core, read: str, write: true, show: has(textOrNull) },
    compare: 'text',
    affects,
  } as const satisfies Field;
}

/** A new address may be geocoded again. */
const GEOCODED = ['latitude', 'longitude'];
/** The site keeps state, province and the field of both together. */
const REGION = ['state', 'province', 'stateProvince'];

/** A venue's or an organizer's website (`&#038;` in links made `&`). */
const placeWebsite = {
  legacy: { key: 'website', read: str, write: true, show: always(urlOrNull) },
  core: { key: 'website', read: str, write: true, show: has(urlOrNull) },
  compare: 'url',
} as const satisfies Field;

export const EVENT = {
  ...post('title', false),
  startDate: {
    legacy: {
      key: 'start_date',
      read: (v: unknown, o: Json) => withOffset(str(v), str(o.utc_start_date), str(o.timezone)),
      write: eventDate,
      shownAs: 'utc_start_date',
      show: has(instant),
    },
    core: {
      key: 'start_date',
      read: (v: unknown, o: Json) => withOffset(str(v), str(o.start_date_utc), str(o.timezone)),
      write: eventDate,
      shownAs: 'start_date_utc',
      show: has(instant),
    },
    compare: 'instant',
    resets: { legacy: sqlLocal },
  },
  endDate: {
    legacy: {
      key: 'end_date',
      read: (v: unknown, o: Json) => withOffset(str(v), str(o.utc_end_date), str(o.timezone)),
      write: eventDate,
      shownAs: 'utc_end_date',
      show: has(instant),
    },
    core: {
      key: 'end_date',
      read: (v: unknown, o: Json) => withOffset(str(v), str(o.end_date_utc), str(o.timezone)),
      write: eventDate,
      shownAs: 'end_date_utc',
      show: has(instant),
    },
    compare: 'instant',
    resets: { legacy: sqlLocal },
  },
  timezone: {
    legacy: { key: 'timezone', read: strOrNull, write: true, show: has(str) },
    core: { key: 'timezone', read: strOrNull, write: true, show: has(str) },
    resets: { legacy: (v: unknown) => (typeof v === 'string' && v ? v : undefined) },
  },
  allDay: {
    legacy: { key: 'all_day', read: bool, write: true, show: has(bool) },
    core: { key: 'all_day', read: bool, write: true, show: has(bool) },
    resets: { legacy: flag },
  },
  duration: {
    legacy: { read: (_v: unknown, o: Json) => secondsBetween(str(o.utc_start_date), str(o.utc_end_date)) },
    core: {
      key: 'duration',
      // The real server sends the duration as a string ("28800").
      read: (v: unknown, o: Json) => int(v) ?? secondsBetween(str(o.start_date_utc), str(o.end_date_utc)),
      write: true,
      show: has(int),
    },
  },
  cost: {
    legacy: { key: 'cost', read: str, write: true, show: has(str) },
    core: { key: 'cost', read: str, write: true, show: has(str) },
    compare: 'cost',
    // The formatted cost ("$10", "10 €"): the update parses the currency symbol and its side back out of it.
    resets: { legacy: (v: unknown) => (typeof v === 'string' ? v : undefined) },
  },
  website: {
    legacy: {
      key: 'website',
      read: ownWebsite,
      write: true,
      show: has((v, o) => unescapeUrl(ownWebsite(v, o))),
    },
    compare: 'url',
    // No website reads as the permalink, and an omitted website is reset to none: none needs no sending (the site
    // refuses "" as a URL).
    resets: { legacy: (v: unknown, o: Json) => ownWebsite(v, o) ?? undefined },
  },
  showMap: {
    legacy: { key: 'show_map', read: bool, write: true, show: has(bool) },
    // 6.15.14's calendar-core PATCH sets it to true (a legacy field it does not declare).
    resets: { legacy: flag, core: '6.15.14' },
  },
  showMapLink: {
    legacy: { key: 'show_map_link', read: bool, write: true, show: has(bool) },
    resets: { legacy: flag, core: '6.15.14' },
  },
  hideFromListings: {
    legacy: { key: 'hide_from_listings', read: bool, write: true, show: has(bool) },
    resets: { legacy: flag },
  },
  sticky: {
    legacy: { key: 'sticky', read: bool, write: true, show: has(bool) },
    core: { key: 'sticky', read: bool, write: true, show: has(bool) },
    // 6.15.14's calendar-core PATCH sets it to false.
    resets: { legacy: flag, core: '6.15.14' },
  },
  featured: {
    legacy: { key: 'featured', read: bool, write: true, show: has(bool) },
    core: { key: 'featured', read: bool, write: true, show: has(bool) },
    resets: { legacy: flag },
    ignores: { core: { value: false, release: '6.15.14' } },
    where: { arg: 'featured', param: { legacy: 'featured', core: 'featured' } },
  },
  virtual: {
    core: { key: 'virtual', read: opt(bool), write: true, show: has(bool) },
    where: { arg: 'virtual', param: { core: 'virtual' } },
  },
  commentStatus: {
    core: { key: 'comment_status', read: opt(str), write: lower, show: has(str) },
    compare: 'lower',
  },
  pingStatus: { core: { key: 'ping_status', read: opt(str), write: lower, show: has(str) }, compare: 'lower' },
  format: { core: { key: 'format', read: opt(str), write: lower, show: has(str) }, compare: 'lower' },
  template: { core: { key: 'template', read: opt(str), write: true, show: has(str) }, compare: 'text' },
  categoryIds: {
    legacy: { key: 'categories', write: true, show: has(ids) },
    core: { key: 'calendar_events_cat', alt: ['tribe_events_cat'], write: true, show: has(ids) },
    resets: { legacy: keptIds },
    where: { arg: 'categoryIds', param: { legacy: 'categories' } },
  },
  tagIds: {
    legacy: { key: 'tags', write: true, show: has(ids) },
    core: { key: 'tags', write: true, show: has(ids) },
    resets: { legacy: keptIds },
    where: { arg: 'tagIds', param: { legacy: 'tags' } },
  },
  // The legacy `venue` takes one entry (docs/writes.md "Resets").
  venueIds: {
    legacy: { key: 'venue', write: (v: unknown) => (Array.isArray(v) ? (v[0] ?? 0) : v), show: has(ids) },
    core: { key: 'venues', write: true, show: has(ids) },
    // The update takes one venue and keeps the venue when `venue` is omitted: sent only when it is the one.
    resets: {
      legacy: (v: unknown) => {
        const list = Array.isArray(v) ? keepIds(v) : isJson(v) ? keepIds([v]) : [];
        return list.length === 1 ? list[0] : undefined;
      },
    },
    where: { arg: 'venueIds', param: { legacy: 'venue', core: 'venue' } },
  },
  organizerIds: {
    legacy: { key: 'organizer', write: true, show: has(ids) },
    core: { key: 'organizers', write: true, show: has(ids) },
    resets: { legacy: keptIds },
    where: { arg: 'organizerIds', param: { legacy: 'organizer', core: 'organizer' } },
  },
  ...image(false),
  passwordProtected: { core: CORE_POST.passwordProtected },
  startDateUtc: {
    legacy: { key: 'utc_start_date', read: (v: unknown) => toUtc(str(v)) },
    core: { key: 'start_date_utc', read: (v: unknown) => toUtc(str(v)) },
  },
  endDateUtc: {
    legacy: { key: 'utc_end_date', read: (v: unknown) => toUtc(str(v)) },
    core: { key: 'end_date_utc', read: (v: unknown) => toUtc(str(v)) },
  },
  timezoneAbbr: { legacy: { key: 'timezone_abbr', read: strOrNull } },
  multiday: {
    legacy: { read: (_v: unknown, o: Json) => localDaysDiffer(str(o.start_date), str(o.end_date)) },
    core: { key: 'multiday', read: multiday },
  },
  costDetails: { legacy: { key: 'cost_details', read: costDetails } },
  ticketed: {
    core: { key: 'ticketed', read: opt(bool) },
    where: { arg: 'ticketed', param: { legacy: 'ticketed', core: 'ticketed' } },
  },
  scheduleDetails: { core: { key: 'schedule_details', read: opt(str) } },
  // Whether the event has ended, as the site computes it when it answers.
  isPast: { core: { key: 'is_past', read: opt(bool) } },
  // Single reads carry it, lists do not (resolvers/events.ts reads the single when a list's copy lacks it).
  jsonLd: { legacy: { key: 'json_ld', read: opt((v) => v) }, resolve: 'own' },
  seriesId: {
    core: { key: 'series', read: opt((v) => int(v) || null) },
    resolve: 'none',
    also: ['series'],
  },
} as const satisfies Record<string, Field>;

export const VENUE = {
  ...post('venue', true),
  address: placeText('address', 'address', GEOCODED),
  city: placeText('city', 'city', GEOCODED),
  country: placeText('country', 'country', GEOCODED),
  province: placeText('province', 'province', [...REGION, ...GEOCODED]),
  state: placeText('state', 'state', [...REGION, ...GEOCODED]),
  stateProvince: placeText('stateprovince', 'state_province', [...REGION, ...GEOCODED]),
  zip: placeText('zip', 'zip', GEOCODED),
  phone: placeText('phone', 'phone'),
  website: placeWebsite,
  showMap: { legacy: { key: 'show_map', read: orFalse, write: truthyString, show: always(orFalse) } },
  showMapLink: { legacy: { key: 'show_map_link', read: orFalse, write: truthyString, show: always(orFalse) } },
  latitude: {
    legacy: { key: 'geo_lat', read: num, show: always(num) },
    core: { key: 'lat', read: opt(num), write: true, show: has(num) },
    compare: 'coordinate',
  },
  longitude: {
    legacy: { key: 'geo_lng', read: num, show: always(num) },
    core: { key: 'lng', read: opt(num), write: true, show: has(num) },
    compare: 'coordinate',
  },
  ...image(true),
  tagIds: { core: { key: 'tags', write: true, show: has(ids) } },
  // The graph's Venue has no such field; the model has it (a masked venue's fields read null).
  passwordProtected: { core: CORE_POST.passwordProtected, resolve: 'none' },
  directionsLink: { core: { key: 'directions_link', read: (v: unknown) => unescapeUrl(str(v)) } },
} as const satisfies Record<string, Field>;

export const ORGANIZER = {
  ...post('organizer', true),
  phone: placeText('phone', 'phone'),
  website: placeWebsite,
  email: placeText('email', 'email'),
  ...image(true),
  tagIds: { core: { key: 'tags', write: true, show: has(ids) } },
  passwordProtected: { core: CORE_POST.passwordProtected, resolve: 'none' },
} as const satisfies Record<string, Field>;

/** The table: each kind's fields, by graph name (the type's field, and the input's where it is written). */
export const FIELDS = { Event: EVENT, Venue: VENUE, Organizer: ORGANIZER } as const;
export type FieldKind = keyof typeof FIELDS;

// ---------------------------------------------------------------------------
// Types derived from the table (the models' fields)

type ReadOf<P> = P extends { read: (...args: never[]) => infer T } ? T : never;
type ValueOf<F> =
  (F extends { legacy: infer L } ? ReadOf<L> : never) | (F extends { core: infer C } ? ReadOf<C> : never);
type Readable<F> = [ValueOf<F>] extends [never] ? false : true;

/** The model fields of a kind: every field an interface reads, typed as its readers give it. */
export type ValuesOf<R> = { -readonly [K in keyof R as Readable<R[K]> extends true ? K : never]?: ValueOf<R[K]> };
export type EventValues = ValuesOf<typeof EVENT>;
export type VenueValues = ValuesOf<typeof VENUE>;
export type OrganizerValues = ValuesOf<typeof ORGANIZER>;
export type PostValues = ValuesOf<{ [K in keyof typeof CORE_POST]: { core: (typeof CORE_POST)[K] } }>;

/** The fields of `kind` the graph reads across interfaces by name (resolvers/fields.ts `crossFields`). */
export type CrossRead<R> = {
  [K in keyof R]: Readable<R[K]> extends true ? (R[K] extends { resolve: 'own' | 'none' } ? never : K) : never;
}[keyof R] &
  string;

// ---------------------------------------------------------------------------
// What the rest of the gateway asks the table

const rows = (kind: FieldKind): [string, Field][] => Object.entries(FIELDS[kind]);

/** A kind's field, or undefined when the table has none of that name. */
export function fieldOf(kind: FieldKind, name: string): Field | undefined {
  return Object.hasOwn(FIELDS[kind], name) ? (FIELDS[kind] as Record<string, Field>)[name] : undefined;
}

/** A part's value in an object: its key, else the first other spelling there (`present`: whether a key is there). */
export function valueAt(part: Part, o: Json): { v: unknown; present: boolean } {
  const keys = [...(part.key ? [part.key] : []), ...(part.alt ?? [])];
  const k = keys.find((x) => o[x] !== undefined) ?? keys[0];
  return k === undefined ? { v: undefined, present: false } : { v: o[k], present: k in o };
}

/** The value `part` reads from `o`. */
export function readPart(part: Part & { read: NonNullable<Part['read']> }, o: Json): unknown {
  const { v, present } = valueAt(part, o);
  return part.read(v, o, present);
}

/** The fields `side` reads of a kind, with their parts (the mappings read these). */
export function readsOf(kind: FieldKind, side: Side): [string, Part & { read: NonNullable<Part['read']> }][] {
  const out: [string, Part & { read: NonNullable<Part['read']> }][] = [];
  for (const [name, f] of rows(kind)) {
    const p = f[side];
    if (p?.read) out.push([name, { ...p, read: p.read }]);
  }
  return out;
}

/** Every model field of `kind` that `side`'s objects read, from the object (calendar-core's mapping: eager). */
export function readAll(kind: FieldKind, side: Side, o: Json): Record<string, unknown> {
  return Object.fromEntries(readsOf(kind, side).map(([name, p]) => [name, readPart(p, o)]));
}

/** The model fields of `kind` (read by at one interface at least). */
export function modelFields(kind: FieldKind): string[] {
  return rows(kind)
    .filter(([, f]) => SIDES.some((s) => f[s]?.read))
    .map(([name]) => name);
}

/**
 * The graph fields of `kind` that `side` never serves (served.ts): those read through the other interface only, and
 * those they back (`also`).
 */
export function neverServed(kind: FieldKind, side: Side): Set<string> {
  const out = new Set<string>();
  for (const [name, f] of rows(kind)) {
    const somewhere = SIDES.some((s) => f[s]?.read);
    if (!somewhere || f[side]?.read) continue;
    out.add(name);
    for (const a of f.also ?? []) out.add(a);
  }
  return out;
}

/** The fields of `kind` the graph reads across interfaces by name (resolvers: `crossFields`). */
export function crossRead<K extends FieldKind>(kind: K): CrossRead<(typeof FIELDS)[K]>[] {
  const names = rows(kind)
    .filter(([, f]) => SIDES.some((s) => f[s]?.read) && (f.resolve ?? 'cross') === 'cross')
    .map(([name]) => name);
  return names.filter((n): n is CrossRead<(typeof FIELDS)[K]> => fieldOf(kind, n) !== undefined);
}

/** One writable field of a kind as writes/inputs.ts splits inputs: its keys per interface and its encodings. */
export interface WritableField {
  graph: string;
  core?: string;
  /** The other spelling of the core key (real sites declare `tribe_events_cat`). */
  coreAlt?: string;
  legacy?: string;
  /** The value as sent through `side` (as given when the part encodes nothing). */
  conv: (v: unknown, z: Zones, side: Side) => unknown;
}

/** The fields of `kind` an input sets, in the table's order. */
export function writable(kind: FieldKind): WritableField[] {
  const out: WritableField[] = [];
  for (const [graph, f] of rows(kind)) {
    const core = f.core?.write ? f.core : undefined;
    const legacy = f.legacy?.write ? f.legacy : undefined;
    if (!core && !legacy) continue;
    const w: WritableField = {
      graph,
      conv: (v, z, side) => {
        const enc = f[side]?.write;
        return typeof enc === 'function' ? enc(v, z) : v;
      },
    };
    if (core?.key) w.core = core.key;
    if (core?.alt?.[0]) w.coreAlt = core.alt[0];
    if (legacy?.key) w.legacy = legacy.key;
    out.push(w);
  }
  return out;
}

/**
 * The input fields, of any kind, whose model field has the same name and holds the value as the input gives it: a
 * read-back model is compared with an input on these (writes/reconcile.ts). Instants are not among them (models
 * carry them with the site's offset).
 */
export function sameOnModels(): string[] {
  const out = new Set<string>();
  for (const kind of Object.keys(FIELDS) as FieldKind[])
    for (const [name, f] of rows(kind))
      if (SIDES.some((s) => f[s]?.read) && SIDES.some((s) => f[s]?.write) && f.compare !== 'instant') out.add(name);
  return [...out];
}

/** The key the legacy interface writes `name` of `kind` under (null: not writable there). */
export function legacyKey(kind: FieldKind, name: string): string | null {
  const p = fieldOf(kind, name)?.legacy;
  return p?.write && p.key ? p.key : null;
}

/**
 * What a legacy update of a `kind` object must carry so that nothing the caller did not touch changes (the fields
 * whose `resets.legacy` says the update resets them when omitted), from the object as `from` shows it, under the keys
 * the legacy update takes. Only the fields that source serves are returned, so states from both can be layered.
 */
export function legacyState(kind: FieldKind, raw: Json, from: Side): Json {
  const out: Json = {};
  for (const [, f] of rows(kind)) {
    const keep = f.resets?.legacy;
    const part = f[from];
    const to = f.legacy?.write ? f.legacy.key : undefined;
    if (!keep || !part || !to) continue;
    const { v, present } = valueAt(part, raw);
    const value = keep(v, raw, present);
    if (value !== undefined) out[to] = value;
  }
  return out;
}

/**
 * The calendar-core keys a `kind` update resets when it omits them (6.15.14: an event's `sticky`), which it must be
 * sent from the stored state. The legacy state carries them under the same keys (checked when the table loads).
 */
export function coreResets(kind: FieldKind): string[] {
  return rows(kind)
    .filter(([, f]) => f.resets?.core && f.core?.write && f.core.key)
    .map(([, f]) => f.core!.key!);
}

/** How an answer of `side` about a `kind` object shows each input field (verification), by field. */
export function viewsOf(kind: FieldKind, side: Side): [string, (o: Json) => FieldValue | undefined][] {
  const out: [string, (o: Json) => FieldValue | undefined][] = [];
  for (const [name, f] of rows(kind)) {
    const p = f[side];
    const show = p?.show;
    if (!p || !show) continue;
    const at: Part = p.shownAs ? { key: p.shownAs } : p;
    out.push([
      name,
      (o) => {
        const { v, present } = valueAt(at, o);
        return show(v, o, present);
      },
    ]);
  }
  return out;
}

/** How two values of `field` compare, whichever kind has it (the kinds agree: checked when the table loads). */
export function compareOf(field: string): Compare {
  return COMPARE.get(field) ?? 'exact';
}

/** The fields of `kind` a write changes by design when it sets them, with what each changes. */
export function affectsOf(kind: FieldKind): [string, readonly string[]][] {
  return rows(kind).flatMap(([name, f]): [string, readonly string[]][] =>
    f.affects?.length ? [[name, f.affects]] : [],
  );
}

/** The `where:` arguments `kind`'s fields back, with the list parameter each interface takes. */
export function whereArgs(kind: FieldKind): NonNullable<Field['where']>[] {
  return rows(kind).flatMap(([, f]) => (f.where ? [f.where] : []));
}

const COMPARE = new Map<string, Compare>();
for (const kind of Object.keys(FIELDS) as FieldKind[]) {
  for (const [name, f] of rows(kind)) {
    const c = f.compare ?? 'exact';
    const seen = COMPARE.get(name);
    if (seen !== undefined && seen !== c)
      throw new TypeError(`calendar-models.ts: ${name} compares as ${seen} on one kind and ${c} on ${kind}`);
    COMPARE.set(name, c);
    if (f.resets?.core && f.core?.write && f.core.key !== f.legacy?.key)
      throw new TypeError(
        `calendar-models.ts: ${kind}.${name} is reset by calendar-core and kept under another legacy key`,
      );
  }
}
