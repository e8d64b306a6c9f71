/**
 * Upstream failures of every shape the reference lists become GraphQL errors
 * with a stable `extensions.code` and `extensions.upstream {code, status,
 * route}`; the failing field is null and the rest of the query still returns.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

// Event lists go through the legacy interface when the site has it.
const EVENTS = '^/calendar/events/v1/events$';
const QUERY = `{ events(first: 2) { nodes { title } } site { name } }`;

describe('upstream errors in the graph', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: {
        upstream: {
          connections: 8,
          connectTimeoutMs: 1000,
          headersTimeoutMs: 1000,
          bodyTimeoutMs: 1000,
          maxResponseBytes: 1024 * 1024,
          retries: 2,
        },
      },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.sandbox.faults.clear();
    h.mark();
  });

  async function failWith(fault: Record<string, unknown>) {
    h.sandbox.faults.add({ path: EVENTS, ...fault });
    const r = await h.gql(QUERY);
    expect(r.data.site.name).toBe('Sitegraph Sandbox');
    expect(r.data.events).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors![0]!.path).toEqual(['events']);
    return r.errors![0]!;
  }

  it('maps a WordPress error with params and details to BAD_USER_INPUT', async () => {
    const body = {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page',
      data: {
        status: 400,
        params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' },
        details: { per_page: { code: 'rest_out_of_bounds', message: 'x', data: null } },
      },
    };
    const e = await failWith({ status: 400, body });
    expect(e.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      upstream: { code: 'rest_invalid_param', status: 400, route: 'GET /calendar/events/v1/events' },
      params: { per_page: expect.any(String) },
    });
    expect(e.message).toBe('Invalid parameter(s): per_page');
  });

  it('maps 401 rest_forbidden to UNAUTHENTICATED and 403 to FORBIDDEN', async () => {
    let e = await failWith({
      status: 401,
      body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } },
      times: 1,
    });
    expect(e.extensions).toMatchObject({ code: 'UNAUTHENTICATED', upstream: { code: 'rest_forbidden', status: 401 } });
    h.sandbox.faults.clear();
    e = await failWith({
      status: 403,
      body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } },
      times: 1,
    });
    expect(e.extensions!.code).toBe('FORBIDDEN');
  });

  it("maps calendar-core's {error} bodies and its data-less page error", async () => {
    let e = await failWith({ status: 404, body: { error: 'The entity could not be read.' }, times: 1 });
    expect(e.extensions).toMatchObject({ code: 'NOT_FOUND', upstream: { status: 404 } });
    expect(e.message).toBe('The entity could not be read.');
    h.sandbox.faults.clear();
    e = await failWith({ status: 410, body: { error: 'The entity has already been trashed.' }, times: 1 });
    expect(e.extensions!.code).toBe('GONE');
    h.sandbox.faults.clear();
    e = await failWith({
      status: 404,
      body: { code: 'tec_rest_organizers_page_not_found', message: 'The requested page was not found.' },
      times: 1,
    });
    expect(e.extensions).toMatchObject({ code: 'NOT_FOUND', upstream: { code: 'tec_rest_organizers_page_not_found' } });
  });

  it('maps a serialised WP_Error (automation connectors)', async () => {
    const e = await failWith({
      status: 400,
      body: {
        errors: { integration_consumer_secret_no_match: ['Consumer Secret does not match.'] },
        error_data: { integration_consumer_secret_no_match: { status: 400 } },
      },
    });
    expect(e.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      upstream: { code: 'integration_consumer_secret_no_match' },
    });
    expect(e.message).toBe('Consumer Secret does not match.');
  });

  it('maps an HTML 500 page to UPSTREAM_ERROR without leaking it', async () => {
    const e = await failWith({
      status: 500,
      body: '<html><body>There has been a critical error on this website.</body></html>',
    });
    expect(e.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: { status: 500 } });
  });

  it('retries a 503 read twice, then reports UPSTREAM_UNAVAILABLE', async () => {
    const e = await failWith({ status: 503 });
    expect(e.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstream: { status: 503 } });
    expect(h.calls().filter((c) => c.path === '/calendar/events/v1/events')).toHaveLength(3);
  });

  it('recovers when a retry succeeds', async () => {
    h.sandbox.faults.add({ path: EVENTS, status: 503, times: 1 });
    const r = await h.gql(QUERY);
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes).toHaveLength(2);
  });

  it('reports a reset connection as UPSTREAM_UNAVAILABLE', async () => {
    const e = await failWith({ reset: true });
    expect(e.extensions!.code).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('reports malformed JSON as UPSTREAM_BAD_RESPONSE', async () => {
    const e = await failWith({ malformed: true });
    expect(e.extensions!.code).toBe('UPSTREAM_BAD_RESPONSE');
  });

  it('reports a JSON body of the wrong shape as UPSTREAM_BAD_RESPONSE', async () => {
    const e = await failWith({
      status: 200,
      body: { events: [{ id: 'not-a-number', title: 'x' }], total: 1, total_pages: 1 },
    });
    expect(e.extensions!.code).toBe('UPSTREAM_BAD_RESPONSE');
    expect(e.message).toMatch(/unexpected body/);
  });

  it('reports a stalled body as UPSTREAM_TIMEOUT', async () => {
    const e = await failWith({ slowBodyMs: 4000 });
    expect(e.extensions!.code).toBe('UPSTREAM_TIMEOUT');
  }, 30_000);

  it('passes the caller credentials through: a wrong password is UNAUTHENTICATED', async () => {
    const r = await h.gql(`{ events(first: 1) { nodes { title } } }`, undefined, null, {
      authorization: `Basic ${Buffer.from('admin:wrong-password').toString('base64')}`,
    });
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      upstream: { code: 'incorrect_password', status: 401 },
    });
  });

  it('rejects bad arguments before any upstream call', async () => {
    const r = await h.gql(`{ events(first: 2, where: { startDate: "next tuesday" }) { nodes { title } } }`);
    expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(r.errors![0]!.message).toMatch(/DateTime/);
    expect(h.calls()).toHaveLength(0);
  });

  it('refuses documents deeper than the limit, too costly, or with too many aliases', async () => {
    // events > nodes > venues, five times, then title: depth 16.
    const deep = `{ ${'events { nodes { venues { '.repeat(5)}title${' } } }'.repeat(5)} }`;
    let r = await h.gql(deep);
    expect(r.errors![0]!.message).toMatch(/depth 16 exceeds the limit of 15/);
    expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    const costly = `{ events(first: 50) { nodes { venues { events(first: 50) { nodes { organizers { events { nodes { title } } } } } } } } }`;
    r = await h.gql(costly);
    expect(r.errors![0]!.message).toMatch(/cost \d+ exceeds the limit of 1000/);
    const aliases = `{ ${Array.from({ length: 51 }, (_, i) => `a${i}: site { name }`).join(' ')} }`;
    r = await h.gql(aliases);
    expect(r.errors![0]!.message).toMatch(/more than 50 aliases/);
    expect(h.calls()).toHaveLength(0);
  });
});
