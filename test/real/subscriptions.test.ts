/**
 * Subscriptions against each real shape (docs/subscriptions.md "Where changes come from"): a change
 * made on the site itself through its REST API, not through the gateway, reaches an `eventChanged`
 * subscriber from the poll of the release's source (6.15: calendar-core's list by modification time;
 * 5.7: the diff of the upcoming window), its creation, save and trash each once; a past event's save
 * is seen where the modified list is and not where only the upcoming window is (the documented
 * limit); a write through the gateway is delivered at once, before any poll could have found it.
 * Subscribers over SSE and over the WebSocket, with the admin's credentials; the polls read as the
 * admin too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, sse, subscribed, ws, type Feed } from '../subscriptions/helpers.ts';
import { adminAuth, realSites, rest, startRealGateway, type RealGateway, type RealSite } from './kit.ts';
import { uniq } from './stored.ts';

const POLL_SECONDS = 1;
/** One interval, the poll itself and the re-read on a busy shared machine. */
const WITHIN = POLL_SECONDS * 1000 + 8_000;
const SUBSCRIPTION = `subscription { eventChanged { kind databaseId source event { title status } } }`;

type Change = { kind: string; databaseId: number; source: string; event: { title: string; status: string } | null };
const change = (r: { data?: any }) => r.data?.eventChanged as Change | undefined;
const of =
  (id: number, kind: string, also: (c: Change) => boolean = () => true) =>
  (r: { data?: any }) => {
    const c = change(r);
    return c?.databaseId === id && c.kind === kind && also(c);
  };
const changesOf = (f: Feed, id: number) =>
  f.results.map((x) => change(x.result)).filter((c): c is Change => c?.databaseId === id);

/** `Y-m-d H:i:s` in Europe/Paris (the sites' zone), `days` from now at `hour`. */
function local(days: number, hour: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;
}

