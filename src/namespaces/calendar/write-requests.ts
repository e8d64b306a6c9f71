/**
 * Calendar writes (legacy `calendar/events/v1` and `calendar-core/v1`): which
 * request a write is (docs/writes.md), its path from paths.ts. What is sent,
 * and how (batched or direct), is upstream/batch.ts's business; the rows of
 * the route table are derived from these requests in routes.ts.
 */
import type { WriteRequest } from '../../upstream/batch.ts';
import type { UpstreamRequest } from '../../upstream/client.ts';
import { calendarGet, calendarPath, TEC_EEA_HEADER, type Target } from './paths.ts';
import type { Iface, PostKind, WriteKind } from './vocabulary.ts';

export type { Target } from './paths.ts';
export type { WriteKind } from './vocabulary.ts';

export type WriteMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The request of one write. `target` absent means create (POST on the
 * collection). Core requests carry the experimental acknowledgement header,
 * which batch items must carry too (a batch item's `headers` replace the
 * outer request's).
 */
export function writeRequest(
  api: Iface,
  kind: WriteKind,
  method: WriteMethod,
  target: Target | null,
  body?: Record<string, unknown>,
  query?: Record<string, string | number | boolean>,
): WriteRequest {
  if (api === 'core' && (kind === 'categories' || kind === 'tags'))
    throw new TypeError(`calendar-core/v1 has no ${kind} routes`);
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
export function stateRead(api: Iface, kind: PostKind, target: Target): UpstreamRequest {
  const req: UpstreamRequest = { ...calendarGet(api, kind, target), idempotent: false };
  if (api === 'core') req.headers = { ...TEC_EEA_HEADER };
  return req;
}
