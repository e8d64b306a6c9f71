/**
 * Graph write inputs -> the payloads each calendar interface accepts, and the
 * checks run before anything is sent. Pure: no I/O, no context.
 *
 * One unified input (graph names) is split by interface (spec "Legacy event
 * ... fields accepted on create and update", "calendar-core/v1 event -
 * fields"; docs/writes.md "Declared spellings"): the fields the chosen (primary)
 * interface accepts go in its payload; fields only the other one accepts go
 * in a secondary payload, sent as an update of the same object right after.
 */
import { DateTime } from 'luxon';
import type { CategoryInput, EventInput, OrganizerInput, TagInput, VenueInput } from '../generated/graphql.ts';
import { isValidDateTimeInput, luxonZone } from '../mapping/dates.ts';
import {
  eventDate,
  legacyState,
  statusOut,
  writable,
  WRITE_STATUSES,
  type WritableField,
  type Zones,
} from '../mapping/calendar-models.ts';
import { NAMESPACE, other, type Iface, type PostKind, type WriteKind } from '../namespaces/calendar/vocabulary.ts';

export { WRITE_STATUSES };

export type Json = Record<string, unknown>;

/** One problem with one field, `path` relative to the input object. */
export interface FieldIssue {
  path: string[];
  message: string;
}

export interface SplitPayloads {
  /** What the primary interface is sent. */
  primary: Json;
  /** Fields only the other interface accepts (null when none). */
  secondary: Json | null;
  /**
   * Graph fields given that neither route declares (`declared`): never sent
   * (WordPress would drop them without a word); the write must refuse them.
   */
  undeclared?: string[];
}

/**
 * The argument names the routes of one write declare in the site's root
 * index, per interface: the primary route's, and the follow-up route's of the
 * other interface. `null` or absent: not described (every spelling of the spec
 * is taken as declared); an empty set: the site has no such route.
 */
export interface Declared {
  core?: ReadonlySet<string> | null;
  legacy?: ReadonlySet<string> | null;
}

/**
 * Context of the conversion: zones for dates (the site's for publication dates; the event's, for its dates: the
 * input's `timezone`, else the event's, else the site's); the routes' declared arguments.
 */
export interface ConvertOptions extends Zones {
  /** What the target routes declare (docs/writes.md "Declared spellings"); absent: the spec's names. */
  declared?: Declared;
}

/**
 * A field an input sets: its keys per interface and its encoding, from the calendar's field table
 * (mapping/calendar-models.ts); terms are not in the table, and are declared below.
 */
type FieldDef = Pick<WritableField, 'graph' | 'core' | 'coreAlt' | 'legacy'> & {
  conv?: (v: unknown, o: ConvertOptions, api: Iface) => unknown;
};

/** Limits on sizes (WordPress stores titles as text, but nobody's title is longer). */
export const MAX_TITLE = 1_000;
export const MAX_TEXT = 65_535;
export const MAX_HTML = 1_000_000;
export const MAX_IDS = 100;
export const MAX_INLINE_ORGANIZERS = 20;

export const EVENT_FIELDS: FieldDef[] = writable('Event');
export const VENUE_FIELDS: FieldDef[] = writable('Venue');
export const ORGANIZER_FIELDS: FieldDef[] = writable('Organizer');

export const CATEGORY_FIELDS: FieldDef[] = [
  { graph: 'name', legacy: 'name' },
  { graph: 'description', legacy: 'description' },
  { graph: 'slug', legacy: 'slug' },
  { graph: 'parentId', legacy: 'parent' },
];

export const TAG_FIELDS: FieldDef[] = CATEGORY_FIELDS.filter((f) => f.graph !== 'parentId');

const given = (v: unknown) => v !== undefined && v !== null;

/**
 * The name a field is sent under through `api`: the spec's, or its other
 * spelling, whichever the route declares; null when the route declares
 * neither (or the interface has no such field).
 */
export function spelling(
  d: Pick<FieldDef, 'core' | 'coreAlt' | 'legacy'>,
  api: Iface,
  declared?: Declared,
): string | null {
  const names = (api === 'core' ? [d.core, d.coreAlt] : [d.legacy]).filter((n): n is string => Boolean(n));
  if (!names.length) return null;
  const set = declared?.[api];
  if (!set) return names[0]!;
  return names.find((n) => set.has(n)) ?? null;
}

/**
 * Each given field goes to the primary interface under the name its route
 * declares; a field that route does not declare goes to the other interface's
 * follow-up when that route declares it; a field neither declares is listed
 * in `undeclared` and sent nowhere.
 */
