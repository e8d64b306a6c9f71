/**
 * The compatible graph as the gateway serves it: at WPGRAPHQL_PATH (or not at all when it is empty), through the
 * main graph's operation pipeline: rate limit, persisted documents and the safelist, the token cap, the depth limit,
 * the request budget, the refusals counted by stage, and GraphiQL for a browser.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import { FIRST_TAB } from '../../src/wpgraphql/handler.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: any[] } };
}

const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
const POSTS = '{ posts(first: 2) { nodes { databaseId title } } }';

describe('the compatible graph, mounted', () => {
  it('answers at /wpgraphql by default, and GraphiQL to a browser there', async () => {
    h = await startHarness();
    const url = new URL('/wpgraphql', h.gateway.url).href;
    const r = await post(url, { query: POSTS });
    expect(r.status).toBe(200);
    expect(r.body.data.posts.nodes).toHaveLength(2);
    const page = await fetch(url, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('WPGraphQL-compatible graph');
    // The page's first tab runs as it stands.
    const tab = await post(url, { query: FIRST_TAB });
    expect(tab.body.errors).toBeUndefined();
    expect(tab.body.data.posts.nodes.length).toBeGreaterThan(0);
  });

  it('answers at the path WPGRAPHQL_PATH names, and nowhere when it is empty', async () => {
    h = await startHarness({ config: { wpgraphql: { path: '/wp/graphql' } } });
    expect((await post(new URL('/wp/graphql', h.gateway.url).href, { query: POSTS })).status).toBe(200);
    expect((await post(new URL('/wpgraphql', h.gateway.url).href, { query: POSTS })).status).toBe(404);
    await h.close();
    h = await startHarness({ config: { wpgraphql: { path: '' } } });
    expect((await post(new URL('/wpgraphql', h.gateway.url).href, { query: POSTS })).status).toBe(404);
  });

  it('refuses a path the main listener uses, naming the setting', () => {
    for (const path of ['/graphql', '/healthz', '/graphiql/x.js', 'wpgraphql'])
      expect(() => parseConfig({ wpgraphql: { path } })).toThrow(/wpgraphql\.path|WPGRAPHQL_PATH/);
  });

  it("applies the main graph's limits: depth, and the anonymous request budget before anything is sent", async () => {
    h = await startHarness({ config: { limits: { maxDepth: 5 } } });
    const url = new URL('/wpgraphql', h.gateway.url).href;
    h.mark();
    const deep = await post(url, { query: '{ posts { nodes { categories { nodes { posts { nodes { id } } } } } } }' });
    expect(deep.status).toBe(400);
    expect(deep.body.errors?.[0]?.extensions).toMatchObject({ limit: 'maxDepth' });
    // 100 posts, each with 100 categories: 2 + 100 x 2 site requests, over the anonymous budget of 50.
    const wide = await post(url, {
      query: '{ posts(first: 100) { nodes { categories(first: 100) { nodes { name } } } } }',
    });
    expect(wide.status).toBe(400);
    expect(wide.body.errors?.[0]?.extensions).toMatchObject({ code: 'REQUEST_BUDGET_EXCEEDED', budget: 50 });
    // Refused before anything is sent.
    expect(h.calls()).toEqual([]);
  });

  it('runs the rate limit first, counting the compatible graph with the main one', async () => {
    h = await startHarness({ config: { rateLimit: { max: 2, windowSeconds: 60 } } });
    const url = new URL('/wpgraphql', h.gateway.url).href;
    expect((await post(url, { query: POSTS })).status).toBe(200);
    expect((await post(h.gateway.url, { query: '{ __typename }' })).status).toBe(200);
    const third = await post(url, { query: POSTS });
    expect(third.status).toBe(429);
    expect(third.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });

  it('with SAFELIST=1, runs manifest documents only, by id or by their exact text', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wp-safelist-'));
    const manifest = join(dir, 'persisted-documents.json');
    await writeFile(manifest, JSON.stringify({ [sha256Hex(POSTS)]: POSTS }));
    h = await startHarness({ config: { persistedDocuments: { manifest, safelist: true } } });
    const url = new URL('/wpgraphql', h.gateway.url).href;
    expect((await post(url, { query: POSTS })).status).toBe(200);
    expect((await post(url, { documentId: sha256Hex(POSTS) })).body.data.posts.nodes).toHaveLength(2);
    const adhoc = await post(url, { query: '{ posts(first: 1) { nodes { id } } }' });
    expect(adhoc.status).toBe(403);
    expect(adhoc.body.errors?.[0]?.extensions?.code).toBe('OPERATION_NOT_ALLOWED');
  });

  it('counts its refusals by stage on /metrics', async () => {
    h = await startHarness();
    const url = new URL('/wpgraphql', h.gateway.url).href;
    await post(url, { query: '{ posts { nodes { comments { nodes { id } } } } }' });
    const metrics = await (await fetch(new URL('/metrics', h.gateway.adminUrl))).text();
    expect(metrics).toMatch(/sitegraph_operations_refused_total\{transport="http",stage="validate"\} 1/);
  });
});
