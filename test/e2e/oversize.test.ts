/**
 * A body over the cap is refused, and the refusal reaches the client: 413 with
 * its GraphQL error body and `Connection: close`, then the connection closed
 * gracefully (FIN after the answer, never a reset under a client still
 * sending). With `Expect: 100-continue` the body is refused before it is sent
 * (no 100 Continue). On /graphql, on the SSE transport (POST with
 * `Accept: text/event-stream`) and on the admin listener; over the WebSocket
 * transport a message over the cap closes the socket with 1009, delivered.
 *
 * Checked with three real clients: curl (which sends `Expect: 100-continue`
 * itself for a body over 1 MiB), undici (fetch) and a raw socket that sends
 * the whole body whatever comes back and tells a reset from a close.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_BODY } from '../../src/http.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const run = promisify(execFile);

/** A JSON body of `bytes` bytes: a valid query whose variable pads it. */
function bodyOf(bytes: number): Buffer {
  const head = '{"query":"{__typename}","variables":{"pad":"';
  const tail = '"}}';
  return Buffer.from(head + 'x'.repeat(bytes - head.length - tail.length) + tail);
}

interface RawAnswer {
  head: string;
  body: string;
  /** How the connection ended: 'end' (FIN, graceful) or the socket error's code (ECONNRESET, EPIPE). */
  ended: string;
  continued: boolean;
}

/**
 * Sends the request over a raw socket. With `expect`, only the headers go
 * first, and the body only if 100 Continue comes back; without, the whole
 * body is written at once, whatever the server says meanwhile.
 */
function raw(
  url: string,
  path: string,
  body: Buffer,
  opts: { expect?: boolean; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = Buffer.alloc(0);
    let continued = false;
    let sent = false;
    const extra = Object.entries({ 'content-type': 'application/json', ...opts.headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    const finish = (ended: string) => {
      const text = data.toString('latin1').replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      const at = text.indexOf('\r\n\r\n');
      resolve({ head: at < 0 ? text : text.slice(0, at), body: at < 0 ? '' : text.slice(at + 4), ended, continued });
    };
    socket.on('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-length: ${body.length}\r\n${extra}${opts.expect ? 'expect: 100-continue\r\n' : ''}\r\n`,
      );
      if (!opts.expect) {
        sent = true;
        socket.write(body);
      }
    });
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      // A whole answer on a connection the server keeps open: done (the client closes it).
      const text = data.toString('latin1').replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      const at = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, at))?.[1];
      if (
        at > 0 &&
        length !== undefined &&
        text.length - at - 4 >= Number(length) &&
        !/\r\nconnection: close/i.test(text.slice(0, at))
      ) {
        socket.destroy();
        return finish('kept alive');
      }
      if (opts.expect && !sent && data.toString('latin1').startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        continued = true;
        sent = true;
        socket.write(body);
      }
    });
    socket.on('end', () => {
      socket.end();
      finish('end');
    });
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code ?? err.message));
  });
}

