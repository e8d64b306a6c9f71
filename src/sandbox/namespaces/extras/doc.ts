/**
 * `GET /<connector namespace>/doc`: the connector's OpenAPI 3.0.0 document
 * (TC `Integration_Swagger_Documentation`, `open_api_version = '3.0.0'`),
 * generated from the route declarations like the legacy `/doc`.
 */
import { openApiDocument } from '../../openapi.ts';
import type { RouteDecl } from '../../rest/types.ts';
import type { Sandbox } from '../../site.ts';
import type { Connector } from './credentials.ts';

export function docRoute(site: Sandbox, c: Connector): RouteDecl {
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
          // the generator reads `site.routes`, so it gets a view of the site without them.
          const visible = Object.create(site, { routes: { value: site.routes.filter((r) => !r.hidden) } }) as Sandbox;
          return openApiDocument(visible, c.namespace, '3.0.0', `The Events Calendar ${c.name} REST API`);
        },
        summary: 'Returns the OpenAPI document of this namespace',
      },
    ],
  };
}
