/**
 * Legacy event input (`Single_Event::prepare_postarr`) mapped onto the shared
 * model. Everything that can fail is checked before anything is written —
 * linked venues and organizers included — and the writes (new venues,
 * organizers, terms, attachments, the event) run in one transaction, so a bad
 * request never leaves a partial record behind.
 */
import { nowIn, nowUtc, parseLooseDate } from '../../dates.ts';
import {
  CATEGORY_TAX,
  ORGANIZER,
  TAG_TAX,
  VENUE,
  saveEvent,
  type EventFields,
  type EventPost,
  type EventMeta,
} from '../../calendar/model.ts';
import { RestError } from '../../errors.ts';
import type { RestRequest } from '../../rest/types.ts';
import { checkParams, parseList } from '../../rest/validate.ts';
import { organizerWriteArgs, venueWriteArgs } from './args.ts';
import { imageIdFor } from './image-input.ts';
import { legacyPostFields, placeInput, writePlace, type PlaceInput, type PlaceKind } from './place-input.ts';
import { termIdsFor } from './term-input.ts';
import { isEmptyRef, isPlainObject } from './validators.ts';

/** A linked venue or organizer: an existing one, or one to create. */
type LinkedRef = { id: number } | { create: PlaceInput };

/** `Linked_Post_Base::insert`, minus the write: resolves one entry or throws the error TEC sends. */
function linkedRef(req: RestRequest, kind: PlaceKind, entry: unknown): LinkedRef {
  const type = kind === 'venue' ? VENUE : ORGANIZER;
  if (!isPlainObject(entry)) return { id: Number(entry) };
  if (entry.id !== undefined && entry.id !== '') {
    const post = req.site.store.post(Number(entry.id));
    if (!post || post.type !== type)
      throw new RestError('invalid-linked-post-id', 'The provided linked post ID is not valid', 400);
    return { id: post.id };
  }
  const params = checkParams({ ...entry }, kind === 'venue' ? venueWriteArgs() : organizerWriteArgs(), req);
  return { create: placeInput(kind, req, params, true) };
}

function linkedRefs(req: RestRequest, kind: PlaceKind, value: unknown): LinkedRef[] | null {
  if (isEmptyRef(value)) return null;
  // One venue per event (`venue` takes one entry); organizers come as a list or a CSV of IDs.
  if (kind === 'venue') return [linkedRef(req, kind, value)];
  return (Array.isArray(value) ? value : parseList(value)).map((entry) => linkedRef(req, kind, entry));
}

function link(req: RestRequest, kind: PlaceKind, ref: LinkedRef): number {
  return 'id' in ref ? ref.id : writePlace(kind, req, null, ref.create).id;
}

const CURRENCY_CODES: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY' };

/**
 * `cost` with its currency (`Cost_Utils::parse_currency_symbol/position`): a
 * symbol before the amount is a prefix ("$10"), after it a suffix ("10 €").
 */
export function parseCost(
  value: unknown,
): Pick<EventFields, 'cost' | 'currencySymbol' | 'currencyPosition' | 'currencyCode'> {
  const s = String(value).trim();
  const prefix = /^([^\p{L}\p{N}\s.,-]+)\s*/u.exec(s)?.[1];
  const suffix = prefix ? undefined : /\s*([^\p{L}\p{N}\s.,-]+)$/u.exec(s)?.[1];
  const symbol = prefix ?? suffix;
  if (!symbol) return { cost: s };
  const code = CURRENCY_CODES[symbol];
  return {
    cost: s.split(symbol).join('').replace(/\s+/g, ' ').trim(),
    currencySymbol: symbol,
    currencyPosition: prefix ? 'prefix' : 'suffix',
    ...(code ? { currencyCode: code } : {}),
  };
}

