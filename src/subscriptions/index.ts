/**
 * Subscriptions, wired once per gateway (docs/subscriptions.md; server.ts
 * makes it beside Apollo):
 *
 *   writes through the gateway ──(sink)──┐
 *   polls of the site (poller.ts, one     ├─▶ bus.ts (Redis pub/sub, or in process)
 *   instance per source: lease)  ─────────┘            │ every instance
 *                                                      ▼
 *   hub.ts: ledger (each change once) -> per credential: one re-read, filters -> subscribers
 *                                                      │
 *   sse.ts (graphql-sse) / ws.ts (graphql-ws) ◀────────┘  operation.ts: the operation pipeline of /graphql
 *
 * The transports serve the main graph at /graphql and each other graph given (the WPGraphQL-compatible graph) at its
 * path, all on this one hub: a change is polled once and re-read once per credential, whichever graphs listen.
 */
import { getEventListeners, setMaxListeners } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { UpstreamCache } from '../cache/upstream-cache.ts';
import type { Config } from '../config.ts';
import type { Context, ContextInit } from '../context.ts';
import { GatewayError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Pipeline } from '../pipeline/index.ts';
import type { PersistedDocuments } from '../plugins/safelist.ts';
import type { SiteState } from '../site.ts';
import type { SharedRedis } from '../store/redis.ts';
import { memoryBus, redisBus } from './bus.ts';
import { SubscriptionContext, type LiveSession } from './context.ts';
import { Hub, type Connection, type Credential } from './hub.ts';
import { createSubscriptionMetrics } from './metrics.ts';
import {
  createOperations,
  mainGraph,
  otherGraph,
  type Caller,
  type OtherGraph,
  type SubscriptionGraph,
} from './operation.ts';
import { startPoller } from './poller.ts';
import { automationA, automationB } from './sources/automation.ts';
import { eventsModified } from './sources/events-modified.ts';
import { eventsWindow } from './sources/events-window.ts';
import { postsModified } from './sources/posts-modified.ts';
import { isoNow, utcSecond } from './sources/source.ts';
import { sseTransport } from './sse.ts';
import type { ChangeSink } from '../context.ts';
import type { Change, Topic } from './types.ts';
import { wsTransport } from './ws.ts';
import { calendarPath } from '../namespaces/calendar/paths.ts';
import { postPath } from '../namespaces/posts/requests.ts';

export interface SubscriptionsDeps {
  config: Config;
  /** The operation pipeline /graphql runs (src/pipeline/): each subscription goes through its stages. */
  pipeline: Pipeline;
  site: SiteState;
  registry: Registry;
  log: Logger;
  redis: SharedRedis | undefined;
  /** The persisted documents, which SSE looks up before graphql-sse asks for a query (the pipeline then checks). */
  persisted: PersistedDocuments | null;
  /** The upstream cache: changes made on the site invalidate what they changed. */
  cache: UpstreamCache | undefined;
  /** Graphs served beside the main one, each at its path (the WPGraphQL-compatible graph). */
  graphs?: readonly OtherGraph[];
}

export interface Subscriptions {
  /** For every context: writes through the gateway are published at once. */
  readonly sink: ChangeSink;
  /** Whether a request to `/graphql` or another graph's path is a GraphQL-over-SSE one (then `serve` it). */
  accepts(req: IncomingMessage, url: URL): boolean;
  serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
  /** WebSocket upgrades of the server's `/graphql` and the other graphs' paths. */
  attach(http: Server): void;
  readonly hub: Hub;
  /** Runs a poll round now (tests). */
  poll(): Promise<void>;
  /** Listeners on the shutdown signal every poll, re-read and subscription shares (a gauge: it must not grow). */
  listeners(): number;
  /** Completes every subscription, stops polling, closes the streams and sockets. */
  close(): Promise<void>;
}

/** `user:application-password` -> a Basic Authorization value. */
const basic = (userPass: string) => `Basic ${Buffer.from(userPass, 'utf8').toString('base64')}`;

/**
 * The context a group of subscribers shares for one batch: each operation would have had its own
 * budget, so the group gets theirs together (at most a hundredfold). Every `*udget` setting scales,
 * whatever budgets the session knows.
 */
function sharedBudget(config: Config, subscribers: number): Config {
  const k = Math.min(Math.max(subscribers, 1), 100);
  if (k === 1) return config;
  const session = Object.fromEntries(
    Object.entries(config.session).map(([key, v]) => [key, /udget$/i.test(key) && typeof v === 'number' ? v * k : v]),
  );
  return { ...config, session: session as Config['session'] };
}

