/**
 * `/metrics` (docs/production.md "Metrics"): GraphQL requests by operation name and
 * outcome taken from the GraphQL answer (an error inside a 200 is not
 * success), with the operation names bounded; durations by operation; upstream
 * attempts and latencies by route template, never by raw path. Asserted on
 * the Prometheus exposition text fetched over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const EVENTS = '^/calendar/events/v1/events$';

/** The value of one series in the exposition text (labels in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (
      Object.keys(got).length === Object.keys(labels).length &&
      Object.entries(labels).every(([k, v]) => got[k] === v)
    )
      return Number(m[3]);
  }
  return undefined;
}

describe('metrics', () => {
  let h: Harness;
  const scrape = async () => {
    const res = await fetch(`${h.gateway.adminUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    return res.text();
  };

  beforeAll(async () => {
    h = await startHarness({ config: { metrics: { maxOperations: 4 } } });
  });
  afterAll(() => h?.close());
  beforeEach(() => h.sandbox.faults.clear());

  it('labels GraphQL requests by operation and by the outcome of the GraphQL answer', async () => {
    expect((await h.gql('query Ok { __typename }')).status).toBe(200);
    expect((await h.gql('query Ok { __typename }')).status).toBe(200);
    expect((await h.gql('{ __typename }')).status).toBe(200);
    // The site says 401: the answer is a 200 with UNAUTHENTICATED, which is not a success.
    h.sandbox.faults.add({
      path: EVENTS,
      status: 401,
      body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } },
    });
    const denied = await h.gql('query Denied { events(first: 1) { nodes { title } } site { name } }');
    expect(denied.status).toBe(200);
    expect(denied.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const invalid = await h.gql('query Invalid { nope }');
    expect(invalid.status).toBe(400);

    const text = await scrape();
    expect(text).toContain('# TYPE sitegraph_graphql_requests_total counter');
    expect(sample(text, 'sitegraph_graphql_requests_total', { operation: 'Ok', outcome: 'ok' })).toBe(2);
    expect(sample(text, 'sitegraph_graphql_requests_total', { operation: 'anonymous', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'sitegraph_graphql_requests_total', { operation: 'Denied', outcome: 'UNAUTHENTICATED' })).toBe(
      1,
    );
    expect(sample(text, 'sitegraph_graphql_requests_total', { operation: 'Denied', outcome: 'ok' })).toBeUndefined();
    expect(
      sample(text, 'sitegraph_graphql_requests_total', { operation: 'Invalid', outcome: 'GRAPHQL_VALIDATION_FAILED' }),
    ).toBe(1);
    expect(sample(text, 'sitegraph_graphql_errors_total', { operation: 'Denied', code: 'UNAUTHENTICATED' })).toBe(1);
    // Durations by operation.
    expect(sample(text, 'sitegraph_graphql_request_seconds_count', { operation: 'Ok' })).toBe(2);
    expect(sample(text, 'sitegraph_graphql_request_seconds_bucket', { operation: 'Ok', le: '+Inf' })).toBe(2);
    expect(sample(text, 'sitegraph_graphql_request_seconds_sum', { operation: 'Denied' })).toBeGreaterThan(0);
  });

  it('counts requests refused before GraphQL runs, and each error code', async () => {
    // CSRF prevention: a simple (non-preflighted) POST is refused with 400, still counted.
    const csrf = await fetch(h.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"query":"{ __typename }"}',
    });
    expect(csrf.status).toBe(400);
    const bad = await fetch(h.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(bad.status).toBe(400);
    h.sandbox.faults.add({
      path: '^/calendar/events/v1/(events|venues)$',
      status: 403,
      body: { code: 'rest_forbidden', message: 'No.', data: { status: 403 } },
    });
    const two = await h.gql(
      'query Two { a: events(first: 1) { nodes { title } } b: events(first: 2) { nodes { title } } }',
    );
    expect(two.errors?.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    const text = await scrape();
    expect(sample(text, 'sitegraph_graphql_requests_total', { operation: 'anonymous', outcome: 'BAD_REQUEST' })).toBe(
      2,
    );
    expect(sample(text, 'sitegraph_graphql_requests_total', { operation: 'Two', outcome: 'FORBIDDEN' })).toBe(1);
    expect(sample(text, 'sitegraph_graphql_errors_total', { operation: 'Two', code: 'FORBIDDEN' })).toBe(2);
  });

  it('keeps operation names bounded: past the cap, new names count as other', async () => {
    // Ok, Denied, Invalid and Two took 4 of the 4 places (maxOperations: 4); these are new.
    for (const name of ['Fifth', 'Sixth', 'Seventh'])
      expect((await h.gql(`query ${name} { __typename }`)).status).toBe(200);
    await h.gql('query Ok { __typename }');
    const text = await scrape();
    expect(sample(text, 'sitegraph_graphql_requests_total', { operation: 'other', outcome: 'ok' })).toBe(3);
    expect(sample(text, 'sitegraph_graphql_requests_total', { operation: 'Ok', outcome: 'ok' })).toBe(3);
    expect(text).not.toMatch(/operation="(Fifth|Sixth|Seventh)"/);
    const operations = new Set(
      [...text.matchAll(/sitegraph_graphql_requests_total\{[^}]*operation="([^"]*)"/g)].map((m) => m[1]),
    );
    expect(operations.size).toBeLessThanOrEqual(4 + 2); // the cap, plus `anonymous` and `other`
  });

  it('times upstream requests by route template, not by raw path', async () => {
    // Past events: the list's include= cannot reach them, so each is read on its own route (batching.test.ts).
    const list = await h.gql(
      `{ events(first: 3, where: { endDate: "${new Date(Date.now() - 30 * 86_400_000).toISOString()}" }) { nodes { databaseId } } }`,
    );
    expect(list.errors).toBeUndefined();
    const ids: number[] = list.data.events.nodes.map((n: { databaseId: number }) => n.databaseId);
    expect(ids).toHaveLength(3);
    const r = await h.gql(
      `{ ${ids.map((id, i) => `e${i}: event(id: "${id}", idType: DATABASE_ID) { title }`).join(' ')} }`,
    );
    expect(r.errors).toBeUndefined();
    const text = await scrape();
    expect(
      sample(text, 'sitegraph_upstream_requests_total', { route: 'GET /calendar/events/v1/events', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'sitegraph_upstream_request_seconds_count', { route: 'GET /calendar/events/v1/events' }),
    ).toBeGreaterThanOrEqual(1);
    const routes = [...text.matchAll(/sitegraph_upstream_request_seconds_count\{route="([^"]*)"\}/g)].map((m) => m[1]!);
    expect(routes.length).toBeGreaterThan(0);
    // No route label carries an ID: single reads are labelled with their template.
    for (const route of routes) expect(route).not.toMatch(/\/\d+(\/|$)/);
    expect(routes).toContain('GET /calendar/events/v1/events/<id>');
    expect(
      sample(text, 'sitegraph_upstream_request_seconds_count', { route: 'GET /calendar/events/v1/events/<id>' }),
    ).toBeGreaterThanOrEqual(3);
  });

  it('reads METRICS_MAX_OPERATIONS', () => {
    expect(loadConfig({}).metrics.maxOperations).toBe(100);
    expect(loadConfig({ METRICS_MAX_OPERATIONS: '20' }).metrics.maxOperations).toBe(20);
    expect(() => loadConfig({ METRICS_MAX_OPERATIONS: '0' })).toThrow(/METRICS_MAX_OPERATIONS|maxOperations/);
  });
});
