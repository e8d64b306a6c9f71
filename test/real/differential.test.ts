/**
 * Differential: the sandbox held to the real plugins. For each real shape of the run, the sandbox
 * acting as that release (test/real/sandbox-twin.ts: the same release, names and time zone, seeded
 * by the same seeder through REST, so both hold the same calendar) gets the same REST requests as
 * the real site, and the answers are compared route by route: the status and error `code` of good
 * and bad requests, the keys of each answer and their JSON types, the paging headers and the
 * legacy envelope's paging, the arguments every calendar route declares, what each declared list
 * argument does (the seeded titles it returns), and what a title-only update resets.
 *
 * IDs are not compared (WordPress numbers the seeded objects after its own posts); titles are.
 * Every difference that remains is in KEPT, with the reason it is kept (docs/real-sites.md "The
 * sandbox against the real plugins"); a difference not listed there fails the test, and so does a
 * listed one that no longer shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, realSites, rest, type RealSite, type Reply } from './kit.ts';
import type { Names, Shape } from './shapes.ts';
import { startTwin, type Twin } from './sandbox-twin.ts';

/** A difference kept on purpose: lines matching `where` (on the shapes given, default all) are allowed. */
interface Kept {
  shapes?: Shape[];
  names?: Names[];
  where: RegExp;
  why: string;
}

/**
 * The kept differences, each with its reason (docs/real-sites.md "The sandbox against the real
 * plugins" has the same table). A line is `<check> | <case> | <path>: real <value>, sandbox <value>`,
 * namespaces written as the contract names them.
 */
const KEPT: Kept[] = [
  // ---- fields
  {
    shapes: ['tec57'],
    where: /\| \.types(\.events\[0\])?\.custom_fields: real \(none\), sandbox "\[\]"$/,
    why: "5.7.1's legacy events have no custom_fields; the sandbox serves 6.15's key on every release (empty)",
  },
  {
    shapes: ['tec57'],
    where: /\| \.types\.cost_details\.currency_code: real \(none\), sandbox "string"$/,
    why: "5.7.1's cost_details has no currency_code; the sandbox serves 6.15's on every release",
  },
  {
    shapes: ['tec615'],
    where: /\| \.types\.json_ld\.(eventAttendanceMode|eventStatus): real "string", sandbox \(none\)$/,
    why: "6.15's JSON-LD adds eventAttendanceMode and eventStatus; the sandbox's JSON-LD is 5.7's (the gateway passes jsonLd through whole)",
  },
  {
    where: /^shape \| legacy (category|tag) \| \.types\._links: real \{.*\}, sandbox \(none\)$/,
    why: "a single legacy term carries the terms controller's _links; the sandbox's has none (the archive's items have none on either), and the gateway reads no term _links",
  },
  {
    shapes: ['tec615'],
    where:
      /\| \.(types|core|patchedKeys)(\[0\])?(\.venues\[0\]|\.organizers\[0\])?\.(lat|lng|series|ticketed|virtual|class_list): real \(none\), sandbox /,
    why: "6.15.14's calendar-core objects lack the contract's lat, lng, series, ticketed, virtual (and class_list on venues and organizers); the sandbox serves them so the gateway's core-only fields run in tests, and the gateway reads a missing key as null",
  },
  {
    shapes: ['tec615'],
    names: ['spec'],
    where: /(tribe|calendar)_events_cat/,
    why: 'the alias plugin renames namespaces only, so calendar-core\'s category field stays tribe_events_cat; the sandbox under the contract\'s names spells it calendar_events_cat (docs/sandbox.md "Names")',
  },
  {
    where: /^shape \| posts list \| \.types\[0\]\.categories: real \["number"\], sandbox "\[\]"$/,
    why: "the twin copies the real site's posts without their post categories (the sandbox's core/v2 has no category writes)",
  },
  {
    shapes: ['tec57'],
    where:
      /^shape \| posts list \| \.types\[0\]\.yoast_head_json\.(article_modified_time: real \(none\), sandbox "string"|og_description: real "string", sandbox \(none\))$/,
    why: 'Yoast 19.3 leaves out article_modified_time for a post never modified and writes og_description from the excerpt; the sandbox always gives the first and the second only for a post with a meta description',
  },
  {
    shapes: ['tec615'],
    where:
      /^shape \| posts list \| \.types\[0\]\.(class_list: real \["string"\], sandbox \(none\)|meta: real \{"footnotes":"string"\}, sandbox "\[\]")$/,
    why: "WordPress 6.8's posts carry class_list and the footnotes meta; the sandbox's posts are the contract's (WordPress 6.1's keys)",
  },
  // ---- links
  {
    names: ['spec'],
    where:
      /^paging \| .* \| \.(rest_url|next_rest_url|previous_rest_url|link): real "[^"]*\/(tribe\/events\/v1|wp\/v2)\//,
    why: "the real site's alias plugin adds the contract's routes, but TEC and WordPress build their links under their own names; the sandbox links under the names the request came by",
  },
  // ---- the root index
  {
    shapes: ['tec57'],
    where:
      /^index \| namespaces \| only real \["wp-block-editor\/v1","wp-site-health\/v1"\], only sandbox \["duplicate-post\/v1"\]$/,
    why: "WordPress's editor and site-health namespaces are not the sandbox's to serve; Duplicate Post 4.5 registers no REST namespace, the sandbox serves the contract's duplicate-post/v1",
  },
  {
    shapes: ['tec615'],
    where: /^index \| namespaces \| only real \["wp-block-editor\/v1","wp-site-health\/v1"\], only sandbox \[\]$/,
    why: "WordPress's editor and site-health namespaces are not the sandbox's to serve",
  },
  {
    shapes: ['tec615'],
    where:
      /^index \| \/calendar-core\/v1\/(series|events\/calendar-embed|events\/\(\?P<id>\\d\+\)\/notices\/occurrences) \| served: real false, sandbox true$/,
    why: "6.15.14 serves no calendar-core series, calendar-embed or occurrence-notice routes; the sandbox's 6.15 serves the contract's (a follow-up: take them out of 6.15 in release.ts, with the gateway's series tests moved to 6.17)",
  },
  {
    shapes: ['tec57'],
    where: /^shape \| posts list \| \.types\[0\]\._links\.predecessor-version: real "array", sandbox \(none\)$/,
    why: "the seeder saves every post once through REST so that Yoast 19.3 keeps a record of it, and WordPress 6.1 keeps a revision of that save; the twin's copies have none",
  },

  // ---- filters
  {
    where: /^filter \| \/calendar(-core)?\/(events\/)?v1\/(venues|organizers) [a-z_]+ \| \.order: /,
    why: 'venues and organizers: the same set on both; the real lists order by post date, newest first (ties as MySQL returns them), the sandbox by title',
  },
  // ---- writes
  {
    where: /^write \| legacy create \| \.excerpt: real "<p>An excerpt<\/p>", sandbox "An excerpt"$/,
    why: 'the real legacy event renders its excerpt through wpautop; the sandbox answers it as stored',
  },
];

