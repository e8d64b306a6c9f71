/**
 * Filtering and ordering of calendar posts, shared by both interfaces. Each
 * interface turns its own parameters (A1/A2 legacy, B1/B3/B4 core) into these
 * criteria; the semantics live here once.
 *
 * Dates compare against the event's local `Y-m-d H:i:s` (TEC's default
 * "local time zone" mode): `startDate` keeps events starting at or after it,
 * `endDate` events ending at or before it (not overlap queries,
 * calendar-upstream.md §1.2); `startsAfter`/`startsBefore`/`endsAfter`/
 * `endsBefore` are bounds on the start or the end.
 */
import type { Storage } from '../capabilities.ts';
import type { PostRow } from '../store/db.ts';
import {
  CATEGORY_TAX,
  EVENT,
  ORGANIZER,
  TAG_TAX,
  VENUE,
  type EventMeta,
  type EventPost,
  type VenueMeta,
} from './model.ts';

export interface GeoFilter {
  lat: number;
  lng: number;
  /** Kilometres. */
  distance: number;
}

export interface EventCriteria {
  statuses: readonly string[];
  include?: number[];
  startDate?: string;
  endDate?: string;
  startsBefore?: string;
  startsAfter?: string;
  endsBefore?: string;
  endsAfter?: string;
  search?: string;
  /** Term IDs; a parent category matches its children too (WordPress's include_children). */
  categories?: number[];
  tags?: number[];
  venues?: number[];
  organizers?: number[];
  featured?: boolean;
  postParent?: number;
  ticketed?: boolean;
  /** Venue has (true) or lacks (false) coordinates. */
  hasGeoloc?: boolean;
  geo?: GeoFilter;
  inSeries?: boolean;
  series?: number[];
  /** Events sharing a category or tag with this event (itself excluded). */
  relatedTo?: number;
  recurring?: boolean;
  virtual?: boolean;
  /** Leave out events marked "hide from listings". */
  hideHidden?: boolean;
  orderby?: 'date' | 'event_date' | 'title' | 'menu_order' | 'modified' | 'id' | 'include';
  order?: 'ASC' | 'DESC';
}

export function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, '');
}

/** Great-circle distance in kilometres. */
export function haversineKm(aLat: number, aLng: number, bLat: number, bLng: number): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(bLat - aLat);
  const dLng = rad(bLng - aLng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(aLat)) * Math.cos(rad(bLat)) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Known places for `near`: the sandbox's stand-in for a geocoder (case-insensitive city names). */
export const GAZETTEER: Record<string, [number, number]> = {
  'new york': [40.7128, -74.006],
  boston: [42.3601, -71.0589],
  'los angeles': [34.0522, -118.2437],
  paris: [48.8566, 2.3522],
  lyon: [45.764, 4.8357],
  tokyo: [35.6762, 139.6503],
  sydney: [-33.8688, 151.2093],
  london: [51.5074, -0.1278],
  reykjavik: [64.1466, -21.9426],
  kolkata: [22.5726, 88.3639],
};

/** Resolves `near` to coordinates; null when the place is unknown. */
export function geocode(near: string): [number, number] | null {
  const key = near.trim().toLowerCase();
  for (const [name, coords] of Object.entries(GAZETTEER)) if (key.includes(name)) return coords;
  return null;
}

function descendants(site: Storage, ids: number[]): Set<number> {
  const all = site.store.terms(CATEGORY_TAX);
  const out = new Set(ids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const t of all)
      if (out.has(t.parent) && !out.has(t.id)) {
        out.add(t.id);
        grew = true;
      }
  }
  return out;
}

function matchesSearch(p: PostRow<unknown>, search: string): boolean {
  const needle = search.toLowerCase();
  return (
    p.title.toLowerCase().includes(needle) ||
    stripTags(p.content).toLowerCase().includes(needle) ||
    stripTags(p.excerpt).toLowerCase().includes(needle)
  );
}