/** The path whose cache family a change touches (cache/policy.ts). */
const pathOf = (c: Change) =>
  c.topic === 'posts' ? postPath(c.id) : calendarPath('legacy', 'events', { id: c.id }).path;

export function createSubscriptions(deps: SubscriptionsDeps): Subscriptions {
  const { config, pipeline, site, log } = deps;
  const settings = config.subscriptions;
  const metrics = createSubscriptionMetrics(deps.registry);
  const bus = deps.redis ? redisBus(deps.redis, { leaseMs: settings.leaseSeconds * 1000, log }) : memoryBus();
  const shutdown = new AbortController();
  // Every poll's and re-read's request under way listens on it (their sessions link to it only
  // then: upstream/session.ts), so its count follows the requests in flight, bounded by their caps.
  setMaxListeners(0, shutdown.signal);
  const gone = () => new GatewayError('UPSTREAM_UNAVAILABLE', 'The gateway is shutting down.');

  // The pipeline's context stage, on the shutdown signal (a subscription outlives any request).
  const contextOf = (
    siteInfo: ContextInit['site'],
    credential: Pick<Credential, 'authorization' | 'headers'>,
    cfg = config,
  ): Context =>
    pipeline.context({
      config: cfg,
      site: siteInfo,
      ...(credential.authorization ? { authorization: credential.authorization } : {}),
      headers: credential.headers,
      signal: shutdown.signal,
    });

  const hub = new Hub({
    settings,
    metrics,
    log,
    contextFor: async (credential, subscribers) =>
      contextOf(await site.current(), credential, sharedBudget(config, subscribers)),
    invalidate: (c) => void deps.cache?.invalidate({ path: pathOf(c) }).catch(() => {}),
  });
  bus.listen((batch) => void hub.receive(batch));

  const pollCredential = { authorization: settings.pollAuth ? basic(settings.pollAuth) : undefined, headers: {} };
  const poller = startPoller({
    bus,
    sources: [eventsModified, eventsWindow, automationA, automationB, postsModified],
    settings,
    site,
    ledger: hub.ledger,
    metrics,
    log,
    pollContext: () => contextOf(site.known ?? gone(), pollCredential),
    interested: (topic: Topic) => hub.interested(topic),
  });

  const operations = createOperations(pipeline, config);
  const graphs = new Map<string, SubscriptionGraph>(
    [mainGraph(pipeline), ...(deps.graphs ?? []).map((g) => otherGraph(pipeline, g))].map((g) => [g.path, g]),
  );
  /** One subscription's context, on its caller's credential, until its first change. */
  const subscriptionContext = (caller: Caller, connection: Connection): SubscriptionContext => {
    // Until the site's index is read, fields that need the site fail with why (as a query's do).
    const initial = contextOf(
      site.known ?? new GatewayError('UPSTREAM_UNAVAILABLE', "The site's REST index could not be read yet."),
      caller.credential,
    );
    const live: LiveSession = {
      credential: caller.credential,
      open: (topic, filter, ctx) =>
        hub.open({ topic, filter, credential: caller.credential, connection, caller: caller.caller }, ctx),
    };
    return new SubscriptionContext(initial, live);
  };
  const sse = sseTransport({
    config,
    hub,
    operations,
    persisted: deps.persisted,
    pipeline,
    log,
    graphs,
    context: subscriptionContext,
  });
  const ws = wsTransport({ config, hub, operations, pipeline, log, graphs, context: subscriptionContext });

  const sink: ChangeSink = {
    written(kind, id, change, model, opts) {
      const topic: Topic | null = kind === 'events' ? 'events' : kind === 'posts' ? 'posts' : null;
      if (!topic) return;
      const modified = change === 'DELETED' ? null : utcSecond(model?.modifiedAtUtc);
      const c: Change = {
        topic,
        id,
        kind: change,
        modified,
        at: modified ?? isoNow(Date.now()),
        source: 'GATEWAY',
        wasPublic: hub.wasPublic(topic, id),
        ...(opts?.merge ? { merge: true } : {}),
      };
      void bus.publish({ origin: bus.instance, at: Date.now(), changes: [c] });
    },
  };

  return {
    sink,
    accepts: sse.accepts,
    serve: sse.serve,
    attach: ws.attach,
    hub,
    poll: () => poller.tick(),
    listeners: () => getEventListeners(shutdown.signal, 'abort').length,
    async close() {
      // Subscriptions complete (after what is queued); a poll or a re-read still running is cut short.
      hub.close();
      shutdown.abort(gone());
      await poller.close();
      await Promise.all([sse.close(), ws.close()]);
      await bus.close();
    },
  };
}
