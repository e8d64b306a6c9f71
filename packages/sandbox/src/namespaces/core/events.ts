/**
 * `/calendar-core/v1/events` and `/events/<id>` (TEC Endpoints/Events.php and
 * Event.php; spec B1 and "calendar-core/v1 event - fields").
 *
 * B1 maps onto the shared EventCriteria: `start_date` keeps events starting
 * at or after it and `end_date` events ending at or before it, exactly: unlike
 * the legacy list, calendar-core does not widen them to whole days (on a real
 * site `end_date` alone listed 13 events where the legacy list gave 14, and a
 * `+09:00` `start_date` 53 where it gave 54). The `starts_*`/`ends_*`
 * bounds are exact too. There is no default date window.
 *
 * As TEC 6.15 (the `tec` option, the real site's release) the arguments come
 * unchecked: an unparsable date, an unknown `orderby`/`order` or status is
 * ignored, an unknown venue matches nothing, and `categories`/`tags` filter
 * nothing ("73 of 73 events with categories=3", real-site-behaviour.md). As
 * TEC 6.17 they are validated and the terms filter. On every release
 * `ticketed` filters only with Event Tickets active (the `tickets` option,
 * ../tickets.ts); without it the list answers every event.
 *
 * A create needs a title, a start and an end (or a duration): TEC's event
 * repository refuses a postarr without them, and TC answers its 500. An update
 * is partial under 6.17; under 6.15 an omitted `sticky` becomes false, the
 * legacy `show_map`/`show_map_link` true, and `featured: false` is ignored
 * (real-site-behaviour.md "Added 2026-11-25"). One that moves only the end
 * leaves the stored `_EventDuration` as it was (the real site's PUT with only
 * `end_date`), see core-repr.ts.
 *
 * What each release declares is release.ts's: 6.15.14 has none of the list's
 * location, series, relation, recurrence and `virtual` filters, nor `virtual`,
 * `lat`, `lng` on writes. The category field is `tribe_events_cat` on a site
 * serving the plugins' names, `calendar_events_cat` on a spec-named one (names.ts).
 */
import { eventDurationSeconds, eventJson, type DurationMeta } from '../../calendar/core-repr.ts';
import {
  CATEGORY_TAX,
  EVENT,
  ORGANIZER,
  VENUE,
  saveEvent,
  type EventFields,
  type EventPost,
} from '../../calendar/model.ts';
import { findEvents } from '../../calendar/query.ts';
import { isZone } from '../../dates.ts';
import { coreCategoryField } from '../../names.ts';
import type { Settings } from '../../capabilities.ts';
import type { ArgSchema, RestRequest } from '../../rest/types.ts';
import { invalidParams } from '../../rest/validate.ts';
import {
  argumentError,
  dateTimeArg,
  geoArgs,
  idsOf,
  lenientTec,
  linkedIds,
  orderArgs,
  parseDateArg,
  postsExist,
  statusListArg,
  termIds,
  uniqueIds,
} from './args.ts';
import { cannotCreate, type EntityKind } from './entity.ts';
import { geoFilter } from './listing.ts';
import { leaveOccurrenceNotice, takeOccurrenceNotice } from './notices.ts';
import { ticketedFilter } from '../tickets.ts';

const listArgs: Record<string, ArgSchema> = {
  start_date: dateTimeArg('start_date', 'Limit events to those starting after the specified date.'),
  end_date: dateTimeArg('end_date', 'Limit events to those ending before the specified date.'),
  starts_before: dateTimeArg('starts_before', 'Limit result set to events starting before the specified date.'),
  starts_after: dateTimeArg('starts_after', 'Limit result set to events starting after the specified date.'),
  ends_before: dateTimeArg('ends_before', 'Limit result set to events ending before the specified date.'),
  ends_after: dateTimeArg('ends_after', 'Limit result set to events ending after the specified date.'),
  search: { type: 'string', description: 'Limit results to those matching a string.' },
  categories: uniqueIds('Limit result set to events assigned specific categories.'),
  tags: uniqueIds('Limit result set to events assigned specific tags.'),
  // TEC validates these lists with Event_Validator::is_venue_id_list / is_organizer_id_list (a bare false).
  venue: uniqueIds('Limit result set to events assigned to specific venues.', (v, req) =>
    postsExist(req, idsOf(v), VENUE),
  ),
  organizer: uniqueIds('Limit result set to events assigned to specific organizers.', (v, req) =>
    postsExist(req, idsOf(v), ORGANIZER),
  ),
  featured: { type: 'boolean', description: 'Limit result set to featured events only.' },
  status: statusListArg,
  post_parent: { type: 'integer', minimum: 0, description: 'Limit result set to events with specific post parent.' },
  ticketed: { type: 'boolean', description: 'Limit result set to events with tickets.' },
  ...orderArgs,
  ...geoArgs,
  in_series: { type: 'boolean', description: 'Only events that belong (true) or do not belong (false) to a series.' },
  series: uniqueIds('Limit result set to events of these series.'),
  related_to: { type: 'integer', minimum: 1, description: 'Events sharing a category or tag with this event.' },
  recurring: { type: 'boolean', description: 'Only recurring (true) or single (false) events.' },
  virtual: { type: 'boolean', description: 'Only virtual (true) or in-person (false) events.' },
};

