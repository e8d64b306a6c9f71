/**
 * Verifying a write against what the site kept (docs/writes.md "Verification").
 * Pure: no I/O.
 *
 * A site's answer (or a read after the write) is turned into a `View`: for
 * each graph input field that answer shows, its value as the graph input would
 * give it. A write is then compared with two things:
 *
 * - every field the caller set must hold the value asked, normalised the way
 *   the site stores it (dates as instants, lists as sets, text without tags,
 *   entities and typographic quotes, trimmed; costs by their amounts; slugs as
 *   WordPress sanitizes them);
 * - for an update, every field the caller did not set (and that the fields set
 *   do not change by design: `affected`) must keep the value it had before.
 *
 * Only fields both sides show are compared; `unseen` says which fields the
 * answer did not show, so the engine can read them back.
 */
import { DateTime } from 'luxon';
import type { EventInput } from '../generated/graphql.ts';
import { luxonZone } from '../mapping/dates.ts';
import { isIssue, storedDates, updatedDates, type Json } from './inputs.ts';
import { isJson } from '../mapping/json.ts';
import { cleanText } from '../mapping/text.ts';
import type { AnyInput, PostKind } from './kinds.ts';
import { affectsOf, compareOf, viewsOf, type FieldValue } from '../mapping/calendar-models.ts';
import { TYPE_OF, type Iface } from '../namespaces/calendar/vocabulary.ts';

export type { FieldValue };
export type View = Map<string, FieldValue>;

/** One field the site did not keep as asked (or did not keep at all). */
export interface Mismatch {
  field: string;
  /** The value the write asked for (for a field the caller did not set: the value it had before). */
  asked: FieldValue;
  /** The value the site shows now. */
  kept: FieldValue;
  /** Whether the caller set the field (false: it changed though nobody asked). */
  set: boolean;
}

// ---------------------------------------------------------------------------
// Views of the site's answers

const rec = (v: unknown): Json => (isJson(v) ? v : {});

type Reader = (o: Json) => FieldValue | undefined;

/** How each interface's answers show each input field, per kind: the calendar's field table's `show` parts. */
const VIEWS: Record<PostKind, Record<Iface, Map<string, Reader>>> = {
  events: { legacy: new Map(viewsOf('Event', 'legacy')), core: new Map(viewsOf('Event', 'core')) },
  venues: { legacy: new Map(viewsOf('Venue', 'legacy')), core: new Map(viewsOf('Venue', 'core')) },
  organizers: { legacy: new Map(viewsOf('Organizer', 'legacy')), core: new Map(viewsOf('Organizer', 'core')) },
};

/** What an answer of `api` about a `kind` object shows, field by field. */
export function viewOf(kind: PostKind, api: Iface, body: unknown): View {
  const o = rec(body);
  const out: View = new Map();
  for (const [field, read] of VIEWS[kind][api]) {
    const v = read(o);
    if (v !== undefined) out.set(field, v);
  }
  return out;
}

/** Whether answers of `api` show `field` at all (which interface to read a field back through). */
export function shows(kind: PostKind, api: Iface, field: string): boolean {
  return VIEWS[kind][api].has(field);
}

// ---------------------------------------------------------------------------
// Normalising values the way the site stores them

const TYPOGRAPHY: [RegExp, string][] = [
  [/[\u2018\u2019\u201a\u2032]/g, "'"],
  [/[\u201c\u201d\u201e\u2033]/g, '"'],
  [/[\u2013\u2014]/g, '-'],
  [/\u2026/g, '...'],
  [/\u00d7/g, 'x'],
];

/**
 * Text as compared: tags and entities out, WordPress's typographic quotes and dashes (wptexturize) undone, whitespace
 * collapsed, trimmed.
 */
export function plainText(v: string): string {
  let s = cleanText(v);
  for (const [re, to] of TYPOGRAPHY) s = s.replace(re, to);
  return s.replace(/\s+/g, ' ').trim();
}

/** A cost by its amounts ("$10 – $25" and "10-25" alike; "Free" and "0" alike); text without numbers as itself. */
export function costKey(v: string): string {
  const s = v.trim();
  if (s === '') return '';
  if (/^free$/i.test(s) || /^0+(?:[.,]0+)?$/.test(s)) return '0';
  const values = s.match(/\d+(?:[.,]\d+)?/g);
  if (!values) return s.toLowerCase();
  return [...new Set(values.map((x) => Number(x.replace(',', '.'))))].sort((a, b) => a - b).join(',');
}

