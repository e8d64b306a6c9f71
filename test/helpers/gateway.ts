/**
 * End-to-end harness: the sandbox and the gateway on free loopback ports, a
 * GraphQL client speaking HTTP to the gateway, and upstream call counting from
 * the sandbox's request log.
 */
import { parseConfig, type ConfigInput } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import type { LogEntry } from '../../src/sandbox/requestlog.ts';
import type { RunningSandbox } from '../../src/sandbox/server.ts';
import type { SandboxOptionsInput } from '../../src/sandbox/options.ts';
import { newRouteLogFile } from './route-log.ts';
import { dependencyDepth, traceRequests } from './round-trips.ts';
import { testSandbox, type Who } from './sandbox.ts';

/**
 * The two kinds of real site: The Events Calendar 6.15+ serves calendar-core/v1
 * beside the legacy interface; older releases serve the legacy interface only.
 * Suites that hold on both run once per shape.
 */
export const SITE_SHAPES: { shape: string; sandbox: SandboxOptionsInput }[] = [
  { shape: 'with calendar-core/v1', sandbox: {} },
  { shape: 'without calendar-core/v1', sandbox: { disable: ['calendar-core/v1'] } },
];

export interface GqlResult<T = any> {
  status: number;
  data: T;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
}

export interface Harness {
  sandbox: RunningSandbox;
  gateway: Gateway;
  gql<T = any>(query: string, variables?: Record<string, unknown>, who?: Who, headers?: Record<string, string>): Promise<GqlResult<T>>;
  /** Upstream requests logged since the last `mark()`. */
  calls(): LogEntry[];
  mark(): void;
  /** Upstream round trips since mark: the dependency depth of the requests the gateway sent to the sandbox. */
  roundTrips(): number;
  auth(who: Exclude<Who, null>): string;
  close(): Promise<void>;
}

export async function startHarness(opts: { sandbox?: SandboxOptionsInput; config?: ConfigInput } = {}): Promise<Harness> {
  // Every harness logs what its sandbox served, for the route-coverage check.
  const sandbox = await testSandbox({ requestLog: newRouteLogFile(), ...opts.sandbox });
  // The upstream cache off unless a suite asks for it: suites count the upstream requests of
  // each operation and write to the sandbox directly (test/e2e/cache*.test.ts turn it on).
  const config = parseConfig({ port: 0, cache: { ttlSeconds: 0 }, ...(opts.config ?? {}) });
  const gateway = await startGateway(config, sandbox.url);
  let from = sandbox.log.entries.length;
  // Round trips are measured where the gateway sends its requests (round-trips.ts).
  const trace = traceRequests(sandbox.origin);
  let markedAt = performance.now();
  const auth = (who: Exclude<Who, null>) => {
    const u = sandbox.users.find((x) => x.login === who)!;
    return `Basic ${Buffer.from(`${u.login}:${u.appPassword}`).toString('base64')}`;
  };
  return {
    sandbox,
    gateway,
    auth,
    async gql(query, variables, who = null, headers = {}) {
      const h: Record<string, string> = { 'content-type': 'application/json', ...headers };
      if (who) h.authorization = auth(who);
      const res = await fetch(gateway.url, { method: 'POST', headers: h, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data: any; errors?: GqlResult['errors'] };
      return { status: res.status, data: body.data, errors: body.errors };
    },
    calls: () => sandbox.log.entries.slice(from),
    mark: () => {
      from = sandbox.log.entries.length;
      markedAt = performance.now();
    },
    roundTrips: () => dependencyDepth(trace.requests.filter((r) => r.created >= markedAt)),
    close: async () => {
      trace.stop();
      await gateway.close();
      await sandbox.close();
    },
  };
}
