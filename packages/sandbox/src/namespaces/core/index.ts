/**
 * `calendar-core/v1` (TEC's tec/v1, calendar-upstream.md §2): the OpenAPI
 * document, the experimental CRUD of events, venues and organizers, series,
 * and ECP's calendar embed and occurrence notices. The namespace index
 * `GET /calendar-core/v1` is served by root.ts. Routes are matched in order.
 */
import { requestNamespace } from '../../names.ts';
import { openApiDocument } from '../../openapi.ts';
import type { RouteDecl, RouteTable } from '../../rest/types.ts';
import type { Site } from '../../capabilities.ts';
import { embedRoutes } from './embed.ts';
import { NS, entityRoutes } from './entity.ts';
import { eventsKind } from './events.ts';
import { noticeRoutes } from './notices.ts';
import { organizersKind, venuesKind } from './places.ts';
import { seriesRoutes } from './series.ts';

export function coreRoutes(site: Site & RouteTable): RouteDecl[] {
  const docs: RouteDecl = {
    namespace: NS,
    path: `/${NS}/docs`,
    endpoints: [
      {
        methods: ['GET'],
        summary: 'The OpenAPI document of this namespace',
        args: {},
        // Not experimental (calendar-upstream.md §2 "Origin").
        permission: () => true,
        handler: (req) => openApiDocument(site, requestNamespace(req.path, NS), '3.0.4', 'TEC REST API'),
      },
    ],
  };
  return [
    docs,
    ...embedRoutes(site),
    ...entityRoutes(site, eventsKind),
    ...noticeRoutes(site),
    ...entityRoutes(site, organizersKind),
    ...entityRoutes(site, venuesKind),
    ...seriesRoutes(),
  ];
}
