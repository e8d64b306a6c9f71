/**
 * Entity tags: what an operation's answer was built from, and what a write
 * makes stale, named the same way, so the response cache (operation-cache.ts)
 * drops exactly the answers a write can have changed, and a CDN can purge by
 * the same names (the `Surrogate-Key` header). Pure functions over the REST
 * paths the operation's session sent (in the spec's names).
 *
 * - `Event:208`, `Venue:13`, `Organizer:5`, `Series:9`, `Post:111`: one object,
 *   read by ID (a single route, or a list's `include=`);
 * - `list:events`, `list:venues`, ... `list:posts`: a list of that kind, whose
 *   members, order or totals any write of the kind can change;
 * - `embeds:venues`, `embeds:organizers`, `embeds:terms`: events carry their
 *   venues, organizers and terms embedded, so a write of one of those changes
 *   every answer that read events;
 * - `family:<name>`: anything else the site serves (SEO, governance, views,
 *   the aggregator, ...), by the upstream cache's families (policy.ts),
 *   which any write can change, as the site derives them from content;
 * - `all`: every answer (a write the gateway cannot place, a purge of everything).
 */
import { familyOf } from './policy.ts';

export const ALL = 'all';

const KINDS: Record<string, string> = {
  events: 'Event',
  venues: 'Venue',
  organizers: 'Organizer',
  series: 'Series',
  categories: 'Category',
  tags: 'Tag',
};
/** A calendar object route of either interface: `/calendar/events/v1/events/208`, `/calendar-core/v1/venues`. */
const CALENDAR =
  /^\/calendar(?:-core)?\/(?:events\/)?v1\/(events|venues|organizers|series|categories|tags)(?:\/(\d+|by-slug\/[^/]+))?\/?$/;
const POSTS = /^\/core\/v2\/posts(?:\/(\d+))?\/?$/;
/** Families any write can change (the site computes them from content of every kind). */
const DERIVED = ['seo', 'facet', 'governance', 'audit', 'other'].map((f) => `family:${f}`);

function ids(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  return typeof v === 'string' || typeof v === 'number' ? String(v).split(',').filter(Boolean) : [];
}

/** The tags of one term kind: terms are tagged by kind (their counts follow every event write). */
const termKind = (kind: string) => kind === 'categories' || kind === 'tags';

/** The tags a read (GET) of `path` with `query` adds to the answer that uses it. */
export function readTags(path: string, query: Readonly<Record<string, unknown>> | undefined): string[] {
  const c = CALENDAR.exec(path);
  if (c) {
    const kind = c[1]!;
    const out = kind === 'events' ? ['embeds:venues', 'embeds:organizers', 'embeds:terms'] : [];
    if (termKind(kind)) return [`list:${kind}`];
    const id = c[2];
    if (id && /^\d+$/.test(id)) out.push(`${KINDS[kind]}:${id}`);
    else if (!id && query?.include !== undefined) for (const i of ids(query.include)) out.push(`${KINDS[kind]}:${i}`);
    else out.push(`list:${kind}`);
    return out;
  }
  const p = POSTS.exec(path);
  if (p) {
    if (p[1]) return [`Post:${p[1]}`];
    const include = query?.include;
    return include !== undefined ? ids(include).map((i) => `Post:${i}`) : ['list:posts'];
  }
  return [`family:${familyOf(path)}`];
}

/** The tags a write to `path` (with its body: /batch/v1 items) makes stale. */
export function writeTags(path: string, body?: unknown): string[] {
  const out = new Set<string>(DERIVED);
  const add = (p: string): void => {
    const c = CALENDAR.exec(p);
    if (c) {
      const kind = c[1]!;
      const id = c[2];
      out.add(`list:${kind}`);
      if (id && /^\d+$/.test(id)) out.add(`${KINDS[kind]}:${id}`);
      else if (id) out.add(ALL); // by slug: which object is not known here
      if (kind === 'events') for (const t of ['list:categories', 'list:tags', 'list:series']) out.add(t);
      if (kind === 'venues' || kind === 'organizers') out.add(`embeds:${kind}`);
      if (termKind(kind)) out.add('embeds:terms');
      if (kind === 'series') out.add('list:events');
      return;
    }
    const post = POSTS.exec(p);
    if (post) {
      out.add('list:posts');
      if (post[1]) out.add(`Post:${post[1]}`);
      return;
    }
    // Other calendar writes (the aggregator's imports, the connectors, views) change events in ways not named here.
    if (p.startsWith('/calendar')) out.add(ALL);
    else out.add(`family:${familyOf(p)}`);
    if (p.startsWith('/duplicate-post/')) out.add(ALL);
  };
  if (path === '/batch/v1') {
    const requests = (body as { requests?: { path?: unknown }[] } | undefined)?.requests;
    if (!Array.isArray(requests)) return [ALL];
    for (const r of requests) {
      if (typeof r?.path !== 'string') return [ALL];
      add(r.path.split('?')[0]!);
    }
  } else {
    add(path);
  }
  return [...out];
}

/** The entity tags of an operation's reads (its session's GETs), each once. */
export function tagsOfReads(reads: readonly { path: string; query?: Record<string, unknown> | undefined }[]): string[] {
  const out = new Set<string>();
  for (const r of reads) for (const t of readTags(r.path, r.query)) out.add(t);
  return [...out];
}
