/**
 * The JSON objects `calendar-core/v1` answers with (TEC's tec/v1,
 * calendar-upstream.md §2 "Response"): WordPress posts-controller objects with
 * the calendar's fields appended. Pure builders: everything they need beyond
 * the post itself comes from a `ReprSource`, so they do no I/O of their own.
 *
 * Shapes follow TEC's snapshots (tests/rest_tec_v1_integration/Endpoints/
 * __snapshots__): `dates.*` are PHP DateTime dumps, `duration` is a string,
 * `multiday` is false or a day count, the week fields are null and
 * `displays_on` is empty outside the week view, cost is formatted with its
 * currency, and a password-protected post has its fields masked recursively.
 */
import { DateTime } from 'luxon';
import { SQL, diffSeconds, parseSql, toRfc3339NoOffset, utcToLocal, zoneOf } from '../dates.ts';
import type { PostRow, TermRow } from '../store/db.ts';
import { CATEGORY_TAX, TAG_TAX, permalink, type EventPost, type OrganizerPost, type VenuePost } from './model.ts';
import { stripTags } from './query.ts';

/** What the builders may look up; built per request by the namespace. */
export interface ReprSource {
  /** `http://host:port` */
  origin: string;
  siteTimezone: string;
  now: Date;
  /** The post's terms of one taxonomy, in term ID order. */
  terms(postId: number, taxonomy: string): TermRow[];
  /** Linked venues the caller may read, in the given order. */
  venues(ids: readonly number[]): VenuePost[];
  organizers(ids: readonly number[]): OrganizerPost[];
  /** IDs of a series' events, ordered by start. */
  seriesEventIds(seriesId: number): number[];
  /** The key of an event's category IDs (names.ts coreCategoryField). */
  categoryField: string;
}

type Json = Record<string, unknown>;

/** WordPress shows drafts and scheduled posts by their query URL (get_post_permalink's $draft_or_pending). */
function linkOf(src: ReprSource, p: PostRow<unknown>): string {
  if (['draft', 'pending', 'auto-draft', 'future'].includes(p.status))
    return `${src.origin}/?post_type=${p.type}&p=${p.id}`;
  return permalink(src, p.type, p.slug, p.id);
}

/** A tiny wpautop: wraps loose text in paragraphs and ends with a newline, as `the_content` does. */
export function autop(html: string): string {
  const text = html.trim();
  if (!text) return '';
  if (/^<(p|div|h[1-6]|ul|ol|table|blockquote|pre|figure|section)[\s>]/i.test(text)) return `${text}\n`;
  return `${text
    .split(/\n\s*\n/)
    .map((para) => `<p>${para.trim().replace(/\n/g, '<br />\n')}</p>`)
    .join('\n')}\n`;
}

/** wp_trim_excerpt: the post's excerpt, or the first 55 words of its content. */
export function renderedExcerpt(p: PostRow<unknown>): string {
  if (p.excerpt.trim()) return autop(p.excerpt);
  const words = stripTags(p.content).trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '';
  const more = words.length > 55 ? ' [&hellip;]' : '';
  return `<p>${words.slice(0, 55).join(' ')}${more}</p>\n`;
}

/** get_post_class(): the classes WordPress lists in `class_list`. */
export function classList(p: PostRow<unknown>, terms: [taxonomy: string, TermRow[]][] = []): string[] {
  const out = [`post-${p.id}`, p.type, `type-${p.type}`, `status-${p.status}`];
  if (p.password) out.push('post-password-required');
  else if (p.featuredMedia) out.push('has-post-thumbnail');
  out.push('hentry');
  for (const [tax, list] of terms)
    for (const t of list) out.push(tax === TAG_TAX ? `tag-${t.slug}` : `${tax}-${t.slug}`);
  return out;
}

/** The posts-controller fields every tec/v1 entity starts with (`_links` and `meta` removed). */
function basePost(src: ReprSource, p: PostRow<unknown>): Json {
  const link = linkOf(src, p);
  return {
    id: p.id,
    date: toRfc3339NoOffset(p.date),
    date_gmt: toRfc3339NoOffset(p.dateGmt),
    guid: { rendered: link },
    modified: toRfc3339NoOffset(p.modified),
    modified_gmt: toRfc3339NoOffset(p.modifiedGmt),
    slug: p.slug,
    status: p.status,
    type: p.type,
    link,
    title: { rendered: p.status === 'private' ? `Private: ${p.title}` : p.title },
    content: { rendered: autop(p.content), protected: Boolean(p.password) },
    excerpt: { rendered: renderedExcerpt(p), protected: Boolean(p.password) },
    author: p.author,
    featured_media: p.featuredMedia,
    template: p.template,
  };
}

