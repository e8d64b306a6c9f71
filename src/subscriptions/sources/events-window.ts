/**
 * The upcoming window (docs/subscriptions.md): where the site cannot order
 * events by modification time (The Events Calendar before 6.15, the legacy
 * interface only), each poll reads the first SUBSCRIPTION_WINDOW_EVENTS
 * upcoming events (the legacy list's own default window, from yesterday; all
 * pages in parallel) and compares them with the previous poll's:
 *
 * - an event new to the window, dated the second it was modified and after
 *   the previous poll's newest change, is CREATED; one whose modification is
 *   newer than that is UPDATED (moved into the window by an edit); one merely
 *   reached by time is nothing;
 * - an event whose modification time changed is UPDATED;
 * - an event that left the window before its end, and not past its far end
 *   (where newer events push the last ones out), is read by ID once: DELETED
 *   when that finds nothing, UPDATED when it was modified (moved by an edit).
 *
 * On a site that has calendar-core/v1 the modified list finds creations and
 * updates everywhere; this window then runs for the one thing that list
 * cannot see, events leaving it (trashed, deleted for good), and reports only
 * DELETED. Changes to events outside the window (past ones, or beyond it) are
 * not seen on legacy-only sites, except through gateway writes and the
 * automation feeds.
 */
import { DateTime } from 'luxon';
import { coreEvent } from '../../namespaces/calendar/core-mapping.ts';
import { luxonZone } from '../../mapping/dates.ts';
import { legacyEvent } from '../../namespaces/calendar/legacy-mapping.ts';
import type { EventModel } from '../../mapping/models.ts';
import { CORE_MAX_PER_PAGE, coreList } from '../../namespaces/calendar/core-requests.ts';
import { LEGACY_MAX_PER_PAGE, legacyList } from '../../namespaces/calendar/legacy-requests.ts';
import type { SiteInfo } from '../../upstream/discovery.ts';
import type { Change } from '../types.ts';
import { eventsModified } from './events-modified.ts';
import {
  fingerprint,
  isoNow,
  isPublic,
  looksCreated,
  utcSecond,
  type PollInput,
  type Source,
  type SubscriptionSettings,
} from './source.ts';

/** Departures read by ID in one poll; more wait for the next. */
const MAX_CHECKS = 20;

/** `[id, modified (UTC), public (1/0), start (UTC), end (UTC), fingerprint]`. */
type Entry = [number, string, 0 | 1, string, string, string];

export interface WindowState {
  /** The newest modification seen in the window (UTC). */
  newest: string | null;
  events: Entry[];
  /** The highest event ID seen: WordPress numbers new posts upwards, so a new event is above it. */
  maxId: number;
}

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

/** The window's events, in start order: every page in parallel. */
async function readWindow({ ctx, site, now, settings }: PollInput): Promise<{ items: EventModel[]; full: boolean }> {
  const size = settings.windowEvents;
  const legacy = site.hasLegacy;
  const per = legacy ? LEGACY_MAX_PER_PAGE : CORE_MAX_PER_PAGE;
  // calendar-core/v1 has no default window: from now, in the site's time zone.
  const query = legacy
    ? {}
    : {
        start_date: DateTime.fromMillis(now, { zone: luxonZone(site.timezone) ?? 'utc' }).toFormat(
          'yyyy-MM-dd HH:mm:ss',
        ),
      };
  const pages = Math.ceil(size / per);
  const read = await Promise.all(
    Array.from({ length: pages }, (_, i) =>
      legacy
        ? legacyList(ctx.upstream, 'events', query, i + 1, per)
        : coreList(ctx.upstream, 'events', query, i + 1, per),
    ),
  );
  const items = read
    .flatMap((p) => p.items)
    .map((raw) => (legacy ? legacyEvent(raw) : coreEvent(raw)))
    .slice(0, size);
  return { items, full: items.length >= size };
}

