/**
 * Subscription test helpers: a gateway over a sandbox with subscriptions on a
 * short poll interval (the automation-a token, when asked, is taken from the
 * sandbox before the gateway starts), and subscribers over each transport
 * with graphql-sse's and graphql-ws's own clients, collecting what they get.
 */
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { parseConfig, type ConfigInput } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { extrasCredentials } from '../../packages/sandbox/src/namespaces/extras/index.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';
import { toSpecPath } from '../../src/upstream/names.ts';
import { newRouteLogFile } from '../helpers/route-log.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

export const POLL_SECONDS = 0.5;

export interface LiveHarness {
  sandbox: RunningSandbox;
  gateway: Gateway;
  rest: RestClient;
  /** The automation-a token the gateway polls with (when `automation`). */
  token: string | null;
  auth(who: Exclude<Who, null>): string;
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    who?: Who,
  ): Promise<{ status: number; data: T; errors?: any[] }>;
  /** The gateway's requests to the sandbox since `from` (an index of sandbox.log.entries), paths in spec names. */
  gatewayCalls(from?: number): { method: string; path: string; query: Record<string, unknown>; at: number }[];
  close(): Promise<void>;
}

export async function automationToken(sb: RunningSandbox): Promise<string> {
  const c = extrasCredentials(sb.site).zapier.find((z) => z.user === 'editor')!;
  const res = await fetch(
    `${sb.origin}/wp-json/calendar/automation-a/v1/authorize?consumer_id=${encodeURIComponent(c.consumerId)}&consumer_secret=${encodeURIComponent(c.consumerSecret)}`,
  );
  return ((await res.json()) as { access_token: string }).access_token;
}

export interface LiveOptions {
  sandbox?: SandboxOptionsInput;
  /** The gateway's settings; a function gets the sandbox (its users' application passwords). */
  config?: ConfigInput | ((sb: RunningSandbox) => ConfigInput);
  /** Poll automation-a's feeds with an editor's token. */
  automation?: boolean;
  /** Another harness's sandbox (not closed with this one). */
  sandboxInstance?: RunningSandbox;
}

/** `login:application password` of a sandbox user (SUBSCRIPTION_POLL_AUTH, SITEGRAPH_SERVICE_AUTH). */
export function userPass(sb: RunningSandbox, who: Exclude<Who, null>): string {
  const u = sb.users.find((x) => x.login === who)!;
  return `${u.login}:${u.appPassword}`;
}

export async function startLive(opts: LiveOptions = {}): Promise<LiveHarness> {
  const sandbox = opts.sandboxInstance ?? (await testSandbox({ requestLog: newRouteLogFile(), ...opts.sandbox }));
  const token = opts.automation ? await automationToken(sandbox) : null;
  const given = typeof opts.config === 'function' ? opts.config(sandbox) : (opts.config ?? {});
  const config = parseConfig({
    port: 0,
    cache: { ttlSeconds: 0 },
    ...given,
    subscriptions: {
      pollSeconds: POLL_SECONDS,
      ...(token ? { automationToken: token } : {}),
      ...(given.subscriptions ?? {}),
    },
  });
  const gateway = await startGateway(config, sandbox.url);
  const auth = (who: Exclude<Who, null>) => {
    const u = sandbox.users.find((x) => x.login === who)!;
    return `Basic ${Buffer.from(`${u.login}:${u.appPassword}`).toString('base64')}`;
  };
  const own = !opts.sandboxInstance;
  return {
    sandbox,
    gateway,
    rest: restClient(sandbox),
    token,
    auth,
    async gql(query, variables, who = null) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (who) headers.authorization = auth(who);
      const res = await fetch(gateway.url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data: any; errors?: any[] };
      return { status: res.status, data: body.data, errors: body.errors };
    },
    gatewayCalls: (from = 0) =>
      sandbox.log.entries
        .slice(from)
        .filter((e) => e.agent?.startsWith('sitegraph'))
        .map((e) => ({ method: e.method, path: toSpecPath(e.path), query: e.query, at: e.at })),
    async close() {
      await gateway.close();
      if (own) await sandbox.close();
    },
  };
}