/** Fields kept as they are on a password-protected post (TC REST/TEC/V1/Controller.php WHITELISTED_FIELDS). */
const UNMASKED = new Set([
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
 * TC's recursive_hide_password_protected_data: at every depth, keys outside
 * the list above become "Password protected" (strings), 0 (numbers) or null
 * (anything else); arrays and objects are walked (so `content.rendered`
 * becomes "Password protected" and `content.protected` null, as TEC's venue
 * snapshot shows).
 */
export function maskProtected<T>(value: T): T {
  const mask = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(mask);
    if (v !== null && typeof v === 'object') return walk(v as Json);
    if (typeof v === 'string') return 'Password protected';
    if (typeof v === 'number') return 0;
    return null;
  };
  const walk = (obj: Json): Json =>
    Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, UNMASKED.has(k) ? v : mask(v)]));
  return walk(value as Json) as T;
}

const finish = (p: PostRow<unknown>, entity: Json): Json => (p.password ? maskProtected(entity) : entity);

/** A PHP DateTime as json_encode prints it. */
function phpDate(sql: string, timezone: string): { date: string; timezone_type: 3; timezone: string } {
  return { date: `${sql}.000000`, timezone_type: 3, timezone };
}

/** tribe_get_cost(…, true): the currency symbol around each number; words like "Free" stay as they are. */
export function formatCost(cost: string, symbol: string, position: 'prefix' | 'suffix' | ''): string {
  const one = (v: string) =>
    /^\d+(\.\d+)?$/.test(v) ? (position === 'suffix' ? `${v}${symbol}` : `${symbol}${v}`) : v;
  const range = /^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*$/.exec(cost);
  return range ? `${one(range[1]!)} – ${one(range[2]!)}` : one(cost.trim());
}

/**
 * tribe_events_event_schedule_details and its short form, as TEC's snapshots
 * print them: the year only when it is not the current one, "All day" for a
 * short one-day all-day event.
 */
export function scheduleDetails(m: EventPost['meta'], now: Date): { long: string; short: string } {
  // Plain string work on the wall-clock values: this runs for every event of every list.
  const thisYear = yearIn(now, zoneOf(m.timezone));
  const day = (sql: string) =>
    `${MONTHS[Number(sql.slice(5, 7)) - 1]} ${Number(sql.slice(8, 10))}${Number(sql.slice(0, 4)) === thisYear ? '' : `, ${sql.slice(0, 4)}`}`;
  const time = (sql: string) => {
    const h = Number(sql.slice(11, 13));
    return `${h % 12 || 12}:${sql.slice(14, 16)} ${h < 12 ? 'am' : 'pm'}`;
  };
  const start = m.startDate;
  const end = m.endDate;
  const span = (cls: string, text: string) => `<span class="tribe-event-${cls}">${text}</span>`;
  if (m.startDate.slice(0, 10) !== m.endDate.slice(0, 10)) {
    const long = m.allDay
      ? `${span('date-start', day(start))} - ${span('date-end', day(end))}`
      : `${span('date-start', `${day(start)} @ ${time(start)}`)} - ${span('date-end', `${day(end)} @ ${time(end)}`)}`;
    return { long, short: long };
  }
  if (m.allDay) return { long: span('date-start', day(start)), short: 'All day' };
  if (m.startDate === m.endDate)
    return { long: span('date-start', `${day(start)} @ ${time(start)}`), short: span('date-start', time(start)) };
  return {
    long: `${span('date-start', `${day(start)} @ ${time(start)}`)} - ${span('time', time(end))}`,
    short: `${span('date-start', time(start))} - ${span('time', time(end))}`,
  };
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const yearFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar year of `now` in a zone (formatter cached per zone). */
function yearIn(now: Date, zone: string): number {
  let f = yearFormats.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone.startsWith('UTC') && zone.length > 3 ? 'UTC' : zone,
        year: 'numeric',
      });
    } catch {
      f = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric' });
    }
    yearFormats.set(zone, f);
  }
  return Number(f.format(now));
}

/** Days the event touches when more than one (TEC's `multiday`), else false. */
function multiday(m: EventPost['meta']): number | false {
  const ymd = (s: string) => Date.UTC(Number(s.slice(0, 4)), Number(s.slice(5, 7)) - 1, Number(s.slice(8, 10)));
  const days = Math.round((ymd(m.endDate) - ymd(m.startDate)) / 86_400_000) + 1;
  return days > 1 ? days : false;
}

export function organizerJson(src: ReprSource, p: OrganizerPost): Json {
  return finish(p, {
    ...basePost(src, p),
    class_list: classList(p),
    phone: p.meta.phone,
    website: p.meta.website,
    email: p.meta.email,
  });
}

