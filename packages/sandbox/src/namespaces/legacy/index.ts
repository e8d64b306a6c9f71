/**
 * `calendar/events/v1`, the legacy TEC REST interface (spec part A;
 * calendar-upstream.md §1). Its namespace index `GET /calendar/events/v1`
 * comes from root.ts. No route here allows batching: items aimed at them get
 * `rest_batch_not_allowed` (sample batch-not-allowed.json).
 */
import { LEGACY_NAMESPACE } from '../../calendar/legacy-repr.ts';
import { requestNamespace } from '../../names.ts';
import { openApiDocument } from '../../openapi.ts';
import type { RouteDecl, RouteTable } from '../../rest/types.ts';
import type { Site } from '../../capabilities.ts';
import { eventRoutes } from './events.ts';
import { organizerRoutes, venueRoutes } from './places.ts';
import { categoryRoutes, tagRoutes } from './terms.ts';

export function legacyRoutes(site: Site & RouteTable): RouteDecl[] {
  const doc: RouteDecl = {
    namespace: LEGACY_NAMESPACE,
    path: `/${LEGACY_NAMESPACE}/doc`,
    endpoints: [
      {
        methods: ['GET'],
        args: {},
        permission: () => true,
        // OpenAPI 3.0.0, as TEC's Swagger_Documentation endpoint answers.
        // The routes of the name asked (`tribe/events/v1/doc` lists the plugin-named copies).
        handler: (req) =>
          openApiDocument(site, requestNamespace(req.path, LEGACY_NAMESPACE), '3.0.0', 'The Events Calendar REST API'),
        summary: 'Returns the OpenAPI document of this namespace',
      },
    ],
  };
  return [doc, ...eventRoutes(site), ...venueRoutes(), ...organizerRoutes(), ...categoryRoutes(), ...tagRoutes()];
}
