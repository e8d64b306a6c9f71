/**
 * GraphQL over Server-Sent Events on `/graphql` (and on the compatible graph's
 * path: each request runs on the graph of its path, operation.ts), by
 * graphql-sse's handler (its PROTOCOL.md; docs/subscriptions.md "Transports"):
 *
 * - distinct connections: `GET` or `POST` with `Accept: text/event-stream`,
 *   one stream per subscription;
 * - single connection: `PUT` reserves a stream (a token), a request with the
 *   token and `Accept: text/event-stream` opens it, `POST`s with the token
 *   (`X-GraphQL-Event-Stream-Token`) add operations (`extensions.operationId`),
 *   `DELETE ?operationId=` ends one.
 *
 * Around the library: the pipeline's rate limit (src/pipeline/) counts every
 * request before its body is read; bodies are capped like `/graphql`'s;
 * persisted documents turn an id into its text before the library looks for a
 * query (the pipeline's stages then run on each operation, operation.ts: the
 * safelist, parse, validation, limits, context, so the library parses
 * nothing); CORS was answered by the server already.
 * Streams are written without waiting for the client, and the hub drops a
 * connection whose unsent bytes pass SUBSCRIPTION_MAX_BUFFER_BYTES, so a slow
 * client is never buffered without end. graphql-sse pings every 12 s.
 * A reservation never opened is abandoned after RESERVATION_MS.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { createHandler, type Request as SseRequest, type RequestParams } from 'graphql-sse';
import { json, readGraphQLRequest } from '../http.ts';
import type { Logger } from '../log.ts';
import type { Pipeline } from '../pipeline/index.ts';
import type { PersistedDocuments } from '../plugins/safelist.ts';
import { sendRateLimited } from '../ratelimit.ts';
import type { Config } from '../config.ts';
import type { SubscriptionContext } from './context.ts';
import type { Connection, Hub } from './hub.ts';
import { callerOf, type Caller, type OperationParams, type Operations, type SubscriptionGraph } from './operation.ts';

/** A reserved stream (`PUT`) that is not opened within this is forgotten. */
const RESERVATION_MS = 30_000;
/** A dropped stream is destroyed if its client has not read its last events by then. */
const DESTROY_MS = 10_000;
const TOKEN_HEADER = 'x-graphql-event-stream-token';

export interface SseDeps {
  config: Config;
  hub: Hub;
  operations: Operations;
  persisted: PersistedDocuments | null;
  pipeline: Pipeline;
  log: Logger;
  /** The graphs served, by path: a request's operations run on its path's. */
  graphs: ReadonlyMap<string, SubscriptionGraph>;
  /** A SubscriptionContext for a caller on a connection. */
  context(caller: Caller, connection: Connection): SubscriptionContext;
}

/** What graphql-sse hands back to onSubscribe; all null for a reservation handed back unopened (abandon). */
interface RequestContext {
  res: ServerResponse | null;
  caller: Caller | null;
  connection: Connection | null;
  graph: SubscriptionGraph | null;
}

class SseConnection implements Connection {
  readonly transport = 'sse' as const;
  res: ServerResponse | null = null;
  stream: AsyncGenerator<string, void, undefined> | null = null;
  readonly createdAt = Date.now();

  buffered(): number {
    return this.res?.writableLength ?? 0;
  }

  close(): void {
    // The subscriptions have sent their error and `complete`; the stream ends after them.
    void this.stream?.return(undefined);
    const res = this.res;
    if (res && !res.writableEnded) setTimeout(() => res.destroy(), DESTROY_MS).unref();
  }
}