function find(req: RestRequest, statuses: string[]): EventPost[] {
  const p = req.params;
  const loc = geoFilter(p);
  if (loc.nowhere) return [];
  // Validated under 6.17; under 6.15 an unparsable date is simply not a bound.
  const date = (name: string) => {
    const parsed = p[name] === undefined ? null : parseDateArg(req, p[name]);
    return parsed === null ? undefined : parsed;
  };
  const ids = (name: string) => (p[name] === undefined ? undefined : (p[name] as number[]));
  const flag = (name: string) => p[name] as boolean | undefined;
  // TEC 6.15 ignores the term filters of this list (real-site-behaviour.md).
  const terms = (name: string) => (lenientTec(req) ? undefined : ids(name));
  const inEnum = <T extends string>(name: string, values: readonly (string | number)[], fallback: T) =>
    (values.includes(p[name] as string) ? p[name] : fallback) as T;
  return findEvents(req.site, {
    statuses,
    startDate: date('start_date'),
    endDate: date('end_date'),
    startsBefore: date('starts_before'),
    startsAfter: date('starts_after'),
    endsBefore: date('ends_before'),
    endsAfter: date('ends_after'),
    search: (p.search as string | undefined) || undefined,
    categories: terms('categories'),
    tags: terms('tags'),
    venues: ids('venue'),
    organizers: ids('organizer'),
    featured: flag('featured'),
    postParent: p.post_parent as number | undefined,
    // Declared on every release, applied only with Event Tickets (the `tickets` option).
    ticketed: ticketedFilter(req.site, flag('ticketed')),
    hasGeoloc: flag('has_geoloc'),
    geo: loc.geo,
    inSeries: flag('in_series'),
    series: ids('series'),
    relatedTo: p.related_to as number | undefined,
    recurring: flag('recurring'),
    virtual: flag('virtual'),
    // Omitted: the declared default, the start date. Unknown (unchecked on 6.15): 6.15.14 falls back
    // to WP_Query's own default, the publication date.
    orderby: p.orderby === undefined ? 'event_date' : inEnum('orderby', orderArgs.orderby!.enum!, 'date'),
    order: inEnum<'ASC' | 'DESC'>('order', orderArgs.order!.enum!, 'ASC'),
  });
}

function bodyArgs(_create: boolean, site: Settings): Record<string, ArgSchema> {
  const category = coreCategoryField(site.options.names);
  return {
    [category]: termIds(category, CATEGORY_TAX, 'The terms assigned to the event in the event category taxonomy.'),
    start_date: dateTimeArg('start_date', 'The start date of the event (YYYY-MM-DD hh:mm:ss), in its time zone.'),
    start_date_utc: dateTimeArg('start_date_utc', 'The start date of the event in UTC.'),
    end_date: dateTimeArg('end_date', 'The end date of the event (YYYY-MM-DD hh:mm:ss), in its time zone.'),
    end_date_utc: dateTimeArg('end_date_utc', 'The end date of the event in UTC.'),
    timezone: {
      type: 'string',
      description: 'The time zone of the event.',
      validate: (v) =>
        isZone(String(v)) ||
        argumentError(
          'timezone',
          'timezone',
          'Parameter `{timezone}` must be a time zone.',
          `Unknown time zone "${String(v)}".`,
        ),
    },
    duration: { type: 'integer', minimum: 0, description: 'The duration of the event in seconds.' },
    all_day: { type: 'boolean', description: 'Whether the event lasts all day.' },
    featured: { type: 'boolean', description: 'Whether the event is featured.' },
    virtual: { type: 'boolean', description: 'Whether the event is virtual.' },
    cost: { type: 'string', description: 'The cost of the event.' },
    organizers: linkedIds('organizers', ORGANIZER, 'organizer', 'The organizers of the event.'),
    venues: linkedIds('venues', VENUE, 'venue', 'The venues of the event.'),
    lat: { type: 'number', minimum: -90, maximum: 90, description: 'The latitude of the event.' },
    lng: { type: 'number', minimum: -180, maximum: 180, description: 'The longitude of the event.' },
  };
}

