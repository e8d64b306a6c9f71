/**
 * Polls the site for changes made on it (docs/subscriptions.md "Where changes
 * come from"): one runner per source; a runner polls only while this instance
 * has subscribers of the source's topic and holds the source's lease (always,
 * without Redis). So the site sees one poll per source and interval whatever
 * the number of subscribers and instances.
 *
 * Each tick (every poll interval, or a third of the lease when that is
 * shorter) a runner that wants to poll takes or renews its lease; when it has
 * just taken it, it continues from the state the previous holder stored. A
 * poll's changes not yet delivered (ledger.ts) and its new state are committed
 * together, fenced by the lease (bus.ts). A runner with no subscriber left
 * gives its lease up, so an instance that has some takes over at its next tick.
 *
 * A state older than a few intervals (nobody subscribed for a while, or the
 * site was unreachable) is not continued: the next poll is a baseline, so
 * subscribers never receive a burst of old changes.
 */
import type { Context } from '../context.ts';
import type { Logger } from '../log.ts';
import type { SiteState } from '../site.ts';
import type { Bus, Lease, Stored } from './bus.ts';
import type { Ledger } from './ledger.ts';
import type { SubscriptionMetrics } from './metrics.ts';
import type { Source, SubscriptionSettings } from './sources/source.ts';
import type { Topic } from './types.ts';

export interface PollerDeps {
  bus: Bus;
  sources: readonly Source[];
  settings: SubscriptionSettings;
  site: SiteState;
  ledger: Ledger;
  metrics: SubscriptionMetrics;
  log: Logger;
  /** A fresh context with the poll's credential, for one poll. */
  pollContext(): Context;
  /** Whether this instance has subscribers of a topic. */
  interested(topic: Topic): boolean;
}

export interface Poller {
  /** Runs every runner's tick now (tests; the timer does it otherwise). */
  tick(): Promise<void>;
  close(): Promise<void>;
}

class Runner {
  readonly lease: Lease;
  #stored: Stored | null = null;
  /**
   * The last state this runner committed: where it goes on when it takes the lease back
   * and the store holds none (a Redis that restarted empty), rather than starting a
   * baseline that would take the changes made meanwhile as the starting point.
   */
  #mine: Stored | null = null;
  #lastPoll = 0;
  #running: Promise<void> | null = null;

  constructor(
    readonly source: Source,
    private readonly deps: PollerDeps,
  ) {
    this.lease = deps.bus.lease(source.name);
  }

  get pollMs(): number {
    return this.deps.settings.pollSeconds * 1000;
  }

  /** A state no older than this is continued; older ones start a baseline. */
  get staleMs(): number {
    return this.deps.settings.leaseSeconds * 1000 + 3 * this.pollMs + 5_000;
  }

  tick(now: number): Promise<void> {
    this.#running ??= this.#tick(now).finally(() => (this.#running = null));
    return this.#running;
  }

  async #tick(now: number): Promise<void> {
    const { source, deps } = this;
    const site = deps.site.known;
    const wanted = site !== null && source.applies(site, deps.settings) && deps.interested(source.topic);
    if (!wanted) {
      if (this.lease.held) {
        await this.lease.release();
        deps.metrics.leases.set({ source: source.name }, 0);
      }
      return;
    }
    const had = this.lease.held;
    if (!(await this.lease.acquire())) {
      if (had) deps.log.info({ source: source.name }, 'subscriptions: poll lease lost to another instance');
      deps.metrics.leases.set({ source: source.name }, 0);
      return;
    }
    deps.metrics.leases.set({ source: source.name }, 1);
    if (!had) {
      // Another instance's newer state, when the store has one, wins over this runner's own.
      this.#stored = (await deps.bus.load(source.name)) ?? this.#mine;
      this.#lastPoll = 0;
      deps.log.info(
        { source: source.name, continued: this.#stored !== null },
        'subscriptions: polling this source (lease taken)',
      );
    }
    // Within half a tick of the interval counts as due, so timer jitter does not skip a poll.
    if (now - this.#lastPoll < this.pollMs - Math.min(this.pollMs, tickMs(deps.settings)) / 2) return;
    this.#lastPoll = now;
    const stored = this.#stored && now - this.#stored.polledAt <= this.staleMs ? this.#stored : null;
    let result;
    try {
      result = await source.poll(
        { ctx: deps.pollContext(), site, now, settings: deps.settings },
        stored?.state ?? null,
      );
    } catch (err) {
      deps.metrics.polls.inc({ source: source.name, outcome: 'error' });
      deps.log.warn(
        { source: source.name, err: (err as Error).message },
        'subscriptions: a poll of the site failed; the next one continues from the same point',
      );
      return;
    }
    const changes = result.changes.filter((c) => deps.ledger.verdict(c) !== 'old');
    const next: Stored = { polledAt: now, state: result.state };
    const batch = changes.length ? { origin: deps.bus.instance, at: Date.now(), changes } : null;
    if (!(await deps.bus.commit(source.name, this.lease, next, batch))) {
      deps.metrics.polls.inc({ source: source.name, outcome: 'lost_lease' });
      deps.metrics.leases.set({ source: source.name }, 0);
      this.#stored = null;
      return;
    }
    this.#stored = next;
    this.#mine = next;
    deps.metrics.polls.inc({ source: source.name, outcome: 'ok' });
    for (const c of changes)
      if (c.modified)
        deps.metrics.pollLag.observe(
          { source: source.name },
          Math.max(0, (Date.now() - Date.parse(c.modified)) / 1000),
        );
  }

  async close(): Promise<void> {
    await this.#running;
    await this.lease.release();
  }
}

/** How often runners wake: every poll interval, or a third of the lease when that is shorter. */
function tickMs(settings: SubscriptionSettings): number {
  return Math.max(20, Math.min(settings.pollSeconds * 1000, (settings.leaseSeconds * 1000) / 3));
}

export function startPoller(deps: PollerDeps): Poller {
  const runners = deps.sources.map((s) => new Runner(s, deps));
  const tick = async () => {
    const now = Date.now();
    await Promise.all(runners.map((r) => r.tick(now)));
  };
  const timer = setInterval(() => void tick(), tickMs(deps.settings));
  timer.unref();
  return {
    tick,
    async close() {
      clearInterval(timer);
      await Promise.all(runners.map((r) => r.close()));
    },
  };
}
