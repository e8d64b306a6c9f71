/**
 * A real `node:http` server on 127.0.0.1:<free port> for transport tests: each
 * test scripts the answers (JSON, stalls, resets, truncations) and reads back
 * what arrived (requests, headers, bodies, connection count).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent on the wire (`/wp-json/x?a[]=1`). */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type StubHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  ctx: { body: string; index: number },
) => void | Promise<void>;

export interface StubServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  connections: () => number;
  /** Responses whose socket closed before the response finished. */
  aborted: () => number;
  close: () => Promise<void>;
}

export async function startStubServer(handler: StubHandler): Promise<StubServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let aborted = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const index = requests.length;
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    res.on('close', () => {
      if (!res.writableFinished) aborted += 1;
    });
    try {
      await handler(req, res, { body, index });
    } catch (err) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    }
  });
  server.on('connection', (s: Socket) => {
    connections += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    aborted: () => aborted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sends a JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Resets the TCP connection without answering (RST, not FIN). */
export function resetConnection(req: IncomingMessage): void {
  req.socket.resetAndDestroy();
}

/** A port nothing listens on: bind, read the port, close. */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
