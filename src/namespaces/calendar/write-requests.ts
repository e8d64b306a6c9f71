/**
 * Calendar writes (legacy `calendar/events/v1` and `calendar-core/v1`): which
 * request a write is (docs/writes.md), its path from paths.ts. What is sent,
 * and how (batched or direct), is upstream/batch.ts's business.
 */
import type { WriteRequest } from '../../upstream/batch.ts';
import type { UpstreamRequest } from '../../upstream/client.ts';
import type { RouteUse } from '../../upstream/route-use.ts';
import { calendarGet, calendarPath, TEC_EEA_HEADER, type Target } from './paths.ts';
import { PREFIX, type Iface, type PostKind, type WriteKind } from './vocabulary.ts';

export type { Target } from './paths.ts';
export type { WriteKind } from './vocabulary.ts';

const LEGACY = PREFIX.legacy;
const CORE = PREFIX.core;

/** The interface a write goes through (the vocabulary's `Iface`, as the write engine names it). */
export type Api = Iface;
export type WriteMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function routes(kind: 'events' | 'venues' | 'organizers', Type: string): RouteUse[] {
  const one = (method: RouteUse['method'], path: string, field: string): RouteUse => ({ method, path, field });
  const legacyUpdate = `Mutation.update${Type}(via: LEGACY), Mutation.update${Type}s(via: LEGACY)`;
  return [
    one('POST', `${LEGACY}/${kind}`, `Mutation.create${Type}(via: LEGACY), Mutation.create${Type}s (sites without calendar-core/v1)${kind === 'events' ? ', EventInput.venue/organizers follow-up' : ''}`),
    one('POST', `${LEGACY}/${kind}/<id>`, `Mutation.update${Type}(method: POST); legacy-only fields of create${Type}/update${Type} (follow-up)`),
    one('PUT', `${LEGACY}/${kind}/<id>`, `${legacyUpdate} with method: PUT`),
    one('PATCH', `${LEGACY}/${kind}/<id>`, legacyUpdate),
    one('DELETE', `${LEGACY}/${kind}/<id>`, `Mutation.delete${Type}(via: LEGACY), Mutation.delete${Type}s (sites without calendar-core/v1)`),
    one('POST', `${LEGACY}/${kind}/by-slug/<slug>`, `Mutation.update${Type}(idType: SLUG, method: POST)`),
    one('PUT', `${LEGACY}/${kind}/by-slug/<slug>`, `Mutation.update${Type}(idType: SLUG, method: PUT)`),
    one('PATCH', `${LEGACY}/${kind}/by-slug/<slug>`, `Mutation.update${Type}(idType: SLUG)`),
    one('DELETE', `${LEGACY}/${kind}/by-slug/<slug>`, `Mutation.delete${Type}(idType: SLUG)`),
    one('POST', `${CORE}/${kind}`, `Mutation.create${Type}, Mutation.create${Type}s`),
    one('PUT', `${CORE}/${kind}/<id>`, `Mutation.update${Type}(method: PUT), Mutation.update${Type}s(method: PUT)`),
    one('PATCH', `${CORE}/${kind}/<id>`, `Mutation.update${Type}, Mutation.update${Type}s; core-only fields of legacy writes (follow-up)`),
    one('DELETE', `${CORE}/${kind}/<id>`, `Mutation.delete${Type}, Mutation.delete${Type}s`),
  ];
}

function termRoutes(kind: 'categories' | 'tags', Type: string): RouteUse[] {
  return [
    { method: 'POST', path: `${LEGACY}/${kind}`, field: `Mutation.create${Type}` },
    { method: 'POST', path: `${LEGACY}/${kind}/<id>`, field: `Mutation.update${Type}(method: POST)` },
    { method: 'PUT', path: `${LEGACY}/${kind}/<id>`, field: `Mutation.update${Type}(method: PUT)` },
    { method: 'PATCH', path: `${LEGACY}/${kind}/<id>`, field: `Mutation.update${Type}` },
    { method: 'DELETE', path: `${LEGACY}/${kind}/<id>`, field: `Mutation.delete${Type}` },
  ];
}

/** Every calendar write route of the spec, and the mutation that reaches it. */
export const WRITE_ROUTES: RouteUse[] = [
  ...routes('events', 'Event'),
  ...routes('venues', 'Venue'),
  ...routes('organizers', 'Organizer'),
  ...termRoutes('categories', 'Category'),
  ...termRoutes('tags', 'Tag'),
  { method: 'POST', path: '/batch/v1', field: 'Mutation.createEvents/updateEvents/deleteEvents (and Venues, Organizers); follow-ups of single writes' },
];

/**
 * The request of one write. `target` absent means create (POST on the
 * collection). Core requests carry the experimental acknowledgement header,
 * which batch items must carry too (a batch item's `headers` replace the
 * outer request's).
 */
export function writeRequest(api: Api, kind: WriteKind, method: WriteMethod, target: Target | null, body?: Record<string, unknown>, query?: Record<string, string | number | boolean>): WriteRequest {
  if (api === 'core' && (kind === 'categories' || kind === 'tags')) throw new TypeError(`calendar-core/v1 has no ${kind} routes`);
  const { path, label } = calendarPath(api, kind, target);
  const req: WriteRequest = { method, path, route: `${method} ${label}` };
  if (body !== undefined) req.body = body;
  if (query !== undefined) req.query = query;
  if (api === 'core') req.headers = { ...TEC_EEA_HEADER };
  return req;
}

/**
 * A read a write makes of its object (the stored state before an update, a
 * read back after it, a check that an ID exists): the single GET of either
 * interface, never answered from the upstream cache (`idempotent: false`: a
 * cached copy may predate an edit made on the site, which a complete-state
 * update would then undo) and not retried.
 */
export function stateRead(api: Api, kind: PostKind, target: Target): UpstreamRequest {
  const req: UpstreamRequest = { ...calendarGet(api, kind, target), idempotent: false };
  if (api === 'core') req.headers = { ...TEC_EEA_HEADER };
  return req;
}
