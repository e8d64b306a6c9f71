/**
 * The site-platform namespaces (core/v2, oembed/1.0, site-governance/v1,
 * site-audit-log/v1, site-blocks/v1, duplicate-post/v1, site/v1, facet/v1):
 * the only place their paths are built. (Filled in by the platform graph work.)
 */
import type { RouteUse } from './route-use.ts';

export const PLATFORM_ROUTES: RouteUse[] = [];
