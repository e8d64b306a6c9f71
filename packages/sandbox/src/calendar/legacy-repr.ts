/**
 * The JSON objects of the legacy `calendar/events/v1` interface: events,
 * venues, organizers, featured images and terms (calendar-upstream.md §1.3–§1.5,
 * the samples legacy-*.json, and TEC's `Post_Repository`). The automation
 * feeds answer with the same objects, so these builders live beside the model
 * rather than inside the namespace.
 *
 * They read the store (linked venues, organizers, terms, attachments) but never
 * write to it. Key order follows the real answers: PHP arrays keep insertion
 * order and so does JSON here.
 */
import { DateTime } from 'luxon';
import { SQL, abbr, details, parseSql, zoneOf } from '../dates.ts';
import type { Origin, Settings, Storage } from '../capabilities.ts';
import type { PostRow, TermRow } from '../store/db.ts';
import {
  CATEGORY_TAX,
  EVENT,
  ORGANIZER,
  VENUE,
  permalink,
  type AttachmentMeta,
  type EventMeta,
  type EventPost,
  type OrganizerMeta,
  type OrganizerPost,
  type VenueMeta,
  type VenuePost,
} from './model.ts';
import { seoActive, yoastSite, yoastTermHead } from '../yoast-head.ts';
import { stripTags } from './query.ts';

export const LEGACY_NAMESPACE = 'calendar/events/v1';

type Json = Record<string, unknown>;

export interface LegacyReprOptions {
  /** Single-object GETs add `json_ld`, to the object and to the venue and organizers it embeds. */
  single?: boolean;
  /** Archives blank the description and excerpt of password-protected events (TEC `Main.php`). */
  hideProtected?: boolean;
}

/** `<rest root>/calendar/events/v1/<path>` (tribe_events_rest_url). */
export function legacyRestUrl(site: Origin, path: string): string {
  return `${site.restRoot}/${LEGACY_NAMESPACE}/${path}`;
}

/** TC `Utils/Global_ID.php`: `"<host>?id=<ID>"`; the lineage lists it first. */
export function globalId(site: Origin, id: number): string {
  return `${new URL(site.origin).host}?id=${id}`;
}

/** PHP's `array_filter` without a callback: drops "", "0", 0, false, null and empty arrays. */
export function phpArrayFilter(data: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(data)) {
    const empty =
      v === '' ||
      v === '0' ||
      v === 0 ||
      v === false ||
      v === null ||
      v === undefined ||
      (Array.isArray(v) && v.length === 0);
    if (!empty) out[k] = v;
  }
  return out;
}

function attachmentUrl(site: Origin, url: string): string {
  return /^https?:\/\//i.test(url) ? url : `${site.origin}${url}`;
}

/** WordPress's default intermediate sizes: [name, width, height, crop]. */
const IMAGE_SIZES: [string, number, number, boolean][] = [
  ['thumbnail', 150, 150, true],
  ['medium', 300, 300, false],
  ['medium_large', 768, 0, false],
  ['large', 1024, 1024, false],
];

/**
 * The featured image (`Post_Repository::get_featured_image`): `false` without
 * one, else `{url, id, extension, width, height, filesize, sizes}` with empty
 * values dropped. Sizes are the ones WordPress would have generated: only those
 * smaller than the original.
 */
export function legacyImage(site: Origin & Storage, attachmentId: number): false | Json {
  if (!attachmentId) return false;
  const att = site.store.post<AttachmentMeta>(attachmentId);
  if (!att || att.type !== 'attachment') return false;
  const m = att.meta;
  const url = attachmentUrl(site, m.url);
  const extension = /\.([a-z0-9]+)(?:\?.*)?$/i.exec(m.url)?.[1] ?? '';
  const sizes: Record<string, Json> = {};
  for (const [name, w, h, crop] of IMAGE_SIZES) {
    if (!m.width || !m.height || (m.width <= w && (h === 0 || m.height <= h))) continue;
    const scale = crop ? 0 : Math.min(w / m.width, h ? h / m.height : Infinity);
    const width = crop ? w : Math.round(m.width * scale);
    const height = crop ? h : Math.round(m.height * scale);
    sizes[name] = { width, height, 'mime-type': m.mime, url: url.replace(/(\.[a-z0-9]+)$/i, `-${width}x${height}$1`) };
  }
  return phpArrayFilter({
    url,
    id: att.id,
    extension,
    width: m.width,
    height: m.height,
    filesize: m.filesize,
    sizes: Object.keys(sizes).length ? sizes : null,
  });
}