describe.each(realSites())('$label', (site: RealSite) => {
  const core = site.key.shape === 'tec615';
  const pollSource = core ? 'MODIFIED_LIST' : 'UPCOMING_WINDOW';
  let g: RealGateway;
  let admin: string;
  const feeds: Feed[] = [];
  const open = (f: Feed) => (feeds.push(f), f);

  beforeAll(async () => {
    admin = adminAuth(site);
    g = await startRealGateway(site, {
      subscriptions: { pollSeconds: POLL_SECONDS, pollAuth: `${site.admin.login}:${site.admin.appPassword}` },
      // No readiness refresh of the site's index in the middle of a test.
      admin: { readinessRefreshSeconds: 3_600 },
    });
  });
  afterAll(async () => {
    await Promise.all(feeds.map((f) => f.stop()));
    await g?.close();
  });

  /** Subscribers over both transports, held and past the sources' first polls (which only record where things stand). */
  async function subscribers(): Promise<[Feed, Feed]> {
    const headers = { authorization: admin };
    const before = feeds.length;
    const a = open(sse(g.gateway.url, SUBSCRIPTION, { headers }));
    const b = open(ws(g.gateway.url, SUBSCRIPTION, { headers }));
    await subscribed(g.gateway, 2, 2 * POLL_SECONDS * 1000 + 200, 20_000);
    expect(feeds.length).toBe(before + 2);
    return [a, b];
  }

  async function createOnSite(days: number, title: string): Promise<number> {
    const r = await rest(site, 'POST', `/${site.ns.legacy}/events`, {
      auth: admin,
      body: { title, status: 'publish', start_date: local(days, 9), end_date: local(days, 10) },
    });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(201);
    return r.body.id as number;
  }

  it(`a change made on the site is delivered from the ${pollSource} poll: creation, save and trash, each once, over SSE and WebSocket`, async () => {
    const [a, b] = await subscribers();
    const title = uniq('Made on the site');
    const id = await createOnSite(2, title);
    for (const f of [a, b]) {
      const c = change(await f.next(of(id, 'CREATED'), WITHIN))!;
      expect(c).toMatchObject({ source: pollSource, event: { title, status: 'PUBLISH' } });
    }

    // A save made on the site more than a second later (modification times have one-second precision).
    await sleep(1_100);
    const saved = await rest(site, 'POST', `/${site.ns.legacy}/events/${id}`, {
      auth: admin,
      body: { title: `${title} saved`, start_date: local(2, 9), end_date: local(2, 10) },
    });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200);
    for (const f of [a, b]) {
      const c = change(
        await f.next(
          of(id, 'UPDATED', (x) => x.event?.title === `${title} saved`),
          WITHIN,
        ),
      )!;
      expect(c.source).toBe(pollSource);
    }

    await sleep(1_100);
    expect((await rest(site, 'DELETE', `/${site.ns.legacy}/events/${id}`, { auth: admin })).status).toBe(200);
    for (const f of [a, b]) await f.next(of(id, 'DELETED'), WITHIN);

    // A few more polls: nothing delivered twice.
    await sleep(3 * POLL_SECONDS * 1000);
    for (const f of [a, b]) {
      const kinds = changesOf(f, id).map((c) => c.kind);
      expect(
        kinds.filter((k) => k === 'CREATED'),
        JSON.stringify(kinds),
      ).toHaveLength(1);
      expect(
        kinds.filter((k) => k === 'DELETED'),
        JSON.stringify(kinds),
      ).toHaveLength(1);
      expect(f.results.flatMap((x) => x.result.errors ?? [])).toEqual([]);
      await f.stop();
    }
  }, 90_000);

  it(`a past event saved on the site is ${core ? 'delivered (the modified list reaches every event)' : 'not seen (outside the upcoming window, the only source without calendar-core/v1)'}`, async () => {
    const title = uniq('Past');
    const id = await createOnSite(-10, title);
    const [a] = await subscribers();
    await sleep(1_100);
    const saved = await rest(site, 'POST', `/${site.ns.legacy}/events/${id}`, {
      auth: admin,
      body: { title: `${title} saved`, start_date: local(-10, 9), end_date: local(-10, 10) },
    });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200);
    if (core) {
      const c = change(await a.next(of(id, 'UPDATED'), WITHIN))!;
      expect(c).toMatchObject({ source: 'MODIFIED_LIST', event: { title: `${title} saved` } });
    } else {
      await sleep(4 * POLL_SECONDS * 1000);
      expect(changesOf(a, id)).toEqual([]);
    }
    await Promise.all(feeds.map((f) => f.stop()));
  }, 90_000);

  it('a write through the gateway is delivered at once (GATEWAY), before a poll could find it', async () => {
    // Polls far apart: a delivery within the test's bound can only be the write's own.
    const slow = await startRealGateway(site, {
      subscriptions: { pollSeconds: 60, pollAuth: `${site.admin.login}:${site.admin.appPassword}` },
      admin: { readinessRefreshSeconds: 3_600 },
    });
    try {
      const f = open(sse(slow.gateway.url, SUBSCRIPTION, { headers: { authorization: admin } }));
      await subscribed(slow.gateway, 1, 500, 20_000);
      const title = uniq('Through the gateway');
      const made = await slow.gql(
        `mutation($i: EventInput!) { createEvent(input: $i) { event { databaseId } } }`,
        {
          i: {
            title,
            startDate: `${local(3, 9).replace(' ', 'T')}+01:00`,
            endDate: `${local(3, 10).replace(' ', 'T')}+01:00`,
          },
        },
        admin,
      );
      expect(made.errors, JSON.stringify(made.errors)).toBeUndefined();
      const id = made.data.createEvent.event.databaseId as number;
      const t0 = Date.now();
      const c = change(await f.next(of(id, 'CREATED'), 5_000))!;
      expect(c).toMatchObject({ source: 'GATEWAY', event: { title, status: 'PUBLISH' } });
      expect(Date.now() - t0).toBeLessThan(5_000);

      const up = await slow.gql(
        `mutation($id: ID!) { updateEvent(id: $id, input: { cost: "7" }) { event { databaseId } } }`,
        { id: String(id) },
        admin,
      );
      expect(up.errors, JSON.stringify(up.errors)).toBeUndefined();
      expect(change(await f.next(of(id, 'UPDATED'), 5_000))!.source).toBe('GATEWAY');

      const del = await slow.gql(
        `mutation($id: ID!) { deleteEvent(id: $id) { databaseId } }`,
        { id: String(id) },
        admin,
      );
      expect(del.errors, JSON.stringify(del.errors)).toBeUndefined();
      expect(change(await f.next(of(id, 'DELETED'), 5_000))!.source).toBe('GATEWAY');
      await f.stop();
    } finally {
      await slow.close();
    }
  }, 90_000);
});
