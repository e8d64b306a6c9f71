import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  UpstreamClient,
  backoff,
  buildTarget,
  resolveUpstreamOptions,
  type UpstreamAttemptEvent,
  type UpstreamOptions,
} from '../../src/upstream/client.ts';
import { UPSTREAM_DEFAULTS } from '../../src/upstream/defaults.ts';
import { GatewayError, isGatewayError } from '../../src/errors.ts';
import {
  freePort,
  resetConnection,
  sendJson,
  startStubServer,
  type StubHandler,
  type StubServer,
} from '../helpers/stub-server.ts';

// Every test starts its own server and client; both are closed afterwards.
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(
  handler: StubHandler,
  options: Partial<UpstreamOptions> = {},
): Promise<{ server: StubServer; client: UpstreamClient }> {
  const server = await startStubServer(handler);
  const client = new UpstreamClient({ baseUrl: `${server.origin}/wp-json/`, retryBaseDelayMs: 5, ...options });
  cleanups.push(
    () => server.close(),
    () => client.close(),
  );
  return { server, client };
}

/** The GatewayError a promise rejects with (fails the test if it resolves or throws something else). */
async function failure(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (err) {
    if (isGatewayError(err)) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}

const GET = (path: string, extra: object = {}) => ({ method: 'GET' as const, path, route: `GET ${path}`, ...extra });

describe('options', () => {
  it('pins every default', () => {
    const o = resolveUpstreamOptions({ baseUrl: 'http://127.0.0.1:8080/wp-json/' });
    expect(o).toEqual({
      baseUrl: 'http://127.0.0.1:8080/wp-json/',
      connections: 16,
      keepAliveTimeoutMs: 10_000,
      connectTimeoutMs: 2_000,
      headersTimeoutMs: 10_000,
      bodyTimeoutMs: 10_000,
      maxResponseBytes: 20 * 1024 * 1024,
      retries: 2,
      retryBaseDelayMs: 100,
      maxRetryAfterMs: 2_000,
      serviceAuthorization: undefined,
      defaultHeaders: {},
      userAgent: 'sitegraph/0.1',
      onResponse: undefined,
    });
    expect(UPSTREAM_DEFAULTS.maxResponseBytes).toBe(20_971_520);
  });

  it('fails early on a bad base URL or option, saying what arrived', () => {
    expect(() => resolveUpstreamOptions({ baseUrl: 'site.test/wp-json' })).toThrow(
      /absolute http\(s\) URL; got "site.test\/wp-json"/,
    );
    expect(() => resolveUpstreamOptions({ baseUrl: 'ftp://site.test/' })).toThrow(/http or https/);
    expect(() => resolveUpstreamOptions({ baseUrl: 'http://x/', retries: -1 })).toThrow(
      /retries must be an integer >= 0; got -1/,
    );
    expect(() => resolveUpstreamOptions({ baseUrl: 'http://x/', connections: 1.5 })).toThrow(/connections/);
  });

  it('keeps the service credential out of the public options', () => {
    const client = new UpstreamClient({
      baseUrl: 'http://127.0.0.1:1/wp-json/',
      serviceAuthorization: 'Basic c2VjcmV0',
    });
    expect(JSON.stringify(client.options)).not.toContain('c2VjcmV0');
    expect(client.options.hasServiceAuthorization).toBe(true);
  });

  it('backs off exponentially with jitter inside [step/2, step]', () => {
    expect(backoff(1, 100, () => 0)).toBe(50);
    expect(backoff(1, 100, () => 1)).toBe(100);
    expect(backoff(3, 100, () => 0)).toBe(200);
    expect(backoff(3, 100, () => 1)).toBe(400);
  });
});

describe('URLs and query strings', () => {
  it('appends the REST path to a pretty root and encodes arrays PHP-style', () => {
    const t = buildTarget('http://site.test/wp-json/', {
      path: '/calendar/events/v1/events',
      query: {
        categories: [3, 'a b'],
        featured: true,
        hide: false,
        page: 2,
        skip: undefined,
        none: null,
        search: 'café & co',
        empty: [],
      },
    });
    expect(t.origin).toBe('http://site.test');
    expect(t.path).toBe(
      '/wp-json/calendar/events/v1/events?categories[]=3&categories[]=a%20b&featured=true&hide=false&page=2&search=caf%C3%A9%20%26%20co',
    );
  });

  it('appends the REST path to rest_route for a ?rest_route= root, keeping its other parameters', () => {
    expect(buildTarget('http://site.test/?rest_route=', { path: '/core/v2/posts', query: { per_page: 5 } }).path).toBe(
      '/?rest_route=/core/v2/posts&per_page=5',
    );
    expect(
      buildTarget('http://site.test/blog/index.php?lang=en&rest_route=/', { path: '/seo/v1/statistics' }).path,
    ).toBe('/blog/index.php?lang=en&rest_route=/seo/v1/statistics');
  });

  it('refuses a path that is not a REST path', () => {
    expect(() => buildTarget('http://site.test/wp-json/', { path: 'core/v2/posts' })).toThrow(
      /must be a REST path starting with "\/"/,
    );
    expect(() => buildTarget('http://site.test/wp-json/', { path: '/x?access_token=secret' })).toThrow(
      /put parameters in "query"/,
    );
    expect(() => buildTarget('http://site.test/wp-json/', { path: '/x?access_token=secret' })).not.toThrow(/secret/);
  });

  it('sends the PHP-style query on the wire', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, []));
    await client.session().request(GET('/calendar-core/v1/events', { query: { venue: [1, 2], featured: true } }));
    expect(server.requests[0]!.url).toBe('/wp-json/calendar-core/v1/events?venue[]=1&venue[]=2&featured=true');
    expect(new URL(server.requests[0]!.url, server.origin).searchParams.getAll('venue[]')).toEqual(['1', '2']);
  });

  it('works against a ?rest_route= site', async () => {
    const server = await startStubServer((req, res) =>
      sendJson(res, 200, { route: new URL(req.url!, 'http://x').searchParams.get('rest_route') }),
    );
    const client = new UpstreamClient({ baseUrl: `${server.origin}/?rest_route=/` });
    cleanups.push(
      () => server.close(),
      () => client.close(),
    );
    const res = await client.session().request(GET('/core/v2/posts/7'));
    expect(res.body).toEqual({ route: '/core/v2/posts/7' });
  });
});

