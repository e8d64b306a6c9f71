/**
 * Readiness (`GET /readyz` on the admin listener, src/admin/server.ts), from
 * what the gateway already knows, never from a request of its own: the site's
 * index is read again in the background every READINESS_REFRESH_SECONDS, and
 * by operations and `refreshSite`; /readyz reports the latest reading (src/site.ts
 * `last`) and whether Redis answers. So a probe every second costs the site
 * nothing, and twenty at once cost no more (they were 20 requests when each probe read the site).
 *
 * - `ready` (200): the latest reading of the site's index succeeded, and Redis
 *   (when REDIS_URL is set) answers;
 * - `degraded` (200): the site answers but Redis does not: every answer is
 *   still given, uncached, with APQ registrations and rate-limit counts kept
 *   per instance. Still serving: a load balancer keeps sending traffic;
 * - `unavailable` (503): the latest reading failed, or none has succeeded yet.
 */
import type { Logger } from './log.ts';
import type { SiteState } from './site.ts';
import type { SharedRedis } from './store/redis.ts';

export interface ReadinessReport {
  httpStatus: 200 | 503;
  body: {
    status: 'ready' | 'degraded' | 'unavailable';
    /** Why it is not `ready`, one sentence each. */
    reasons?: string[];
    site?: string | null;
    namespaces?: string[];
    calendarInterface?: string | null;
    /** When the site's index was last read (ISO 8601). */
    checkedAt?: string;
    redis?: 'up' | 'down';
  };
}

export class Readiness {
  #timer: NodeJS.Timeout | null = null;
  /** The last background outcome, to log transitions only (not a line every interval while the site is down). */
  #wasUp: boolean | null = null;

  constructor(
    private readonly site: SiteState,
    private readonly redis: SharedRedis | undefined,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  /** Reads the site's index every `intervalMs` until `stop()`; does not keep the process alive. */
  start(): void {
    if (this.#timer) return;
    this.#wasUp = this.site.last ? this.site.last.error === null : null;
    this.#timer = setInterval(() => void this.refresh(), this.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** One background reading (concurrent readers share it: site.ts). Never throws. */
  async refresh(): Promise<void> {
    try {
      await this.site.refresh();
      if (this.#wasUp === false) this.log.info("readiness: the site's index can be read again");
      this.#wasUp = true;
    } catch (err) {
      if (this.#wasUp !== false)
        this.log.warn(
          { err: (err as Error).message },
          "readiness: the site's index could not be read; /readyz answers 503 until it can",
        );
      this.#wasUp = false;
    }
  }

  report(): ReadinessReport {
    const last = this.site.last;
    const info = this.site.known;
    const reasons: string[] = [];
    const redisDown = this.redis !== undefined && !this.redis.up;
    if (redisDown) {
      reasons.push(
        `Redis at ${this.redis!.label} cannot be reached${this.redis!.problem ? ` (${this.redis!.problem})` : ''}: answering uncached; APQ registrations and rate-limit counts are this instance's own until it is back`,
      );
    }
    const redis = this.redis ? { redis: redisDown ? ('down' as const) : ('up' as const) } : {};
    const checkedAt = last ? { checkedAt: new Date(last.at).toISOString() } : {};
    if (!last || last.error || !info) {
      reasons.unshift(last?.error ? last.error.message : "The site's REST index has not been read yet.");
      return { httpStatus: 503, body: { status: 'unavailable', reasons, ...checkedAt, ...redis } };
    }
    const site = { site: info.url, namespaces: info.namespaces, calendarInterface: info.calendarInterface };
    if (reasons.length)
      return { httpStatus: 200, body: { status: 'degraded', reasons, ...site, ...checkedAt, ...redis } };
    return { httpStatus: 200, body: { status: 'ready', ...site, ...checkedAt, ...redis } };
  }
}
