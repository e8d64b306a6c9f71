/**
 * For the tracing tests: a recording reverse proxy in front of the sandbox
 * (the sandbox's own log keeps no headers), an OTLP/HTTP receiver on
 * loopback, and enough of a protobuf reader to decode what it receives.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TracerProvider } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { parseConfig } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { testSandbox } from './sandbox.ts';
import { startStubServer, type RecordedRequest, type StubServer } from './stub-server.ts';

export const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;

/** A reverse proxy to `target` (an origin) that records every request, headers included. */
export async function recordingProxy(target: string): Promise<StubServer> {
  const hop = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'content-encoding', 'keep-alive']);
  return startStubServer(async (req, res, { body }) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !hop.has(k)) headers[k] = v;
    const up = await fetch(`${target}${req.url}`, { method: req.method, headers, body: body || undefined });
    const out: Record<string, string> = {};
    up.headers.forEach((v, k) => {
      if (!hop.has(k)) out[k] = v;
    });
    res.writeHead(up.status, out);
    res.end(Buffer.from(await up.arrayBuffer()));
  });
}

/** The sandbox, a recording proxy in front of it, and a gateway in front of that. */
export interface ProxiedGateway {
  sandbox: RunningSandbox;
  proxy: StubServer;
  gateway: Gateway;
  close(): Promise<void>;
}

/** A gateway without a cache (every operation goes to the site) behind a recording proxy; traced into `tracerProvider` when given. */
export async function proxiedGateway(tracerProvider?: TracerProvider): Promise<ProxiedGateway> {
  const sandbox = await testSandbox();
  const proxy = await recordingProxy(sandbox.origin);
  const gateway = await startGateway(
    parseConfig({ port: 0, cache: { ttlSeconds: 0, memoryMaxBytes: 0 } }),
    `${proxy.origin}/wp-json/`,
    tracerProvider ? { tracerProvider } : {},
  );
  return {
    sandbox,
    proxy,
    gateway,
    close: async () => {
      await gateway.close();
      await proxy.close();
      await sandbox.close();
    },
  };
}

/**
 * For a describe block: a proxied gateway tracing into an InMemorySpanExporter, started before its tests and closed
 * after them; before each test the spans, the proxy's record and the sandbox's faults are cleared.
 */
export function tracedGateway(): ProxiedGateway & { exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const suite = { exporter } as ProxiedGateway & { exporter: InMemorySpanExporter };
  beforeAll(async () => {
    Object.assign(suite, await proxiedGateway(provider));
  });
  afterAll(async () => {
    await suite.close?.();
    await provider.shutdown();
  });
  beforeEach(() => {
    exporter.reset();
    suite.proxy.requests.length = 0;
    suite.sandbox.faults.clear();
  });
  return suite;
}

/** POSTs one operation to a gateway's `/graphql` URL. */
export async function gqlPost(url: string, query: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as { data?: any; errors?: { extensions?: { code?: string } }[] };
}

/** The `traceparent` of each REST request the proxy saw (the root index read at start-up left out). */
export function sentTraceparents(reqs: RecordedRequest[]): (string | undefined)[] {
  return reqs
    .filter((r) => r.url.includes('/wp-json/') && !r.url.endsWith('/wp-json/'))
    .map((r) => r.headers.traceparent as string | undefined);
}

