import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { parseSandboxOptions, sandboxOptionsFromEnv } from '../../packages/sandbox/src/options.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

describe('the sandbox site', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let logFile: string;

  beforeAll(async () => {
    logFile = join(mkdtempSync(join(tmpdir(), 'sandbox-log-')), 'requests.jsonl');
    sb = await testSandbox({ requestLog: logFile });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  describe('root index', () => {
    it('describes the site, its namespaces and application passwords', async () => {
      const r = await api.get('/');
      expect(r.status).toBe(200);
      expect(r.body.name).toBe('Sitegraph Sandbox');
      expect(r.body.url).toBe(sb.origin);
      expect(r.body.timezone_string).toBe('America/New_York');
      expect(typeof r.body.gmt_offset).toBe('number');
      expect(r.body.namespaces).toEqual(
        expect.arrayContaining(['calendar/events/v1', 'calendar-core/v1', 'seo/v1', 'core/v2', 'oembed/1.0']),
      );
      expect(r.body.namespaces).toHaveLength(16);
      expect(r.body.authentication['application-passwords'].endpoints.authorization).toMatch(
        /authorize-application\.php$/,
      );
    });

    it('lists routes with methods, endpoints and args, / and /batch/v1 with an empty namespace', async () => {
      const r = await api.get('/');
      expect(r.body.routes['/'].namespace).toBe('');
      const batch = r.body.routes['/batch/v1'];
      expect(batch.namespace).toBe('');
      expect(batch.methods).toEqual(['POST']);
      expect(batch.endpoints[0].args.requests).toMatchObject({ required: true, type: 'array', maxItems: 25 });
      expect(batch.endpoints[0].args.validation).toMatchObject({
        required: false,
        default: 'normal',
        enum: ['require-all-validate', 'normal'],
      });
    });

    it('serves an index for every namespace', async () => {
      const root = await api.get('/');
      for (const ns of root.body.namespaces as string[]) {
        const r = await api.get(`/${ns}`);
        expect(r.status, ns).toBe(200);
        expect(r.body.namespace).toBe(ns);
        expect(Object.keys(r.body.routes)).toContain(`/${ns}`);
        expect(r.body._links.up[0].href).toBe(`${sb.url}`);
      }
    });
  });

  describe('WordPress conventions', () => {
    it('encodes JSON as wp_json_encode does: non-ASCII as \\uXXXX, slashes as \\/, so bodies are pure ASCII', async () => {
      const title = 'Café Zürich — 東京 🎉';
      const created = await api.send(
        'POST',
        '/calendar/events/v1/events',
        { title, start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00' },
        'admin',
      );
      expect(created.status).toBe(201);
      const r = await api.get(`/calendar/events/v1/events/${created.body.id}`);
      expect(r.body.title).toBe(title);
      expect(r.text).toMatch(/^[\x00-\x7f]*$/);
      expect(r.text).toContain('"title":"Caf\\u00e9 Z\\u00fcrich \\u2014 \\u6771\\u4eac \\ud83c\\udf89"');
      expect(r.text).toContain('"url":"http:\\/\\/');
      expect(r.text).not.toMatch(/[^\\]\//);
    });

    it('answers unknown paths and wrong methods with rest_no_route 404', async () => {
      for (const [m, p] of [
        ['GET', '/nope/v1/x'],
        ['DELETE', '/'],
        ['GET', '/batch/v1'],
      ] as const) {
        const r = await api.send(m, p);
        expect(r.status).toBe(404);
        expect(r.body).toEqual({
          code: 'rest_no_route',
          message: 'No route was found matching the URL and request method.',
          data: { status: 404 },
        });
      }
    });

    it('rejects bad credentials before routing, with 401 and the WordPress codes', async () => {
      const basic = (s: string) => ({ authorization: `Basic ${Buffer.from(s).toString('base64')}` });
      let r = await api.get('/nope', null, basic('admin:wrong'));
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('incorrect_password');
      r = await api.get('/', null, basic('ghost:whatever'));
      expect(r.body.code).toBe('invalid_username');
      r = await api.get('/', null, basic('ghost@nowhere.example:whatever'));
      expect(r.body.code).toBe('invalid_email');
    });

    it('accepts the application password with or without its spaces, and by email', async () => {
      const admin = sb.users.find((u) => u.login === 'admin')!;
      for (const cred of [
        `admin:${admin.appPassword}`,
        `admin:${admin.appPassword.replace(/ /g, '')}`,
        `${admin.email}:${admin.appPassword}`,
      ]) {
        const r = await api.send('POST', '/batch/v1', { requests: [] }, null, {
          authorization: `Basic ${Buffer.from(cred).toString('base64')}`,
        });
        expect(r.status).toBe(207);
      }
    });

    it('sends rest_invalid_json for a broken JSON body', async () => {
      const res = await fetch(`${sb.url}batch/v1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"requests": [',
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).code).toBe('rest_invalid_json');
    });

    it('serves the REST root through ?rest_route= too', async () => {
      const res = await fetch(`${sb.origin}/?rest_route=/calendar/events/v1`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).namespace).toBe('calendar/events/v1');
    });
  });

  describe('batch/v1 envelope', () => {
    it('refuses more than 25 requests as a whole', async () => {
      const requests = Array.from({ length: 26 }, () => ({ path: '/core/v2/posts', body: {} }));
      const r = await api.send('POST', '/batch/v1', { requests }, 'admin');
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('rest_invalid_param');
      expect(r.body.data.details.requests.code).toBe('rest_too_many_items');
      expect(r.body.data.params.requests).toBe('requests must contain at most 25 items.');
    });

    it('refuses GET items as a whole (the reference sample)', async () => {
      const r = await api.send('POST', '/batch/v1', { requests: [{ method: 'GET', path: '/core/v2/posts' }] }, 'admin');
      expect(r.status).toBe(400);
      expect(r.body.data.params.requests).toBe('requests[0][method] is not one of POST, PUT, PATCH, and DELETE.');
    });

    it('reports unknown item routes per item with 207', async () => {
      const r = await api.send('POST', '/batch/v1', { requests: [{ path: '/nope/v1/x', body: {} }] }, 'admin');
      expect(r.status).toBe(207);
      expect(r.body.responses[0].status).toBe(404);
      expect(r.body.responses[0].body.code).toBe('rest_no_route');
    });

    it('needs the requests argument', async () => {
      const r = await api.send('POST', '/batch/v1', {}, 'admin');
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['requests'] } });
    });
  });

  describe('request log', () => {
    it('appends one JSON line per request to SANDBOX_REQUEST_LOG, with the matched route', async () => {
      await api.get('/calendar/events/v1?context=view');
      const lines = readFileSync(logFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const last = lines.at(-1);
      expect(last).toMatchObject({
        method: 'GET',
        path: '/calendar/events/v1',
        query: { context: 'view' },
        status: 200,
        route: '/calendar/events/v1',
      });
      expect(typeof last.ms).toBe('number');
      expect(sb.log.entries.length).toBe(lines.length);
    });
  });

  describe('fault injection', () => {
    it('answers with an injected status the given number of times', async () => {
      sb.faults.add({ path: '^/calendar/events/v1$', status: 503, times: 1 });
      expect((await api.get('/calendar/events/v1')).status).toBe(503);
      expect((await api.get('/calendar/events/v1')).status).toBe(200);
    });

    it('resets the connection', async () => {
      sb.faults.add({ path: '^/calendar/events/v1$', reset: true, times: 1 });
      await expect(fetch(`${sb.url}calendar/events/v1`)).rejects.toThrow();
    });

    it('sends malformed JSON', async () => {
      sb.faults.add({ path: '^/calendar/events/v1$', malformed: true, times: 1 });
      const res = await fetch(`${sb.url}calendar/events/v1`);
      expect(res.status).toBe(200);
      await expect(res.json()).rejects.toThrow();
    });

    it('stalls the body', async () => {
      sb.faults.add({ path: '^/calendar/events/v1$', slowBodyMs: 300, times: 1 });
      const t = performance.now();
      const res = await fetch(`${sb.url}calendar/events/v1`);
      await res.text();
      expect(performance.now() - t).toBeGreaterThanOrEqual(280);
    });

    it('is controlled over HTTP too, and refuses bad rules', async () => {
      let res = await fetch(`${sb.origin}/__sandbox/faults`, {
        method: 'POST',
        body: JSON.stringify({ path: '^/$', status: 502, times: 1 }),
      });
      expect(res.status).toBe(201);
      expect((await api.get('/')).status).toBe(502);
      res = await fetch(`${sb.origin}/__sandbox/faults`, {
        method: 'POST',
        body: JSON.stringify({ path: '(', status: 502 }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).message).toMatch(/not a regular expression/);
      res = await fetch(`${sb.origin}/__sandbox/faults`, { method: 'DELETE' });
      expect(res.status).toBe(200);
    });
  });

  describe('latency', () => {
    it('adds SANDBOX_LATENCY_MS to every response', async () => {
      const slow = await testSandbox({ latencyMs: 150, demo: false });
      try {
        const t = performance.now();
        await fetch(`${slow.url}`);
        expect(performance.now() - t).toBeGreaterThanOrEqual(140);
      } finally {
        await slow.close();
      }
    });
  });

  describe('options', () => {
    it('reads SANDBOX_* variables and refuses bad ones clearly', () => {
      expect(sandboxOptionsFromEnv({ SANDBOX_LATENCY_MS: '20', SANDBOX_DB: ':memory:' })).toMatchObject({
        latencyMs: 20,
        db: ':memory:',
      });
      expect(() => sandboxOptionsFromEnv({ SANDBOX_LATENCY_MS: 'fast' })).toThrow(
        /SANDBOX_LATENCY_MS must be an integer/,
      );
      expect(() => sandboxOptionsFromEnv({ SANDBOX_FAULTS: '{nope' })).toThrow(/SANDBOX_FAULTS/);
      expect(() => parseSandboxOptions({ port: 70000 })).toThrow(/port/);
    });
  });
});

describe('demo data', () => {
  it('is the same for the same seed and anchor', async () => {
    const dump = async () => {
      const sb = await testSandbox({ anchor: '2026-06-01' });
      try {
        const posts = sb.site.store.db
          .prepare('SELECT id, type, status, title, slug, date, meta FROM posts ORDER BY id')
          .all();
        const terms = sb.site.store.db.prepare('SELECT * FROM terms ORDER BY id').all();
        const rels = sb.site.store.db.prepare('SELECT * FROM term_relationships ORDER BY post_id, term_id').all();
        return JSON.stringify({ posts, terms, rels });
      } finally {
        await sb.close();
      }
    };
    const [a, b] = [await dump(), await dump()];
    expect(a).toBe(b);
    const other = await testSandbox({ anchor: '2026-06-01', seed: 7 });
    try {
      const titles = other.site.store.db
        .prepare("SELECT title FROM posts WHERE type = 'calendar_events' ORDER BY id LIMIT 5")
        .all();
      expect(JSON.stringify(titles)).not.toBe(
        JSON.stringify(
          JSON.parse(a)
            .posts.filter((p: any) => p.type === 'calendar_events')
            .slice(0, 5)
            .map((p: any) => ({ title: p.title })),
        ),
      );
    } finally {
      await other.close();
    }
  });

  it('has the promised variety', async () => {
    const sb = await testSandbox();
    try {
      const q = (sql: string) => (sb.site.store.db.prepare(sql).get() as { n: number }).n;
      expect(q("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events'")).toBeGreaterThanOrEqual(500);
      expect(q("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_venue'")).toBe(40);
      expect(q("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_organizer'")).toBe(60);
      expect(
        q("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_venue' AND json_extract(meta, '$.lat') IS NOT NULL"),
      ).toBeGreaterThan(10);
      for (const status of ['publish', 'draft', 'pending', 'private', 'trash', 'future']) {
        expect(
          q(`SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND status = '${status}'`),
          status,
        ).toBeGreaterThan(0);
      }
      for (const flag of ['allDay', 'featured', 'hideFromListings', 'virtual']) {
        expect(
          q(`SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND json_extract(meta, '$.${flag}') = 1`),
          flag,
        ).toBeGreaterThan(0);
      }
      expect(q("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND menu_order = -1")).toBeGreaterThan(0);
      expect(q("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND password != ''")).toBeGreaterThan(0);
      expect(
        q("SELECT COUNT(DISTINCT json_extract(meta, '$.timezone')) n FROM posts WHERE type = 'calendar_events'"),
      ).toBeGreaterThanOrEqual(5);
      expect(
        q("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND json_extract(meta, '$.seriesId') > 0"),
      ).toBeGreaterThan(0);
      expect(q("SELECT COUNT(*) n FROM terms WHERE taxonomy = 'calendar_events_cat' AND parent > 0")).toBeGreaterThan(
        0,
      );
      expect(
        q(
          "SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND substr(json_extract(meta, '$.startDateUtc'), 1, 10) < date('now')",
        ),
      ).toBeGreaterThan(100);
      expect(
        q(
          "SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND substr(json_extract(meta, '$.startDateUtc'), 1, 10) > date('now')",
        ),
      ).toBeGreaterThan(100);
    } finally {
      await sb.close();
    }
  });
});

describe('the site clock', () => {
  it('runs from SANDBOX_NOW when given, and refuses a bad one', async () => {
    const sb = await testSandbox({ demo: false, now: '2030-01-15T12:00:00Z' });
    try {
      const t = sb.site.now().getTime();
      expect(t).toBeGreaterThanOrEqual(Date.parse('2030-01-15T12:00:00Z'));
      expect(t).toBeLessThan(Date.parse('2030-01-15T12:01:00Z'));
    } finally {
      await sb.close();
    }
    expect(sandboxOptionsFromEnv({ SANDBOX_NOW: '2030-01-15T12:00:00Z' })).toMatchObject({
      now: '2030-01-15T12:00:00Z',
    });
    expect(() => parseSandboxOptions({ now: 'yesterday-ish' })).toThrow(/now: must be an RFC 3339 date-time/);
  });
});

describe('site variants', () => {
  it('drops a disabled namespace from the index and its routes', async () => {
    const sb = await testSandbox({ disable: ['calendar-core/v1'], demo: false });
    try {
      const api = restClient(sb);
      const root = await api.get('/');
      expect(root.body.namespaces).not.toContain('calendar-core/v1');
      expect(Object.keys(root.body.routes).some((r) => r.startsWith('/calendar-core/v1'))).toBe(false);
      expect((await api.get('/calendar-core/v1/events')).body.code).toBe('rest_no_route');
    } finally {
      await sb.close();
    }
  });

  it('marks nothing batchable when told to, and refuses every batch item', async () => {
    const sb = await testSandbox({ batchable: false, demo: false });
    try {
      const api = restClient(sb);
      const root = await api.get('/');
      const anyBatch = Object.values(root.body.routes as Record<string, any>).some((r) =>
        r.endpoints.some((e: any) => e.allow_batch),
      );
      expect(anyBatch).toBe(false);
      const r = await api.send(
        'POST',
        '/batch/v1',
        { requests: [{ path: '/calendar-core/v1/venues', body: { title: 'x' } }] },
        'admin',
      );
      expect(r.body.responses[0].body.code).toBe('rest_batch_not_allowed');
    } finally {
      await sb.close();
    }
  });
});
