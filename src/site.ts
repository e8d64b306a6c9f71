/**
 * What the gateway knows about the site: its root index, read at start and
 * again in the background every READINESS_REFRESH_SECONDS (src/readiness.ts),
 * by `refreshSite`, and by operations while it has never been read. Operations
 * use the last good reading; `last` is the outcome of the latest reading,
 * whoever asked for it, which /readyz reports. Before the first
 * one succeeds (a site down when the gateway started), an operation tries
 * again at most once every `retryMs` and otherwise fails its site fields at
 * once with the last error, so a gateway started before its site comes up
 * recovers by itself without sending the site a request per operation.
 */
import type { UpstreamClient } from './upstream/client.ts';
import { discover, type SiteInfo } from './upstream/discovery.ts';
import { GatewayError, isGatewayError } from './errors.ts';

export interface SiteStateOptions {
  /** Least time between two reads of the index by operations while it has never been read. @default 5_000 */
  retryMs?: number;
  /** Longest wait for one reading (an operation waits for it). @default 15_000 */
  timeoutMs?: number;
}

/** The latest reading of the index: when it ended, and its error if it failed. */
export interface SiteReading {
  /** `Date.now()` when it ended. */
  at: number;
  error: GatewayError | null;
}

export class SiteState {
  private info: SiteInfo | null = null;
  private reading: SiteReading | null = null;
  private pending: Promise<SiteInfo> | null = null;
  private failure: { at: number; error: GatewayError } | null = null;
  private readonly retryMs: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly client: UpstreamClient,
    options: SiteStateOptions = {},
  ) {
    this.retryMs = options.retryMs ?? 5_000;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  get known(): SiteInfo | null {
    return this.info;
  }

  /** The latest reading's outcome; null before the first one ended. */
  get last(): SiteReading | null {
    return this.reading;
  }

  /** Reads the root index (with the service credential, if any); concurrent callers share one reading. */
  refresh(): Promise<SiteInfo> {
    this.pending ??= discover(this.client.session(null), AbortSignal.timeout(this.timeoutMs))
      .then(
        (info) => {
          this.info = info;
          this.failure = null;
          this.reading = { at: Date.now(), error: null };
          return info;
        },
        (err: unknown) => {
          const error = unavailable(err);
          this.failure = { at: performance.now(), error };
          this.reading = { at: Date.now(), error };
          throw error;
        },
      )
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  /**
   * The site for an operation: the last good reading; else a new reading,
   * unless the last one failed less than `retryMs` ago (then its error).
   */
  async current(): Promise<SiteInfo> {
    if (this.info) return this.info;
    if (this.failure && performance.now() - this.failure.at < this.retryMs) throw this.failure.error;
    return this.refresh();
  }
}

/** Whatever stopped the reading, as the error every field that needs the site reports. */
function unavailable(err: unknown): GatewayError {
  const why = isGatewayError(err) ? err.message : err instanceof Error ? err.message : String(err);
  return new GatewayError(
    'UPSTREAM_UNAVAILABLE',
    `The site's REST index could not be read, so fields that need the site are unavailable until it answers: ${why}`,
    {
      upstream:
        isGatewayError(err) && err.extensions.upstream
          ? err.extensions.upstream
          : { code: null, status: null, route: 'GET /' },
    },
  );
}
