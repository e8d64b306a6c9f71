/** Calendar writes (legacy and calendar-core/v1): the only place their paths are built. (Filled in by the mutations work.) */
import type { RouteUse } from './route-use.ts';

export const WRITE_ROUTES: RouteUse[] = [];
