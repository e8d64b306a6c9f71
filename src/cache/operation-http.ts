/**
 * The response cache at the HTTP edge (http-routes.ts for /graphql, wpgraphql/handler.ts for the compatible graph):
 * a request's graph, operation and identity -> a lookup before anything is parsed or executed; an answer that may be
 * reused -> `Surrogate-Key` and the store. A hit is written here, compressed as negotiated, without executing
 * (operation-cache.ts says what is kept and why).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Responder } from '../respond.ts';
import { ANONYMOUS } from '../upstream/identity.ts';
import { surrogateKey, type Hit, type OperationCache, type Pending } from './operation-cache.ts';
import { CREDENTIAL_HEADERS } from './response.ts';

/** The parts of a GraphQL request that name its operation, from a POST body or a GET query string. */
function operationOf(
  method: string,
  body: unknown,
  search: string,
): { query?: unknown; operationName?: unknown; variables?: unknown; hash?: unknown } | null {
  if (method === 'POST') {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
    const b = body as Record<string, unknown>;
    const ext = b.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined;
    return {
      query: b.query,
      operationName: b.operationName,
      variables: b.variables,
      hash: ext?.persistedQuery?.sha256Hash,
    };
  }
  if (method !== 'GET') return null;
  const p = new URLSearchParams(search);
  let ext: { persistedQuery?: { sha256Hash?: unknown } } | undefined;
  try {
    ext = p.has('extensions') ? JSON.parse(p.get('extensions')!) : undefined;
  } catch {
    return null;
  }
  return {
    query: p.get('query') ?? undefined,
    operationName: p.get('operationName'),
    variables: p.get('variables'),
    hash: ext?.persistedQuery?.sha256Hash,
  };
}

/** Whose answer it is: anonymous, or a hash of every credential the request carries (never the credential). */
function identityOf(req: IncomingMessage): string {
  const parts = CREDENTIAL_HEADERS.map((h) => req.headers[h]).filter((v) => v !== undefined);
  return parts.length ? `cred:${createHash('sha256').update(JSON.stringify(parts)).digest('base64url')}` : ANONYMOUS;
}

export interface CachedOperation {
  /** Set on a miss of a cacheable operation: what `keep` needs. */
  pending: Pending | null;
}

/**
 * Looks the request up among the answers of `graph` (the path of the graph it was sent to): true when the answer was
 * written from the cache.
 */
export async function answerFromCache(
  cache: OperationCache,
  responder: Responder,
  graph: string,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  body: unknown,
  search: string,
): Promise<CachedOperation | true> {
  const op = operationOf(method, body, search);
  const key = op ? cache.keyOf(graph, identityOf(req), op) : null;
  if (!key) return { pending: null };
  const found = await cache.lookup(key);
  if ('pending' in found) return { pending: found.pending };
  send(responder, req, res, found.hit);
  return true;
}

function send(responder: Responder, req: IncomingMessage, res: ServerResponse, hit: Hit): void {
  // The headers made once when the answer was kept, `cache-control` with what is left of its
  // freshness (public or private, as it was given), and `x-sitegraph-cache: hit`.
  res.statusCode = 200;
  const head = hit.head();
  for (let i = 0; i < head.length; i += 2) res.setHeader(head[i]!, head[i + 1]!);
  responder.endEncoded(req, res, hit.body, (coding) => hit.encoded(coding));
}

/** Headers of an answer that a hit repeats. */
const KEPT = ['content-type', 'cache-control', 'surrogate-key'];

/**
 * After the graph answered: an answer whose `cache-control` allows reuse gets
 * `Surrogate-Key` (its entity tags), and is kept when the lookup missed.
 */
export function keep(
  cache: OperationCache | undefined,
  pending: Pending | null,
  res: ServerResponse,
  headers: Iterable<[string, string]>,
  status: number,
  body: string,
  tags: (() => string[]) | undefined,
): void {
  if (status !== 200 || !tags) return;
  let cacheControl = '';
  for (const [k, v] of headers) if (k.toLowerCase() === 'cache-control') cacheControl = v;
  const maxAge = /(?:^|[,\s])max-age=(\d+)/.exec(cacheControl);
  if (!maxAge || /no-store/.test(cacheControl)) return;
  const t = tags();
  res.setHeader('surrogate-key', surrogateKey(t));
  if (!cache || !pending) return;
  const kept: Record<string, string> = {};
  for (const [k, v] of headers) if (KEPT.includes(k.toLowerCase())) kept[k.toLowerCase()] = v;
  kept['surrogate-key'] = surrogateKey(t);
  void cache.store(pending, Buffer.from(body, 'utf8'), kept, Number(maxAge[1]), t);
}
