/**
 * The automation feeds as subscription sources (src/subscriptions/sources/automation.ts), against a
 * fake site: automation-a's feeds are read, never drained, and an item seen on several polls is one
 * change; automation-b's feeds pop, so every popped item is a change (the same event queued again
 * is another), in the order it happened, and only with its token.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import type { Context } from '../../src/context.ts';
import { automationA, automationB, type FeedState } from '../../src/subscriptions/sources/automation.ts';
import type { Source } from '../../src/subscriptions/sources/source.ts';
import type { SiteInfo } from '../../src/upstream/discovery.ts';

type Kind = 'new' | 'updated' | 'canceled';
const MODIFIED = '2026-05-01T10:00:00Z';

/** A site whose feeds answer what the test puts in them: automation-a lists them, automation-b pops them (newest first). */
function fakeSite() {
  const feeds: Record<'A' | 'B', Record<Kind, string[]>> = {
    A: { new: [], updated: [], canceled: [] },
    B: { new: [], updated: [], canceled: [] },
  };
  const requests: { method: string; path: string; query: Record<string, unknown>; idempotent: boolean | undefined }[] =
    [];
  const upstream = {
    authenticated: false,
    async request(req: { method: string; path: string; query: Record<string, unknown>; idempotent?: boolean }) {
      requests.push({ method: req.method, path: req.path, query: req.query, idempotent: req.idempotent });
      const m = /^\/calendar\/automation-(a|b)\/v1\/(new|updated|canceled)-events$/.exec(req.path);
      if (!m) throw new Error(`unexpected request ${req.method} ${req.path}`);
      const c = m[1]!.toUpperCase() as 'A' | 'B';
      const kind = m[2] as Kind;
      const mapped = (id: string) => ({ id, title: `Event ${id}`, start_date: '2026-06-01T10:00:00+00:00' });
      if (c === 'A') return { body: feeds.A[kind].length ? feeds.A[kind].map(mapped) : [{ id: `no-${kind}-events` }] };
      const next = feeds.B[kind].shift();
      return { body: next === undefined ? { events: { id: `no-${kind}-events` } } : { events: [mapped(next)] } };
    },
  };
  const loaders = {
    event: { loadMany: async (ids: number[]) => ids.map((id) => ({ databaseId: id, modifiedAtUtc: MODIFIED })) },
  };
  return { feeds, requests, upstream, loaders };
}

const settings = (s: Record<string, unknown>) => parseConfig({ subscriptions: s }).subscriptions;
const SITE = {
  namespaces: ['calendar/automation-a/v1', 'calendar/automation-b/v1'],
  timezone: 'UTC',
} as unknown as SiteInfo;

function poller(source: Source<FeedState>, site: ReturnType<typeof fakeSite>, subs: Record<string, unknown>) {
  const config = parseConfig({ subscriptions: subs });
  const ctx = { config, upstream: site.upstream, loaders: site.loaders } as unknown as Context;
  let state: FeedState | null = null;
  return async () => {
    // The state crosses Redis as JSON between polls.
    const r = await source.poll(
      { ctx, site: SITE, now: Date.now(), settings: config.subscriptions },
      state === null ? null : JSON.parse(JSON.stringify(state)),
    );
    state = r.state;
    return r.changes.map((c) => `${c.kind} ${c.id}${c.modified ? ` ${c.modified}` : ''}`);
  };
}

describe('automation-a feeds as a source', () => {
  it('delivers an item once however many polls see it on the feed, and each new save (item ID) once', async () => {
    const site = fakeSite();
    const poll = poller(automationA, site, { automationToken: 'tok-a' });
    site.feeds.A.new = ['5'];
    site.feeds.A.updated = ['4|1777629600'];
    // The baseline: what is on the feeds already is history.
    expect(await poll()).toEqual([]);
    expect(await poll()).toEqual([]);
    site.feeds.A.new = ['6', '5'];
    expect(await poll()).toEqual(['CREATED 6 2026-05-01T10:00:00Z']);
    for (let i = 0; i < 4; i++) expect(await poll()).toEqual([]);
    // Two saves of one event: two items (`<ID>|<stamp>`), newest first; each is one UPDATED, oldest first.
    site.feeds.A.updated = ['6|1777629660', '6|1777629630', '4|1777629600'];
    site.feeds.A.canceled = ['6|1777629660'];
    expect(await poll()).toEqual([
      'UPDATED 6 2026-05-01T10:00:30Z',
      'UPDATED 6 2026-05-01T10:01:00Z',
      'CANCELED 6 2026-05-01T10:01:00Z',
    ]);
    for (let i = 0; i < 4; i++) expect(await poll()).toEqual([]);
    // Moved to the front again by the site (add_to_queue drops an earlier entry): the same item, nothing new.
    site.feeds.A.updated = ['4|1777629600', '6|1777629660', '6|1777629630'];
    expect(await poll()).toEqual([]);
  });

  it('only reads: GETs with the token, retried like any read, the feeds untouched', async () => {
    const site = fakeSite();
    const poll = poller(automationA, site, { automationToken: 'tok-a' });
    site.feeds.A.new = ['9', '8'];
    for (let i = 0; i < 5; i++) await poll();
    // Another consumer of the connection (Zapier itself) still finds every item.
    expect(site.feeds.A.new).toEqual(['9', '8']);
    expect(site.requests).toHaveLength(15);
    expect(
      new Set(site.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)} ${r.idempotent}`)),
    ).toEqual(
      new Set(
        ['new', 'updated', 'canceled'].map(
          (k) => `GET /calendar/automation-a/v1/${k}-events {"access_token":"tok-a"} true`,
        ),
      ),
    );
  });

  it('applies with its token only', () => {
    expect(automationA.applies(SITE, settings({}))).toBe(false);
    expect(automationA.applies(SITE, settings({ automationToken: 'tok-a' }))).toBe(true);
    expect(automationA.applies({ ...SITE, namespaces: [] } as SiteInfo, settings({ automationToken: 'tok-a' }))).toBe(
      false,
    );
  });
});

describe('automation-b feeds as a source', () => {
  it('is off unless its own token is set (an automation-a token does not turn it on)', () => {
    expect(automationB.applies(SITE, settings({}))).toBe(false);
    expect(automationB.applies(SITE, settings({ automationToken: 'tok-a' }))).toBe(false);
    expect(automationB.applies(SITE, settings({ automationBToken: 'tok-b' }))).toBe(true);
  });

  it('delivers every popped item in the order it happened, the same event queued again included', async () => {
    const site = fakeSite();
    const poll = poller(automationB, site, { automationBToken: 'tok-b' });
    expect(await poll()).toEqual([]);
    // Queued 7, then 8: the queue is newest first and pops its newest.
    site.feeds.B.updated = ['8', '7'];
    expect(await poll()).toEqual([`UPDATED 7 ${MODIFIED}`, `UPDATED 8 ${MODIFIED}`]);
    expect(site.feeds.B.updated).toEqual([]);
    expect(await poll()).toEqual([]);
    // 7 saved again: queued again under the same item ID, and popped: a change, not a duplicate.
    site.feeds.B.updated = ['7'];
    site.feeds.B.canceled = ['7'];
    expect(await poll()).toEqual([`UPDATED 7 ${MODIFIED}`, `CANCELED 7 ${MODIFIED}`]);
    // Pops are never retried (a retry after a lost answer would lose an event).
    expect(
      site.requests.every(
        (r) => r.method === 'GET' && r.path.startsWith('/calendar/automation-b/v1/') && r.idempotent === false,
      ),
    ).toBe(true);
  });
});