const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON types of a value, `depth` levels down (an array by its first item). */
function types(v: unknown, depth = 3): unknown {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? '[]' : depth > 0 ? [types(v[0], depth - 1)] : 'array';
  if (isObj(v)) {
    if (depth === 0) return 'object';
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, types(v[k], depth - 1)]),
    );
  }
  return typeof v;
}

/** `a` against `b`, as one line per differing leaf (`path: real …, sandbox …`). */
function diff(real: unknown, twin: unknown, path = ''): string[] {
  if (isObj(real) && isObj(twin)) {
    const keys = [...new Set([...Object.keys(real), ...Object.keys(twin)])].sort();
    return keys.flatMap((k) => diff(real[k], twin[k], `${path}.${k}`));
  }
  if (
    Array.isArray(real) &&
    Array.isArray(twin) &&
    real.length === twin.length &&
    real.some((x) => typeof x === 'object')
  ) {
    return real.flatMap((x, i) => diff(x, twin[i], `${path}[${i}]`));
  }
  const show = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v));
  return JSON.stringify(real) === JSON.stringify(twin)
    ? []
    : [`${path || '.'}: real ${show(real)}, sandbox ${show(twin)}`];
}

/** Paths and URLs in the contract's names, whatever the site serves them as. */
function contractNames(text: string, site: RealSite): string {
  const contract = { legacy: 'calendar/events/v1', core: 'calendar-core/v1', seo: 'seo/v1', wp: 'core/v2' } as const;
  let out = text.split(site.restUrl.replace(/\/$/, '')).join('<root>');
  for (const k of ['legacy', 'core', 'seo', 'wp'] as const) out = out.split(`/${site.ns[k]}/`).join(`/${contract[k]}/`);
  return out;
}

interface Side {
  site: RealSite;
  /** One event of each side made for the write checks, trashed at the end. */
  made: number[];
}

type Who = 'admin' | null;
interface Case {
  name: string;
  method?: string;
  path: (s: RealSite) => string;
  body?: unknown;
  who?: Who;
  /** Leave out calendar-core's experimental acknowledgement. */
  noEea?: boolean;
  /** Which shapes the case applies to (default both). */
  shapes?: Shape[];
}

