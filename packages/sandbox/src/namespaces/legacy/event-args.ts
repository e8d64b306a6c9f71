/**
 * Arguments of the legacy event routes: the archive query (spec A1, TEC
 * `Archive_Event::READ_args`) and the event fields (spec "Legacy event",
 * `Single_Event::CREATE_args`).
 */
import { DateTime } from 'luxon';
import { SQL, zoneOf } from '../../dates.ts';
import { CATEGORY_TAX, EVENT, ORGANIZER, TAG_TAX, VENUE } from '../../calendar/model.ts';
import type { ArgSchema, RestRequest } from '../../rest/types.ts';
import { checkParams, isIntegerLike, parseList } from '../../rest/validate.ts';
import type { Clock } from '../../capabilities.ts';
import { supportsTicketed } from '../tickets.ts';
import { organizerWriteArgs, pageArgs, statusArg, venueWriteArgs, type Args } from './args.ts';
import {
  isEmptyRef,
  isImage,
  isNumber,
  isPlainObject,
  isPositiveIntList,
  isPostOfType,
  isPostStatus,
  isString,
  isTime,
  isTimezone,
  isUrl,
  isUserId,
  postIdList,
  termRefIds,
  termRefList,
  toIntList,
} from './validators.ts';

/**
 * The default `start_date`: `localize_date('Y-m-d H:i:s', 'yesterday 23:59')`,
 * i.e. 23:59 of yesterday in UTC, written in site time (calendar-upstream.md §1.2).
 */
export function defaultStartDate(site: Clock): string {
  return DateTime.fromJSDate(site.now(), { zone: 'utc' })
    .minus({ days: 1 })
    .set({ hour: 23, minute: 59, second: 0, millisecond: 0 })
    .setZone(zoneOf(site.timezone))
    .toFormat(SQL);
}

/** The default `end_date`: `date('Y-m-d H:i:s', strtotime('+24 months'))`, UTC and not localised. */
export function defaultEndDate(site: Clock): string {
  return DateTime.fromJSDate(site.now(), { zone: 'utc' }).plus({ months: 24 }).toFormat(SQL);
}

/** A number; one alone is accepted (5.7.1 and 6.15.14 answer 200 for `geoloc_lat` without `geoloc_lng`). */
function coordinate(description: string): ArgSchema {
  return { description, validate: (v) => isNumber(v) };
}

export function eventArchiveArgs(site: Clock): Args {
  return {
    ...pageArgs('events'),
    // The date defaults move with the clock, like TEC's, which computes them per request.
    start_date: {
      get default() {
        return defaultStartDate(site);
      },
      description: 'Events that start on the specified date',
      validate: isTime,
    },
    end_date: {
      get default() {
        return defaultEndDate(site);
      },
      description: 'Events that end on the specified date',
      validate: isTime,
    },
    starts_before: { description: 'Events that start before the specified date', validate: isTime },
    starts_after: { description: 'Events that start after the specified date', validate: isTime },
    ends_before: { description: 'Events that end before the specified date', validate: isTime },
    ends_after: { description: 'Events that end after the specified date', validate: isTime },
    strict_dates: {
      default: 'false',
      description:
        'Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.',
      validate: isString,
    },
    search: {
      type: 'string',
      description: 'Events should contain the specified string in the title or description',
      validate: isString,
    },
    categories: {
      description: 'Events should be assigned one of the specified categories slugs or IDs',
      items: { type: 'integer' },
      validate: termRefList(CATEGORY_TAX),
      sanitize: termRefIds(CATEGORY_TAX),
    },
    tags: {
      description: 'Events should be assigned one of the specified tags slugs or IDs',
      items: { type: 'integer' },
      validate: termRefList(TAG_TAX),
      sanitize: termRefIds(TAG_TAX),
    },
    venue: {
      description: 'Events should be assigned one of the specified venue IDs',
      items: { type: 'integer' },
      validate: postIdList(VENUE),
      sanitize: toIntList,
    },
    organizer: {
      description: 'Events should be assigned one of the specified organizer IDs',
      items: { type: 'integer' },
      validate: postIdList(ORGANIZER),
      sanitize: toIntList,
    },
    featured: { type: 'boolean', description: 'Events should be filtered by their featured status' },
    status: statusArg('event'),
    geoloc: {
      type: 'boolean',
      description:
        'Requires Events Calendar Pro. Events should be filtered by whether their venue has geolocation data',
    },
    geoloc_lat: coordinate(
      'Requires Events Calendar Pro. Events should be filtered by their venue latitude location, must also provide geoloc_lng',
    ),
    geoloc_lng: coordinate(
      'Requires Events Calendar Pro. Events should be filtered by their venue longitude location, must also provide geoloc_lat',
    ),
    include: {
      description:
        'Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.',
      items: { type: 'integer' },
      validate: isPositiveIntList,
      sanitize: toIntList,
    },
    // The contract says rest-invalid-event-id; 5.7.1 and 6.15.14 refuse a parent that is no event (0,
    // a venue, a missing ID) in validation: 400 rest_invalid_param naming post_parent.
    post_parent: {
      type: 'integer',
      description: 'Events should be filtered by their post_parent being the specified one.',
      validate: (v, req: RestRequest) => isNumber(v) && req.site.store.post(Number(v))?.type === EVENT,
    },
    // TEC's `supports_ticketed`: `ticketed=1` needs Event Tickets (the `tickets` option).
    ticketed: { type: 'boolean', description: 'Filter events with or without tickets.', validate: supportsTicketed },
  };
}

