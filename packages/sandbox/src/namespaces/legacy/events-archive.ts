/**
 * `GET /calendar/events/v1/events` (spec A1; calendar-upstream.md §1.1–§1.2;
 * TEC `Archive_Event::get`). The query vars become shared EventCriteria; the
 * filtering itself is calendar/query.ts's.
 */
import { endOfDay, nowIn, parseLooseDate, parseSql, startOfDay, toSql, zoneOf } from '../../dates.ts';
import { legacyEvent, legacyRestUrl } from '../../calendar/legacy-repr.ts';
import { findEvents, paginate, type EventCriteria } from '../../calendar/query.ts';
import type { RestRequest, RestResult } from '../../rest/types.ts';
import type { QueryValue } from './add-query-arg.ts';
import { currentRestUrl, postArchive } from './archive.ts';
import { defaultEndDate, defaultStartDate } from './event-args.ts';
import { ANY_STATUSES, isEditor } from './post-status.ts';
import { ticketedFilter } from '../tickets.ts';

const DATE_ARGS = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;
type DateArg = (typeof DATE_ARGS)[number];

/** `FILTER_VALIDATE_BOOLEAN`: "1", "true", "on", "yes" are true. */
function filterBoolean(v: unknown): boolean {
  return ['1', 'true', 'on', 'yes'].includes(String(v).trim().toLowerCase());
}

/**
 * A strict bound as 6.15.14 takes it: read as UTC and moved into the site's zone (its `rest_url`
 * echoes `ends_after=2026-12-02 11:00:00` for `10:00:00` in Europe/Paris). A bound the move pushes
 * past the year 9999 is no date to PHP, and the list silently bounds at "now" instead
 * (`strict_dates=1&end_date=9999-12-31 23:59:59` east of UTC). Both seen on the real plugin.
 */
function strictBound(local: string, tz: string, now: Date): string {
  const moved = parseSql(local, 'utc').setZone(zoneOf(tz));
  return moved.year > 9999 ? nowIn(now, tz) : toSql(moved);
}

/**
 * The date bounds in effect. Without `strict_dates` they widen to whole days:
 * `start_date` to the start of its day, every other bound to the end of its
 * day. Given `starts_*`/`ends_*`, the defaulted `start_date`/`end_date` drop out.
 */
function dateBounds(req: RestRequest): Partial<Record<DateArg, string>> {
  const { site } = req;
  const p = req.params;
  const strict = filterBoolean(p.strict_dates);
  const now = site.now();
  const out: Partial<Record<DateArg, string>> = {};
  for (const name of DATE_ARGS) {
    if (p[name] === undefined || p[name] === null) continue;
    const local = parseLooseDate(p[name], site.timezone, now)!;
    out[name] = strict
      ? strictBound(local, site.timezone, now)
      : name === 'start_date'
        ? startOfDay(local)
        : endOfDay(local);
  }
  if (DATE_ARGS.slice(2).some((n) => req.sent.has(n))) {
    if (!req.sent.has('start_date')) delete out.start_date;
    if (!req.sent.has('end_date')) delete out.end_date;
  }
  return out;
}

/**
 * With `include`, the given `start_date`/`end_date` are ignored and the raw
 * defaults apply, not widened to whole days: "UTC yesterday 23:59" in site
 * time to exactly now + 24 months (real-site-behaviour.md, "`include=` forces
 * the default window"; its sample shows `start_date=… 23:59:00&end_date=…
 * 19:09:38`). So `include` cannot reach events that ended before yesterday or
 * start more than 24 months out. Other date bounds apply as given.
 */
function includeWindow(req: RestRequest): Partial<Record<DateArg, string>> {
  return { ...dateBounds(req), start_date: defaultStartDate(req.site), end_date: defaultEndDate(req.site) };
}

