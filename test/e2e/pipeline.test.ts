/**
 * One operation pipeline for the three transports (src/pipeline/): every stage that refuses gives the same error
 * through POST /graphql, GraphQL over SSE and the graphql-transport-ws WebSocket, is counted against that stage for
 * the transport it came by (`sitegraph_operations_refused_total`), and a document is parsed once whichever
 * transports send it.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { newRouteLogFile } from '../helpers/route-log.ts';
import { testSandbox } from '../helpers/sandbox.ts';
import { metric, startLive, ws, type Feed, type LiveHarness } from '../subscriptions/helpers.ts';

type Error_ = { message: string; extensions: Record<string, unknown> };

/** The first error a subscription was refused with (graphql-sse sends it as a result, graphql-ws as `error`). */
async function refusal(f: Feed): Promise<Error_> {
  await f.end(5_000);
  const errors = [...f.results.flatMap((x) => x.result.errors ?? []), ...(Array.isArray(f.failure) ? f.failure : [])];
  expect(errors.length, JSON.stringify(f.failure)).toBeGreaterThan(0);
  return errors[0] as Error_;
}

async function post(h: LiveHarness, query: string): Promise<{ status: number; error: Error_ }> {
  const res = await fetch(h.gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { errors: Error_[] };
  return { status: res.status, error: body.errors[0]! };
}

/**
 * A subscription over GraphQL over SSE (a distinct connection, as graphql-sse's client opens it): the first error,
 * whether the request was refused whole (a JSON answer) or the operation in its stream (a `next` event).
 */
async function overSse(h: LiveHarness, query: string): Promise<Error_> {
  const res = await fetch(h.gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query }),
  });
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    return (JSON.parse(text) as { errors: Error_[] }).errors[0]!;
  const data = /event: next\ndata: (.*)\n/.exec(text)?.[1];
  expect(data, text).toBeDefined();
  return (JSON.parse(data!) as { errors: Error_[] }).errors[0]!;
}

/** The same document over the three transports: each one's first error. */
async function everyWay(h: LiveHarness, query: string) {
  const http = await post(h, query);
  const sseError = await overSse(h, query);
  const overWs = await refusal(ws(h.gateway.url, query));
  return { http, sse: sseError, ws: overWs };
}

const refusedAt = (h: LiveHarness, transport: string, stage: string) =>
  metric(h.gateway, 'sitegraph_operations_refused_total', { transport, stage });

