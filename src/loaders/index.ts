/**
 * DataLoaders, created per request (never shared between callers: each
 * carries the caller's credentials through its session).
 *
 * - Events by ID batch into one legacy `include=` list request per 50 IDs
 *   (the legacy list is the only one that takes `include`); without the legacy
 *   interface they are single calendar-core GETs in parallel.
 * - Venues, organizers and terms embedded in list responses prime the
 *   loaders, so an object referenced by many events is fetched at most once.
 * - Fields only the other interface serves load that interface's copy of the
 *   object, batched the same way.
 */
import DataLoader from 'dataloader';
import { legacyEvent, legacyOrganizer, legacyTerm, legacyVenue } from '../mapping/legacy.ts';
import { coreEvent, coreOrganizer, coreSeries, coreVenue } from '../mapping/core.ts';
import type { EventModel, OrganizerModel, SeriesModel, TermModel, VenueModel } from '../mapping/models.ts';
import type { UpstreamSession } from '../upstream/client.ts';
import type { SiteInfo } from '../upstream/discovery.ts';
import { isGatewayError } from '../upstream/errors.ts';
import { LEGACY_MAX_PER_PAGE, legacyGet, legacyList } from '../upstream/calendarLegacy.ts';
import { CORE_MAX_PER_PAGE, coreGet, coreList } from '../upstream/calendarCore.ts';
import type { Limiter } from './limit.ts';

function chunks<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** A missing or unreadable object reads as null (the caller gets `null`, not an error). */
function missing(err: unknown): boolean {
  return isGatewayError(err) && ['NOT_FOUND', 'FORBIDDEN', 'UNAUTHENTICATED', 'GONE'].includes(err.code) && err.extensions.upstream !== undefined;
}

async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (missing(err)) return null;
    throw err;
  }
}

export function createLoaders(session: UpstreamSession, site: SiteInfo, limit: Limiter) {
  const singles = <V>(get: (id: number) => Promise<V | null>) =>
    new DataLoader<number, V | null>(async (ids) => Promise.all(ids.map((id) => limit(() => get(id)).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))))));

  const eventLegacy = new DataLoader<number, EventModel | null>(async (ids) => {
    const found = new Map<number, EventModel>();
    await Promise.all(
      chunks(ids, LEGACY_MAX_PER_PAGE).map((part) =>
        limit(async () => {
          // `include` voids the date window; no `status`, so editors also see their drafts.
          const page = await legacyList(session, 'events', { include: part.join(',') }, 1, part.length);
          for (const raw of page.items) {
            const m = legacyEvent(raw);
            found.set(m.databaseId, m);
          }
        }),
      ),
    );
    return ids.map((id) => found.get(id) ?? null);
  });
  const eventCore = singles((id) => orNull(coreGet(session, 'events', id).then(coreEvent)));
  const eventLegacySingle = singles((id) => orNull(legacyGet(session, 'events', id).then(legacyEvent)));

  const venueCore = singles((id) => orNull(coreGet(session, 'venues', id).then(coreVenue)));
  const venueLegacy = singles((id) => orNull(legacyGet(session, 'venues', id).then(legacyVenue)));
  const organizerCore = singles((id) => orNull(coreGet(session, 'organizers', id).then(coreOrganizer)));
  const organizerLegacy = singles((id) => orNull(legacyGet(session, 'organizers', id).then(legacyOrganizer)));

  const terms = (kind: 'categories' | 'tags') =>
    new DataLoader<number, TermModel | null>(async (ids) => {
      const found = new Map<number, TermModel>();
      await Promise.all(
        chunks(ids, LEGACY_MAX_PER_PAGE).map((part) =>
          limit(async () => {
            const page = await legacyList(session, kind, { include: part.join(','), hide_empty: false }, 1, part.length);
            for (const raw of page.items) {
              const t = legacyTerm(raw, kind === 'categories' ? 'Category' : 'Tag');
              found.set(t.databaseId, t);
            }
          }),
        ),
      );
      return ids.map((id) => found.get(id) ?? null);
    });
  const category = terms('categories');
  const tag = terms('tags');

  // Series have no single route and no `include`: one walk over the list per request.
  let allSeries: Promise<Map<number, SeriesModel>> | null = null;
  const seriesAll = () =>
    (allSeries ??= (async () => {
      const map = new Map<number, SeriesModel>();
      const first = await limit(() => coreList(session, 'series', { status: ['publish'] }, 1, CORE_MAX_PER_PAGE));
      const pages = first.total ? Math.ceil(first.total / CORE_MAX_PER_PAGE) : 1;
      const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, i) => limit(() => coreList(session, 'series', { status: ['publish'] }, i + 2, CORE_MAX_PER_PAGE))));
      for (const p of [first, ...rest]) for (const raw of p.items) {
        const s = coreSeries(raw);
        map.set(s.databaseId, s);
      }
      return map;
    })());
  const series = new DataLoader<number, SeriesModel | null>(async (ids) => {
    const map = await seriesAll();
    return ids.map((id) => map.get(id) ?? null);
  });

  const loaders = {
    /** By ID, the cheapest way the site allows (legacy include batches). */
    event: site.hasLegacy ? eventLegacy : eventCore,
    eventLegacy,
    eventCore,
    /** Legacy single reads (the only ones with json_ld). */
    eventLegacySingle,
    venue: site.hasCore ? venueCore : venueLegacy,
    venueCore,
    venueLegacy,
    organizer: site.hasCore ? organizerCore : organizerLegacy,
    organizerCore,
    organizerLegacy,
    category,
    tag,
    series,
  };

  /** Puts objects that arrived embedded or in lists into the loaders of their source. */
  function prime(m: EventModel | VenueModel | OrganizerModel | TermModel): void {
    switch (m.kind) {
      case 'Event':
        (m.source === 'legacy' ? eventLegacy : eventCore).prime(m.databaseId, m);
        for (const v of m.venues ?? []) prime(v);
        for (const o of m.organizers ?? []) prime(o);
        for (const t of m.categories ?? []) prime(t);
        for (const t of m.tags ?? []) prime(t);
        break;
      case 'Venue':
        (m.source === 'legacy' ? venueLegacy : venueCore).prime(m.databaseId, m);
        break;
      case 'Organizer':
        (m.source === 'legacy' ? organizerLegacy : organizerCore).prime(m.databaseId, m);
        break;
      case 'Category':
        // Embedded terms lack the permalink; only full archive terms are primed.
        if (m.url !== undefined) category.prime(m.databaseId, m);
        break;
      case 'Tag':
        if (m.url !== undefined) tag.prime(m.databaseId, m);
        break;
    }
  }

  return { ...loaders, prime };
}

export type Loaders = ReturnType<typeof createLoaders>;
