/**
 * The `/batch/v1` writer (docs/ARCHITECTURE.md "A bulk write").
 *
 * Given the write requests of one mutation, in order, it sends those whose
 * route the site's root index marks `allow_batch` in `/batch/v1` requests of
 * at most `site.maxBatchSize` items (sequentially: the site runs items in
 * order, so input order is write order), and the others directly (the
 * operation's session caps the concurrency). Outcomes come back per item, in input order: data
 * failures are values, so one bad item never fails its neighbours.
 *
 * Nothing here is ever retried (client.ts retries GET/HEAD only): a write
 * whose outcome is unknown (sent, but its answer lost or unreadable: a
 * timeout, a reset, a proxy's 5xx page, a malformed or wrong-shape body) is
 * marked `unknown` (see `outcomeUnknown`); writes/reconcile.ts reads back
 * what it may have done.
 */
import type { QueryValue, UpstreamSession } from './client.ts';
import { allowsBatch, type SiteInfo } from './discovery.ts';
import { GatewayError } from '../errors.ts';
import { fromTransportError, fromUpstreamResponse } from './errors.ts';

export interface WriteRequest {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** REST path, dynamic segments already encoded, no query string. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Route label, e.g. `PATCH /calendar-core/v1/events/<id>`. */
  route: string;
}

export type WriteOutcome =
  | { ok: true; status: number; body: unknown; batched: boolean }
  /**
   * `notExecuted`: a valid item of an atomic batch that another item's validation failure stopped.
   * `unknown`: the request was sent but no readable answer came back: it may or may not have been written.
   */
  | { ok: false; error: GatewayError; batched: boolean; notExecuted?: boolean; unknown?: boolean };

export interface WriteOptions {
  /**
   * `validation: "require-all-validate"`: nothing runs unless every item validates. Needs every item batchable, in one
   * batch.
   */
  atomic?: boolean;
}

/** The batch route, said once: the requests below and the route table's row (namespaces/calendar/routes.ts). */
export const BATCH = { method: 'POST', path: '/batch/v1', label: 'POST /batch/v1' } as const;
const BATCH_ROUTE = BATCH.label;

interface Envelope {
  body?: unknown;
  status?: number;
}

/** `path?query` as a batch item's `path` (WordPress parses its query string into the item's GET params). */
function itemPath(req: WriteRequest): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query ?? {})) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) q.append(`${k}[]`, String(x));
    else q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `${req.path}?${s}` : req.path;
}

function chunks<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** Whether every request may go through /batch/v1 on this site (what `atomic` needs). */
export function allBatchable(site: SiteInfo, reqs: readonly WriteRequest[]): boolean {
  return reqs.every((r) => allowsBatch(site, r.method, r.path));
}

/**
 * Checks what `atomic: true` needs before anything is sent: every route
 * batchable and at most one batch. Throws BAD_USER_INPUT saying which.
 */
export function checkAtomic(site: SiteInfo, reqs: readonly WriteRequest[], argument = 'atomic'): void {
  if (reqs.length > site.maxBatchSize) {
    throw GatewayError.badInput(
      `atomic: true writes at most ${site.maxBatchSize} items (one /batch/v1 request, the site's limit); got ${reqs.length}. Split the list or drop atomic.`,
      {
        arguments: [argument],
        max: site.maxBatchSize,
      },
    );
  }
  const direct = reqs.find((r) => !allowsBatch(site, r.method, r.path));
  if (direct) {
    throw GatewayError.badInput(
      `atomic: true needs /batch/v1, but the site does not allow batching ${direct.route}${site.hasBatch ? '' : ' (it has no /batch/v1)'}.`,
      { arguments: [argument] },
    );
  }
}

/** Transport failures that happen before a request leaves: nothing was sent, so nothing was written. */
const NOT_SENT = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);

/**
 * Whether a failed write may nevertheless have been written: its request was
 * sent and no answer the site vouches for came back.
 *
 * - no HTTP answer: unknown, unless the connection was never made (refused,
 *   connect timeout, DNS): headers/body timeouts, resets, a closed socket or
 *   an aborted request are unknown;
 * - a 2xx whose body is unreadable (malformed JSON, too large): unknown;
 * - a 5xx without a WordPress error body (a proxy's HTML page, an empty
 *   502/503/504), or WordPress's own fatal-error handler
 *   (`internal_server_error`, sent after a PHP fatal mid-request): unknown;
 * - any other answer (4xx, 429, a 5xx WP_Error) is the site saying it did
 *   not write: known.
 * Errors the gateway raised itself (no `upstream`) were raised before sending.
 */
export function outcomeUnknown(e: GatewayError): boolean {
  const up = e.extensions.upstream;
  if (!up) return false;
  // Refused by the operation's session before sending (upstream/session.ts).
  if (e.code === 'REQUEST_BUDGET_EXCEEDED' || e.code === 'NAMESPACE_UNAVAILABLE') return false;
  if (up.status === null) return !(up.code && NOT_SENT.has(up.code));
  if (up.status >= 200 && up.status < 300) return true;
  if (up.status >= 500) return up.code === null || up.code === 'internal_server_error';
  return false;
}

