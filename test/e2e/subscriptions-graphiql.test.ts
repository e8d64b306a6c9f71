/**
 * GraphiQL runs subscriptions (src/graphiql.ts): in a real browser (Debian's
 * Chromium through playwright-core), the ready "Live event changes" tab runs
 * over GraphQL over SSE, and over WebSocket with `?subscriptions=ws`; a write
 * through the gateway then shows up in the result pane. Everything comes from
 * the gateway itself.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionExamples } from '../../src/graphiql.ts';
import { at, startLive, subscribed, type LiveHarness } from '../subscriptions/helpers.ts';
import { externalRequests, launchChromium } from '../helpers/browser.ts';

describe('GraphiQL runs subscriptions', () => {
  let h: LiveHarness;
  let browser: Browser;
  let n = 0;

  beforeAll(async () => {
    h = await startLive();
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('has a ready subscription tab', () => {
    expect(subscriptionExamples().map((e) => e.title)).toEqual(['Live event changes']);
    expect(subscriptionExamples()[0]!.query).toMatch(/^subscription LiveEvents \{/m);
  });

  for (const transport of ['sse', 'ws'] as const) {
    it(`runs the tab over ${transport === 'sse' ? 'SSE' : 'WebSocket'} and shows a change as it comes`, async () => {
      const page = await browser.newPage();
      const external = externalRequests(page);
      await page.goto(transport === 'ws' ? `${h.gateway.url}?subscriptions=ws` : h.gateway.url, { waitUntil: 'load' });
      await page.locator('.graphiql-container').waitFor({ timeout: 20_000 });
      await page.locator('.graphiql-tab', { hasText: 'LiveEvents' }).click();
      // The tab's document must be in the editor before it runs: a click on a slow page runs the tab before.
      await expect
        .poll(async () => page.locator('.graphiql-query-editor').innerText(), { timeout: 20_000 })
        .toContain('subscription LiveEvents');
      const before = Number(
        (await h.gateway.metrics.registry.getSingleMetric('sitegraph_subscriptions_active')?.get())?.values.reduce(
          (s, v) => s + v.value,
          0,
        ) ?? 0,
      );
      await page.locator('.graphiql-execute-button').click();
      await subscribed(h.gateway, before + 1, undefined, 20_000).catch(async (e: Error) => {
        throw new Error(
          `${e.message}; the result pane shows: ${await page
            .locator('.graphiql-response')
            .innerText()
            .catch(() => '(none)')}`,
        );
      });
      const title = `From GraphiQL ${transport} ${++n}`;
      const day = at(2).slice(0, 10);
      const r = await h.gql(
        `mutation($i: EventInput!) { createEvent(input: $i) { event { databaseId } } }`,
        { i: { title, startDate: `${day}T10:00:00Z`, endDate: `${day}T11:00:00Z`, status: 'PUBLISH' } },
        'admin',
      );
      expect(r.errors).toBeUndefined();
      const response = page.locator('.graphiql-response');
      await expect.poll(async () => response.innerText(), { timeout: 20_000 }).toContain(title);
      const text = await response.innerText();
      expect(text).toContain('"CREATED"');
      expect(text).toContain('"GATEWAY"');
      expect(text).not.toContain('"errors"');
      expect(external).toEqual([]);
      await page.close();
    }, 60_000);
  }
});