async function send(side: Side, c: Pick<Case, 'method' | 'path' | 'body' | 'who' | 'noEea'>): Promise<Reply> {
  const auth = c.who === 'admin' ? adminAuth(side.site) : null;
  if (!c.noEea) return rest(side.site, c.method ?? 'GET', c.path(side.site), { body: c.body, auth });
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = auth;
  const res = await fetch(side.site.restUrl.replace(/\/$/, '') + c.path(side.site), {
    method: c.method ?? 'GET',
    headers,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* kept as text */
  }
  return { status: res.status, headers: res.headers, body };
}

/** What an answer is: its status, error code and named parameters, keys and types. */
function shapeOf(r: Reply): Record<string, unknown> {
  const b = r.body;
  const out: Record<string, unknown> = { status: r.status };
  if (isObj(b) && typeof b.code === 'string') {
    out.code = b.code;
    const params = b.data?.params;
    if (Array.isArray(params)) out.params = [...params].sort();
    else if (isObj(params)) out.params = Object.keys(params).sort();
    out.types = types(b, 1);
    return out;
  }
  out.types = types(b);
  return out;
}

const LEGACY_LIST_WINDOW = 'start_date=2000-01-01&end_date=2100-01-01';

const ev = (s: RealSite, i: number) => s.calendar.events[i]!;

/** Requests both sides answer, good and bad. */
const CASES: Case[] = [
  // ---- the legacy interface's lists
  { name: 'legacy events, default window', path: (s) => `/${s.ns.legacy}/events` },
  {
    name: 'legacy events, page 2 of 5 a page, whole window',
    path: (s) => `/${s.ns.legacy}/events?per_page=5&page=2&${LEGACY_LIST_WINDOW}`,
  },
  { name: 'legacy events, per_page=0', path: (s) => `/${s.ns.legacy}/events?per_page=0` },
  { name: 'legacy events, per_page=51', path: (s) => `/${s.ns.legacy}/events?per_page=51` },
  { name: 'legacy events, per_page=abc', path: (s) => `/${s.ns.legacy}/events?per_page=abc` },
  { name: 'legacy events, page=0', path: (s) => `/${s.ns.legacy}/events?page=0` },
  { name: 'legacy events, page past the end', path: (s) => `/${s.ns.legacy}/events?page=999` },
  { name: 'legacy events, start_date=notadate', path: (s) => `/${s.ns.legacy}/events?start_date=notadate` },
  { name: 'legacy events, venue=999999', path: (s) => `/${s.ns.legacy}/events?venue=999999` },
  { name: 'legacy events, organizer=abc', path: (s) => `/${s.ns.legacy}/events?organizer=abc` },
  {
    name: 'legacy events, categories=no-such-category',
    path: (s) => `/${s.ns.legacy}/events?categories=no-such-category`,
  },
  { name: 'legacy events, status=draft anonymous', path: (s) => `/${s.ns.legacy}/events?status=draft` },
  {
    name: 'legacy events, status=bogus as the administrator',
    path: (s) => `/${s.ns.legacy}/events?status=bogus`,
    who: 'admin',
  },
  { name: 'legacy events, featured=maybe', path: (s) => `/${s.ns.legacy}/events?featured=maybe` },
  { name: 'legacy events, geoloc=1', path: (s) => `/${s.ns.legacy}/events?geoloc=1` },
  { name: 'legacy venues', path: (s) => `/${s.ns.legacy}/venues` },
  { name: 'legacy venues, per_page=2&page=2', path: (s) => `/${s.ns.legacy}/venues?per_page=2&page=2` },
  { name: 'legacy venues, page past the end', path: (s) => `/${s.ns.legacy}/venues?page=99` },
  { name: 'legacy organizers', path: (s) => `/${s.ns.legacy}/organizers` },
  { name: 'legacy categories', path: (s) => `/${s.ns.legacy}/categories` },
  { name: 'legacy categories, per_page=2&page=2', path: (s) => `/${s.ns.legacy}/categories?per_page=2&page=2` },
  { name: 'legacy categories, page past the end', path: (s) => `/${s.ns.legacy}/categories?page=99` },
  { name: 'legacy tags', path: (s) => `/${s.ns.legacy}/tags` },
  { name: 'legacy tags, per_page=101', path: (s) => `/${s.ns.legacy}/tags?per_page=101` },
  // ---- the legacy interface's singles
  { name: 'legacy event', path: (s) => `/${s.ns.legacy}/events/${ev(s, 3)}` },
  { name: 'legacy event with no organizer', path: (s) => `/${s.ns.legacy}/events/${s.calendar.noOrganizer[0]}` },
  { name: 'legacy event with no venue', path: (s) => `/${s.ns.legacy}/events/${s.calendar.noVenue[0]}` },
  { name: 'legacy all-day event', path: (s) => `/${s.ns.legacy}/events/${s.calendar.allDay}` },
  { name: 'legacy event by slug', path: (s) => `/${s.ns.legacy}/events/by-slug/seeded-event-04-fair` },
  { name: 'legacy event by a missing slug', path: (s) => `/${s.ns.legacy}/events/by-slug/no-such-event` },
  { name: 'legacy missing event', path: (s) => `/${s.ns.legacy}/events/999999` },
  { name: 'legacy draft event anonymous', path: (s) => `/${s.ns.legacy}/events/${s.calendar.drafts[0]}` },
  {
    name: 'legacy draft event as the administrator',
    path: (s) => `/${s.ns.legacy}/events/${s.calendar.drafts[0]}`,
    who: 'admin',
  },
  { name: 'legacy venue', path: (s) => `/${s.ns.legacy}/venues/${s.calendar.venues[0]}` },
  { name: 'legacy missing venue', path: (s) => `/${s.ns.legacy}/venues/999999` },
  { name: 'legacy organizer', path: (s) => `/${s.ns.legacy}/organizers/${s.calendar.organizers[0]}` },
  { name: 'legacy missing organizer', path: (s) => `/${s.ns.legacy}/organizers/999999` },
  { name: 'legacy category', path: (s) => `/${s.ns.legacy}/categories/${s.calendar.categories.jazz}` },
  { name: 'legacy missing category', path: (s) => `/${s.ns.legacy}/categories/999999` },
  { name: 'legacy tag', path: (s) => `/${s.ns.legacy}/tags/${s.calendar.tags[0]}` },
  { name: 'legacy missing tag', path: (s) => `/${s.ns.legacy}/tags/999999` },
  // ---- the legacy interface's writes, refused
  {
    name: 'legacy event create anonymous',
    method: 'POST',
    path: (s) => `/${s.ns.legacy}/events`,
    body: { title: 'x', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' },
  },
  {
    name: 'legacy event create without dates',
    method: 'POST',
    path: (s) => `/${s.ns.legacy}/events`,
    body: { title: 'x' },
    who: 'admin',
  },
  {
    name: 'legacy event create with a bad start date',
    method: 'POST',
    path: (s) => `/${s.ns.legacy}/events`,
    body: { title: 'x', start_date: 'notadate', end_date: '2030-01-01 11:00:00' },
    who: 'admin',
  },
  {
    name: 'legacy event update anonymous',
    method: 'POST',
    path: (s) => `/${s.ns.legacy}/events/${ev(s, 3)}`,
    body: { title: 'x' },
  },
  {
    name: 'legacy missing event update',
    method: 'POST',
    path: (s) => `/${s.ns.legacy}/events/999999`,
    body: { title: 'x' },
    who: 'admin',
  },
  { name: 'legacy missing event delete', method: 'DELETE', path: (s) => `/${s.ns.legacy}/events/999999`, who: 'admin' },
  { name: 'legacy event delete anonymous', method: 'DELETE', path: (s) => `/${s.ns.legacy}/events/${ev(s, 3)}` },
  {
    name: 'legacy venue create anonymous',
    method: 'POST',
    path: (s) => `/${s.ns.legacy}/venues`,
    body: { venue: 'x' },
  },
  {
    name: 'legacy category create anonymous',
    method: 'POST',
    path: (s) => `/${s.ns.legacy}/categories`,
    body: { name: 'x' },
  },
  { name: 'legacy unknown route', path: (s) => `/${s.ns.legacy}/nothing-here` },
  // ---- calendar-core/v1 (6.15)
  ...coreCases(),
  // ---- core/v2 posts
  { name: 'posts list', path: (s) => `/${s.ns.wp}/posts?per_page=2` },
  { name: 'posts, per_page=101', path: (s) => `/${s.ns.wp}/posts?per_page=101` },
];

function coreCases(): Case[] {
  const shapes: Shape[] = ['tec615'];
  const cases: Omit<Case, 'shapes'>[] = [
    { name: 'core events', path: (s) => `/${s.ns.core}/events` },
    { name: 'core events, page 2 of 5 a page', path: (s) => `/${s.ns.core}/events?per_page=5&page=2` },
    { name: 'core events, per_page=101', path: (s) => `/${s.ns.core}/events?per_page=101` },
    { name: 'core events, per_page=0', path: (s) => `/${s.ns.core}/events?per_page=0` },
    { name: 'core events, page past the end', path: (s) => `/${s.ns.core}/events?page=999` },
    { name: 'core events, status=bogus', path: (s) => `/${s.ns.core}/events?status=bogus` },
    { name: 'core events, status=draft anonymous', path: (s) => `/${s.ns.core}/events?status=draft` },
    // One event: an unknown orderby falls back to the publication date, which the seeded events share
    // to the second, so which of them comes first is each side's own tie order.
    {
      name: 'core events, orderby=bogus',
      path: (s) => `/${s.ns.core}/events?orderby=bogus&search=${encodeURIComponent('Seeded Event 04')}`,
    },
    { name: 'core events without the experimental acknowledgement', path: (s) => `/${s.ns.core}/events`, noEea: true },
    { name: 'core event', path: (s) => `/${s.ns.core}/events/${ev(s, 3)}` },
    { name: 'core event with no venue', path: (s) => `/${s.ns.core}/events/${s.calendar.noVenue[0]}` },
    { name: 'core missing event', path: (s) => `/${s.ns.core}/events/999999` },
    { name: 'core draft event anonymous', path: (s) => `/${s.ns.core}/events/${s.calendar.drafts[0]}` },
    {
      name: 'core draft event as the administrator',
      path: (s) => `/${s.ns.core}/events/${s.calendar.drafts[0]}`,
      who: 'admin',
    },
    { name: 'core venues', path: (s) => `/${s.ns.core}/venues` },
    { name: 'core venues, per_page=2&page=2', path: (s) => `/${s.ns.core}/venues?per_page=2&page=2` },
    { name: 'core venue', path: (s) => `/${s.ns.core}/venues/${s.calendar.venues[0]}` },
    { name: 'core missing venue', path: (s) => `/${s.ns.core}/venues/999999` },
    { name: 'core organizers', path: (s) => `/${s.ns.core}/organizers` },
    { name: 'core organizer', path: (s) => `/${s.ns.core}/organizers/${s.calendar.organizers[0]}` },
    { name: 'core missing organizer', path: (s) => `/${s.ns.core}/organizers/999999` },
    { name: 'core event create anonymous', method: 'POST', path: (s) => `/${s.ns.core}/events`, body: { title: 'x' } },
    {
      name: 'core event update anonymous',
      method: 'PATCH',
      path: (s) => `/${s.ns.core}/events/${ev(s, 3)}`,
      body: { title: 'x' },
    },
    {
      name: 'core missing event update',
      method: 'PATCH',
      path: (s) => `/${s.ns.core}/events/999999`,
      body: { title: 'x' },
      who: 'admin',
    },
    {
      name: 'core missing event delete',
      method: 'DELETE',
      path: (s) => `/${s.ns.core}/events/999999?force=true`,
      who: 'admin',
    },
    { name: 'core unknown route', path: (s) => `/${s.ns.core}/nothing-here` },
  ];
  return cases.map((c) => ({ ...c, shapes }));
}

/** The paging a list answers with: headers, and the legacy envelope's totals and links. */
function paging(r: Reply, site: RealSite): Record<string, unknown> {
  const link = r.headers.get('link');
  const out: Record<string, unknown> = {
    status: r.status,
    'x-wp-total': r.headers.get('x-wp-total'),
    'x-wp-totalpages': r.headers.get('x-wp-totalpages'),
    'x-tec-total': r.headers.get('x-tec-total'),
    'x-tec-totalpages': r.headers.get('x-tec-totalpages'),
    link: link && contractNames(link, site),
  };
  if (isObj(r.body)) {
    for (const k of ['total', 'total_pages', 'rest_url', 'next_rest_url', 'previous_rest_url']) {
      const v = r.body[k];
      out[k] = typeof v === 'string' ? contractNames(v, site) : v;
    }
  }
  return out;
}

const PAGED: Case[] = [
  { name: 'legacy events, first page', path: (s) => `/${s.ns.legacy}/events?per_page=10&${LEGACY_LIST_WINDOW}` },
  {
    name: 'legacy events, middle page',
    path: (s) => `/${s.ns.legacy}/events?per_page=10&page=4&${LEGACY_LIST_WINDOW}`,
  },
  { name: 'legacy events, last page', path: (s) => `/${s.ns.legacy}/events?per_page=10&page=8&${LEGACY_LIST_WINDOW}` },
  { name: 'legacy events, default window', path: (s) => `/${s.ns.legacy}/events` },
  { name: 'legacy venues, page 2', path: (s) => `/${s.ns.legacy}/venues?per_page=2&page=2` },
  { name: 'legacy organizers, page 1', path: (s) => `/${s.ns.legacy}/organizers?per_page=2` },
  { name: 'legacy categories, page 2', path: (s) => `/${s.ns.legacy}/categories?per_page=2&page=2` },
  { name: 'legacy tags, page 1', path: (s) => `/${s.ns.legacy}/tags?per_page=2` },
  { name: 'core events, first page', path: (s) => `/${s.ns.core}/events?per_page=10`, shapes: ['tec615'] },
  { name: 'core events, middle page', path: (s) => `/${s.ns.core}/events?per_page=10&page=2`, shapes: ['tec615'] },
  { name: 'core venues, page 2', path: (s) => `/${s.ns.core}/venues?per_page=2&page=2`, shapes: ['tec615'] },
  { name: 'core organizers, page 1', path: (s) => `/${s.ns.core}/organizers?per_page=2`, shapes: ['tec615'] },
  { name: 'posts, page 2', path: (s) => `/${s.ns.wp}/posts?per_page=2&page=2` },
];

/** The title of a calendar object, whichever interface answered. */
function titleOf(o: any): string {
  const t = o?.title?.rendered ?? o?.title ?? o?.venue ?? o?.organizer ?? o?.name;
  return typeof t === 'string' ? t : JSON.stringify(o).slice(0, 60);
}

function itemsOf(body: unknown): unknown[] | null {
  if (Array.isArray(body)) return body;
  if (isObj(body))
    for (const k of ['events', 'venues', 'organizers', 'categories', 'tags'])
      if (Array.isArray(body[k])) return body[k];
  return null;
}

/** What a filtered list answers: the status, the code of a refusal, the seeded titles in order, the total. */
async function filtered(side: Side, path: string, who: Who): Promise<Record<string, unknown>> {
  const r = await send(side, { path: () => path, who });
  const items = itemsOf(r.body);
  const titles = items?.map(titleOf);
  // Events come in their start order on both; venues, organizers and terms as a set, their order apart.
  const events = /\/events\?/.test(path);
  return {
    status: r.status,
    code: isObj(r.body) && typeof r.body.code === 'string' ? r.body.code : undefined,
    titles: events ? titles : titles && [...titles].sort(),
    order: events ? undefined : titles,
    total:
      isObj(r.body) && typeof r.body.total === 'number' ? r.body.total : (r.headers.get('x-wp-total') ?? undefined),
  };
}

interface Filter {
  /** The list route (in the site's names) and the argument as sent. */
  list: (s: RealSite) => string;
  arg: string;
  value: (s: RealSite) => string;
  who?: Who;
}

/**
 * A value for every argument a list declares, chosen so the filter has something to do on the
 * seeded calendar. An argument a route declares that is not here fails the test (so a new
 * declaration gets a check).
 */
function filterValue(route: string, arg: string, s: RealSite): string | null {
  const c = s.calendar;
  const kind = route.split('/').pop()!;
  const events = kind === 'events';
  const values: Record<string, string> = {
    page: '2',
    per_page: '7',
    search: events ? 'quetzal' : kind === 'venues' ? 'Lyon' : kind === 'organizers' ? 'Cedar' : 'o',
    status: 'draft',
    include: events
      ? `${ev(s, 3)},${ev(s, 4)},${c.drafts[0]}`
      : kind === 'categories'
        ? `${c.categories.jazz},${c.categories.rock}`
        : `${c.tags[0]}`,
    exclude: kind === 'categories' ? `${c.categories.jazz}` : `${c.tags[0]}`,
    categories: `${c.categories.jazz}`,
    tags: `${c.tags[1]}`,
    venue: `${c.venues[1]}`,
    organizer: `${c.organizers[2]}`,
    featured: '1',
    post_parent: '0',
    geoloc: '1',
    geoloc_lat: '48.85',
    geoloc_lng: '2.35',
    // 10 days from today, in the site's terms: the first seeded event is 35 days ago.
    start_date: localDay(5),
    end_date: localDay(15),
    starts_after: localDay(5),
    starts_before: localDay(15),
    ends_after: localDay(5),
    ends_before: localDay(15),
    strict_dates: '1',
    ticketed: '1',
    order: 'asc',
    orderby: 'title',
    event: `${c.multiDay}`,
    has_events: '1',
    only_with_upcoming: '1',
    hide_empty: '0',
    parent: `${c.categories.music}`,
    post: `${ev(s, 3)}`,
    slug: kind === 'categories' ? 'jazz' : 'outdoor',
    context: 'view',
  };
  return values[arg] ?? null;
}

function localDay(offset: number): string {
  const d = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + offset));
  return d.toISOString().slice(0, 10);
}

