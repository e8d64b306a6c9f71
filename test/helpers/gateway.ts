/**
 * End-to-end harness: the sandbox and the gateway on free loopback ports, a
 * GraphQL client speaking HTTP to the gateway, and upstream call counting from
 * the sandbox's request log.
 */
import { parseConfig, type ConfigInput } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import type { LogEntry } from '../../packages/sandbox/src/requestlog.ts';
import { toSpecPath } from '../../src/upstream/names.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';
import { newRouteLogFile } from './route-log.ts';
import { dependencyDepth, traceRequests } from './round-trips.ts';
import { testSandbox, type Who } from './sandbox.ts';

/**
 * The kinds of real site the sandbox acts as (docs/real-sites.md): The Events
 * Calendar 6.15 serves calendar-core/v1 beside the legacy interface, each
 * declaring its own arguments; 5.7 serves the legacy interface only, with
 * fewer arguments; 6.17 declares every argument of the spec; and a site may
 * serve them under the plugins' own namespace names (tribe/events/v1, tec/v1,
 * wp/v2, yoast/v1). Read and write suites run once per shape.
 */
export interface ReleaseShape {
  shape: string;
  release: '5.7' | '6.15' | '6.17';
  names: 'spec' | 'plugin';
  hasCore: boolean;
  sandbox: SandboxOptionsInput;
}

export const RELEASE_SHAPES: ReleaseShape[] = [
  { shape: 'TEC 6.15, both interfaces', release: '6.15', names: 'spec', hasCore: true, sandbox: { tec: '6.15' } },
  { shape: 'TEC 5.7, legacy only', release: '5.7', names: 'spec', hasCore: false, sandbox: { tec: '5.7' } },
  {
    shape: 'TEC 6.17, every argument declared',
    release: '6.17',
    names: 'spec',
    hasCore: true,
    sandbox: { tec: '6.17' },
  },
  {
    shape: "TEC 6.15 under the plugins' names",
    release: '6.15',
    names: 'plugin',
    hasCore: true,
    sandbox: { tec: '6.15', names: 'plugin' },
  },
];

/** The shapes suites that hold on every kind of site run on. */
export const SITE_SHAPES = RELEASE_SHAPES;

export interface GqlResult<T = any> {
  status: number;
  data: T;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
}

export interface Harness {
  sandbox: RunningSandbox;
  gateway: Gateway;
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    who?: Who,
    headers?: Record<string, string>,
  ): Promise<GqlResult<T>>;
  /** Upstream requests logged since the last `mark()`, their paths and routes in the spec's names (`sitePath`: as sent). */
  calls(): (LogEntry & { sitePath: string })[];
  mark(): void;
  /** Upstream round trips since mark: the dependency depth of the requests the gateway sent to the sandbox. */
  roundTrips(): number;
  auth(who: Exclude<Who, null>): string;
  close(): Promise<void>;
}

/** A log entry with its path and route in the spec's names, and the path as the site was asked (`sitePath`). */
function asSpec(e: LogEntry): LogEntry & { sitePath: string } {
  return {
    ...e,
    sitePath: e.path,
    path: toSpecPath(e.path),
    ...(e.route ? { route: toSpecPath(e.route) } : {}),
    ...(e.batch
      ? {
          batch: e.batch.map((b) => ({
            ...b,
            path: toSpecPath(b.path),
            ...(b.route ? { route: toSpecPath(b.route) } : {}),
          })),
        }
      : {}),
  };
}

export async function startHarness(
  opts: { sandbox?: SandboxOptionsInput; config?: ConfigInput } = {},
): Promise<Harness> {
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
    // Paths as the spec names them, whichever names the site serves (a site under the plugins' names logs /tribe/events/v1/...).
    calls: () => sandbox.log.entries.slice(from).map(asSpec),
    mark: () => {
      from = sandbox.log.entries.length;
      markedAt = performance.now();
    },
    roundTrips: () => dependencyDepth(trace.requests.filter((r) => r.created >= markedAt)),
    close: async () => {
      trace.stop();
      await gateway.close();
      await sandbox.close();
      // An argument the route does not declare, sent to this sandbox, fails the file: test/setup-file.ts.
    },
  };
}
