/**
 * Small node:http helpers the gateway's listeners share (src/server.ts, the
 * admin listener src/admin/server.ts): a request body read up to a cap, and a
 * JSON answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The request's body, or null as soon as it passes `max` bytes (the rest is not read). */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  // Listeners, not `for await`: the async iterator costs a stream wrapper and a promise per chunk.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > max) {
        done();
        // What is left is not read: the request is destroyed, as leaving a `for await` over it did.
        req.destroy();
        resolve(null);
        return;
      }
      chunks.push(c);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
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

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
