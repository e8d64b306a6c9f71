/** `seo/v1`: the only place its paths are built. (Filled in by the SEO graph work.) */
import type { RouteUse } from './route-use.ts';

export const SEO_ROUTES: RouteUse[] = [];
