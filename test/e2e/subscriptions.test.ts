/**
 * Subscriptions end to end (docs/subscriptions.md), on the kinds of site the
 * sandbox acts as: The Events Calendar 6.15 (calendar-core/v1's modified list),
 * 5.7 (legacy only: the upcoming window) and 6.15 under the plugins' own
 * namespace names, each with automation-a's feeds.
 *
 * - Events created, updated, canceled and deleted directly on the site (its
 *   REST API, not the gateway) reach subscribers within one poll interval,
 *   with the right kind; posts too.
 * - A write through the gateway reaches them at once (a gateway whose polls
 *   are a minute apart still delivers it within a second).
 * - A filtered subscription gets only matching events.
 * - An admin, an anonymous and a wrong-password subscriber, interleaved, on
 *   the same changes: each gets only what its credential may read.
 * - Every transport: SSE distinct connections, SSE single connection, WebSocket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluginPath } from '../../packages/sandbox/src/names.ts';
import { RELEASE_SHAPES } from '../helpers/gateway.ts';
import {
  POLL_SECONDS,
  at,
  sleep,
  sse,
  startLive,
  subscribed,
  userPass,
  ws,
  type Feed,
  type LiveHarness,
} from '../subscriptions/helpers.ts';

/** What a change may take beyond one poll interval: the poll itself, the re-read and the delivery, on a busy 2-core machine. */
const SLACK_MS = 1_500;
const WITHIN_ONE_POLL = POLL_SECONDS * 1000 + SLACK_MS;

const EVENT = `kind databaseId id at source event { databaseId title status startDate featured venues { title } }`;
const ALL = `subscription { eventChanged { ${EVENT} } }`;

/** 6.15 (the modified list), 5.7 (the upcoming window), and 6.15 under the plugins' names (tec/v1, tribe/events/v1, wp/v2). */
const SHAPES = RELEASE_SHAPES.filter((s) => s.release !== '6.17');

type Change = { kind: string; databaseId: number; source: string; event: any };
const change = (r: { data?: any }) =>
  (r.data?.eventChanged ?? r.data?.eventChangedById ?? r.data?.postChanged) as Change | undefined;
const of = (id: number, kind?: string) => (r: { data?: any }) =>
  change(r)?.databaseId === id && (kind === undefined || change(r)?.kind === kind);
const ids = (f: Feed) => f.results.map((x) => change(x.result)?.databaseId);

