/**
 * OpenTelemetry traces (docs/production.md "Tracing (OpenTelemetry)"), set by the standard
 * `OTEL_*` variables (config.ts `tracing`) or by a tracer provider handed to
 * `startGateway` (tests). Off by default, and then nothing here is made: no
 * plugin, no upstream hook, no SDK loaded, so the hot path does no tracing
 * work at all.
 *
 * Three kinds of span, each made with an explicit parent context:
 *
 *   operation (SERVER, plugins/tracing.ts)  `query Events`
 *   └ resolver (INTERNAL)                   `Query.events`: only fields whose resolver sent upstream requests
 *     └ upstream attempt (CLIENT)           `GET /tribe/events/v1/events/<id>`: one per attempt, retries too
 *
 * Nothing global is registered (no global tracer provider, propagator or
 * context manager): several gateways in one process (tests) trace into their
 * own providers, and the host application's OpenTelemetry set-up, if any, is
 * left alone.
 *
 * Resolver spans are made lazily: the plugin makes the running field current
 * (an AsyncLocalStorage of this module), and its span is started, back-dated
 * to the field's start, only when an upstream attempt begins under it. A
 * trace then shows which fields cost site requests and nothing for the
 * hundreds that only read what is loaded. A span per DataLoader batch would
 * name the batch better but needs a hook in every loader; here a batch's
 * requests belong to the field that asked first (DataLoader runs the batch in
 * that field's async context), and the fields that joined it have no span.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context as TraceContext,
  type Span,
  type TextMapGetter,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { GraphQLResolveInfo } from 'graphql';
import { parseKeyValues, type Config } from './config.ts';
import type { Logger } from './log.ts';
import type { UpstreamAttemptStart, UpstreamAttemptTrace } from './upstream/client.ts';
import type { GatewayError } from './errors.ts';

/** The instrumentation scope named on every span. */
const SCOPE = 'sitegraph';
/** The spec's default OTLP/HTTP traces URL. */
const DEFAULT_TRACES_URL = 'http://localhost:4318/v1/traces';

