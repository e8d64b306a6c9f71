/**
 * Which GraphQL field reaches which REST route: every upstream module declares
 * the spec routes it calls (as written in spec/routes.tsv) and the field that
 * calls them. `npm run routes` prints the table; the route-coverage test
 * proves each row is really reached through the gateway.
 */
export interface RouteUse {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As in spec/routes.tsv, e.g. `/calendar-core/v1/events/<id>`. */
  path: string;
  /** The field that reaches it, e.g. `Query.events`, `Event.website`, `Mutation.createEvent`. */
  field: string;
}
