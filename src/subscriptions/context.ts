/**
 * The context of one subscription (docs/subscriptions.md "Who sees what").
 * graphql-js executes a subscription's selection once per change with the
 * context it was given when the subscription started; here that context
 * stands in for the context of the change being delivered: the one its
 * credential's group shares for that batch (hub.ts), with that batch's
 * session and loaders. The subscription field's `resolve` switches it
 * (src/resolvers/subscriptions.ts); changes of one subscription are executed
 * one after another, so it never serves two at once.
 */
import type { Context } from '../context.ts';
import type { Config } from '../config.ts';
import type { Loaders } from '../loaders/index.ts';
import type { TotalHints } from '../paging/hints.ts';
import type { SiteInfo } from '../upstream/discovery.ts';
import type { OperationSession } from '../upstream/session.ts';
import type { WriteLocks } from '../store/lock.ts';
import type { ObjectFilter } from './filter.ts';
import type { Credential, Delivery } from './hub.ts';
import type { ChangeSink } from '../context.ts';
import type { Topic } from './types.ts';

/** What the subscription resolvers ask of the transport that started the operation. */
export interface LiveSession {
  /** The credential the site sees for this operation. */
  readonly credential: Credential;
  /** Starts a subscription of `topic` for this operation's caller (limits, credential check). */
  open(topic: Topic, filter: ObjectFilter<never>, ctx: Context): Promise<AsyncIterableIterator<Delivery>>;
}

export class SubscriptionContext implements Context {
  // graphql-sse and graphql-ws type an operation's context as a plain record.
  [key: string]: unknown;
  [key: symbol]: unknown;
  #current: Context;

  constructor(
    initial: Context,
    readonly live: LiveSession,
  ) {
    this.#current = initial;
  }

  /** The context the next fields resolve in: a delivery's. */
  use(ctx: Context): void {
    this.#current = ctx;
  }

  get config(): Config {
    return this.#current.config;
  }
  get site(): SiteInfo {
    return this.#current.site;
  }
  get upstream(): OperationSession {
    return this.#current.upstream;
  }
  get loaders(): Loaders {
    return this.#current.loaders;
  }
  get totals(): TotalHints {
    return this.#current.totals;
  }
  get tag(): object | undefined {
    return this.#current.tag;
  }
  get locks(): WriteLocks {
    return this.#current.locks;
  }
  get changes(): ChangeSink | undefined {
    return this.#current.changes;
  }
  refreshSite = () => this.#current.refreshSite();
  header = (name: string) => this.#current.header(name);
}