function split(defs: FieldDef[], input: object, api: Iface, o: ConvertOptions): SplitPayloads {
  const primary: Json = {};
  const secondary: Json = {};
  const undeclared: string[] = [];
  const src = input as Record<string, unknown>;
  for (const d of defs) {
    const v = src[d.graph];
    if (!given(v)) continue;
    const mine = spelling(d, api, o.declared);
    const theirs = mine === null ? spelling(d, other(api), o.declared) : null;
    if (mine !== null) primary[mine] = d.conv ? d.conv(v, o, api) : v;
    else if (theirs !== null) secondary[theirs] = d.conv ? d.conv(v, o, other(api)) : v;
    else if (d[api] || d[other(api)]) undeclared.push(d.graph);
  }
  const out: SplitPayloads = { primary, secondary: Object.keys(secondary).length ? secondary : null };
  if (undeclared.length) out.undeclared = undeclared;
  return out;
}

/** An inline venue as legacy `venue` data (a data object without `id` creates one). */
export function legacyVenueData(v: VenueInput, o: ConvertOptions): Json {
  // Nested data, not the event route's arguments: its own names.
  return split(VENUE_FIELDS, v, 'legacy', { ...o, declared: undefined }).primary;
}

export function legacyOrganizerData(v: OrganizerInput, o: ConvertOptions): Json {
  return split(ORGANIZER_FIELDS, v, 'legacy', { ...o, declared: undefined }).primary;
}

/**
 * An event input -> the primary interface's payload, plus the other's for
 * fields only it accepts. Inline venue and organizers are legacy data
 * (docs/writes.md); when they go to a legacy follow-up, the
 * organizer IDs go with them so the list is set once.
 */
export function eventPayloads(input: EventInput, api: Iface, o: ConvertOptions): SplitPayloads {
  const { venue, organizers, ...plain } = input;
  const out = split(EVENT_FIELDS, plain, api, o);
  const legacy: Json = api === 'legacy' ? out.primary : { ...(out.secondary ?? {}) };
  if (given(venue)) legacy.venue = legacyVenueData(venue!, o);
  if (given(organizers) && organizers!.length) {
    legacy.organizer = [...(input.organizerIds ?? []), ...organizers!.map((x) => legacyOrganizerData(x, o))];
    if (api === 'core') delete out.primary.organizers;
  }
  if (api === 'core') return { ...out, secondary: Object.keys(legacy).length ? legacy : null };
  return out;
}

export function venuePayloads(input: VenueInput, api: Iface, o: ConvertOptions): SplitPayloads {
  return split(VENUE_FIELDS, input, api, o);
}

export function organizerPayloads(input: OrganizerInput, api: Iface, o: ConvertOptions): SplitPayloads {
  return split(ORGANIZER_FIELDS, input, api, o);
}

export function termPayload(input: CategoryInput | TagInput, kind: 'categories' | 'tags'): Json {
  return split(kind === 'categories' ? CATEGORY_FIELDS : TAG_FIELDS, input, 'legacy', { siteZone: 'UTC' }).primary;
}

/**
 * The name `field` of a `kind` input is sent under through `api` (its route's declared spelling); null when that route
 * takes no such field.
 */
export function restName(kind: PostKind, field: string, api: Iface, declared?: Declared): string | null {
  const d = { events: EVENT_FIELDS, venues: VENUE_FIELDS, organizers: ORGANIZER_FIELDS }[kind].find(
    (x) => x.graph === field,
  );
  return d ? spelling(d, api, declared) : null;
}

/**
 * An upstream parameter name -> the graph field it came from, for error
 * paths (`data.params` of a `rest_invalid_param`). Unknown names pass through.
 */
export function graphField(kind: WriteKind, api: Iface, param: string, input?: object): string {
  const defs = {
    events: EVENT_FIELDS,
    venues: VENUE_FIELDS,
    organizers: ORGANIZER_FIELDS,
    categories: CATEGORY_FIELDS,
    tags: TAG_FIELDS,
  }[kind];
  const src = (input ?? {}) as Record<string, unknown>;
  if (kind === 'events' && api === 'legacy') {
    if (param === 'venue' && given(src.venue)) return 'venue';
    if (param === 'organizer' && given(src.organizers)) return 'organizers';
    if (param === 'image' && given(src.featuredImageUrl)) return 'featuredImageUrl';
  }
  const hits = defs.filter((d) => d[api] === param || (api === 'core' && d.coreAlt === param));
  return (hits.find((d) => given(src[d.graph])) ?? hits[0])?.graph ?? param;
}

