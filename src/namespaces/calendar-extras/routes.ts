/**
 * The calendar interfaces' routes beside their CRUD (spec B2): the API
 * documents every calendar namespace publishes, calendar-core/v1's embed and
 * occurrence notices. One declaration each; src/routes/declare.ts derives the
 * request, the resolver and the row. mapping.ts reads the bodies
 * (docs/sandbox-extras.md).
 */
import type { MutationResolvers, QueryResolvers, Resolvers } from '../../generated/graphql.ts';
import { GatewayError } from '../../errors.ts';
import { byArg, resolversOf, routeRows, type FieldRoute, type FieldRoutes } from '../../routes/declare.ts';
import type { RouteUse } from '../../routes/route-use.ts';
import { embedQuery, occurrencesNotices } from './mapping.ts';

const EMBED = '/calendar-core/v1/events/calendar-embed';
const NOTICES = '/calendar-core/v1/events/<id>/notices/occurrences';

/**
 * The OpenAPI (or Swagger) document a namespace publishes, as received; also `AutomationA.doc` and `AutomationB.doc`.
 */
export const API_DOCUMENT: FieldRoute<QueryResolvers, 'apiDocument'> = {
  method: 'GET',
  path: byArg('api', {
    LEGACY_EVENTS: '/calendar/events/v1/doc',
    CALENDAR_CORE: '/calendar-core/v1/docs',
    AUTOMATION_A: '/calendar/automation-a/v1/doc',
    AUTOMATION_B: '/calendar/automation-b/v1/doc',
  }),
  result: (body) => body,
};

export const EXTRAS_QUERY_ROUTES: FieldRoutes<QueryResolvers> = {
  apiDocument: API_DOCUMENT,
  /**
   * The embeddable calendar document (HTML). `_wpnonce` is a `wp_rest` nonce of the caller (a secret: namespace.ts).
   */
  calendarEmbed: {
    method: 'GET',
    path: EMBED,
    query: ({ nonce, input }) => ({ ...embedQuery(input), _wpnonce: nonce }),
    result: (body, { status }) => {
      const route = `GET ${EMBED}`;
      if (typeof body !== 'string')
        throw new GatewayError(
          'UPSTREAM_BAD_RESPONSE',
          `Bad upstream response (${route}): expected an HTML document.`,
          { upstream: { code: null, status, route } },
        );
      return body;
    },
  },
  /** Reads (and so clears) the occurrences notice of an event: `[]` or `["<JSON>"]`. */
  occurrencesNotices: {
    method: 'GET',
    path: NOTICES,
    params: ({ eventId }) => ({ id: String(eventId) }),
    result: occurrencesNotices,
  },
};

export const EXTRAS_MUTATION_ROUTES: FieldRoutes<MutationResolvers> = {
  // The route validates the ID as an argument: a missing event is a 400 rest_invalid_param naming `id`, here NOT_FOUND.
  clearOccurrencesNotice: {
    method: 'DELETE',
    path: NOTICES,
    params: ({ eventId }) => ({ id: String(eventId) }),
    target: ({ eventId }) => ({ argument: 'eventId', param: 'id', label: 'event', id: eventId }),
    result: () => true,
  },
};

export const calendarExtrasResolvers: Resolvers = {
  Query: resolversOf(EXTRAS_QUERY_ROUTES),
  Mutation: resolversOf(EXTRAS_MUTATION_ROUTES),
};

export const CALENDAR_EXTRAS_ROWS: RouteUse[] = [
  ...routeRows('Query', EXTRAS_QUERY_ROUTES),
  ...routeRows('Mutation', EXTRAS_MUTATION_ROUTES),
];
