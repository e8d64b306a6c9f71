/**
 * What the gateway knows about the site: its root index, read at start and
 * again on /readyz. Requests use the last good reading; before the first one
 * succeeds, each request tries again (so a gateway started before its site
 * comes up recovers by itself).
 */
import type { UpstreamClient } from './upstream/client.ts';
import { discover, type SiteInfo } from './upstream/discovery.ts';

export class SiteState {
  private info: SiteInfo | null = null;
  private pending: Promise<SiteInfo> | null = null;

  constructor(private readonly client: UpstreamClient) {}

  get known(): SiteInfo | null {
    return this.info;
  }

  /** Reads the root index (with the service credential, if any). */
  refresh(): Promise<SiteInfo> {
    this.pending ??= discover(this.client.session(null))
      .then((info) => {
        this.info = info;
        return info;
      })
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  async current(): Promise<SiteInfo> {
    return this.info ?? this.refresh();
  }
}
