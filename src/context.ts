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
import { gatedSession } from './upstream/gate.ts';

export interface Context {
  config: Config;
  site: SiteInfo;
  /** Re-reads the root index (Mutation.refreshSite). */
  refreshSite: () => Promise<SiteInfo>;
  upstream: UpstreamSession;
  loaders: Loaders;
  limit: Limiter;
  /**
   * A request header of the caller (lower-case name), for credentials the graph
   * accepts as headers (automation tokens). Never logged.
   */
  header: (name: string) => string | undefined;
}

export function createContext(
  config: Config,
  client: UpstreamClient,
  site: SiteInfo,
  authorization: string | undefined,
  refreshSite: () => Promise<SiteInfo> = async () => site,
  headers: Readonly<Record<string, string | string[] | undefined>> = {},
): Context {
  const upstream = gatedSession(client.session(authorization || null), site);
  const limit = createLimiter(config.limits.upstreamConcurrency);
  const header = (name: string) => {
    const v = headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
  return { config, site, refreshSite, upstream, limit, header, loaders: createLoaders(upstream, site, limit) };
}