// ---- cost

const NUMBER = /\d+(?:[.,]\d+)?/g;

/** Numeric values of a cost, ascending (`Post_Repository::get_cost_values`); a cost with no number counts as "0". */
export function costValues(m: Pick<EventMeta, 'cost'>): string[] {
  const raw = m.cost.trim();
  if (raw === '') return [];
  const values = raw.match(NUMBER)?.map((v) => v.replace(',', '.')) ?? [];
  if (!values.length) return ['0'];
  return [...new Set(values)].sort((a, b) => Number(a) - Number(b));
}

/**
 * The formatted cost (`tribe_get_cost($id, true)`): "" when none, "Free" for
 * free or zero, else the lowest and highest values with the currency symbol on
 * its side ("$10", "10 €", "$10 – $25"). Text without numbers is kept as typed.
 */
export function formatCost(m: Pick<EventMeta, 'cost' | 'currencySymbol' | 'currencyPosition'>): string {
  const raw = m.cost.trim();
  if (raw === '') return '';
  if (/^free$/i.test(raw) || /^0+(?:[.,]0+)?$/.test(raw)) return 'Free';
  if (!raw.match(NUMBER)) return raw;
  const values = costValues(m);
  const sym = m.currencySymbol;
  const fmt = (v: string) => (!sym ? v : m.currencyPosition === 'suffix' ? `${v} ${sym}` : `${sym}${v}`);
  const lo = values[0]!;
  const hi = values[values.length - 1]!;
  return lo === hi ? fmt(lo) : `${fmt(lo)} – ${fmt(hi)}`;
}

// ---- terms

function termNamespace(taxonomy: string): 'categories' | 'tags' {
  return taxonomy === CATEGORY_TAX ? 'categories' : 'tags';
}

function termUrls(site: Origin, term: TermRow): Json {
  const ns = termNamespace(term.taxonomy);
  const urls: Json = { self: legacyRestUrl(site, `${ns}/${term.id}`), collection: legacyRestUrl(site, ns) };
  if (term.parent) urls.up = legacyRestUrl(site, `${ns}/${term.parent}`);
  return urls;
}

/** The term's public page: `/events/category/<parent>/<child>/` for categories, `/tag/<slug>/` for tags. */
export function termLink(site: Origin & Storage, term: TermRow): string {
  if (term.taxonomy !== CATEGORY_TAX) return `${site.origin}/tag/${term.slug}/`;
  const path = [term.slug];
  const seen = new Set([term.id]);
  for (
    let parent = site.store.term(term.parent);
    parent && !seen.has(parent.id);
    parent = site.store.term(parent.parent)
  ) {
    path.unshift(parent.slug);
    seen.add(parent.id);
  }
  return `${site.origin}/events/category/${path.join('/')}/`;
}

/**
 * A term embedded in an event (§1.5): the WP_Term fields with `term_id`
 * renamed to `id` (so `id` comes after `filter`, as in the samples), plus `urls`.
 */
export function embeddedTerm(site: Origin & Storage, term: TermRow, count = site.store.termCount(term.id)): Json {
  return {
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: term.taxonomy,
    description: term.description,
    parent: term.parent,
    count,
    filter: 'raw',
    id: term.id,
    urls: termUrls(site, term),
  };
}

/**
 * A term in archives and single-term answers (§1.5): the terms-controller
 * fields, `link` renamed to `url` (hence after `meta`), `parent` for
 * categories only, plus `urls`. With Yoast active, its REST fields
 * `yoast_head`/`yoast_head_json` come after `meta`, as the controller adds
 * them (real-site-behaviour.md; sample legacy-categories-archive.json).
 */
