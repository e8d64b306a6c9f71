/**
 * calendar/views/v2, calendar-core/v2/onboarding, calendar/aggregator/v1,
 * calendar/automation-a/v1, calendar/automation-b/v1, and the calendar
 * interfaces' non-CRUD routes (API documents, calendar embed, occurrence
 * notices): the only place their paths are built (spec B2, C–G;
 * ../shared/reference/calendar-upstream.md §2–§6).
 *
 * Secrets (automation tokens, consumer secrets, nonces) travel only where the
 * site reads them: as parameters of the request that needs them. Route labels
 * and errors never carry them (errors.ts redacts messages; labels are fixed).
 */
import type { QueryValue, UpstreamSession } from './client.ts';
import { GatewayError } from '../errors.ts';
import type { RouteUse } from './route-use.ts';

const VIEWS = '/calendar/views/v2';
const WIZARD = '/calendar-core/v2/onboarding';
const AGGREGATOR = '/calendar/aggregator/v1';
export const AUTOMATION_A = '/calendar/automation-a/v1';
export const AUTOMATION_B = '/calendar/automation-b/v1';
const CORE = '/calendar-core/v1';
const LEGACY = '/calendar/events/v1';

/** Routes reached through this module, and the fields that reach them. */
export const EXTRAS_ROUTES: RouteUse[] = [
  { method: 'GET', path: '/calendar/events/v1/doc', field: 'Query.apiDocument(api: LEGACY_EVENTS)' },
  { method: 'GET', path: '/calendar-core/v1/docs', field: 'Query.apiDocument(api: CALENDAR_CORE)' },
  { method: 'GET', path: '/calendar-core/v1/events/calendar-embed', field: 'Query.calendarEmbed' },
  { method: 'GET', path: '/calendar-core/v1/events/<id>/notices/occurrences', field: 'Query.occurrencesNotices' },
  { method: 'DELETE', path: '/calendar-core/v1/events/<id>/notices/occurrences', field: 'Mutation.clearOccurrencesNotice' },
  { method: 'GET', path: '/calendar/views/v2/html', field: 'Query.calendarView(method: GET)' },
  { method: 'POST', path: '/calendar/views/v2/html', field: 'Query.calendarView(method: POST)' },
  { method: 'POST', path: '/calendar-core/v2/onboarding/wizard', field: 'Mutation.saveOnboardingWizard' },
  { method: 'POST', path: '/calendar/aggregator/v1/import/<import_id>/batch', field: 'Mutation.reportImportBatch' },
  { method: 'POST', path: '/calendar/aggregator/v1/import/<import_id>/state', field: 'Mutation.reportImportState' },
  { method: 'GET', path: '/calendar/automation-a/v1/doc', field: 'Query.apiDocument(api: AUTOMATION_A), AutomationA.doc' },
  { method: 'GET', path: '/calendar/automation-a/v1/authorize', field: 'AutomationA.authorize' },
  { method: 'GET', path: '/calendar/automation-a/v1/canceled-events', field: 'AutomationA.canceledEvents' },
  { method: 'GET', path: '/calendar/automation-a/v1/new-events', field: 'AutomationA.newEvents' },
  { method: 'GET', path: '/calendar/automation-a/v1/updated-events', field: 'AutomationA.updatedEvents' },
  { method: 'POST', path: '/calendar/automation-a/v1/create-events', field: 'Mutation.automationACreateEvent' },
  { method: 'POST', path: '/calendar/automation-a/v1/update-events', field: 'Mutation.automationAUpdateEvent(method: POST)' },
  { method: 'PUT', path: '/calendar/automation-a/v1/update-events', field: 'Mutation.automationAUpdateEvent(method: PUT)' },
  { method: 'PATCH', path: '/calendar/automation-a/v1/update-events', field: 'Mutation.automationAUpdateEvent(method: PATCH)' },
  { method: 'GET', path: '/calendar/automation-a/v1/find-events', field: 'AutomationA.findEvents' },
  { method: 'GET', path: '/calendar/automation-b/v1/doc', field: 'Query.apiDocument(api: AUTOMATION_B), AutomationB.doc' },
  { method: 'GET', path: '/calendar/automation-b/v1/canceled-events', field: 'AutomationB.canceledEvents' },
  { method: 'GET', path: '/calendar/automation-b/v1/new-events', field: 'AutomationB.newEvents' },
  { method: 'GET', path: '/calendar/automation-b/v1/updated-events', field: 'AutomationB.updatedEvents' },
  { method: 'POST', path: '/calendar/automation-b/v1/create-events', field: 'Mutation.automationBCreateEvent' },
];

const seg = (v: string | number) => encodeURIComponent(String(v));

// ---------------------------------------------------------------------------
// API documents

export type ApiDocumentName = 'LEGACY_EVENTS' | 'CALENDAR_CORE' | 'AUTOMATION_A' | 'AUTOMATION_B';

const DOCS: Record<ApiDocumentName, string> = {
  LEGACY_EVENTS: `${LEGACY}/doc`,
  CALENDAR_CORE: `${CORE}/docs`,
  AUTOMATION_A: `${AUTOMATION_A}/doc`,
  AUTOMATION_B: `${AUTOMATION_B}/doc`,
};

/** The OpenAPI (or Swagger) document a namespace publishes, as received. */
export async function apiDocument(session: UpstreamSession, name: ApiDocumentName): Promise<unknown> {
  const path = DOCS[name];
  const res = await session.request({ method: 'GET', path, route: `GET ${path}` });
  return res.body;
}