/** TEC's directions link: Google Maps searching the address parts joined by spaces. */
export function directionsLink(m: VenuePost['meta']): string {
  const q = [m.address, m.city, m.stateprovince || m.state || m.province, m.zip, m.country]
    .filter((x) => x && x.trim())
    .join(' ');
  if (!q) return '';
  return `https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=${encodeURIComponent(q).replace(/%20/g, '+')}`;
}

export function venueJson(src: ReprSource, p: VenuePost): Json {
  const m = p.meta;
  return finish(p, {
    ...basePost(src, p),
    class_list: classList(p),
    address: m.address,
    country: m.country,
    city: m.city,
    state_province: m.stateprovince,
    state: m.state,
    province: m.province,
    zip: m.zip,
    phone: m.phone,
    directions_link: directionsLink(m),
    website: m.website,
    lat: m.lat,
    lng: m.lng,
  });
}

/**
 * `_EventDuration` as TEC stored it when a calendar-core update moved only the
 * end (it keeps the old duration: real-site-behaviour.md "Updates"), with the
 * UTC dates it was stored beside. Any write that moves a date again makes it
 * stale-no-more: TEC rewrites the meta with both dates.
 */
export interface DurationMeta {
  seconds: number;
  startDateUtc: string;
  endDateUtc: string;
}

/** The event's `duration`: the stored one while the dates are those it was stored with, else end − start. */
export function eventDurationSeconds(m: EventPost['meta'] & { storedDuration?: DurationMeta }): number {
  const kept = m.storedDuration;
  if (kept && kept.startDateUtc === m.startDateUtc && kept.endDateUtc === m.endDateUtc) return kept.seconds;
  return diffSeconds(m.startDateUtc, m.endDateUtc);
}

export function eventJson(src: ReprSource, p: EventPost): Json {
  const m = p.meta;
  const tags = src.terms(p.id, TAG_TAX);
  const cats = src.terms(p.id, CATEGORY_TAX);
  const site = src.siteTimezone;
  const nowUtc = DateTime.fromJSDate(src.now, { zone: 'utc' }).toFormat(SQL);
  const organizers = src.organizers(m.organizerIds);
  const venues = src.venues(m.venueIds);
  const schedule = scheduleDetails(m, src.now);
  return finish(p, {
    ...basePost(src, p),
    tags: tags.map((t) => t.id),
    [src.categoryField]: cats.map((t) => t.id),
    class_list: classList(p, [
      [CATEGORY_TAX, cats],
      [TAG_TAX, tags],
    ]),
    start_date: m.startDate,
    start_date_utc: m.startDateUtc,
    end_date: m.endDate,
    end_date_utc: m.endDateUtc,
    dates: {
      start: phpDate(m.startDate, m.timezone),
      start_utc: phpDate(m.startDateUtc, 'UTC'),
      start_site: phpDate(utcToLocal(m.startDateUtc, site), site),
      // TEC's default "event time zone" display mode shows the event's own zone.
      start_display: phpDate(m.startDate, m.timezone),
      end: phpDate(m.endDate, m.timezone),
      end_utc: phpDate(m.endDateUtc, 'UTC'),
      end_site: phpDate(utcToLocal(m.endDateUtc, site), site),
      end_display: phpDate(m.endDate, m.timezone),
    },
    timezone: m.timezone,
    // The schema says integer; the real server sends the stored meta string.
    duration: String(eventDurationSeconds(m)),
    multiday: multiday(m),
    is_past: m.endDateUtc < nowUtc,
    is_now: m.startDateUtc <= nowUtc && nowUtc <= m.endDateUtc,
    all_day: m.allDay,
    starts_this_week: null,
    ends_this_week: null,
    this_week_duration: null,
    happens_this_week: null,
    displays_on: [],
    featured: m.featured,
    sticky: p.menuOrder === -1,
    cost: formatCost(m.cost, m.currencySymbol, m.currencyPosition),
    organizer_names: organizers.map((o) => o.title),
    organizers: organizers.map((o) => organizerJson(src, o)),
    venues: venues.map((v) => venueJson(src, v)),
    schedule_details: schedule.long,
    short_schedule_details: schedule.short,
    ticketed: m.ticketed,
    virtual: m.virtual,
    series: m.seriesId > 0 ? m.seriesId : null,
    lat: m.lat,
    lng: m.lng,
  });
}

/** A series (ECP's container of recurring events): the base fields plus its events by start. */
export function seriesJson(src: ReprSource, p: PostRow<unknown>): Json {
  return finish(p, {
    ...basePost(src, p),
    class_list: classList(p),
    events: src.seriesEventIds(p.id),
  });
}
