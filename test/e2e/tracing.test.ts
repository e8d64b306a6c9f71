/**
 * Traces in process (docs/production.md "Tracing (OpenTelemetry)"): the gateway traces
 * into an injected provider with an InMemorySpanExporter (no global state),
 * in front of the sandbox behind a recording proxy, so the test sees both the
 * span tree and the `traceparent` each upstream request carried.
 */
import { describe, expect, it } from 'vitest';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Gateway } from '../../src/server.ts';
import {
  TRACEPARENT,
  gqlPost,
  proxiedGateway,
  sentTraceparents as traceparents,
  tracedGateway,
} from '../helpers/tracing.ts';

const gql = (gateway: Gateway, query: string, headers?: Record<string, string>) => gqlPost(gateway.url, query, headers);

const idOf = (s: ReadableSpan) => s.spanContext().spanId;
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

describe('tracing into an injected provider', () => {
  // No cache: every operation below goes to the site.
  const traced = tracedGateway();
  const { exporter } = traced;

  it('makes operation -> resolver -> upstream spans, and sends their traceparent to the site', async () => {
    const r = await gql(traced.gateway, `query Listing { events(first: 2) { nodes { databaseId title } } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes).toHaveLength(2);
    const spans = exporter.getFinishedSpans();

    const op = spans.filter((s) => s.kind === SpanKind.SERVER);
    expect(op.map((s) => s.name)).toEqual(['query Listing']);
    expect(op[0]!.attributes).toMatchObject({ 'graphql.operation.name': 'Listing', 'graphql.operation.type': 'query' });
    expect(parentOf(op[0]!)).toBeUndefined();

    // Only the field that went upstream has a span: not `nodes`, `databaseId` or `title`.
    const resolvers = spans.filter((s) => s.kind === SpanKind.INTERNAL);
    expect(resolvers.map((s) => s.name)).toEqual(['Query.events']);
    const events = resolvers[0]!;
    expect(parentOf(events)).toBe(idOf(op[0]!));
    expect(events.attributes).toMatchObject({
      'graphql.field.path': 'events',
      'graphql.field.name': 'events',
      'sitegraph.upstream.requests': 1,
    });

    const upstream = spans.filter((s) => s.kind === SpanKind.CLIENT);
    expect(upstream).toHaveLength(1);
    const list = upstream[0]!;
    expect(list.name).toBe('GET /calendar/events/v1/events');
    expect(parentOf(list)).toBe(idOf(events));
    expect(list.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.template': '/calendar/events/v1/events',
      'http.response.status_code': 200,
      'sitegraph.upstream.attempt': 1,
      'server.address': '127.0.0.1',
    });
    // Every span of the operation is in one trace.
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([op[0]!.spanContext().traceId]));
    // Child spans sit inside their parents in time.
    expect(events.startTime[0] * 1e9 + events.startTime[1]).toBeGreaterThanOrEqual(
      op[0]!.startTime[0] * 1e9 + op[0]!.startTime[1],
    );

    // The site got the client span's context: same trace, the client span as parent.
    const sent = traceparents(traced.proxy.requests);
    expect(sent).toHaveLength(1);
    const m = TRACEPARENT.exec(sent[0] ?? '');
    expect(m).not.toBeNull();
    expect(m![1]).toBe(list.spanContext().traceId);
    expect(m![2]).toBe(list.spanContext().spanId);
    expect(sent[0]!.endsWith('-01')).toBe(true);
  });

  it('puts a DataLoader batch under the field that asked first', async () => {
    const r = await gql(traced.gateway, `query Nested { events(first: 3) { nodes { databaseId jsonLd } } }`);
    expect(r.errors).toBeUndefined();
    const spans = exporter.getFinishedSpans();
    const resolvers = spans.filter((s) => s.kind === SpanKind.INTERNAL);
    const upstream = spans.filter((s) => s.kind === SpanKind.CLIENT);
    // The three single reads of the jsonLd batch hang under the first Event.jsonLd; the two that joined it have no span.
    expect(
      resolvers.map((s) => [s.name, s.attributes['graphql.field.path'], s.attributes['sitegraph.upstream.requests']]),
    ).toEqual([
      ['Query.events', 'events', 1],
      ['Event.jsonLd', 'events.nodes.0.jsonLd', 3],
    ]);
    const [events, jsonLd] = resolvers as [ReadableSpan, ReadableSpan];
    expect(upstream.map((s) => [s.name, parentOf(s)])).toEqual([
      ['GET /calendar/events/v1/events', idOf(events)],
      ...[1, 2, 3].map(() => ['GET /calendar/events/v1/events/<id>', idOf(jsonLd)]),
    ]);
    expect(upstream.every((s) => s.attributes['url.template'] === s.name.slice('GET '.length))).toBe(true);
  });

  it('makes one client span per attempt, with the retry number and the failure recorded', async () => {
    traced.sandbox.faults.add({ path: '^/calendar/events/v1/events$', status: 503, times: 1 });
    const r = await gql(traced.gateway, `query Retried { events(first: 1) { nodes { databaseId } } }`);
    expect(r.errors).toBeUndefined();
    const upstream = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT);
    expect(upstream.map((s) => s.attributes['sitegraph.upstream.attempt'])).toEqual([1, 2]);
    const [first, retry] = upstream as [ReadableSpan, ReadableSpan];
    expect(first.attributes).toMatchObject({ 'http.response.status_code': 503, 'error.type': 'UPSTREAM_UNAVAILABLE' });
    expect(first.status.code).toBe(SpanStatusCode.ERROR);
    expect(retry.attributes).toMatchObject({ 'http.response.status_code': 200, 'http.request.resend_count': 1 });
    expect(retry.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(parentOf(first)).toBe(parentOf(retry));
    // Each attempt carried its own span's context.
    const sent = traceparents(traced.proxy.requests).map((t) => TRACEPARENT.exec(t ?? '')?.[2]);
    expect(sent).toEqual([idOf(first), idOf(retry)]);
  });

  it("records error codes on the operation and continues the caller's trace", async () => {
    traced.sandbox.faults.add({ path: '^/calendar/events/v1/events$', status: 404, times: 1 });
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const r = await gql(traced.gateway, `{ events(first: 1) { nodes { databaseId } } }`, {
      traceparent: `00-${callerTrace}-00f067aa0ba902b7-01`,
    });
    expect(r.errors?.[0]?.extensions?.code).toBeDefined();
    const spans = exporter.getFinishedSpans();
    const op = spans.find((s) => s.kind === SpanKind.SERVER)!;
    // An anonymous operation is named by its type alone.
    expect(op.name).toBe('query');
    expect(op.spanContext().traceId).toBe(callerTrace);
    expect(parentOf(op)).toBe('00f067aa0ba902b7');
    expect(op.status.code).toBe(SpanStatusCode.ERROR);
    expect(op.attributes['sitegraph.graphql.error_codes']).toEqual([r.errors![0]!.extensions!.code]);
    const field = spans.find((s) => s.kind === SpanKind.INTERNAL)!;
    expect(field.status.code).toBe(SpanStatusCode.ERROR);
    expect(traceparents(traced.proxy.requests).every((t) => t?.startsWith(`00-${callerTrace}-`))).toBe(true);
  });

  it('names a document that does not parse "GraphQL Operation", with no resolver or upstream span', async () => {
    const r = await gql(traced.gateway, `query Broken { events(first: 1) {`);
    expect(r.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['GraphQL Operation']);
    expect(spans[0]!.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('tracing off (no OTEL_* set)', () => {
  it('makes nothing and sends no traceparent', async () => {
    const { gateway, proxy, close } = await proxiedGateway();
    try {
      expect(gateway.tracing).toBeNull();
      const r = await gql(gateway, `query Listing { events(first: 2) { nodes { databaseId } } }`);
      expect(r.errors).toBeUndefined();
      expect(proxy.requests.length).toBeGreaterThan(0);
      expect(proxy.requests.every((q) => q.headers.traceparent === undefined)).toBe(true);
    } finally {
      await close();
    }
  });
});
