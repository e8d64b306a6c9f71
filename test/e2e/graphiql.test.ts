/**
 * A real browser (Debian's Chromium through playwright-core) opens /graphql,
 * gets GraphiQL from the gateway's own assets (no network beyond loopback),
 * runs the first example query and reads the result. (Playwright gives the
 * browser a fresh, empty profile directory of its own.)
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { externalRequests, launchChromium } from '../helpers/browser.ts';

describe('GraphiQL in a browser', () => {
  let h: Harness;
  let browser: Browser;

  beforeAll(async () => {
    h = await startHarness();
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('loads from the gateway, runs an example query and shows the result', async () => {
    const page = await browser.newPage();
    const external = externalRequests(page);
    // What the page sends to /graphql: its blank headers editor adds no Authorization header.
    const sent: Record<string, string>[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && new URL(req.url()).pathname === '/graphql') sent.push(req.headers());
    });
    await page.goto(h.gateway.url, { waitUntil: 'load' });
    await page.locator('.graphiql-container').waitFor({ timeout: 20_000 });
    // The schema arrives by introspection; the docs explorer then lists the root types.
    await page.locator('.graphiql-execute-button').click();
    const response = page.locator('.graphiql-response');
    await expect.poll(async () => response.innerText(), { timeout: 20_000 }).toContain('totalCount');
    const text = await response.innerText();
    expect(text).toContain('"events"');
    expect(text).not.toContain('"errors"');
    expect(external).toEqual([]);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.filter((h) => 'authorization' in h)).toEqual([]);
    await page.close();
  }, 60_000);

  it('serves its scripts from the gateway itself', async () => {
    for (const asset of [
      'graphiql.min.js',
      'graphiql.min.css',
      'react.production.min.js',
      'react-dom.production.min.js',
    ]) {
      const res = await fetch(new URL(`/graphiql/${asset}`, h.gateway.url));
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });
});
