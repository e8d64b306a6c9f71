/**
 * Where subscriptions' changes come from, counted from the sandbox's request
 * log (docs/subscriptions.md "Where changes come from", "Transports"), on the
 * TEC 6.15 shape:
 *
 * - automation-b's feeds pop an item per read: a gateway set up as usual (an
 *   automation-a token included) never sends them a request, whatever
 *   happens; with SUBSCRIPTION_AUTOMATION_B_TOKEN they are polled and their
 *   changes arrive from them.
 * - automation-a's feeds are read, never drained: an item the gateway reads
 *   on several polls is delivered once, and another consumer still finds it.
 * - postChangedById: a post's creation, update and trash on the site reach
 *   it; another post's changes do not.
 * - One poll per interval whatever the number of subscribers (SSE and
 *   WebSocket, both SSE modes, several credentials and filters), counted per
 *   poll rather than per stretch of time, which a loaded machine stretches: a
 *   gateway with a sandbox of its own notes the log's length each time a poll
 *   completes (polls_total is counted after the poll's last answer, before
 *   the next poll can start). Over eight polls of each source, its requests
 *   are exactly eight polls' worth, with 1 subscriber as with 50; no other
 *   request is sent, and there are no more polls than the elapsed time holds
 *   intervals, plus one.
 * - graphql-sse's keep-alive comment reaches an idle SSE subscription every 12 s.
 */
import { createClient as createSseClient } from 'graphql-sse';
import type { Counter, LabelValues } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extrasCredentials } from '../../packages/sandbox/src/namespaces/extras/index.ts';
import { toSpecPath } from '../../src/upstream/names.ts';
import {
  POLL_SECONDS,
  at,
  feed,
  metric,
  sleep,
  sse,
  startLive,
  subscribed,
  userPass,
  ws,
  wsClient,
  type Feed,
  type LiveHarness,
} from '../subscriptions/helpers.ts';

const WITHIN = POLL_SECONDS * 1000 + 1_500 + 5_000;
type Change = { kind: string; databaseId: number; source: string };
const change = (r: { data?: any }) =>
  (r.data?.eventChanged ?? r.data?.eventChangedById ?? r.data?.postChanged ?? r.data?.postChangedById) as
    Change | undefined;
const of = (id: number, kind?: string) => (r: { data?: any }) =>
  change(r)?.databaseId === id && (kind === undefined || change(r)?.kind === kind);
const changesOf = (f: Feed, id: number) =>
  f.results.map((x) => change(x.result)).filter((c) => c?.databaseId === id) as Change[];

const EVENTS = `subscription { eventChanged { kind databaseId source event { title } } }`;
/** No readiness refresh of the site's index in the middle of a count. */
const QUIET = { admin: { readinessRefreshSeconds: 3_600 } };

