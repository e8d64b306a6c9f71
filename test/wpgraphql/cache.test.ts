/**
 * The compatible graph's answers through the main graph's response cache and with its `cache-control`, over real
 * loopback HTTP in front of the sandbox: a hot query is answered without executing; the same body on /graphql and
 * /wpgraphql never shares an entry; a write through either graph purges a cached compatible answer that read what it
 * wrote; one caller's private answer never reaches another; mutations and answers with errors are `no-store` and
 * never kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as Answer['body'] };
}

const hit = (a: Answer) => a.headers.get('x-sitegraph-cache');
/** The type name inside a global ID: the main graph's say `Post:N`, WPGraphQL's `post:N`. */
const typeOfId = (id: string) => Buffer.from(id, 'base64').toString('utf8').split(':')[0];

// Valid on both graphs: each has posts { nodes { id databaseId title } }, with global IDs of its own.
const POSTS = '{ posts(first: 3) { nodes { id databaseId title } } }';
const WP_UPDATE = `mutation($input: UpdatePostInput!) { updatePost(input: $input) { post { databaseId title } } }`;
const MAIN_UPDATE = `mutation($id: ID!, $t: String!) { updatePost(id: $id, input: { title: $t }) { databaseId title } }`;

describe('the compatible graph and the response cache', () => {
  let h: Harness;
  let wp: string;
  beforeAll(async () => {
    h = await startHarness({ config: { cache: { ttlSeconds: 30 } } });
    wp = new URL('/wpgraphql', h.gateway.url).href;
  });
  afterAll(() => h.close());

  it('answers a hot query from the cache: the same bytes, no request to the site, public with Surrogate-Key', async () => {
    const first = await post(wp, { query: POSTS });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.posts.nodes).toHaveLength(3);
    expect(hit(first)).toBeNull();
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=[1-9]\d*$/);
    expect(first.headers.get('surrogate-key')!.split(' ')).toContain('list:posts');
    h.mark();
    const second = await post(wp, { query: POSTS });
    expect(hit(second)).toBe('hit');
    expect(second.text).toBe(first.text);
    expect(second.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(second.headers.get('surrogate-key')).toBe(first.headers.get('surrogate-key'));
    expect(h.calls()).toEqual([]);
  });

  it('never answers one graph from the other: the same body on /graphql and /wpgraphql has an entry on each', async () => {
    const doc = { query: '{ posts(first: 2) { nodes { id title } } }' };
    await post(h.gateway.url, doc);
    const main = await post(h.gateway.url, doc);
    expect(hit(main)).toBe('hit');
    expect(main.body.data.posts.nodes.map((n: { id: string }) => typeOfId(n.id))).toEqual(['Post', 'Post']);
    // Sent to /wpgraphql, the same bytes execute there: the main graph's answer would carry its own IDs.
    const compatible = await post(wp, doc);
    expect(hit(compatible)).toBeNull();
    expect(compatible.body.data.posts.nodes.map((n: { id: string }) => typeOfId(n.id))).toEqual(['post', 'post']);
    expect(hit(await post(wp, doc))).toBe('hit');
    // And the compatible graph's answer did not take the main graph's place.
    const mainAgain = await post(h.gateway.url, doc);
    expect(hit(mainAgain)).toBe('hit');
    expect(mainAgain.text).toBe(main.text);
  });

  it('a write through either graph purges a cached compatible answer that read the written post', async () => {
    await post(wp, { query: POSTS });
    const cached = await post(wp, { query: POSTS });
    expect(hit(cached)).toBe('hit');
    const id = cached.body.data.posts.nodes[0].databaseId as number;
    const admin = { authorization: h.auth('admin') };

    const w = await post(
      wp,
      { query: WP_UPDATE, variables: { input: { id: String(id), title: 'Renamed on /wpgraphql' } } },
      admin,
    );
    expect(w.body.errors, JSON.stringify(w.body.errors)).toBeUndefined();
    expect(w.headers.get('cache-control')).toBe('no-store');
    expect(w.headers.get('surrogate-key')).toBeNull();
    h.mark();
    const after = await post(wp, { query: POSTS });
    expect(hit(after)).toBeNull();
    expect(after.body.data.posts.nodes[0]).toMatchObject({ databaseId: id, title: 'Renamed on /wpgraphql' });
    expect(h.calls().some((c) => c.method === 'GET' && c.path.startsWith('/core/v2/posts'))).toBe(true);
    expect(hit(await post(wp, { query: POSTS }))).toBe('hit');

    const m = await post(
      h.gateway.url,
      { query: MAIN_UPDATE, variables: { id: String(id), t: 'Renamed on /graphql' } },
      admin,
    );
    expect(m.body.errors, JSON.stringify(m.body.errors)).toBeUndefined();
    h.mark();
    const again = await post(wp, { query: POSTS });
    expect(hit(again)).toBeNull();
    expect(again.body.data.posts.nodes[0]).toMatchObject({ databaseId: id, title: 'Renamed on /graphql' });
    expect(h.calls().some((c) => c.method === 'GET' && c.path.startsWith('/core/v2/posts'))).toBe(true);
  });

  it("keeps a caller's answers private and its own: never another caller's, nor an anonymous one's", async () => {
    const doc = { query: '{ posts(first: 4) { nodes { databaseId status } } }' };
    const admin = { authorization: h.auth('admin') };
    const first = await post(wp, doc, admin);
    expect(first.body.errors).toBeUndefined();
    expect(hit(first)).toBeNull();
    expect(first.headers.get('cache-control')).toMatch(/^private, max-age=[1-9]\d*$/);
    const second = await post(wp, doc, admin);
    expect(hit(second)).toBe('hit');
    expect(second.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const editor = await post(wp, doc, { authorization: h.auth('editor') });
    expect(hit(editor)).toBeNull();
    expect(editor.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const anonymous = await post(wp, doc);
    expect(hit(anonymous)).toBeNull();
    expect(anonymous.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
  });

  it('answers with errors and mutations are no-store and never kept: a field error, a mutation, a refused document', async () => {
    // Event.origin answers an error (no REST answer carries it), beside the data.
    const doc = { query: '{ events(first: 1) { nodes { databaseId origin } } }' };
    const failed = await post(wp, doc);
    expect(failed.status).toBe(200);
    expect(failed.body.errors?.length).toBeGreaterThan(0);
    expect(failed.headers.get('cache-control')).toBe('no-store');
    expect(failed.headers.get('surrogate-key')).toBeNull();
    expect(hit(await post(wp, doc))).toBeNull();

    // A mutation is no-store even when it used nothing upstream (which a query would have public for the TTL).
    const mutation = await post(wp, { query: 'mutation { __typename }' });
    expect(mutation.body).toEqual({ data: { __typename: 'RootMutation' } });
    expect(mutation.headers.get('cache-control')).toBe('no-store');
    const typename = await post(wp, { query: '{ __typename }' });
    expect(typename.headers.get('cache-control')).toMatch(/^public, max-age=30$/);

    const invalid = await post(wp, { query: '{ posts { nodes { noSuchField } } }' });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the compatible graph with the response cache off', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { cache: { ttlSeconds: 30, responses: false } } });
  });
  afterAll(() => h.close());

  it('executes every request, and still says how long the answer may be reused', async () => {
    const wp = new URL('/wpgraphql', h.gateway.url).href;
    await post(wp, { query: POSTS });
    const again = await post(wp, { query: POSTS });
    expect(again.body.errors).toBeUndefined();
    expect(hit(again)).toBeNull();
    expect(again.headers.get('cache-control')).toMatch(/^public, max-age=[1-9]\d*$/);
  });
});
