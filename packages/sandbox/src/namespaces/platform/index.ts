/**
 * The site-platform namespaces: core/v2 posts, oembed/1.0, site-governance/v1,
 * site-audit-log/v1, site-blocks/v1, duplicate-post/v1, site/v1, facet/v1.
 * Their namespace indexes (`GET /<namespace>`) are served by root.ts; the
 * bodies the reference leaves open are described in docs/sandbox-platform.md.
 */
import type { RouteDecl } from '../../rest/types.ts';
import type { Clock, Secrets, Settings, Storage } from '../../capabilities.ts';
import { auditRoutes } from './audit.ts';
import { blocksRoutes } from './blocks.ts';
import { challengeRoutes } from './challenge.ts';
import { duplicateRoutes } from './duplicate.ts';
import { facetRoutes } from './facet.ts';
import { governanceRoutes } from './governance.ts';
import { oembedRoutes } from './oembed.ts';
import { postsRoutes } from './posts.ts';
import { seedPlatform as seed } from './seed.ts';
import { ensurePlatformTables } from './tables.ts';

export function platformRoutes(site: Storage): RouteDecl[] {
  // The routes read and write tables of their own; they exist whether or not demo data was seeded.
  ensurePlatformTables(site);
  return [
    ...postsRoutes(),
    ...oembedRoutes(),
    ...governanceRoutes(),
    ...auditRoutes(),
    ...blocksRoutes(),
    ...duplicateRoutes(),
    ...challengeRoutes(),
    ...facetRoutes(),
  ];
}

/** Demo data of these namespaces; runs once, after the calendar's, on an empty database. */
export function seedPlatform(site: Clock & Storage & Settings & Secrets): void {
  seed(site);
}
