/**
 * The OTEL_* variables as the gateway reads them (config.ts `tracing`,
 * telemetry.ts `tracingPlan`): off when unset, the spec's endpoint rules, and
 * a clear ConfigError naming the variable for every bad value.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { parseKeyValues } from '../../src/config.ts';
import { tracingPlan } from '../../src/telemetry.ts';

const plan = (env: Record<string, string>) => tracingPlan(loadConfig(env).tracing);

describe('OTEL_* settings', () => {
  it('is off when nothing is set, or when the exporter is none or the SDK disabled', () => {
    expect(plan({})).toBeNull();
    expect(plan({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBeNull();
    expect(plan({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBeNull();
    expect(plan({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBeNull();
  });

  it('turns OTLP on with an endpoint alone, appending /v1/traces to the base URL', () => {
    expect(plan({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toMatchObject({
      exporters: ['otlp'],
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      sampler: 'parentbased_always_on',
      ratio: 1,
      resource: { 'service.name': 'sitegraph' },
    });
  });

  it('uses the traces endpoint and protocol as given, over the general ones', () => {
    const p = plan({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://general:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp/v1/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'a=1,b=2',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'b=3',
    });
    expect(p).toMatchObject({
      url: 'https://traces.example/otlp/v1/traces',
      protocol: 'http/json',
      headers: { a: '1', b: '3' },
    });
  });

  it('defaults to the spec URL when the exporter is named without an endpoint, and takes console', () => {
    expect(plan({ OTEL_TRACES_EXPORTER: 'otlp' })?.url).toBe('http://localhost:4318/v1/traces');
    expect(plan({ OTEL_TRACES_EXPORTER: 'console' })?.exporters).toEqual(['console']);
    expect(plan({ OTEL_TRACES_EXPORTER: 'otlp,console' })?.exporters).toEqual(['otlp', 'console']);
  });

  it('takes the service name from OTEL_SERVICE_NAME over OTEL_RESOURCE_ATTRIBUTES, and the sampler ratio', () => {
    const p = plan({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_SERVICE_NAME: 'gw',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=other,team=web%20platform',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(p).toMatchObject({
      resource: { 'service.name': 'gw', team: 'web platform' },
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
    });
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /OTEL_EXPORTER_OTLP_PROTOCOL.*gRPC is not supported/],
    [{ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/xml' }, /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL/],
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, /OTEL_TRACES_EXPORTER.*otlp, console or none/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /OTEL_EXPORTER_OTLP_ENDPOINT/],
    [{ OTEL_EXPORTER_OTLP_HEADERS: 'api-key' }, /OTEL_EXPORTER_OTLP_HEADERS.*key=value/],
    [{ OTEL_RESOURCE_ATTRIBUTES: 'a=%E0%A4%A' }, /OTEL_RESOURCE_ATTRIBUTES/],
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, /OTEL_TRACES_SAMPLER/],
    [{ OTEL_TRACES_SAMPLER_ARG: '1.5' }, /OTEL_TRACES_SAMPLER_ARG/],
    [{ OTEL_TRACES_SAMPLER_ARG: 'half' }, /OTEL_TRACES_SAMPLER_ARG/],
    [{ OTEL_SDK_DISABLED: 'maybe' }, /OTEL_SDK_DISABLED/],
  ])('refuses %o with a ConfigError naming it', (env, message) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
  });

  it('parses key=value lists as the OTEL variables write them', () => {
    expect(parseKeyValues('')).toEqual({});
    expect(parseKeyValues(' a = 1 , b=x%3Dy ,')).toEqual({ a: '1', b: 'x=y' });
    expect(parseKeyValues('=1')).toBeNull();
    expect(parseKeyValues('novalue')).toBeNull();
  });
});
