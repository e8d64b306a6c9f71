/**
 * One poller per site however many instances (docs/subscriptions.md "Several
 * instances"): two gateway processes on one real redis-server and one sandbox
 * (in this process, so its request log counts what both sent).
 *
 * - Exactly one instance polls each source: its poll counter moves, the
 *   other's does not, and the site sees one modified-list request per poll.
 * - Every subscriber, on either instance and either transport, gets each
 *   change exactly once: changes made on the site and writes through either
 *   instance.
 * - Killing the polling instance (SIGKILL: its lease is left to expire) moves
 *   polling to the other within the lease's life, which continues from the
 *   stored state: a change made while nobody polled is delivered, once.
 * - Redis restarting empty (no persistence) loses no change: the instance that
 *   polled goes on from the state it last stored, so a change made on the site
 *   while Redis was away is delivered, once, and not taken as the baseline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';
import { at, sleep, sse, ws, type Feed } from '../subscriptions/helpers.ts';
import { instanceMetric, startInstance, stopInstance, until, type Instance } from '../subscriptions/instances.ts';

const POLL_SECONDS = 0.3;
const LEASE_SECONDS = 1.5;
const QUERY = `subscription { eventChanged { kind databaseId source event { title } } }`;

type Got = { kind: string; databaseId: number; source: string };
const changesOf = (f: Feed): Got[] => f.results.map((x) => x.result.data?.eventChanged).filter(Boolean);

describe('subscriptions on two instances sharing one Redis', () => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  let rest: RestClient;
  let a: Instance;
  let b: Instance;
  const feeds: { on: 'a' | 'b'; feed: Feed }[] = [];
  let seq = 0;

  const polls = (i: Instance) =>
    instanceMetric(i, 'sitegraph_subscription_polls_total', { source: 'events:modified', outcome: 'ok' });
  const holds = async (i: Instance) =>
    (await instanceMetric(i, 'sitegraph_subscription_lease_held', { source: 'events:modified' })) === 1;
  const modifiedPolls = (from: number) =>
    sandbox.log.entries.slice(from).filter((e) => e.agent?.startsWith('sitegraph') && e.query.orderby === 'modified')
      .length;

  async function createOnSite(): Promise<number> {
    const r = await rest.send(
      'POST',
      '/calendar/events/v1/events',
      {
        title: `Shared ${++seq}`,
        start_date: at(2, 9 + (seq % 8)),
        end_date: at(2, 10 + (seq % 8)),
        status: 'publish',
      },
      'admin',
    );
    expect(r.status).toBe(201);
    return r.body.id as number;
  }

  async function createThrough(i: Instance): Promise<number> {
    const day = at(4).slice(0, 10);
    const res = await fetch(i.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: rest.auth('admin') },
      body: JSON.stringify({
        query: `mutation($i: EventInput!) { createEvent(input: $i) { event { databaseId } } }`,
        variables: {
          i: {
            title: `Shared write ${++seq}`,
            startDate: `${day}T15:00:00Z`,
            endDate: `${day}T16:00:00Z`,
            status: 'PUBLISH',
          },
        },
      }),
    });
    const body = (await res.json()) as { data: any; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data.createEvent.event.databaseId as number;
  }

  /** Each feed on `on` has every one of `ids` CREATED exactly once, and no change twice. */
  async function everyoneOnce(ids: number[], on: ('a' | 'b')[]) {
    const live = feeds.filter((f) => on.includes(f.on));
    for (const { feed } of live) {
      for (const id of ids)
        await feed.next(
          (r) => r.data?.eventChanged?.databaseId === id && r.data.eventChanged.kind === 'CREATED',
          10_000,
        );
    }
    // A few more polls: nothing comes twice.
    await sleep(4 * POLL_SECONDS * 1000);
    for (const { feed } of live) {
      const got = changesOf(feed).filter((c) => ids.includes(c.databaseId));
      expect(got.map((c) => `${c.databaseId}:${c.kind}`).sort()).toEqual(ids.map((id) => `${id}:CREATED`).sort());
    }
  }

  beforeAll(async () => {
    redis = await startTestRedis();
    sandbox = await testSandbox();
    rest = restClient(sandbox);
    const env = {
      REDIS_URL: redis.url,
      CACHE_TTL_SECONDS: '0',
      SUBSCRIPTION_POLL_SECONDS: String(POLL_SECONDS),
      SUBSCRIPTION_LEASE_SECONDS: String(LEASE_SECONDS),
      // Only the modified list and gateway writes: each change has one source to be found by.
      SUBSCRIPTION_WINDOW_EVENTS: '0',
    };
    [a, b] = await Promise.all([startInstance(sandbox.url, env), startInstance(sandbox.url, env)]);
    for (const [on, i] of [
      ['a', a],
      ['b', b],
    ] as const) {
      feeds.push(
        { on, feed: sse(i.url, QUERY) },
        { on, feed: ws(i.url, QUERY) },
        { on, feed: sse(i.url, QUERY, { single: true }) },
      );
    }
    for (const i of [a, b])
      await until(
        'three subscriptions on each instance',
        async () => (await instanceMetric(i, 'sitegraph_subscriptions_active')) === 3,
      );
    await until('a lease holder that has polled', async () => (await polls(a)) + (await polls(b)) >= 2);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(feeds.map((f) => f.feed.stop().catch(() => {})));
    await Promise.all([stopInstance(a), stopInstance(b)]);
    await sandbox?.close();
    await redis?.stop();
  });

  it('exactly one instance polls; the site sees one poll per interval, not one per instance', async () => {
    const [holder, other] = (await holds(a)) ? [a, b] : [b, a];
    expect(await holds(holder)).toBe(true);
    expect(await holds(other)).toBe(false);
    const [h0, o0] = [await polls(holder), await polls(other)];
    const from = sandbox.log.entries.length;
    const t0 = Date.now();
    await sleep(3_000);
    const seconds = (Date.now() - t0) / 1000;
    const [h1, o1] = [await polls(holder), await polls(other)];
    expect(o1 - o0).toBe(0);
    expect(h1 - h0).toBeGreaterThan(0);
    // One request per poll (nothing changed): about one per interval.
    const requests = modifiedPolls(from);
    expect(requests).toBeGreaterThanOrEqual(Math.floor((seconds / POLL_SECONDS) * 0.5));
    expect(requests).toBeLessThanOrEqual(Math.ceil(seconds / POLL_SECONDS) + 2);
  });

  it('every subscriber on either instance gets each change once: made on the site, or written through either', async () => {
    const ids = [await createOnSite(), await createThrough(a), await createOnSite(), await createThrough(b)];
    await everyoneOnce(ids, ['a', 'b']);
    // The writes reached everyone as the gateway's, the site's changes through the poll.
    const first = changesOf(feeds[0]!.feed);
    expect(first.find((c) => c.databaseId === ids[1])!.source).toBe('GATEWAY');
    expect(first.find((c) => c.databaseId === ids[0])!.source).toBe('MODIFIED_LIST');
  });

  it('killing the polling instance moves polling to the other within the lease, which continues where it stopped', async () => {
    const [holder, other] = (await holds(a)) ? [a, b] : [b, a];
    const survivors = holder === a ? 'b' : 'a';
    await stopInstance(holder, true);
    const killedAt = Date.now();
    // Made while nobody polls: found by the next holder, from the stored state.
    const during = await createOnSite();
    const took = await until('the other instance to hold the lease', () => holds(other), 10_000);
    const before = await polls(other);
    await until('its first poll', async () => (await polls(other)) > before, 5_000);
    const takeoverMs = Date.now() - killedAt;
    expect(took).toBeLessThanOrEqual(LEASE_SECONDS * 1000 + 1_000);
    expect(takeoverMs).toBeLessThanOrEqual(LEASE_SECONDS * 1000 + POLL_SECONDS * 1000 + 1_500);
    const after = await createOnSite();
    await everyoneOnce([during, after], [survivors]);
  });

  it('a Redis that restarts empty loses no change made while it was away', async () => {
    // The instance left by the test before (the other was killed) holds the lease.
    const [holder, on] = (await holds(a).catch(() => false)) ? [a, 'a' as const] : [b, 'b' as const];
    const before = await polls(holder);
    await until('a poll', async () => (await polls(holder)) > before, 5_000);
    await redis.stop();
    const during = await createOnSite();
    await sleep(3 * POLL_SECONDS * 1000);
    await redis.start();
    const back = await polls(holder);
    await until('polls again after Redis is back', async () => (await polls(holder)) > back, 15_000);
    await everyoneOnce([during], [on]);
  }, 60_000);
});