describe.each(SHAPES)('subscriptions ($shape)', ({ sandbox, hasCore, release, names }) => {
  /** A request to the site itself, in the names it serves. */
  const send = (method: string, path: string, body?: unknown, who?: 'admin') =>
    h.rest.send(method, names === 'plugin' ? pluginPath(path) : path, body, who);
  // WordPress 6.1 (the 5.7 shape) lets a wrong application password through as anonymous.
  const wrongIsAnonymous = release === '5.7';
  let h: LiveHarness;
  const feeds: Feed[] = [];
  const open = (f: Feed) => (feeds.push(f), f);
  let seq = 0;

  beforeAll(async () => {
    // The polls read as an editor, so drafts are seen; subscribers read with their own credentials.
    h = await startLive({
      sandbox,
      automation: true,
      config: (sb) => ({ subscriptions: { pollAuth: userPass(sb, 'admin') } }),
    });
  });
  afterAll(async () => {
    await Promise.all(feeds.map((f) => f.stop()));
    await h.close();
  });

  /** Creates an event on the site itself, as the admin, through the legacy REST API. */
  async function createOnSite(fields: Record<string, unknown> = {}) {
    const r = await send(
      'POST',
      '/calendar/events/v1/events',
      {
        title: `Live ${++seq}`,
        start_date: at(1, 9 + (seq % 8)),
        end_date: at(1, 10 + (seq % 8)),
        status: 'publish',
        ...fields,
      },
      'admin',
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as number;
  }

  it('delivers changes made on the site within one poll interval, with their kind (create, update, cancel, delete)', async () => {
    const sub = open(sse(h.gateway.url, ALL));
    const sock = open(ws(h.gateway.url, ALL));
    await subscribed(h.gateway, 2);

    let t = Date.now();
    const id = await createOnSite();
    const created = await sub.next(of(id, 'CREATED'), WITHIN_ONE_POLL + 5_000);
    const createdMs = Date.now() - t;
    expect(change(created)!.event).toMatchObject({ databaseId: id, title: `Live ${seq}`, status: 'PUBLISH' });
    expect(['MODIFIED_LIST', 'UPCOMING_WINDOW', 'AUTOMATION_FEED']).toContain(change(created)!.source);
    await sock.next(of(id, 'CREATED'), 5_000);

    t = Date.now();
    const upd = await send('POST', `/calendar/events/v1/events/${id}`, { title: `Live ${seq} changed` }, 'admin');
    expect(upd.status).toBe(200);
    const updated = await sub.next(
      (r) => of(id, 'UPDATED')(r) && change(r)!.event.title === `Live ${seq} changed`,
      WITHIN_ONE_POLL + 5_000,
    );
    const updatedMs = Date.now() - t;
    expect(change(updated)!.event.title).toBe(`Live ${seq} changed`);

    // Canceling: only the automation connector can set the event status (docs/sandbox-extras.md).
    t = Date.now();
    const cancel = await send('POST', '/calendar/automation-a/v1/update-events', {
      access_token: h.token,
      id,
      event_status: 'canceled',
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const canceled = await sub.next(of(id, 'CANCELED'), WITHIN_ONE_POLL + 5_000);
    const canceledMs = Date.now() - t;
    expect(change(canceled)!.source).toBe('AUTOMATION_FEED');

    t = Date.now();
    const del = await send('DELETE', `/calendar/events/v1/events/${id}`, undefined, 'admin');
    expect(del.status).toBe(200);
    const deleted = await sub.next(of(id, 'DELETED'), WITHIN_ONE_POLL + 5_000);
    const deletedMs = Date.now() - t;
    // Trashed: no longer readable by an anonymous subscriber.
    expect(change(deleted)!.event).toBeNull();

    for (const [what, ms] of [
      ['created', createdMs],
      ['updated', updatedMs],
      ['canceled', canceledMs],
      ['deleted', deletedMs],
    ] as const) {
      expect(ms, `${what} reached the subscriber after ${ms} ms`).toBeLessThanOrEqual(WITHIN_ONE_POLL);
    }
    // The WebSocket subscriber got the same changes, in the same order.
    await sock.next(of(id, 'DELETED'), 5_000);
    const kinds = (f: Feed) =>
      f.results
        .map((x) => change(x.result))
        .filter((c) => c?.databaseId === id)
        .map((c) => c!.kind);
    expect(kinds(sock)).toEqual(kinds(sub));
    expect(kinds(sub)[0]).toBe('CREATED');
    expect(kinds(sub).at(-1)).toBe('DELETED');
    // Each change once: no kind twice in a row from two sources.
    expect(kinds(sub).filter((k) => k === 'CREATED')).toHaveLength(1);
    expect(kinds(sub).filter((k) => k === 'DELETED')).toHaveLength(1);
    await Promise.all([sub.stop(), sock.stop()]);
  });

  it(`finds changes through ${hasCore ? "calendar-core/v1's modified list" : 'the upcoming window'}`, async () => {
    // Without the automation feed's help: a draft (the feeds list published events only), seen by the editor's poll.
    const sub = open(
      sse(h.gateway.url, `subscription { eventChanged(where: { status: [DRAFT] }) { ${EVENT} } }`, {
        headers: { authorization: h.auth('admin') },
      }),
    );
    await subscribed(h.gateway, 1);
    const id = await createOnSite({ status: 'draft' });
    const got = await sub.next(of(id), WITHIN_ONE_POLL + 5_000);
    expect(change(got)!.source).toBe(hasCore ? 'MODIFIED_LIST' : 'UPCOMING_WINDOW');
    expect(change(got)!.event.status).toBe('DRAFT');
    await sub.stop();
  });

  it('delivers a filtered subscription only the events that match', async () => {
    const featured = open(sse(h.gateway.url, `subscription { eventChanged(where: { featured: true }) { ${EVENT} } }`));
    const byVenue = open(
      ws(h.gateway.url, `subscription($v: [Int!]) { eventChanged(where: { venueIds: $v }) { ${EVENT} } }`, {
        variables: { v: [999_999] },
      }),
    );
    const everything = open(sse(h.gateway.url, ALL, { single: true }));
    await subscribed(h.gateway, 3);
    const plain = await createOnSite({ featured: false });
    const star = await createOnSite({ featured: true });
    await everything.next(of(star), WITHIN_ONE_POLL + 5_000);
    await everything.next(of(plain), 5_000);
    const got = await featured.next(of(star), 5_000);
    expect(change(got)!.event.featured).toBe(true);
    await sleep(POLL_SECONDS * 1000 * 2);
    expect(ids(featured)).not.toContain(plain);
    expect(ids(featured).every((id) => id === star)).toBe(true);
    expect(byVenue.results).toEqual([]);
    await Promise.all([featured.stop(), byVenue.stop(), everything.stop()]);
  });

  it('an admin, an anonymous and a wrong-password subscriber, interleaved: each gets what its credential may read', async () => {
    const wrong = `Basic ${Buffer.from('admin:wrong-password-0000').toString('base64')}`;
    const q = `subscription { eventChanged(where: { status: [PUBLISH, DRAFT] }) { ${EVENT} } }`;
    const anon1 = open(sse(h.gateway.url, q));
    const admin1 = open(sse(h.gateway.url, q, { headers: { authorization: h.auth('admin') } }));
    const bad1 = open(sse(h.gateway.url, q, { headers: { authorization: wrong } }));
    const admin2 = open(ws(h.gateway.url, q, { connectionParams: { Authorization: h.auth('admin') } }));
    const bad2 = open(ws(h.gateway.url, q, { connectionParams: { Authorization: wrong } }));
    const anon2 = open(ws(h.gateway.url, q));

    // Wrong credentials are refused at once, as a query would be; on a site that treats them as
    // anonymous (WordPress 6.1, as the 5.7 shape acts), the subscriber is anonymous, as its queries are.
    if (!wrongIsAnonymous) {
      for (const bad of [bad1, bad2]) {
        await bad.end(5_000);
        const errors = bad.results
          .flatMap((x) => x.result.errors ?? [])
          .concat(((bad.failure as any[]) ?? []) as any[]);
        expect(JSON.stringify(errors)).toContain('UNAUTHENTICATED');
        expect(bad.results.filter((x) => change(x.result))).toEqual([]);
      }
    }
    const anonymous = wrongIsAnonymous ? [anon1, anon2, bad1, bad2] : [anon1, anon2];
    await subscribed(h.gateway, 2 + anonymous.length);

    // A draft: admins only.
    const id = await createOnSite({ status: 'draft', title: `Secret draft ${seq + 1}` });
    for (const admin of [admin1, admin2]) {
      const got = await admin.next(of(id, 'CREATED'), WITHIN_ONE_POLL + 5_000);
      expect(change(got)!.event).toMatchObject({ status: 'DRAFT', title: `Secret draft ${seq}` });
    }
    // Published: everyone. New to the anonymous subscribers: CREATED when the automation feed (which
    // lists a draft published later as new) tells first, UPDATED when a list does.
    await send('POST', `/calendar/events/v1/events/${id}`, { status: 'publish' }, 'admin');
    for (const f of [admin1, admin2, ...anonymous]) {
      const got = await f.next((r) => of(id)(r) && change(r)!.event?.status === 'PUBLISH', WITHIN_ONE_POLL + 5_000);
      expect(change(got)!.kind).toEqual(
        anonymous.includes(f) ? expect.stringMatching(/^(CREATED|UPDATED)$/) : 'UPDATED',
      );
    }
    // Back to draft: it leaves the anonymous subscribers' view (DELETED, nothing of it); admins see the draft.
    await send('POST', `/calendar/events/v1/events/${id}`, { status: 'draft' }, 'admin');
    for (const anon of anonymous) {
      const got = await anon.next(of(id, 'DELETED'), WITHIN_ONE_POLL + 5_000);
      expect(change(got)!.event).toBeNull();
    }
    for (const admin of [admin1, admin2])
      await admin.next((r) => of(id, 'UPDATED')(r) && change(r)!.event?.status === 'DRAFT', 5_000);

    // Anonymous subscribers never saw the draft's fields.
    for (const anon of anonymous) {
      const seen = anon.results.map((x) => change(x.result)).filter((c) => c?.databaseId === id);
      expect(seen.map((c) => c!.kind)).toEqual([expect.stringMatching(/^(CREATED|UPDATED)$/), 'DELETED']);
      expect(JSON.stringify(anon.results)).not.toContain('"DRAFT"');
    }
    await Promise.all([anon1, admin1, admin2, anon2, bad1, bad2].map((f) => f.stop()));
  });

  it('follows one event by ID, whatever its status the subscriber can read', async () => {
    const id = await createOnSite();
    const one = open(
      ws(h.gateway.url, `subscription($id: ID!) { eventChangedById(id: $id) { ${EVENT} } }`, {
        variables: { id: String(id) },
        connectionParams: { Authorization: h.auth('admin') },
      }),
    );
    await subscribed(h.gateway, 1);
    const other = await createOnSite();
    await send('POST', `/calendar/events/v1/events/${id}`, { status: 'draft' }, 'admin');
    const got = await one.next(of(id, 'UPDATED'), WITHIN_ONE_POLL + 5_000);
    expect(change(got)!.event.status).toBe('DRAFT');
    expect(ids(one)).not.toContain(other);
    await one.stop();
  });

  it('delivers posts created, updated and trashed on the site', async () => {
    const sub = open(
      sse(h.gateway.url, `subscription { postChanged { kind databaseId source post { title status } } }`),
    );
    await subscribed(h.gateway, 1);
    const r = await send(
      'POST',
      '/core/v2/posts',
      { title: `Live post ${++seq}`, status: 'publish', content: 'x' },
      'admin',
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = r.body.id as number;
    const created = await sub.next(of(id, 'CREATED'), WITHIN_ONE_POLL + 5_000);
    expect((created.data as any).postChanged.post).toMatchObject({ title: `Live post ${seq}`, status: 'publish' });
    await send('POST', `/core/v2/posts/${id}`, { title: `Live post ${seq} changed` }, 'admin');
    await sub.next(
      (x) => of(id, 'UPDATED')(x) && (x.data as any).postChanged.post.title === `Live post ${seq} changed`,
      WITHIN_ONE_POLL + 5_000,
    );
    await send('DELETE', `/core/v2/posts/${id}`, undefined, 'admin');
    const deleted = await sub.next(of(id, 'DELETED'), WITHIN_ONE_POLL + 5_000);
    expect((deleted.data as any).postChanged.post).toBeNull();
    await sub.stop();
  });

  describe('writes through the gateway', () => {
    let slow: LiveHarness;
    beforeAll(async () => {
      // Polls a minute apart: only the write itself can reach subscribers in time.
      slow = await startLive({ sandboxInstance: h.sandbox, config: { subscriptions: { pollSeconds: 60 } } });
    });
    afterAll(() => slow.close());

    it('reach every transport at once', async () => {
      const q = `subscription { eventChanged { ${EVENT} } }`;
      const subs = [
        open(sse(slow.gateway.url, q)),
        open(sse(slow.gateway.url, q, { single: true })),
        open(ws(slow.gateway.url, q)),
      ];
      const posts = open(
        ws(slow.gateway.url, `subscription { postChanged { kind databaseId source post { title } } }`),
      );
      await subscribed(slow.gateway, 4, 0);
      const day = at(3).slice(0, 10);
      const t = Date.now();
      const c = await slow.gql(
        `mutation($i: EventInput!) { createEvent(input: $i) { event { databaseId } } }`,
        {
          i: {
            title: 'Through the gateway',
            startDate: `${day}T18:00:00Z`,
            endDate: `${day}T20:00:00Z`,
            status: 'PUBLISH',
          },
        },
        'admin',
      );
      expect(c.errors).toBeUndefined();
      const id = c.data.createEvent.event.databaseId as number;
      for (const s of subs) {
        const got = await s.next(of(id, 'CREATED'), 3_000);
        expect(change(got)).toMatchObject({ source: 'GATEWAY', event: { title: 'Through the gateway' } });
      }
      expect(Date.now() - t).toBeLessThan(3_000);

      const u = await slow.gql(
        `mutation($id: ID!) { updateEvent(id: $id, input: { title: "Renamed through the gateway" }) { event { title } } }`,
        { id: String(id) },
        'admin',
      );
      expect(u.errors).toBeUndefined();
      for (const s of subs)
        await s.next((r) => of(id, 'UPDATED')(r) && change(r)!.event.title === 'Renamed through the gateway', 3_000);
      const d = await slow.gql(
        `mutation($id: ID!) { deleteEvent(id: $id) { databaseId } }`,
        { id: String(id) },
        'admin',
      );
      expect(d.errors).toBeUndefined();
      for (const s of subs) await s.next(of(id, 'DELETED'), 3_000);

      const p = await slow.gql(
        `mutation { createPost(input: { title: "A post through the gateway", status: PUBLISH }) { databaseId } }`,
        {},
        'admin',
      );
      expect(p.errors).toBeUndefined();
      const got = await posts.next(of(p.data.createPost.databaseId, 'CREATED'), 3_000);
      expect((got.data as any).postChanged).toMatchObject({
        source: 'GATEWAY',
        post: { title: 'A post through the gateway' },
      });
      await Promise.all([...subs, posts].map((s) => s.stop()));
    });
  });
});