describe('success answers', () => {
  it('returns parsed JSON with the status and lower-case headers', async () => {
    const { server, client } = await setup((_req, res) =>
      sendJson(res, 200, [{ id: 1 }, { id: 2 }], {
        'X-WP-Total': '2',
        'X-WP-TotalPages': '1',
        Link: '<http://x/wp-json/core/v2/posts?page=2>; rel="next"',
      }),
    );
    const res = await client.session().request<Array<{ id: number }>>(GET('/core/v2/posts'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: 1 }, { id: 2 }]);
    expect(res.headers['x-wp-total']).toBe('2');
    expect(res.headers['x-wp-totalpages']).toBe('1');
    expect(res.headers.link).toContain('rel="next"');
    expect(server.requests[0]!.headers['user-agent']).toBe('sitegraph/0.1');
    expect(server.requests[0]!.headers.accept).toBe('application/json');
  });

  it('sends a JSON body and returns 201', async () => {
    const { server, client } = await setup((_req, res, { body }) => sendJson(res, 201, { created: JSON.parse(body) }));
    const res = await client.session('Basic YTpi').request({
      method: 'POST',
      path: '/calendar/events/v1/events',
      route: 'POST /calendar/events/v1/events',
      body: { title: 'Gala', venue: 4 },
    });
    expect(res).toMatchObject({ status: 201, body: { created: { title: 'Gala', venue: 4 } } });
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('returns null for 204 and text for non-JSON bodies, and strips a BOM before JSON', async () => {
    const { client } = await setup((req, res) => {
      if (req.url!.endsWith('/none')) return void res.writeHead(204).end();
      if (req.url!.endsWith('/html'))
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>embed</p>');
      res.writeHead(200, { 'content-type': 'application/json' }).end('\ufeff{"ok":true}');
    });
    const s = client.session();
    expect((await s.request(GET('/none'))).body).toBeNull();
    expect((await s.request(GET('/html'))).body).toBe('<!doctype html><p>embed</p>');
    expect((await s.request(GET('/bom'))).body).toEqual({ ok: true });
  });

  it('reads raw UTF-8 in JSON exactly as a plain UTF-8 decode would, invalid bytes and all', async () => {
    const value = {
      title: 'Café Zürich — 東京 🎉',
      list: ['ñ', 'a\u2028b', '\u0000x'],
      plain: 'ascii "quoted" \\ back',
    };
    const bodies: Record<string, Buffer> = {
      raw: Buffer.from(JSON.stringify(value)),
      // WordPress's own form: everything non-ASCII escaped.
      escaped: Buffer.from(
        JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
      ),
      bom: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(value))]),
      // A lone continuation byte, a truncated sequence before a quote, an overlong form.
      invalid: Buffer.concat([
        Buffer.from('{"a":"x'),
        Buffer.from([0x80]),
        Buffer.from('y","b":"'),
        Buffer.from([0xe6, 0x9d]),
        Buffer.from('","c":"'),
        Buffer.from([0xc0, 0xaf]),
        Buffer.from('"}'),
      ]),
    };
    const { client } = await setup(
      (req, res) =>
        void res
          .writeHead(200, { 'content-type': 'application/json; charset=UTF-8' })
          .end(bodies[req.url!.split('/').pop()!]),
    );
    const s = client.session();
    for (const name of ['raw', 'escaped', 'bom']) expect((await s.request(GET(`/${name}`))).body).toEqual(value);
    expect((await s.request(GET('/invalid'))).body).toEqual(JSON.parse(bodies.invalid!.toString('utf8')));
  });

  it('keeps non-ASCII text of bodies that are not JSON, and refuses raw UTF-8 outside a JSON string', async () => {
    const { client } = await setup((req, res) => {
      if (req.url!.endsWith('/html'))
        return void res
          .writeHead(200, { 'content-type': 'text/html; charset=UTF-8' })
          .end('<p>Wartungsmodus — bald zurück</p>');
      // U+00A0 is not JSON whitespace: the body is malformed whichever way it is read.
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":\u00a01}');
    });
    const s = client.session();
    expect((await s.request(GET('/html'))).body).toBe('<p>Wartungsmodus — bald zurück</p>');
    expect((await failure(s.request(GET('/nbsp')))).code).toBe('UPSTREAM_BAD_RESPONSE');
  });

  it('returns statuses accepted by okStatuses as data (a 207 batch, a 404 probe)', async () => {
    const { client } = await setup((req, res) =>
      req.url!.includes('batch')
        ? sendJson(res, 207, { responses: [{ status: 400 }] })
        : sendJson(res, 404, { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } }),
    );
    const s = client.session();
    const batch = await s.request({
      method: 'POST',
      path: '/batch/v1',
      route: 'POST /batch/v1',
      body: { requests: [] },
      okStatuses: (st) => st === 207 || (st >= 200 && st < 300),
    });
    expect(batch).toMatchObject({ status: 207, body: { responses: [{ status: 400 }] } });
    const probe = await s.request(GET('/core/v2/posts/9', { okStatuses: (st: number) => st === 200 || st === 404 }));
    expect(probe).toMatchObject({ status: 404, body: { code: 'rest_post_invalid_id' } });
  });

  it('throws the mapped error for a non-OK status', async () => {
    const { client } = await setup((_req, res) =>
      sendJson(res, 400, {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): per_page',
        data: { status: 400, params: { per_page: 'bad' } },
      }),
    );
    const e = await failure(client.session().request(GET('/core/v2/posts', { route: 'GET /core/v2/posts' })));
    expect(e.code).toBe('BAD_USER_INPUT');
    expect(e.extensions).toMatchObject({
      upstream: { code: 'rest_invalid_param', status: 400, route: 'GET /core/v2/posts' },
      params: { per_page: 'bad' },
    });
  });
});

