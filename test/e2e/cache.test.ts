/**
 * The upstream GET cache in one gateway (the in-memory store), end to end over
 * loopback HTTP: per-caller isolation counted in the sandbox's request log,
 * invalidation by every kind of write (single and bulk, events, venues and
 * posts), TTL expiry, the site's own Cache-Control/Expires, and the
 * `cache-control` of GraphQL responses (POST, and GET for persisted queries).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { testSandbox, type Who } from '../helpers/sandbox.ts';

const EVENTS = `{ events(first: 5) { nodes { databaseId title venues { databaseId title } } } }`;
const POSTS = `{ posts(first: 20) { nodes { databaseId title } } }`;

interface Answer {
  status: number;
  cacheControl: string | null;
  data: any;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

async function ask(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data: any; errors?: Answer['errors'] };
  return { status: res.status, cacheControl: res.headers.get('cache-control'), data: body.data, errors: body.errors };
}

const reads = (h: Harness) => h.calls().filter((c) => c.method === 'GET').length;

describe('upstream cache (in memory)', () => {
  let h: Harness;
  const as = (who: Who): Record<string, string> => (who ? { authorization: h.auth(who) } : {});
  beforeAll(async () => {
    // The upstream layer itself: the response cache above it off (test/e2e/response-cache.test.ts has it).
    h = await startHarness({ config: { cache: { ttlSeconds: 60, responses: false } } });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('shares anonymous answers, and never one credential’s answer with another or with anonymous callers', async () => {
    const first = await ask(h.gateway.url, EVENTS);
    expect(first.errors).toBeUndefined();
    expect(reads(h)).toBeGreaterThan(0);

    h.mark();
    const again = await ask(h.gateway.url, EVENTS);
    expect(again.data).toEqual(first.data);
    expect(reads(h)).toBe(0);

    // A credential: its own entries, never the anonymous ones.
    h.mark();
    await ask(h.gateway.url, EVENTS, undefined, as('admin'));
    const adminReads = reads(h);
    expect(adminReads).toBeGreaterThan(0);
    h.mark();
    await ask(h.gateway.url, EVENTS, undefined, as('admin'));
    expect(reads(h)).toBe(0);

    // Another credential: not the admin's entries.
    h.mark();
    await ask(h.gateway.url, EVENTS, undefined, as('editor'));
    expect(reads(h)).toBe(adminReads);

    // Anonymous again: still its own entry, untouched by the credentials.
    h.mark();
    expect((await ask(h.gateway.url, EVENTS)).data).toEqual(first.data);
    expect(reads(h)).toBe(0);

    const m = await (await fetch(`${h.gateway.adminUrl}/metrics`)).text();
    expect(m).toMatch(/sitegraph_cache_lookups_total\{result="hit"\} [1-9]/);
    expect(m).toMatch(/sitegraph_cache_lookups_total\{result="miss"\} [1-9]/);
    expect(m).toMatch(/sitegraph_cache_store_up 1/);
  });

  it('a private answer (drafts) stays with its credential', async () => {
    const Q = `{ posts(first: 5, where: { status: [DRAFT] }) { nodes { databaseId status } } }`;
    const admin = await ask(h.gateway.url, Q, undefined, as('admin'));
    expect(admin.errors).toBeUndefined();
    expect(admin.data.posts.nodes.length).toBeGreaterThan(0);
    h.mark();
    const anon = await ask(h.gateway.url, Q);
    expect(reads(h)).toBeGreaterThan(0);
    expect(anon.data?.posts?.nodes ?? []).not.toEqual(admin.data.posts.nodes);
  });

  describe('writes through the gateway invalidate what they changed', () => {
    const EVENT = `query($id: ID!) { event(id: $id, idType: DATABASE_ID) { title venues { title } } }`;
    /** Reads `query` twice (the second from the cache), then returns the answer after `write`. */
    async function acrossWrite(
      query: string,
      vars: Record<string, unknown> | undefined,
      write: () => Promise<void>,
    ): Promise<any> {
      await ask(h.gateway.url, query, vars);
      h.mark();
      await ask(h.gateway.url, query, vars);
      expect(reads(h), 'the read before the write is cached').toBe(0);
      await write();
      h.mark();
      const after = await ask(h.gateway.url, query, vars);
      expect(after.errors).toBeUndefined();
      expect(reads(h), 'the read after the write goes upstream').toBeGreaterThan(0);
      return after.data;
    }
    const admin = async (query: string, vars: Record<string, unknown>) => {
      const r = await ask(h.gateway.url, query, vars, as('admin'));
      expect(r.errors).toBeUndefined();
      expect(r.cacheControl).toBe('no-store');
      return r.data;
    };

    it('updateEvent: the event and the lists', async () => {
      const list = (await ask(h.gateway.url, EVENTS)).data.events.nodes;
      const id = list[0].databaseId;
      const data = await acrossWrite(EVENTS, undefined, async () => {
        await admin(
          `mutation($id: ID!) { updateEvent(id: $id, input: { title: "Renamed once" }) { event { title } } }`,
          { id: String(id) },
        );
      });
      expect(data.events.nodes.find((e: any) => e.databaseId === id).title).toBe('Renamed once');
      const single = await acrossWrite(EVENT, { id: String(id) }, async () => {
        await admin(
          `mutation($id: ID!) { updateEvent(id: $id, via: LEGACY, input: { title: "Renamed twice" }) { event { title } } }`,
          { id: String(id) },
        );
      });
      expect(single.event.title).toBe('Renamed twice');
    });

    it('updateVenue: the events that show it', async () => {
      const list = (await ask(h.gateway.url, EVENTS)).data.events.nodes;
      const withVenue = list.find((e: any) => e.venues.length > 0);
      expect(withVenue).toBeDefined();
      const venueId = withVenue.venues[0].databaseId;
      const data = await acrossWrite(EVENTS, undefined, async () => {
        await admin(`mutation($id: ID!) { updateVenue(id: $id, input: { title: "Moved hall" }) { venue { title } } }`, {
          id: String(venueId),
        });
      });
      const again = data.events.nodes.find((e: any) => e.databaseId === withVenue.databaseId);
      expect(again.venues[0].title).toBe('Moved hall');
    });

    it('createEvents, updateEvents, deleteEvents (bulk)', async () => {
      const Q = `{ events(first: 100, where: { search: "Cachebulk" }) { nodes { databaseId title } } }`;
      const start = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      const ids: number[] = [];
      let data = await acrossWrite(Q, undefined, async () => {
        const made = await admin(
          `mutation($i: [EventInput!]!) { createEvents(inputs: $i) { written results { event { databaseId } } } }`,
          {
            i: [1, 2].map((n) => ({
              title: `Cachebulk ${n}`,
              startDate: `${start}T10:00:00Z`,
              endDate: `${start}T11:00:00Z`,
            })),
          },
        );
        expect(made.createEvents.written).toBe(2);
        for (const r of made.createEvents.results) ids.push(r.event.databaseId);
      });
      expect(data.events.nodes.map((e: any) => e.title).sort()).toEqual(['Cachebulk 1', 'Cachebulk 2']);
      data = await acrossWrite(Q, undefined, async () => {
        const r = await admin(`mutation($i: [EventUpdateInput!]!) { updateEvents(inputs: $i) { written } }`, {
          i: ids.map((id) => ({ id: String(id), input: { title: `Cachebulk renamed ${id}` } })),
        });
        expect(r.updateEvents.written).toBe(2);
      });
      expect(data.events.nodes.map((e: any) => e.title).sort()).toEqual(
        ids.map((id) => `Cachebulk renamed ${id}`).sort(),
      );
      data = await acrossWrite(Q, undefined, async () => {
        const r = await admin(`mutation($ids: [ID!]!) { deleteEvents(ids: $ids) { written } }`, {
          ids: ids.map(String),
        });
        expect(r.deleteEvents.written).toBe(2);
      });
      expect(data.events.nodes).toEqual([]);
    });

    it('createPost, updatePost, deletePost and createPosts', async () => {
      let id = 0;
      let data = await acrossWrite(POSTS, undefined, async () => {
        const r = await admin(
          `mutation { createPost(input: { title: "Cache post", status: PUBLISH }) { databaseId } }`,
          {},
        );
        id = r.createPost.databaseId;
      });
      expect(data.posts.nodes.some((p: any) => p.databaseId === id && p.title === 'Cache post')).toBe(true);
      data = await acrossWrite(POSTS, undefined, async () => {
        await admin(`mutation($id: ID!) { updatePost(id: $id, input: { title: "Cache post renamed" }) { title } }`, {
          id: String(id),
        });
      });
      expect(data.posts.nodes.find((p: any) => p.databaseId === id).title).toBe('Cache post renamed');
      data = await acrossWrite(POSTS, undefined, async () => {
        await admin(`mutation($id: ID!) { deletePost(id: $id) { databaseId } }`, { id: String(id) });
      });
      expect(data.posts.nodes.some((p: any) => p.databaseId === id)).toBe(false);
      data = await acrossWrite(POSTS, undefined, async () => {
        const r = await admin(
          `mutation { createPosts(inputs: [{ title: "Bulk cache A", status: PUBLISH }, { title: "Bulk cache B", status: PUBLISH }]) { written } }`,
          {},
        );
        expect(r.createPosts.written).toBe(2);
        // One /batch/v1 request: its items say what it wrote.
        expect(
          h
            .calls()
            .filter((c) => c.path === '/batch/v1')
            .flatMap((c) => c.batch ?? [])
            .map((b) => b.path),
        ).toEqual(['/core/v2/posts', '/core/v2/posts']);
      });
      expect(data.posts.nodes.map((p: any) => p.title)).toEqual(
        expect.arrayContaining(['Bulk cache A', 'Bulk cache B']),
      );
    });

    it('a post write leaves calendar entries alone (invalidation is by family)', async () => {
      await ask(h.gateway.url, EVENTS);
      await admin(`mutation { createPost(input: { title: "Unrelated", status: PUBLISH }) { databaseId } }`, {});
      h.mark();
      await ask(h.gateway.url, EVENTS);
      expect(reads(h)).toBe(0);
    });
  });

  describe('cache-control on GraphQL responses', () => {
    it('public for anonymous reads, private for credentials, no-store for mutations and errors', async () => {
      const anon = await ask(h.gateway.url, EVENTS);
      expect(anon.cacheControl).toMatch(/^public, max-age=([1-9]|[1-5]\d|60)$/);
      const cred = await ask(h.gateway.url, EVENTS, undefined, as('editor'));
      expect(cred.cacheControl).toMatch(/^private, max-age=[1-9]\d*$/);
      const token = await ask(h.gateway.url, EVENTS, undefined, { 'x-automation-token': 'abc' });
      expect(token.cacheControl).toMatch(/^private, /);
      // Gateway-only fields do not lower it: the configured TTL.
      expect((await ask(h.gateway.url, `{ __typename }`)).cacheControl).toBe('public, max-age=60');
      const bad = await ask(h.gateway.url, `{ events(first: -1) { nodes { title } } }`);
      expect(bad.errors?.length).toBeGreaterThan(0);
      expect(bad.cacheControl).toBe('no-store');
      const unauth = await ask(h.gateway.url, `mutation { createPost(input: { title: "x" }) { databaseId } }`);
      expect(unauth.cacheControl).toBe('no-store');
    });

    it('GET with a persisted query hash (APQ) is answered with a cacheable response', async () => {
      const query = `{ events(first: 2) { nodes { databaseId title } } }`;
      const sha256Hash = createHash('sha256').update(query).digest('hex');
      const ext = encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash } }));
      // Apollo's CSRF prevention: a GET needs a non-simple header (any client can send it; a CDN forwards it).
      const get = () =>
        fetch(`${h.gateway.url}?extensions=${ext}`, { headers: { 'apollo-require-preflight': 'true' } });
      const unknown = (await (await get()).json()) as any;
      expect(unknown.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      const registered = await fetch(h.gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, extensions: { persistedQuery: { version: 1, sha256Hash } } }),
      });
      expect(registered.status).toBe(200);
      h.mark();
      const res = await get();
      const body = (await res.json()) as any;
      expect(body.errors).toBeUndefined();
      expect(body.data.events.nodes.length).toBe(2);
      expect(res.headers.get('cache-control')).toMatch(/^public, max-age=[1-9]\d*$/);
      expect(reads(h)).toBe(0);
    });
  });
});

