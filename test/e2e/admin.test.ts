/**
 * The admin listener (docs/production.md "Admin listener"; src/admin/server.ts): /metrics,
 * /readyz and POST /purge there, and nothing of them on the public port, whose
 * /healthz says only that the process answers. Readiness comes from the
 * background reading of the site's index (READINESS_REFRESH_SECONDS), never a
 * request per call: 20 /readyz calls send no root-index request.
 */
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const rootReads = (h: Harness) => h.calls().filter((c) => c.method === 'GET' && c.path === '/').length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function purge(h: Harness, body: string, method = 'POST') {
  const res = await fetch(`${h.gateway.adminUrl}/purge`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(method === 'POST' ? { body } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('the public port', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(() => h?.close());

  it('keeps only a minimal /healthz: no site URL, namespaces or metrics', async () => {
    const origin = new URL(h.gateway.url).origin;
    const health = await fetch(`${origin}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    for (const path of ['/readyz', '/metrics', '/purge']) {
      const r = await fetch(origin + path);
      expect(r.status, path).toBe(404);
      expect(await r.text()).not.toContain(h.sandbox.url);
    }
  });

  it('has readiness answer 20 calls with no request to the site (the default refresh is every 15 s)', async () => {
    h.mark();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${h.gateway.adminUrl}/readyz`).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(20).fill(200));
    expect(rootReads(h)).toBe(0);
  });

  it('has an admin listener on loopback, on a port of its own', () => {
    const admin = new URL(h.gateway.adminUrl);
    expect(admin.hostname).toBe('127.0.0.1');
    expect(admin.port).not.toBe(new URL(h.gateway.url).port);
  });
});

describe('the admin listener', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { cache: { ttlSeconds: 60 }, admin: { readinessRefreshSeconds: 1 } } });
  }, 60_000);
  afterAll(() => h?.close());
  beforeEach(() => {
    h.sandbox.faults.clear();
    h.mark();
  });

  it('serves Prometheus metrics, compressed when asked', async () => {
    await h.gql('query AdminMetrics { __typename }');
    const res = await request(`${h.gateway.adminUrl}/metrics`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['content-encoding']).toBe('gzip');
    const text = gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString();
    expect(text).toMatch(/sitegraph_graphql_requests_total\{operation="AdminMetrics",outcome="ok"\} 1/);
  });

  it('answers 20 /readyz calls from the last reading: no root-index request', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${h.gateway.adminUrl}/readyz`).then(async (r) => ({ status: r.status, body: (await r.json()) as any })),
      ),
    );
    // At most the one background reading that may fall inside the calls.
    expect(rootReads(h)).toBeLessThanOrEqual(1);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({
        status: 'ready',
        site: expect.any(String),
        namespaces: expect.arrayContaining(['calendar/events/v1']),
      });
      expect(Date.parse(a.body.checkedAt)).toBeGreaterThan(Date.now() - 5_000);
    }
  });

  it('reads the index again in the background, every READINESS_REFRESH_SECONDS, and says when the site stops answering', async () => {
    await sleep(2_300);
    const background = rootReads(h);
    expect(background).toBeGreaterThanOrEqual(1);
    expect(background).toBeLessThanOrEqual(3);

    h.sandbox.faults.add({ path: '^/$', status: 503 });
    let down: { status: number; body: any } | undefined;
    for (let i = 0; i < 40; i++) {
      const r = await fetch(`${h.gateway.adminUrl}/readyz`);
      down = { status: r.status, body: await r.json() };
      if (down.status === 503) break;
      await sleep(100);
    }
    expect(down!.status).toBe(503);
    expect(down!.body.status).toBe('unavailable');
    expect(down!.body.reasons[0]).toMatch(/REST index could not be read/);
    // Meanwhile operations keep the last good reading.
    expect((await h.gql('{ site { name } }')).data.site.name).toBe('Sitegraph Sandbox');

    h.sandbox.faults.clear();
    let back = 0;
    for (let i = 0; i < 40 && back !== 200; i++) {
      await sleep(100);
      back = (await fetch(`${h.gateway.adminUrl}/readyz`)).status;
    }
    expect(back).toBe(200);
  });

  it('purges everything: the next reads go to the site', async () => {
    const q = '{ venues(first: 3) { nodes { title } } }';
    await h.gql(q);
    h.mark();
    await h.gql(q);
    expect(
      h.calls().filter((c) => c.method === 'GET' && c.path !== '/'),
      'cached',
    ).toEqual([]);
    const purged = await purge(h, JSON.stringify({ all: true }));
    expect(purged).toEqual({ status: 200, body: { purged: true, scope: 'all' } });
    h.mark();
    await h.gql(q);
    expect(h.calls().filter((c) => c.method === 'GET' && c.path !== '/').length, 'read again').toBeGreaterThan(0);
  });

  it('takes tags: the answers carrying one go, and the upstream layer beneath (which knows no tags) whole', async () => {
    const q = '{ organizers(first: 2) { nodes { title } } }';
    await h.gql(q);
    const purged = await purge(h, JSON.stringify({ tags: ['Event:42', 'list:organizers', 'Event:42'] }));
    expect(purged.status).toBe(200);
    expect(purged.body).toMatchObject({ purged: true, scope: 'tags', tags: 2 });
    h.mark();
    await h.gql(q);
    expect(h.calls().filter((c) => c.method === 'GET' && c.path !== '/').length).toBeGreaterThan(0);
  });

  it('refuses what is not a purge', async () => {
    expect((await purge(h, '{}')).status).toBe(400);
    expect((await purge(h, 'not json')).status).toBe(400);
    expect((await purge(h, JSON.stringify({ all: false }))).status).toBe(400);
    expect((await purge(h, JSON.stringify({ all: true, tags: ['x'] }))).status).toBe(400);
    expect((await purge(h, JSON.stringify({ tags: [''] }))).status).toBe(400);
    expect((await purge(h, JSON.stringify({ everything: true }))).body.error).toMatch(/unknown key "everything"/);
    expect((await purge(h, '', 'GET')).status).toBe(405);
    expect((await fetch(`${h.gateway.adminUrl}/graphql`)).status).toBe(404);
  });
});
