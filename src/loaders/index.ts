/**
 * DataLoaders, created per request (never shared between callers: each
 * carries the caller's credentials through its session).
 *
 * - Events by ID batch into one legacy `include=` list request per 50 IDs
 *   (the legacy list is the only one that takes `include`). `include=` forces
 *   the default window (yesterday to +24 months, docs/sandbox.md "As strict as the real site"), so
 *   the IDs it does not return are read one by one, in parallel, through the
 *   legacy single route. Without the legacy interface they are single
 *   calendar-core GETs in parallel (the operation's session caps how many
 *   are in flight: upstream/session.ts).
 * - The complete category taxonomy is read once per request (one request when
 *   it fits one page): trees and `parent` filters come from it.
 * - Venues, organizers and terms embedded in list responses prime the
 *   loaders, so an object referenced by many events is fetched at most once.
 * - Fields only the other interface serves load that interface's copy of the
 *   object, batched the same way.
 */
import DataLoader from 'dataloader';
import { legacyEvent, legacyOrganizer, legacyTerm, legacyVenue } from '../namespaces/calendar/legacy-mapping.ts';
import { coreEvent, coreOrganizer, coreSeries, coreVenue } from '../namespaces/calendar/core-mapping.ts';
import type { EventModel, OrganizerModel, SeriesModel, TermModel, VenueModel } from '../mapping/models.ts';
import type { UpstreamSession } from '../upstream/client.ts';
import type { SiteInfo } from '../upstream/discovery.ts';
import { isGatewayError } from '../errors.ts';
import { LEGACY_MAX_PER_PAGE, legacyGet, legacyList } from '../namespaces/calendar/legacy-requests.ts';
import { CORE_MAX_PER_PAGE, coreGet, coreList } from '../namespaces/calendar/core-requests.ts';
import { readAll } from '../paging/window.ts';
import { chooseInterface, chosenOr } from '../namespaces/calendar/choose.ts';
import type { CalendarKind } from '../namespaces/calendar/served.ts';
import { other, type Iface } from '../namespaces/calendar/vocabulary.ts';
import { NO_HINT, type TotalHints } from '../paging/hints.ts';

/** Upstream codes about the caller's credentials: an error, never "not found". */
const CREDENTIAL_CODES = new Set([
  'incorrect_password',
  'invalid_username',
  'invalid_email',
  'application_passwords_disabled',
  'application_passwords_disabled_for_user',
]);

/**
 * Not found is `null`, however the site says it. One rule for every read by ID
 * or slug: a 404 or 410; calendar-core's 401/403 `rest_forbidden` for an ID that
 * does not exist (docs/sandbox.md, "As strict as the real site"), the legacy 403s for trashed and
 * unreadable objects; the legacy 400s for a slug that matches nothing or an ID
 * of another type ("Invalid parameter(s): slug", `rest-invalid-event-id`). A
 * wrong password stays an error.
 */
export function missing(err: unknown): boolean {
  if (!isGatewayError(err) || err.extensions.upstream === undefined) return false;
  const code = err.extensions.upstream.code ?? '';
  switch (err.code) {
    case 'NOT_FOUND':
    case 'GONE':
      return true;
    case 'FORBIDDEN':
    case 'UNAUTHENTICATED':
      return !CREDENTIAL_CODES.has(code);
    case 'BAD_USER_INPUT': {
      if (code === 'rest-invalid-event-id') return true;
      const params = err.extensions.params;
      const names = Array.isArray(params) ? params : Object.keys(params ?? {});
      return code === 'rest_invalid_param' && names.length > 0 && names.every((n) => n === 'id' || n === 'slug');
    }
    default:
      return false;
  }
}

export async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (missing(err)) return null;
    throw err;
  }
}