/** Whether this site's modified list covers creations and updates, leaving the window its departures. */
const departuresOnly = (site: SiteInfo, settings: SubscriptionSettings) => eventsModified.applies(site, settings);

export const eventsWindow: Source<WindowState> = {
  name: 'events:window',
  topic: 'events',
  applies: (site, settings) => (site.hasLegacy || site.hasCore) && settings.windowEvents > 0,
  async poll(input, state) {
    const { ctx, site, now, settings } = input;
    const { items, full } = await readWindow(input);
    const events: Entry[] = items.map((m) => [
      m.databaseId,
      utcSecond(m.modifiedAtUtc) ?? '',
      isPublic(m) ? 1 : 0,
      utcSecond(m.startDateUtc) ?? '',
      utcSecond(m.endDateUtc) ?? '',
      fingerprint(m),
    ]);
    const newestNow = events.reduce<string | null>((a, [, mod]) => (mod && (!a || mod > a) ? mod : a), null);
    const newest = state?.newest && (!newestNow || state.newest > newestNow) ? state.newest : newestNow;
    const maxId = Math.max(state?.maxId ?? 0, ...events.map((e) => e[0]));
    if (!state) return { changes: [], state: { newest, events, maxId } };

    const only = departuresOnly(site, settings);
    const before = new Map(state.events.map((e) => [e[0], e]));
    const changes: Change[] = [];
    const change = (
      id: number,
      kind: Change['kind'],
      modified: string | null,
      wasPublic: boolean | null,
      again = false,
    ) =>
      changes.push({
        topic: 'events',
        id,
        kind,
        modified,
        at: modified ?? isoNow(now),
        source: 'UPCOMING_WINDOW',
        wasPublic,
        ...(again ? { again } : {}),
      });

    if (!only) {
      for (const m of items) {
        const modified = utcSecond(m.modifiedAtUtc);
        const prev = before.get(m.databaseId);
        if (!modified) continue;
        if (prev) {
          if (prev[1] !== modified) change(m.databaseId, 'UPDATED', modified, prev[2] === 1);
          // Saved again within the same second: only its content tells.
          else if (prev[5] !== fingerprint(m)) change(m.databaseId, 'UPDATED', modified, prev[2] === 1, true);
        } else if (
          m.databaseId > (state.maxId ?? 0) &&
          looksCreated(ms(m.publishedAtUtc) ?? ms(m.publishedAt), ms(modified), ms(state.newest))
        ) {
          change(m.databaseId, 'CREATED', modified, null);
        } else if (state.newest === null || modified > state.newest) {
          change(m.databaseId, 'UPDATED', modified, null);
        }
      }
    }

    // Departures: not ended, not pushed past the far end of a full window.
    const listed = new Set(events.map((e) => e[0]));
    const farEnd = full ? (events.at(-1)?.[3] ?? '') : '\uffff';
    const yesterday = isoNow(now - 86_400_000);
    const left = state.events
      .filter(([id, , , start, end]) => !listed.has(id) && start <= farEnd && (end || start) >= yesterday)
      .slice(0, MAX_CHECKS);
    if (left.length) {
      const found = await ctx.loaders.event.loadMany(left.map(([id]) => id));
      left.forEach(([id, modified, pub], i) => {
        const r = found[i];
        if (r instanceof Error) throw r;
        const now2 = r ? utcSecond(r.modifiedAtUtc) : null;
        if (!r || r.status === 'trash') change(id, 'DELETED', null, pub === 1);
        else if (!only && now2 && now2 !== modified) change(id, 'UPDATED', now2, pub === 1);
      });
    }
    changes.sort(
      (a, b) =>
        (a.kind === 'DELETED' ? 1 : 0) - (b.kind === 'DELETED' ? 1 : 0) ||
        (a.modified ?? '').localeCompare(b.modified ?? ''),
    );
    return { changes, state: { newest, events, maxId } };
  },
};
