/**
 * A source of changes (docs/subscriptions.md "Where changes come from"): one
 * kind of poll of the site, with the state it carries from one poll to the
 * next (JSON: with Redis it is stored beside the source's lease, so another
 * instance can continue it). A first poll, or one after a long pause, only
 * records where things stand ("baseline"): subscribers hear of changes from
 * the moment they subscribe, not of history.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Context } from '../../context.ts';
import type { EventModel } from '../../mapping/models.ts';
import type { PostModel } from '../../mapping/platform-models.ts';
import type { SiteInfo } from '../../upstream/discovery.ts';
import type { Change, Topic } from '../types.ts';

export type SubscriptionSettings = Config['subscriptions'];

export interface PollInput {
  /** A context with the poll's credential (SUBSCRIPTION_POLL_AUTH): its own session and loaders. */
  ctx: Context;
  site: SiteInfo;
  /** `Date.now()` when the poll started. */
  now: number;
  settings: SubscriptionSettings;
}

export interface PollResult<S> {
  /** In the order they happened. */
  changes: Change[];
  state: S;
}

export interface Source<S = unknown> {
  /** Its lease and state name, and its metrics label: `events:modified`. */
  readonly name: string;
  readonly topic: Topic;
  /** Whether this site and these settings call for it. */
  applies(site: SiteInfo, settings: SubscriptionSettings): boolean;
  /** One poll; `state` null: the baseline (no changes). */
  poll(input: PollInput, state: S | null): Promise<PollResult<S>>;
}

/** An instant as the ledger compares them: `2026-05-01T08:00:00Z` (second precision, UTC). */
export function utcSecond(value: string | null | undefined): string | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Whether an object was public: published, and not behind a password. */
export function isPublic(m: { status?: string | null; passwordProtected?: boolean | null }): boolean {
  return (m.status ?? 'publish') === 'publish' && !m.passwordProtected;
}

/**
 * Whether an object seen for the first time was just created (or first published), rather than an
 * older one saved again: WordPress dates a post when it is created or published, so a new one's
 * publication and modification times are the same second; and it must be later than the last
 * change the previous poll saw. (A new post scheduled for later, whose date is ahead, counts as
 * an update.)
 */
export function looksCreated(publishedMs: number | null, modifiedMs: number | null, sinceMs: number | null): boolean {
  if (publishedMs === null || modifiedMs === null) return false;
  return Math.abs(modifiedMs - publishedMs) <= 2_000 && (sinceMs === null || publishedMs >= sinceMs - 1_000);
}

const ids = (xs: readonly { databaseId: number }[] | undefined) => xs?.map((x) => x.databaseId);

/**
 * What an object says, in 12 characters: two saves within one second (the site's modification
 * times have no finer grain) are told apart by it. Only ever compared with the same source's.
 */
export function fingerprint(m: EventModel | PostModel): string {
  const fields =
    m.kind === 'Post'
      ? [
          m.title,
          m.content,
          m.excerpt,
          m.status,
          m.slug,
          m.publishedAtUtc,
          m.sticky,
          m.format,
          m.categoryIds,
          m.tagIds,
          m.authorId,
          m.featuredMediaId,
          m.commentStatus,
          m.template,
          m.passwordProtected,
        ]
      : [
          m.title,
          m.description,
          m.excerpt,
          m.status,
          m.slug,
          m.startDateUtc,
          m.endDateUtc,
          m.allDay,
          m.timezone,
          m.featured,
          m.sticky,
          m.hideFromListings,
          m.cost,
          m.website,
          m.passwordProtected,
          m.virtual,
          m.ticketed,
          m.seriesId,
          ids(m.venues),
          ids(m.organizers),
          ids(m.categories) ?? m.categoryIds,
          ids(m.tags) ?? m.tagIds,
        ];
  return createHash('sha1').update(JSON.stringify(fields)).digest('base64url').slice(0, 12);
}

/** `Date.now()` as an ISO instant of `at`. */
export const isoNow = (now: number) => new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