export interface OtlpExport {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface OtlpReceiver {
  origin: string;
  exports: OtlpExport[];
  close(): Promise<void>;
}

/** Accepts OTLP/HTTP exports (`POST /...`) and answers as a collector does: 200 with an empty response (or `status`, refusing them). */
export async function startOtlpReceiver(status = 200): Promise<OtlpReceiver> {
  const exports: OtlpExport[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    exports.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
    const json = (req.headers['content-type'] ?? '').includes('json');
    res.writeHead(status, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
    res.end(json ? '{}' : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    exports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A span as both decoders below give it: ids in hex, attributes flattened. */
export interface ReceivedSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
  /** `service.name` of its resource. */
  service: string | undefined;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
};
const valueOf = (v: OtlpValue): unknown =>
  v.stringValue ??
  (v.intValue !== undefined ? Number(v.intValue) : undefined) ??
  v.boolValue ??
  v.doubleValue ??
  v.arrayValue?.values?.map(valueOf);
const attrs = (list: { key: string; value: OtlpValue }[] | undefined) =>
  Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));

/** Spans of an OTLP/JSON export (ids are hex strings in that encoding). */
export function decodeJsonSpans(body: Buffer): ReceivedSpan[] {
  const data = JSON.parse(body.toString('utf8')) as {
    resourceSpans: {
      resource?: { attributes?: { key: string; value: OtlpValue }[] };
      scopeSpans: { spans: any[] }[];
    }[];
  };
  return data.resourceSpans.flatMap((rs) => {
    const service = attrs(rs.resource?.attributes)['service.name'] as string | undefined;
    return rs.scopeSpans.flatMap((ss) =>
      ss.spans.map((s) => ({
        name: s.name,
        kind: s.kind,
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        attributes: attrs(s.attributes),
        service,
      })),
    );
  });
}

// ---------------------------------------------------------------------------
// Protobuf: only what ExportTraceServiceRequest needs (varints, length-delimited, fixed64).

type Fields = Map<number, (bigint | Buffer)[]>;

function readVarint(buf: Buffer, at: number): [bigint, number] {
  let v = 0n;
  for (let shift = 0n; ; shift += 7n) {
    const b = buf[at++]!;
    v |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) return [v, at];
  }
}

function fields(buf: Buffer): Fields {
  const out: Fields = new Map();
  let at = 0;
  while (at < buf.length) {
    const [key, next] = readVarint(buf, at);
    at = next;
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    let value: bigint | Buffer;
    if (wire === 0) [value, at] = readVarint(buf, at);
    else if (wire === 1) ((value = buf.readBigUInt64LE(at)), (at += 8));
    else if (wire === 5) ((value = BigInt(buf.readUInt32LE(at))), (at += 4));
    else if (wire === 2) {
      const [len, start] = readVarint(buf, at);
      value = buf.subarray(start, start + Number(len));
      at = start + Number(len);
    } else throw new Error(`unexpected protobuf wire type ${wire}`);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

const bytes = (f: Fields, n: number): Buffer[] => (f.get(n) ?? []) as Buffer[];
const str = (f: Fields, n: number): string => bytes(f, n)[0]?.toString('utf8') ?? '';
const hex = (f: Fields, n: number): string => bytes(f, n)[0]?.toString('hex') ?? '';

/** AnyValue: string 1, bool 2, int 3, double 4, array 5. */
function anyValue(buf: Buffer): unknown {
  const f = fields(buf);
  if (f.has(1)) return str(f, 1);
  if (f.has(2)) return (f.get(2)![0] as bigint) !== 0n;
  if (f.has(3)) return Number(f.get(3)![0] as bigint);
  if (f.has(5)) return bytes(fields(bytes(f, 5)[0]!), 1).map(anyValue);
  return undefined;
}

/** KeyValue list: key 1, value 2. */
const pbAttrs = (list: Buffer[]) =>
  Object.fromEntries(
    list.map((kv) => fields(kv)).map((kv) => [str(kv, 1), anyValue(bytes(kv, 2)[0] ?? Buffer.alloc(0))]),
  );

/**
 * Spans of an OTLP/protobuf export: ExportTraceServiceRequest.resource_spans 1
 * > ResourceSpans { resource 1 { attributes 1 }, scope_spans 2 } > ScopeSpans.spans 2
 * > Span { trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6, attributes 9 }.
 */
export function decodeProtobufSpans(body: Buffer): ReceivedSpan[] {
  return bytes(fields(body), 1).flatMap((rsBuf) => {
    const rs = fields(rsBuf);
    const resource = fields(bytes(rs, 1)[0] ?? Buffer.alloc(0));
    const service = pbAttrs(bytes(resource, 1))['service.name'] as string | undefined;
    return bytes(rs, 2).flatMap((ssBuf) =>
      bytes(fields(ssBuf), 2).map((spanBuf) => {
        const s = fields(spanBuf);
        return {
          name: str(s, 5),
          kind: Number((s.get(6)?.[0] as bigint | undefined) ?? 0n),
          traceId: hex(s, 1),
          spanId: hex(s, 2),
          parentSpanId: hex(s, 4),
          attributes: pbAttrs(bytes(s, 9)),
          service,
        };
      }),
    );
  });
}
