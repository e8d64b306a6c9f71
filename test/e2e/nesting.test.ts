/**
 * Input nested past any bound, at every entry point a client has, as a fuzzer
 * would send it: 100,000 levels of `[` (what made the response cache's key,
 * JSON.stringify, throw a RangeError and answer 500), and just past the limit.
 * Each is refused 400 `BAD_REQUEST` naming the limit (`MAX_NESTING`, 64), the
 * gateway keeps answering, and input at the limit goes through. The entry
 * points: a POST body's `variables` and `extensions`, a GET's `variables` and
 * `extensions`, a GraphQL document (a list literal 2,499 deep is inside the
 * token cap and overflowed graphql-js's parser), a persisted document's
 * variables, both subscription transports (SSE POST and GET, a WebSocket
 * message), and the admin listener's purge.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_NESTING, documentTooDeep, jsonTooDeep } from '../../src/nesting.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const nested = (depth: number, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth);
const HUGE = 100_000;
/** Arrays this deep inside `variables`: the body's object and `variables` are two more levels. */
const PAST = MAX_NESTING;
const AT = MAX_NESTING - 2;

const refused = (body: any) => {
  expect(body.errors?.[0]?.extensions, JSON.stringify(body).slice(0, 300)).toEqual({
    code: 'BAD_REQUEST',
    limit: 'MAX_NESTING',
    max: MAX_NESTING,
  });
  expect(body.errors[0].message).toMatch(/nests deeper than 64 levels/);
};

describe('the nesting scanners (src/nesting.ts)', () => {
  it('count arrays and objects, not what is inside strings, and stop at the limit', () => {
    expect(jsonTooDeep(nested(64))).toBe(false);
    expect(jsonTooDeep(nested(65))).toBe(true);
    expect(jsonTooDeep(`{"a":"${'['.repeat(1000)}"}`)).toBe(false);
    expect(jsonTooDeep(`{"a":"\\"${'{'.repeat(1000)}"}`)).toBe(false);
    expect(jsonTooDeep('{"a":'.repeat(65) + '1' + '}'.repeat(65))).toBe(true);
  });

  it("count a document's braces, brackets and parentheses, not strings, block strings or comments", () => {
    expect(documentTooDeep(`{ f(a: ${nested(62)}) }`)).toBe(false);
    expect(documentTooDeep(`{ f(a: ${nested(63)}) }`)).toBe(true);
    expect(documentTooDeep(`{ f(a: "${'['.repeat(500)}") }`)).toBe(false);
    expect(documentTooDeep(`{ f(a: """${'{'.repeat(500)} \\""" ${'('.repeat(500)}""") }`)).toBe(false);
    expect(documentTooDeep(`# ${'{'.repeat(500)}\n{ __typename }`)).toBe(false);
  });
});

