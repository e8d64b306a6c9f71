/**
 * The `graphql-transport-ws` WebSocket protocol on `/graphql`, and on the
 * compatible graph's path (a connection runs on its path's graph, operation.ts),
 * by graphql-ws's server core on the `ws` package (docs/subscriptions.md
 * "Transports"): what Apollo Router and Hive Gateway speak to a subgraph's
 * subscriptions, and what graphql-ws's client and GraphiQL speak.
 *
 * Around the library: an upgrade is refused (before any WebSocket exists) for
 * another path, for a browser page of an origin CORS_ORIGINS does not allow
 * (same-origin pages and clients that send no Origin are fine), over the rate
 * limit, and while shutting down. The credential comes from `connection_init`'s
 * payload or the upgrade's headers (operation.ts headersOf). Each `subscribe`
 * message counts against the rate limit and goes through the operation
 * pipeline (src/pipeline/, operation.ts) like an SSE request. Pings every
 * SUBSCRIPTION_HEARTBEAT_SECONDS; a connection that misses a pong is closed.
 * A slow consumer (hub.ts) is closed with 4008 and its reason; shutdown closes
 * with 1001 after every subscription completed.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError } from 'graphql';
import { CloseCode, handleProtocols, makeServer } from 'graphql-ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { jsonTooDeep, nestingError } from '../nesting.ts';
import type { Pipeline } from '../pipeline/index.ts';
import type { SubscriptionContext } from './context.ts';
import type { Connection, Hub } from './hub.ts';
import {
  callerOf,
  headersOf,
  type Caller,
  type OperationParams,
  type Operations,
  type SubscriptionGraph,
} from './operation.ts';

const MAX_MESSAGE = 1024 * 1024;
/** Closes a connection whose client does not keep up (hub.ts): an application code, which clients may retry. */
export const SLOW_CONSUMER_CLOSE = 4008;
/** A close reason is at most 123 bytes. */
const reasonOf = (text: string) =>
  Buffer.from(text)
    .subarray(0, 123)
    .toString()
    .replace(/\uFFFD$/, '');

export interface WsDeps {
  config: Config;
  hub: Hub;
  operations: Operations;
  pipeline: Pipeline;
  log: Logger;
  /** The graphs served, by path: a connection's operations run on the graph of the path it was opened on. */
  graphs: ReadonlyMap<string, SubscriptionGraph>;
  context(caller: Caller, connection: Connection): SubscriptionContext;
}

interface Extra {
  socket: WebSocket;
  request: IncomingMessage;
  connection: WsConnection;
  caller: Caller | null;
  graph: SubscriptionGraph;
}

class WsConnection implements Connection {
  readonly transport = 'ws' as const;
  constructor(private readonly socket: WebSocket) {}

  buffered(): number {
    return this.socket.bufferedAmount;
  }

  close(reason: string): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(SLOW_CONSUMER_CLOSE, reasonOf(reason));
  }
}

export function wsTransport(deps: WsDeps) {
  const { config, hub, operations, log } = deps;
  let stopping = false;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE,
    handleProtocols: (protocols) => handleProtocols(protocols),
  });
  const allowed = new Set(config.cors.origins);

  const server = makeServer<Record<string, unknown>, Extra>({
    connectionInitWaitTimeout: 3_000,
    onConnect(ctx) {
      const { request } = ctx.extra;
      ctx.extra.caller = callerOf(config, headersOf(request, ctx.connectionParams), request);
      return true;
    },
    async onSubscribe(ctx, _id, payload) {
      const caller = ctx.extra.caller!;
      if (caller.refused) return [caller.refused];
      const refused = await deps.pipeline.rateLimit('ws', ctx.extra.request);
      if (refused) return [new GraphQLError(refused.error.message, { extensions: refused.error.extensions })];
      const prepared = operations.prepare(ctx.extra.graph, 'ws', payload as OperationParams, () =>
        deps.context(caller, ctx.extra.connection),
      );
      return 'errors' in prepared ? prepared.errors : prepared.args;
    },
    onNext: (ctx, _id, _payload, _args, result) => operations.formatResult(result, ctx.extra.caller?.credential),
    onError: (ctx, _id, _payload, errors) => operations.formatErrors(errors, ctx.extra.caller?.credential),
  });

  function refuse(socket: Duplex, status: number, text: string): void {
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  }

  /** Same-origin pages, allowlisted origins, and clients that send no Origin (servers, routers). */
  function originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (!origin || allowed.has(origin)) return true;
    try {
      return new URL(origin).host === req.headers.host;
    } catch {
      return false;
    }
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => {});
    const url = new URL(req.url ?? '/', 'http://gateway.invalid');
    const graph = deps.graphs.get(url.pathname);
    if (!graph) return refuse(socket, 404, 'Not Found');
    if (stopping) return refuse(socket, 503, 'Service Unavailable');
    if (!originAllowed(req)) return refuse(socket, 403, 'Forbidden');
    if (await deps.pipeline.rateLimit('ws', req)) return refuse(socket, 429, 'Too Many Requests');
    wss.handleUpgrade(req, socket, head, (ws) => connected(ws, req, graph));
  }

  function connected(socket: WebSocket, request: IncomingMessage, graph: SubscriptionGraph): void {
    const connection = new WsConnection(socket);
    socket.once('error', (err) => {
      log.warn({ err: err.message }, 'subscriptions: a WebSocket failed');
      socket.terminate();
    });
    // Heartbeat: a pong must come back before the next ping.
    let alive = true;
    const pinger = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, config.subscriptions.heartbeatSeconds * 1000);
    pinger.unref();
    socket.on('pong', () => (alive = true));
    const closed = server.opened(
      {
        protocol: socket.protocol,
        // Handed to the socket, which keeps the order: not awaited until the client has read it. A client that stops
        // reading is the hub's to drop (its unread bytes, `buffered()`); awaiting here would hold its last messages
        // (each subscription's SLOW_CONSUMER) behind the unread ones, so the close could overtake them.
        send: (data) => {
          if (socket.readyState === socket.OPEN) socket.send(data);
        },
        close: (code, reason) => socket.close(code, reason),
        onMessage: (cb) =>
          socket.on('message', async (data) => {
            const text = String(data);
            // Refused before graphql-ws reads it: its variables and extensions are walked by code that recurses.
            if (jsonTooDeep(text))
              return socket.close(CloseCode.BadRequest, reasonOf(nestingError('The message').message));
            try {
              await cb(text);
            } catch (err) {
              log.error({ err }, 'subscriptions: a WebSocket message could not be handled');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      { socket, request, connection, caller: null, graph },
    );
    socket.once('close', (code, reason) => {
      clearInterval(pinger);
      hub.disconnected(connection);
      void closed(code, String(reason));
    });
  }

  return {
    attach(http: Server): void {
      http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        upgrade(req, socket, head).catch((err: unknown) => {
          log.error({ err }, 'subscriptions: a WebSocket upgrade failed');
          socket.destroy();
        });
      });
    },
    /** Shutdown: the hub has completed every subscription; sockets close (1001) once the completions are sent. */
    async close(): Promise<void> {
      stopping = true;
      await new Promise((r) => setTimeout(r, 50));
      const sockets = [...wss.clients];
      for (const s of sockets) s.close(1001, 'The gateway is shutting down');
      const deadline = Date.now() + 2_000;
      while ([...wss.clients].length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const s of wss.clients) s.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
