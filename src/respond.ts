/**
 * How the gateway writes an answer's body: compressed with brotli or gzip
 * when the client's `Accept-Encoding` asks for it and the body is at least
 * `COMPRESS_MIN_BYTES` (src/compression.ts negotiates; docs/production.md "Compression"),
 * streamed through node:zlib; as is otherwise. Every answer written here says
 * `Vary: Accept-Encoding`, so a shared cache keeps one copy per coding.
 *
 * Used for GraphQL answers, the GraphiQL page and its assets (compressed once
 * and kept: they never change while the process runs), and the admin
 * listener's /metrics.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { compressor, negotiate, varyWithEncoding, type Coding } from './compression.ts';

export interface CompressionSettings {
  /** COMPRESSION. */
  enabled: boolean;
  /** COMPRESS_MIN_BYTES. */
  minBytes: number;
}

export interface Responder {
  /** Ends `res` (status and headers already set on it) with `body`, compressed when negotiated. */
  end(req: IncomingMessage, res: ServerResponse, body: string | Buffer): void;
  /** The same for a body that arrives in parts (its size unknown: compressed whenever the client accepts it). */
  stream(req: IncomingMessage, res: ServerResponse, chunks: AsyncIterable<string | Buffer>): Promise<void>;
  /** A body that never changes (GraphiQL's assets): compressed once per coding and kept. */
  endStatic(req: IncomingMessage, res: ServerResponse, name: string, body: Buffer): Promise<void>;
  /** A body whose coded forms the caller keeps (the response cache's answers): `encoded(coding)` gives them. */
  endEncoded(req: IncomingMessage, res: ServerResponse, body: Buffer, encoded: (coding: Coding) => Buffer): void;
}

function noop(): void {}

/** 406 when the client accepts neither a coding offered nor `identity`. */
function notAcceptable(res: ServerResponse): void {
  const text = JSON.stringify({
    errors: [
      {
        message: 'No content coding the client accepts: send Accept-Encoding with br, gzip or identity.',
        extensions: { code: 'NOT_ACCEPTABLE' },
      },
    ],
  });
  res.statusCode = 406;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.removeHeader('content-encoding');
  res.end(text);
}

export function createResponder(settings: CompressionSettings): Responder {
  const kept = new Map<string, Promise<Buffer>>();

  /** The coding for this answer, with Vary and Content-Encoding set; null when the 406 was sent. */
  function choose(req: IncomingMessage, res: ServerResponse, size: number | null): Coding | 'identity' | null {
    res.setHeader('vary', varyWithEncoding(res.getHeader('vary')));
    const coding = negotiate(req.headers['accept-encoding'], size === null || size >= settings.minBytes);
    if (coding === 'none') {
      notAcceptable(res);
      return null;
    }
    if (coding !== 'identity') {
      res.setHeader('content-encoding', coding);
      res.removeHeader('content-length');
    }
    return coding;
  }

  return {
    end(req, res, body) {
      if (!settings.enabled) {
        res.end(body);
        return;
      }
      const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      const coding = choose(req, res, buf.length);
      if (coding === null) return;
      if (coding === 'identity') {
        res.end(buf);
        return;
      }
      const z = compressor(coding, buf.length);
      // A client gone mid-answer destroys `res`: the pipeline's error is that, nothing to report.
      pipeline(z, res, noop);
      z.end(buf);
    },

    async stream(req, res, chunks) {
      if (!settings.enabled) {
        for await (const c of chunks) res.write(c);
        res.end();
        return;
      }
      const coding = choose(req, res, null);
      if (coding === null) return;
      if (coding === 'identity') {
        for await (const c of chunks) res.write(c);
        res.end();
        return;
      }
      const z = compressor(coding);
      pipeline(z, res, noop);
      for await (const c of chunks) {
        // Each part goes out as it comes (incremental delivery), not when zlib's buffer fills.
        z.write(c);
        z.flush(coding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH);
      }
      z.end();
    },

    endEncoded(req, res, body, encoded) {
      if (!settings.enabled) {
        res.end(body);
        return;
      }
      const coding = choose(req, res, body.length);
      if (coding === null) return;
      res.end(coding === 'identity' ? body : encoded(coding));
    },

    async endStatic(req, res, name, body) {
      if (!settings.enabled) {
        res.end(body);
        return;
      }
      const coding = choose(req, res, body.length);
      if (coding === null) return;
      if (coding === 'identity') {
        res.end(body);
        return;
      }
      const key = `${coding}:${name}`;
      let packed = kept.get(key);
      if (!packed) {
        packed = compressWhole(coding, body);
        kept.set(key, packed);
      }
      res.end(await packed);
    },
  };
}

/** A whole body, compressed harder than answers are (it is done once): brotli 9, gzip 9. */
function compressWhole(coding: Coding, body: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out));
    if (coding === 'br')
      brotliCompress(
        body,
        { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } },
        done,
      );
    else gzip(body, { level: 9 }, done);
  });
}
