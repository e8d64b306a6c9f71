/**
 * The calendar views the `calendar/views/v2/html` endpoint renders: which
 * view, day, page and filters a front-end URL asks for (TEC's rewrite rules
 * and `tribe-bar-*` query vars), and the view's markup, shaped like TEC's
 * templates (`tribe-events-view--<slug>` container, view data and nonce
 * script tags) but the sandbox's own and much smaller. Real events only:
 * published, not hidden from listings.
 */
import { DateTime } from 'luxon';
import { scheduleDetails } from '../../calendar/core-repr.ts';
import { CATEGORY_TAX, EVENT, TAG_TAX, permalink, type EventPost, type VenueMeta } from '../../calendar/model.ts';
import { findEvents, paginate, type EventCriteria } from '../../calendar/query.ts';
import { SQL, nowIn } from '../../dates.ts';
import type { Clock, Origin, Storage } from '../../capabilities.ts';
import { DEFAULT_EVENTS_PER_PAGE, VIEWS } from '../core/embed.ts';

export type ViewSlug = (typeof VIEWS)[number];

/** What a view URL asks for. */
export interface ViewRequest {
  view: ViewSlug;
  /** `Y-m-d`, site-local. */
  date: string;
  page: number;
  search?: string;
  category?: string;
  tag?: string;
  /** `eventDisplay=past` on list-style views. */
  past: boolean;
  /** The view URL, absolute. */
  url: string;
}

const YMD = /^\d{4}-\d{2}-\d{2}$/;
const YM = /^\d{4}-\d{2}$/;

function isView(s: string): s is ViewSlug {
  return (VIEWS as readonly string[]).includes(s);
}

/** `Y-m-d` from `Y-m-d`, `Y-m` (first of the month) or anything else (null). */
function dayOf(s: unknown): string | null {
  if (typeof s !== 'string') return null;
  const v = s.trim();
  if (YMD.test(v) && DateTime.fromISO(v).isValid) return v;
  if (YM.test(v) && DateTime.fromISO(`${v}-01`).isValid) return `${v}-01`;
  return null;
}

/**
 * Reads a view URL: `/events/<view>/`, `/events/month/2026-12/`,
 * `/events/2026-12-01/` (day), `/events/today/`, `/events/category/<slug>/`,
 * `/events/tag/<slug>/`, `/page/<n>/`, plus `tribe-bar-date`, `eventDate`,
 * `eventDisplay`, `tribe-bar-search`, `paged`, `tribe_events_cat` and `tag`
 * query vars; `overrides` (the request's `view_data`) win over the URL's query
 * and `view` over everything. Unknown views fall back to the default, list.
 */
export function parseViewUrl(
  site: Clock & Origin,
  u: string,
  view?: string,
  overrides: Record<string, unknown> = {},
): ViewRequest {
  let url: URL;
  try {
    url = new URL(u, `${site.origin}/`);
  } catch {
    url = new URL(`${site.origin}/events/`);
  }
  const today = nowIn(site.now(), site.timezone).slice(0, 10);
  const out: ViewRequest = { view: 'list', date: today, page: 1, past: false, url: url.toString() };
  let viewSet = false;
  const setView = (v: string) => {
    if (isView(v)) {
      out.view = v;
      viewSet = true;
    }
  };
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const start = segments.indexOf('events');
  const rest = start < 0 ? [] : segments.slice(start + 1);
  for (let i = 0; i < rest.length; i++) {
    const s = rest[i]!;
    if ((s === 'category' || s === 'tag') && rest[i + 1]) out[s] = rest[++i]!;
    else if (s === 'page' && /^\d+$/.test(rest[i + 1] ?? '')) out.page = Math.max(1, Number(rest[++i]));
    else if (s === 'today') {
      out.date = today;
      if (!viewSet) setView('day');
    } else if (YMD.test(s) || YM.test(s)) {
      out.date = dayOf(s) ?? out.date;
      if (!viewSet) setView(YMD.test(s) ? 'day' : 'month');
    } else setView(s);
  }
  const q: Record<string, unknown> = { ...Object.fromEntries(url.searchParams), ...overrides };
  const date = dayOf(q['tribe-bar-date']) ?? dayOf(q.eventDate);
  if (date) out.date = date;
  if (typeof q.eventDisplay === 'string') {
    if (q.eventDisplay === 'past') out.past = true;
    else setView(q.eventDisplay);
  }
  if (typeof q['tribe-bar-search'] === 'string' && q['tribe-bar-search'].trim())
    out.search = q['tribe-bar-search'].trim();
  if (/^\d+$/.test(String(q.paged ?? ''))) out.page = Math.max(1, Number(q.paged));
  if (typeof q.tribe_events_cat === 'string' && q.tribe_events_cat) out.category = q.tribe_events_cat;
  if (typeof q.tag === 'string' && q.tag) out.tag = q.tag;
  if (view) setView(view);
  return out;
}