/** `sanitize_title` for ASCII slugs: lower case, runs of other characters to one dash. */
export function slugKey(v: string): string {
  let s = v.trim();
  try {
    s = decodeURIComponent(s);
  } catch {
    // Not percent-encoded: as is.
  }
  return s
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/[^\p{L}\p{N}-]+/gu, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Whether two values of `field` are the same stored value. */
export function sameValue(field: string, a: FieldValue, b: FieldValue): boolean {
  const empty = (x: FieldValue) => x === null || x === '' || (Array.isArray(x) && x.length === 0);
  if (Array.isArray(a) || Array.isArray(b)) {
    const xs = [...new Set(Array.isArray(a) ? a : [])].sort((p, q) => p - q);
    const ys = [...new Set(Array.isArray(b) ? b : [])].sort((p, q) => p - q);
    return xs.length === ys.length && xs.every((x, i) => x === ys[i]);
  }
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  switch (compareOf(field)) {
    case 'instant':
      return Date.parse(String(a)) === Date.parse(String(b));
    case 'coordinate':
      return typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) < 1e-6;
    case 'cost':
      return costKey(String(a)) === costKey(String(b));
    case 'slug':
      return slugKey(String(a)) === slugKey(String(b));
    case 'url':
      return String(a).trim().replace(/\/$/, '') === String(b).trim().replace(/\/$/, '');
    case 'lower':
      return String(a).toLowerCase() === String(b).toLowerCase();
    case 'text':
      return plainText(String(a)) === plainText(String(b));
    case 'exact':
      return a === b;
  }
}