describe('oversize requests are refused, and the refusal is delivered', () => {
  let h: Harness;
  let dir: string;
  const SIZES = [
    { name: '1 MiB + 60 B', bytes: MAX_BODY + 60 },
    { name: '10 MB', bytes: 10_000_000 },
  ];

  beforeAll(async () => {
    h = await startHarness();
    dir = mkdtempSync(join(tmpdir(), 'sitegraph-oversize-'));
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const TARGETS = [
    { where: '/graphql', path: '/graphql', headers: {} as Record<string, string> },
    { where: 'the SSE transport', path: '/graphql', headers: { accept: 'text/event-stream' } },
  ];

  describe.each(TARGETS)('$where', ({ path, headers }) => {
    it.each(SIZES)(
      'raw socket, whole body sent at once ($name): 413, the error body, Connection: close, then a graceful close',
      async ({ bytes }) => {
        const a = await raw(h.gateway.url, path, bodyOf(bytes), { headers });
        expect(a.head).toMatch(/^HTTP\/1\.1 413 /);
        expect(a.head.toLowerCase()).toContain('connection: close');
        expect(JSON.parse(a.body)).toEqual({
          errors: [
            {
              message: `Request body larger than ${MAX_BODY} bytes`,
              extensions: { code: 'BAD_REQUEST', maxBytes: MAX_BODY },
            },
          ],
        });
        expect(a.ended).toBe('end');
      },
    );

    it.each(SIZES)(
      'raw socket with Expect: 100-continue ($name): refused before the body is sent',
      async ({ bytes }) => {
        const a = await raw(h.gateway.url, path, bodyOf(bytes), { expect: true, headers });
        expect(a.continued).toBe(false);
        expect(a.head).toMatch(/^HTTP\/1\.1 413 /);
        expect(a.head.toLowerCase()).toContain('connection: close');
        expect(JSON.parse(a.body).errors[0].extensions).toEqual({ code: 'BAD_REQUEST', maxBytes: MAX_BODY });
        expect(a.ended).toBe('end');
      },
    );

    it.each(SIZES)('curl, with its own Expect: 100-continue and without ($name)', async ({ bytes }) => {
      const file = join(dir, `body-${bytes}`);
      writeFileSync(file, bodyOf(bytes));
      for (const expectHeader of [[], ['-H', 'Expect:']]) {
        const args = [
          '-sS',
          '-o',
          '-',
          '-w',
          '\n%{http_code}',
          '-X',
          'POST',
          '-H',
          'content-type: application/json',
          ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
          ...expectHeader,
          '--data-binary',
          `@${file}`,
          h.gateway.url,
        ];
        // A reset shows as curl's exit 56 ("Recv failure: Connection reset by peer"): execFile rejects.
        const { stdout } = await run('curl', args);
        const lines = stdout.trim().split('\n');
        expect(lines.at(-1), `curl ${expectHeader.length ? 'without' : 'with'} Expect`).toBe('413');
        expect(JSON.parse(lines.slice(0, -1).join('\n')).errors[0].extensions.code).toBe('BAD_REQUEST');
      }
    });

    it.each(SIZES)('undici (fetch) ($name)', async ({ bytes }) => {
      const res = await fetch(h.gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: bodyOf(bytes),
      });
      expect(res.status).toBe(413);
      expect(res.headers.get('connection')).toBe('close');
      expect(((await res.json()) as any).errors[0].extensions.code).toBe('BAD_REQUEST');
    });
  });

  it('a body at the cap is read and answered as usual, on a connection kept alive', async () => {
    const a = await raw(h.gateway.url, '/graphql', bodyOf(MAX_BODY));
    expect(a.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(a.ended).toBe('kept alive');
    expect(a.body.length).toBeGreaterThan(0);
    const b = await raw(h.gateway.url, '/graphql', bodyOf(MAX_BODY), { expect: true });
    expect(b.continued).toBe(true);
    expect(b.head).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('the admin listener refuses its own oversize body (64 KiB) the same way', async () => {
    const a = await raw(h.gateway.adminUrl, '/purge', bodyOf(1_000_000));
    expect(a.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(a.head.toLowerCase()).toContain('connection: close');
    expect(a.ended).toBe('end');
    const b = await raw(h.gateway.adminUrl, '/purge', bodyOf(1_000_000), { expect: true });
    expect(b.continued).toBe(false);
    expect(b.head).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('the WebSocket transport closes on a message over the cap with 1009, delivered (a close frame, not a reset)', async () => {
    const url = h.gateway.url.replace(/^http/, 'ws');
    for (const bytes of [MAX_BODY + 60, 10_000_000]) {
      const socket = new WebSocket(url, 'graphql-transport-ws');
      const errors: string[] = [];
      socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      socket.send(JSON.stringify({ type: 'connection_init' }));
      await new Promise<void>((resolve) => socket.once('message', () => resolve()));
      const closed = new Promise<{ code: number; reason: string }>((resolve) =>
        socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
      );
      socket.send(bodyOf(bytes).toString());
      const c = await closed;
      expect(c.code, `${bytes} bytes: ${JSON.stringify(c)} ${errors.join(', ')}`).toBe(1009);
      expect(errors).toEqual([]);
    }
  });
});