export function sseTransport(deps: SseDeps) {
  const { config, hub, operations } = deps;
  /** Single-connection streams by token: reserved, then opened. */
  const reserved = new Map<string, SseConnection>();
  const open = new Set<SseConnection>();

  const handler = createHandler<IncomingMessage | null, RequestContext, SubscriptionContext>({
    authenticate(req) {
      const token =
        req.headers.get(TOKEN_HEADER) || new URL(req.url, 'http://gateway.invalid').searchParams.get('token');
      return token || randomUUID();
    },
    onSubscribe(req, params: RequestParams) {
      const { caller, connection, graph } = req.context;
      // Errors are formatted by onNext, as every result is.
      if (!connection || !caller || !graph)
        return {
          data: null,
          errors: [
            new GraphQLError(
              'Stream not found: reserve one with PUT and open it before sending operations with its token.',
              { extensions: { code: 'BAD_REQUEST' } },
            ),
          ],
        };
      const prepared = operations.prepare(graph, 'sse', params as OperationParams, () =>
        deps.context(caller, connection),
      );
      return 'errors' in prepared ? { data: null, errors: prepared.errors } : prepared.args;
    },
    onNext: (ctx, _req, result) => operations.formatResult(result, ctx?.live.credential),
  });

  // Reservations never opened are handed back to the library, which then forgets them.
  const sweeper = setInterval(() => {
    const before = Date.now() - RESERVATION_MS;
    for (const [token, c] of reserved) {
      if (c.res || c.createdAt > before) continue;
      reserved.delete(token);
      void abandon(token);
    }
  }, RESERVATION_MS);
  sweeper.unref();

  async function abandon(token: string): Promise<void> {
    const [body] = await handler({
      method: 'GET',
      url: `/graphql?token=${encodeURIComponent(token)}`,
      body: null,
      raw: null,
      headers: { get: (k) => (k === 'accept' ? 'text/event-stream' : null) },
      context: { res: null, caller: null, connection: null, graph: null },
    });
    if (body && typeof body !== 'string') await body.return(undefined);
  }

  /** Whether a request to a graph's path is one of this transport's. */
  function accepts(req: IncomingMessage, url: URL): boolean {
    const method = (req.method ?? 'GET').toUpperCase();
    return (
      (req.headers.accept ?? '').includes('text/event-stream') ||
      method === 'PUT' ||
      method === 'DELETE' ||
      req.headers[TOKEN_HEADER] !== undefined ||
      (url.search !== '' && url.searchParams.has('token'))
    );
  }

  async function serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const refused = await deps.pipeline.rateLimit('sse', req, res);
    if (refused) return sendRateLimited(res, refused);
    const streaming = (req.headers.accept ?? '').includes('text/event-stream');
    const read = await readGraphQLRequest(req, res, method, url.search);
    if (!read) return;
    // graphql-sse takes a JSON object or the text; anything else is no request.
    let body: Record<string, unknown> | string | null =
      typeof read.body === 'string' || isRecord(read.body) ? read.body : null;
    let search = url.search;
    // graphql-sse wants a query: a persisted document's id becomes its text first (refusals come later, in
    // operation.ts).
    if (deps.persisted) {
      if (
        body &&
        typeof body === 'object' &&
        !Array.isArray(body) &&
        !body.query &&
        typeof body.documentId === 'string'
      ) {
        const doc = deps.persisted.lookup(body.documentId);
        if (doc) body = { ...body, query: doc };
      } else if (method === 'GET' && url.searchParams.has('documentId')) {
        const r = deps.pipeline.persistedRequest('sse', method, body, search);
        if ('status' in r) return json(res, r.status, r.body);
        search = r.search;
      }
    }
    const token = (first(req.headers[TOKEN_HEADER]) || url.searchParams.get('token')) ?? null;
    const caller = callerOf(config, req.headers, req);
    const graph = deps.graphs.get(url.pathname) ?? null;
    // A distinct stream is its own connection; a single-connection request names its stream by token.
    let connection: SseConnection | null = token ? (reserved.get(token) ?? null) : null;
    const distinct = streaming && !connection;
    if (distinct) connection = new SseConnection();
    const request: SseRequest<IncomingMessage | null, RequestContext> = {
      method,
      url: `${url.pathname}${search}`,
      headers: {
        get: (k) => (k === 'accept' && streaming ? 'text/event-stream' : (first(req.headers[k.toLowerCase()]) ?? null)),
      },
      body,
      raw: req,
      context: { res, caller, connection, graph },
    };
    const [out, init] = await handler(request);
    if (method === 'PUT' && init.status === 201 && typeof out === 'string') reserved.set(out, new SseConnection());
    res.writeHead(init.status, init.headers ?? {});
    if (out === null || typeof out === 'string') {
      res.end(out ?? undefined);
      return;
    }
    // An event stream: this connection's, until either side ends it.
    const conn = connection ?? new SseConnection();
    conn.res = res;
    conn.stream = out;
    open.add(conn);
    res.flushHeaders();
    const stop = () => void out.return(undefined);
    // The response's 'close': the client went away (the request's own fires once its body is read).
    res.once('close', stop);
    try {
      for await (const chunk of out) {
        if (res.destroyed) break;
        res.write(chunk);
      }
    } catch (err) {
      deps.log.warn({ err: (err as Error).message }, 'subscriptions: an SSE stream failed');
    } finally {
      res.off('close', stop);
      open.delete(conn);
      if (token) reserved.delete(token);
      hub.disconnected(conn);
      if (!res.writableEnded) res.end();
    }
  }

  return {
    accepts,
    serve,
    /** Shutdown: the hub has completed every subscription; streams end once their last events are written. */
    async close(): Promise<void> {
      clearInterval(sweeper);
      for (const token of reserved.keys()) void abandon(token);
      const deadline = Date.now() + 2_000;
      while (open.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const c of open) {
        void c.stream?.return(undefined);
        c.res?.destroy();
      }
    },
  };
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
