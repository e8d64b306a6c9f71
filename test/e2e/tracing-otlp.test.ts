/**
 * Traces over OTLP/HTTP to a receiver the test starts on loopback, with the
 * gateway configured only through the standard OTEL_* variables: once as a
 * user runs it (`src/main.ts` in its own process, stopped with SIGTERM), once
 * in process for the protobuf encoding, the headers and the sampler.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startGateway } from '../../src/server.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { testSandbox } from '../helpers/sandbox.ts';
import { freePort, type StubServer } from '../helpers/stub-server.ts';
import {
  TRACEPARENT,
  decodeJsonSpans,
  decodeProtobufSpans,
  gqlPost,
  recordingProxy,
  sentTraceparents,
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from '../helpers/tracing.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LISTING = `query Listing { events(first: 2) { nodes { databaseId title } } }`;
/** OTLP's SpanKind numbers (the API's plus one). */
const KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 };

/** The environment of the child, without any OTEL_* of the machine running the tests. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('OTEL_')) env[k] = v;
  return { ...env, ...extra };
}

/** Checks the operation -> resolver -> upstream tree of `query Listing` among received spans. */
function expectListingTree(spans: ReceivedSpan[]): void {
  const op = spans.find((s) => s.name === 'query Listing');
  expect(op, `spans received: ${spans.map((s) => s.name).join(', ')}`).toBeDefined();
  expect(op!.kind).toBe(KIND.SERVER);
  expect(op!.attributes).toMatchObject({ 'graphql.operation.name': 'Listing', 'graphql.operation.type': 'query' });
  const field = spans.find((s) => s.name === 'Query.events')!;
  expect(field.kind).toBe(KIND.INTERNAL);
  expect(field.parentSpanId).toBe(op!.spanId);
  const list = spans.find((s) => s.name === 'GET /calendar/events/v1/events')!;
  expect(list.kind).toBe(KIND.CLIENT);
  expect(list.parentSpanId).toBe(field.spanId);
  expect(list.attributes).toMatchObject({
    'http.request.method': 'GET',
    'url.template': '/calendar/events/v1/events',
    'http.response.status_code': 200,
    'sitegraph.upstream.attempt': 1,
  });
  expect(new Set([op!.traceId, field.traceId, list.traceId]).size).toBe(1);
}

