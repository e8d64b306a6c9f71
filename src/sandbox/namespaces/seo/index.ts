/** `seo/v1` (Yoast SEO's yoast/v1; reference/site-upstream.md §8, other-upstream.md). */
import type { RouteDecl } from '../../rest/types.ts';
import type { Sandbox } from '../../site.ts';

export function seoRoutes(_site: Sandbox): RouteDecl[] {
  return [];
}

/** Demo data of this namespace; runs once, after the calendar's, on an empty database. */
export function seedSeo(_site: Sandbox): void {}
