/**
 * The response cache (cache/operation-cache.ts): a hot query is answered
 * without execution and without a request to the site; writes through the
 * gateway make exactly the answers they can have changed stale (entity tags),
 * in every instance sharing one Redis; answers carry `Surrogate-Key`; the
 * admin purge drops answers by tag; one caller's answer never reaches another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis.ts';

const LIST = `{ events(first: 5) { nodes { databaseId title venues { databaseId title } } } }`;
const ONE = `query($id: ID!) { event(id: $id, idType: DATABASE_ID) { databaseId title } }`;

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: JSON.parse(text) as { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] },
  };
}

describe('the response cache, one instance', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { cache: { ttlSeconds: 30 } } });
  });
  afterAll(() => h.close());

  it('answers a hot query from the cache: the same bytes, no request to the site, Surrogate-Key with its tags', async () => {
    const first = await post(h.gateway.url, { query: LIST });
    expect(first.body.errors).toBeUndefined();
    expect(first.headers.get('x-sitegraph-cache')).toBeNull();
    const keys = first.headers.get('surrogate-key')!.split(' ');
    expect(keys).toContain('list:events');
    expect(keys).toContain('embeds:venues');
    h.mark();
    const second = await post(h.gateway.url, { query: LIST });
    expect(second.headers.get('x-sitegraph-cache')).toBe('hit');
    expect(second.text).toBe(first.text);
    expect(second.headers.get('surrogate-key')).toBe(first.headers.get('surrogate-key'));
    expect(second.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(h.calls()).toEqual([]);
  });

  it('a write makes stale what it can have changed, and only that', async () => {
    const list = await post(h.gateway.url, { query: LIST });
    const [a, b] = list.body.data.events.nodes as { databaseId: number }[];
    await post(h.gateway.url, { query: ONE, variables: { id: String(a!.databaseId) } });
    await post(h.gateway.url, { query: ONE, variables: { id: String(b!.databaseId) } });
    const other = await post(h.gateway.url, { query: ONE, variables: { id: String(b!.databaseId) } });
    expect(other.headers.get('x-sitegraph-cache')).toBe('hit');
    expect(other.headers.get('surrogate-key')!.split(' ')).toContain(`Event:${b!.databaseId}`);

    const w = await h.gql(
      `mutation($id: ID!) { updateEvent(id: $id, input: { title: "Renamed by the cache test" }) { event { title } } }`,
      { id: String(a!.databaseId) },
      'admin',
    );
    expect(w.errors, JSON.stringify(w.errors)).toBeUndefined();

    const one = await post(h.gateway.url, { query: ONE, variables: { id: String(a!.databaseId) } });
    expect(one.headers.get('x-sitegraph-cache')).toBeNull();
    expect(one.body.data.event.title).toBe('Renamed by the cache test');
    const again = await post(h.gateway.url, { query: LIST });
    expect(again.headers.get('x-sitegraph-cache')).toBeNull();
    // Another event read by ID was not touched by that write: still a hit.
    const still = await post(h.gateway.url, { query: ONE, variables: { id: String(b!.databaseId) } });
    expect(still.headers.get('x-sitegraph-cache')).toBe('hit');
  });

  it('keeps each caller its own answers, and keeps no answer with errors or of a mutation', async () => {
    await post(h.gateway.url, { query: LIST });
    const admin = await post(h.gateway.url, { query: LIST }, { authorization: h.auth('admin') });
    expect(admin.headers.get('x-sitegraph-cache')).toBeNull();
    expect(admin.headers.get('cache-control')).toMatch(/^private/);
    const adminAgain = await post(h.gateway.url, { query: LIST }, { authorization: h.auth('admin') });
    expect(adminAgain.headers.get('x-sitegraph-cache')).toBe('hit');
    expect(adminAgain.headers.get('cache-control')).toMatch(/^private/);

    const bad = `{ events(first: 2, where: { startDate: "soon" }) { nodes { title } } }`;
    await post(h.gateway.url, { query: bad });
    const badAgain = await post(h.gateway.url, { query: bad });
    expect(badAgain.headers.get('x-sitegraph-cache')).toBeNull();
    expect(badAgain.body.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
  });

  it('purges by tag on the admin listener', async () => {
    await post(h.gateway.url, { query: LIST });
    expect((await post(h.gateway.url, { query: LIST })).headers.get('x-sitegraph-cache')).toBe('hit');
    const purged = await post(`${h.gateway.adminUrl}/purge`, { tags: ['list:events'] });
    expect(purged.status).toBe(200);
    expect(purged.body).toMatchObject({ purged: true, scope: 'tags' });
    expect((await post(h.gateway.url, { query: LIST })).headers.get('x-sitegraph-cache')).toBeNull();
  });

  it('sends a hit compressed as the client asks', async () => {
    const big = `{ events(first: 50) { nodes { databaseId title description venues { title address city } } } }`;
    await post(h.gateway.url, { query: big });
    const res = await fetch(h.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'br' },
      body: JSON.stringify({ query: big }),
    });
    expect(res.headers.get('x-sitegraph-cache')).toBe('hit');
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(((await res.json()) as any).data.events.nodes).toHaveLength(50);
  });
});

describe('the response cache, two instances on one Redis', () => {
  let redis: TestRedis;
  let h: Harness;
  let other: Gateway;
  beforeAll(async () => {
    redis = await startTestRedis();
    h = await startHarness({ config: { cache: { ttlSeconds: 30 }, redisUrl: redis.url } });
    other = await startGateway(parseConfig({ port: 0, cache: { ttlSeconds: 30 }, redisUrl: redis.url }), h.sandbox.url);
  });
  afterAll(async () => {
    await other?.close();
    await h?.close();
    await redis?.stop();
  });

  it('a read after a write through either instance never returns the old state', async () => {
    const id = String((await post(h.gateway.url, { query: LIST })).body.data.events.nodes[0].databaseId);
    for (let round = 0; round < 4; round++) {
      // Warm both instances, then write through one of them, alternately.
      for (const g of [h.gateway, other]) {
        await post(g.url, { query: ONE, variables: { id } });
        expect((await post(g.url, { query: ONE, variables: { id } })).headers.get('x-sitegraph-cache')).toBe('hit');
      }
      const writer = round % 2 ? other : h.gateway;
      const title = `Round ${round}`;
      const w = await post(
        writer.url,
        {
          query: `mutation($id: ID!, $t: String!) { updateEvent(id: $id, input: { title: $t }) { event { title } } }`,
          variables: { id, t: title },
        },
        { authorization: h.auth('admin') },
      );
      expect(w.body.errors, JSON.stringify(w.body.errors)).toBeUndefined();
      for (const g of [h.gateway, other])
        expect((await post(g.url, { query: ONE, variables: { id } })).body.data.event.title).toBe(title);
    }
  });
});
