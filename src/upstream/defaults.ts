/**
 * The upstream client's defaults, each with its reason, written once: the
 * client fills in what its options leave out from here, and the configuration
 * schema (src/config.ts) takes its `upstream.*` defaults from here too, so a
 * default cannot differ between the two. test/config.test.ts and
 * test/upstream/client.test.ts pin them.
 */
export const UPSTREAM_DEFAULTS = {
  /** Enough parallelism for loaders fanning out per request without flooding a PHP-FPM pool. */
  connections: 16,
  /** Longer than typical PHP servers' 5 s; undici uses the server's own `Keep-Alive: timeout` hint when sent. */
  keepAliveTimeoutMs: 10_000,
  /** A healthy site on a LAN connects in milliseconds; fail fast and let the retry try again. */
  connectTimeoutMs: 2_000,
  /** WordPress builds the whole response before sending headers; slow archives need seconds. */
  headersTimeoutMs: 10_000,
  /** Between chunks; a stalled body is a hung PHP worker. */
  bodyTimeoutMs: 10_000,
  /** Far above any real REST page (100 posts with content), small enough to protect the gateway's memory. */
  maxResponseBytes: 20 * 1024 * 1024,
  /** Two extra tries cover a restarted upstream or a stale keep-alive socket. */
  retries: 2,
  /** 100 ms, 200 ms (with jitter): short enough to stay inside a GraphQL request. */
  retryBaseDelayMs: 100,
  /** Waiting longer than this inside one GraphQL request is worse than failing with `retryAfter`. */
  maxRetryAfterMs: 2_000,
  userAgent: 'sitegraph/0.1',
} as const;
