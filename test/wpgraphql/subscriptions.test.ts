/**
 * Subscriptions on the compatible graph (schema-wpgraphql/subscriptions.graphql, src/wpgraphql/subscriptions.ts),
 * through the real gateway in front of the sandbox (TEC 6.15) over loopback HTTP, on the main graph's machinery:
 *
 * - a post made on the site reaches /wpgraphql subscribers over SSE and WebSocket in WPGraphQL's shape (its global
 *   ID base64 of `post:N`), beside a /graphql subscriber, from the same poll and one re-read for all three;
 * - an event made on the site, then saved through the compatible graph's `updateEvent`, reaches a /wpgraphql
 *   WebSocket subscriber with ql-events' fields (`startDate`, `venue { databaseId }`);
 * - with a /graphql and a /wpgraphql subscriber listening, each poll sends the one request a poll of core/v2 posts
 *   sends, and nothing else is sent (counted from the sandbox's request log, per completed poll);
 * - an anonymous subscriber never hears of a draft an admin's subscription delivers, as on /graphql;
 * - a bad subscription document is refused with the codes /graphql refuses its own with, and a plain POST of one
 *   names the transports.
 */
import type { Counter, LabelValues } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toSpecPath } from '../../src/upstream/names.ts';
import {
  POLL_SECONDS,
  at,
  metric,
  sleep,
  sse,
  startLive,
  subscribed,
  userPass,
  ws,
  type Feed,
  type LiveHarness,
} from '../subscriptions/helpers.ts';

const WITHIN = POLL_SECONDS * 1000 + 1_500 + 5_000;
/** No readiness refresh of the site's index in the middle of a count. */
const QUIET = { admin: { readinessRefreshSeconds: 3_600 } };
const wpId = (n: number) => Buffer.from(`post:${n}`).toString('base64');

type Result = { data?: any; errors?: any[] };
const payload = (r: Result) =>
  r.data?.eventChanged ?? r.data?.eventChangedById ?? r.data?.postChanged ?? r.data?.postChangedById;
const of = (id: number, change?: string) => (r: Result) =>
  payload(r)?.databaseId === id && (change === undefined || (payload(r).change ?? payload(r).kind) === change);
const codes = (f: Feed) =>
  [...f.results.flatMap((x) => x.result.errors ?? []), ...(Array.isArray(f.failure) ? f.failure : [])].map(
    (e) => e.extensions?.code,
  );