function failed(error: GatewayError, batched: boolean): WriteOutcome {
  return outcomeUnknown(error) ? { ok: false, error, batched, unknown: true } : { ok: false, error, batched };
}

/** One write sent directly (not in a /batch/v1 envelope), its failure a value. */
export function sendOne(session: UpstreamSession, req: WriteRequest): Promise<WriteOutcome> {
  return sendDirect(session, req);
}

async function sendDirect(session: UpstreamSession, req: WriteRequest): Promise<WriteOutcome> {
  try {
    const res = await session.request({
      method: req.method,
      path: req.path,
      query: req.query,
      body: req.body,
      headers: req.headers,
      route: req.route,
    });
    return { ok: true, status: res.status, body: res.body, batched: false };
  } catch (err) {
    return failed(fromTransportError(err, req.route), false);
  }
}

function fromEnvelope(req: WriteRequest, env: Envelope | null | undefined): WriteOutcome {
  const status = typeof env?.status === 'number' ? env.status : 0;
  if (status >= 200 && status < 300) return { ok: true, status, body: env!.body ?? null, batched: true };
  // The batch ran (207) but says nothing readable about this item: it may have been written.
  if (!env || status === 0)
    return failed(
      new GatewayError('UPSTREAM_BAD_RESPONSE', `The /batch/v1 answer has no readable response for ${req.route}.`, {
        upstream: { code: null, status: 207, route: req.route },
      }),
      true,
    );
  return failed(fromUpstreamResponse(status, env.body, req.route), true);
}

async function sendBatch(session: UpstreamSession, reqs: WriteRequest[], atomic: boolean): Promise<WriteOutcome[]> {
  const requests = reqs.map((r) => {
    const item: Record<string, unknown> = { method: r.method, path: itemPath(r) };
    if (r.body !== undefined) item.body = r.body;
    if (r.headers) item.headers = r.headers;
    return item;
  });
  let res;
  try {
    res = await session.request<{ responses?: (Envelope | null)[]; failed?: string }>({
      method: 'POST',
      path: BATCH.path,
      body: { validation: atomic ? 'require-all-validate' : 'normal', requests },
      route: BATCH_ROUTE,
      okStatuses: (s) => s === 207 || (s >= 200 && s < 300),
    });
  } catch (err) {
    // A whole-batch failure (400 envelope, 401, timeout, ...) is every item's: the site said why, or we do not know.
    const e = fromTransportError(err, BATCH_ROUTE);
    return reqs.map(() => failed(e, true));
  }
  const body = res.body;
  const responses = body && Array.isArray(body.responses) ? body.responses : null;
  if (!responses || responses.length !== reqs.length) {
    // A 2xx the site sent after running the batch, whose per-item answers cannot be read: every item is unknown.
    const e = new GatewayError(
      'UPSTREAM_BAD_RESPONSE',
      `The /batch/v1 answer does not have one response per request (${reqs.length} sent).`,
      { upstream: { code: null, status: res.status, route: BATCH_ROUTE } },
    );
    return reqs.map(() => failed(e, true));
  }
  if (body!.failed === 'validation') {
    // require-all-validate: nothing ran. `null` is an item that validated.
    return reqs.map((r, i) => {
      const env = responses[i];
      if (env) return fromEnvelope(r, env);
      return {
        ok: false,
        batched: true,
        notExecuted: true,
        error: new GatewayError('BAD_USER_INPUT', 'Not written: another item of this atomic batch failed validation.', {
          upstream: { code: null, status: 207, route: r.route },
        }),
      };
    });
  }
  return reqs.map((r, i) => fromEnvelope(r, responses[i]));
}

/**
 * Sends `reqs` and returns one outcome per request, in order. With
 * `atomic`, call `checkAtomic` first (this throws the same errors).
 */
export async function sendWrites(
  session: UpstreamSession,
  site: SiteInfo,
  reqs: readonly WriteRequest[],
  opts: WriteOptions,
): Promise<WriteOutcome[]> {
  if (opts.atomic) checkAtomic(site, reqs);
  const out: WriteOutcome[] = new Array(reqs.length);
  const batched: number[] = [];
  const direct: number[] = [];
  reqs.forEach((r, i) => (allowsBatch(site, r.method, r.path) ? batched : direct).push(i));

  const runBatches = async () => {
    for (const part of chunks(batched, site.maxBatchSize)) {
      const results = await sendBatch(
        session,
        part.map((i) => reqs[i]!),
        Boolean(opts.atomic),
      );
      part.forEach((i, k) => (out[i] = results[k]!));
    }
  };
  // The operation's session caps how many are in flight.
  const runDirect = () => Promise.all(direct.map((i) => sendDirect(session, reqs[i]!).then((o) => (out[i] = o))));
  await Promise.all([runBatches(), runDirect()]);
  return out;
}
