/**
 * `GET /calendar-core/v1/events/calendar-embed` (ECP Views/V2/Shortcodes/
 * REST/V1/Calender_Embed.php; spec B2; calendar-upstream.md §2 "ECP routes").
 *
 * Needs a `_wpnonce` valid for `wp_rest` and this user, and `edit_posts`
 * (edit_tribe_events); otherwise `rest_forbidden`. Answers a complete HTML
 * document (the `[tribe_events]` shortcode rendered in an iframe body), not
 * JSON. Not experimental. The rendering is the sandbox's own: one list of the
 * matching published events, honouring the view's date range and the filters.
 */
import { DateTime } from 'luxon';
import { can, verifyNonce } from '../../auth.ts';
import { scheduleDetails } from '../../calendar/core-repr.ts';
import { CATEGORY_TAX, TAG_TAX, permalink, type EventPost, type VenueMeta } from '../../calendar/model.ts';
import { findEvents, type EventCriteria } from '../../calendar/query.ts';
import { SQL, endOfDay, parseLooseDate, startOfDay } from '../../dates.ts';
import { RestResult, type ArgSchema, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { Clock, Secrets, Storage } from '../../capabilities.ts';
import { NS } from './entity.ts';

export const VIEWS = ['month', 'list', 'day', 'photo', 'week', 'map', 'summary'] as const;

/** TEC's default "events per page" for list-style views. */
export const DEFAULT_EVENTS_PER_PAGE = 12;

const text = (description: string): ArgSchema => ({ type: 'string', description });

const args: Record<string, ArgSchema> = {
  view: { type: 'string', enum: VIEWS, default: 'list', description: 'Display format.' },
  category: text('Show only these categories (comma-separated slugs).'),
  exclude_category: text('Leave out these categories (comma-separated slugs).'),
  tag: text('Show only these tags (comma-separated slugs).'),
  // The spec's table calls the tag exclusion `tag_category`; ECP's code calls it `exclude_tag`. Both work.
  tag_category: text('Leave out these tags (comma-separated slugs).'),
  exclude_tag: text('Leave out these tags (comma-separated slugs).'),
  tax_operand: text('AND to match all the given categories and tags, OR (default) to match any.'),
  events_per_page: { type: 'integer', minimum: 1, description: 'Events per page in list-style views.' },
  month_events_per_day: { type: 'integer', minimum: 1, description: 'Events per day in the month view.' },
  featured: { type: 'boolean', description: 'Featured events only.' },
  past: { type: 'boolean', description: 'Show past events.' },
  tribe_bar: { type: 'boolean', description: 'Show the search bar above the views.' },
  filter_bar: { type: 'boolean', description: 'Show the filter bar.' },
  date: text('Date where the view starts.'),
  keyword: text('Match in title or description.'),
  author: { type: 'integer', description: 'Only events by this author.' },
  organizer: { type: 'integer', description: 'Only events with this organizer.' },
  venue: { type: 'integer', description: 'Only events at this venue.' },
};

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Term IDs of comma-separated slugs; unknown slugs resolve to nothing. */
function slugIds(site: Storage, taxonomy: string, value: unknown): number[] | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  return value
    .split(',')
    .map((s) => site.store.termBySlug(taxonomy, s.trim())?.id)
    .filter((id): id is number => id !== undefined);
}

/** The date range a view shows around `day` (site-local `Y-m-d H:i:s`). */
function viewRange(view: string, day: string): { from: string; to?: string } {
  const d = DateTime.fromFormat(day, SQL, { zone: 'utc' });
  switch (view) {
    case 'day':
      return { from: startOfDay(day), to: endOfDay(day) };
    case 'week':
      return { from: d.startOf('week').toFormat(SQL), to: d.endOf('week').toFormat(SQL) };
    case 'month':
      return { from: d.startOf('month').toFormat(SQL), to: d.endOf('month').toFormat(SQL) };
    default:
      return { from: day };
  }
}