describe('authorization', () => {
  const echoAuth: StubHandler = (req, res) => sendJson(res, 200, { auth: req.headers.authorization ?? null });

  it("passes the caller's Authorization through unchanged, even over the service credential", async () => {
    const { client } = await setup(echoAuth, { serviceAuthorization: 'Basic c2VydmljZTpwdw==' });
    const s = client.session('Basic YWRtaW46YWJjZCBlZmdo');
    expect(s.authenticated).toBe(true);
    expect((await s.request(GET('/x', { headers: { Authorization: 'Basic forged' } }))).body).toEqual({
      auth: 'Basic YWRtaW46YWJjZCBlZmdo',
    });
  });

  it('uses the service credential for callers without one', async () => {
    const { client } = await setup(echoAuth, { serviceAuthorization: 'Basic c2VydmljZTpwdw==' });
    for (const s of [client.session(), client.session(null), client.session('')]) {
      expect(s.authenticated).toBe(true);
      expect((await s.request(GET('/x'))).body).toEqual({ auth: 'Basic c2VydmljZTpwdw==' });
    }
  });

  it('sends no Authorization when there is neither', async () => {
    const { client } = await setup(echoAuth);
    const s = client.session(null);
    expect(s.authenticated).toBe(false);
    expect((await s.request(GET('/x'))).body).toEqual({ auth: null });
  });

  it('sends default and per-request headers', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, {}), {
      defaultHeaders: { 'X-TEC-EEA': 'ack' },
      userAgent: 'test-ua',
    });
    await client.session().request(GET('/x', { headers: { eva_app_name: 'zap' } }));
    expect(server.requests[0]!.headers).toMatchObject({
      'x-tec-eea': 'ack',
      eva_app_name: 'zap',
      'user-agent': 'test-ua',
    });
  });
});