export function createLoaders(session: UpstreamSession, site: SiteInfo, totals?: TotalHints) {
  const hint = (list: string) => totals?.for(list) ?? NO_HINT;
  const singles = <V>(get: (id: number) => Promise<V | null>) =>
    new DataLoader<number, V | null>(async (ids) =>
      Promise.all(ids.map((id) => get(id).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))))),
    );

  const eventLegacySingle = singles((id) => orNull(legacyGet(session, 'events', id).then(legacyEvent)));
  // `maxBatchSize`: one `include=` list request per page of IDs; DataLoader
  // dispatches the batches of one tick together, so they go out in parallel.
  const byPage = { maxBatchSize: LEGACY_MAX_PER_PAGE };
  const eventLegacy = new DataLoader<number, EventModel | null>(async (ids) => {
    const found = new Map<number, EventModel>();
    // No `status`, so editors also see their drafts. The site ignores any
    // dates sent with `include` and applies its default window instead.
    const page = await legacyList(session, 'events', { include: ids.join(',') }, 1, ids.length);
    for (const raw of page.items) {
      const m = legacyEvent(raw);
      found.set(m.databaseId, m);
    }
    // Outside that window (past events, events more than two years out): single reads.
    const outside = ids.filter((id) => !found.has(id));
    const singlesRead = await eventLegacySingle.loadMany(outside);
    const failed = new Map<number, Error>();
    outside.forEach((id, i) => {
      const m = singlesRead[i];
      if (m instanceof Error) failed.set(id, m);
      else if (m) found.set(id, m);
    });
    return ids.map((id) => failed.get(id) ?? found.get(id) ?? null);
  }, byPage);
  const eventCore = singles((id) => orNull(coreGet(session, 'events', id).then(coreEvent)));

  const venueCore = singles((id) => orNull(coreGet(session, 'venues', id).then(coreVenue)));
  const venueLegacy = singles((id) => orNull(legacyGet(session, 'venues', id).then(legacyVenue)));
  const organizerCore = singles((id) => orNull(coreGet(session, 'organizers', id).then(coreOrganizer)));
  const organizerLegacy = singles((id) => orNull(legacyGet(session, 'organizers', id).then(legacyOrganizer)));

  const terms = (kind: 'categories' | 'tags') =>
    new DataLoader<number, TermModel | null>(async (ids) => {
      const found = new Map<number, TermModel>();
      const page = await legacyList(session, kind, { include: ids.join(','), hide_empty: false }, 1, ids.length);
      for (const raw of page.items) {
        const t = legacyTerm(raw, kind === 'categories' ? 'Category' : 'Tag');
        found.set(t.databaseId, t);
      }
      return ids.map((id) => found.get(id) ?? null);
    }, byPage);
  const category = terms('categories');
  const tag = terms('tags');

  // The complete category taxonomy, once per request (one request when it fits
  // one page): category trees and `parent` filters are computed from it.
  let allCategories: Promise<TermModel[]> | null = null;
  const categoryTree = () =>
    (allCategories ??= readAll(
      (page, per) => legacyList(session, 'categories', { hide_empty: false }, page, per),
      LEGACY_MAX_PER_PAGE,
      hint('legacy:categories:{"hide_empty":false}'),
    ).then((raws) =>
      raws.map((raw) => {
        const t = legacyTerm(raw, 'Category');
        category.prime(t.databaseId, t);
        return t;
      }),
    ));

  // Series have no single route and no `include`: one walk over the list per request.
  let allSeries: Promise<Map<number, SeriesModel>> | null = null;
  const seriesAll = () =>
    (allSeries ??= readAll(
      (page, per) => coreList(session, 'series', { status: ['publish'] }, page, per),
      CORE_MAX_PER_PAGE,
      hint('core:series:{"status":["publish"]}'),
    ).then((raws) => new Map(raws.map((raw) => coreSeries(raw)).map((s) => [s.databaseId, s]))));
  const series = new DataLoader<number, SeriesModel | null>(async (ids) => {
    const map = await seriesAll();
    return ids.map((id) => map.get(id) ?? null);
  });

  // By ID, the interface the calendar's choice gives (namespaces/calendar/choose.ts): events
  // through legacy (its `include=` batches), venues and organizers through calendar-core; on a
  // site with neither, the other's loader (its reads are refused by the route gate, naming it).
  const byId = (type: CalendarKind, prefer: Iface) => chosenOr(chooseInterface(site, { type, prefer }), other(prefer));
  const loaders = {
    /** By ID, the cheapest way the site allows (legacy include batches). */
    event: byId('Event', 'legacy') === 'legacy' ? eventLegacy : eventCore,
    eventLegacy,
    eventCore,
    /** Legacy single reads (the only ones with json_ld). */
    eventLegacySingle,
    venue: byId('Venue', 'core') === 'core' ? venueCore : venueLegacy,
    venueCore,
    venueLegacy,
    organizer: byId('Organizer', 'core') === 'core' ? organizerCore : organizerLegacy,
    organizerCore,
    organizerLegacy,
    category,
    tag,
    /** Every category of the site, in the site's order. */
    categoryTree,
    /** The taxonomy read when it has already been asked for, else null (nothing is sent). */
    categoryTreeIfStarted: () => allCategories,
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
