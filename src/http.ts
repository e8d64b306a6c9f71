/**
 * Small node:http helpers the gateway's listeners share (src/server.ts, the
 * admin listener src/admin/server.ts): a request body read up to a cap, and a
 * JSON answer.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { requestNesting } from './nesting.ts';

/** What a GraphQL request's body may weigh, on /graphql and on the SSE transport. */
export const MAX_BODY = 1024 * 1024;

/**
 * A body over its cap is read on, and thrown away, up to this many bytes in all
 * before the refusal is sent: a socket closed with unread data is reset (RST),
 * and a client still sending then loses the answer that was already on its way.
 * Past it the client is cut off (its answer may be lost): nobody sends 64 MiB of
 * GraphQL by mistake.
 */
export const DISCARD_MAX = 64 * 1024 * 1024;

/**
 * The request's body, or null when it is larger than `max` bytes: then the
 * rest has been read and discarded (up to DISCARD_MAX), so the refusal that
 * follows (tooLarge) reaches the client.
 */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  // Listeners, not `for await`: the async iterator costs a stream wrapper and a promise per chunk.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const onData = (c: Buffer) => {
      size += c.length;
      if (over || size > max) {
        over = true;
        chunks.length = 0;
        if (size > DISCARD_MAX) {
          // Cut off: answered now, unread data and all.
          done();
          req.pause();
          resolve(null);
        }
        return;
      }
      chunks.push(c);
    };
    const onEnd = () => {
      done();
      if (over) resolve(null);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onClose = () => {
      // Closed before its end: the client went away mid-body (what the iterator reported as an error).
      if (!req.complete) onError(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    function done() {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * 413 with its error body, and `Connection: close`: Node closes the connection
 * once the answer is written, gracefully when the body was read to its end
 * (readBody) or never sent (an `Expect: 100-continue` refused up front).
 */
export function tooLarge(res: ServerResponse, max: number, body: 'graphql' | 'plain' = 'graphql'): void {
  res.shouldKeepAlive = false;
  res.setHeader('connection', 'close');
  const message = `Request body larger than ${max} bytes`;
  json(
    res,
    413,
    body === 'graphql'
      ? { errors: [{ message, extensions: { code: 'BAD_REQUEST', maxBytes: max } }] }
      : { error: message },
  );
}

/**
 * `Expect: 100-continue`: a body its Content-Length already says is over `max`
 * is refused before the client sends it (no 100 Continue, the 413 at once);
 * any other request is told to continue and served as usual. Node's default
 * said 100 Continue to everything, so the whole body came, and was refused
 * after all.
 */
export function refuseOversizeBeforeContinue(server: Server, max: number, body: 'graphql' | 'plain' = 'graphql'): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) return tooLarge(res, max, body);
    res.writeContinue();
    server.emit('request', req, res);
  });
}

/**
 * A GraphQL-over-HTTP request's body (POST; undefined for GET), read and
 * checked: too large (413), not JSON, or nested too deep in its JSON, its
 * query string's `variables`/`extensions` or its document (nesting.ts):
 * then answered here, and null.
 */
export async function readGraphQLRequest(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  search: string,
): Promise<{ body: unknown } | null> {
  let body: unknown;
  let text: string | null = null;
  if (method === 'POST') {
    const raw = await readBody(req, MAX_BODY);
    if (raw === null) {
      tooLarge(res, MAX_BODY);
      return null;
    }
    text = raw.toString('utf8');
    body = text;
    if ((req.headers['content-type'] ?? '').includes('json') && text) {
      try {
        body = JSON.parse(text);
      } catch {
        json(res, 400, {
          errors: [{ message: 'The request body is not valid JSON', extensions: { code: 'BAD_REQUEST' } }],
        });
        return null;
      }
    }
  }
  const deep = requestNesting(text, body, search);
  if (deep) {
    json(res, deep.status, deep.body);
    return null;
  }
  return { body };
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