/** Whether `data` passes the create arguments of a venue or organizer (`has_valid_params`). */
function validLinkedData(data: Record<string, unknown>, args: Args, req: RestRequest): boolean {
  try {
    checkParams({ ...data }, args, req);
    return true;
  } catch {
    return false;
  }
}

/**
 * `is_venue_id_or_entry_or_empty`: a venue ID, `{id}`, or the data of a new
 * venue that passes the venue create arguments. An `{id}` of the wrong type
 * gets through here and is refused when linking, with `invalid-linked-post-id`
 * (calendar-upstream.md §1.6).
 */
function venueRef(v: unknown, req: RestRequest): boolean {
  if (isEmptyRef(v)) return true;
  if (isPlainObject(v))
    return v.id !== undefined && v.id !== '' ? isIntegerLike(v.id) : validLinkedData(v, venueWriteArgs(), req);
  return isPostOfType(req.site, v, VENUE);
}

/** `is_organizer_id_or_entry_or_empty`: a CSV of organizer IDs, or a list of IDs, `{id}` and new-organizer data. */
function organizerRefs(v: unknown, req: RestRequest): boolean {
  if (isEmptyRef(v)) return true;
  if (!Array.isArray(v)) return !isPlainObject(v) && parseList(v).every((id) => isPostOfType(req.site, id, ORGANIZER));
  return v.every((entry) => {
    if (isPlainObject(entry)) {
      return entry.id !== undefined && entry.id !== ''
        ? isIntegerLike(entry.id)
        : validLinkedData(entry, organizerWriteArgs(), req);
    }
    return isPostOfType(req.site, entry, ORGANIZER);
  });
}

/** Terms on write: IDs or names (unknown names are created). */
function termInput(v: unknown): boolean {
  const list = parseList(v);
  return list.every(
    (t) => (typeof t === 'string' && t.trim() !== '') || (typeof t === 'number' && Number.isInteger(t)),
  );
}

/** `Single_Event::CREATE_args`, plus `categories`/`tags` from the spec. */
export function eventWriteArgs(): Args {
  return {
    author: { type: 'integer', description: 'The event author ID', validate: isUserId },
    date: { type: 'string', description: 'The event publication date', validate: isTime },
    date_utc: { type: 'string', description: 'The event publication date (UTC timezone)', validate: isTime },
    title: { type: 'string', required: true, description: 'The event title', validate: isString },
    description: { type: 'string', description: 'The event description', validate: isString },
    slug: { type: 'string', description: 'The event slug', validate: isString },
    excerpt: { type: 'string', description: 'The event excerpt', validate: isString },
    status: { type: 'string', description: 'The event post status', validate: isPostStatus },
    timezone: { type: 'string', description: 'The event timezone', validate: isTimezone },
    all_day: { type: 'boolean', default: false, description: 'Whether the event lasts the whole day or not' },
    start_date: { type: 'string', required: true, description: 'The event start date and time', validate: isTime },
    end_date: { type: 'string', required: true, description: 'The event end date and time', validate: isTime },
    image: { description: 'The event featured image ID or URL', validate: isImage },
    cost: { description: 'The event cost', validate: (v) => typeof v === 'string' || typeof v === 'number' },
    website: { description: 'The event website URL', validate: isUrl },
    show_map: { type: 'boolean', description: 'Whether the event should show a map or not' },
    show_map_link: { type: 'boolean', description: 'Whether the event should show a map link or not' },
    hide_from_listings: { type: 'boolean', description: 'Whether events should be hidden in the calendar view or not' },
    sticky: { type: 'boolean', description: 'Whether the event should be sticky in the calendar view or not' },
    featured: { type: 'boolean', description: 'Whether the event should be featured on the site or not' },
    categories: { description: 'The event category IDs or names', items: { type: 'integer' }, validate: termInput },
    tags: { description: 'The event tag IDs or names', items: { type: 'integer' }, validate: termInput },
    venue: { description: 'The event venue ID or data', items: { type: 'integer' }, validate: venueRef },
    organizer: { description: 'The event organizer IDs or data', items: { type: 'integer' }, validate: organizerRefs },
  };
}

/** `password` on routes that address an event by ID or slug. */
export const passwordArg: ArgSchema = { type: 'string', description: 'The event password' };
