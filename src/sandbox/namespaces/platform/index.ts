/**
 * The site-platform namespaces: core/v2 posts, oembed/1.0, site-governance/v1,
 * site-audit-log/v1, site-blocks/v1, duplicate-post/v1, site/v1, facet/v1.
 */
import type { RouteDecl } from '../../rest/types.ts';
import type { Sandbox } from '../../site.ts';

export function platformRoutes(_site: Sandbox): RouteDecl[] {
  return [];
}

/** Demo data of these namespaces; runs once, after the calendar's, on an empty database. */
export function seedPlatform(_site: Sandbox): void {}
