/**
 * The compatible graph traced as the main graph is (src/plugins/tracing.ts): the gateway traces into an injected
 * provider with an InMemorySpanExporter, in front of the sandbox behind a recording proxy, over loopback HTTP; the
 * operations below are sent to /wpgraphql, which graphql-js runs without Apollo.
 */
import { describe, expect, it } from 'vitest';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { GraphQLObjectType } from 'graphql';
import type { Gateway } from '../../src/server.ts';
import { createWpGraphqlSchema } from '../../src/wpgraphql/schema.ts';
import { TRACEPARENT, gqlPost, proxiedGateway, sentTraceparents, tracedGateway } from '../helpers/tracing.ts';

const wp = (gateway: Gateway, query: string, headers?: Record<string, string>) =>
  gqlPost(new URL('/wpgraphql', gateway.url).href, query, headers);

const idOf = (s: ReadableSpan) => s.spanContext().spanId;
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const ofKind = (spans: ReadableSpan[], kind: SpanKind) => spans.filter((s) => s.kind === kind);

describe('the compatible graph, traced', () => {
  const traced = tracedGateway();
  const { exporter } = traced;

  it('makes operation -> resolver -> upstream spans in one trace, and sends their traceparent to the site', async () => {
    const r = await wp(
      traced.gateway,
      `query Listing { posts(first: 2) { nodes { databaseId title author { node { name } } tags { nodes { name } } } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.posts.nodes).toHaveLength(2);
    const spans = exporter.getFinishedSpans();

    const ops = ofKind(spans, SpanKind.SERVER);
    expect(ops.map((s) => s.name)).toEqual(['query Listing']);
    const op = ops[0]!;
    expect(op.attributes).toMatchObject({ 'graphql.operation.type': 'query', 'graphql.operation.name': 'Listing' });
    expect(parentOf(op)).toBeUndefined();
    expect(op.status.code).not.toBe(SpanStatusCode.ERROR);

    // Only the fields that went upstream have a span, each under the operation's.
    const resolvers = ofKind(spans, SpanKind.INTERNAL);
    expect(
      resolvers.map((s) => [s.name, s.attributes['graphql.field.path'], s.attributes['sitegraph.upstream.requests']]),
    ).toEqual([
      ['RootQuery.posts', 'posts', 1],
      ['Post.tags', 'posts.nodes.0.tags', 1],
    ]);
    const [posts, tags] = resolvers as [ReadableSpan, ReadableSpan];
    expect(resolvers.map(parentOf)).toEqual([idOf(op), idOf(op)]);

    // Each upstream attempt under the field that sent it.
    const upstream = ofKind(spans, SpanKind.CLIENT);
    expect(upstream.map((s) => [s.name, parentOf(s)])).toEqual([
      ['GET /core/v2/posts', idOf(posts)],
      ['GET /calendar/events/v1/tags', idOf(tags)],
    ]);
    expect(upstream[0]!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'sitegraph.upstream.attempt': 1,
    });
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([op.spanContext().traceId]));

    // The site got each client span's context.
    const sent = sentTraceparents(traced.proxy.requests).map((t) => TRACEPARENT.exec(t ?? '')?.slice(1, 3));
    expect(sent).toEqual(upstream.map((s) => [s.spanContext().traceId, idOf(s)]));
  });

  it('gives no span to fields whose resolver read nothing upstream', async () => {
    // Their resolvers are their own (so they are made current), yet only the list that read the site has a span.
    const post = createWpGraphqlSchema().getType('Post') as GraphQLObjectType;
    for (const name of ['databaseId', 'title', 'author'])
      expect(post.getFields()[name]?.resolve).toBeTypeOf('function');
    const r = await wp(
      traced.gateway,
      `query Titles { posts(first: 2) { nodes { databaseId title author { node { name } } } } }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.posts.nodes[0].author.node.name).toBeTypeOf('string');
    const spans = exporter.getFinishedSpans();
    expect(ofKind(spans, SpanKind.INTERNAL).map((s) => s.name)).toEqual(['RootQuery.posts']);
    expect(ofKind(spans, SpanKind.CLIENT).map((s) => s.name)).toEqual(['GET /core/v2/posts']);
  });

  it("continues the caller's trace from its traceparent", async () => {
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const r = await wp(traced.gateway, `{ posts(first: 1) { nodes { databaseId } } }`, {
      traceparent: `00-${callerTrace}-00f067aa0ba902b7-01`,
    });
    expect(r.errors).toBeUndefined();
    const spans = exporter.getFinishedSpans();
    const op = ofKind(spans, SpanKind.SERVER);
    // An anonymous operation is named by its type alone.
    expect(op.map((s) => s.name)).toEqual(['query']);
    expect(op[0]!.attributes['graphql.operation.name']).toBeUndefined();
    expect(parentOf(op[0]!)).toBe('00f067aa0ba902b7');
    expect(spans.length).toBeGreaterThan(1);
    expect(spans.every((s) => s.spanContext().traceId === callerTrace)).toBe(true);
    expect(sentTraceparents(traced.proxy.requests).every((t) => t?.startsWith(`00-${callerTrace}-`))).toBe(true);
  });

  it('records a field error on the operation (its codes) and on the field', async () => {
    traced.sandbox.faults.add({ path: '^/core/v2/posts$', status: 404, times: 1 });
    const r = await wp(traced.gateway, `query Failing { posts(first: 1) { nodes { databaseId } } }`);
    const codes = (r.errors ?? []).map((e) => e.extensions?.code);
    expect(codes).toEqual(['NOT_FOUND']);
    const spans = exporter.getFinishedSpans();
    const op = ofKind(spans, SpanKind.SERVER)[0]!;
    expect(op.name).toBe('query Failing');
    expect(op.status.code).toBe(SpanStatusCode.ERROR);
    expect(op.attributes['sitegraph.graphql.error_codes']).toEqual(codes);
    const field = ofKind(spans, SpanKind.INTERNAL);
    expect(field.map((s) => [s.name, s.status.code, s.attributes['error.type']])).toEqual([
      ['RootQuery.posts', SpanStatusCode.ERROR, 'NOT_FOUND'],
    ]);
  });

  it('names a document that does not validate "GraphQL Operation", with its code and no other span', async () => {
    const r = await wp(traced.gateway, `query Broken { posts(first: 1) { nodes { noSuchField } } }`);
    const codes = (r.errors ?? []).map((e) => e.extensions?.code);
    expect(codes).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.kind, s.status.code])).toEqual([
      ['GraphQL Operation', SpanKind.SERVER, SpanStatusCode.ERROR],
    ]);
    expect(spans[0]!.attributes['sitegraph.graphql.error_codes']).toEqual(codes);
  });
});

describe('the compatible graph, tracing off', () => {
  it('makes nothing and sends no traceparent', async () => {
    const { gateway, proxy, close } = await proxiedGateway();
    try {
      expect(gateway.tracing).toBeNull();
      const r = await wp(gateway, `query Listing { posts(first: 2) { nodes { databaseId } } }`, {
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      });
      expect(r.errors).toBeUndefined();
      expect(sentTraceparents(proxy.requests).length).toBeGreaterThan(0);
      expect(sentTraceparents(proxy.requests).every((t) => t === undefined)).toBe(true);
    } finally {
      await close();
    }
  });
});