describe('OTLP/HTTP export', () => {
  let sandbox: RunningSandbox;
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('the CLI (src/main.ts) with only OTEL_* set sends the spans as http/json, flushed when it stops', async () => {
    receiver = await startOtlpReceiver();
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx/esm', 'src/main.ts'], {
      cwd: ROOT,
      env: cleanEnv({
        PORT: String(port),
        HOST: '127.0.0.1',
        UPSTREAM_URL: sandbox.url,
        CACHE_TTL_SECONDS: '0',
        LOG_LEVEL: 'warn',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'sitegraph-e2e',
        // Ten minutes between batches: whatever arrives was sent by the flush on shutdown.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = `http://127.0.0.1:${port}/graphql`;
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the gateway exited early:\n${output}`);
        if (Date.now() > deadline) throw new Error(`the gateway did not start in 60 s:\n${output}`);
        const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (up && output.includes('tracing:')) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(output).toContain(`tracing: OTLP http/json to ${receiver.origin}/v1/traces`);
      const r = await gqlPost(url, LISTING);
      expect(r.errors).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.exports).toHaveLength(0);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await receiver.close();
    }
    expect(receiver.exports.length).toBeGreaterThan(0);
    for (const e of receiver.exports) {
      expect(e.path).toBe('/v1/traces');
      expect(e.headers['content-type']).toContain('application/json');
    }
    const spans = receiver.exports.flatMap((e) => decodeJsonSpans(e.body));
    expect(spans.every((s) => s.service === 'sitegraph-e2e')).toBe(true);
    expectListingTree(spans);
  }, 90_000);

  describe('in process', () => {
    let proxy: StubServer;
    beforeAll(async () => {
      proxy = await recordingProxy(sandbox.origin);
    });
    afterAll(async () => {
      await proxy?.close();
    });

    it('sends http/protobuf (the default) to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, with the configured headers', async () => {
      receiver = await startOtlpReceiver();
      try {
        const config = loadConfig({
          PORT: '0',
          CACHE_TTL_SECONDS: '0',
          LOG_LEVEL: 'warn',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.origin}/custom/traces`,
          OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=k%20ey,x-tenant=demo',
          OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-resource,deployment.environment.name=test',
        });
        const gateway = await startGateway(config, `${proxy.origin}/wp-json/`);
        proxy.requests.length = 0;
        const r = await gqlPost(gateway.url, LISTING);
        expect(r.errors).toBeUndefined();
        await gateway.close();
        expect(receiver.exports.length).toBeGreaterThan(0);
        const e = receiver.exports[0]!;
        expect(e.path).toBe('/custom/traces');
        expect(e.headers['content-type']).toBe('application/x-protobuf');
        expect(e.headers['x-collector-key']).toBe('k ey');
        expect(e.headers['x-tenant']).toBe('demo');
        const spans = receiver.exports.flatMap((x) => decodeProtobufSpans(x.body));
        // No OTEL_SERVICE_NAME: the resource attributes' service.name.
        expect(spans.every((s) => s.service === 'from-resource')).toBe(true);
        expectListingTree(spans);
        // The site got the client span's traceparent.
        const list = spans.find((s) => s.name === 'GET /calendar/events/v1/events')!;
        const m = TRACEPARENT.exec(sentTraceparents(proxy.requests)[0] ?? '');
        expect(m?.slice(1, 4)).toEqual([list.traceId, list.spanId, '01']);
      } finally {
        await receiver.close();
      }
    });

    it('exports nothing with OTEL_TRACES_SAMPLER=always_off, and tells the site "not sampled"', async () => {
      receiver = await startOtlpReceiver();
      try {
        const config = loadConfig({
          PORT: '0',
          CACHE_TTL_SECONDS: '0',
          LOG_LEVEL: 'warn',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin,
          OTEL_TRACES_SAMPLER: 'always_off',
        });
        const gateway = await startGateway(config, `${proxy.origin}/wp-json/`);
        proxy.requests.length = 0;
        expect((await gqlPost(gateway.url, LISTING)).errors).toBeUndefined();
        await gateway.close();
        expect(receiver.exports).toHaveLength(0);
        const sent = sentTraceparents(proxy.requests);
        expect(sent.length).toBeGreaterThan(0);
        expect(sent.every((t) => TRACEPARENT.exec(t ?? '')?.[3] === '00')).toBe(true);
      } finally {
        await receiver.close();
      }
    });

    it('logs an export the collector refused', async () => {
      receiver = await startOtlpReceiver(400);
      let lines = '';
      const logger = createLogger({
        level: 'warn',
        format: 'json',
        destination: { write: (l: string) => void (lines += l) },
      });
      try {
        const config = loadConfig({
          PORT: '0',
          CACHE_TTL_SECONDS: '0',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        });
        const gateway = await startGateway(config, `${proxy.origin}/wp-json/`, { logger });
        expect((await gqlPost(gateway.url, LISTING)).errors).toBeUndefined();
        await gateway.close();
        expect(receiver.exports.length).toBeGreaterThan(0);
        const failed = lines
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .filter((l) => l.msg === 'could not export spans');
        expect(failed.length).toBeGreaterThan(0);
        expect(failed[0]).toMatchObject({ url: `${receiver.origin}/v1/traces`, level: 40 });
        expect(failed[0].spans).toBeGreaterThan(0);
      } finally {
        await receiver.close();
      }
    });

    it('is off with OTEL_SDK_DISABLED=true even with an endpoint set', async () => {
      const config = loadConfig({
        PORT: '0',
        LOG_LEVEL: 'warn',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/',
        OTEL_SDK_DISABLED: 'true',
      });
      const gateway = await startGateway(config, `${proxy.origin}/wp-json/`);
      try {
        expect(gateway.tracing).toBeNull();
      } finally {
        await gateway.close();
      }
    });
  });
});
