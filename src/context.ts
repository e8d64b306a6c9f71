/**
 * Per-request context: the caller's upstream session (their Authorization,
 * or the service credential), the site as discovered, fresh loaders and a
 * per-request cap on upstream concurrency. Nothing here outlives the request.
 */
import type { Config } from './config.ts';
import { createLoaders, type Loaders } from './loaders/index.ts';
import { createLimiter, type Limiter } from './loaders/limit.ts';
import type { UpstreamClient, UpstreamSession } from './upstream/client.ts';
import type { SiteInfo } from './upstream/discovery.ts';

export interface Context {
  config: Config;
  site: SiteInfo;
  /** Re-reads the root index (Mutation.refreshSite). */
  refreshSite: () => Promise<SiteInfo>;
  upstream: UpstreamSession;
  loaders: Loaders;
  limit: Limiter;
}

export function createContext(
  config: Config,
  client: UpstreamClient,
  site: SiteInfo,
  authorization: string | undefined,
  refreshSite: () => Promise<SiteInfo> = async () => site,
): Context {
  const upstream = client.session(authorization || null);
  const limit = createLimiter(config.limits.upstreamConcurrency);
  return { config, site, refreshSite, upstream, limit, loaders: createLoaders(upstream, site, limit) };
}
