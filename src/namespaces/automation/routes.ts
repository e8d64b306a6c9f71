/**
 * calendar/automation-a/v1 and calendar/automation-b/v1 (spec F, G): the
 * only place their paths are built. `AutomationA.authorize` is a declaration;
 * the API documents are `Query.apiDocument`'s (calendar-extras/routes.ts).
 *
 * Hand-written, because the logic is real: every other route takes the
 * caller's token from an argument or the `X-Automation-Token` header
 * (resolvers.ts), puts it where the connector reads it (the query of a read,
 * the JSON body of a write, never a URL or log line of a write), and
 * automation-b's feeds pop what they answer (never retried, never cached).
 * Secrets travel only where the site reads them; route labels are fixed and
 * errors redact messages.
 */
import type { AutomationAResolvers } from '../../generated/graphql.ts';
import { GatewayError } from '../../errors.ts';
import { routeRows, type FieldRoutes } from '../../routes/declare.ts';
import { handRoute } from '../../routes/hand.ts';
import { rowOf, use, type RouteUse } from '../../routes/route-use.ts';
import { API_DOCUMENT } from '../calendar-extras/routes.ts';
import type { QueryValue, UpstreamSession } from '../../upstream/client.ts';
import { accessTokenOf } from './mapping.ts';

export const AUTOMATION_A = '/calendar/automation-a/v1';
export const AUTOMATION_B = '/calendar/automation-b/v1';

export type Connector = 'A' | 'B';
export type FeedKind = 'new' | 'updated' | 'canceled';

const base = (c: Connector) => (c === 'A' ? AUTOMATION_A : AUTOMATION_B);

/** The connectors' hand-written routes, each built once: the requests below and the route table's rows take them. */
const feedRoute = (c: Connector, kind: FeedKind) => handRoute('GET', `${base(c)}/${kind}-events`);
const FIND = handRoute('GET', `${AUTOMATION_A}/find-events`);
const createRoute = (c: Connector) => handRoute('POST', `${base(c)}/create-events`);
const updateRoute = <M extends 'POST' | 'PUT' | 'PATCH'>(method: M) =>
  handRoute(method, `${AUTOMATION_A}/update-events`);

export const AUTOMATION_A_ROUTES: FieldRoutes<AutomationAResolvers> = {
  /** Exchanges a consumer pair for a token (automation-a only): `{access_token}`. */
  authorize: {
    method: 'GET',
    path: `${AUTOMATION_A}/authorize`,
    query: ({ consumerId, consumerSecret, appName }) => ({
      consumer_id: consumerId,
      consumer_secret: consumerSecret,
      app_name: appName ?? undefined,
    }),
    result: (body) => {
      const accessToken = accessTokenOf(body);
      if (!accessToken)
        throw new GatewayError(
          'UPSTREAM_BAD_RESPONSE',
          `Bad upstream response (GET ${AUTOMATION_A}/authorize): no access_token.`,
        );
      return { accessToken };
    },
  },
};

/**
 * A feed. The token is a query parameter because the connector reads it
 * there (`access_token`); automation-b pops one event per call, so the read
 * is not idempotent, but the site's own contract makes it a GET.
 */
export async function feed(
  session: UpstreamSession,
  c: Connector,
  kind: FeedKind,
  token: string | undefined,
): Promise<unknown> {
  const r = feedRoute(c, kind);
  // automation-b pops an event per read: a retry after a lost answer would lose that event.
  const res = await session.request({
    method: r.method,
    path: r.path,
    query: { access_token: token },
    route: r.label,
    idempotent: c !== 'B',
  });
  return res.body;
}

/** find-events (automation-a): the legacy archive query plus the token. */
export async function findEvents(
  session: UpstreamSession,
  token: string | undefined,
  query: Record<string, QueryValue>,
): Promise<unknown> {
  const res = await session.request({
    method: FIND.method,
    path: FIND.path,
    query: { ...query, access_token: token },
    route: FIND.label,
  });
  return res.body;
}

/** create-events: the legacy create; the token goes in the JSON body, out of URLs and logs. */
export async function createEvent(
  session: UpstreamSession,
  c: Connector,
  token: string | undefined,
  payload: Record<string, unknown>,
): Promise<unknown> {
  const r = createRoute(c);
  const body = token === undefined ? payload : { ...payload, access_token: token };
  return (await session.request({ method: r.method, path: r.path, body, route: r.label })).body;
}

/** update-events (automation-a): POST, PUT or PATCH, all the legacy update. */
export async function updateEvent(
  session: UpstreamSession,
  method: 'POST' | 'PUT' | 'PATCH',
  token: string | undefined,
  payload: Record<string, unknown>,
): Promise<unknown> {
  const r = updateRoute(method);
  const body = token === undefined ? payload : { ...payload, access_token: token };
  return (await session.request({ method: r.method, path: r.path, body, route: r.label })).body;
}

/** `AutomationA.doc` and `AutomationB.doc` call the API-document declaration (calendar-extras) with their `api`. */
function docRoute(api: 'AUTOMATION_A' | 'AUTOMATION_B') {
  const { method, path } = API_DOCUMENT;
  if (method === 'HEAD') throw new TypeError('the API document is read with GET');
  return { method, path: typeof path === 'string' ? path : path.paths[api]! };
}

export const AUTOMATION_ROWS: RouteUse[] = [
  rowOf(docRoute('AUTOMATION_A'), 'AutomationA.doc'),
  ...routeRows('AutomationA', AUTOMATION_A_ROUTES),
  rowOf(feedRoute('A', 'canceled'), 'AutomationA.canceledEvents'),
  rowOf(feedRoute('A', 'new'), 'AutomationA.newEvents'),
  rowOf(feedRoute('A', 'updated'), 'AutomationA.updatedEvents'),
  rowOf(createRoute('A'), 'Mutation.automationACreateEvent'),
  rowOf(updateRoute('POST'), use('Mutation.automationAUpdateEvent', { args: { method: 'POST' } })),
  rowOf(updateRoute('PUT'), use('Mutation.automationAUpdateEvent', { args: { method: 'PUT' } })),
  rowOf(updateRoute('PATCH'), use('Mutation.automationAUpdateEvent', { args: { method: 'PATCH' } })),
  rowOf(FIND, 'AutomationA.findEvents'),
  rowOf(docRoute('AUTOMATION_B'), 'AutomationB.doc'),
  rowOf(feedRoute('B', 'canceled'), 'AutomationB.canceledEvents'),
  rowOf(feedRoute('B', 'new'), 'AutomationB.newEvents'),
  rowOf(feedRoute('B', 'updated'), 'AutomationB.updatedEvents'),
  rowOf(createRoute('B'), 'Mutation.automationBCreateEvent'),
];
