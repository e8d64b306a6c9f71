/**
 * `site-audit-log/v1`: the sandbox's contract (docs/sandbox-platform.md, after
 * other-upstream.md §2): `/logs` as a WordPress-style collection with every
 * filter, `/export` as CSV, `manage_options` for both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const LOGS = '/site-audit-log/v1/logs';
const EXPORT = '/site-audit-log/v1/export';

interface Entry {
  id: number;
  blog_id: number;
  user_id: number;
  user_login: string;
  object_type: string;
  action: string;
  priority: string;
  message: string;
  created_at: string;
}

/** A minimal RFC 4180 reader for checking the export. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('site-audit-log/v1', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  const entries = (where = '1 = 1', ...args: unknown[]) =>
    sb.site.store.db
      .prepare(`SELECT * FROM audit_log WHERE ${where} ORDER BY created_at DESC, id DESC`)
      .all(...args) as Entry[];
  const ids = (body: any[]) => body.map((e) => e.id);
  const list = async (query: string) => {
    const r = await api.get(`${LOGS}?per_page=100&${query}`, 'admin');
    expect(r.status, r.text).toBe(200);
    return r;
  };

  beforeAll(async () => {
    sb = await testSandbox({ events: 20 });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  it('holds a few hundred seeded entries over several sites, users, object types, actions and priorities', () => {
    const all = entries();
    expect(all.length).toBeGreaterThanOrEqual(300);
    expect(new Set(all.map((e) => e.blog_id)).size).toBe(4);
    expect(new Set(all.map((e) => e.user_id)).size).toBe(6);
    expect(new Set(all.map((e) => e.object_type)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(all.map((e) => e.priority))).toEqual(new Set(['low', 'medium', 'high', 'critical']));
  });

  describe('permissions', () => {
    it.each([
      [null, 401],
      ['subscriber', 403],
      ['editor', 403],
    ] as const)('refuses %s (%i) on both routes', async (who, status) => {
      for (const path of [LOGS, EXPORT]) {
        const r = await api.get(path, who as Who);
        expect(r.status).toBe(status);
        expect(r.body).toEqual({
          code: 'rest_forbidden',
          message: 'Sorry, you are not allowed to do that.',
          data: { status },
        });
      }
    });
  });

  describe('/logs', () => {
    it('answers 20 entries, newest first, with the totals and a next link', async () => {
      const r = await api.get(LOGS, 'admin');
      const all = entries();
      expect(ids(r.body)).toEqual(all.slice(0, 20).map((e) => e.id));
      expect(r.headers.get('x-wp-total')).toBe(String(all.length));
      expect(r.headers.get('x-wp-totalpages')).toBe(String(Math.ceil(all.length / 20)));
      expect(r.headers.get('link')).toBe(`<${sb.url}site-audit-log/v1/logs?page=2>; rel="next"`);
      expect(Object.keys(r.body[0])).toEqual([
        'id',
        'blog_id',
        'user_id',
        'user_login',
        'object_type',
        'object_id',
        'object_name',
        'action',
        'priority',
        'message',
        'ip',
        'created_at',
      ]);
      expect(r.body[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    });

    it('pages with page and per_page, oldest first with order=asc', async () => {
      const all = entries();
      const r = await api.get(`${LOGS}?per_page=7&page=3`, 'admin');
      expect(ids(r.body)).toEqual(all.slice(14, 21).map((e) => e.id));
      expect(r.headers.get('link')).toContain('rel="prev"');
      const asc = await api.get(`${LOGS}?order=asc&per_page=5`, 'admin');
      expect(ids(asc.body)).toEqual(
        [...all]
          .reverse()
          .slice(0, 5)
          .map((e) => e.id),
      );
    });

    it('answers an empty page past the end', async () => {
      const r = await api.get(`${LOGS}?page=500`, 'admin');
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
      expect(r.headers.get('x-wp-total')).toBe(String(entries().length));
    });

    it.each([
      ['per_page=101', 'per_page', 'rest_out_of_bounds', 'per_page must be between 1 (inclusive) and 100 (inclusive)'],
      ['per_page=0', 'per_page', 'rest_out_of_bounds', 'per_page must be between 1 (inclusive) and 100 (inclusive)'],
      ['page=0', 'page', 'rest_out_of_bounds', 'page must be greater than or equal to 1'],
      ['order=newest', 'order', 'rest_not_in_enum', 'order is not one of asc and desc.'],
      ['priority=urgent', 'priority', 'rest_not_in_enum', 'priority is not one of low, medium, high, critical.'],
      ['start_date=last+week', 'start_date', 'rest_invalid_date', 'Invalid date.'],
      ['blog_id=main', 'blog_id', 'rest_invalid_type', 'blog_id must be a list of integers.'],
    ])('refuses %s', async (query, param, code, message) => {
      const r = await api.get(`${LOGS}?${query}`, 'admin');
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('rest_invalid_param');
      expect(r.body.data.params[param]).toBe(message);
      expect(r.body.data.details[param].code).toBe(code);
    });

    it('validates before checking permission', async () => {
      expect((await api.get(`${LOGS}?per_page=500`)).status).toBe(400);
    });

    it('filters by blog_id, user_id, object_type, action and priority (comma lists allowed)', async () => {
      expect(ids((await list('blog_id=2')).body)).toEqual(
        entries('blog_id = 2')
          .map((e) => e.id)
          .slice(0, 100),
      );
      expect((await list('blog_id=3,4')).headers.get('x-wp-total')).toBe(String(entries('blog_id IN (3, 4)').length));
      expect((await list('user_id=0')).body.every((e: any) => e.action === 'login_failed')).toBe(true);
      expect((await list('user_id=3')).headers.get('x-wp-total')).toBe(String(entries('user_id = 3').length));
      expect(ids((await list('object_type=plugin&action=activated')).body)).toEqual(
        entries("object_type = 'plugin' AND action = 'activated'").map((e) => e.id),
      );
      expect(ids((await list('priority=critical,high')).body)).toEqual(
        entries("priority IN ('critical', 'high')")
          .map((e) => e.id)
          .slice(0, 100),
      );
      expect((await list('object_type=nothing')).body).toEqual([]);
    });

    it('filters by start_date and end_date: days are whole UTC days, date-times are exact', async () => {
      const all = entries();
      const day = all[40]!.created_at.slice(0, 10);
      const onDay = await list(`start_date=${day}&end_date=${day}`);
      expect(ids(onDay.body)).toEqual(all.filter((e) => e.created_at.startsWith(day)).map((e) => e.id));
      expect(onDay.body.length).toBeGreaterThan(0);
      const pivot = all[100]!.created_at;
      const since = await list(`start_date=${pivot.replace(' ', 'T')}Z`);
      expect(Number(since.headers.get('x-wp-total'))).toBe(all.filter((e) => e.created_at >= pivot).length);
      // The same instant two hours ahead of UTC.
      const [d, t] = pivot.split(' ');
      const shifted = new Date(Date.parse(`${d}T${t}Z`) + 2 * 3600_000).toISOString().slice(0, 19);
      const offset = await list(`end_date=${encodeURIComponent(`${shifted}+02:00`)}`);
      expect(Number(offset.headers.get('x-wp-total'))).toBe(all.filter((e) => e.created_at <= pivot).length);
    });

    it('ignores search on /logs (it is an export filter)', async () => {
      const r = await api.get(`${LOGS}?search=zzz`, 'admin');
      expect(r.headers.get('x-wp-total')).toBe(String(entries().length));
    });
  });

  describe('/export', () => {
    it('answers every matching entry as CSV with a header row', async () => {
      const r = await api.get(`${EXPORT}?priority=critical`, 'admin');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/csv; charset=UTF-8');
      expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(r.text.endsWith('\r\n')).toBe(true);
      const [header, ...lines] = parseCsv(r.text);
      expect(header).toEqual([
        'id',
        'created_at',
        'blog_id',
        'user_id',
        'user_login',
        'object_type',
        'object_id',
        'object_name',
        'action',
        'priority',
        'message',
        'ip',
      ]);
      const want = entries("priority = 'critical'");
      expect(lines.map((l) => Number(l[0]))).toEqual(want.map((e) => e.id));
      expect(r.headers.get('x-wp-total')).toBe(String(want.length));
      const first = lines[0]!;
      expect(first[10]).toBe(want[0]!.message);
      expect(first[10]).toContain('"');
      expect(first[1]).toBe(`${want[0]!.created_at.replace(' ', 'T')}Z`);
    });

    it('exports everything (no paging) and filters by search', async () => {
      const all = await api.get(EXPORT, 'admin');
      expect(parseCsv(all.text).length - 1).toBe(entries().length);
      const r = await api.get(`${EXPORT}?search=FAILED+login&order=asc`, 'admin');
      const lines = parseCsv(r.text).slice(1);
      const want = entries("message LIKE '%failed login%'").reverse();
      expect(lines.map((l) => Number(l[0]))).toEqual(want.map((e) => e.id));
      expect(lines.length).toBeGreaterThan(0);
      expect(parseCsv((await api.get(`${EXPORT}?search=100%25`, 'admin')).text)).toHaveLength(1);
    });

    it('quotes cells and defuses formulas', async () => {
      sb.site.store.db
        .prepare(
          "INSERT INTO audit_log (blog_id, user_id, user_login, object_type, object_id, object_name, action, priority, message, ip, created_at) VALUES (1, 1, 'admin', 'option', 0, '=HYPERLINK(\"x\")', 'updated', 'low', 'line one\nline two, with comma', '192.0.2.1', '2001-01-01 00:00:00')",
        )
        .run();
      const r = await api.get(`${EXPORT}?end_date=2001-01-01`, 'admin');
      const [, row] = parseCsv(r.text);
      expect(row![7]).toBe('\'=HYPERLINK("x")');
      expect(row![10]).toBe('line one\nline two, with comma');
      expect(r.text).toContain('"\'=HYPERLINK(""x"")"');
    });
  });
});