// ---------------------------------------------------------------------------
// Validation

/** What the site offers, as validation needs it. */
export interface SiteFacts {
  hasCore: boolean;
  hasLegacy: boolean;
}

export interface ValidateOptions {
  create: boolean;
  /** The interface the write goes through first. */
  api: Iface;
  site: SiteFacts;
}

class Issues {
  readonly list: FieldIssue[] = [];
  add(path: string[], message: string): void {
    this.list.push({ path, message });
  }
}

function checkText(out: Issues, src: Record<string, unknown>, name: string, max: number, prefix: string[] = []): void {
  const v = src[name];
  if (given(v) && String(v).length > max) out.add([...prefix, name], `${name} is longer than ${max} characters.`);
}

function checkRequired(out: Issues, src: Record<string, unknown>, names: string[], prefix: string[] = []): void {
  for (const n of names) {
    const v = src[n];
    if (!given(v) || (typeof v === 'string' && v.trim() === '')) out.add([...prefix, n], `${n} is required to create.`);
  }
}

function checkIds(out: Issues, src: Record<string, unknown>, name: string, prefix: string[] = []): void {
  const v = src[name];
  if (!given(v)) return;
  if (Array.isArray(v)) {
    if (v.length > MAX_IDS) out.add([...prefix, name], `${name} has more than ${MAX_IDS} IDs.`);
    if (v.some((x) => !Number.isInteger(x) || x <= 0)) out.add([...prefix, name], `${name} must list positive IDs.`);
    else if (new Set(v).size !== v.length) out.add([...prefix, name], `${name} lists an ID twice.`);
  } else if (!Number.isInteger(v) || (v as number) < 0) out.add([...prefix, name], `${name} must be a positive ID.`);
}

const URL_RE = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

function checkUrl(out: Issues, src: Record<string, unknown>, name: string, prefix: string[] = []): void {
  const v = src[name];
  if (given(v) && v !== '' && !URL_RE.test(String(v)))
    out.add([...prefix, name], `${name} must be an absolute http(s) URL.`);
}

function checkStatus(out: Issues, src: Record<string, unknown>, prefix: string[] = []): void {
  if (given(src.status) && !WRITE_STATUSES.includes(statusOut(src.status))) {
    out.add(
      [...prefix, 'status'],
      `status must be one of PUBLISH, PENDING, DRAFT, FUTURE, PRIVATE (to trash, use a delete mutation); got ${String(src.status)}.`,
    );
  }
}

function checkDate(out: Issues, src: Record<string, unknown>, name: string, prefix: string[] = []): void {
  const v = src[name];
  if (given(v) && !isValidDateTimeInput(String(v)))
    out.add(
      [...prefix, name],
      `${name} must be an RFC 3339 date-time, e.g. 2026-11-22T20:00:00+09:00; got ${JSON.stringify(v)}.`,
    );
}

/** Fields the chosen interface lacks go to the other one; if the site lacks that too, say so. */
function checkReachable(
  out: Issues,
  defs: FieldDef[],
  src: Record<string, unknown>,
  o: ValidateOptions,
  prefix: string[] = [],
): void {
  const has = { core: o.site.hasCore, legacy: o.site.hasLegacy };
  for (const d of defs) {
    if (!given(src[d.graph]) || d[o.api]) continue;
    const alt = other(o.api);
    if (!d[alt] || !has[alt]) {
      out.add([...prefix, d.graph], `${d.graph} needs ${NAMESPACE[alt]}, which this site does not offer.`);
    }
  }
}

function checkPost(out: Issues, src: Record<string, unknown>, prefix: string[] = []): void {
  checkText(out, src, 'title', MAX_TITLE, prefix);
  checkText(out, src, 'description', MAX_HTML, prefix);
  checkText(out, src, 'excerpt', MAX_TEXT, prefix);
  checkText(out, src, 'slug', 200, prefix);
  checkStatus(out, src, prefix);
  checkDate(out, src, 'publishedAt', prefix);
  checkIds(out, src, 'authorId', prefix);
  checkIds(out, src, 'featuredImageId', prefix);
  checkIds(out, src, 'tagIds', prefix);
  checkUrl(out, src, 'featuredImageUrl', prefix);
  if (given(src.featuredImageId) && given(src.featuredImageUrl))
    out.add([...prefix, 'featuredImageUrl'], 'give featuredImageId or featuredImageUrl, not both.');
}

