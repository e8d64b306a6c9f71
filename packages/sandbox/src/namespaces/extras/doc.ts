/**
 * `GET /<connector namespace>/doc`: the connector's OpenAPI 3.0.0 document
 * (TC `Integration_Swagger_Documentation`, `open_api_version = '3.0.0'`),
 * generated from the route declarations like the legacy `/doc`.
 */
import { openApiDocument } from '../../openapi.ts';
import type { Origin } from '../../capabilities.ts';
import type { RouteDecl, RouteTable } from '../../rest/types.ts';
import type { Connector } from './credentials.ts';

export function docRoute(site: RouteTable & Origin, c: Connector): RouteDecl {
  return {
    namespace: c.namespace,
    path: `/${c.namespace}/doc`,
    endpoints: [
      {
        methods: ['GET'],
        args: {},
        permission: () => true,
        handler: () => {
          // Hidden routes (create-events' GET refusal) stay out of the document, as they do of the index:
          // the generator reads `routes`, so it gets a view of the site without them.
          const visible = {
            routes: site.routes.filter((r) => !r.hidden),
            origin: site.origin,
            restRoot: site.restRoot,
          };
          return openApiDocument(visible, c.namespace, '3.0.0', `The Events Calendar ${c.name} REST API`);
        },
        summary: 'Returns the OpenAPI document of this namespace',
      },
    ],
  };
}
