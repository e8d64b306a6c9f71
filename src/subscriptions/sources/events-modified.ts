/**
 * Events by modification time (calendar-core/v1, The Events Calendar 6.15+;
 * docs/subscriptions.md): `GET /calendar-core/v1/events?orderby=modified&order=DESC`,
 * read from the newest until the previous poll's newest, so one request per
 * poll while fewer than a page of events change between polls, and at most
 * MAX_PAGES when more do.
 *
 * - An event not among those the previous poll saw, dated the second it was
 *   modified and after the previous poll's newest change, is CREATED; any
 *   other newer modification is UPDATED.
 * - An event the previous poll saw among the newest that is gone although the
 *   list still reaches back to its modification time (the list only ever moves
 *   events up) was trashed, deleted or hidden from the poll's credential: it
 *   is read by ID once, and DELETED when that finds nothing.
 */
import { coreEvent } from '../../namespaces/calendar/core-mapping.ts';
import type { EventModel } from '../../mapping/models.ts';
import { coreList } from '../../namespaces/calendar/core-requests.ts';
import { declaredArgs } from '../../upstream/discovery.ts';
import type { Change } from '../types.ts';
import { fingerprint, isoNow, isPublic, looksCreated, utcSecond, type Source } from './source.ts';

/** Events per request: half of calendar-core's 100, so a quiet poll stays small. */
export const PAGE = 50;
/** Pages one poll may read: 200 changes between two polls; more are found by the next poll, or missed (logged). */
export const MAX_PAGES = 4;
/** Vanished events read by ID in one poll. */
const MAX_CHECKS = 20;
/** Every status calendar-core/v1 lists (a credential that may not see them is held to `publish` by the site). */
const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/** `[id, modified (UTC), public (1/0), fingerprint]` of the newest events the last poll saw. */
type Seen = [number, string, 0 | 1, string];

export interface ModifiedState {
  /** The newest modification seen (UTC). */
  newest: string | null;
  /** Every event seen modified at that second (a bulk import saves hundreds in one). */
  atNewest: number[];
  /** False when more events share that second than a poll reads: those not in `atNewest` are then left alone. */
  tiesComplete: boolean;
  top: Seen[];
  /** The highest event ID seen: WordPress numbers new posts upwards, so a new event is above it. */
  maxId: number;
}

/** Pages a baseline may read to see every event of the newest second. */
const BASELINE_PAGES = 20;

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

export const eventsModified: Source<ModifiedState> = {
  name: 'events:modified',
  topic: 'events',
  applies: (site) => site.hasCore && (declaredArgs(site, 'GET', '/calendar-core/v1/events')?.has('orderby') ?? true),
  async poll({ ctx, now }, state) {
    const query = { orderby: 'modified', order: 'DESC', ...(ctx.upstream.authenticated ? { status: STATUSES } : {}) };
    const items: EventModel[] = [];
    // Complete: the list ended, so every event the poll's credential sees is in `items`.
    let complete = false;
    let reached = false;
    const since = () => state?.newest ?? utcSecond(items[0]?.modifiedAtUtc);
    for (let page = 1; page <= (state ? MAX_PAGES : BASELINE_PAGES); page++) {
      const res = await coreList(ctx.upstream, 'events', query, page, PAGE);
      const models = res.items.map(coreEvent);
      items.push(...models);
      complete = models.length < PAGE;
      const oldest = utcSecond(models.at(-1)?.modifiedAtUtc);
      const from = since();
      // A poll stops at the previous newest second; a baseline reads past its own, to know every event of it.
      reached = oldest !== null && from !== null && (state ? oldest <= from : oldest < from);
      if (complete || reached) break;
    }
    const top: Seen[] = items
      .slice(0, PAGE)
      .map((m) => [m.databaseId, utcSecond(m.modifiedAtUtc) ?? '', isPublic(m) ? 1 : 0, fingerprint(m)]);
    const newest = utcSecond(items[0]?.modifiedAtUtc) ?? state?.newest ?? null;
    const tiesAt = (second: string | null) =>
      items.filter((m) => second !== null && utcSecond(m.modifiedAtUtc) === second).map((m) => m.databaseId);
    const maxId = Math.max(state?.maxId ?? 0, ...items.map((m) => m.databaseId));
    if (!state)
      return {
        changes: [],
        state: { newest, atNewest: tiesAt(newest), tiesComplete: complete || reached, top, maxId },
      };

    const before = new Map(state.top.map(([id, modified, pub, print]) => [id, { modified, pub, print }]));
    const seenAtNewest = new Set(state.atNewest);
    const changes: Change[] = [];
    for (const m of items) {
      const modified = utcSecond(m.modifiedAtUtc);
      if (!modified || (state.newest !== null && modified < state.newest)) break;
      const prev = before.get(m.databaseId);
      if (prev && prev.modified === modified) {
        // Saved again within the same second: only its content tells.
        if (prev.print !== fingerprint(m))
          changes.push({
            topic: 'events',
            id: m.databaseId,
            kind: 'UPDATED',
            modified,
            at: modified,
            source: 'MODIFIED_LIST',
            wasPublic: prev.pub === 1,
            again: true,
          });
        continue;
      }
      // The previous newest second: only events not seen at it then (all of them, unless it held too many to read).
      if (modified === state.newest && (seenAtNewest.has(m.databaseId) || !state.tiesComplete)) continue;
      // New: above every ID seen, and dated when it was saved (a site that re-dates an update still fails the first).
      const created =
        !prev &&
        m.databaseId > (state.maxId ?? 0) &&
        looksCreated(ms(m.publishedAtUtc) ?? ms(m.publishedAt), ms(modified), ms(state.newest));
      changes.push({
        topic: 'events',
        id: m.databaseId,
        kind: created ? 'CREATED' : 'UPDATED',
        modified,
        at: modified,
        source: 'MODIFIED_LIST',
        wasPublic: prev ? prev.pub === 1 : null,
      });
    }

    // Gone from the newest although the list reaches back past them: read them to know why.
    const listed = new Set(items.map((m) => m.databaseId));
    const reach = complete ? '' : (utcSecond(items.at(-1)?.modifiedAtUtc) ?? '\uffff');
    const gone = state.top
      .filter(([id, modified]) => !listed.has(id) && (complete || modified > reach))
      .slice(0, MAX_CHECKS);
    if (gone.length) {
      const found = await ctx.loaders.eventCore.loadMany(gone.map(([id]) => id));
      gone.forEach(([id, , pub], i) => {
        const r = found[i];
        if (r instanceof Error) throw r;
        if (!r || r.status === 'trash')
          changes.push({
            topic: 'events',
            id,
            kind: 'DELETED',
            modified: null,
            at: isoNow(now),
            source: 'MODIFIED_LIST',
            wasPublic: pub === 1,
          });
      });
    }
    // Oldest first: the order they happened in.
    changes.sort(
      (a, b) =>
        (a.kind === 'DELETED' ? 1 : 0) - (b.kind === 'DELETED' ? 1 : 0) ||
        (a.modified ?? '').localeCompare(b.modified ?? ''),
    );
    const atNewest = newest === state.newest ? [...new Set([...state.atNewest, ...tiesAt(newest)])] : tiesAt(newest);
    const tiesComplete = newest === state.newest ? state.tiesComplete : complete || reached;
    return { changes, state: { newest, atNewest, tiesComplete, top, maxId } };
  },
};