describe('subscription sources (TEC 6.15, counted from the sandbox log)', () => {
  let h: LiveHarness;
  const feeds: Feed[] = [];
  const open = (f: Feed) => (feeds.push(f), f);
  let seq = 0;

  beforeAll(async () => {
    // As the suites set a site up: polls as an editor-or-better, with the automation-a connector's token.
    h = await startLive({
      sandbox: { tec: '6.15' },
      automation: true,
      config: (sb) => ({ ...QUIET, subscriptions: { pollAuth: userPass(sb, 'admin') } }),
    });
  });
  afterAll(async () => {
    await Promise.all(feeds.map((f) => f.stop()));
    await h.close();
  });

  /** Every request to the sandbox (the gateway's and anyone else's) since `from`, in the spec's names. */
  const logged = (from = 0) => h.sandbox.log.entries.slice(from).map((e) => ({ ...e, path: toSpecPath(e.path) }));
  const gatewayOnly = (entries: ReturnType<typeof logged>) => entries.filter((e) => e.agent?.startsWith('sitegraph'));

  async function createEvent(fields: Record<string, unknown> = {}) {
    const r = await h.rest.send(
      'POST',
      '/calendar/events/v1/events',
      {
        title: `Source ${++seq}`,
        start_date: at(2, 9 + (seq % 8)),
        end_date: at(2, 10 + (seq % 8)),
        status: 'publish',
        ...fields,
      },
      'admin',
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as number;
  }
  /** Cancels on the site: only the automation connector sets an event's status (docs/sandbox-extras.md). */
  async function cancel(id: number) {
    const r = await h.rest.send('POST', '/calendar/automation-a/v1/update-events', {
      access_token: h.token,
      id,
      event_status: 'canceled',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  /** A feed as another consumer of the connection reads it: the event IDs it lists (automation-b: pops one). */
  async function readFeed(connector: 'a' | 'b', kind: 'new' | 'updated' | 'canceled'): Promise<number[]> {
    const token = connector === 'a' ? h.token! : extrasCredentials(h.sandbox.site).powerAutomate[0]!.accessToken!;
    const r = await h.rest.get(
      `/calendar/automation-${connector}/v1/${kind}-events?access_token=${encodeURIComponent(token)}`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const list = Array.isArray(r.body) ? r.body : Array.isArray(r.body.events) ? r.body.events : [r.body.events];
    return list.map((e: { id: unknown }) => Number.parseInt(String(e.id), 10)).filter((n: number) => !Number.isNaN(n));
  }

  it('never sends automation-b a request unless told to: subscriptions running, events and posts changing, an automation-a token set', async () => {
    const from = h.sandbox.log.entries.length;
    const events = open(sse(h.gateway.url, EVENTS));
    const posts = open(ws(h.gateway.url, `subscription { postChanged { kind databaseId source } }`));
    await subscribed(h.gateway, 2);

    const id = await createEvent();
    await events.next(of(id, 'CREATED'), WITHIN);
    await h.rest.send('POST', `/calendar/events/v1/events/${id}`, { title: `Source ${seq} changed` }, 'admin');
    await events.next(of(id, 'UPDATED'), WITHIN);
    await cancel(id);
    const canceled = await events.next(of(id, 'CANCELED'), WITHIN);
    expect(change(canceled)!.source).toBe('AUTOMATION_FEED');
    const p = await h.rest.send(
      'POST',
      '/core/v2/posts',
      { title: `Source post ${++seq}`, status: 'publish', content: 'x' },
      'admin',
    );
    expect(p.status).toBe(201);
    await posts.next(of(p.body.id, 'CREATED'), WITHIN);
    await sleep(4 * POLL_SECONDS * 1000);

    const during = logged(from);
    // The gateway polled, automation-a's feeds among its reads (so the connector is set up and used)...
    expect(
      gatewayOnly(during).filter((e) => e.path.startsWith('/calendar/automation-a/v1/canceled-events')).length,
    ).toBeGreaterThanOrEqual(3);
    // ...and nobody sent automation-b anything: not a feed, not its index or document.
    expect(
      during.filter((e) => e.path.startsWith('/calendar/automation-b/')).map((e) => `${e.method} ${e.path}`),
    ).toEqual([]);
    expect(await metric(h.gateway, 'sitegraph_subscription_polls_total', { source: 'events:automation-b' })).toBe(0);
    expect(
      await metric(h.gateway, 'sitegraph_subscription_polls_total', { source: 'events:automation-a', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(3);
    // automation-b's own consumer still gets the events the site queued for it.
    expect(await readFeed('b', 'canceled')).toEqual([id]);
    expect(await readFeed('b', 'new')).toContain(id);
    await Promise.all([events.stop(), posts.stop()]);
  });

  it("delivers an automation-a item once however many polls read it, and leaves it on the feed for the connector's other consumers", async () => {
    const events = open(sse(h.gateway.url, EVENTS));
    await subscribed(h.gateway, 1);
    const id = await createEvent();
    await cancel(id);
    const from = h.sandbox.log.entries.length;
    await events.next(of(id, 'CANCELED'), WITHIN);
    // Several more polls, each reading the feeds that list the event.
    await sleep(6 * POLL_SECONDS * 1000);
    const reads = gatewayOnly(logged(from)).filter((e) => e.path.startsWith('/calendar/automation-a/v1/'));
    for (const kind of ['new', 'updated', 'canceled'])
      expect(
        reads.filter((e) => e.path === `/calendar/automation-a/v1/${kind}-events`).length,
        kind,
      ).toBeGreaterThanOrEqual(3);
    // Only reads of the feeds: no action route, nothing but GET.
    expect(new Set(reads.map((e) => `${e.method} ${e.path}`))).toEqual(
      new Set(['new', 'updated', 'canceled'].map((k) => `GET /calendar/automation-a/v1/${k}-events`)),
    );
    // Once each: the creation, the cancellation (the save that canceled it: at most one UPDATED beside it).
    const kinds = changesOf(events, id).map((c) => c.kind);
    expect(kinds.filter((k) => k === 'CREATED')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'CANCELED')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'UPDATED').length).toBeLessThanOrEqual(1);
    // Another consumer reading the feeds afterwards still sees the items (and again: reading drains nothing).
    expect(await readFeed('a', 'new')).toContain(id);
    expect(await readFeed('a', 'canceled')).toContain(id);
    expect(await readFeed('a', 'canceled')).toContain(id);
    await events.stop();
  });

  it('polls automation-b with SUBSCRIPTION_AUTOMATION_B_TOKEN: its changes arrive from it (and it takes them from the queue)', async () => {
    const token = extrasCredentials(h.sandbox.site).powerAutomate[0]!.accessToken!;
    // automation-b alone: no automation-a token, so a CANCELED can only come from automation-b's feed.
    const hb = await startLive({
      sandboxInstance: h.sandbox,
      config: (sb) => ({ ...QUIET, subscriptions: { pollAuth: userPass(sb, 'admin'), automationBToken: token } }),
    });
    try {
      const events = open(sse(hb.gateway.url, EVENTS));
      await subscribed(hb.gateway, 1);
      const id = await createEvent();
      const from = h.sandbox.log.entries.length;
      await cancel(id);
      const got = await events.next(of(id, 'CANCELED'), WITHIN);
      expect(change(got)).toMatchObject({ kind: 'CANCELED', source: 'AUTOMATION_FEED' });
      const bReads = gatewayOnly(logged(from)).filter((e) => e.path.startsWith('/calendar/automation-b/'));
      expect(
        bReads.filter((e) => e.path === '/calendar/automation-b/v1/canceled-events').length,
      ).toBeGreaterThanOrEqual(1);
      expect(bReads.every((e) => e.method === 'GET')).toBe(true);
      expect(
        await metric(hb.gateway, 'sitegraph_subscription_polls_total', {
          source: 'events:automation-b',
          outcome: 'ok',
        }),
      ).toBeGreaterThanOrEqual(1);
      expect(await metric(hb.gateway, 'sitegraph_subscription_polls_total', { source: 'events:automation-a' })).toBe(0);
      // Popped by the gateway: the connector's other consumer no longer finds it. Why it is off by default.
      expect(await readFeed('b', 'canceled')).toEqual([]);
      await events.stop();
    } finally {
      await hb.close();
    }
  });

  it('postChangedById: the post created, updated and trashed on the site reaches it; another post does not', async () => {
    // WordPress numbers posts upwards: the next post is the one after a probe (nothing else writes meanwhile).
    const probe = await h.rest.send('POST', '/core/v2/posts', { title: 'Probe', status: 'draft' }, 'admin');
    expect(probe.status).toBe(201);
    const next = (probe.body.id as number) + 1;
    const q = `subscription($id: ID!) { postChangedById(id: $id) { kind databaseId source post { title status } } }`;
    const admin = open(
      ws(h.gateway.url, q, { variables: { id: String(next) }, connectionParams: { Authorization: h.auth('admin') } }),
    );
    const anon = open(sse(h.gateway.url, q, { variables: { id: String(next) } }));
    // Every post: shows the other post's changes were seen, and not delivered by ID.
    const all = open(sse(h.gateway.url, `subscription { postChanged { kind databaseId } }`));
    await subscribed(h.gateway, 3);

    const r = await h.rest.send('POST', '/core/v2/posts', { title: 'By ID', status: 'publish', content: 'x' }, 'admin');
    expect(r.status).toBe(201);
    expect(r.body.id, 'the post created is the one subscribed to').toBe(next);
    const o = await h.rest.send(
      'POST',
      '/core/v2/posts',
      { title: 'Another', status: 'publish', content: 'x' },
      'admin',
    );
    const other = o.body.id as number;
    for (const f of [admin, anon])
      expect((await f.next(of(next, 'CREATED'), WITHIN)).data.postChangedById.post).toMatchObject({
        title: 'By ID',
        status: 'publish',
      });
    await all.next(of(other, 'CREATED'), WITHIN);

    await h.rest.send('POST', `/core/v2/posts/${next}`, { title: 'By ID, changed' }, 'admin');
    await h.rest.send('POST', `/core/v2/posts/${other}`, { title: 'Another, changed' }, 'admin');
    for (const f of [admin, anon])
      await f.next((x) => of(next, 'UPDATED')(x) && x.data.postChangedById.post?.title === 'By ID, changed', WITHIN);
    await all.next((x) => of(other, 'UPDATED')(x), WITHIN);

    await h.rest.send('DELETE', `/core/v2/posts/${next}`, undefined, 'admin');
    await h.rest.send('DELETE', `/core/v2/posts/${other}`, undefined, 'admin');
    for (const f of [admin, anon]) await f.next(of(next, 'DELETED'), WITHIN);
    await all.next(of(other, 'DELETED'), WITHIN);
    // Trashed: the anonymous subscriber gets the ID only; the admin may still read it in the trash.
    expect(changesOf(anon, next).map((c) => c.kind)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
    expect(anon.results.at(-1)!.result.data.postChangedById.post).toBeNull();
    expect(changesOf(admin, next).map((c) => c.kind)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
    await sleep(2 * POLL_SECONDS * 1000);
    for (const f of [admin, anon])
      expect(f.results.map((x) => change(x.result)!.databaseId).filter((id) => id !== next)).toEqual([]);
    await Promise.all([admin, anon, all].map((f) => f.stop()));
  });

  describe('one poll per interval whatever the number of subscribers', () => {
    /** Its own gateway, polling every second: a poll of this in-process sandbox may take most of half a second. */
    const POLL_MS = 1_000;
    /** Polls counted of each source, alone and in the crowd. */
    const POLLS = 8;
    let g: LiveHarness;
    /** Every poll g completed, in order: its source and outcome, when, and the length of its sandbox's log then. */
    const completed: { source: string; outcome: string; at: number; logged: number }[] = [];
    beforeAll(async () => {
      // Its own sandbox, so every request in the log is this gateway's. On a fixed clock at midday: the
      // legacy list's default window moves at 00:00 UTC, and the window source reads an event it loses by ID.
      g = await startLive({
        sandbox: { tec: '6.15', anchor: '2026-06-01', now: '2026-06-01T12:00:00Z' },
        automation: true,
        config: (sb) => ({ ...QUIET, subscriptions: { pollAuth: userPass(sb, 'admin'), pollSeconds: POLL_MS / 1000 } }),
      });
      // A poll is counted after its last answer, and the sandbox logs a request as it sends the answer; the
      // runner's next poll cannot start before. So the log's length at each count splits a source's
      // requests exactly between its polls, however late the polls run.
      const counter = g.gateway.metrics.registry.getSingleMetric('sitegraph_subscription_polls_total') as Counter<
        'source' | 'outcome'
      >;
      const inc = counter.inc.bind(counter);
      const log = g.sandbox.log;
      counter.inc = ((labels: LabelValues<'source' | 'outcome'>, value?: number) => {
        completed.push({
          source: String(labels.source),
          outcome: String(labels.outcome),
          at: Date.now(),
          logged: log.entries.length,
        });
        inc(labels, value);
      }) as typeof counter.inc;
    });
    afterAll(() => g.close());

    /** Which source a poll request is of, and how many requests one poll of it sends (no change being made). */
    const SOURCES: { source: string; route: RegExp; perPoll: number }[] = [
      { source: 'events:modified', route: /^\/calendar-core\/v1\/events$/, perPoll: 1 },
      { source: 'events:window', route: /^\/calendar\/events\/v1\/events$/, perPoll: 2 },
      {
        source: 'events:automation-a',
        route: /^\/calendar\/automation-a\/v1\/(new|updated|canceled)-events$/,
        perPoll: 3,
      },
      { source: 'posts:modified', route: /^\/core\/v2\/posts$/, perPoll: 1 },
    ];
    const routeOf = (source: string) => SOURCES.find((s) => s.source === source)!.route;

    interface Span {
      /** Completed polls from the first to the last, and the time between them (ms). */
      polls: number;
      ms: number;
      /** The source's requests in between: those of the polls after the first. */
      requests: number;
      /** Polls in the span that did not complete (an error, a lost lease): their requests are not whole polls. */
      failed: string[];
    }

    /**
     * From the next completed poll of each of `sources` to the POLLS-th after it: the source's requests and the
     * time in between; and every request of the whole stretch that is no poll of these sources.
     */
    async function measure(sources: string[]): Promise<{ by: Record<string, Span>; others: string[] }> {
      const from = completed.length;
      const of = (source: string) => completed.slice(from).filter((c) => c.source === source);
      const until = Date.now() + 45_000;
      while (!sources.every((s) => of(s).length > POLLS)) {
        if (Date.now() > until)
          throw new Error(
            `not ${POLLS + 1} polls of each of ${sources.join(', ')} in 45 s: ${sources.map((s) => `${s} ${of(s).length}`).join(', ')}`,
          );
        await sleep(50);
      }
      const by: Record<string, Span> = {};
      let start = Infinity;
      let end = 0;
      for (const source of sources) {
        const span = of(source).slice(0, POLLS + 1);
        const first = span[0]!;
        const last = span.at(-1)!;
        start = Math.min(start, first.logged);
        end = Math.max(end, last.logged);
        const route = routeOf(source);
        by[source] = {
          polls: POLLS,
          ms: last.at - first.at,
          requests: g.sandbox.log.entries.slice(first.logged, last.logged).filter((e) => route.test(toSpecPath(e.path)))
            .length,
          failed: span.filter((c) => c.outcome !== 'ok').map((c) => `${c.outcome} at ${c.at}`),
        };
      }
      const others = g.sandbox.log.entries
        .slice(start, end)
        .map((e) => ({ ...e, path: toSpecPath(e.path) }))
        .filter((e) => !e.agent?.startsWith('sitegraph') || !sources.some((s) => routeOf(s).test(e.path)))
        .map((e) => `${e.agent ?? '?'}: ${e.method} ${e.path}`);
      return { by, others };
    }

    const polls = async (source: string) =>
      metric(g.gateway, 'sitegraph_subscription_polls_total', { source, outcome: 'ok' });

    /** Until `n` subscriptions are open and each of `sources` has polled twice more (its baseline, which may read many pages, and a poll). */
    async function settled(n: number, sources: string[]): Promise<void> {
      const before = await Promise.all(sources.map(polls));
      const until = Date.now() + 30_000;
      const done = async () =>
        (await metric(g.gateway, 'sitegraph_subscriptions_active')) === n &&
        (await Promise.all(sources.map(polls))).every((p, i) => p >= before[i]! + 2);
      while (!(await done())) {
        if (Date.now() > until)
          throw new Error(`not ${n} subscriptions and two polls of ${sources.join(', ')} after 30 s`);
        await sleep(50);
      }
    }

    /** Opens `n` subscriptions, mixed: SSE (distinct connections, and one single connection), WebSocket (two connections), anonymous and admin, each query in turn. */
    function many(n: number, queries: string[]): { feeds: Feed[]; close(): Promise<void> } {
      const single = createSseClient({
        url: g.gateway.url,
        headers: { authorization: g.auth('admin') },
        singleConnection: true,
        retryAttempts: 0,
      });
      const sock = wsClient(g.gateway.url);
      const adminSock = wsClient(g.gateway.url, { Authorization: g.auth('admin') });
      const out: Feed[] = [];
      for (let i = 0; i < n; i++) {
        const query = queries[i % queries.length]!;
        switch (i % 4) {
          case 0:
            out.push(sse(g.gateway.url, query));
            break;
          case 1:
            out.push(feed(single.iterate({ query }) as AsyncIterableIterator<any>));
            break;
          case 2:
            out.push(ws(g.gateway.url, query, { client: sock }));
            break;
          default:
            out.push(ws(g.gateway.url, query, { client: adminSock }));
            break;
        }
      }
      feeds.push(...out);
      return {
        feeds: out,
        async close() {
          await Promise.all(out.map((f) => f.stop()));
          single.dispose();
          await Promise.all([sock.dispose(), adminSock.dispose()]);
        },
      };
    }

    it.each([
      {
        topic: 'events',
        one: EVENTS,
        polled: ['events:modified', 'events:window', 'events:automation-a'],
        queries: [
          EVENTS,
          `subscription { eventChanged(where: { featured: true }) { kind databaseId event { title featured } } }`,
          `subscription { eventChanged(where: { status: [PUBLISH, DRAFT] }) { kind databaseId event { status } } }`,
          `subscription { eventChanged(where: { venueIds: [999999] }) { kind databaseId } }`,
          `subscription { eventChangedById(id: "999999") { kind databaseId } }`,
        ],
      },
      {
        topic: 'posts',
        one: `subscription { postChanged { kind databaseId } }`,
        polled: ['posts:modified'],
        queries: [
          `subscription { postChanged { kind databaseId post { title } } }`,
          `subscription { postChanged(where: { status: [PUBLISH, DRAFT] }) { kind databaseId } }`,
          `subscription { postChanged(where: { sticky: true }) { kind databaseId } }`,
          `subscription { postChangedById(id: "999999") { kind databaseId } }`,
        ],
      },
    ])(
      '$topic: the same requests per interval with 1 subscriber and with 50 (SSE and WebSocket, several filters and credentials)',
      async ({ one, polled, queries }) => {
        const first = open(sse(g.gateway.url, one));
        const crowd = { close: async () => {} } as ReturnType<typeof many>;
        try {
          await settled(1, polled);
          const alone = await measure(polled);

          Object.assign(crowd, many(49, queries));
          await settled(50, polled);
          expect(await metric(g.gateway, 'sitegraph_subscriptions_active', { transport: 'ws' })).toBeGreaterThanOrEqual(
            20,
          );
          expect(
            await metric(g.gateway, 'sitegraph_subscriptions_active', { transport: 'sse' }),
          ).toBeGreaterThanOrEqual(25);
          const crowded = await measure(polled);
          expect(
            crowd.feeds.every((f) => !f.ended),
            'every subscription is still open',
          ).toBe(true);

          for (const [who, m] of [
            ['alone', alone],
            ['with 50', crowded],
          ] as const) {
            // Only the topic's sources are polled (nothing else: no per-subscriber or per-credential read).
            expect(m.others, `${who}: requests that are no poll of ${polled.join(', ')}`).toEqual([]);
            for (const source of polled) {
              const { perPoll } = SOURCES.find((s) => s.source === source)!;
              const s = m.by[source]!;
              expect(s.failed, `${source} ${who}: polls that did not complete`).toEqual([]);
              // Exactly one poll's requests per poll, alone as in the crowd...
              expect(s.requests, `${source} ${who}: requests of ${s.polls} polls`).toBe(s.polls * perPoll);
              // ...and no more polls than ticks: each starts at its own tick, a poll interval after the last. A
              // poller per subscriber, connection, transport or credential would poll more often than that, or
              // send requests no counted poll sent.
              expect(s.polls, `${source} ${who}: polls in ${s.ms} ms`).toBeLessThanOrEqual(s.ms / POLL_MS + 1);
            }
          }
        } finally {
          await crowd.close();
          await first.stop();
        }
      },
      120_000,
    );
  });

  it("an idle SSE stream gets graphql-sse's keep-alive comment at once and then every 12 s", async () => {
    const url = `${h.gateway.url}?query=${encodeURIComponent('subscription { eventChangedById(id: "999999") { kind } }')}`;
    const ac = new AbortController();
    const start = Date.now();
    const res = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: ac.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const comments: number[] = [];
    let text = '';
    while (comments.length < 2 && Date.now() - start < 15_000) {
      const { value, done } = await Promise.race([
        reader.read(),
        sleep(15_000 - (Date.now() - start)).then(() => ({ value: undefined, done: true })),
      ]);
      if (done) break;
      text += decoder.decode(value, { stream: true });
      for (const block of text.split('\n\n').slice(0, -1)) if (block === ':') comments.push(Date.now() - start);
      text = text.split('\n\n').at(-1)!;
    }
    ac.abort();
    expect(comments.length, `comments at ${comments.join(', ')} ms; other text: ${JSON.stringify(text)}`).toBe(2);
    expect(comments[0]).toBeLessThan(2_000);
    // graphql-sse's own timer: 12 s after the stream opened (not configurable; the doc says so).
    expect(comments[1]! - comments[0]!).toBeGreaterThan(11_000);
    expect(comments[1]! - comments[0]!).toBeLessThan(13_500);
  }, 25_000);
});
