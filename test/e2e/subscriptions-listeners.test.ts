/**
 * Nothing of a poll, a re-read or a subscription stays on the gateway's
 * long-lived signals once it is over: the subscriptions' shutdown signal is
 * shared by every poll and every delivery's re-read, and a session used to
 * leave its listener (and with it, itself) on it for good, one per poll and
 * per re-read: the process's `MaxListenersExceededWarning` ("11 abort
 * listeners added to [AbortSignal]") and memory that grew for as long as it ran.
 *
 * Counted by `sitegraph_abort_listeners` (admin /metrics) after many polls,
 * changes and subscriptions that came and went, and by the warnings the
 * process emitted meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  metric,
  sleep,
  sse,
  startLive,
  subscribed,
  userPass,
  ws,
  type LiveHarness,
} from '../subscriptions/helpers.ts';

describe('listeners on long-lived signals (subscriptions)', () => {
  let h: LiveHarness;
  const warnings: Error[] = [];
  const onWarning = (w: Error) => void (w.name === 'MaxListenersExceededWarning' && warnings.push(w));

  beforeAll(async () => {
    process.on('warning', onWarning);
    h = await startLive({
      sandbox: { tec: '6.15' },
      automation: true,
      config: (sb) => ({
        admin: { readinessRefreshSeconds: 3_600 },
        subscriptions: { pollAuth: userPass(sb, 'admin') },
      }),
    });
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await h.close();
  });

  it('falls back to none once polls, re-reads and subscriptions are over, after dozens of each, with no leak warning', async () => {
    const pollsBefore = await metric(h.gateway, 'sitegraph_subscription_polls_total', { outcome: 'ok' });
    for (let round = 0; round < 3; round++) {
      const feeds = [
        ...Array.from({ length: 4 }, () =>
          sse(h.gateway.url, 'subscription { eventChanged { kind databaseId event { title } } }'),
        ),
        ...Array.from({ length: 4 }, () =>
          ws(h.gateway.url, 'subscription { postChanged { kind databaseId post { title } } }', {
            connectionParams: { Authorization: h.auth('admin') },
          }),
        ),
      ];
      await subscribed(h.gateway, 8);
      // Changes on the site: each is polled, then re-read once per credential for delivery.
      for (let i = 0; i < 4; i++) {
        const e = await h.rest.send(
          'POST',
          '/calendar/events/v1/events',
          { title: `Listener ${round}.${i}`, start_date: at(3, 10), end_date: at(3, 11), status: 'publish' },
          'admin',
        );
        expect(e.status).toBe(201);
        const p = await h.rest.send(
          'POST',
          '/core/v2/posts',
          { title: `Listener post ${round}.${i}`, status: 'publish', content: 'x' },
          'admin',
        );
        expect(p.status).toBe(201);
      }
      await feeds[0]!.next((r) => r.data?.eventChanged?.event?.title === `Listener ${round}.3`, 10_000);
      await feeds[4]!.next((r) => r.data?.postChanged?.post?.title === `Listener post ${round}.3`, 10_000);
      await Promise.all(feeds.map((f) => f.stop()));
    }
    // Many polls of every source went by (each a session on the shared signal)...
    expect(
      (await metric(h.gateway, 'sitegraph_subscription_polls_total', { outcome: 'ok' })) - pollsBefore,
    ).toBeGreaterThan(30);
    // ...and between two polls nothing is left on it: wait for a moment with no request under way.
    const until = Date.now() + 10_000;
    let left = await metric(h.gateway, 'sitegraph_abort_listeners');
    while (left > 0 && Date.now() < until) {
      await sleep(25);
      left = await metric(h.gateway, 'sitegraph_abort_listeners');
    }
    expect(left).toBe(0);
    expect(warnings.map((w) => w.message)).toEqual([]);
  }, 90_000);
});
