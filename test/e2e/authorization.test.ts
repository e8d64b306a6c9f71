/**
 * The caller's Authorization header (src/authorization.ts): a header the site
 * could not read is refused with UNAUTHENTICATED (401) before anything is
 * sent, instead of being served as anonymous without a word; an empty one is
 * no header; AUTH_SCHEMES lets another scheme through for a site whose plugins
 * read it. Over plain requests, GraphQL over SSE and graphql-ws.
 */
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const DRAFTS = '{ posts(first: 5, where: { status: [DRAFT] }) { nodes { databaseId status } } }';
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function post(h: Harness, authorization: string) {
  const res = await fetch(h.gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ query: '{ events(first: 1) { nodes { title } } }' }),
  });
  return {
    status: res.status,
    www: res.headers.get('www-authenticate'),
    body: (await res.json()) as { data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[] },
  };
}

describe('the Authorization header', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(() => h?.close());
  beforeEach(() => h.mark());

  const refused: [string, (h: Harness) => string, RegExp, string | null][] = [
    [
      'a Bearer token',
      () => 'Bearer abc.def.ghi',
      /scheme "Bearer" would reach it as no credential at all.*AUTH_SCHEMES=Basic,Bearer/,
      'Bearer',
    ],
    [
      'a Basic credential without the word Basic',
      (h) => h.auth('admin').slice('Basic '.length),
      /not "<scheme> <credentials>"/,
      null,
    ],
    [
      'Basic with text that is not base64',
      () => 'Basic admin:secret',
      /not the base64 of login:application-password/,
      'Basic',
    ],
    [
      'Basic with base64 of no login:password pair',
      () => `Basic ${b64('justapassword')}`,
      /not the base64 of login:application-password/,
      'Basic',
    ],
    ['an unknown scheme', () => 'Token 12345', /scheme "Token"/, 'Token'],
  ];
  for (const [name, header, message, scheme] of refused) {
    it(`refuses ${name} with UNAUTHENTICATED (401), sending nothing to the site`, async () => {
      const value = header(h);
      const r = await post(h, value);
      expect(r.status).toBe(401);
      expect(r.www).toMatch(/^Basic realm="sitegraph"/);
      expect(r.body.data).toBeUndefined();
      expect(r.body.errors).toHaveLength(1);
      expect(r.body.errors![0]!.extensions).toEqual({ code: 'UNAUTHENTICATED', scheme });
      expect(r.body.errors![0]!.message).toMatch(message);
      // The credential itself is never echoed.
      expect(r.body.errors![0]!.message).not.toContain(value.split(' ').pop()!);
      expect(h.calls()).toEqual([]);
    });
  }

  it('takes an empty header for none: answered as without one (anonymous callers may not list drafts)', async () => {
    const none = await h.gql(DRAFTS);
    const empty = await h.gql(DRAFTS, {}, null, { authorization: '  ' });
    expect(empty.status).toBe(200);
    expect(empty).toEqual(none);
    expect(empty.errors?.[0]?.extensions?.upstream?.code).toBe('rest_invalid_param');
  });

  it('passes a well-formed Basic credential on (the scheme word in any case)', async () => {
    const admin = h.auth('admin');
    for (const value of [admin, admin.replace('Basic', 'basic')]) {
      const r = await h.gql(DRAFTS, {}, null, { authorization: value });
      expect(r.status).toBe(200);
      expect(r.errors).toBeUndefined();
      expect(r.data.posts.nodes.length).toBeGreaterThan(0);
    }
  });

  it('refuses a subscription over SSE with the same answer', async () => {
    const res = await fetch(h.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'Bearer x' },
      body: JSON.stringify({ query: 'subscription { eventChanged { kind } }' }),
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
    // graphql-sse's client reports the refusal rather than waiting.
    const client = createSseClient({ url: h.gateway.url, headers: { authorization: 'Bearer x' }, retryAttempts: 0 });
    const it = client.iterate({ query: 'subscription { eventChanged { kind } }' });
    await expect(it.next()).rejects.toBeTruthy();
    client.dispose();
  });

  it('refuses each subscription of a graphql-ws connection whose connection_init carries an unreadable credential', async () => {
    const client = createWsClient({
      url: h.gateway.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: 'Bearer x' },
      retryAttempts: 0,
    });
    try {
      const errors = await new Promise<unknown>((resolve) => {
        client.subscribe(
          { query: 'subscription { eventChanged { kind } }' },
          { next: () => {}, error: resolve, complete: () => resolve(null) },
        );
      });
      expect(Array.isArray(errors)).toBe(true);
      expect((errors as { extensions: { code: string } }[])[0]!.extensions.code).toBe('UNAUTHENTICATED');
    } finally {
      await client.dispose();
    }
  });
});

describe('AUTH_SCHEMES', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { authSchemes: ['Basic', 'Bearer'] } });
  }, 60_000);
  afterAll(() => h?.close());

  it('passes a named scheme on to the site, and still refuses the others', async () => {
    h.mark();
    const bearer = await post(h, 'Bearer abc.def.ghi');
    expect(bearer.status).toBe(200);
    expect(bearer.body.errors).toBeUndefined();
    expect(h.calls().length).toBeGreaterThan(0);
    const token = await post(h, 'Token 12345');
    expect(token.status).toBe(401);
  });
});