/** The event's own fields (no linked posts, terms or image: those need writes). */
function eventFields(req: RestRequest, current: EventPost | null): EventFields {
  const { site } = req;
  const p = req.params;
  const given = (k: string) => req.sent.has(k) && p[k] !== null && p[k] !== undefined;
  const f: EventFields = legacyPostFields(req, p, current === null);
  if (given('title')) f.title = String(p.title);
  if (given('slug')) f.slug = String(p.slug);
  if (given('excerpt')) f.excerpt = String(p.excerpt);
  // An omitted time zone is the site's, on update too: the update rebuilds the
  // event's calendar data from the request (real-site-behaviour.md, "Legacy update ... is not a partial update").
  f.timezone = given('timezone') ? String(p.timezone) : site.timezone;
  const now = site.now();
  // The dates go together: one without the other is ignored (same table). A create requires both.
  if (given('start_date') && given('end_date')) {
    f.startDate = parseLooseDate(p.start_date, f.timezone, now)!;
    f.endDate = parseLooseDate(p.end_date, f.timezone, now)!;
  }
  // An end before the start is moved to the start (Tribe__Events__API date checks).
  const start = f.startDate ?? current?.meta.startDate;
  const end = f.endDate ?? current?.meta.endDate;
  if (start && end && end < start) f.endDate = start;
  if (given('all_day')) f.allDay = Boolean(p.all_day);
  // Omitted on update, cost, website and featured are reset, not kept (the
  // website then falls back to the permalink, calendar-upstream.md §1.3).
  if (given('cost')) Object.assign(f, parseCost(p.cost));
  else if (current) f.cost = '';
  if (given('website')) f.website = String(p.website);
  else if (current) f.website = '';
  // The presentation flags are read with tribe_is_truthy on every write (`Single_Event::prepare_postarr`):
  // omitted on update, each is false (real-site-behaviour.md, "Added 2026-11-25": `featured` false,
  // `show_map` false, ...).
  const flags: [string, keyof EventMeta | 'sticky'][] = [
    ['show_map', 'showMap'],
    ['show_map_link', 'showMapLink'],
    ['hide_from_listings', 'hideFromListings'],
    ['sticky', 'sticky'],
    ['featured', 'featured'],
  ];
  for (const [arg, key] of flags) {
    if (given(arg)) (f as Record<string, unknown>)[key] = Boolean(p[arg]);
    else if (current) (f as Record<string, unknown>)[key] = false;
  }
  // The update also moves an omitted publication date to the time of the request (same section).
  if (current && !given('date') && !given('date_utc')) {
    f.date = nowIn(now, site.timezone);
    f.dateGmt = nowUtc(now);
  }
  return f;
}

/**
 * Checks everything a create or update needs and returns the write to run.
 * Throws (writing nothing) on a bad linked post.
 */
export function planEventWrite(req: RestRequest, current: EventPost | null): () => EventPost {
  const { site } = req;
  const p = req.params;
  const given = (k: string) => req.sent.has(k) && p[k] !== null && p[k] !== undefined;
  const venues = given('venue') ? linkedRefs(req, 'venue', p.venue) : null;
  const organizers = given('organizer') ? linkedRefs(req, 'organizer', p.organizer) : null;
  const fields = eventFields(req, current);
  return () =>
    site.store.transaction(() => {
      if (venues) fields.venueIds = venues.map((ref) => link(req, 'venue', ref));
      if (organizers) fields.organizerIds = organizers.map((ref) => link(req, 'organizer', ref));
      // Organizers are rebuilt from the request on update (omitted: none); the venue is kept (real-site-behaviour.md).
      else if (current) fields.organizerIds = [];
      if (given('categories')) fields.categoryIds = termIdsFor(site, CATEGORY_TAX, p.categories);
      if (given('tags')) fields.tagIds = termIdsFor(site, TAG_TAX, p.tags);
      if (given('image')) fields.featuredMedia = imageIdFor(site, p.image, req.user?.id ?? 0);
      return saveEvent(site, current?.id ?? null, fields);
    });
}
