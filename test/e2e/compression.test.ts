/**
 * Compression both ways (docs/production.md "Compression"): the gateway's answers of at
 * least COMPRESS_MIN_BYTES in brotli or gzip as Accept-Encoding negotiates
 * (q-values, `*`, `identity`; 406 when nothing is acceptable), with
 * `Vary: Accept-Encoding`; GraphiQL's page and assets too; and the gateway's
 * requests to the site ask for gzip and brotli, which the sandbox then sends
 * (bodies over 1 KB) and the client undoes.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const BIG = '{ events(first: 100) { nodes { databaseId title startDate endDate venues { title city } } } }';

/** A raw POST (undici's request does not decompress): status, headers and the bytes as sent. */
async function raw(url: string, query: string, acceptEncoding?: string) {
  const res = await request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(acceptEncoding !== undefined ? { 'accept-encoding': acceptEncoding } : {}),
    },
    body: JSON.stringify({ query }),
  });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers as Record<string, string | undefined>, bytes };
}

function decode(encoding: string | undefined, bytes: Buffer): unknown {
  const text = encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;
  return JSON.parse(text.toString('utf8'));
}

describe('compressed answers', () => {
  let h: Harness;
  let plain: unknown;
  let plainBytes: number;

  beforeAll(async () => {
    h = await startHarness();
    const r = await raw(h.gateway.url, BIG);
    plain = decode(undefined, r.bytes);
    plainBytes = r.bytes.length;
  }, 60_000);
  afterAll(() => h?.close());

  it('sends an answer over the threshold uncompressed without Accept-Encoding, saying it varies by it', async () => {
    const r = await raw(h.gateway.url, BIG);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers.vary).toMatch(/accept-encoding/i);
    expect(plainBytes).toBeGreaterThan(10_000);
  });

  it.each([
    ['gzip, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=0.2, identity;q=0.9', undefined],
    ['*', 'br'],
    ['br;q=0, *;q=0.3', 'gzip'],
    ['identity', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['deflate', undefined],
    ['', undefined],
  ])('Accept-Encoding: %j -> %s', async (accept, coding) => {
    const r = await raw(h.gateway.url, BIG, accept);
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe(coding);
    expect(r.headers.vary).toMatch(/accept-encoding/i);
    expect(decode(coding, r.bytes)).toEqual(plain);
    if (coding) expect(r.bytes.length).toBeLessThan(plainBytes / 4);
  });

  it('answers 406 when neither a coding it has nor identity is acceptable', async () => {
    const r = await raw(h.gateway.url, BIG, 'identity;q=0, *;q=0');
    expect(r.status).toBe(406);
    expect((decode(undefined, r.bytes) as any).errors[0].extensions.code).toBe('NOT_ACCEPTABLE');
    // identity refused but gzip fine: even a small answer is compressed.
    const small = await raw(h.gateway.url, '{ __typename }', 'gzip, identity;q=0');
    expect(small.headers['content-encoding']).toBe('gzip');
    expect(decode('gzip', small.bytes)).toEqual({ data: { __typename: 'Query' } });
  });

  it('leaves an answer under COMPRESS_MIN_BYTES as it is', async () => {
    const r = await raw(h.gateway.url, '{ __typename }', 'gzip, br');
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers.vary).toMatch(/accept-encoding/i);
    expect(decode(undefined, r.bytes)).toEqual({ data: { __typename: 'Query' } });
  });

  it("compresses GraphiQL's page and its assets (each asset once)", async () => {
    const page = await request(h.gateway.url, { headers: { accept: 'text/html', 'accept-encoding': 'gzip' } });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(await page.body.arrayBuffer())).toString()).toMatch(/<html/i);
    const asset = new URL('/graphiql/graphiql.min.js', h.gateway.url).href;
    const sizes: number[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await request(asset, { headers: { 'accept-encoding': 'br' } });
      expect(r.headers['content-encoding']).toBe('br');
      const bytes = Buffer.from(await r.body.arrayBuffer());
      sizes.push(bytes.length);
      expect(brotliDecompressSync(bytes).length).toBeGreaterThan(bytes.length * 3);
    }
    expect(sizes[1]).toBe(sizes[0]);
  });

  it('asks the site for gzip and brotli, and reads what it sends compressed', async () => {
    const origin = h.sandbox.origin;
    const asked: string[] = [];
    const answered: string[] = [];
    const pairs = (headers: unknown): [string, string][] => {
      const out: [string, string][] = [];
      if (Array.isArray(headers))
        for (let i = 0; i + 1 < headers.length; i += 2)
          out.push([String(headers[i]).toLowerCase(), String(headers[i + 1])]);
      else if (typeof headers === 'string')
        for (const line of headers.split('\r\n')) {
          const j = line.indexOf(':');
          if (j > 0) out.push([line.slice(0, j).toLowerCase(), line.slice(j + 1).trim()]);
        }
      return out;
    };
    const onCreate = (m: unknown) => {
      const req = (m as { request: { origin?: unknown; headers?: unknown } }).request;
      if (String(req.origin).startsWith(origin))
        asked.push(pairs(req.headers).find(([k]) => k === 'accept-encoding')?.[1] ?? '');
    };
    const onHeaders = (m: unknown) => {
      const { request: req, response } = m as { request: { origin?: unknown }; response: { headers: unknown } };
      if (String(req.origin).startsWith(origin))
        answered.push(pairs(response.headers).find(([k]) => k === 'content-encoding')?.[1] ?? 'identity');
    };
    subscribe('undici:request:create', onCreate);
    subscribe('undici:request:headers', onHeaders);
    try {
      const r = await h.gql(BIG);
      expect(r.errors).toBeUndefined();
      expect(r.data.events.nodes).toHaveLength(100);
    } finally {
      unsubscribe('undici:request:create', onCreate);
      unsubscribe('undici:request:headers', onHeaders);
    }
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set(['gzip, br']));
    // The sandbox compresses bodies over 1 KB as a web server in front of WordPress does (gzip first).
    expect(answered).toContain('gzip');
  });
});

describe('COMPRESSION=0', () => {
  let h: Harness;
  let g: Gateway;
  beforeAll(async () => {
    h = await startHarness();
    g = await startGateway(parseConfig({ port: 0, compression: { enabled: false } }), h.sandbox.url);
  }, 60_000);
  afterAll(async () => {
    await g?.close();
    await h?.close();
  });

  it('sends every answer as it is', async () => {
    const r = await raw(g.url, BIG, 'gzip, br');
    expect(r.headers['content-encoding']).toBeUndefined();
    expect((decode(undefined, r.bytes) as any).data.events.nodes).toHaveLength(100);
  });
});