describe('retries', () => {
  it('retries a GET after 503 and succeeds, one attempt per hook call', async () => {
    const events: UpstreamAttemptEvent[] = [];
    const { server, client } = await setup(
      (_req, res, { index }) =>
        index < 2 ? sendJson(res, 503, { code: 'down', message: 'Down.' }) : sendJson(res, 200, { ok: true }),
      { onResponse: (e) => events.push(e) },
    );
    const res = await client.session().request(GET('/core/v2/posts', { query: { access_token: 'T0K' } }));
    expect(res.body).toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
    expect(events.map((e) => [e.attempt, e.status, e.error])).toEqual([
      [1, 503, 'UPSTREAM_UNAVAILABLE'],
      [2, 503, 'UPSTREAM_UNAVAILABLE'],
      [3, 200, undefined],
    ]);
    expect(events[0]).toMatchObject({ method: 'GET', path: '/core/v2/posts', route: 'GET /core/v2/posts' });
    expect(events.every((e) => e.ms >= 0)).toBe(true);
    expect(JSON.stringify(events)).not.toContain('T0K');
  });

  it('gives up after `retries` extra attempts with UPSTREAM_UNAVAILABLE', async () => {
    const { server, client } = await setup(
      (_req, res) => sendJson(res, 502, { code: 'bad_gateway', message: 'Bad gateway.' }),
      { retries: 3 },
    );
    const e = await failure(client.session().request(GET('/x')));
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.extensions.upstream).toEqual({ code: 'bad_gateway', status: 502, route: 'GET /x' });
    expect(server.requests).toHaveLength(4);
  });

  it('retries 504 and 429 but not 500 or 404', async () => {
    const statuses: Record<string, number> = { '/a': 504, '/b': 429, '/c': 500, '/d': 404 };
    const { server, client } = await setup(
      (req, res) => sendJson(res, statuses[req.url!.replace('/wp-json', '')]!, {}),
      { retries: 1 },
    );
    const s = client.session();
    expect((await failure(s.request(GET('/a')))).code).toBe('UPSTREAM_TIMEOUT');
    expect((await failure(s.request(GET('/b')))).code).toBe('UPSTREAM_UNAVAILABLE');
    expect((await failure(s.request(GET('/c')))).code).toBe('UPSTREAM_ERROR');
    expect((await failure(s.request(GET('/d')))).code).toBe('NOT_FOUND');
    expect(server.requests.map((r) => r.url.replace('/wp-json', ''))).toEqual(['/a', '/a', '/b', '/b', '/c', '/d']);
  });

  it('waits for Retry-After before retrying', async () => {
    const { server, client } = await setup((_req, res, { index }) =>
      index === 0
        ? sendJson(res, 429, { code: 'rate_limited', message: 'Slow down.' }, { 'Retry-After': '1' })
        : sendJson(res, 200, { ok: true }),
    );
    const t0 = performance.now();
    await client.session().request(GET('/x'));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('fails at once, with retryAfter, when Retry-After is longer than maxRetryAfterMs', async () => {
    const { server, client } = await setup((_req, res) =>
      sendJson(
        res,
        503,
        { code: 'maintenance', message: 'Briefly unavailable for scheduled maintenance.' },
        { 'Retry-After': '120' },
      ),
    );
    const t0 = performance.now();
    const e = await failure(client.session().request(GET('/x')));
    expect(performance.now() - t0).toBeLessThan(500);
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.extensions.retryAfter).toBe(120);
    expect(server.requests).toHaveLength(1);
  });

  it('never retries a POST on 503', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 503, { code: 'down', message: 'Down.' }));
    const e = await failure(
      client.session().request({ method: 'POST', path: '/batch/v1', route: 'POST /batch/v1', body: { requests: [] } }),
    );
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(server.requests).toHaveLength(1);
  });

  it('never retries a POST whose connection was reset', async () => {
    const { server, client } = await setup((req) => resetConnection(req));
    const e = await failure(
      client.session().request({
        method: 'POST',
        path: '/calendar/events/v1/events',
        route: 'POST /calendar/events/v1/events',
        body: { title: 't' },
      }),
    );
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry once the caller has aborted', async () => {
    const { server, client } = await setup(() => {
      /* never answers */
    });
    const e = await failure(client.session().request(GET('/x', { signal: AbortSignal.timeout(100) })));
    expect(e.code).toBe('UPSTREAM_TIMEOUT');
    expect(server.requests).toHaveLength(1);
  });
});