/** What the configuration asks for, resolved; null when tracing is off. */
export interface TracingPlan {
  exporters: ('otlp' | 'console')[];
  /** The full OTLP traces URL. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  headers: Record<string, string>;
  resource: Record<string, string>;
  sampler: Config['tracing']['sampler'];
  ratio: number;
}

export function tracingPlan(t: Config['tracing']): TracingPlan | null {
  if (t.sdkDisabled) return null;
  const endpoint =
    t.otlpTracesEndpoint ?? (t.otlpEndpoint ? `${t.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` : undefined);
  let exporters = t.exporters.filter((e): e is 'otlp' | 'console' => e !== 'none');
  // `none` alone turns it off; an empty list means "not chosen": otlp when there is somewhere to send to.
  if (t.exporters.length === 0 && endpoint) exporters = ['otlp'];
  if (exporters.length === 0) return null;
  const resource = parseKeyValues(t.resourceAttributes ?? '') ?? {};
  resource['service.name'] = t.serviceName ?? resource['service.name'] ?? 'sitegraph';
  return {
    exporters: [...new Set(exporters)],
    url: endpoint ?? DEFAULT_TRACES_URL,
    protocol: t.otlpTracesProtocol ?? t.otlpProtocol,
    headers: { ...parseKeyValues(t.otlpHeaders ?? ''), ...parseKeyValues(t.otlpTracesHeaders ?? '') },
    resource,
    sampler: t.sampler,
    ratio: t.samplerArg ?? 1,
  };
}

/** The field being resolved, made current by the plugin; its span is made on its first upstream attempt. */
export interface FieldScope {
  /** The operation span's context. */
  readonly parent: TraceContext;
  readonly info: GraphQLResolveInfo;
  /** Epoch milliseconds, sub-millisecond precision. */
  readonly start: number;
  span: Span | undefined;
  /** Set when the field's result is settled. */
  ended: number | undefined;
  requests: number;
}

export interface Tracing {
  readonly tracer: Tracer;
  /** The field whose resolver is running (plugins/tracing.ts sets it). */
  readonly fields: AsyncLocalStorage<FieldScope>;
  /** W3C Trace Context: `traceparent` (and `tracestate`) in and out. */
  readonly propagator: W3CTraceContextPropagator;
  /** The upstream client's hook (UpstreamOptions.trace): a CLIENT span per attempt, its traceparent on the request. */
  upstream(a: UpstreamAttemptStart): UpstreamAttemptTrace;
  /** Ends a field's span, if an upstream attempt made one. */
  endField(scope: FieldScope, error: unknown): void;
  /** One line for the start banner: what goes where. */
  readonly description: string;
  /** Exports what is still buffered (spans are not lost when the gateway stops); stops an SDK this module made. */
  shutdown(): Promise<void>;
}

/** Epoch milliseconds with sub-millisecond precision (OpenTelemetry's TimeInput). */
const now = () => performance.timeOrigin + performance.now();

export interface TracingOptions {
  /**
   * A provider made by the caller (tests: an InMemorySpanExporter), used
   * whatever the configuration says; flushed, not shut down, on `shutdown`
   * (it is its owner's).
   */
  provider?: TracerProvider | undefined;
  /** Where failed exports are reported (a collector that is down would otherwise lose spans silently). */
  log?: Logger | undefined;
}

/** Tracing for one gateway, or null when off. */
export async function createTracing(config: Config['tracing'], options: TracingOptions = {}): Promise<Tracing | null> {
  const injected = options.provider;
  if (injected)
    return makeTracing(injected, 'tracing: to the tracer provider given', async () => {
      await (injected as { forceFlush?: () => Promise<void> }).forceFlush?.();
    });
  const plan = tracingPlan(config);
  if (!plan) return null;
  const provider = await buildProvider(plan, options.log);
  const where = plan.exporters
    .map((e) => (e === 'otlp' ? `OTLP ${plan.protocol} to ${plan.url}` : 'the console'))
    .join(' and ');
  return makeTracing(provider, `tracing: ${where} (sampler ${plan.sampler})`, async () => {
    try {
      await provider.shutdown();
    } catch (err) {
      // A collector that is down must not make stopping fail: say what was lost, and stop.
      options.log?.warn({ err: (err as Error).message }, 'tracing: the last spans could not be exported at shutdown');
    }
  });
}

function makeTracing(provider: TracerProvider, description: string, shutdown: () => Promise<void>): Tracing {
  const tracer = provider.getTracer(SCOPE);
  const fields = new AsyncLocalStorage<FieldScope>();
  const propagator = new W3CTraceContextPropagator();

  function fieldSpan(scope: FieldScope): Span {
    if (!scope.span) {
      const { info } = scope;
      scope.span = tracer.startSpan(
        `${info.parentType.name}.${info.fieldName}`,
        {
          kind: SpanKind.INTERNAL,
          startTime: scope.start,
          attributes: {
            'graphql.field.name': info.fieldName,
            'graphql.field.parent_type': info.parentType.name,
            'graphql.field.type': String(info.returnType),
            'graphql.field.path': pathOf(info.path),
          },
        },
        scope.parent,
      );
      // A resolver that started a request and returned without waiting for it: close its span at its end.
      if (scope.ended !== undefined) closeField(scope, scope.ended);
    }
    return scope.span;
  }

  function closeField(scope: FieldScope, at: number): void {
    scope.span!.setAttribute('sitegraph.upstream.requests', scope.requests);
    scope.span!.end(Math.max(at, scope.start));
  }

  return {
    tracer,
    fields,
    propagator,
    description,
    shutdown,
    upstream(a) {
      const scope = fields.getStore();
      let parent = ROOT_CONTEXT;
      if (scope) {
        scope.requests += 1;
        parent = trace.setSpan(scope.parent, fieldSpan(scope));
      }
      const { hostname, port, protocol } = new URL(a.origin);
      const space = a.route.indexOf(' ');
      const span = tracer.startSpan(
        a.route,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': a.method,
            'url.template': space > 0 ? a.route.slice(space + 1) : a.route,
            'server.address': hostname,
            'server.port': Number(port) || (protocol === 'https:' ? 443 : 80),
            'sitegraph.upstream.attempt': a.attempt,
            ...(a.attempt > 1 ? { 'http.request.resend_count': a.attempt - 1 } : {}),
          },
        },
        parent,
      );
      const headers: Record<string, string> = {};
      propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, { set: (c, k, v) => void (c[k] = v) });
      return {
        headers,
        end(status: number | null, error?: GatewayError) {
          if (status !== null) span.setAttribute('http.response.status_code', status);
          if (error) {
            // Codes only, never messages: a message may quote what the site echoed of a secret.
            span.setAttribute('error.type', error.code);
            const cause = error.extensions.upstream?.code;
            if (cause) span.setAttribute('sitegraph.upstream.error_code', cause);
            span.setStatus({ code: SpanStatusCode.ERROR, message: error.code });
          }
          span.end();
        },
      };
    },
    endField(scope, error) {
      scope.ended = now();
      if (!scope.span) return;
      if (error) {
        const code = errorCode(error);
        scope.span.setAttribute('error.type', code);
        scope.span.setStatus({ code: SpanStatusCode.ERROR, message: code });
      }
      closeField(scope, scope.ended);
    },
  };
}