function matchingEvents(req: RestRequest): EventPost[] {
  const { site } = req;
  const p = req.params;
  const view = p.view as string;
  const day =
    (typeof p.date === 'string' && parseLooseDate(p.date, site.timezone, site.now())) ||
    parseLooseDate('now', site.timezone, site.now())!;
  const range = viewRange(view, day);
  const cats = slugIds(site, CATEGORY_TAX, p.category);
  const tags = slugIds(site, TAG_TAX, p.tag);
  const all = p.tax_operand === 'AND' || p.tax_operand === 'and';
  const past = Boolean(p.past) && range.to === undefined;
  const c: EventCriteria = {
    statuses: ['publish'],
    hideHidden: true,
    search: (p.keyword as string | undefined) || undefined,
    featured: p.featured ? true : undefined,
    organizers: p.organizer !== undefined ? [p.organizer as number] : undefined,
    venues: p.venue !== undefined ? [p.venue as number] : undefined,
    // With AND every term is checked below; OR lets the shared filter match any.
    categories: all ? undefined : cats,
    tags: all ? undefined : tags,
    // Past: what ended before the day, newest first; otherwise what has not ended (and starts in range).
    ...(past ? { endsBefore: range.from, order: 'DESC' as const } : { endsAfter: range.from, startsBefore: range.to }),
  };
  if ((cats && !cats.length) || (tags && !tags.length)) return [];
  const excluded = new Set([
    ...(slugIds(site, CATEGORY_TAX, p.exclude_category) ?? []),
    ...(slugIds(site, TAG_TAX, p.exclude_tag) ?? []),
    ...(slugIds(site, TAG_TAX, p.tag_category) ?? []),
  ]);
  const catMap = site.store.termMap(CATEGORY_TAX);
  const tagMap = site.store.termMap(TAG_TAX);
  return findEvents(site, c).filter((e) => {
    const terms = [...(catMap.get(e.id) ?? []), ...(tagMap.get(e.id) ?? [])];
    if (p.author !== undefined && e.author !== p.author) return false;
    if (terms.some((t) => excluded.has(t))) return false;
    if (all && ![...(cats ?? []), ...(tags ?? [])].every((t) => terms.includes(t))) return false;
    return true;
  });
}

/** Keeps the first `perDay` events of each start day (the month view's "N more" cut). */
function capPerDay(events: EventPost[], perDay: number): EventPost[] {
  const seen = new Map<string, number>();
  return events.filter((e) => {
    const day = e.meta.startDate.slice(0, 10);
    const n = (seen.get(day) ?? 0) + 1;
    seen.set(day, n);
    return n <= perDay;
  });
}

function renderDocument(req: RestRequest, events: EventPost[]): string {
  const { site } = req;
  const view = req.params.view as string;
  const now = site.now();
  const venues = new Map(
    site.store.postsByIds<VenueMeta>([...new Set(events.flatMap((e) => e.meta.venueIds))]).map((v) => [v.id, v.title]),
  );
  const items = events.map((e) => {
    const venue = e.meta.venueIds.map((id) => venues.get(id)).find(Boolean);
    return [
      `<li class="tribe-events-calendar-${view}__event" data-event-id="${e.id}">`,
      `<time datetime="${escapeHtml(e.meta.startDate.replace(' ', 'T'))}">${scheduleDetails(e.meta, now).long}</time>`,
      `<h3 class="tribe-events-calendar-${view}__event-title"><a href="${escapeHtml(permalink(site, e.type, e.slug, e.id))}">${escapeHtml(e.title)}</a></h3>`,
      venue ? `<address class="tribe-events-calendar-${view}__event-venue">${escapeHtml(venue)}</address>` : '',
      '</li>',
    ].join('');
  });
  const bar = req.params.tribe_bar
    ? `<form class="tribe-events-c-search" method="get"><input type="search" name="keyword" value="${escapeHtml(String(req.params.keyword ?? ''))}" placeholder="Search for events"><button type="submit">Find Events</button></form>\n`
    : '';
  const body = items.length
    ? `<ul class="tribe-events-calendar-${view}">\n${items.join('\n')}\n</ul>`
    : '<p class="tribe-events-c-messages__message">There were no results found.</p>';
  return [
    '<!DOCTYPE html>',
    '<html lang="en-US">',
    '<head>',
    '<meta charset="UTF-8">',
    '<meta name="robots" content="noindex, nofollow">',
    `<title>${escapeHtml(site.store.option('blogname', 'Sitegraph Sandbox'))} - Calendar</title>`,
    '</head>',
    '<body class="tec-events-calendar-embed">',
    `<div class="tribe-common tribe-events tribe-events-view tribe-events-view--${view}" data-view="${view}">`,
    `${bar}${body}`,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export function embedRoutes(site: Clock & Secrets): RouteDecl[] {
  return [
    {
      namespace: NS,
      path: `/${NS}/events/calendar-embed`,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'Render the calendar as an embeddable HTML document',
          args,
          permission: (req) =>
            Boolean(req.user) &&
            verifyNonce(site.secret, req.params._wpnonce, 'wp_rest', req.user!.id, site.now().getTime()) &&
            can(req.user, 'edit_posts'),
          handler: (req) => {
            let events = matchingEvents(req);
            const view = req.params.view as string;
            if (view === 'month') {
              if (req.params.month_events_per_day !== undefined)
                events = capPerDay(events, req.params.month_events_per_day as number);
            } else if (view !== 'day' && view !== 'week') {
              events = events.slice(0, (req.params.events_per_page as number | undefined) ?? DEFAULT_EVENTS_PER_PAGE);
            }
            return new RestResult(renderDocument(req, events), 200, {}, 'text/html; charset=UTF-8');
          },
        },
      ],
    },
  ];
}