function venueIssues(out: Issues, v: VenueInput, create: boolean, prefix: string[] = []): void {
  const src = v as Record<string, unknown>;
  if (create) checkRequired(out, src, ['title'], prefix);
  checkPost(out, src, prefix);
  for (const n of ['address', 'city', 'country', 'province', 'state', 'stateProvince', 'zip', 'phone'])
    checkText(out, src, n, MAX_TEXT, prefix);
  checkUrl(out, src, 'website', prefix);
  if (given(v.latitude) && (v.latitude! < -90 || v.latitude! > 90))
    out.add([...prefix, 'latitude'], 'latitude must be between -90 and 90.');
  if (given(v.longitude) && (v.longitude! < -180 || v.longitude! > 180))
    out.add([...prefix, 'longitude'], 'longitude must be between -180 and 180.');
}

function organizerIssues(out: Issues, v: OrganizerInput, create: boolean, prefix: string[] = []): void {
  const src = v as Record<string, unknown>;
  if (create) checkRequired(out, src, ['title'], prefix);
  checkPost(out, src, prefix);
  checkText(out, src, 'phone', MAX_TEXT, prefix);
  checkUrl(out, src, 'website', prefix);
  if (given(v.email) && v.email !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email!))
    out.add([...prefix, 'email'], 'email must be an e-mail address.');
}

/** Inline venues and organizers are legacy data: core-only fields cannot ride along. */
function inlineLegacyOnly(out: Issues, defs: FieldDef[], src: Record<string, unknown>, prefix: string[]): void {
  for (const d of defs)
    if (given(src[d.graph]) && !d.legacy)
      out.add(
        [...prefix, d.graph],
        `${d.graph} cannot be set on an inline ${prefix[0] === 'venue' ? 'venue' : 'organizer'}; create it with its own mutation.`,
      );
}

export function validateEvent(input: EventInput, o: ValidateOptions): FieldIssue[] {
  const out = new Issues();
  const src = input as Record<string, unknown>;
  if (o.create) checkRequired(out, src, ['title', 'startDate', 'endDate']);
  checkPost(out, src);
  checkText(out, src, 'cost', 255);
  checkText(out, src, 'template', 255);
  checkDate(out, src, 'startDate');
  checkDate(out, src, 'endDate');
  if (given(input.timezone) && !luxonZone(input.timezone))
    out.add(
      ['timezone'],
      `timezone must be an IANA time zone name (e.g. Europe/Paris); got ${JSON.stringify(input.timezone)}.`,
    );
  if (
    given(input.startDate) &&
    given(input.endDate) &&
    isValidDateTimeInput(input.startDate!) &&
    isValidDateTimeInput(input.endDate!)
  ) {
    const zone = luxonZone(input.timezone) ?? 'utc';
    const at = (s: string) => DateTime.fromISO(s.trim().replace(' ', 'T'), { zone, setZone: true }).toMillis();
    if (at(input.endDate!) < at(input.startDate!)) out.add(['endDate'], 'endDate must not be before startDate.');
  }
  if (given(input.duration) && input.duration! < 0) out.add(['duration'], 'duration must be 0 or more seconds.');
  checkUrl(out, src, 'website');
  for (const n of ['categoryIds', 'venueIds', 'organizerIds']) checkIds(out, src, n);
  const legacyGetsVenues = o.api === 'legacy';
  if (legacyGetsVenues && (input.venueIds?.length ?? 0) > 1)
    out.add(['venueIds'], 'the legacy interface links one venue per event.');
  if (given(input.venue)) {
    if (given(input.venueIds)) out.add(['venue'], 'give venue (a new venue) or venueIds, not both.');
    venueIssues(out, input.venue!, true, ['venue']);
    inlineLegacyOnly(out, VENUE_FIELDS, input.venue as Record<string, unknown>, ['venue']);
  }
  if (given(input.organizers)) {
    if (input.organizers!.length > MAX_INLINE_ORGANIZERS)
      out.add(['organizers'], `at most ${MAX_INLINE_ORGANIZERS} new organizers per event.`);
    input.organizers!.forEach((x, i) => {
      organizerIssues(out, x, true, ['organizers', String(i)]);
      inlineLegacyOnly(out, ORGANIZER_FIELDS, x as Record<string, unknown>, ['organizers', String(i)]);
    });
  }
  if ((given(input.venue) || (input.organizers?.length ?? 0) > 0) && !o.site.hasLegacy) {
    out.add(
      [given(input.venue) ? 'venue' : 'organizers'],
      `inline venues and organizers need ${NAMESPACE.legacy}, which this site does not offer.`,
    );
  }
  checkReachable(out, EVENT_FIELDS, src, o);
  return out.list;
}