export function findEvents(site: Storage, c: EventCriteria): EventPost[] {
  const { store } = site;
  let list = c.include?.length
    ? store.postsByIds<EventMeta>(c.include).filter((p) => p.type === EVENT && c.statuses.includes(p.status))
    : store.posts<EventMeta>(EVENT, c.statuses);
  const cats = c.categories?.length ? descendants(site, c.categories) : null;
  const catMap = cats || c.relatedTo ? store.termMap(CATEGORY_TAX) : null;
  const tagMap = c.tags?.length || c.relatedTo ? store.termMap(TAG_TAX) : null;
  const venues =
    c.hasGeoloc !== undefined || c.geo ? new Map(store.posts<VenueMeta>(VENUE).map((v) => [v.id, v.meta])) : null;
  let related: { id: number; terms: Set<number> } | null = null;
  if (c.relatedTo) {
    related = {
      id: c.relatedTo,
      terms: new Set([...(catMap!.get(c.relatedTo) ?? []), ...(tagMap!.get(c.relatedTo) ?? [])]),
    };
  }
  list = list.filter((p) => {
    const m = p.meta;
    if (c.hideHidden && m.hideFromListings) return false;
    if (c.startDate && m.startDate < c.startDate) return false;
    if (c.endDate && m.endDate > c.endDate) return false;
    if (c.startsAfter && m.startDate < c.startsAfter) return false;
    if (c.startsBefore && m.startDate > c.startsBefore) return false;
    if (c.endsAfter && m.endDate < c.endsAfter) return false;
    if (c.endsBefore && m.endDate > c.endsBefore) return false;
    if (c.search && !matchesSearch(p, c.search)) return false;
    if (cats && !(catMap!.get(p.id) ?? []).some((t) => cats.has(t))) return false;
    if (c.tags?.length && !(tagMap!.get(p.id) ?? []).some((t) => c.tags!.includes(t))) return false;
    if (c.venues?.length && !m.venueIds.some((v) => c.venues!.includes(v))) return false;
    if (c.organizers?.length && !m.organizerIds.some((o) => c.organizers!.includes(o))) return false;
    if (c.featured !== undefined && m.featured !== c.featured) return false;
    if (c.postParent !== undefined && p.parent !== c.postParent) return false;
    if (c.ticketed !== undefined && m.ticketed !== c.ticketed) return false;
    if (c.virtual !== undefined && m.virtual !== c.virtual) return false;
    if (c.inSeries !== undefined && m.seriesId > 0 !== c.inSeries) return false;
    if (c.recurring !== undefined && m.seriesId > 0 !== c.recurring) return false;
    if (c.series?.length && !c.series.includes(m.seriesId)) return false;
    if (related) {
      if (p.id === related.id) return false;
      const mine = [...(catMap!.get(p.id) ?? []), ...(tagMap!.get(p.id) ?? [])];
      if (!mine.some((t) => related!.terms.has(t))) return false;
    }
    if (venues) {
      const geo = m.venueIds
        .map((v) => venues.get(v))
        .filter((v): v is VenueMeta => !!v && v.lat !== null && v.lng !== null);
      if (c.hasGeoloc !== undefined && geo.length > 0 !== c.hasGeoloc) return false;
      if (c.geo && !geo.some((v) => haversineKm(c.geo!.lat, c.geo!.lng, v.lat!, v.lng!) <= c.geo!.distance))
        return false;
    }
    return true;
  });
  return sortPosts(list, c.orderby ?? 'event_date', c.order ?? 'ASC', c.include);
}

