/**
 * Several gateway instances on one Redis (a real `redis-server`, started here)
 * and one sandbox (in this process, so its request log counts what every
 * instance sent): two gateway processes (`tsx src/main.ts --upstream …` with
 * REDIS_URL), showing that an entry cached by one is served by the other, that
 * a write through one is never followed by a stale read through the other,
 * that nothing is shared between credentials, that APQ registrations are
 * shared, and that with Redis stopped both keep answering reads (uncached) and
 * say so in logs and metrics, refuse writes (their locks are in Redis), then
 * cache again once it is back.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { startInstance, stopInstance, type Instance } from '../subscriptions/instances.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis.ts';
import { testSandbox, type Who } from '../helpers/sandbox.ts';
import { siteId } from '../../src/store/keys.ts';

async function ask(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as {
    data: any;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
  return { status: res.status, cacheControl: res.headers.get('cache-control'), ...body };
}

async function metric(i: Instance, name: string): Promise<number> {
  const text = await (await fetch(`${i.adminUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(name));
  return line ? Number(line.split(' ').pop()) : NaN;
}

async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const EVENTS = `{ events(first: 5) { nodes { databaseId title venues { title } organizers { title } } } }`;

describe('two gateway processes on one Redis', () => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  let a: Instance;
  let b: Instance;
  let from = 0;
  const mark = () => (from = sandbox.log.entries.length);
  const reads = () => sandbox.log.entries.slice(from).filter((c) => c.method === 'GET').length;
  const as = (who: Who): Record<string, string> => {
    if (!who) return {};
    const u = sandbox.users.find((x) => x.login === who)!;
    return { authorization: `Basic ${Buffer.from(`${u.login}:${u.appPassword}`).toString('base64')}` };
  };

  beforeAll(async () => {
    redis = await startTestRedis();
    sandbox = await testSandbox();
    // A write waits at most a second for its lock (Redis away: refused sooner than the default 5 s).
    const env = { REDIS_URL: redis.url, CACHE_TTL_SECONDS: '60', WRITE_LOCK_WAIT_MS: '1000' };
    const started = await Promise.allSettled([startInstance(sandbox.url, env), startInstance(sandbox.url, env)]);
    [a, b] = started.map((s) => (s.status === 'fulfilled' ? s.value : undefined)) as [Instance, Instance];
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b)]);
    await sandbox?.close();
    await redis?.stop();
  });
  beforeEach(() => mark());

  it('an entry cached by one instance is served by the other with no upstream request', async () => {
    const one = await ask(a.url, EVENTS);
    expect(one.errors).toBeUndefined();
    expect(reads()).toBeGreaterThan(0);
    mark();
    const two = await ask(b.url, EVENTS);
    expect(two.data).toEqual(one.data);
    expect(reads()).toBe(0);
    expect(two.cacheControl).toMatch(/^public, max-age=[1-9]\d*$/);
  });

  it('nothing is shared between two credentials, or with anonymous callers', async () => {
    await ask(a.url, EVENTS, undefined, as('admin'));
    const adminReads = reads();
    expect(adminReads).toBeGreaterThan(0);
    mark();
    await ask(b.url, EVENTS, undefined, as('admin'));
    expect(reads(), 'the same credential on the other instance: shared').toBe(0);
    mark();
    await ask(b.url, EVENTS, undefined, as('editor'));
    expect(reads(), 'another credential: its own requests').toBe(adminReads);
    // No credential, and no query string, appears in Redis.
    const c = new Redis(redis.url);
    const keys = await c.keys('*');
    await c.quit();
    const secrets = ['admin', 'editor'].map((w) => as(w as Who).authorization!.slice('Basic '.length));
    for (const k of keys) for (const s of secrets) expect(k).not.toContain(s);
    expect(keys.some((k) => k.startsWith(`sitegraph:${siteId(sandbox.url)}:c:calendar:`))).toBe(true);
  });

  it('a write through one instance is not followed by a stale read through the other', async () => {
    const before = (await ask(b.url, EVENTS)).data.events.nodes;
    await ask(a.url, EVENTS);
    const id = before[0].databaseId;
    const w = await ask(
      a.url,
      `mutation($id: ID!) { updateEvent(id: $id, input: { title: "Written through A" }) { event { title } } }`,
      { id: String(id) },
      as('admin'),
    );
    expect(w.errors).toBeUndefined();
    expect(w.cacheControl).toBe('no-store');
    mark();
    const after = await ask(b.url, EVENTS);
    expect(after.data.events.nodes.find((e: any) => e.databaseId === id).title).toBe('Written through A');
    expect(reads()).toBeGreaterThan(0);

    // And the other way round, with a bulk write through B.
    await ask(a.url, EVENTS);
    const bulk = await ask(
      b.url,
      `mutation($i: [EventUpdateInput!]!) { updateEvents(inputs: $i) { written } }`,
      {
        i: before
          .slice(0, 2)
          .map((e: any) => ({ id: String(e.databaseId), input: { title: `Bulk through B ${e.databaseId}` } })),
      },
      as('admin'),
    );
    expect(bulk.data.updateEvents.written).toBe(2);
    const seen = (await ask(a.url, EVENTS)).data.events.nodes;
    for (const e of before.slice(0, 2))
      expect(seen.find((x: any) => x.databaseId === e.databaseId).title).toBe(`Bulk through B ${e.databaseId}`);
  });

  it('a persisted query registered through one instance is found by the other (GET)', async () => {
    const query = `{ organizers(first: 2) { nodes { title } } }`;
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const persistedQuery = { version: 1, sha256Hash };
    const reg = await fetch(a.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, extensions: { persistedQuery } }),
    });
    expect(reg.status).toBe(200);
    const res = await fetch(`${b.url}?extensions=${encodeURIComponent(JSON.stringify({ persistedQuery }))}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    const body = (await res.json()) as any;
    expect(body.errors).toBeUndefined();
    expect(body.data.organizers.nodes.length).toBe(2);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=/);
  });

  it('with Redis stopped both keep answering, uncached, and say so; caching resumes when it is back', async () => {
    expect(await metric(a, 'sitegraph_cache_store_up')).toBe(1);
    await redis.stop();
    await until(
      'both instances to see Redis gone',
      async () =>
        (await metric(a, 'sitegraph_cache_store_up')) === 0 && (await metric(b, 'sitegraph_cache_store_up')) === 0,
    );
    for (const i of [a, b]) {
      mark();
      const r = await ask(i.url, EVENTS);
      expect(r.errors).toBeUndefined();
      expect(r.data.events.nodes.length).toBeGreaterThan(0);
      expect(reads(), 'answered uncached').toBeGreaterThan(0);
      mark();
      await ask(i.url, EVENTS);
      expect(reads(), 'and again uncached').toBeGreaterThan(0);
      expect(await metric(i, 'sitegraph_cache_lookups_total{result="error"}')).toBeGreaterThan(0);
      expect(i.output()).toContain('Redis is away');
    }
    // A write while Redis is away is refused: its object's lock is in Redis (docs/writes.md), and nothing is sent.
    const id = String((await ask(a.url, EVENTS)).data.events.nodes[0].databaseId);
    const update = (title: string) =>
      ask(
        a.url,
        `mutation($id: ID!) { updateEvent(id: $id, input: { title: "${title}" }) { event { title } } }`,
        { id },
        as('admin'),
      );
    mark();
    const refused = await update('Written without Redis');
    expect(refused.errors?.[0]?.extensions?.code).toBe('WRITE_LOCK_TIMEOUT');
    expect(sandbox.log.entries.slice(from).filter((c) => c.method !== 'GET')).toEqual([]);

    await redis.start();
    await until(
      'both instances to reconnect',
      async () =>
        (await metric(a, 'sitegraph_cache_store_up')) === 1 && (await metric(b, 'sitegraph_cache_store_up')) === 1,
      15_000,
    );
    expect((await update('Written once Redis is back')).errors).toBeUndefined();
    await ask(a.url, EVENTS);
    mark();
    const back = await ask(b.url, EVENTS);
    expect(back.data.events.nodes[0].title).toBe('Written once Redis is back');
    expect(reads()).toBe(0);
  }, 60_000);
});