describe('the service credential is an identity of its own', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      sandbox: { appPassword: 'serv icec rede ntia' },
      config: { cache: { ttlSeconds: 60, responses: false }, serviceAuth: 'admin:serv icec rede ntia' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  it('callers without Authorization share the service credential’s entries, privately; other credentials do not', async () => {
    const Q = `{ posts(first: 5, where: { status: [DRAFT] }) { nodes { databaseId status } } }`;
    const first = await ask(h.gateway.url, Q);
    expect(first.errors).toBeUndefined();
    // The service credential (an administrator) sees drafts: an answer no anonymous caller could get.
    expect(first.data.posts.nodes.length).toBeGreaterThan(0);
    const n = reads(h);
    expect(n).toBeGreaterThan(0);
    h.mark();
    const again = await ask(h.gateway.url, Q);
    expect(reads(h)).toBe(0);
    expect(again.cacheControl).toMatch(/^private, max-age=/);
    h.mark();
    const editor = await ask(h.gateway.url, Q, undefined, { authorization: h.auth('editor') });
    expect(editor.errors).toBeUndefined();
    expect(reads(h)).toBe(n);
  });
});

describe('TTL and the site’s own Cache-Control / Expires', () => {
  let sandbox: RunningSandbox;
  let proxy: Server;
  let gateway: Gateway;
  /** Response headers the proxy adds, by REST path pattern. */
  const rules: [RegExp, Record<string, string>][] = [];
  let from = 0;
  const mark = () => (from = sandbox.log.entries.length);
  const gets = (re: RegExp) =>
    sandbox.log.entries.slice(from).filter((c) => c.method === 'GET' && re.test(c.path)).length;

  beforeAll(async () => {
    sandbox = await testSandbox();
    // A proxy in front of the sandbox that adds the caching headers a site may send.
    proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const up = await fetch(`${sandbox.origin}${req.url}`, {
        method: req.method,
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)) as [
            string,
            string,
          ][],
        ),
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const headers: Record<string, string> = {};
      up.headers.forEach((v, k) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)) headers[k] = v;
      });
      const path = (req.url ?? '').split('?')[0]!;
      for (const [re, add] of rules) if (re.test(path)) Object.assign(headers, add);
      res.writeHead(up.status, headers);
      res.end(Buffer.from(await up.arrayBuffer()));
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const { port } = proxy.address() as AddressInfo;
    // 2 s: long enough that two reads in a row fall inside it even on a busy machine.
    gateway = await startGateway(
      parseConfig({ port: 0, cache: { ttlSeconds: 2 } }),
      `http://127.0.0.1:${port}/wp-json/`,
    );
  });
  afterAll(async () => {
    await gateway.close();
    await new Promise((r) => proxy.close(r));
    await sandbox.close();
  });
  beforeEach(() => {
    rules.length = 0;
    mark();
  });

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('entries expire after CACHE_TTL_SECONDS', async () => {
    const Q = `{ tags(first: 3) { nodes { name } } }`;
    await ask(gateway.url, Q);
    const first = gets(/tags/);
    expect(first).toBeGreaterThan(0);
    await ask(gateway.url, Q);
    expect(gets(/tags/)).toBe(first);
    await sleep(2_100);
    await ask(gateway.url, Q);
    expect(gets(/tags/)).toBe(2 * first);
  });

  it('no-store, no-cache, private (for anonymous callers) and a past Expires are not stored; the response says no-store', async () => {
    const cases: [string, RegExp, Record<string, string>][] = [
      ['{ venues(first: 2) { nodes { title } } }', /venues/, { 'cache-control': 'no-store' }],
      [
        '{ organizers(first: 2) { nodes { title } } }',
        /organizers/,
        { 'cache-control': 'no-cache, must-revalidate, max-age=0' },
      ],
      ['{ categories(first: 2) { nodes { name } } }', /categories/, { expires: 'Wed, 11 Jan 1984 05:00:00 GMT' }],
      ['{ posts(first: 2) { nodes { title } } }', /posts/, { 'cache-control': 'private, max-age=60' }],
    ];
    for (const [query, re, add] of cases) {
      rules.push([re, add]);
      mark();
      const a = await ask(gateway.url, query);
      expect(a.errors, query).toBeUndefined();
      const n = gets(re);
      expect(n, query).toBeGreaterThan(0);
      const b = await ask(gateway.url, query);
      expect(gets(re), `${query} is not served from the cache`).toBe(2 * n);
      expect(b.cacheControl, query).toBe('no-store');
    }
  });

  it('a shorter max-age and an Expires shorten the TTL; the response max-age is the smallest used', async () => {
    await gateway.close();
    gateway = await startGateway(parseConfig({ port: 0, cache: { ttlSeconds: 60 } }), gateway.client.options.baseUrl);
    rules.push([/tags/, { 'cache-control': 'public, max-age=1' }]);
    rules.push([
      /categories/,
      { expires: new Date(Date.now() + 30_000).toUTCString(), date: new Date().toUTCString() },
    ]);
    const Q = `{ tags(first: 2) { nodes { name } } categories(first: 2) { nodes { name } } }`;
    mark();
    const a = await ask(gateway.url, Q);
    expect(a.errors).toBeUndefined();
    expect(a.cacheControl).toBe('public, max-age=1');
    const tags = gets(/tags/);
    const cats = gets(/categories/);
    await sleep(1_100);
    const b = await ask(gateway.url, Q);
    expect(gets(/tags/), 'max-age=1 expired').toBe(2 * tags);
    expect(gets(/categories/), 'Expires in 30 s: still cached').toBe(cats);
    expect(b.cacheControl).toMatch(/^public, max-age=(1|0)$|^no-store$/);
    // Only categories used: its Expires (~29 s) bounds the answer.
    expect((await ask(gateway.url, `{ categories(first: 2) { nodes { name } } }`)).cacheControl).toMatch(
      /^public, max-age=(2\d|30)$/,
    );
  });

  it('private answers are kept for their credential alone', async () => {
    rules.push([/posts/, { 'cache-control': 'private' }]);
    const admin = sandbox.users.find((u) => u.login === 'admin')!;
    const authorization = `Basic ${Buffer.from(`${admin.login}:${admin.appPassword}`).toString('base64')}`;
    const Q = '{ posts(first: 3) { nodes { title } } }';
    await ask(gateway.url, Q, undefined, { authorization });
    const n = gets(/posts/);
    const again = await ask(gateway.url, Q, undefined, { authorization });
    expect(gets(/posts/)).toBe(n);
    // The gateway's TTL is 60 s by now and the site gave no max-age: up to 60 s, for this caller alone.
    expect(again.cacheControl).toMatch(/^private, max-age=(5\d|60)$/);
  });
});