/** What one subscriber received. */
export interface Feed<T = any> {
  /** Every result (`next`), in order. */
  readonly results: { at: number; result: { data?: T; errors?: any[] } }[];
  /** The error the subscription ended with (graphql-ws `error`, a transport failure), if any. */
  readonly failure: unknown;
  /** True once it completed or failed. */
  readonly ended: boolean;
  /** Resolves with the first result (from now on, or already received) that `pred` accepts. */
  next(pred: (r: { data?: T; errors?: any[] }) => boolean, ms?: number): Promise<{ data?: T; errors?: any[] }>;
  /** Resolves when the subscription has ended. */
  end(ms?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Collects what an iterator of results yields (a graphql-sse or graphql-ws client's `iterate`). */
export function feed<T>(iterator: AsyncIterableIterator<any>, dispose: () => void = () => {}): Feed<T> {
  const results: Feed<T>['results'] = [];
  let failure: unknown = null;
  let ended = false;
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  void (async () => {
    try {
      for await (const r of iterator) {
        results.push({ at: Date.now(), result: r });
        wake();
      }
    } catch (err) {
      failure = err;
    } finally {
      ended = true;
      wake();
    }
  })();
  const wait = (check: () => boolean, ms: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => {
        waiters.delete(w);
        reject(
          new Error(
            `timed out after ${ms} ms waiting for ${what}; received ${JSON.stringify(results.map((x) => x.result)).slice(0, 1500)}`,
          ),
        );
      }, ms);
      const w = () => {
        if (!check()) return;
        clearTimeout(timer);
        waiters.delete(w);
        resolve();
      };
      waiters.add(w);
    });
  return {
    results,
    get failure() {
      return failure;
    },
    get ended() {
      return ended;
    },
    async next(pred, ms = 10_000) {
      let found: { data?: T; errors?: any[] } | undefined;
      await wait(
        () => (found = results.map((x) => x.result).find(pred)) !== undefined || ended,
        ms,
        'a matching result',
      );
      if (!found)
        throw new Error(
          `the subscription ended first (${String((failure as Error)?.message ?? failure)}); received ${JSON.stringify(results.map((x) => x.result)).slice(0, 1500)}`,
        );
      return found;
    },
    end: (ms = 10_000) => wait(() => ended, ms, 'the end of the subscription'),
    async stop() {
      await iterator.return?.();
      dispose();
    },
  };
}

export interface SubscribeOptions {
  variables?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** A subscription over GraphQL over SSE (graphql-sse's client), distinct connections or one for all. */
export function sse<T = any>(url: string, query: string, opts: SubscribeOptions & { single?: boolean } = {}): Feed<T> {
  const client = createSseClient({
    url,
    headers: opts.headers ?? {},
    singleConnection: opts.single ?? false,
    retryAttempts: 0,
  });
  const it = client.iterate({ query, variables: opts.variables ?? {} });
  return feed<T>(it as AsyncIterableIterator<any>, () => client.dispose());
}

/** A WebSocket client (graphql-ws over `ws`), for several subscriptions on one connection. */
export function wsClient(
  url: string,
  connectionParams: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): WsClient {
  const wsUrl = url.replace(/^http/, 'ws');
  class Socket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  return createWsClient({ url: wsUrl, webSocketImpl: Socket, connectionParams, retryAttempts: 0, lazy: true });
}

/** A subscription over the graphql-transport-ws protocol; the client is closed when it stops, unless given. */
export function ws<T = any>(
  url: string,
  query: string,
  opts: SubscribeOptions & { client?: WsClient; connectionParams?: Record<string, unknown> } = {},
): Feed<T> {
  const client = opts.client ?? wsClient(url, opts.connectionParams ?? {}, opts.headers ?? {});
  const it = client.iterate({ query, variables: opts.variables ?? {} });
  return feed<T>(it as AsyncIterableIterator<any>, () => {
    if (!opts.client) void client.dispose();
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The value of a gateway metric, summed over its labels (those matching `labels`, when given). */
export async function metric(gateway: Gateway, name: string, labels: Record<string, string> = {}): Promise<number> {
  return [...(await metricBy(gateway, name, '', labels)).values()].reduce((sum, v) => sum + v, 0);
}

/** The values of a gateway metric by one label (summed over the others), of the series matching `where` (a histogram's own series only). */
async function metricBy(
  gateway: Gateway,
  name: string,
  label: string,
  where: Record<string, string> = {},
): Promise<Map<string, number>> {
  const m = await gateway.metrics.registry.getSingleMetric(name)?.get();
  const out = new Map<string, number>();
  for (const v of m?.values ?? []) {
    const n = (v as { metricName?: string }).metricName;
    if (n && n !== name) continue;
    const labels = v.labels as Record<string, unknown>;
    if (!Object.entries(where).every(([k, x]) => String(labels[k]) === x)) continue;
    const key = label ? String(labels[label]) : '';
    out.set(key, (out.get(key) ?? 0) + v.value);
  }
  return out;
}

/**
 * Waits until the gateway holds at least `n` subscriptions, then `settleMs` (by default two poll
 * intervals): a change made before a source's first poll is where it starts from, not a change.
 * On a busy machine a poll can outlast its interval, so it then also waits (up to `ms`) until
 * every source this gateway polls (holds the lease of) has finished two polls since the
 * subscriptions were held: the second of them began after they were, so its baseline is in place.
 */
export async function subscribed(
  gateway: Gateway,
  n: number,
  settleMs = 2 * POLL_SECONDS * 1000 + 200,
  ms = 10_000,
): Promise<void> {
  const until = Date.now() + ms;
  while ((await metric(gateway, 'sitegraph_subscriptions_active')) < n) {
    if (Date.now() > until) throw new Error(`fewer than ${n} subscriptions after ${ms} ms`);
    await sleep(20);
  }
  const polls = () => metricBy(gateway, 'sitegraph_subscription_polls_total', 'source', { outcome: 'ok' });
  const before = await polls();
  await sleep(settleMs);
  if (settleMs === 0) return;
  const settled = Date.now() + ms;
  for (;;) {
    const now = await polls();
    const held = await metricBy(gateway, 'sitegraph_subscription_lease_held', 'source');
    const behind = [...held].filter(
      ([source, on]) => on === 1 && (now.get(source) ?? 0) < (before.get(source) ?? 0) + 2,
    );
    if (behind.length === 0) return;
    if (Date.now() > settled)
      throw new Error(
        `sources ${behind.map(([s]) => s).join(', ')} did not finish two polls within ${ms} ms of the subscriptions`,
      );
    await sleep(50);
  }
}

/** `Y-m-d H:i:s`, `days` from now at `hour` UTC (the sandbox runs in UTC unless told otherwise). */
export function at(days: number, hour = 10): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;
}
