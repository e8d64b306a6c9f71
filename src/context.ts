/**
 * Per-request context: the operation's upstream session (the caller's
 * Authorization, or the service credential, behind the one seam that applies
 * the route gate, concurrency cap, budget, deadline and cancellation:
 * upstream/session.ts), the site as discovered, and fresh loaders. Nothing
 * here outlives the request.
 */
import type { UpstreamCache } from './cache/upstream-cache.ts';
import type { Config } from './config.ts';
import { TotalHints } from './paging/hints.ts';
import { createLoaders, type Loaders } from './loaders/index.ts';
import type { UpstreamClient } from './upstream/client.ts';
import type { SiteInfo } from './upstream/discovery.ts';
import type { GatewayError } from './errors.ts';
import { createOperationSession, type OperationSession } from './upstream/session.ts';
import { createWriteLocks, type WriteLocks } from './store/lock.ts';
import { carriesSecret } from './cache/policy.ts';

/** What a write did to an object, as subscriptions tell it (the graph's `ChangeKind`). */
export type ChangeKind = 'CREATED' | 'UPDATED' | 'CANCELED' | 'DELETED';

/** The few fields of a written object the sink reads (a calendar model or a post model). */
export interface WrittenObject {
  databaseId: number;
  status?: string | null;
  modifiedAtUtc?: string | null;
  passwordProtected?: boolean | null;
}

/**
 * Told of every write the gateway made that the site took (src/writes/engine.ts, the post
 * writes, the automation actions), so subscribers hear of it at once rather than at the next
 * poll. `kind` is the write's kind of object (`events`, `venues`, `organizers`, `posts`): only
 * events and posts are followed. Never throws, never waits. The engine tells a write at the site's
 * first answer; a later state of the same write (a follow-up, a repair) comes with `merge`: the
 * subscriptions' ledger records it, so no poll delivers it again, and nobody is told twice.
 */
export interface ChangeSink {
  written(kind: string, id: number, change: ChangeKind, model?: WrittenObject | null, opts?: { merge?: boolean }): void;
}

export interface Context {
  config: Config;
  /**
   * The site as discovered. Reading it while the site's index has never been
   * read throws UPSTREAM_UNAVAILABLE, so exactly the fields that need the site
   * fail, and gateway-only fields (`__typename`, introspection) still answer.
   */
  readonly site: SiteInfo;
  /** Re-reads the root index (Mutation.refreshSite). */
  refreshSite: () => Promise<SiteInfo>;
  upstream: OperationSession;
  readonly loaders: Loaders;
  /** Lists' totals seen by earlier operations of this gateway, to plan page requests (paging/hints.ts). */
  readonly totals: TotalHints;
  /**
   * A request header of the caller (lower-case name), for credentials the graph
   * accepts as headers (automation tokens). Never logged.
   */
  header: (name: string) => string | undefined;
  /** Whom this operation is for in logs: the request's record (plugins/observability.ts), when it has one. */
  readonly tag: object | undefined;
  /** The gateway's write locks: one update of an object at a time (store/lock.ts). */
  readonly locks: WriteLocks;
  /**
   * Told of every write the site took, so subscribers hear of it at once (src/subscriptions/); unset: no subscriptions.
   */
  readonly changes: ChangeSink | undefined;
}

export interface ContextInit {
  config: Config;
  client: UpstreamClient;
  /** The site, or why it is not known (then fields that need it fail with this error). */
  site: SiteInfo | GatewayError;
  /**
   * The namespaces the spec indexes (namespaces/catalog.ts), for naming one the site lacks (SessionPolicy.namespaces).
   */
  namespaces?: readonly string[];
  authorization?: string | undefined;
  refreshSite?: () => Promise<SiteInfo>;
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** Aborted when the client disconnects or the gateway shuts down (server.ts). */
  signal?: AbortSignal;
  /** The gateway's upstream GET cache; without, nothing is cached. */
  cache?: UpstreamCache;
  /** The gateway's list-total hints; without, this operation plans from nothing. */
  totals?: TotalHints;
  /**
   * Whom the operation's upstream requests are for, in their attempt events (the request's log record,
   * plugins/observability.ts).
   */
  tag?: object;
  /** The gateway's write locks; without, this process's own (in memory). */
  locks?: WriteLocks;
  /** Where writes are published for subscribers (src/subscriptions/); without, nowhere. */
  changes?: ChangeSink;
}

/** The write locks of contexts made without a gateway's: one set per process. */
const processLocks = createWriteLocks();

export function createContext(init: ContextInit): Context {
  const { config, client, site } = init;
  const upstream = createOperationSession(client.session(init.authorization || null), {
    site,
    concurrency: config.limits.upstreamConcurrency,
    budget: config.session.budget,
    anonymousBudget: config.session.anonymousBudget,
    deadlineMs: config.session.deadlineMs,
    ...(init.namespaces ? { namespaces: init.namespaces } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
    ...(init.cache ? { cache: init.cache } : {}),
    isPrivate: carriesSecret,
    ...(init.tag ? { tag: init.tag } : {}),
  });
  return new RequestContext(
    config,
    site,
    upstream,
    init.refreshSite,
    init.headers ?? {},
    init.totals ?? new TotalHints(),
    init.tag,
    init.locks ?? processLocks,
    init.changes,
  );
}

/**
 * A class so that `site` and `loaders` are getters on the prototype: Apollo
 * copies the context's own properties (`Object.assign` onto an object of the
 * same prototype), which would call getters defined on the object itself, and
 * so fail every operation while the site is unknown.
 */
class RequestContext implements Context {
  refreshSite: () => Promise<SiteInfo>;
  /** Built on first use: building them reads the site. */
  private builtLoaders: Loaders | null = null;

  constructor(
    readonly config: Config,
    private readonly discovered: SiteInfo | GatewayError,
    readonly upstream: OperationSession,
    refreshSite: (() => Promise<SiteInfo>) | undefined,
    private readonly headers: Readonly<Record<string, string | string[] | undefined>>,
    readonly totals: TotalHints,
    readonly tag: object | undefined,
    readonly locks: WriteLocks,
    readonly changes: ChangeSink | undefined,
  ) {
    this.refreshSite = refreshSite ?? (async () => this.site);
  }

  get site(): SiteInfo {
    if (this.discovered instanceof Error) throw this.discovered;
    return this.discovered;
  }

  get loaders(): Loaders {
    return (this.builtLoaders ??= createLoaders(this.upstream, this.site, this.totals));
  }

  header = (name: string): string | undefined => {
    const v = this.headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
}
