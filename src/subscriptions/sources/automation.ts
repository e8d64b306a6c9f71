/**
 * The automation connectors' feeds (docs/subscriptions.md; docs/sandbox-extras.md
 * "Automation queues"): new, updated and canceled published events, newest
 * first, at most 15 each.
 *
 * - automation-a (SUBSCRIPTION_AUTOMATION_TOKEN): reading does not drain the
 *   feeds, so each poll reads all three and keeps the items it has not seen,
 *   by item ID (`<ID>` on the new feed; `<ID>|<modified stamp>` on the others,
 *   a new item per save).
 * - automation-b (SUBSCRIPTION_AUTOMATION_B_TOKEN, off unless set): each read
 *   pops one item (the newest), taking it from whatever else reads that
 *   connection; each poll pops until a feed says it is empty (at most 15 per
 *   feed). A popped item is gone from the feed, so each one is a change: the
 *   same event queued again after another save (same item ID) included.
 *
 * The feeds are the only place a site says an event was canceled (its event
 * status); the lists only see another save. An item without a modification
 * stamp gets the event's modification time from one batched read, so the
 * same save seen by the modified list too is delivered once (ledger.ts).
 */
import { DateTime } from 'luxon';
import { luxonZone } from '../../mapping/dates.ts';
import { automationFeed, type AutomationFeedItemModel } from '../../namespaces/automation/mapping.ts';
import { feed, type Connector, type FeedKind } from '../../namespaces/automation/routes.ts';
import type { ChangeKind } from '../../context.ts';
import type { Change } from '../types.ts';
import { isoNow, utcSecond, type Source } from './source.ts';

const FEEDS: readonly [FeedKind, ChangeKind][] = [
  ['new', 'CREATED'],
  ['updated', 'UPDATED'],
  ['canceled', 'CANCELED'],
];
/** A feed holds at most 15 items; the item IDs of the last reads are kept (ledger-free de-duplication). */
const KEEP = 100;
/** automation-b reads per feed and poll. */
const MAX_POPS = 15;

export interface FeedState {
  seen: Record<FeedKind, string[]>;
}

/**
 * `<ID>|<stamp>`: `strtotime(post_modified)` with PHP in UTC, so the site-local wall time read as UTC
 * (docs/sandbox-extras.md); back to the instant through the site's time zone.
 */
export function stampToUtc(itemId: string, zone: string): string | null {
  const m = /^\d+\|(\d+)$/.exec(itemId);
  if (!m) return null;
  const wall = new Date(Number(m[1]) * 1000).toISOString().slice(0, 19);
  const d = DateTime.fromISO(wall, { zone: luxonZone(zone) ?? 'utc' });
  return d.isValid ? utcSecond(d.toUTC().toISO()) : null;
}

function automationSource(connector: Connector): Source<FeedState> {
  const ns = connector === 'A' ? 'calendar/automation-a/v1' : 'calendar/automation-b/v1';
  const tokenOf = (s: { automationToken?: string | undefined; automationBToken?: string | undefined }) =>
    connector === 'A' ? s.automationToken : s.automationBToken;
  return {
    name: connector === 'A' ? 'events:automation-a' : 'events:automation-b',
    topic: 'events',
    applies: (site, settings) => tokenOf(settings) !== undefined && site.namespaces.includes(ns),
    async poll({ ctx, site, now }, state) {
      const token = tokenOf(ctx.config.subscriptions);
      const read = async (kind: FeedKind): Promise<AutomationFeedItemModel[]> => {
        if (connector === 'A') return automationFeed(await feed(ctx.upstream, 'A', kind, token)).items;
        // Pops: the newest first, as the feed lists them, until the feed is empty (or a poll's share is read).
        const out: AutomationFeedItemModel[] = [];
        for (let i = 0; i < MAX_POPS; i++) {
          const items = automationFeed(await feed(ctx.upstream, 'B', kind, token)).items;
          if (!items.length) break;
          out.push(...items);
        }
        return out;
      };
      const feeds = await Promise.all(FEEDS.map(([kind]) => read(kind)));
      const seen = { new: [], updated: [], canceled: [] } as Record<FeedKind, string[]>;
      const fresh: { item: AutomationFeedItemModel; kind: ChangeKind }[] = [];
      FEEDS.forEach(([feedKind, kind], i) => {
        const items = feeds[i]!;
        const before = new Set(state?.seen[feedKind] ?? []);
        seen[feedKind] = [...new Set([...items.map((x) => x.itemId), ...(state?.seen[feedKind] ?? [])])].slice(0, KEEP);
        if (!state && connector === 'A') return;
        // Newest first on the feed: reversed, so changes go out in the order they happened. A listed
        // (automation-a) item seen before is not new; a popped (automation-b) one always is.
        for (const item of [...items].reverse())
          if (connector === 'B' || !before.has(item.itemId)) fresh.push({ item, kind });
      });
      if (!fresh.length) return { changes: [], state: { seen } };

      const stamped = fresh.map(({ item }) => stampToUtc(item.itemId, site.timezone));
      const unstamped = [
        ...new Set(fresh.filter((_, i) => stamped[i] === null).map(({ item }) => item.event.databaseId)),
      ];
      const found = unstamped.length ? await ctx.loaders.event.loadMany(unstamped) : [];
      const modifiedOf = new Map(
        unstamped.map((id, i) => {
          const r = found[i];
          return [id, r && !(r instanceof Error) ? utcSecond(r.modifiedAtUtc) : null] as const;
        }),
      );
      const changes: Change[] = fresh.map(({ item, kind }, i) => {
        const modified = stamped[i] ?? modifiedOf.get(item.event.databaseId) ?? null;
        // The feeds list published events only.
        return {
          topic: 'events',
          id: item.event.databaseId,
          kind,
          modified,
          at: modified ?? isoNow(now),
          source: 'AUTOMATION_FEED',
          wasPublic: kind === 'CREATED' ? null : true,
        };
      });
      return { changes, state: { seen } };
    },
  };
}

export const automationA = automationSource('A');
export const automationB = automationSource('B');