describe('subscriptions on the compatible graph (TEC 6.15)', () => {
  let h: LiveHarness;
  let wp: string;
  const feeds: Feed[] = [];
  const open = (f: Feed) => (feeds.push(f), f);
  /** Every poll completed, in order: its source and outcome, and the length of the sandbox's log then. */
  const completed: { source: string; outcome: string; logged: number }[] = [];
  let seq = 0;

  beforeAll(async () => {
    // Its own sandbox: every request in its log is this gateway's or this test's.
    h = await startLive({
      sandbox: { tec: '6.15' },
      config: (sb) => ({ ...QUIET, subscriptions: { pollAuth: userPass(sb, 'admin') } }),
    });
    wp = new URL('/wpgraphql', h.gateway.url).href;
    // A poll is counted after its last answer, and the next poll of its source cannot start before: the log's
    // length at each count splits the source's requests between its polls (as subscriptions-sources.test.ts).
    const counter = h.gateway.metrics.registry.getSingleMetric('sitegraph_subscription_polls_total') as Counter<
      'source' | 'outcome'
    >;
    const inc = counter.inc.bind(counter);
    const log = h.sandbox.log;
    counter.inc = ((labels: LabelValues<'source' | 'outcome'>, value?: number) => {
      completed.push({ source: String(labels.source), outcome: String(labels.outcome), logged: log.entries.length });
      inc(labels, value);
    }) as typeof counter.inc;
  });
  afterAll(async () => {
    await Promise.all(feeds.map((f) => f.stop()));
    await h?.close();
  });

  const logged = (from = 0) => h.sandbox.log.entries.slice(from).map((e) => ({ ...e, path: toSpecPath(e.path) }));

  async function createPost(fields: Record<string, unknown> = {}): Promise<number> {
    const r = await h.rest.send(
      'POST',
      '/core/v2/posts',
      { title: `Live post ${++seq}`, status: 'publish', content: 'x', ...fields },
      'admin',
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as number;
  }

  async function createEvent(fields: Record<string, unknown> = {}): Promise<number> {
    const r = await h.rest.send(
      'POST',
      '/calendar/events/v1/events',
      { title: `Live event ${++seq}`, start_date: at(3, 9), end_date: at(3, 10), status: 'publish', ...fields },
      'admin',
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as number;
  }

  it('a post made on the site reaches /wpgraphql over SSE and WebSocket in WPGraphQL shape, and /graphql, from one poll and one re-read', async () => {
    const WP = `subscription { postChanged { change databaseId id source post { id databaseId title status } } }`;
    const main = open(sse(h.gateway.url, `subscription { postChanged { kind databaseId post { title } } }`));
    const wpSse = open(sse(wp, WP));
    const wpWs = open(ws(wp, WP));
    await subscribed(h.gateway, 3);

    const from = h.sandbox.log.entries.length;
    const id = await createPost();
    const [m, s, w] = await Promise.all([main, wpSse, wpWs].map((f) => f.next(of(id, 'CREATED'), WITHIN)));
    expect(m!.data.postChanged).toEqual({ kind: 'CREATED', databaseId: id, post: { title: `Live post ${seq}` } });
    for (const r of [s!, w!])
      expect(r.data.postChanged).toEqual({
        change: 'CREATED',
        databaseId: id,
        id: wpId(id),
        source: 'MODIFIED_LIST',
        post: { id: wpId(id), databaseId: id, title: `Live post ${seq}`, status: 'publish' },
      });
    // The three anonymous subscribers, two graphs: the post was read again once for them all. Polls ask by
    // modification time; any other request of the gateway's for posts is a re-read.
    const rereads = logged(from).filter(
      (e) => e.agent?.startsWith('sitegraph') && e.path.startsWith('/core/v2/posts') && !('modified_after' in e.query),
    );
    expect(rereads.map((e) => ({ method: e.method, path: e.path, include: e.query.include }))).toEqual([
      { method: 'GET', path: '/core/v2/posts', include: [String(id)] },
    ]);
    await Promise.all([main, wpSse, wpWs].map((f) => f.stop()));
  });

  it('an event saved through the compatible graph reaches a /wpgraphql WebSocket subscriber at once, with ql-events fields', async () => {
    const venues = await h.rest.get('/calendar/events/v1/venues?per_page=1');
    const venue = (venues.body.venues as { id: number }[])[0]!.id;
    const id = await createEvent({ venue });
    const f = open(
      ws(
        wp,
        `subscription($id: ID!) { eventChangedById(id: $id) { change databaseId id source event { databaseId title startDate venue { databaseId } } } }`,
        { variables: { id: wpId(id) } },
      ),
    );
    await subscribed(h.gateway, 1, 0);
    const res = await fetch(wp, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: h.auth('admin') },
      body: JSON.stringify({
        query: `mutation($input: UpdateEventInput!) { updateEvent(input: $input) { event { databaseId title } } }`,
        variables: { input: { id: wpId(id), title: `Renamed ${seq}` } },
      }),
    });
    const body = (await res.json()) as Result;
    expect(body.errors).toBeUndefined();
    const got = await f.next(of(id, 'UPDATED'), 10_000);
    expect(payload(got)).toMatchObject({
      change: 'UPDATED',
      databaseId: id,
      id: wpId(id),
      source: 'GATEWAY',
      event: { databaseId: id, title: `Renamed ${seq}`, startDate: at(3, 9), venue: { databaseId: venue } },
    });
    await f.stop();
  });

  it('one poll serves both graphs: with a /graphql and a /wpgraphql subscriber, one request per poll of core/v2 posts, and nothing else', async () => {
    const main = open(sse(h.gateway.url, `subscription { postChanged { kind databaseId } }`));
    const other = open(ws(wp, `subscription { postChanged { change databaseId } }`));
    // These two only (the earlier tests' have gone: no other topic is polled), then two polls with them.
    const until = Date.now() + 10_000;
    while ((await metric(h.gateway, 'sitegraph_subscriptions_active')) !== 2 && Date.now() < until) await sleep(20);
    await subscribed(h.gateway, 2);
    expect(await metric(h.gateway, 'sitegraph_subscriptions_active')).toBe(2);
    const POLLS = 4;
    const start = completed.length;
    const mine = () => completed.slice(start).filter((c) => c.source === 'posts:modified');
    while (mine().length <= POLLS) await sleep(50);
    const span = mine().slice(0, POLLS + 1);
    expect(span.filter((c) => c.outcome !== 'ok')).toEqual([]);
    const between = logged(span[0]!.logged).slice(0, span.at(-1)!.logged - span[0]!.logged);
    // Only the gateway's polls of posts in between, one per poll (no poll, re-read or check per graph).
    expect(
      between.map((e) => `${e.agent?.startsWith('sitegraph') ? 'gateway' : e.agent}: ${e.method} ${e.path}`),
    ).toEqual(Array.from({ length: POLLS }, () => 'gateway: GET /core/v2/posts'));
    await Promise.all([main, other].map((f) => f.stop()));
  });

  it('an anonymous subscriber never hears of a draft that an admin subscriber gets, on both transports', async () => {
    const Q = `subscription { eventChanged(where: { stati: [PUBLISH, DRAFT] }) { change databaseId event { title status } } }`;
    const anonSse = open(sse(wp, Q));
    const anonWs = open(ws(wp, Q));
    const admin = open(sse(wp, Q, { headers: { authorization: h.auth('admin') } }));
    const adminWs = open(ws(wp, Q, { connectionParams: { Authorization: h.auth('admin') } }));
    await subscribed(h.gateway, 4);

    const id = await createEvent({ status: 'draft', title: `Secret draft ${seq + 1}` });
    for (const a of [admin, adminWs]) {
      const got = await a.next(of(id, 'CREATED'), WITHIN);
      expect(payload(got).event).toEqual({ title: `Secret draft ${seq}`, status: 'draft' });
    }
    // Published: the anonymous subscribers hear of it then, and only then.
    await h.rest.send('POST', `/calendar/events/v1/events/${id}`, { status: 'publish' }, 'admin');
    for (const a of [anonSse, anonWs]) {
      const got = await a.next((r) => of(id)(r) && payload(r).event?.status === 'publish', WITHIN);
      expect(payload(got).change).toMatch(/^(CREATED|UPDATED)$/);
      const seen = a.results.filter((x) => of(id)(x.result));
      expect(seen).toHaveLength(1);
      expect(JSON.stringify(a.results)).not.toContain('"draft"');
    }
    await Promise.all([anonSse, anonWs, admin, adminWs].map((f) => f.stop()));
  });

  describe('refusals, with the codes of /graphql', () => {
    const CASES: { what: string; main: string; wp: string; code: string }[] = [
      { what: 'a syntax error', main: 'subscription {', wp: 'subscription {', code: 'GRAPHQL_PARSE_FAILED' },
      {
        what: 'an unknown field',
        main: 'subscription { eventChanged { nope } }',
        wp: 'subscription { eventChanged { nope } }',
        code: 'GRAPHQL_VALIDATION_FAILED',
      },
      {
        what: 'a query on a subscription transport',
        main: '{ __typename }',
        wp: '{ __typename }',
        code: 'OPERATION_NOT_SUPPORTED',
      },
      {
        what: 'an ID that names no event',
        main: 'subscription { eventChangedById(id: "nonsense") { databaseId } }',
        wp: 'subscription { eventChangedById(id: "nonsense") { databaseId } }',
        code: 'BAD_USER_INPUT',
      },
    ];

    it.each(CASES)('$what: $code over SSE and WebSocket on both paths', async ({ main, wp: doc, code }) => {
      const got: Record<string, unknown[]> = {};
      const subs = {
        'graphql sse': sse(h.gateway.url, main),
        'graphql ws': ws(h.gateway.url, main),
        'wpgraphql sse': sse(wp, doc),
        'wpgraphql ws': ws(wp, doc),
      };
      for (const [k, f] of Object.entries(subs)) {
        await f.end(5_000);
        got[k] = codes(f);
        await f.stop();
      }
      expect(got).toEqual({
        'graphql sse': [code],
        'graphql ws': [code],
        'wpgraphql sse': [code],
        'wpgraphql ws': [code],
      });
    });

    it("names a WPGraphQL field the graph does not serve (WPGRAPHQL_NOT_SERVED) in a subscription's selection", async () => {
      const f = sse(wp, 'subscription { postChanged { post { comments { nodes { id } } } } }');
      await f.end(5_000);
      expect(codes(f)).toEqual(['WPGRAPHQL_NOT_SERVED']);
      expect(JSON.stringify(f.results)).toContain('Post.comments');
    });

    it('a plain POST of a subscription is refused on both paths alike, naming SSE and WebSocket', async () => {
      const post = async (url: string) => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'subscription { postChanged { databaseId } }' }),
        });
        const body = (await res.json()) as Result;
        return { status: res.status, code: body.errors?.[0]?.extensions?.code, message: body.errors?.[0]?.message };
      };
      const [m, w] = await Promise.all([post(h.gateway.url), post(wp)]);
      expect(w).toEqual(m);
      expect(w).toMatchObject({ status: 400, code: 'OPERATION_NOT_SUPPORTED' });
      expect(w.message).toMatch(/SSE.*WebSocket/);
    });
  });
});