/** An end before the start is refused as an argument error, so nothing is written. */
function validateBody(req: RestRequest) {
  const p = req.params;
  for (const [s, e, tz] of [
    ['start_date', 'end_date', req.site.timezone],
    ['start_date_utc', 'end_date_utc', 'UTC'],
  ] as const) {
    if (p[s] === undefined || p[e] === undefined) continue;
    if (parseDateArg(req, p[e], tz)! < parseDateArg(req, p[s], tz)!) {
      const err = argumentError(
        e,
        'date_time',
        `Parameter \`{${e}}\` must not be before \`{${s}}\`.`,
        `The event cannot end before it starts.`,
      );
      return invalidParams({ [e]: err.message }, { [e]: err.toBody() });
    }
  }
  return null;
}

/**
 * Whether an update resets what it omits and ignores `featured: false`: TEC
 * 6.15.14's calendar-core event update did (real-site-behaviour.md, "Added
 * 2026-11-25"); 6.17 is partial.
 */
function resetsOmitted(req: RestRequest): boolean {
  return req.site.options.tec === '6.15';
}

function save(req: RestRequest, current: EventPost | null, common: EventFields): EventPost {
  const p = req.params;
  const tz = (p.timezone as string | undefined) ?? current?.meta.timezone ?? req.site.timezone;
  const sent = (name: string) => p[name] !== undefined;
  const f: EventFields = { ...common, timezone: tz };
  if (p.start_date !== undefined) f.startDate = parseDateArg(req, p.start_date, tz)!;
  if (p.end_date !== undefined) f.endDate = parseDateArg(req, p.end_date, tz)!;
  if (p.start_date_utc !== undefined) f.startDateUtc = parseDateArg(req, p.start_date_utc, 'UTC')!;
  if (p.end_date_utc !== undefined) f.endDateUtc = parseDateArg(req, p.end_date_utc, 'UTC')!;
  if (p.duration !== undefined) f.duration = p.duration as number;
  if (p.all_day !== undefined) f.allDay = p.all_day as boolean;
  // TEC 6.15.14's update ignores `featured: false` (200, and the event stays featured); `true` is applied.
  const ignored = current !== null && resetsOmitted(req) && p.featured === false;
  if (p.featured !== undefined && !ignored) f.featured = p.featured as boolean;
  if (p.virtual !== undefined) f.virtual = p.virtual as boolean;
  if (p.cost !== undefined) f.cost = p.cost as string;
  if (p.organizers !== undefined) f.organizerIds = p.organizers as number[];
  if (p.venues !== undefined) f.venueIds = p.venues as number[];
  if (p.lat !== undefined) f.lat = p.lat as number;
  if (p.lng !== undefined) f.lng = p.lng as number;
  const category = coreCategoryField(req.site.options.names);
  if (p[category] !== undefined) f.categoryIds = p[category] as number[];
  // TEC 6.15.14's update is not fully partial: an omitted `sticky` becomes false, and the legacy
  // `show_map`/`show_map_link`, not fields of this interface, go back to their default, true.
  if (current && resetsOmitted(req)) {
    f.sticky ??= false;
    f.showMap = true;
    f.showMapLink = true;
  }
  if (p.tags !== undefined) f.tagIds = p.tags as number[];
  // TEC's repository refuses an event without its dates; TC answers its 500 (calendar-upstream.md §2
  // "Create", real-site-behaviour.md "Errors in other shapes").
  const hasStart = f.startDate !== undefined || f.startDateUtc !== undefined;
  const hasEnd = f.endDate !== undefined || f.endDateUtc !== undefined || f.duration !== undefined;
  if (!current && !(hasStart && hasEnd)) throw cannotCreate();
  // Only the end moved: TEC updates the end meta and leaves _EventDuration as stored (real-site-behaviour.md
  // "A PUT with only end_date moves the end but leaves duration at its old value").
  const endOnly =
    current &&
    (sent('end_date') || sent('end_date_utc')) &&
    !sent('start_date') &&
    !sent('start_date_utc') &&
    !sent('duration');
  const staleSeconds = endOnly ? eventDurationSeconds(current.meta) : null;
  return req.site.store.transaction(() => {
    const saved = saveEvent(req.site, current?.id ?? null, f);
    if (staleSeconds === null) return saved;
    const m = saved.meta;
    const stored: DurationMeta = { seconds: staleSeconds, startDateUtc: m.startDateUtc, endDateUtc: m.endDateUtc };
    return req.site.store.updatePost<EventPost['meta'] & { storedDuration: DurationMeta }>(saved.id, {
      meta: { storedDuration: stored },
    }) as EventPost;
  });
}

export const eventsKind: EntityKind<EventPost> = {
  segment: 'events',
  type: EVENT,
  label: 'Event',
  listArgs,
  find,
  toJson: eventJson,
  bodyArgs,
  validateBody,
  save,
  afterUpdate: (req, post) => {
    if (post.meta.seriesId > 0) leaveOccurrenceNotice(req.site, post.id);
  },
  afterDelete: (req, id) => {
    takeOccurrenceNotice(req.site, id);
  },
};
