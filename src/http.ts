/**
 * Small node:http helpers the gateway's listeners share (src/server.ts, the
 * admin listener src/admin/server.ts): a request body read up to a cap, and a
 * JSON answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The request's body, or null as soon as it passes `max` bytes (the rest is not read). */
export async function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) return null;
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