/** Text as compared with what a site renders from it: without URLs (an embed replaces a URL alone on its line). */
const renderedKey = (v: string) =>
  plainText(v)
    .replace(/https?:\/\/\S+/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Whether the value kept satisfies the value asked (looser than `sameValue` where the site adds to what it is given).
 */
function satisfies(field: string, asked: FieldValue, kept: FieldValue): boolean {
  // Answers show the content rendered (paragraphs added, shortcodes and embeds expanded): what was asked must be in it.
  if ((field === 'description' || field === 'excerpt') && typeof asked === 'string' && typeof kept === 'string')
    return renderedKey(kept).includes(renderedKey(asked));
  // A private or protected post's title is shown with WordPress's prefix.
  if (
    field === 'title' &&
    typeof asked === 'string' &&
    typeof kept === 'string' &&
    /^(Private|Protected): /.test(plainText(kept))
  ) {
    return (
      sameValue(field, asked, kept) || sameValue(field, asked, plainText(kept).replace(/^(Private|Protected): /, ''))
    );
  }
  // A new object's slug, or one taken already, gets a number (`-2`).
  if (field === 'slug' && typeof asked === 'string' && typeof kept === 'string') {
    const a = slugKey(asked);
    const k = slugKey(kept);
    return k === a || new RegExp(`^${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d+$`).test(k);
  }
  // Publishing with a date still to come schedules the post.
  if (field === 'status' && asked === 'publish' && kept === 'future') return true;
  return sameValue(field, asked, kept);
}

// ---------------------------------------------------------------------------
// What a write asks

/**
 * An event's dates, when the write sets any of them: the instants expected (and the zone), as the gateway sent them.
 */
interface ExpectedDates {
  start: string;
  end: string;
  zone: string;
  duration: number;
}

export interface Asked {
  /** Field -> the value asked, as the site would store it. */
  values: Map<string, FieldValue>;
  /** Fields the write changes by design besides those it sets (not compared with before). */
  affected: Set<string>;
  /** Fields set whose result can only be checked loosely (`featuredImageUrl` -> an image is set). */
  present: Set<string>;
  dates: ExpectedDates | null;
}

const statusOut = (v: unknown) => String(v).toLowerCase().replace('_', '-');

function instantOf(value: string, zone: string): string | null {
  const v = value.trim();
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(v);
  const d = hasOffset
    ? DateTime.fromISO(v, { setZone: true })
    : DateTime.fromISO(v.replace(' ', 'T'), { zone: luxonZone(zone) ?? 'utc' });
  return d.isValid ? d.toUTC().toISO({ suppressMilliseconds: true }) : null;
}

function localInstant(local: string, zone: string): string | null {
  const d = DateTime.fromFormat(local, 'yyyy-MM-dd HH:mm:ss', { zone: luxonZone(zone) ?? 'utc' });
  return d.isValid ? d.toUTC().toISO({ suppressMilliseconds: true }) : null;
}

const DATE_GROUP = ['startDate', 'endDate', 'duration', 'timezone', 'allDay'];
/** Inputs that are not stored as themselves (checked through what they change). */
const NOT_FIELDS = new Set(['venue', 'organizers', 'featuredImageUrl', 'startDate', 'endDate', 'duration', 'timezone']);

/**
 * What a write of `input` asks, field by field. `before` is the stored object
 * as read before an update (its raw body; undefined for a create), for the
 * dates an update completes from it.
 */
export function askedOf(kind: PostKind, input: AnyInput, siteZone: string, before?: unknown): Asked {
  const src = input as Record<string, unknown>;
  const values = new Map<string, FieldValue>();
  const affected = new Set<string>();
  const present = new Set<string>();
  for (const [field, v] of Object.entries(src)) {
    if (v === undefined || v === null || NOT_FIELDS.has(field)) continue;
    if (field === 'status') values.set(field, statusOut(v));
    else if (compareOf(field) === 'lower') values.set(field, String(v).toLowerCase());
    else if (field === 'publishedAt') values.set(field, instantOf(String(v), siteZone));
    else if (Array.isArray(v))
      values.set(
        field,
        [...new Set(v as number[])].sort((a, b) => a - b),
      );
    else values.set(field, v as FieldValue);
  }
  const given = (f: string) => src[f] !== undefined && src[f] !== null;
  if (given('venue')) affected.add('venueIds');
  if (given('organizers')) affected.add('organizerIds');
  // Only that an image is set can be checked: its ID is new.
  if (given('featuredImageUrl')) present.add('featuredImageId');
  // What the fields set change by design (the field table's `affects`).
  for (const [field, changes] of affectsOf(TYPE_OF[kind]))
    if (given(field)) for (const f of changes) if (!given(f)) affected.add(f);
  let dates: ExpectedDates | null = null;
  if (kind === 'events' && DATE_GROUP.some(given)) {
    for (const f of DATE_GROUP) if (!values.has(f)) affected.add(f);
    const event = input as EventInput;
    const stored = before === undefined ? { start: null, end: null, timezone: null } : storedDates(before);
    const zone = event.timezone || stored.timezone || siteZone;
    const d = updatedDates(event, stored, zone, { siteZone, eventZone: zone });
    if (d && !isIssue(d)) {
      const start = localInstant(d.start, zone);
      const end = localInstant(d.end, zone);
      if (start && end) dates = { start, end, zone, duration: d.duration };
    } else if (given('timezone')) values.set('timezone', event.timezone!);
  }
  return { values, affected, present, dates };
}

/** Local calendar day of an instant in `zone`. */
function dayIn(at: string, zone: string): string {
  return (
    DateTime.fromISO(at, { zone: 'utc' })
      .setZone(luxonZone(zone) ?? 'utc')
      .toISODate() ?? at
  );
}

/**
 * The fields where `after` contradicts the write: a field set that does not
 * hold the value asked, or (updates) a field not set that changed from
 * `before`, as `same` shows it (the view of the interface `before` was read
 * through: the interfaces render some fields differently). Only fields the
 * views show are judged.
 */
export function mismatches(asked: Asked, before: View | null, after: View, same: View = after): Mismatch[] {
  const out: Mismatch[] = [];
  const allDay = after.get('allDay') === true;
  for (const [field, want] of asked.values) {
    if (!after.has(field)) continue;
    const kept = after.get(field)!;
    if (!satisfies(field, want, kept)) out.push({ field, asked: want, kept, set: true });
  }
  for (const field of asked.present) {
    if (after.has(field) && after.get(field) === null) out.push({ field, asked: 'an image', kept: null, set: true });
  }
  const d = asked.dates;
  if (d) {
    const zone = typeof after.get('timezone') === 'string' ? (after.get('timezone') as string) : d.zone;
    const checks: [string, string][] = [
      ['startDate', d.start],
      ['endDate', d.end],
    ];
    for (const [field, want] of checks) {
      if (!after.has(field)) continue;
      const kept = after.get(field)!;
      // All-day events keep the day; the site sets the times.
      const ok = allDay
        ? typeof kept === 'string' && dayIn(kept, zone) === dayIn(want, d.zone)
        : sameValue(field, want, kept);
      if (!ok) out.push({ field, asked: want, kept, set: true });
    }
    if (after.has('timezone') && !sameValue('timezone', d.zone, after.get('timezone')!))
      out.push({ field: 'timezone', asked: d.zone, kept: after.get('timezone')!, set: true });
    if (!allDay && after.has('duration') && after.get('duration') !== d.duration)
      out.push({ field: 'duration', asked: d.duration, kept: after.get('duration')!, set: true });
  }
  if (before) {
    for (const [field, was] of before) {
      if (asked.values.has(field) || asked.affected.has(field) || (d && DATE_GROUP.includes(field)) || !same.has(field))
        continue;
      const kept = same.get(field)!;
      if (!sameValue(field, was, kept)) out.push({ field, asked: was, kept, set: false });
    }
  }
  return out;
}

/**
 * The fields a check needs that the views after the write do not show: what
 * the write asked (in `after`), and what the object had before (in `same`, the
 * view of the interface it was read through).
 */
export function unseen(asked: Asked, before: View | null, after: View, same: View = after): string[] {
  const want = new Set<string>([...asked.values.keys(), ...asked.present]);
  if (asked.dates) for (const f of ['startDate', 'endDate', 'timezone']) want.add(f);
  const out = [...want].filter((f) => !after.has(f));
  for (const f of before?.keys() ?? []) if (!same.has(f) && !out.includes(f)) out.push(f);
  return out;
}

/** A view laid over another: the later answer wins where it shows a field. */
export function overlay(base: View, top: View): View {
  return new Map([...base, ...top]);
}
