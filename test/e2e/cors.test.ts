/**
 * CORS in a real browser (Debian's Chromium through playwright-core): pages
 * served from two other loopback origins call the gateway with fetch (POST
 * JSON, so preflighted). The allowlisted origin gets its answer, with and
 * without credentials mode as CORS_CREDENTIALS says; the other origin is
 * refused by the browser, and its POST never reaches GraphQL. Preflights are
 * answered, and CSRF prevention still refuses simple cross-site POSTs.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A page server on its own loopback port: its origin is `http://127.0.0.1:<port>`. */
async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>front end</title><p>front end</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Outcome {
  ok: boolean;
  status?: number;
  body?: string;
  error?: string;
}

/** fetch from inside the page: what the browser lets the page see. */
function callFrom(
  page: Page,
  url: string,
  init: { credentials?: 'omit' | 'same-origin' | 'include'; authorization?: string } = {},
): Promise<Outcome> {
  return page.evaluate(
    async ({ url, credentials, authorization }) => {
      try {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (authorization) headers.authorization = authorization;
        const r = await fetch(url, {
          method: 'POST',
          headers,
          credentials: credentials ?? 'same-origin',
          body: JSON.stringify({ query: 'query FromBrowser { __typename site { name } }' }),
        });
        return { ok: true, status: r.status, body: await r.text() };
      } catch (e) {
        return { ok: false, error: String(e) };
      }
    },
    { url, credentials: init.credentials, authorization: init.authorization },
  );
}

describe('CORS', () => {
  let h: Harness;
  /** A second gateway on the same site, allowing credentials. */
  let withCredentials: Gateway;
  let browser: Browser;
  let allowed: { server: Server; origin: string };
  let other: { server: Server; origin: string };
  let allowedPage: Page;
  let otherPage: Page;

  const graphqlRequests = async (gateway: Gateway) => {
    const text = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
    return [...text.matchAll(/^sitegraph_graphql_requests_total\{[^}]*operation="FromBrowser"[^}]*\} (\d+)$/gm)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
  };

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH`,
      );
    allowed = await pageServer();
    other = await pageServer();
    h = await startHarness({ config: { cors: { origins: [allowed.origin], credentials: false } } });
    withCredentials = await startGateway(
      parseConfig({ port: 0, cors: { origins: [allowed.origin], credentials: true } }),
      h.sandbox.url,
    );
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    allowedPage = await browser.newPage();
    await allowedPage.goto(allowed.origin);
    otherPage = await browser.newPage();
    await otherPage.goto(other.origin);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await withCredentials?.close();
    await h?.close();
    for (const s of [allowed, other]) if (s) await new Promise((resolve) => s.server.close(resolve));
  });

  it("lets the allowed origin call the gateway (a preflighted JSON POST), with the caller's Authorization too", async () => {
    const r = await callFrom(allowedPage, h.gateway.url);
    expect(r).toMatchObject({ ok: true, status: 200 });
    expect(JSON.parse(r.body!)).toEqual({ data: { __typename: 'Query', site: { name: 'Sitegraph Sandbox' } } });
    // The credential a front end sends itself is a header CORS allows; no credentials mode needed.
    const authed = await callFrom(allowedPage, h.gateway.url, { authorization: h.auth('editor') });
    expect(authed).toMatchObject({ ok: true, status: 200 });
  }, 30_000);

  it('refuses another origin: the browser gets no CORS headers and never sends the POST', async () => {
    const before = await graphqlRequests(h.gateway);
    const r = await callFrom(otherPage, h.gateway.url);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/Failed to fetch/);
    // The preflight failed, so no GraphQL request was made.
    expect(await graphqlRequests(h.gateway)).toBe(before);
  }, 30_000);

  it("credentials mode ('include') works only where CORS_CREDENTIALS allows it", async () => {
    const refused = await callFrom(allowedPage, h.gateway.url, { credentials: 'include' });
    expect(refused.ok).toBe(false);
    const r = await callFrom(allowedPage, withCredentials.url, { credentials: 'include' });
    expect(r).toMatchObject({ ok: true, status: 200 });
    expect(JSON.parse(r.body!).data.__typename).toBe('Query');
    // Still only for the allowlisted origin.
    expect((await callFrom(otherPage, withCredentials.url, { credentials: 'include' })).ok).toBe(false);
  }, 30_000);

  it('answers preflights with the Access-Control-* headers and Vary: Origin, only for allowed origins', async () => {
    const preflight = (origin: string) =>
      fetch(h.gateway.url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization',
        },
      });
    const ok = await preflight(allowed.origin);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(allowed.origin);
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/content-type.*authorization/);
    expect(ok.headers.get('access-control-max-age')).toBe('600');
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    expect(ok.headers.get('vary')).toBe('Origin');
    const no = await preflight(other.origin);
    expect(no.status).toBe(204);
    expect([...no.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
    expect(no.headers.get('vary')).toBe('Origin');
    const cred = await fetch(withCredentials.url, {
      method: 'OPTIONS',
      headers: { origin: allowed.origin, 'access-control-request-method': 'POST' },
    });
    expect(cred.headers.get('access-control-allow-credentials')).toBe('true');
    // Actual answers carry them too, and Vary tells caches the answer depends on Origin.
    const post = await fetch(h.gateway.url, {
      method: 'POST',
      headers: { origin: allowed.origin, 'content-type': 'application/json' },
      body: '{"query":"{ __typename }"}',
    });
    expect(post.headers.get('access-control-allow-origin')).toBe(allowed.origin);
    // An answer also varies with Accept-Encoding (it may be compressed: docs/production.md "Compression").
    expect(post.headers.get('vary')).toBe('Origin, Accept-Encoding');
  });

  it('keeps CSRF prevention for everything else, even from an allowed origin', async () => {
    const simple = await fetch(h.gateway.url, {
      method: 'POST',
      headers: { origin: allowed.origin, 'content-type': 'text/plain' },
      body: '{"query":"{ __typename }"}',
    });
    expect(simple.status).toBe(400);
    expect(await simple.text()).toMatch(/CSRF/);
  });

  it('is off by default, and CORS_ORIGINS must list origins', () => {
    expect(loadConfig({}).cors).toEqual({ origins: [], credentials: false });
    expect(
      loadConfig({ CORS_ORIGINS: 'https://app.example.org, http://localhost:5173', CORS_CREDENTIALS: '1' }).cors,
    ).toEqual({
      origins: ['https://app.example.org', 'http://localhost:5173'],
      credentials: true,
    });
    for (const bad of ['https://app.example.org/', 'app.example.org', '*', 'ftp://files.example.org']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS|cors\.origins/);
    }
  });
});