export function validateVenue(input: VenueInput, o: ValidateOptions): FieldIssue[] {
  const out = new Issues();
  venueIssues(out, input, o.create);
  checkReachable(out, VENUE_FIELDS, input as Record<string, unknown>, o);
  return out.list;
}

export function validateOrganizer(input: OrganizerInput, o: ValidateOptions): FieldIssue[] {
  const out = new Issues();
  organizerIssues(out, input, o.create);
  checkReachable(out, ORGANIZER_FIELDS, input as Record<string, unknown>, o);
  return out.list;
}

export function validateTerm(input: CategoryInput | TagInput, create: boolean): FieldIssue[] {
  const out = new Issues();
  const src = input as Record<string, unknown>;
  if (create) checkRequired(out, src, ['name']);
  checkText(out, src, 'name', 200);
  checkText(out, src, 'slug', 200);
  checkText(out, src, 'description', MAX_TEXT);
  if (given(src.parentId) && (!Number.isInteger(src.parentId) || (src.parentId as number) < 0))
    out.add(['parentId'], 'parentId must be a category ID (0 for top level).');
  return out.list;
}

// ---------------------------------------------------------------------------
// Updates that must carry the event's stored state

/** The input's references to existing objects, by kind (what must exist before the write is sent). */
export type RefKind = 'venue' | 'organizer' | 'category' | 'tag';
export const REF_FIELDS: { field: 'venueIds' | 'organizerIds' | 'categoryIds' | 'tagIds'; kind: RefKind }[] = [
  { field: 'venueIds', kind: 'venue' },
  { field: 'organizerIds', kind: 'organizer' },
  { field: 'categoryIds', kind: 'category' },
  { field: 'tagIds', kind: 'tag' },
];

/** `{field: ids}` for the reference fields an event input gives. */
export function eventReferences(input: EventInput): { field: string; kind: RefKind; ids: number[] }[] {
  const out: { field: string; kind: RefKind; ids: number[] }[] = [];
  for (const { field, kind } of REF_FIELDS) {
    const ids = input[field];
    if (Array.isArray(ids) && ids.length)
      out.push({ field, kind, ids: ids.filter((x) => Number.isInteger(x) && x > 0) });
  }
  return out;
}

const rec = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/**
 * What a legacy update must carry so that nothing the caller did not touch
 * changes: the legacy `POST /events/<id>` rebuilds the event's calendar data
 * from the request and resets what it omits (docs/writes.md "Resets":
 * timezone, featured, cost, organizer, website, the display flags reset; an
 * end date without its start date ignored).
 *
 * `raw` is the event as the legacy single GET (`from: 'legacy'`) or a
 * calendar-core answer (`from: 'core'`) shows it; only the fields that source
 * serves are returned, so states from both can be layered. Which fields, and
 * how each is sent back, is the field table's (mapping/calendar-models.ts,
 * `resets.legacy`).
 *
 * `date`, the publication date (site-local, as the route takes it), is part
 * of the state: the legacy update moves it to the time of the update when it
 * is omitted, on 5.7.1 and 6.15.14 alike (docs/writes.md "Resets").
 *
 * Left out on purpose: `title`, `description`, `excerpt` (post fields the
 * update keeps — same table: "title, description, dates kept" — and the GET
 * shows them rendered: HTML entities, `the_content` filters, expanded
 * shortcodes; writing that back would alter them), and `slug`, `author`
 * (post fields, kept likewise).
 */
export function legacyEventState(raw: unknown, from: Iface): Json {
  return legacyState('Event', rec(raw) ?? {}, from);
}

/** The stored zone and local dates of an event body (either interface: same names). */
export interface StoredDates {
  start: string | null;
  end: string | null;
  timezone: string | null;
}

export function storedDates(raw: unknown): StoredDates {
  const o = rec(raw) ?? {};
  const s = (v: unknown) => (typeof v === 'string' && v ? v.replace('T', ' ').slice(0, 19) : null);
  return {
    start: s(o.start_date),
    end: s(o.end_date),
    timezone: typeof o.timezone === 'string' && o.timezone ? o.timezone : null,
  };
}

const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

function localMs(local: string, zone: string): number {
  return DateTime.fromFormat(local, SQL_FORMAT, { zone: luxonZone(zone) ?? 'utc' }).toMillis();
}