export function archiveTerm(
  site: Origin & Storage & Settings,
  term: TermRow,
  count = site.store.termCount(term.id),
): Json {
  const url = termLink(site, term);
  return {
    id: term.id,
    count,
    description: term.description,
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
    ...(term.taxonomy === CATEGORY_TAX ? { parent: term.parent } : {}),
    meta: [],
    ...(seoActive(site)
      ? yoastTermHead(yoastSite(site), { name: term.name, description: term.description, canonical: url })
      : {}),
    url,
    urls: termUrls(site, term),
  };
}

// ---- venues and organizers

function postHead(site: Origin, p: PostRow<unknown>): Json {
  return {
    id: p.id,
    author: String(p.author),
    status: p.status,
    date: p.date,
    date_utc: p.dateGmt,
    modified: p.modified,
    modified_utc: p.modifiedGmt,
    url: permalink(site, p.type, p.slug, p.id),
  };
}

function withGlobalId(site: Origin, data: Json, id: number): Json {
  const gid = globalId(site, id);
  data.global_id = gid;
  data.global_id_lineage = [gid];
  return data;
}

function venueJsonLd(v: VenuePost): Json {
  const m = v.meta;
  return {
    '@type': 'Place',
    name: v.title,
    description: stripTags(v.content).trim(),
    url: m.website,
    address: {
      '@type': 'PostalAddress',
      ...phpArrayFilter({
        streetAddress: m.address,
        addressLocality: m.city,
        addressRegion: m.stateprovince || m.state || m.province,
        postalCode: m.zip,
        addressCountry: m.country,
      }),
    },
    ...(m.lat !== null && m.lng !== null
      ? { geo: { '@type': 'GeoCoordinates', latitude: m.lat, longitude: m.lng } }
      : {}),
    telephone: m.phone,
    sameAs: m.website,
  };
}

/**
 * WordPress's antispambot turns addresses into entities at random; the sandbox encodes `@` and `.` only, so answers
 * stay stable.
 */
function obfuscateEmail(email: string): string {
  return email.replace(/@/g, '&#64;').replace(/\./g, '&#46;');
}

function organizerJsonLd(o: OrganizerPost): Json {
  return {
    '@type': 'Person',
    name: o.title,
    description: stripTags(o.content).trim(),
    url: o.meta.website,
    telephone: o.meta.phone,
    email: obfuscateEmail(o.meta.email),
    sameAs: o.meta.website,
  };
}

/**
 * A venue (§1.4, `get_venue_data`): empty values are removed (array_filter),
 * then `show_map`/`show_map_link` (always, as booleans) and the global ID are
 * appended, which is why they close the object in the samples.
 */
export function legacyVenue(site: Origin & Storage, v: VenuePost, opts: LegacyReprOptions = {}): Json {
  const m = v.meta;
  const data: Json = {
    ...postHead(site, v),
    venue: v.title.trim(),
    description: v.content.trim(),
    excerpt: v.excerpt.trim(),
    slug: v.slug,
    image: legacyImage(site, v.featuredMedia),
    address: m.address,
    city: m.city,
    country: m.country,
    province: m.province,
    state: m.state,
    zip: m.zip,
    phone: m.phone,
    website: m.website,
    stateprovince: m.stateprovince,
  };
  if (m.lat !== null && m.lng !== null && m.lat !== 0 && m.lng !== 0) {
    data.geo_lat = m.lat;
    data.geo_lng = m.lng;
  }
  if (opts.single) data.json_ld = venueJsonLd(v);
  const out = phpArrayFilter(data);
  out.show_map = m.showMap;
  out.show_map_link = m.showMapLink;
  return withGlobalId(site, out, v.id);
}

/** An organizer (§1.4, `get_organizer_data`): the global ID is added before the empty values are removed. */
export function legacyOrganizer(site: Origin & Storage, o: OrganizerPost, opts: LegacyReprOptions = {}): Json {
  const data: Json = {
    ...postHead(site, o),
    organizer: o.title.trim(),
    description: o.content.trim(),
    excerpt: o.excerpt.trim(),
    slug: o.slug,
    image: legacyImage(site, o.featuredMedia),
    phone: o.meta.phone,
    website: o.meta.website,
    email: o.meta.email,
  };
  if (opts.single) data.json_ld = organizerJsonLd(o);
  return phpArrayFilter(withGlobalId(site, data, o.id));
}