// ---------------------------------------------------------------------------
// calendar-core/v1: embed and notices (../shared/reference/calendar-upstream.md §2 "ECP routes")

/** The embeddable calendar document (HTML). `_wpnonce` is a `wp_rest` nonce of the caller. */
export async function calendarEmbed(session: UpstreamSession, nonce: string, query: Record<string, QueryValue>): Promise<string> {
  const route = `GET ${CORE}/events/calendar-embed`;
  const res = await session.request({ method: 'GET', path: `${CORE}/events/calendar-embed`, query: { ...query, _wpnonce: nonce }, route });
  if (typeof res.body !== 'string') throw new GatewayError('UPSTREAM_BAD_RESPONSE', `Bad upstream response (${route}): expected an HTML document.`, { upstream: { code: null, status: res.status, route } });
  return res.body;
}

/** Reads (and so clears) the occurrences notice of an event: `[]` or `["<JSON>"]`. */
export async function readOccurrencesNotices(session: UpstreamSession, eventId: number): Promise<unknown> {
  const res = await session.request({ method: 'GET', path: `${CORE}/events/${seg(eventId)}/notices/occurrences`, route: `GET ${CORE}/events/<id>/notices/occurrences` });
  return res.body;
}

export async function deleteOccurrencesNotice(session: UpstreamSession, eventId: number): Promise<void> {
  await session.request({ method: 'DELETE', path: `${CORE}/events/${seg(eventId)}/notices/occurrences`, route: `DELETE ${CORE}/events/<id>/notices/occurrences` });
}

// ---------------------------------------------------------------------------
// calendar/views/v2 (spec C; ../shared/reference/calendar-upstream.md §5)

export interface ViewHtmlParams {
  u: string;
  view?: string;
  tvn1?: string;
  tvn2?: string;
  view_data?: Record<string, unknown>;
  action?: string;
}

/** `{html}` from GET (query) or POST (JSON body), as TEC's views script sends either. */
export async function viewHtml(session: UpstreamSession, method: 'GET' | 'POST', params: ViewHtmlParams): Promise<unknown> {
  const path = `${VIEWS}/html`;
  const route = `${method} ${path}`;
  if (method === 'POST') return (await session.request({ method, path, body: params, route })).body;
  // PHP-style nesting for view_data in a query: view_data[key]=value.
  const query: Record<string, QueryValue> = { u: params.u, view: params.view, tvn1: params.tvn1, tvn2: params.tvn2, action: params.action };
  for (const [k, v] of Object.entries(params.view_data ?? {})) {
    if (v === null || v === undefined) continue;
    query[`view_data[${k}]`] = typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean);
  }
  return (await session.request({ method, path, query, route })).body;
}

// ---------------------------------------------------------------------------
// calendar-core/v2/onboarding (spec D; ../shared/reference/calendar-upstream.md §6)

/**
 * Saves a wizard step. The wizard answers 200 or 500 with `{success, message[]}`
 * (a failing step still says `success: true`), so 500 is data here.
 */
export async function saveWizard(session: UpstreamSession, body: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const path = `${WIZARD}/wizard`;
  const route = `POST ${path}`;
  const res = await session.request({
    method: 'POST',
    path,
    body,
    route,
    okStatuses: (s) => (s >= 200 && s < 300) || s === 500,
  });
  const b = res.body as { success?: unknown; message?: unknown } | null;
  // A 500 without the wizard's own shape is a real failure.
  if (res.status === 500 && !(b && typeof b === 'object' && Array.isArray(b.message))) {
    throw new GatewayError('UPSTREAM_ERROR', `Upstream failed (${route}) with HTTP 500.`, { upstream: { code: null, status: 500, route } });
  }
  return { status: res.status, body: res.body };
}

// ---------------------------------------------------------------------------
// calendar/aggregator/v1 (spec E; ../shared/reference/calendar-upstream.md §3)

export async function importBatch(session: UpstreamSession, importId: string, body: Record<string, unknown>): Promise<unknown> {
  const res = await session.request({
    method: 'POST',
    path: `${AGGREGATOR}/import/${seg(importId)}/batch`,
    body,
    route: `POST ${AGGREGATOR}/import/<import_id>/batch`,
  });
  return res.body;
}

export async function importState(session: UpstreamSession, importId: string, body: Record<string, unknown>): Promise<unknown> {
  const res = await session.request({
    method: 'POST',
    path: `${AGGREGATOR}/import/${seg(importId)}/state`,
    body,
    route: `POST ${AGGREGATOR}/import/<import_id>/state`,
  });
  return res.body;
}

// ---------------------------------------------------------------------------
// calendar/automation-a/v1 and calendar/automation-b/v1 (spec F, G; ../shared/reference/calendar-upstream.md §4)

export type Connector = 'A' | 'B';
export type FeedKind = 'new' | 'updated' | 'canceled';

const base = (c: Connector) => (c === 'A' ? AUTOMATION_A : AUTOMATION_B);

/** Exchanges a consumer pair for a token (automation-a only): `{access_token}`. */
export async function authorizeA(session: UpstreamSession, consumerId: string, consumerSecret: string, appName?: string): Promise<unknown> {
  const res = await session.request({
    method: 'GET',
    path: `${AUTOMATION_A}/authorize`,
    query: { consumer_id: consumerId, consumer_secret: consumerSecret, app_name: appName },
    route: `GET ${AUTOMATION_A}/authorize`,
  });
  return res.body;
}

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
