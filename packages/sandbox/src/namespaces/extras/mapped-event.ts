/**
 * The event as the automation connectors send it (calendar-upstream.md §4
 * "Mapped event"; TC `Traits/Maps/Event.php`): flat, with ISO 8601 dates,
 * organizers and venues (always an array) inlined, terms as
 * `{name, slug, description, parent?}` and the Event Tickets block.
 */
import { DateTime } from 'luxon';
import { directionsLink, renderedExcerpt } from '../../calendar/core-repr.ts';
import { formatCost, legacyImage } from '../../calendar/legacy-repr.ts';
import {
  CATEGORY_TAX,
  EVENT,
  ORGANIZER,
  TAG_TAX,
  VENUE,
  permalink,
  type EventMeta,
  type EventPost,
  type OrganizerMeta,
  type VenueMeta,
} from '../../calendar/model.ts';
import { abbr, diffSeconds, parseSql, zoneOf } from '../../dates.ts';
import type { Clock, Origin, Storage } from '../../capabilities.ts';
import type { PostRow, TermRow } from '../../store/db.ts';

type Json = Record<string, unknown>;

/** `get_the_post_thumbnail_url($id, 'full')`, or ''. */
function imageUrl(site: Origin & Storage, attachmentId: number): string {
  const image = legacyImage(site, attachmentId);
  return image ? String(image.url) : '';
}

function term(t: TermRow): Json {
  return { name: t.name, slug: t.slug, description: t.description };
}

/** `get_taxonomy_terms`: `wp_get_object_terms` (ordered by name), each with its parent when it has one. */
function terms(site: Storage, postId: number, taxonomy: string): Json[] {
  const list = site.store.termIdsOf(postId, taxonomy).map((id) => site.store.term(id)!);
  list.sort((a, b) => a.name.localeCompare(b.name));
  return list.map((t) => {
    const out = term(t);
    const parent = t.parent ? site.store.term(t.parent) : undefined;
    if (parent) out.parent = term(parent);
    return out;
  });
}

function organizer(site: Origin & Storage, o: PostRow<OrganizerMeta>): Json {
  return {
    id: o.id,
    title: o.title,
    description: o.content,
    excerpt: renderedExcerpt(o),
    permalink: permalink(site, o.type, o.slug, o.id),
    featured_image_url: imageUrl(site, o.featuredMedia),
    phone: o.meta.phone,
    website: o.meta.website,
    email: o.meta.email,
  };
}

function venue(site: Origin & Storage, v: PostRow<VenueMeta>): Json {
  const m = v.meta;
  return {
    id: v.id,
    title: v.title,
    description: v.content,
    excerpt: renderedExcerpt(v),
    permalink: permalink(site, v.type, v.slug, v.id),
    featured_image_url: imageUrl(site, v.featuredMedia),
    phone: m.phone,
    website: m.website,
    address: m.address,
    country: m.country,
    city: m.city,
    state_province: m.stateprovince,
    state: m.state,
    zip: m.zip,
    directions_link: directionsLink(m),
    geolocation: m.lat !== null && m.lng !== null ? { latitude: m.lat, longitude: m.lng } : null,
  };
}

/** TEC's `multiday`: the number of days an event spans, or 0 (intval(false)) for a one-day event. */
function multiDay(m: EventMeta): number {
  const ymd = (s: string) => Date.UTC(Number(s.slice(0, 4)), Number(s.slice(5, 7)) - 1, Number(s.slice(8, 10)));
  const days = Math.round((ymd(m.endDate) - ymd(m.startDate)) / 86_400_000) + 1;
  return days > 1 ? days : 0;
}

/** PHP's `strtotime(post_modified)`: WordPress runs PHP in UTC, so the local time is read as UTC. */
export function modifiedStamp(p: PostRow<unknown>): number {
  return Math.floor(Date.parse(`${p.modified.replace(' ', 'T')}Z`) / 1000);
}

/**
 * `get_mapped_event`: false when the ID is not an event. With `uniqueId` the
 * `id` is `"<ID>|<strtotime(post_modified)>"` (Zapier's updated and canceled
 * feeds, so that each change is a new item for Zapier's de-duplication).
 */
export function mappedEvent(site: Clock & Origin & Storage, id: number, uniqueId = false): Json | false {
  const e = site.store.post<EventMeta>(id) as EventPost | undefined;
  if (!e || e.type !== EVENT) return false;
  const m = e.meta;
  const author = site.store.userById(e.author);
  const tz = zoneOf(m.timezone);
  // PHP's `c` format: the offset is always written out, `+00:00` included.
  const iso = (local: string) => parseSql(local, tz).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
  const organizers = site.store.postsByIds<OrganizerMeta>(m.organizerIds).filter((o) => o.type === ORGANIZER);
  const venues = site.store.postsByIds<VenueMeta>(m.venueIds).filter((v) => v.type === VENUE);
  const nowUtc = DateTime.fromJSDate(site.now(), { zone: 'utc' }).toFormat('yyyy-MM-dd HH:mm:ss');
  return {
    id: uniqueId ? `${e.id}|${modifiedStamp(e)}` : String(e.id),
    title: e.title,
    description: e.content,
    excerpt: renderedExcerpt(e),
    permalink: permalink(site, EVENT, e.slug, e.id),
    author_id: e.author,
    author_email: author ? author.email : null,
    // Blank means scheduled (what Google reads it as); canceled and postponed pass through.
    event_status: m.eventStatus || 'scheduled',
    featured: m.featured,
    sticky: e.menuOrder === -1,
    organizers: organizers.map((o) => organizer(site, o)),
    venue: venues.map((v) => venue(site, v)),
    cost: formatCost(m),
    website_url: m.website,
    featured_image_url: imageUrl(site, e.featuredMedia),
    category: terms(site, e.id, CATEGORY_TAX),
    tag: terms(site, e.id, TAG_TAX),
    // Event Tickets is not installed on the sandbox: the base block.
    tickets: { has_ticket: false, has_rsvp: false, in_date_range: false, sold_out: false, tickets: [], rsvps: [] },
    start_date: iso(m.startDate),
    end_date: iso(m.endDate),
    timezone: m.timezone,
    timezone_abbr: m.timezone ? abbr(m.startDate, m.timezone) : '',
    all_day: m.allDay,
    multi_day: multiDay(m),
    is_past: m.endDateUtc < nowUtc,
    duration: diffSeconds(m.startDateUtc, m.endDateUtc),
  };
}
