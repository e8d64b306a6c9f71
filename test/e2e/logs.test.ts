/**
 * Structured logs (docs/production.md "Logs"): one JSON line per GraphQL operation, a line
 * per upstream attempt that failed on the site's side (5xx, HTML error pages,
 * malformed bodies, resets, timeouts) with the route template, and no secret
 * in any line. The gateway runs over real loopback HTTP with a logger whose
 * lines the test captures.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig } from '../../src/config.ts';
import { createLogger, withLogScope } from '../../src/log.ts';
import { authorizationSecrets, credentialSecrets } from '../../src/plugins/redaction.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { secretForms } from '../../src/redact.ts';
import { testSandbox } from '../helpers/sandbox.ts';
import { captureLog, type Captured } from '../helpers/logs.ts';

const EVENTS = '^/calendar/events/v1/events$';
const ROUTE = 'GET /calendar/events/v1/events';

describe('structured logs', () => {
  let sandbox: RunningSandbox;
  let gateway: Gateway;
  let log: Captured;
  let editorPassword: string;
  let adminAuth: string;

  const basic = (login: string) => {
    const u = sandbox.users.find((x) => x.login === login)!;
    return {
      password: u.appPassword,
      header: `Basic ${Buffer.from(`${u.login}:${u.appPassword}`).toString('base64')}`,
    };
  };

  async function gql(query: string, headers: Record<string, string> = {}) {
    const res = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query }),
    });
    return {
      status: res.status,
      body: (await res.json()) as { data?: any; errors?: any[] },
      reqId: res.headers.get('x-request-id'),
    };
  }

  /** The operation line of a request: written when its response closes, so polled for. */
  async function operationLine(reqId: string | null) {
    await expect
      .poll(() => log.lines().filter((l) => l.msg === 'graphql operation' && l.reqId === reqId).length)
      .toBe(1);
    return log.lines().find((l) => l.msg === 'graphql operation' && l.reqId === reqId)!;
  }

  const failures = (reqId: string | null) =>
    log.lines().filter((l) => l.msg === 'upstream request failed' && l.reqId === reqId);

  beforeAll(async () => {
    sandbox = await testSandbox();
    editorPassword = basic('editor').password;
    adminAuth = basic('admin').header;
    log = captureLog();
    const config = parseConfig({
      port: 0,
      // Callers without credentials act as the editor: the service credential must never be logged either.
      serviceAuth: `editor:${editorPassword}`,
      upstream: {
        connections: 8,
        connectTimeoutMs: 1000,
        headersTimeoutMs: 1000,
        bodyTimeoutMs: 1000,
        maxResponseBytes: 1024 * 1024,
        retries: 2,
      },
    });
    gateway = await startGateway(config, sandbox.url, { logger: log.logger });
  });
  afterAll(async () => {
    await gateway?.close();
    await sandbox?.close();
  });
  beforeEach(() => {
    sandbox.faults.clear();
    log.clear();
  });

  it('writes one line per operation: name, type, duration, upstream requests, errors, status, caller', async () => {
    const before = sandbox.log.entries.length;
    const r = await gql('query Upcoming { events(first: 2) { nodes { title } } }', { authorization: adminAuth });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const line = await operationLine(r.reqId);
    expect(line).toMatchObject({
      level: 30,
      operation: 'Upcoming',
      operationType: 'query',
      errors: [],
      status: 200,
      caller: 'authenticated',
      service: 'sitegraph',
    });
    expect(line.ms).toBeGreaterThan(0);
    expect(line.upstreamRequests).toBe(sandbox.log.entries.length - before);
    expect(line.upstreamRequests).toBeGreaterThanOrEqual(1);
    expect(typeof line.time).toBe('number');
    // A caller's plain request id is kept, so its lines can be found from the client's side.
    const mine = await gql('{ __typename }', { 'x-request-id': 'client-req-42' });
    expect(mine.reqId).toBe('client-req-42');
    expect(await operationLine('client-req-42')).toMatchObject({
      operation: null,
      operationType: 'query',
      upstreamRequests: 0,
      caller: 'service',
    });
    // One not fit for a log line is replaced.
    const odd = await gql('{ __typename }', { 'x-request-id': 'a b {"level":60}' });
    expect(odd.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives the GraphQL error codes, also inside a 200, and the HTTP status of refusals', async () => {
    sandbox.faults.add({
      path: EVENTS,
      status: 401,
      body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } },
    });
    const r = await gql('query Mine { events(first: 1) { nodes { title } } }');
    expect(r.status).toBe(200);
    expect(await operationLine(r.reqId)).toMatchObject({ operation: 'Mine', errors: ['UNAUTHENTICATED'], status: 200 });
    // 4xx answers are the caller's business: no upstream failure line.
    expect(failures(r.reqId)).toEqual([]);
    const bad = await gql('query Broken { nope }');
    expect(bad.status).toBe(400);
    expect(await operationLine(bad.reqId)).toMatchObject({
      operation: 'Broken',
      operationType: null,
      errors: ['GRAPHQL_VALIDATION_FAILED'],
      status: 400,
      upstreamRequests: 0,
    });
  });

  it('logs each failed upstream attempt with the route template: 503s retried, then the error', async () => {
    sandbox.faults.add({ path: EVENTS, status: 503 });
    const r = await gql('query Down { events(first: 2) { nodes { title } } }');
    expect(r.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
    const line = await operationLine(r.reqId);
    expect(line).toMatchObject({ errors: ['UPSTREAM_UNAVAILABLE'], upstreamRequests: 3 });
    const f = failures(r.reqId);
    expect(f.map((l) => [l.route, l.status, l.attempt, l.level])).toEqual([
      [ROUTE, 503, 1, 40],
      [ROUTE, 503, 2, 40],
      [ROUTE, 503, 3, 40],
    ]);
  });

  it('logs an HTML 500, a malformed JSON body, a reset and a timeout', async () => {
    // Each case asks for another page size: the upstream cache must not answer for the site.
    sandbox.faults.add({
      path: EVENTS,
      status: 500,
      body: '<html><body>There has been a critical error on this website.</body></html>',
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      times: 1,
    });
    let r = await gql('{ events(first: 3) { nodes { title } } }');
    await operationLine(r.reqId);
    expect(failures(r.reqId)).toEqual([
      expect.objectContaining({
        route: ROUTE,
        status: 500,
        code: 'UPSTREAM_ERROR',
        contentType: expect.stringContaining('text/html'),
      }),
    ]);

    sandbox.faults.add({ path: EVENTS, malformed: true, times: 1 });
    r = await gql('{ events(first: 4) { nodes { title } } }');
    await operationLine(r.reqId);
    expect(failures(r.reqId)).toEqual([
      expect.objectContaining({ route: ROUTE, status: 200, code: 'UPSTREAM_BAD_RESPONSE' }),
    ]);

    sandbox.faults.add({ path: EVENTS, reset: true, times: 1 });
    r = await gql('{ events(first: 5) { nodes { title } } }');
    await operationLine(r.reqId);
    expect(failures(r.reqId)).toEqual([
      expect.objectContaining({ route: ROUTE, status: null, code: 'UPSTREAM_UNAVAILABLE', attempt: 1 }),
    ]);
    // The retry answered: the operation itself succeeded.
    expect(r.body.errors).toBeUndefined();

    sandbox.faults.add({ path: EVENTS, delayMs: 3000, times: 1 });
    r = await gql('{ events(first: 6) { nodes { title } } }');
    await operationLine(r.reqId);
    expect(failures(r.reqId)).toEqual([
      expect.objectContaining({
        route: ROUTE,
        status: null,
        code: 'UPSTREAM_TIMEOUT',
        cause: expect.stringMatching(/TIMEOUT/),
      }),
    ]);
  }, 20_000);

  it('never writes a credential, even when the site echoes it in a failure', async () => {
    const admin = basic('admin');
    const secrets = [
      admin.header,
      admin.header.slice('Basic '.length),
      admin.password,
      editorPassword,
      Buffer.from(`editor:${editorPassword}`).toString('base64'),
    ];
    // A site echoing what it got, in an error page and in a WordPress error.
    // A site echoing what it got: the caller's credential to the caller's request (three attempts), then the service's.
    sandbox.faults.add({
      path: EVENTS,
      status: 502,
      body: { code: 'bad', message: `auth was ${admin.header} pass ${admin.password}`, data: { status: 502 } },
      times: 3,
    });
    sandbox.faults.add({
      path: EVENTS,
      status: 502,
      body: {
        code: 'bad',
        message: `editor ${editorPassword} / ${Buffer.from(`editor:${editorPassword}`).toString('base64')}`,
        data: { status: 502 },
      },
    });
    const authed = await gql('query Secret { events(first: 1) { nodes { title } } }', { authorization: admin.header });
    const anonymous = await gql('query Secret { events(first: 1) { nodes { title } } }');
    expect(authed.body.errors?.length).toBe(1);
    expect(anonymous.body.errors?.length).toBe(1);
    await operationLine(authed.reqId);
    await operationLine(anonymous.reqId);
    // The failures were logged with the site's message, secrets replaced.
    expect(failures(authed.reqId).map((l) => l.message)).toEqual(
      Array(3).fill('auth was Basic [REDACTED] pass [REDACTED]'),
    );
    expect(failures(anonymous.reqId).map((l) => l.message)).toEqual(Array(3).fill('editor [REDACTED] / [REDACTED]'));
    const text = log.text();
    expect(text.length).toBeGreaterThan(0);
    for (const s of secrets) expect(text).not.toContain(s);
    // The answers do not carry the credential they were sent with either (redaction plugin).
    for (const s of secrets.slice(0, 3)) expect(JSON.stringify(authed.body)).not.toContain(s);
    for (const s of secrets.slice(3)) expect(JSON.stringify(anonymous.body)).not.toContain(s);
  });

  it("redacts secrets by value in any line: configured, the current request's, and by key", () => {
    let raw = '';
    const logger = createLogger({
      level: 'info',
      format: 'json',
      destination: { write: (s: string) => void (raw += s) },
      secrets: credentialSecrets('svc-user:svc pass word'),
    });
    const caller = `Basic ${Buffer.from('alice:al1ce app pass').toString('base64')}`;
    logger.info({ detail: 'service password svc pass word in a message' }, 'outside a request');
    withLogScope({ reqId: 'r1', secrets: () => secretForms(authorizationSecrets(caller)) }, () => {
      logger.warn(
        {
          echoed: `the site said ${caller} and al1ce app pass`,
          nested: { headers: { authorization: 'Token anything' } },
        },
        'inside a request',
      );
    });
    // Outside the scope, the request's secrets are no longer known (and no line of it is written).
    const lines = raw
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([
      ['outside a request', undefined],
      ['inside a request', 'r1'],
    ]);
    expect(lines[0]!.detail).toBe('service password [REDACTED] in a message');
    expect(lines[1]!.echoed).toBe('the site said [REDACTED] and [REDACTED]');
    expect(lines[1]!.nested.headers.authorization).toBe('[REDACTED]');
    for (const s of [
      'svc pass word',
      caller,
      'al1ce app pass',
      'Token anything',
      Buffer.from('alice:al1ce app pass').toString('base64'),
    ])
      expect(raw).not.toContain(s);
  });

  it('reads LOG_LEVEL and LOG_FORMAT, and refuses bad values with a ConfigError', () => {
    expect(loadConfig({}).log).toEqual({ level: 'info', format: 'auto' });
    expect(loadConfig({ LOG_LEVEL: 'warn', LOG_FORMAT: 'json' }).log).toEqual({ level: 'warn', format: 'json' });
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
    // warn: operation lines are info, so none is written.
    let out = '';
    const quiet = createLogger({
      level: 'warn',
      format: 'json',
      destination: { write: (s: string) => void (out += s) },
    });
    quiet.info('an operation');
    quiet.warn('a failure');
    expect(
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).msg),
    ).toEqual(['a failure']);
    // pretty: text for a terminal, not JSON.
    let pretty = '';
    createLogger({
      level: 'info',
      format: 'pretty',
      destination: new Writable({ write: (chunk, _e, done) => void ((pretty += String(chunk)), done()) }),
    }).info({ operation: 'Upcoming' }, 'graphql operation');
    expect(pretty).toContain('graphql operation');
    expect(pretty).toContain('Upcoming');
    expect(() => JSON.parse(pretty)).toThrow();
  });
});