// ---- events

function isoWithOffset(local: string, tz: string): string {
  return parseSql(local, zoneOf(tz)).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}

function escHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

function eventJsonLd(e: EventPost, url: string, venues: VenuePost[], organizers: OrganizerPost[]): Json {
  const m = e.meta;
  const values = costValues(m);
  return {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: e.title,
    description: escHtml(e.content.trim()),
    url,
    startDate: isoWithOffset(m.startDate, m.timezone),
    endDate: isoWithOffset(m.endDate, m.timezone),
    ...(venues[0] ? { location: venueJsonLd(venues[0]) } : {}),
    ...(organizers[0] ? { organizer: organizerJsonLd(organizers[0]) } : {}),
    ...(values.length
      ? {
          offers: {
            '@type': 'Offer',
            price: values[0],
            priceCurrency: m.currencyCode,
            url,
            category: 'primary',
            availability: 'inStock',
            validFrom: `${e.date.slice(0, 10)}T00:00:00+00:00`,
          },
        }
      : {}),
    performer: 'Organization',
  };
}

function linked<M>(site: Storage, ids: number[], type: string): PostRow<M>[] {
  return site.store.postsByIds<M>(ids).filter((p) => p.type === type);
}

function termsOf(site: Origin & Storage, postId: number, taxonomy: string): Json[] {
  return site.store.termIdsOf(postId, taxonomy).map((id) => embeddedTerm(site, site.store.term(id)!));
}

/**
 * An event (§1.3, `get_event_data`): every key always present. `venue` is `[]`
 * without one, an object with one, and an array with several; `organizer` is
 * always an array; `website` falls back to the permalink; `json_ld` only on a
 * single GET.
 */
export function legacyEvent(site: Origin & Storage, e: EventPost, opts: LegacyReprOptions = {}): Json {
  const m = e.meta;
  const url = permalink(site, EVENT, e.slug, e.id);
  const gid = globalId(site, e.id);
  const blank = Boolean(opts.hideProtected && e.password);
  const venues = linked<VenueMeta>(site, m.venueIds, VENUE);
  const organizers = linked<OrganizerMeta>(site, m.organizerIds, ORGANIZER);
  const venueData = venues.map((v) => legacyVenue(site, v, opts));
  const data: Json = {
    id: e.id,
    global_id: gid,
    global_id_lineage: [gid],
    author: String(e.author),
    status: e.status,
    date: e.date,
    date_utc: e.dateGmt,
    modified: e.modified,
    modified_utc: e.modifiedGmt,
    url,
    rest_url: legacyRestUrl(site, `events/${e.id}`),
    title: e.title.trim(),
    description: blank ? '' : e.content.trim(),
    excerpt: blank ? '' : e.excerpt.trim(),
    slug: e.slug,
    image: legacyImage(site, e.featuredMedia),
    all_day: m.allDay,
    start_date: m.startDate,
    start_date_details: details(m.startDate),
    end_date: m.endDate,
    end_date_details: details(m.endDate),
    utc_start_date: m.startDateUtc,
    utc_start_date_details: details(m.startDateUtc),
    utc_end_date: m.endDateUtc,
    utc_end_date_details: details(m.endDateUtc),
    timezone: m.timezone,
    timezone_abbr: m.timezone ? abbr(m.startDate, m.timezone) : '',
    cost: formatCost(m),
    cost_details: {
      currency_symbol: m.currencySymbol,
      currency_code: m.currencyCode,
      currency_position: m.currencyPosition,
      values: costValues(m),
    },
    website: m.website || url,
    show_map: m.showMap,
    show_map_link: m.showMapLink,
    hide_from_listings: m.hideFromListings,
    sticky: e.menuOrder === -1,
    featured: m.featured,
    categories: termsOf(site, e.id, CATEGORY_TAX),
    tags: termsOf(site, e.id, 'post_tag'),
    venue: venueData.length === 0 ? [] : venueData.length === 1 ? venueData[0] : venueData,
    organizer: organizers.map((o) => legacyOrganizer(site, o, opts)),
    custom_fields: [],
  };
  if (opts.single) data.json_ld = eventJsonLd(e, url, venues, organizers);
  return data;
}
