/**
 * Applying one batch of Event Aggregator items to the site (TEC
 * `Record__Abstract::insert_posts`, `Aggregator__Event::translate_service_data`),
 * reduced to what the sandbox models: events (created, or updated when their
 * `global_id` was imported before), their venue and organizers (found by name
 * or created), categories and tags (found by name or created) and the
 * featured image (an attachment for the URL). Everything goes through the
 * calendar model, so imported events reach both calendar interfaces and the
 * automation queues like any other.
 *
 * The record's activity lists the IDs per post type or taxonomy and action
 * (`Record/Activity.php`): `created`, `updated`, `skipped`, `scheduled`.
 */
import {
  CATEGORY_TAX,
  EVENT,
  ORGANIZER,
  TAG_TAX,
  VENUE,
  saveEvent,
  saveOrganizer,
  saveVenue,
  slugify,
  type EventFields,
  type VenueMeta,
} from '../../calendar/model.ts';
import { isZone } from '../../dates.ts';
import { parseList } from '../../rest/validate.ts';
import type { Site, Storage } from '../../capabilities.ts';
import type { PostRow } from '../../store/db.ts';
import { parseCost } from '../legacy/event-input.ts';
import { imageIdFor } from '../legacy/image-input.ts';
import { isTruthy } from '../legacy/place-input.ts';
import { uniqueTermSlug } from '../legacy/term-input.ts';

/** The activity slugs, in `Activity::__wakeup` order, with the sandbox's post type and taxonomy names. */
export const ACTIVITY_SLUGS = [EVENT, ORGANIZER, VENUE, CATEGORY_TAX, TAG_TAX, 'attachment'] as const;
export type ActivitySlug = (typeof ACTIVITY_SLUGS)[number];
const ACTIONS = ['created', 'updated', 'skipped', 'scheduled'] as const;
export type Activity = Record<ActivitySlug, Record<(typeof ACTIONS)[number], number[]>>;

export function emptyActivity(): Activity {
  // Filled below for every slug, so the partial start is whole when returned.
  const activity: Partial<Activity> = {};
  for (const s of ACTIVITY_SLUGS) activity[s] = { created: [], updated: [], skipped: [], scheduled: [] };
  return activity as Activity;
}

/** `Activity::merge`: union of the IDs per slug and action, keeping first-seen order. */
export function mergeActivity(into: Activity, more: Activity): Activity {
  const out = emptyActivity();
  for (const slug of ACTIVITY_SLUGS) {
    for (const action of ACTIONS)
      out[slug][action] = [...new Set([...(into[slug]?.[action] ?? []), ...(more[slug]?.[action] ?? [])])];
  }
  return out;
}

/** Where imported events are remembered by the service's `global_id` (post meta on a real site). */
const GLOBAL_IDS_OPTION = 'tribe_aggregator_global_ids';

type Item = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/**
 * An EA date and its optional `*_hour`, `*_minute` and `*_meridian` parts
 * (`2026-12-01` + `7` + `30` + `pm`, or `2026-12-01 19:30:00` at once) as a
 * local `Y-m-d H:i:s`; null when unusable.
 */