describe('nesting past the limit, at every entry point', () => {
  let h: Harness;
  let p: Harness;
  let dir: string;
  // Variables it does not declare are read (and walked) all the same, then ignored.
  const TYPENAME = 'query Typename { __typename }';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sitegraph-nesting-'));
    const manifest = join(dir, 'manifest.json');
    await writeFile(manifest, JSON.stringify({ typename: TYPENAME }));
    // The response cache on: its key is where the 500 came from.
    h = await startHarness({ config: { cache: { ttlSeconds: 30 } } });
    p = await startHarness({ config: { cache: { ttlSeconds: 30 }, persistedDocuments: { manifest } } });
  });
  afterAll(async () => {
    await Promise.all([h?.close(), p?.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  const post = async (url: string, body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: res.status, body: (await res.json()) as any };
  };
  const get = async (url: string, params: Record<string, string>, headers: Record<string, string> = {}) => {
    const u = new URL(url);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    const res = await fetch(u, { headers: { 'apollo-require-preflight': 'true', ...headers } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const alive = async () => expect((await h.gql('{ __typename }')).data).toEqual({ __typename: 'Query' });

  it.each([HUGE, PAST])('POST /graphql, variables %i deep', async (depth) => {
    const r = await post(h.gateway.url, `{"query":"{__typename}","variables":{"x":${nested(depth)}}}`);
    expect(r.status).toBe(400);
    refused(r.body);
    await alive();
  });

  it('POST /graphql, extensions 100,000 deep', async () => {
    const r = await post(h.gateway.url, `{"query":"{__typename}","extensions":{"x":${nested(HUGE)}}}`);
    expect(r.status).toBe(400);
    refused(r.body);
  });

  it('POST /graphql at the limit is served (and kept by the response cache)', async () => {
    const body = `{"query":${JSON.stringify(TYPENAME)},"variables":{"x":${nested(AT)}}}`;
    for (let i = 0; i < 2; i++) {
      const r = await post(h.gateway.url, body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ data: { __typename: 'Query' } });
    }
  });

  // A URL is at most 16 KiB (Node's header cap): 2,000 levels, escaped, fit.
  it.each(['variables', 'extensions'])('GET /graphql, %s 2,000 deep', async (name) => {
    const r = await get(h.gateway.url, { query: '{__typename}', [name]: `{"x":${nested(2_000)}}` });
    expect(r.status).toBe(400);
    refused(r.body);
    await alive();
  });

  it('a GraphQL document whose list literal is 2,499 deep (inside the 5000-token cap): POST and GET', async () => {
    const query = `{ __typename(a: ${nested(2_499, '')}) }`;
    const a = await post(h.gateway.url, JSON.stringify({ query }));
    expect(a.status).toBe(400);
    refused(a.body);
    const b = await get(h.gateway.url, { query });
    expect(b.status).toBe(400);
    refused(b.body);
    await alive();
  });

  it('a persisted document by its id, with variables 100,000 deep', async () => {
    const r = await post(p.gateway.url, `{"documentId":"typename","variables":{"x":${nested(HUGE)}}}`);
    expect(r.status).toBe(400);
    refused(r.body);
    const ok = await post(p.gateway.url, JSON.stringify({ documentId: 'typename', variables: { x: [[1]] } }));
    expect(ok.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('the SSE transport: POST 100,000 deep and GET 2,000 deep variables', async () => {
    const query = 'subscription { eventChanged { kind } }';
    const a = await post(h.gateway.url, `{"query":${JSON.stringify(query)},"variables":{"x":${nested(HUGE)}}}`, {
      accept: 'text/event-stream',
    });
    expect(a.status).toBe(400);
    refused(a.body);
    const b = await get(h.gateway.url, { query, variables: `{"x":${nested(2_000)}}` }, { accept: 'text/event-stream' });
    expect(b.status).toBe(400);
    refused(b.body);
    await alive();
  });

  it('the WebSocket transport: a message 100,000 deep closes the socket with 4400 and why; a document too deep is an error of its subscription', async () => {
    const url = h.gateway.url.replace(/^http/, 'ws');
    const open = async () => {
      const socket = new WebSocket(url, 'graphql-transport-ws');
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      socket.send(JSON.stringify({ type: 'connection_init' }));
      await new Promise<void>((resolve) => socket.once('message', () => resolve()));
      return socket;
    };
    const a = await open();
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      a.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    a.send(
      `{"id":"1","type":"subscribe","payload":{"query":"subscription { eventChanged { kind } }","variables":{"x":${nested(HUGE)}}}}`,
    );
    expect(await closed).toEqual({ code: 4400, reason: expect.stringMatching(/nests deeper than 64 levels/) });

    const b = await open();
    const answer = new Promise<any>((resolve) => b.on('message', (m) => resolve(JSON.parse(String(m)))));
    b.send(
      JSON.stringify({
        id: '2',
        type: 'subscribe',
        payload: { query: `subscription { eventChanged(where: { ids: ${nested(2_499, '')} }) { kind } }` },
      }),
    );
    const msg = await answer;
    expect(msg.type, JSON.stringify(msg)).toBe('error');
    expect(msg.payload[0].extensions, JSON.stringify(msg)).toEqual({
      code: 'BAD_REQUEST',
      limit: 'MAX_NESTING',
      max: MAX_NESTING,
    });
    b.close();
    await alive();
  });

  it('the admin listener: a purge body 20,000 deep (inside its 64 KiB cap)', async () => {
    const res = await fetch(`${h.gateway.adminUrl}/purge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"tags":${nested(20_000, '"x"')}}`,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toMatch(/nests deeper than 64 levels/);
  });
});