describe('the operation pipeline', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await testSandbox({ requestLog: newRouteLogFile() });
  });
  afterAll(() => sandbox.close());

  describe('one gateway, every transport', () => {
    let h: LiveHarness;
    beforeAll(async () => {
      h = await startLive({ sandboxInstance: sandbox, config: { limits: { maxDepth: 4, maxSlugLength: 20 } } });
    });
    afterAll(() => h.close());

    it('has its stages in order', () => {
      expect(h.gateway.stages).toEqual([
        'rate limit',
        'persisted documents',
        'parse',
        'validate',
        'limits',
        'context',
        'execute',
        'respond',
      ]);
    });

    it('refuses a document that does not parse with the same error, counted at "parse", on every transport', async () => {
      const r = await everyWay(h, 'subscription { eventChanged { kind ');
      expect(r.http.status).toBe(400);
      expect(r.http.error.extensions.code).toBe('GRAPHQL_PARSE_FAILED');
      expect(r.sse).toEqual(r.http.error);
      expect(r.ws).toEqual(r.http.error);
      for (const t of ['http', 'sse', 'ws']) expect(await refusedAt(h, t, 'parse')).toBeGreaterThanOrEqual(1);
    });

    it('refuses an invalid document (an unknown field, the depth limit) the same way, counted at "validate"', async () => {
      const unknown = await everyWay(h, 'subscription Unknown { eventChanged { nope } }');
      expect(unknown.http.status).toBe(400);
      expect(unknown.http.error.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(unknown.sse).toEqual(unknown.http.error);
      expect(unknown.ws).toEqual(unknown.http.error);
      const deep = await everyWay(
        h,
        'subscription { eventChanged { event { venues { events { nodes { title } } } } } }',
      );
      expect(deep.http.status).toBe(400);
      expect(deep.http.error).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', limit: 'maxDepth', max: 4 } });
      expect(deep.sse).toEqual(deep.http.error);
      expect(deep.ws).toEqual(deep.http.error);
      for (const t of ['http', 'sse', 'ws']) expect(await refusedAt(h, t, 'validate')).toBeGreaterThanOrEqual(2);
    });

    it('answers every validation error of a document, on /graphql as on the subscription transports', async () => {
      const query = 'subscription Two { eventChanged { nope nada } }';
      const res = await fetch(h.gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      expect(res.status).toBe(400);
      const http = ((await res.json()) as { errors: Error_[] }).errors;
      expect(http.map((e) => e.extensions.code)).toEqual(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED']);
      const overWs = ws(h.gateway.url, query);
      await overWs.end(5_000);
      expect(overWs.failure).toEqual(http);
    });

    it('refuses a document nested too deep with the same error on every transport', async () => {
      const list = `${'['.repeat(70)}1${']'.repeat(70)}`;
      const r = await everyWay(h, `subscription { eventChanged(where: { ids: ${list} }) { kind } }`);
      expect(r.http.status).toBe(400);
      expect(r.http.error).toMatchObject({ extensions: { code: 'BAD_REQUEST', limit: 'MAX_NESTING' } });
      expect(r.http.error.message).toMatch(/^The GraphQL document nests deeper than 64 levels/);
      expect(r.sse).toEqual(r.http.error);
      expect(r.ws).toEqual(r.http.error);
    });

    it('applies the same limits check to a query on /graphql and a subscription on SSE and WebSocket', async () => {
      const slug = 'x'.repeat(21);
      const http = await post(h, `{ events(where: { categorySlugs: ["${slug}"] }) { nodes { title } } }`);
      const sub = `subscription { eventChanged(where: { categorySlugs: ["${slug}"] }) { kind } }`;
      const sseError = await overSse(h, sub);
      const overWs = await refusal(ws(h.gateway.url, sub));
      expect(http.status).toBe(400);
      expect(http.error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'maxSlugLength', max: 20 });
      // The same check; only the field it names differs.
      for (const e of [sseError, overWs]) {
        expect(e.extensions).toEqual(http.error.extensions);
        expect(e.message).toBe(http.error.message.replace('of events', 'of Subscription.eventChanged'));
      }
      // Each transport serves its own operations: the refusal is the limits stage's too.
      const plain = await post(h, sub);
      expect(plain.error.extensions.code).toBe('OPERATION_NOT_SUPPORTED');
      const query = await refusal(ws(h.gateway.url, '{ site { name } }'));
      expect(query.extensions.code).toBe('OPERATION_NOT_SUPPORTED');
      for (const t of ['http', 'sse', 'ws']) expect(await refusedAt(h, t, 'limits')).toBeGreaterThanOrEqual(1);
    });

    it('parses a document once, whichever transports send it and however often', async () => {
      const doc =
        'subscription Once { eventChanged(where: { categorySlugs: ["abcdefghijklmnopqrstuvwxyz"] }) { kind } }';
      const before = h.gateway.parses();
      await everyWay(h, doc);
      await everyWay(h, doc);
      expect(h.gateway.parses() - before).toBe(1);
    });
  });

  describe('with the safelist', () => {
    let h: LiveHarness;
    const doc = 'subscription Listed { eventChanged { kind databaseId } }';
    beforeAll(async () => {
      const manifest = join(mkdtempSync(join(tmpdir(), 'sitegraph-pipeline-')), 'persisted-documents.json');
      writeFileSync(manifest, JSON.stringify({ [`sha256:${createHash('sha256').update(doc).digest('hex')}`]: doc }));
      h = await startLive({ sandboxInstance: sandbox, config: { persistedDocuments: { manifest, safelist: true } } });
    });
    afterAll(() => h.close());

    it('refuses text that is not in the manifest with the same error, counted at "persisted documents"', async () => {
      const r = await everyWay(h, 'subscription { eventChanged { kind } }');
      expect(r.http.status).toBe(403);
      expect(r.http.error.extensions.code).toBe('OPERATION_NOT_ALLOWED');
      expect(r.sse).toEqual(r.http.error);
      expect(r.ws).toEqual(r.http.error);
      for (const t of ['http', 'sse', 'ws'])
        expect(await refusedAt(h, t, 'persisted documents')).toBeGreaterThanOrEqual(1);
    });
  });

  describe('with a rate limit', () => {
    let h: LiveHarness;
    beforeAll(async () => {
      h = await startLive({ sandboxInstance: sandbox, config: { rateLimit: { max: 1, windowSeconds: 60 } } });
    });
    afterAll(() => h.close());

    it('refuses a client over its limit with the same error, counted at "rate limit", on every transport', async () => {
      // The upgrade is the one request allowed; the subscribe message is the first refused.
      const overWs = await refusal(ws(h.gateway.url, 'subscription { eventChanged { kind } }'));
      const http = await post(h, '{ site { name } }');
      const sseError = await overSse(h, 'subscription { eventChanged { kind } }');
      expect(http.status).toBe(429);
      expect(http.error.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 1, windowSeconds: 60 });
      // The same error, but for the seconds left, which may have ticked between the requests.
      const same = (e: Error_) => ({
        message: e.message.replace(/Retry in \d+ s/, 'Retry in N s'),
        extensions: { ...e.extensions, retryAfter: 'N' },
      });
      expect(same(overWs)).toEqual(same(http.error));
      expect(same(sseError)).toEqual(same(http.error));
      for (const t of ['http', 'sse', 'ws']) expect(await refusedAt(h, t, 'rate limit')).toBeGreaterThanOrEqual(1);
    });
  });
});