/** `startDateUtc` of an event's meta, read from a post of any meta type (sortPosts sorts every kind). */
function startDateUtcOf(meta: unknown): string | undefined {
  const v = typeof meta === 'object' && meta !== null ? (meta as Partial<EventMeta>).startDateUtc : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** A venue's coordinates, from a post of any meta type (findPlaces lists venues and organizers alike). */
function latLngOf(meta: unknown): Pick<VenueMeta, 'lat' | 'lng'> {
  const m = typeof meta === 'object' && meta !== null ? (meta as Partial<VenueMeta>) : {};
  return { lat: typeof m.lat === 'number' ? m.lat : null, lng: typeof m.lng === 'number' ? m.lng : null };
}

export function sortPosts<M>(
  list: PostRow<M>[],
  orderby: string,
  order: 'ASC' | 'DESC',
  include?: number[],
): PostRow<M>[] {
  const dir = order === 'DESC' ? -1 : 1;
  const key = (p: PostRow<M>): string | number => {
    switch (orderby) {
      case 'event_date':
        return startDateUtcOf(p.meta) ?? p.dateGmt;
      case 'date':
        return p.dateGmt;
      case 'title':
        return p.title.toLowerCase();
      case 'menu_order':
        return p.menuOrder;
      case 'modified':
        return p.modifiedGmt;
      case 'include':
        return include ? include.indexOf(p.id) : p.id;
      default:
        return p.id;
    }
  };
  return [...list].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka < kb) return -dir;
    if (ka > kb) return dir;
    return (a.id - b.id) * dir;
  });
}

export interface PlaceCriteria {
  statuses: readonly string[];
  include?: number[];
  search?: string;
  /** Places linked to this event. */
  event?: number;
  /** Linked to at least one event (true) or to none (false). */
  hasEvents?: boolean;
  /** Linked to an event that has not ended yet. */
  onlyWithUpcoming?: boolean;
  hasGeoloc?: boolean;
  geo?: GeoFilter;
  orderby?: 'title' | 'date' | 'id' | 'modified';
  order?: 'ASC' | 'DESC';
}

/** Venues or organizers; `kind` says which. Ordered by title by default, as TEC lists them. */
export function findPlaces<M>(site: Storage, kind: 'venue' | 'organizer', c: PlaceCriteria, now: string): PostRow<M>[] {
  const { store } = site;
  const type = kind === 'venue' ? VENUE : ORGANIZER;
  let list = store.posts<M>(type, c.statuses);
  if (c.include?.length) list = list.filter((p) => c.include!.includes(p.id));
  const needLinks = c.event !== undefined || c.hasEvents !== undefined || c.onlyWithUpcoming;
  const linked = new Map<number, EventMeta[]>();
  let eventLinks: number[] | null = null;
  if (needLinks) {
    for (const e of store.posts<EventMeta>(EVENT, ['publish'])) {
      for (const id of kind === 'venue' ? e.meta.venueIds : e.meta.organizerIds) {
        const l = linked.get(id);
        if (l) l.push(e.meta);
        else linked.set(id, [e.meta]);
      }
    }
    if (c.event !== undefined) {
      const ev = store.post<EventMeta>(c.event);
      eventLinks = ev && ev.type === EVENT ? (kind === 'venue' ? ev.meta.venueIds : ev.meta.organizerIds) : [];
    }
  }
  list = list.filter((p) => {
    if (c.search && !matchesSearch(p, c.search)) return false;
    if (eventLinks && !eventLinks.includes(p.id)) return false;
    if (c.hasEvents !== undefined && linked.has(p.id) !== c.hasEvents) return false;
    if (c.onlyWithUpcoming && !(linked.get(p.id) ?? []).some((e) => e.endDateUtc >= now)) return false;
    if (kind === 'venue' && (c.hasGeoloc !== undefined || c.geo)) {
      const v = latLngOf(p.meta);
      const has = v.lat !== null && v.lng !== null;
      if (c.hasGeoloc !== undefined && has !== c.hasGeoloc) return false;
      if (c.geo && (!has || haversineKm(c.geo.lat, c.geo.lng, v.lat!, v.lng!) > c.geo.distance)) return false;
    }
    return true;
  });
  return sortPosts(list, c.orderby ?? 'title', c.order ?? 'ASC');
}

/** Slices a sorted list into one page; totals as both interfaces report them. */
export function paginate<T>(
  list: T[],
  page: number,
  perPage: number,
): { items: T[]; total: number; totalPages: number } {
  const total = list.length;
  return { items: list.slice((page - 1) * perPage, page * perPage), total, totalPages: Math.ceil(total / perPage) };
}