function addSeconds(local: string, seconds: number, zone: string): string {
  return DateTime.fromFormat(local, SQL_FORMAT, { zone: luxonZone(zone) ?? 'utc' })
    .plus({ seconds })
    .toFormat(SQL_FORMAT);
}

/**
 * Both dates of an update, local to the event's final zone: the caller's
 * where given, else the stored ones; `duration` without `endDate` moves the
 * end. Returns an issue when the result ends before it starts.
 */
export function updatedDates(
  input: EventInput,
  stored: StoredDates,
  zone: string,
  o: ConvertOptions,
): { start: string; end: string; duration: number } | FieldIssue | null {
  const start = given(input.startDate) ? eventDate(input.startDate, { ...o, eventZone: zone }) : stored.start;
  let end = given(input.endDate) ? eventDate(input.endDate, { ...o, eventZone: zone }) : stored.end;
  if (!start || !end) return null;
  if (given(input.duration) && !given(input.endDate)) end = addSeconds(start as string, input.duration!, zone);
  const seconds = Math.round((localMs(end as string, zone) - localMs(start as string, zone)) / 1000);
  if (seconds < 0) {
    const field = given(input.endDate) ? 'endDate' : 'startDate';
    return {
      path: [field],
      message: `endDate must not be before startDate (the event's stored ${field === 'endDate' ? 'start' : 'end'} is ${field === 'endDate' ? start : end}, ${zone}).`,
    };
  }
  if (given(input.duration) && given(input.endDate) && input.duration !== seconds) {
    return {
      path: ['duration'],
      message: `duration (${input.duration} s) does not match startDate..endDate (${seconds} s); give one or the other.`,
    };
  }
  return { start: start as string, end: end as string, duration: seconds };
}

export const isIssue = (x: unknown): x is FieldIssue =>
  Boolean(x && typeof x === 'object' && 'path' in x && 'message' in x);

/**
 * A legacy update's complete payload: the stored state (layers, later wins),
 * then the caller's fields, with both dates always together (an end date
 * alone is ignored by the site). New inline organizers are added to the
 * stored ones unless the caller lists `organizerIds`.
 */
export function completeLegacyUpdate(
  layers: Json[],
  payload: Json,
  input: EventInput,
  stored: StoredDates,
  o: ConvertOptions,
): Json | FieldIssue {
  const state: Json = Object.assign({}, ...layers);
  const out: Json = { ...state, ...payload };
  const zone =
    (given(input.timezone) ? input.timezone! : ((state.timezone as string | undefined) ?? stored.timezone)) ??
    o.siteZone;
  const base: StoredDates = {
    start: (state.start_date as string | undefined) ?? stored.start,
    end: (state.end_date as string | undefined) ?? stored.end,
    timezone: zone,
  };
  const dates = updatedDates(input, base, zone, o);
  if (isIssue(dates)) return dates;
  if (dates) {
    out.start_date = dates.start;
    out.end_date = dates.end;
  }
  if (given(input.organizers) && input.organizers!.length && !given(input.organizerIds)) {
    out.organizer = [
      ...((state.organizer as unknown[] | undefined) ?? []),
      ...((payload.organizer as unknown[] | undefined) ?? []),
    ];
  }
  // `website: ""` clears it: the site refuses "" as a URL, and an omitted website is reset to none.
  if (out.website === '') delete out.website;
  return out;
}

/**
 * A calendar-core update that touches a date: both dates and the matching
 * `duration` (a PATCH/PUT with only `end_date` leaves `duration` stale:
 * docs/writes.md "Verification").
 */
export function completeCoreDates(
  payload: Json,
  input: EventInput,
  stored: StoredDates,
  o: ConvertOptions,
): FieldIssue | null {
  const zone = (given(input.timezone) ? input.timezone! : stored.timezone) ?? o.siteZone;
  const dates = updatedDates(input, { ...stored, timezone: zone }, zone, o);
  if (isIssue(dates)) return dates;
  if (!dates) return null;
  payload.start_date = dates.start;
  payload.end_date = dates.end;
  payload.duration = dates.duration;
  return null;
}

/**
 * Whether a core update of this input touches the event's dates (and so sends
 * them complete). A new `timezone` alone counts: both interfaces then get the
 * stored wall-clock times with it, so a zone change means the same thing
 * whichever interface writes it.
 */
export function touchesDates(input: EventInput): boolean {
  return given(input.startDate) || given(input.endDate) || given(input.duration) || given(input.timezone);
}
