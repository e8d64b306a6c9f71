/**
 * Persisted documents and the operation safelist (issue 12), over real loopback
 * HTTP: manifest ids by `documentId` and by APQ's `sha256Hash`, in POST bodies
 * and GET URLs; with SAFELIST=1 unknown ids and ad-hoc text are refused before
 * anything goes upstream and APQ registration is off; without it, APQ works as
 * Apollo's (the flow docs/production.md shows with curl); a bad manifest is a
 * ConfigError at start.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig } from '../../src/config.ts';
import { startGateway } from '../../src/server.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const EVENTS = 'query Events($first: Int!) { events(first: $first) { nodes { id title } } }';
const TYPENAME = 'query Typename { __typename }';
/** A key as older presets (or `hashAlgorithm: 'sha1'`) write it: bare hex of another digest. */
const SHA1_KEY = createHash('sha1').update(TYPENAME).digest('hex');

let dir: string;
async function manifestFile(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

interface Answer {
  status: number;
  headers: Headers;
  body: { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

async function post(url: string, body: unknown): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

/** GET as a CDN-friendly client sends it; Apollo's CSRF protection wants a non-simple header on GET. */
async function get(url: string, params: Record<string, unknown>): Promise<Answer> {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  const res = await fetch(u, { headers: { 'apollo-require-preflight': 'true' } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

const apq = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sitegraph-safelist-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SAFELIST=1', () => {
  let h: Harness;
  beforeAll(async () => {
    const manifest = await manifestFile('persisted-documents.json', {
      [`sha256:${sha256(EVENTS)}`]: EVENTS,
      [SHA1_KEY]: TYPENAME,
    });
    h = await startHarness({ config: { persistedDocuments: { manifest, safelist: true } } });
  });
  afterAll(() => h.close());

  it('runs a manifest operation by documentId, as the client preset names it', async () => {
    const r = await post(h.gateway.url, { documentId: `sha256:${sha256(EVENTS)}`, variables: { first: 2 } });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.events.nodes).toHaveLength(2);
    // A manifest's own key, whatever its form.
    const old = await post(h.gateway.url, { documentId: SHA1_KEY });
    expect(old.body).toEqual({ data: { __typename: 'Query' } });
  });

  it("runs it by APQ's sha256Hash too, and by GET for caches", async () => {
    const byHash = await post(h.gateway.url, { extensions: apq(sha256(EVENTS)), variables: { first: 1 } });
    expect(byHash.status).toBe(200);
    expect(byHash.body.data.events.nodes).toHaveLength(1);
    // The sha256 of a document listed under another key finds it as well.
    expect((await post(h.gateway.url, { extensions: apq(sha256(TYPENAME)) })).body.data).toEqual({
      __typename: 'Query',
    });

    const byGet = await get(h.gateway.url, { documentId: `sha256:${sha256(EVENTS)}`, variables: { first: 1 } });
    expect(byGet.status).toBe(200);
    expect(byGet.body.data.events.nodes).toHaveLength(1);
    const apqGet = await get(h.gateway.url, { extensions: apq(sha256(EVENTS)), variables: { first: 1 } });
    expect(apqGet.body.data.events.nodes).toHaveLength(1);
  });

  it('refuses ad-hoc query text with OPERATION_NOT_ALLOWED (403) before anything goes upstream', async () => {
    h.mark();
    for (const query of ['{ events(first: 1) { nodes { title } } }', '{ __schema { types { name } } }']) {
      const r = await post(h.gateway.url, { query });
      expect(r.status).toBe(403);
      expect(r.body.data).toBeUndefined();
      expect(r.body.errors).toEqual([
        {
          message: expect.stringMatching(/Only persisted operations run/),
          extensions: { code: 'OPERATION_NOT_ALLOWED' },
        },
      ]);
    }
    const viaGet = await get(h.gateway.url, { query: '{ events(first: 1) { nodes { title } } }' });
    expect(viaGet.status).toBe(403);
    expect(h.calls()).toHaveLength(0);
    // The exact text of a manifest document is not ad hoc.
    const same = await post(h.gateway.url, { query: EVENTS, variables: { first: 1 } });
    expect(same.status).toBe(200);
    expect(same.body.data.events.nodes).toHaveLength(1);
  });

  it('refuses unknown ids with PERSISTED_QUERY_NOT_FOUND (400), and APQ cannot register new text', async () => {
    h.mark();
    const unknown = await post(h.gateway.url, { documentId: `sha256:${sha256('query X { __typename }')}` });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors![0]!.extensions).toEqual({ code: 'PERSISTED_QUERY_NOT_FOUND' });

    const text = 'query Sneaky { events(first: 50) { nodes { title } } }';
    const register = await post(h.gateway.url, { query: text, extensions: apq(sha256(text)) });
    expect(register.status).toBe(400);
    expect(register.body.errors![0]!.extensions).toEqual({ code: 'PERSISTED_QUERY_NOT_FOUND' });
    const after = await post(h.gateway.url, { extensions: apq(sha256(text)) });
    expect(after.status).toBe(400);
    expect(after.body.errors![0]!.extensions).toEqual({ code: 'PERSISTED_QUERY_NOT_FOUND' });
    expect(h.calls()).toHaveLength(0);
  });

  it('refuses an id sent with some other text, and batches holding a refused operation', async () => {
    const mismatch = await post(h.gateway.url, { documentId: `sha256:${sha256(EVENTS)}`, query: '{ __typename }' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors![0]!.extensions).toEqual({ code: 'BAD_REQUEST' });
    const batch = await post(h.gateway.url, [{ documentId: SHA1_KEY }, { query: '{ __typename }' }]);
    expect(batch.status).toBe(403);
    expect(batch.body.errors![0]!.extensions).toEqual({ code: 'OPERATION_NOT_ALLOWED' });
  });
});

describe('a manifest without the safelist, and APQ', () => {
  let h: Harness;
  beforeAll(async () => {
    const manifest = await manifestFile('plain.json', { [`sha256:${sha256(EVENTS)}`]: EVENTS });
    h = await startHarness({ config: { persistedDocuments: { manifest } } });
  });
  afterAll(() => h.close());

  it('runs manifest ids and ad-hoc queries alike', async () => {
    expect(
      (await post(h.gateway.url, { documentId: `sha256:${sha256(EVENTS)}`, variables: { first: 1 } })).body.data.events
        .nodes,
    ).toHaveLength(1);
    expect((await post(h.gateway.url, { query: '{ __typename }' })).body.data).toEqual({ __typename: 'Query' });
    const unknown = await post(h.gateway.url, { documentId: 'sha256:00' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors![0]!.extensions).toEqual({ code: 'PERSISTED_QUERY_NOT_FOUND' });
  });

  it("keeps Apollo's APQ: hash, not found, register, then hash alone (POST and GET)", async () => {
    const text = 'query Apq { events(first: 1) { nodes { id } } }';
    const first = await post(h.gateway.url, { extensions: apq(sha256(text)) });
    // Apollo's answer: 200, so the client registers the text next.
    expect(first.status).toBe(200);
    expect(first.body.errors![0]!.extensions).toMatchObject({ code: 'PERSISTED_QUERY_NOT_FOUND' });
    const register = await post(h.gateway.url, { query: text, extensions: apq(sha256(text)) });
    expect(register.body.data.events.nodes).toHaveLength(1);
    const again = await post(h.gateway.url, { extensions: apq(sha256(text)) });
    expect(again.body.data).toEqual(register.body.data);
    const viaGet = await get(h.gateway.url, { extensions: apq(sha256(text)) });
    expect(viaGet.status).toBe(200);
    expect(viaGet.body.data).toEqual(register.body.data);
  });
});

describe('no manifest', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(() => h?.close());

  it('answers a documentId with what is missing (PERSISTED_DOCUMENTS), not a generic empty-query error', async () => {
    for (const r of [
      await post(h.gateway.url, { documentId: `sha256:${sha256(EVENTS)}`, variables: { first: 2 } }),
      await get(h.gateway.url, { documentId: 'abc' }),
    ]) {
      expect(r.status).toBe(400);
      expect(r.body.errors![0]!.extensions).toEqual({ code: 'PERSISTED_QUERY_NOT_FOUND' });
      expect(r.body.errors![0]!.message).toMatch(/no persisted-document manifest \(PERSISTED_DOCUMENTS is unset\)/);
    }
    // With its text the same request runs; an APQ hash is still Apollo's to answer.
    expect(
      (await post(h.gateway.url, { query: EVENTS, documentId: 'abc', variables: { first: 1 } })).body.data.events.nodes,
    ).toHaveLength(1);
    expect((await post(h.gateway.url, { extensions: apq(sha256(TYPENAME)) })).body.errors![0]!.extensions!.code).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
  });
});

describe('manifests at start', () => {
  const start = (manifest: string, safelist = true) =>
    startGateway(parseConfig({ port: 0, persistedDocuments: { manifest, safelist } }), 'http://127.0.0.1:9/');

  it('accepts Apollo persisted query manifests', async () => {
    const path = await manifestFile('apollo.json', {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [{ id: 'op-1', name: 'Typename', type: 'query', body: TYPENAME }],
    });
    const g = await start(path);
    try {
      expect((await post(g.url, { documentId: 'op-1' })).body.data).toEqual({ __typename: 'Query' });
    } finally {
      await g.close();
    }
  });

  it('refuses a bad manifest with a ConfigError that says what is wrong', async () => {
    const cases: [unknown, RegExp][] = [
      ['{ not json', /not valid JSON/],
      [['query A { __typename }'], /expected a JSON object/],
      [{}, /has no documents/],
      [{ a: 42 }, /"a" is not a document string/],
      [{ a: 'query {' }, /"a" does not parse/],
      [{ a: 'fragment F on Query { __typename }' }, /"a" has no operation/],
      [
        { [`sha256:${sha256('query B { __typename }')}`]: 'query C { __typename }' },
        /is not the sha256 of its document/,
      ],
      [{ format: 'apollo-persisted-query-manifest', operations: [{ body: TYPENAME }] }, /operations\[0\] has no "id"/],
    ];
    let i = 0;
    for (const [content, message] of cases) {
      const path = await manifestFile(`bad-${i++}.json`, content);
      const err = await start(path).catch((e: unknown) => e);
      expect(err, String(message)).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(message);
    }
    const missing = await start(join(dir, 'nope.json')).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ConfigError);
    expect((missing as Error).message).toMatch(/PERSISTED_DOCUMENTS: cannot read .*nope\.json/);
  });

  it('reads PERSISTED_DOCUMENTS and SAFELIST, and SAFELIST alone is a ConfigError', () => {
    expect(loadConfig({ PERSISTED_DOCUMENTS: 'm.json', SAFELIST: '1' }).persistedDocuments).toEqual({
      manifest: 'm.json',
      safelist: true,
    });
    expect(loadConfig({}).persistedDocuments).toEqual({ safelist: false });
    expect(() => loadConfig({ SAFELIST: '1' })).toThrow(ConfigError);
    expect(() => loadConfig({ SAFELIST: '1' })).toThrow(/SAFELIST=1 needs PERSISTED_DOCUMENTS/);
  });
});
