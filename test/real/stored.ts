/**
 * What the real-calendar tier's write tests share: objects made on the site itself with every flag
 * away from its default, the site's stored state of an event as its legacy read shows it, and the
 * gateway's own count of requests sent (to check that nothing was).
 */
import { expect } from 'vitest';
import { adminAuth, rest, type RealGateway, type RealSite } from './kit.ts';

/** A per-run mark in titles, so a reused site's earlier objects are never mistaken for this run's. */
export const RUN = Date.now().toString(36);
let seq = 0;
export const uniq = (what: string) => `${what} ${RUN}-${++seq}`;

/** The requests the gateway has sent the site so far (its own counter). */
export async function upstreamRequests(g: RealGateway): Promise<number> {
  const m = await g.gateway.metrics.registry.getSingleMetric('sitegraph_upstream_requests_total')?.get();
  return (m?.values ?? []).reduce((sum, v) => sum + v.value, 0);
}

/** `Y-m-d H:i:s` of an RFC 3339 instant in the site's zone (Europe/Paris), as the legacy interface shows dates. */
export function paris(instant: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Paris',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant));
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** A cost's amount: the legacy read shows it with the site's default currency symbol (`$25` for `25`). */
export const amount = (cost: unknown) => String(cost ?? '').replace(/[^0-9.,-]/g, '');
const ids = (list: { id: number }[] | undefined | null) => (list ?? []).map((x) => x.id).sort((a, b) => a - b);
export const sorted = (list: number[]) => [...list].sort((a, b) => a - b);

/**
 * What the site stores of an event, as its legacy single read shows it to the admin (that read shows
 * every field a release resets); the modification time, which every write moves, left out.
 */
export async function storedEvent(site: RealSite, id: number): Promise<Record<string, unknown>> {
  const r = await rest(site, 'GET', `/${site.ns.legacy}/events/${id}`, { auth: adminAuth(site) });
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  const e = r.body;
  return {
    title: e.title,
    description: e.description,
    excerpt: e.excerpt,
    slug: e.slug,
    status: e.status,
    author: e.author,
    date: e.date,
    start_date: e.start_date,
    end_date: e.end_date,
    timezone: e.timezone,
    all_day: e.all_day,
    // The read shows the permalink as `website` while the event never had one, and "" once a legacy
    // update has stored none: both are no website.
    cost: amount(e.cost),
    website: e.website === e.url ? '' : e.website,
    show_map: e.show_map,
    show_map_link: e.show_map_link,
    hide_from_listings: e.hide_from_listings,
    sticky: e.sticky,
    featured: e.featured,
    venue: Array.isArray(e.venue) ? null : (e.venue?.id ?? null),
    organizers: ids(e.organizer),
    categories: ids(e.categories),
    tags: ids(e.tags),
  };
}

/** An event made directly on the site (not through the gateway), with every flag away from its default and an old publication date. */
export async function eventOnSite(site: RealSite, extra: Record<string, unknown> = {}): Promise<number> {
  const c = site.calendar;
  const r = await rest(site, 'POST', `/${site.ns.legacy}/events`, {
    auth: adminAuth(site),
    body: {
      title: uniq('Stored state'),
      description: 'Kept as it is.',
      status: 'publish',
      date: '2025-01-15 10:00:00',
      start_date: '2031-03-10 19:00:00',
      end_date: '2031-03-10 22:30:00',
      timezone: 'Europe/Paris',
      cost: '15',
      website: 'https://example.org/kept',
      featured: true,
      sticky: true,
      show_map: false,
      show_map_link: false,
      hide_from_listings: true,
      venue: c.venues[1],
      organizer: [c.organizers[0], c.organizers[2]],
      categories: [c.categories.jazz],
      tags: [c.tags[1]],
      ...extra,
    },
  });
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(201);
  return r.body.id as number;
}
