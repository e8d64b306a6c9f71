/**
 * The observer (src/plugins/observability.ts) hands each request's record on
 * explicitly, with no AsyncLocalStorage: the lines it writes for a request
 * (an internal error the answer masks, an upstream attempt that failed) carry
 * the request's id and are redacted with the request's own secrets, while a
 * line written for no request carries neither.
 */
import { ApolloServer, HeaderMap } from '@apollo/server';
import { describe, expect, it } from 'vitest';
import { captureLog } from '../helpers/logs.ts';
import { createMetrics } from '../../src/metrics.ts';
import { createObserver, RequestRecord, type ObservedContext } from '../../src/plugins/observability.ts';
import { redactionPlugin } from '../../src/plugins/redaction.ts';
import { formatError, isInternal } from '../../src/server.ts';
import { GatewayError } from '../../src/errors.ts';
import { GraphQLError } from 'graphql';

const PASSWORD = 'caller pass 9876 5432';
const AUTHORIZATION = `Basic ${Buffer.from(`ann:${PASSWORD}`).toString('base64')}`;

describe('observer: lines of a request without AsyncLocalStorage', () => {
  it("logs a masked internal error with the request's id, redacted with the request's secrets", async () => {
    const out = captureLog('info');
    const observer = createObserver({
      log: out.logger,
      metrics: createMetrics({ maxOperations: 10 }),
      serviceAuth: false,
      isInternal: () => true,
    });
    const apollo = new ApolloServer<ObservedContext>({
      typeDefs: 'type Query { boom: String }',
      resolvers: {
        Query: {
          boom: async () => {
            await new Promise((r) => setTimeout(r, 5));
            throw new Error(`bug, with ${PASSWORD} in it`);
          },
        },
      },
      plugins: [observer.plugin, redactionPlugin()],
    });
    await apollo.start();
    const rec = new RequestRecord('req-7', 'authenticated');
    const headers = new HeaderMap([['authorization', AUTHORIZATION]]);
    const r = await apollo.executeOperation(
      { query: '{ boom }', http: { method: 'POST', headers, search: '', body: {} } },
      { contextValue: { tag: rec, upstream: { sent: 0 } } },
    );
    await apollo.stop();
    expect(r.body.kind === 'single' && r.body.singleResult.errors?.length).toBe(1);
    const line = out.lines().find((l) => l.msg === 'internal error');
    expect(line).toMatchObject({ reqId: 'req-7', level: 50, path: ['boom'] });
    expect(JSON.stringify(line)).toContain('bug, with [REDACTED] in it');
    expect(out.text()).not.toContain(PASSWORD);
  });

  it('logs a failed upstream attempt with the id of the request it was tagged with, and none untagged', () => {
    const out = captureLog('info');
    const observer = createObserver({
      log: out.logger,
      metrics: createMetrics({ maxOperations: 10 }),
      serviceAuth: false,
    });
    const rec = new RequestRecord('req-8', 'authenticated');
    rec.secrets = () => [PASSWORD];
    const failed = {
      method: 'GET',
      path: '/x',
      route: 'GET /x',
      status: 502,
      ms: 3,
      attempt: 1,
      error: 'UPSTREAM_ERROR',
      message: `echo ${PASSWORD}`,
    };
    observer.upstream({ ...failed, tag: rec });
    observer.upstream(failed);
    observer.upstream({ ...failed, status: 200, error: undefined, message: undefined, tag: rec });
    const lines = out.lines();
    expect(lines.map((l) => [l.msg, l.reqId, l.message])).toEqual([
      ['upstream request failed', 'req-8', 'echo [REDACTED]'],
      // Not tagged: no request id, and the request's secrets are not known to the line.
      ['upstream request failed', undefined, `echo ${PASSWORD}`],
    ]);
  });

  it('logs exactly the errors formatError masks', () => {
    const cases = [
      new GraphQLError('boom', { originalError: new TypeError('x is undefined') }),
      new GraphQLError('no such event', { originalError: new GatewayError('NOT_FOUND', 'no such event') }),
      new GraphQLError('Cannot query field "nope"', { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
    ];
    expect(cases.map(isInternal)).toEqual([true, false, false]);
    for (const e of cases) {
      const code = formatError({ message: e.message, extensions: e.extensions }, e).extensions?.code;
      expect(code === 'INTERNAL_SERVER_ERROR').toBe(isInternal(e));
    }
  });
});