describe('transport failures', () => {
  it('maps a connection reset to UPSTREAM_UNAVAILABLE after retrying the GET', async () => {
    const events: UpstreamAttemptEvent[] = [];
    const { server, client } = await setup((req) => resetConnection(req), { onResponse: (e) => events.push(e) });
    const e = await failure(client.session().request(GET('/x')));
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.extensions.upstream).toMatchObject({ status: null, route: 'GET /x' });
    expect(server.requests).toHaveLength(3);
    expect(events.map((x) => [x.attempt, x.status, x.error])).toEqual([
      [1, null, 'UPSTREAM_UNAVAILABLE'],
      [2, null, 'UPSTREAM_UNAVAILABLE'],
      [3, null, 'UPSTREAM_UNAVAILABLE'],
    ]);
  });

  it('recovers when only the first connection is reset', async () => {
    const { server, client } = await setup((req, res, { index }) =>
      index === 0 ? resetConnection(req) : sendJson(res, 200, { ok: 1 }),
    );
    expect((await client.session().request(GET('/x'))).body).toEqual({ ok: 1 });
    expect(server.requests).toHaveLength(2);
  });

  it('maps a refused port to UPSTREAM_UNAVAILABLE', async () => {
    const port = await freePort();
    const client = new UpstreamClient({
      baseUrl: `http://127.0.0.1:${port}/wp-json/`,
      retries: 1,
      retryBaseDelayMs: 1,
    });
    cleanups.push(() => client.close());
    const e = await failure(client.session().request(GET('/x')));
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.extensions.upstream).toEqual({ code: 'ECONNREFUSED', status: null, route: 'GET /x' });
    expect(e.message).not.toContain(String(port));
  });

  it('maps response headers stalled beyond headersTimeoutMs to UPSTREAM_TIMEOUT', async () => {
    const { server, client } = await setup(
      () => {
        /* never answers */
      },
      { headersTimeoutMs: 150, retries: 1 },
    );
    const t0 = performance.now();
    const e = await failure(client.session().request(GET('/slow')));
    const ms = performance.now() - t0;
    expect(e.code).toBe('UPSTREAM_TIMEOUT');
    expect(e.extensions.upstream?.code).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(server.requests).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(280);
    expect(ms).toBeLessThan(3_000);
  });

  it('maps a body stalled beyond bodyTimeoutMs to UPSTREAM_TIMEOUT', async () => {
    const { client } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[{"id":1},');
      },
      { bodyTimeoutMs: 150, retries: 0 },
    );
    const e = await failure(client.session().request(GET('/slow-body')));
    expect(e.code).toBe('UPSTREAM_TIMEOUT');
    expect(e.extensions.upstream?.code).toBe('UND_ERR_BODY_TIMEOUT');
  });

  it('does not time out a slow body whose chunks keep arriving within bodyTimeoutMs', async () => {
    const { client } = await setup(
      async (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (const part of ['[1', ',2', ',3', ']']) {
          res.write(part);
          await new Promise((r) => setTimeout(r, 60));
        }
        res.end();
      },
      { bodyTimeoutMs: 150, retries: 0 },
    );
    expect((await client.session().request(GET('/drip'))).body).toEqual([1, 2, 3]);
  });

  it('maps truncated JSON to UPSTREAM_BAD_RESPONSE without retrying', async () => {
    const { server, client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end('{"id":12,"title":{"rendered":"Ga');
    });
    const e = await failure(client.session().request(GET('/calendar-core/v1/events/12')));
    expect(e.code).toBe('UPSTREAM_BAD_RESPONSE');
    expect(e.extensions.upstream).toEqual({
      code: 'UPSTREAM_MALFORMED_JSON',
      status: 200,
      route: 'GET /calendar-core/v1/events/12',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('maps malformed JSON (PHP notice before the body) to UPSTREAM_BAD_RESPONSE', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<br />\n<b>Warning</b>: Undefined index in functions.php<br />\n{"id":1}');
    });
    expect((await failure(client.session().request(GET('/x')))).code).toBe('UPSTREAM_BAD_RESPONSE');
  });

  it('treats a body cut off before its Content-Length as a lost connection (retried, then UPSTREAM_UNAVAILABLE)', async () => {
    const { server, client } = await setup(
      (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"id":1,');
        setTimeout(() => req.socket.destroy(), 10);
      },
      { retries: 1 },
    );
    const e = await failure(client.session().request(GET('/x')));
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(server.requests).toHaveLength(2);
  });

  it('keeps the status of an error answer whose body is an HTML page', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html; charset=UTF-8' });
      res.end('<html><body><p>There has been a critical error on this website.</p></body></html>');
    });
    const e = await failure(client.session().request(GET('/x')));
    expect([e.code, e.message, e.extensions.upstream?.status]).toEqual([
      'UPSTREAM_ERROR',
      'HTTP 500 from upstream',
      500,
    ]);
  });

  it('refuses a body larger than maxResponseBytes as it streams, aborting the connection', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'a');
    let written = 0;
    const { server, client } = await setup(
      async (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('["');
        // Stream up to 4 MiB without Content-Length; the cap is 64 KiB.
        for (let i = 0; i < 256 && !res.destroyed; i++) {
          if (!res.write(chunk)) await new Promise((r) => setTimeout(r, 5));
          written += chunk.length;
        }
        res.end('"]');
      },
      { maxResponseBytes: 64 * 1024 },
    );
    const e = await failure(client.session().request(GET('/big')));
    expect(e.code).toBe('UPSTREAM_BAD_RESPONSE');
    expect(e.extensions.upstream?.code).toBe('UPSTREAM_RESPONSE_TOO_LARGE');
    expect(server.requests).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(server.aborted()).toBe(1);
    expect(written).toBeLessThan(4 * 1024 * 1024);
  });

  it('refuses a body whose Content-Length is over the cap before reading it', async () => {
    const { client } = await setup(
      (_req, res) => {
        const text = JSON.stringify({ data: 'x'.repeat(2048) });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      },
      { maxResponseBytes: 1024 },
    );
    const e = await failure(client.session().request(GET('/big')));
    expect(e.code).toBe('UPSTREAM_BAD_RESPONSE');
  });

  it('fails with UPSTREAM_UNAVAILABLE after close()', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 200, {}));
    await client.close();
    expect((await failure(client.session().request(GET('/x')))).code).toBe('UPSTREAM_UNAVAILABLE');
  });
});