export function eaDateTime(item: Item, prefix: 'start' | 'end'): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(str(item[`${prefix}_date`]));
  if (!m) return null;
  let hour = Number(m[2] ?? (str(item[`${prefix}_hour`]) || 0));
  const minute = Number(m[3] ?? (str(item[`${prefix}_minute`]) || 0));
  const meridian = str(item[`${prefix}_meridian`]).toLowerCase();
  if (meridian === 'pm' && hour < 12) hour += 12;
  if (meridian === 'am' && hour === 12) hour = 0;
  if (!Number.isInteger(hour) || !Number.isInteger(minute) || hour > 23 || minute > 59 || hour < 0 || minute < 0)
    return null;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${m[1]} ${p(hour)}:${p(minute)}:${m[4] ?? '00'}`;
}

interface ImportContext {
  site: Site;
  activity: Activity;
  /** Status and author of created posts: the record's `post_status` and owner. */
  status: string;
  author: number;
}

function termIds(ctx: ImportContext, taxonomy: typeof CATEGORY_TAX | typeof TAG_TAX, value: unknown): number[] {
  const { store } = ctx.site;
  const ids: number[] = [];
  for (const raw of parseList(value)) {
    const name = str(raw);
    if (!name) continue;
    const found = store.termByName(taxonomy, name) ?? store.termBySlug(taxonomy, slugify(name));
    if (found) ids.push(found.id);
    else {
      const term = store.insertTerm({
        taxonomy,
        name,
        slug: uniqueTermSlug(ctx.site, taxonomy, slugify(name)),
        description: '',
        parent: 0,
      });
      ctx.activity[taxonomy].created.push(term.id);
      ids.push(term.id);
    }
  }
  return [...new Set(ids)];
}

function venueId(ctx: ImportContext, v: unknown): number | null {
  if (typeof v !== 'object' || v === null) return null;
  const data = v as Item;
  const name = str(data.venue);
  if (!name) return null;
  const existing = ctx.site.store.posts<VenueMeta>(VENUE).find((p) => p.title === name && p.status !== 'trash');
  if (existing) return existing.id;
  const lat = Number(data.latitude);
  const lng = Number(data.longitude);
  const hasGeo =
    str(data.latitude) !== '' && str(data.longitude) !== '' && Number.isFinite(lat) && Number.isFinite(lng);
  const venue = saveVenue(ctx.site, null, {
    title: name,
    status: 'publish',
    author: ctx.author,
    content: str(data.description),
    address: str(data.address),
    city: str(data.city),
    country: str(data.country),
    zip: str(data.zip),
    phone: str(data.phone),
    state: str(data.state),
    province: str(data.province),
    stateprovince: str(data.stateprovince) || str(data.state) || str(data.province),
    website: str(data.website),
    lat: hasGeo ? lat : null,
    lng: hasGeo ? lng : null,
  });
  ctx.activity[VENUE].created.push(venue.id);
  return venue.id;
}

function organizerIds(ctx: ImportContext, o: unknown): number[] {
  const list = Array.isArray(o) ? o : typeof o === 'object' && o !== null ? [o] : [];
  const ids: number[] = [];
  for (const entry of list) {
    if (typeof entry !== 'object' || entry === null) continue;
    const data = entry as Item;
    const name = str(data.organizer);
    if (!name) continue;
    const existing = ctx.site.store.posts(ORGANIZER).find((p) => p.title === name && p.status !== 'trash');
    if (existing) {
      ids.push(existing.id);
      continue;
    }
    const created = saveOrganizer(ctx.site, null, {
      title: name,
      status: 'publish',
      author: ctx.author,
      content: str(data.description),
      phone: str(data.phone),
      email: str(data.email),
      website: str(data.website),
    });
    ctx.activity[ORGANIZER].created.push(created.id);
    ids.push(created.id);
  }
  return ids;
}

/** Event fields of one item; null when it has no title or no usable start. */
function eventFields(ctx: ImportContext, item: Item): EventFields | null {
  const title = str(item.title);
  const start = eaDateTime(item, 'start');
  if (!title || !start) return null;
  const end = eaDateTime(item, 'end');
  const tz = str(item.timezone);
  const f: EventFields = {
    title,
    content: str(item.description),
    excerpt: str(item.excerpt),
    timezone: tz && isZone(tz) ? tz : ctx.site.timezone,
    allDay: item.all_day !== undefined && isTruthy(item.all_day),
    startDate: start,
    endDate: end && end >= start ? end : start,
  };
  if (item.url !== undefined) f.website = str(item.url);
  if (item.cost !== undefined && str(item.cost) !== '') Object.assign(f, parseCost(str(item.cost)));
  if (str(item.currency_symbol)) f.currencySymbol = str(item.currency_symbol);
  if (['prefix', 'suffix'].includes(str(item.currency_position)))
    f.currencyPosition = str(item.currency_position) as 'prefix' | 'suffix';
  const flags: [string, 'featured' | 'hideFromListings' | 'showMap' | 'showMapLink' | 'sticky'][] = [
    ['featured', 'featured'],
    ['hide_from_listings', 'hideFromListings'],
    ['show_map', 'showMap'],
    ['show_map_link', 'showMapLink'],
    ['sticky', 'sticky'],
  ];
  for (const [key, field] of flags) if (item[key] !== undefined) f[field] = isTruthy(item[key]);
  return f;
}

function attachmentCount(site: Storage): number {
  return (site.store.db.prepare("SELECT COUNT(*) AS n FROM posts WHERE type = 'attachment'").get() as { n: number }).n;
}

/**
 * Inserts or updates the batch's items and returns the batch's activity.
 * Items without a title or start date are left out; an event imported before
 * and since trashed is skipped (TEC does not resurrect deleted imports).
 */
export function insertPosts(site: Site, record: PostRow<{ post_status?: string }>, items: unknown[]): Activity {
  const ctx: ImportContext = {
    site,
    activity: emptyActivity(),
    status: record.meta.post_status || 'publish',
    author: record.author,
  };
  const known = site.store.option<Record<string, number>>(GLOBAL_IDS_OPTION, {});
  site.store.transaction(() => {
    for (const raw of items) {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) continue;
      const item = raw as Item;
      const fields = eventFields(ctx, item);
      if (!fields) continue;
      const gid = str(item.global_id);
      const existing = gid && known[gid] ? site.store.post(known[gid]!) : undefined;
      if (existing && existing.type === EVENT && existing.status === 'trash') {
        ctx.activity[EVENT].skipped.push(existing.id);
        continue;
      }
      const venue = item.venue !== undefined ? venueId(ctx, item.venue) : null;
      const organizers = item.organizer !== undefined ? organizerIds(ctx, item.organizer) : null;
      if (venue !== null) fields.venueIds = [venue];
      if (organizers !== null) fields.organizerIds = organizers;
      if (item.categories !== undefined) fields.categoryIds = termIds(ctx, CATEGORY_TAX, item.categories);
      if (item.tags !== undefined) fields.tagIds = termIds(ctx, TAG_TAX, item.tags);
      const image = str(item.image);
      if (/^https?:\/\//i.test(image)) {
        // imageIdFor reuses the attachment of a known URL and records a new one otherwise.
        const before = attachmentCount(site);
        fields.featuredMedia = imageIdFor(site, image, ctx.author);
        if (attachmentCount(site) > before) ctx.activity.attachment.created.push(fields.featuredMedia);
      }
      if (existing && existing.type === EVENT) {
        saveEvent(site, existing.id, fields);
        ctx.activity[EVENT].updated.push(existing.id);
      } else {
        const created = saveEvent(site, null, { ...fields, status: ctx.status, author: ctx.author });
        ctx.activity[EVENT].created.push(created.id);
        if (gid) known[gid] = created.id;
      }
    }
    site.store.setOption(GLOBAL_IDS_OPTION, known);
  });
  return ctx.activity;
}
