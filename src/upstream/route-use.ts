/**
 * Transitional: the rows of the hand-written upstream modules not yet written
 * with the checked coordinates of src/routes/route-use.ts (whose `field` the
 * compiler checks against the schema). A module reachable from src/context.ts
 * cannot import that one (it names the generated types, which name the
 * context: an import circle), so its rows move beside its declarations first.
 * `npm run routes` prints the table; the route-coverage test proves each row
 * is really reached through the gateway.
 */
export interface RouteUse {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As in spec/routes.tsv, e.g. `/calendar-core/v1/events/<id>`. */
  path: string;
  /** The field that reaches it, e.g. `Query.events`, `Event.website`, `Mutation.createEvent`. */
  field: string;
}