/** What each legacy event field a title-only update leaves or changes. */
const WRITE_FIELDS = [
  'title',
  'description',
  'excerpt',
  'status',
  'date',
  'date_utc',
  'start_date',
  'end_date',
  'all_day',
  'timezone',
  'cost',
  'website',
  'featured',
  'sticky',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'venue',
  'organizer',
  'categories',
  'tags',
];

function fieldsOf(o: any, site: RealSite): Record<string, unknown> {
  const pick = (v: any): unknown =>
    Array.isArray(v)
      ? v.map(pick)
      : isObj(v)
        ? (v.venue ?? v.organizer ?? v.name ?? v.title ?? v.rendered ?? Object.keys(v).length)
        : v;
  return Object.fromEntries(
    WRITE_FIELDS.map((k) => [k, typeof o?.[k] === 'string' ? contractNames(o[k], site) : pick(o?.[k])]),
  );
}

/** Which fields differ between `before` and `after` (`date` kept as "changed" or not: it is a clock). */
function changes(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(before).map((k) => [k, JSON.stringify(before[k]) === JSON.stringify(after[k]) ? 'kept' : `changed`]),
  );
}

describe.each(realSites())('$label', (real: RealSite) => {
  let twin: Twin;
  let sides: [Side, Side];
  const found: string[] = [];
  const shape = real.key.shape;
  const applies = (c: { shapes?: Shape[] }) => !c.shapes || c.shapes.includes(shape);
  const applicable = (k: Kept) => applies(k) && (!k.names || k.names.includes(real.key.names));

  beforeAll(async () => {
    twin = await startTwin(real);
    sides = [
      { site: real, made: [] },
      { site: twin.site, made: [] },
    ];
    // The seeder lays its events around the day it runs: a site seeded on another day holds other dates.
    const first = await Promise.all(
      sides.map((s) => rest(s.site, 'GET', `/${s.site.ns.legacy}/events/${s.site.calendar.events[0]}`)),
    );
    if (first[0]!.body.start_date !== first[1]!.body.start_date) {
      throw new Error(
        `${real.label} was seeded on another day (its first event starts ${first[0]!.body.start_date}, the twin's ${first[1]!.body.start_date}): start it afresh`,
      );
    }
  }, 180_000);

  afterAll(async () => {
    for (const id of sides?.[0].made ?? [])
      await rest(real, 'DELETE', `/${real.ns.legacy}/events/${id}`, { auth: adminAuth(real) });
    await twin?.close();
  });

  /** Fails with the differences KEPT does not list; records what it matched. */
  function check(label: string, lines: string[]): void {
    const kept = KEPT.filter(applicable);
    const unexplained = lines.filter((l) => {
      const k = kept.find((x) => x.where.test(l));
      if (k) found.push(`${k.where}`);
      return !k;
    });
    expect(unexplained, `${label}: differences from ${real.label} not in KEPT`).toEqual([]);
  }

  const compare = (check: string, name: string, realValue: unknown, twinValue: unknown) =>
    diff(realValue, twinValue).map((l) => `${check} | ${name} | ${l}`);

  it('status, error code, keys and their types, route by route', async () => {
    const lines: string[] = [];
    for (const c of CASES.filter(applies)) {
      const [r, t] = await Promise.all(sides.map((s) => send(s, c)));
      lines.push(...compare('shape', c.name, shapeOf(r!), shapeOf(t!)));
    }
    check('shapes', lines);
  });

  it('paging headers and the legacy envelope’s paging', async () => {
    const lines: string[] = [];
    for (const c of PAGED.filter(applies)) {
      const [r, t] = await Promise.all(sides.map((s) => send(s, c)));
      lines.push(...compare('paging', c.name, paging(r!, real), paging(t!, twin.site)));
    }
    check('paging', lines);
  });

  it('the root index: namespaces, and the arguments each calendar route declares per method', async () => {
    const [r, t] = await Promise.all(sides.map((s) => rest(s.site, 'GET', '/')));
    const [nr, nt] = [r!.body.namespaces as string[], t!.body.namespaces as string[]];
    const lines: string[] = [];
    if (nr.some((n) => !nt.includes(n)) || nt.some((n) => !nr.includes(n))) {
      lines.push(
        `index | namespaces | only real ${JSON.stringify(nr.filter((n) => !nt.includes(n)).sort())}, only sandbox ${JSON.stringify(nt.filter((n) => !nr.includes(n)).sort())}`,
      );
    }
    const calendar = (route: string, s: RealSite) =>
      route.startsWith(`/${s.ns.legacy}`) || route.startsWith(`/${s.ns.core}`);
    const declared = (idx: any, s: RealSite) =>
      Object.fromEntries(
        Object.entries(idx.routes as Record<string, any>)
          .filter(([route]) => calendar(route, s))
          .map(([route, v]) => [
            contractNames(route + '/', s).replace(/\/$/, ''),
            Object.fromEntries(
              (v.endpoints as any[]).flatMap((e) =>
                (e.methods as string[]).map((m) => [m, Object.keys(e.args ?? {}).sort()]),
              ),
            ),
          ]),
      );
    const [dr, dt] = [declared(r!.body, real), declared(t!.body, twin.site)];
    for (const route of [...new Set([...Object.keys(dr), ...Object.keys(dt)])].sort()) {
      if (!dr[route] || !dt[route]) {
        lines.push(`index | ${route} | served: real ${Boolean(dr[route])}, sandbox ${Boolean(dt[route])}`);
        continue;
      }
      for (const m of [...new Set([...Object.keys(dr[route]), ...Object.keys(dt[route])])].sort()) {
        const [a, b] = [dr[route][m] as string[] | undefined, dt[route][m] as string[] | undefined];
        if (!a || !b) lines.push(`index | ${route} ${m} | served: real ${Boolean(a)}, sandbox ${Boolean(b)}`);
        else {
          const only = (x: string[], y: string[]) => x.filter((k) => !y.includes(k));
          if (only(a, b).length || only(b, a).length)
            lines.push(
              `index | ${route} ${m} | args only real ${JSON.stringify(only(a, b))}, only sandbox ${JSON.stringify(only(b, a))}`,
            );
        }
      }
    }
    check('index', lines);
  });

  it('what each declared list argument does: the seeded titles each side returns', async () => {
    const idx = (await rest(real, 'GET', '/')).body;
    const lists = ['events', 'venues', 'organizers', 'categories', 'tags'].flatMap((k) => [
      `/${real.ns.legacy}/${k}`,
      ...(shape === 'tec615' && k !== 'categories' && k !== 'tags' ? [`/${real.ns.core}/${k}`] : []),
    ]);
    const lines: string[] = [];
    const missing: string[] = [];
    for (const route of lists) {
      const get = (idx.routes[route].endpoints as any[]).find((e) => e.methods.includes('GET'));
      const legacyEvents = route === `/${real.ns.legacy}/events`;
      // The legacy list's default window hides the past; the whole seeded range is asked for, but for the date arguments themselves.
      const base = legacyEvents ? `per_page=50&${LEGACY_LIST_WINDOW}` : 'per_page=50';
      lines.push(...(await compareFiltered(route, base, null, 'none')));
      for (const arg of Object.keys(get.args ?? {}).sort()) {
        if (arg === 'context') continue;
        const v = filterValue(route, arg, real);
        const w = filterValue(route, arg, twin.site);
        if (v === null || w === null) {
          missing.push(`${route} ${arg}`);
          continue;
        }
        const window =
          legacyEvents && !['start_date', 'end_date', 'include'].includes(arg) ? `&${LEGACY_LIST_WINDOW}` : '';
        const who: Who = arg === 'status' ? 'admin' : null;
        const q = (value: string) =>
          `per_page=${arg === 'per_page' ? value : 50}${arg === 'per_page' ? '' : `&${arg}=${encodeURIComponent(value)}`}${window}`;
        lines.push(...(await compareFiltered(route, q(v), who, arg, q(w))));
      }
    }
    expect(missing, 'declared list arguments with no value to try (filterValue)').toEqual([]);
    check('filters', lines);

    async function compareFiltered(
      route: string,
      query: string,
      who: Who,
      arg: string,
      twinQuery = query,
    ): Promise<string[]> {
      const twinRoute = contractNames(route + '/', real).replace(/\/$/, '');
      const toTwin = twin.site.key.names === 'spec' ? twinRoute : route;
      const [a, b] = await Promise.all([
        filtered(sides[0], `${route}?${query}`, who),
        filtered(sides[1], `${toTwin}?${twinQuery}`, who),
      ]);
      return compare('filter', `${contractNames(route + '/', real).replace(/\/$/, '')} ${arg}`, a, b);
    }
  });

  it('what a legacy title-only update resets', async () => {
    const body = (s: RealSite) => ({
      title: 'Differential write',
      description: '<p>Kept?</p>',
      excerpt: 'An excerpt',
      start_date: `${localDay(40)} 10:00:00`,
      end_date: `${localDay(40)} 12:00:00`,
      status: 'publish',
      cost: '15',
      website: 'https://example.org/differential',
      featured: true,
      sticky: true,
      show_map: true,
      show_map_link: true,
      hide_from_listings: true,
      date: '2020-01-02 03:04:05',
      timezone: 'Europe/London',
      organizer: [s.calendar.organizers[0]],
    });
    const lines: string[] = [];
    const results = await Promise.all(
      sides.map(async (s) => {
        const made = await rest(s.site, 'POST', `/${s.site.ns.legacy}/events`, {
          body: body(s.site),
          auth: adminAuth(s.site),
        });
        expect(made.status, `${s.site.label}: create ${JSON.stringify(made.body).slice(0, 300)}`).toBe(201);
        s.made.push(made.body.id);
        const before = fieldsOf(made.body, s.site);
        const updated = await rest(s.site, 'POST', `/${s.site.ns.legacy}/events/${made.body.id}`, {
          body: { title: 'Differential write, renamed' },
          auth: adminAuth(s.site),
        });
        const after = fieldsOf((await rest(s.site, 'GET', `/${s.site.ns.legacy}/events/${made.body.id}`)).body, s.site);
        return { status: updated.status, before, changes: changes(before, after) };
      }),
    );
    lines.push(...compare('write', 'legacy create', results[0]!.before, results[1]!.before));
    lines.push(
      ...compare(
        'write',
        'legacy title-only update',
        { status: results[0]!.status, ...results[0]!.changes },
        { status: results[1]!.status, ...results[1]!.changes },
      ),
    );
    check('write', lines);
  });

  it.runIf(shape === 'tec615')('what a calendar-core title-only PATCH resets', async () => {
    const body = (s: RealSite) => ({
      title: 'Differential core write',
      start_date: `${localDay(41)} 10:00:00`,
      end_date: `${localDay(41)} 12:00:00`,
      status: 'publish',
      cost: '15',
      website: 'https://example.org/differential',
      featured: true,
      sticky: true,
      show_map: false,
      show_map_link: false,
      hide_from_listings: true,
      venue: s.calendar.venues[0],
    });
    const results = await Promise.all(
      sides.map(async (s) => {
        const made = await rest(s.site, 'POST', `/${s.site.ns.legacy}/events`, {
          body: body(s.site),
          auth: adminAuth(s.site),
        });
        expect(made.status).toBe(201);
        s.made.push(made.body.id);
        const id = made.body.id;
        const [legacyBefore, coreBefore] = await Promise.all([
          rest(s.site, 'GET', `/${s.site.ns.legacy}/events/${id}`),
          rest(s.site, 'GET', `/${s.site.ns.core}/events/${id}`),
        ]);
        const patched = await rest(s.site, 'PATCH', `/${s.site.ns.core}/events/${id}`, {
          body: { title: 'Differential core write, renamed' },
          auth: adminAuth(s.site),
        });
        const [legacyAfter, coreAfter] = await Promise.all([
          rest(s.site, 'GET', `/${s.site.ns.legacy}/events/${id}`),
          rest(s.site, 'GET', `/${s.site.ns.core}/events/${id}`),
        ]);
        const coreFields = (o: any) =>
          Object.fromEntries(
            Object.keys(o ?? {})
              .filter((k) => !['_links', 'modified', 'modified_gmt'].includes(k))
              .map((k) => [k, o[k]]),
          );
        return {
          status: patched.status,
          patchedKeys: types(patched.body, 1),
          legacy: changes(fieldsOf(legacyBefore.body, s.site), fieldsOf(legacyAfter.body, s.site)),
          core: changes(coreFields(coreBefore.body), coreFields(coreAfter.body)),
        };
      }),
    );
    check('write', compare('write', 'core title-only PATCH', results[0], results[1]));
  });

  it('every kept difference still shows', () => {
    const stale = KEPT.filter((k) => applicable(k) && !found.includes(`${k.where}`)).map(
      (k) => `${k.where} (${k.why})`,
    );
    expect(stale, `KEPT entries that ${real.label} no longer shows`).toEqual([]);
  });
});