describe('compressed answers', () => {
  const page = {
    events: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Event ${i}`, description: 'x'.repeat(100) })),
  };
  const text = JSON.stringify(page);
  const encoders: Record<string, (b: Buffer) => Buffer> = {
    gzip: gzipSync,
    br: brotliCompressSync,
    deflate: deflateSync,
  };

  it('asks for gzip and brotli, and undoes whichever the site sends, leaving no coding in the headers', async () => {
    const { server, client } = await setup((req, res) => {
      const coding = req.url!.split('/').pop()!;
      const body = encoders[coding]!(Buffer.from(text));
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': coding,
        'content-length': body.length,
      });
      res.end(body);
    });
    for (const coding of ['gzip', 'br', 'deflate']) {
      const r = await client.session().request(GET(`/x/${coding}`));
      expect(r.body, coding).toEqual(page);
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(r.headers['content-length']).toBeUndefined();
    }
    expect(server.requests[0]!.headers['accept-encoding']).toBe('gzip, br');
  });

  it('reads an error answer that is compressed', async () => {
    const { client } = await setup((_req, res) => {
      const body = gzipSync(
        JSON.stringify({ code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } }),
      );
      res.writeHead(404, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(body);
    });
    const e = await failure(client.session().request(GET('/missing')));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.extensions.upstream?.code).toBe('rest_post_invalid_id');
  });

  it('applies the size cap to the decoded bytes: a zip bomb stops at the cap, never inflated whole', async () => {
    // 64 MiB of one character is ~64 KiB of gzip: well under the cap on the wire, far over it decoded.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(256 * 1024);
    const { server, client } = await setup(
      (_req, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': bomb.length,
        });
        res.end(bomb);
      },
      { maxResponseBytes: 1024 * 1024 },
    );
    const before = process.memoryUsage().arrayBuffers;
    const e = await failure(client.session().request(GET('/bomb')));
    expect(e.code).toBe('UPSTREAM_BAD_RESPONSE');
    expect(e.extensions.upstream?.code).toBe('UPSTREAM_RESPONSE_TOO_LARGE');
    expect(server.requests).toHaveLength(1);
    // Not the 64 MiB it would have inflated to.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
  });

  it('cuts a small bomb (undone in one synchronous call) at the cap too, in every coding', async () => {
    // 8 MiB of one character is a few KiB compressed: the bodies undone without the thread pool.
    const raw = Buffer.alloc(8 * 1024 * 1024, 0x20);
    const { client } = await setup(
      (req, res) => {
        const coding = req.url!.split('/').pop()!;
        const body = encoders[coding]!(raw);
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': coding,
          'content-length': body.length,
        });
        res.end(body);
      },
      { maxResponseBytes: 1024 * 1024 },
    );
    for (const coding of ['gzip', 'br', 'deflate']) {
      expect(encoders[coding]!(raw).length, coding).toBeLessThan(64 * 1024);
      const e = await failure(client.session().request(GET(`/small-bomb/${coding}`)));
      expect(e.extensions.upstream?.code, coding).toBe('UPSTREAM_RESPONSE_TOO_LARGE');
    }
  });

  it('undoes a body compressed twice (gzip, then br), last coding first', async () => {
    const { client } = await setup((_req, res) => {
      const body = brotliCompressSync(gzipSync(Buffer.from(text)));
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip, br',
        'content-length': body.length,
      });
      res.end(body);
    });
    expect((await client.session().request(GET('/twice'))).body).toEqual(page);
  });

  it('reads a truncated compressed body as UPSTREAM_BAD_ENCODING', async () => {
    const { client } = await setup((_req, res) => {
      const body = gzipSync(Buffer.from(text)).subarray(0, 200);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': body.length,
      });
      res.end(body);
    });
    const e = await failure(client.session().request(GET('/truncated')));
    expect(e.extensions.upstream?.code).toBe('UPSTREAM_BAD_ENCODING');
  });

  it('refuses a corrupt or unknown coding as UPSTREAM_BAD_RESPONSE, without retrying', async () => {
    const { server, client } = await setup((req, res) => {
      const unknown = req.url!.endsWith('/zstd');
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': unknown ? 'zstd' : 'gzip' });
      res.end(unknown ? 'whatever' : 'this is not gzip');
    });
    for (const path of ['/corrupt', '/zstd']) {
      const e = await failure(client.session().request(GET(path)));
      expect(e.code, path).toBe('UPSTREAM_BAD_RESPONSE');
      expect(e.extensions.upstream?.code, path).toBe('UPSTREAM_BAD_ENCODING');
    }
    expect(server.requests).toHaveLength(2);
  });
});

describe('connections', () => {
  it('reuses one keep-alive connection for sequential requests, across sessions', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 200, { ok: true }));
    for (let i = 0; i < 10; i++) {
      await client.session(i % 2 ? 'Basic YTpi' : null).request(GET(`/core/v2/posts/${i}`));
    }
    expect(server.requests).toHaveLength(10);
    // Without keep-alive this would be 10. undici's Pool may open a second socket
    // once: a request sent in the same tick the previous one completes finds the
    // first client not yet drained. Beyond that, sockets are reused.
    expect(server.connections()).toBeLessThanOrEqual(2);
    for (let i = 0; i < 10; i++) await client.session().request(GET('/again'));
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('opens up to `connections` sockets for parallel requests', async () => {
    const { server, client } = await setup(
      async (_req, res) => {
        await new Promise((r) => setTimeout(r, 50));
        sendJson(res, 200, {});
      },
      { connections: 3 },
    );
    const s = client.session();
    await Promise.all(Array.from({ length: 9 }, (_, i) => s.request(GET(`/p/${i}`))));
    expect(server.connections()).toBe(3);
  });

  it('keeps working when the onResponse hook throws', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 200, { ok: true }), {
      onResponse: () => {
        throw new Error('metrics down');
      },
    });
    expect((await client.session().request(GET('/x'))).body).toEqual({ ok: true });
  });
});

describe('requests marked not idempotent', () => {
  it('are not retried even when they are GETs', async () => {
    let hits = 0;
    const stub = await startStubServer((_req, res) => {
      hits += 1;
      sendJson(res, 503, { code: 'busy', message: 'busy', data: { status: 503 } });
    });
    const client = new UpstreamClient({ baseUrl: `${stub.origin}/wp-json/`, retries: 2, retryBaseDelayMs: 1 });
    try {
      await expect(
        client.session().request({ method: 'GET', path: '/q', route: 'GET /q', idempotent: false }),
      ).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      expect(hits).toBe(1);
      await expect(client.session().request({ method: 'GET', path: '/q', route: 'GET /q' })).rejects.toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
      });
      expect(hits).toBe(4);
    } finally {
      await client.close();
      await stub.close();
    }
  });
});