function esc(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

/** The criteria shared by every view: published, listed, matching the search and terms. */
function baseCriteria(site: Storage, r: ViewRequest): EventCriteria | null {
  const c: EventCriteria = { statuses: ['publish'], hideHidden: true, search: r.search };
  if (r.category) {
    const t = site.store.termBySlug(CATEGORY_TAX, r.category);
    if (!t) return null;
    c.categories = [t.id];
  }
  if (r.tag) {
    const t = site.store.termBySlug(TAG_TAX, r.tag);
    if (!t) return null;
    c.tags = [t.id];
  }
  return c;
}

/** Events overlapping [from, to] (local `Y-m-d H:i:s`), by start. */
function overlapping(site: Storage, base: EventCriteria | null, from: string, to: string): EventPost[] {
  return base ? findEvents(site, { ...base, endsAfter: from, startsBefore: to }) : [];
}

interface Rendered {
  title: string;
  body: string;
  prevUrl: string;
  nextUrl: string;
  count: number;
}

function eventsBase(site: Origin, r: ViewRequest): string {
  const base = `${site.origin}/events/`;
  if (r.category) return `${base}category/${encodeURIComponent(r.category)}/`;
  if (r.tag) return `${base}tag/${encodeURIComponent(r.tag)}/`;
  return base;
}

function article(site: Clock & Origin, view: string, e: EventPost, venues: Map<number, string>): string {
  const venue = e.meta.venueIds.map((id) => venues.get(id)).find(Boolean);
  return [
    `<article class="tribe-events-calendar-${view}__event" data-event-id="${e.id}">`,
    `<time class="tribe-events-calendar-${view}__event-datetime" datetime="${e.meta.startDate.slice(0, 10)}">${scheduleDetails(e.meta, site.now()).long}</time>`,
    `<h3 class="tribe-events-calendar-${view}__event-title"><a href="${esc(permalink(site, EVENT, e.slug, e.id))}" rel="bookmark">${esc(e.title)}</a></h3>`,
    venue ? `<address class="tribe-events-calendar-${view}__event-venue">${esc(venue)}</address>` : '',
    '</article>',
  ].join('');
}

function venueNames(site: Storage, events: EventPost[]): Map<number, string> {
  return new Map(
    site.store.postsByIds<VenueMeta>([...new Set(events.flatMap((e) => e.meta.venueIds))]).map((v) => [v.id, v.title]),
  );
}

function renderList(site: Clock & Origin & Storage, r: ViewRequest): Rendered {
  const base = baseCriteria(site, r);
  const from = `${r.date} 00:00:00`;
  // Upcoming: what has not ended by the day; past: what ended before it, newest first.
  const all = base
    ? findEvents(site, r.past ? { ...base, endsBefore: from, order: 'DESC' } : { ...base, endsAfter: from })
    : [];
  const { items, totalPages } = paginate(all, r.page, DEFAULT_EVENTS_PER_PAGE);
  const venues = venueNames(site, items);
  const url = (page: number) => {
    const u = new URL(`${eventsBase(site, r)}${r.view}/${page > 1 ? `page/${page}/` : ''}`);
    if (r.date !== nowIn(site.now(), site.timezone).slice(0, 10)) u.searchParams.set('tribe-bar-date', r.date);
    if (r.past) u.searchParams.set('eventDisplay', 'past');
    if (r.search) u.searchParams.set('tribe-bar-search', r.search);
    return u.toString();
  };
  const body = items.length
    ? `<div class="tribe-events-calendar-${r.view}">\n${items.map((e) => article(site, r.view, e, venues)).join('\n')}\n</div>`
    : '<div class="tribe-events-c-messages"><p class="tribe-events-c-messages__message">There were no results found.</p></div>';
  return {
    title: r.past ? 'Past Events' : 'Upcoming Events',
    body,
    prevUrl: r.page > 1 ? url(r.page - 1) : '',
    nextUrl: r.page < totalPages ? url(r.page + 1) : '',
    count: items.length,
  };
}

/** Day cells from `first` to `last` (inclusive), each with the events overlapping it. */
function dayCells(
  site: Clock & Origin & Storage,
  r: ViewRequest,
  view: string,
  first: DateTime,
  last: DateTime,
  inMonth?: number,
): { html: string; count: number } {
  const events = overlapping(
    site,
    baseCriteria(site, r),
    `${first.toISODate()} 00:00:00`,
    `${last.toISODate()} 23:59:59`,
  );
  const venues = venueNames(site, events);
  const cells: string[] = [];
  for (let d = first; d <= last; d = d.plus({ days: 1 })) {
    const day = d.toISODate()!;
    const todays = events.filter((e) => e.meta.startDate.slice(0, 10) <= day && e.meta.endDate.slice(0, 10) >= day);
    const other =
      inMonth !== undefined && d.month !== inMonth ? ` tribe-events-calendar-${view}__day--other-month` : '';
    cells.push(
      `<div class="tribe-events-calendar-${view}__day${other}" data-date="${day}"><h3 class="tribe-events-calendar-${view}__day-date"><time datetime="${day}">${d.day}</time></h3>` +
        todays.map((e) => article(site, view, e, venues)).join('') +
        '</div>',
    );
  }
  return { html: cells.join('\n'), count: events.length };
}

/** WordPress's `start_of_week` option: 0 Sunday … 6 Saturday; 1 (Monday) by default. */
function weekStart(site: Storage, d: DateTime): DateTime {
  const sow = Number(site.store.option<number | string>('start_of_week', 1)) % 7;
  const back = (d.weekday % 7) - sow;
  return d.minus({ days: back < 0 ? back + 7 : back });
}

function renderMonth(site: Clock & Origin & Storage, r: ViewRequest): Rendered {
  const month = DateTime.fromISO(r.date).startOf('month');
  const first = weekStart(site, month);
  const last = weekStart(site, month.endOf('month')).plus({ days: 6 });
  const { html, count } = dayCells(site, r, 'month', first, last, month.month);
  const url = (m: DateTime) => `${eventsBase(site, r)}month/${m.toFormat('yyyy-MM')}/`;
  return {
    title: `Events for ${month.toFormat('MMMM yyyy')}`,
    body: `<div class="tribe-events-calendar-month" role="grid">\n${html}\n</div>`,
    prevUrl: url(month.minus({ months: 1 })),
    nextUrl: url(month.plus({ months: 1 })),
    count,
  };
}

function renderWeek(site: Clock & Origin & Storage, r: ViewRequest): Rendered {
  const first = weekStart(site, DateTime.fromISO(r.date));
  const { html, count } = dayCells(site, r, 'week', first, first.plus({ days: 6 }));
  const url = (d: DateTime) => `${eventsBase(site, r)}week/${d.toISODate()}/`;
  return {
    title: `Events for week of ${first.toFormat('MMMM d, yyyy')}`,
    body: `<div class="tribe-events-calendar-week">\n${html}\n</div>`,
    prevUrl: url(first.minus({ days: 7 })),
    nextUrl: url(first.plus({ days: 7 })),
    count,
  };
}

function renderDay(site: Clock & Origin & Storage, r: ViewRequest): Rendered {
  const day = DateTime.fromISO(r.date);
  const events = overlapping(site, baseCriteria(site, r), `${r.date} 00:00:00`, `${r.date} 23:59:59`);
  const venues = venueNames(site, events);
  const url = (d: DateTime) => `${eventsBase(site, r)}${d.toISODate()}/`;
  const body = events.length
    ? `<div class="tribe-events-calendar-day">\n${events.map((e) => article(site, 'day', e, venues)).join('\n')}\n</div>`
    : '<div class="tribe-events-c-messages"><p class="tribe-events-c-messages__message">No events scheduled for this day.</p></div>';
  return {
    title: `Events for ${day.toFormat('MMMM d, yyyy')}`,
    body,
    prevUrl: url(day.minus({ days: 1 })),
    nextUrl: url(day.plus({ days: 1 })),
    count: events.length,
  };
}

/**
 * The view's HTML as the endpoint returns it inside `{"html": …}`: the view
 * container, its data script, the rendered view, and the nonce script the
 * front end reads before its next request (`tvn1` for the current user,
 * `tvn2` a logged-out nonce for logged-in users, "" otherwise).
 */
export function renderView(
  site: Clock & Origin & Storage,
  r: ViewRequest,
  nonces: { tvn1: string; tvn2: string },
): string {
  const rendered =
    r.view === 'month'
      ? renderMonth(site, r)
      : r.view === 'week'
        ? renderWeek(site, r)
        : r.view === 'day'
          ? renderDay(site, r)
          : renderList(site, r);
  const data = {
    slug: r.view,
    url: r.url,
    prev_url: rendered.prevUrl,
    next_url: rendered.nextUrl,
    title: rendered.title,
    date: r.date,
    events_count: rendered.count,
    rest_url: `${site.restRoot}/calendar/views/v2/html`,
    rest_method: 'GET',
  };
  // JSON inside a script tag: `</` must not close it early.
  const json = (v: unknown) => JSON.stringify(v).replace(/<\//g, '<\\/');
  return [
    `<div class="tribe-common tribe-events tribe-events-view tribe-events-view--${r.view}" data-js="tribe-events-view" data-view-rest-url="${esc(data.rest_url)}" data-view-rest-method="GET" data-view-manage-url="1">`,
    `<script data-js="tribe-events-view-data" type="application/json">${json(data)}</script>`,
    '<div class="tribe-common-l-container tribe-events-l-container">',
    `<header class="tribe-events-header"><h1 class="tribe-events-header__title">${esc(rendered.title)}</h1><time class="tribe-events-c-top-bar__datepicker-time" datetime="${r.date}">${DateTime.fromFormat(`${r.date} 00:00:00`, SQL).toFormat('MMMM d, yyyy')}</time></header>`,
    rendered.body,
    '<nav class="tribe-events-c-nav">',
    rendered.prevUrl
      ? `<a class="tribe-events-c-nav__prev" href="${esc(rendered.prevUrl)}" data-js="tribe-events-view-link">Previous</a>`
      : '',
    rendered.nextUrl
      ? `<a class="tribe-events-c-nav__next" href="${esc(rendered.nextUrl)}" data-js="tribe-events-view-link">Next</a>`
      : '',
    '</nav>',
    '</div>',
    `<script data-js='tribe-events-view-nonce-data' type='application/json'>${json(nonces)}</script>`,
    '</div>',
  ]
    .filter(Boolean)
    .join('\n');
}
