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
import { use, type RouteUse } from '../../routes/route-use.ts';
import type { QueryValue, UpstreamSession } from '../../upstream/client.ts';
import { accessTokenOf } from './mapping.ts';

export const AUTOMATION_A = '/calendar/automation-a/v1';
export const AUTOMATION_B = '/calendar/automation-b/v1';

export type Connector = 'A' | 'B';
export type FeedKind = 'new' | 'updated' | 'canceled';

const base = (c: Connector) => (c === 'A' ? AUTOMATION_A : AUTOMATION_B);

export const AUTOMATION_A_ROUTES: FieldRoutes<AutomationAResolvers> = {
  /** Exchanges a consumer pair for a token (automation-a only): `{access_token}`. */
  authorize: {
    method: 'GET',
    path: `${AUTOMATION_A}/authorize`,
    query: ({ consumerId, consumerSecret, appName }) => ({ consumer_id: consumerId, consumer_secret: consumerSecret, app_name: appName ?? undefined }),
    result: (body) => {
      const accessToken = accessTokenOf(body);
      if (!accessToken) throw new GatewayError('UPSTREAM_BAD_RESPONSE', `Bad upstream response (GET ${AUTOMATION_A}/authorize): no access_token.`);
      return { accessToken };
    },
  },
};

/**
 * A feed. The token is a query parameter because the connector reads it
 * there (`access_token`); automation-b pops one event per call, so the read
 * is not idempotent, but the site's own contract makes it a GET.
 */
export async function feed(session: UpstreamSession, c: Connector, kind: FeedKind, token: string | undefined): Promise<unknown> {
  const path = `${base(c)}/${kind}-events`;
  // automation-b pops an event per read: a retry after a lost answer would lose that event.
  const res = await session.request({ method: 'GET', path, query: { access_token: token }, route: `GET ${path}`, idempotent: c !== 'B' });
  return res.body;
}

/** find-events (automation-a): the legacy archive query plus the token. */
export async function findEvents(session: UpstreamSession, token: string | undefined, query: Record<string, QueryValue>): Promise<unknown> {
  const path = `${AUTOMATION_A}/find-events`;
  const res = await session.request({ method: 'GET', path, query: { ...query, access_token: token }, route: `GET ${path}` });
  return res.body;
}

/** create-events: the legacy create; the token goes in the JSON body, out of URLs and logs. */
export async function createEvent(session: UpstreamSession, c: Connector, token: string | undefined, payload: Record<string, unknown>): Promise<unknown> {
  const path = `${base(c)}/create-events`;
  const body = token === undefined ? payload : { ...payload, access_token: token };
  return (await session.request({ method: 'POST', path, body, route: `POST ${path}` })).body;
}

/** update-events (automation-a): POST, PUT or PATCH, all the legacy update. */
export async function updateEvent(
  session: UpstreamSession,
  method: 'POST' | 'PUT' | 'PATCH',
  token: string | undefined,
  payload: Record<string, unknown>,
): Promise<unknown> {
  const path = `${AUTOMATION_A}/update-events`;
  const body = token === undefined ? payload : { ...payload, access_token: token };
  return (await session.request({ method, path, body, route: `${method} ${path}` })).body;
}

export const AUTOMATION_ROWS: RouteUse[] = [
  { method: 'GET', path: `${AUTOMATION_A}/doc`, field: 'AutomationA.doc' },
  ...routeRows('AutomationA', AUTOMATION_A_ROUTES),
  { method: 'GET', path: `${AUTOMATION_A}/canceled-events`, field: 'AutomationA.canceledEvents' },
  { method: 'GET', path: `${AUTOMATION_A}/new-events`, field: 'AutomationA.newEvents' },
  { method: 'GET', path: `${AUTOMATION_A}/updated-events`, field: 'AutomationA.updatedEvents' },
  { method: 'POST', path: `${AUTOMATION_A}/create-events`, field: 'Mutation.automationACreateEvent' },
  { method: 'POST', path: `${AUTOMATION_A}/update-events`, field: use('Mutation.automationAUpdateEvent', { args: { method: 'POST' } }) },
  { method: 'PUT', path: `${AUTOMATION_A}/update-events`, field: use('Mutation.automationAUpdateEvent', { args: { method: 'PUT' } }) },
  { method: 'PATCH', path: `${AUTOMATION_A}/update-events`, field: use('Mutation.automationAUpdateEvent', { args: { method: 'PATCH' } }) },
  { method: 'GET', path: `${AUTOMATION_A}/find-events`, field: 'AutomationA.findEvents' },
  { method: 'GET', path: `${AUTOMATION_B}/doc`, field: 'AutomationB.doc' },
  { method: 'GET', path: `${AUTOMATION_B}/canceled-events`, field: 'AutomationB.canceledEvents' },
  { method: 'GET', path: `${AUTOMATION_B}/new-events`, field: 'AutomationB.newEvents' },
  { method: 'GET', path: `${AUTOMATION_B}/updated-events`, field: 'AutomationB.updatedEvents' },
  { method: 'POST', path: `${AUTOMATION_B}/create-events`, field: 'Mutation.automationBCreateEvent' },
];