/** A field scope starting now, under the operation span's context. */
export function fieldScope(parent: TraceContext, info: GraphQLResolveInfo): FieldScope {
  return { parent, info, start: now(), span: undefined, ended: undefined, requests: 0 };
}

/** `events.nodes.0.venue` */
function pathOf(path: GraphQLResolveInfo['path']): string {
  const keys: (string | number)[] = [];
  for (let p: GraphQLResolveInfo['path'] | undefined = path; p; p = p.prev) keys.push(p.key);
  return keys.reverse().join('.');
}

/** The gateway code of an error (GatewayError, or a GraphQLError carrying one). */
export function errorCode(e: unknown): string {
  const code = (e as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
}

/** Reads a `traceparent` from Apollo's HeaderMap (a Map of lower-case names). */
export const headerMapGetter: TextMapGetter<Map<string, string>> = {
  get: (carrier, key) => carrier.get(key),
  keys: (carrier) => [...carrier.keys()],
};

// ---------------------------------------------------------------------------
// The SDK, loaded only when tracing is on.

async function buildProvider(plan: TracingPlan, log: Logger | undefined) {
  const sdk = await import('@opentelemetry/sdk-trace-base');
  const { defaultResource, resourceFromAttributes } = await import('@opentelemetry/resources');
  const spanProcessors = [];
  for (const e of plan.exporters) {
    // OTLP in batches (OTEL_BSP_* tune them); the console one span at a time, as it is read.
    if (e === 'otlp')
      spanProcessors.push(new sdk.BatchSpanProcessor(reporting(await otlpExporter(plan), plan.url, log)));
    else spanProcessors.push(new sdk.SimpleSpanProcessor(new sdk.ConsoleSpanExporter()));
  }
  const ratio = new sdk.TraceIdRatioBasedSampler(plan.ratio);
  const root = {
    always_on: new sdk.AlwaysOnSampler(),
    always_off: new sdk.AlwaysOffSampler(),
    traceidratio: ratio,
    parentbased_always_on: new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() }),
    parentbased_always_off: new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() }),
    parentbased_traceidratio: new sdk.ParentBasedSampler({ root: ratio }),
  }[plan.sampler];
  return new sdk.BasicTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes(plan.resource)),
    sampler: root,
    spanProcessors,
  });
}

/** The exporter, with each failed export logged (the SDK's own diagnostics are off: that logger is global). */
function reporting(exporter: SpanExporter, url: string, log: Logger | undefined): SpanExporter {
  if (!log) return exporter;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS)
          log.warn({ url, spans: spans.length, err: result.error?.message ?? null }, 'could not export spans');
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/**
 * OTLP over HTTP. JSON is the installed exporter's own format; protobuf is the
 * same exporter's transport with the protobuf serializer, from the two packages
 * that exporter is built on (installed with it, at its version).
 */
async function otlpExporter(plan: TracingPlan) {
  const options = { url: plan.url, headers: plan.headers };
  if (plan.protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter(options);
  }
  const { OTLPExporterBase } = await import('@opentelemetry/otlp-exporter-base');
  const { convertLegacyHttpOptions, createOtlpHttpExportDelegate } =
    await import('@opentelemetry/otlp-exporter-base/node-http');
  const { ProtobufTraceSerializer, TraceExporterMetricsHelper } = await import('@opentelemetry/otlp-transformer');
  const delegate = createOtlpHttpExportDelegate(
    convertLegacyHttpOptions(options, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
    ProtobufTraceSerializer,
    'otlp_http_span_exporter',
    TraceExporterMetricsHelper,
    undefined,
  );
  return new OTLPExporterBase(delegate);
}