export function eventArchive(req: RestRequest): RestResult {
  const { site } = req;
  const p = req.params;
  const sent = (k: string) => req.sent.has(k) && p[k] !== undefined && p[k] !== null;

  const include = sent('include') ? (p.include as number[]) : undefined;
  const dates = include ? includeWindow(req) : dateBounds(req);

  const editor = isEditor(req.user);
  const statusArg: QueryValue = sent('status') ? (p.status as string[]) : editor ? 'any' : 'publish';
  const statuses = sent('status') ? (p.status as string[]) : editor ? ANY_STATUSES : ['publish'];

  // geoloc, geoloc_lat and geoloc_lng are Events Calendar Pro's to apply ("Requires Events Calendar
  // Pro.", their descriptions say); this site has no Pro, so they filter nothing, as on 5.7.1 and
  // 6.15.14 without it. Only the echo in rest_url shows them: with geoloc, both coordinates, empty
  // when not given.
  const geoloc = filterBoolean(p.geoloc);
  const criteria: EventCriteria = {
    statuses,
    include,
    startDate: dates.start_date,
    endDate: dates.end_date,
    startsBefore: dates.starts_before,
    startsAfter: dates.starts_after,
    endsBefore: dates.ends_before,
    endsAfter: dates.ends_after,
    search: sent('search') && p.search !== '' ? String(p.search) : undefined,
    categories: sent('categories') ? (p.categories as number[]) : undefined,
    tags: sent('tags') ? (p.tags as number[]) : undefined,
    venues: sent('venue') ? (p.venue as number[]) : undefined,
    organizers: sent('organizer') ? (p.organizer as number[]) : undefined,
    featured: sent('featured') ? Boolean(p.featured) : undefined,
    postParent: sent('post_parent') ? Number(p.post_parent) : undefined,
    // Without Event Tickets only `ticketed=0` gets here (its validator refuses 1), and the query drops it.
    ticketed: ticketedFilter(site, sent('ticketed') ? Boolean(p.ticketed) : undefined),
    // Hidden events stay out of listings unless asked for by ID.
    hideHidden: !include,
    // With `include`, TEC orders by publication date (`orderby => [date, ID]`).
    orderby: include ? 'date' : 'event_date',
  };

  const page = Number(p.page);
  const perPage = Number(p.per_page);
  const { items, total, totalPages } = paginate(findEvents(site, criteria), page, perPage);

  // `get_current_rest_url`: the query vars in TEC's supported_query_vars order, unencoded...
  const restUrl = currentRestUrl(
    legacyRestUrl(site, 'events/'),
    [
      ['page', page],
      ['per_page', perPage],
      ['start_date', dates.start_date],
      ['end_date', dates.end_date],
      ['search', sent('search') ? String(p.search) : undefined],
      ['geoloc', geoloc ? 1 : undefined],
      ['geoloc_lat', geoloc ? String(p.geoloc_lat ?? '') : undefined],
      ['geoloc_lng', geoloc ? String(p.geoloc_lng ?? '') : undefined],
      ['status', statusArg],
      ['post_parent', sent('post_parent') ? Number(p.post_parent) : undefined],
      // Comma-joined, as the real answer shows it (real-site-behaviour.md: `&include=47,51`).
      ['include', include?.join(',')],
      ['starts_before', dates.starts_before],
      ['starts_after', dates.starts_after],
      ['ends_before', dates.ends_before],
      ['ends_after', dates.ends_after],
      ['ticketed', sent('ticketed') ? Boolean(p.ticketed) : undefined],
    ],
    // ...then venue, organizer and featured in a second pass, as `$extra_rest_args`.
    [
      ['venue', sent('venue') ? (p.venue as number[]).join(',') : undefined],
      ['organizer', sent('organizer') ? (p.organizer as number[]).join(',') : undefined],
      ['featured', sent('featured') ? Boolean(p.featured) : undefined],
    ],
  );

  const events = items.map((e) => legacyEvent(site, e, { hideProtected: true }));
  return postArchive({ key: 'events', items: events, restUrl, page, total, totalPages }, 'event');
}
