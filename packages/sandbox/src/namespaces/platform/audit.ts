/**
 * `site-audit-log/v1` (other-upstream.md §2 [U]: a custom, network-aware
 * logger; no real bodies are known). The sandbox's contract, documented in
 * docs/sandbox-platform.md:
 *
 * - `GET /logs`: a bare JSON array of entries, newest first by default, with
 *   `X-WP-Total`, `X-WP-TotalPages` and `Link` like WordPress collections;
 *   `per_page` 1-100 (default 20); a page past the end is an empty array.
 * - `GET /export`: the same filters plus `search`, every matching entry as
 *   CSV (`text/csv`, a header row, CRLF lines, RFC 4180 quoting).
 *
 * Filters: `start_date`/`end_date` (a day, or a date-time; without an offset
 * they are UTC; a bare end day includes the whole day), `blog_id`/`user_id`
 * (integers, comma-separated for several), `object_type`/`action`/`priority`
 * (comma-separated values). Permission: `manage_options`; entries of other
 * network sites also need `manage_network`.
 */
import { DateTime } from 'luxon';
import { can } from '../../auth.ts';
import { SQL } from '../../dates.ts';
import { RestError } from '../../errors.ts';
import { buildQuery } from '../../rest/query.ts';
import { RestResult, type ArgSchema, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import { AUDIT_PRIORITIES } from './seed.ts';
import { utcIso, type AuditRow } from './tables.ts';

const NS = 'site-audit-log/v1';
export const AUDIT_MAX_PER_PAGE = 100;

/** Comma-separated values of a filter; empty when not given. */
function values(v: unknown): string[] {
  return String(v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A day (`2026-05-01`) or a date-time, as UTC `Y-m-d H:i:s`; a bare day is its start, or its end for `end_date`. */
export function auditDate(v: string, end: boolean): string | null {
  const s = v.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const d = DateTime.fromISO(s, { zone: 'utc' });
    return d.isValid ? (end ? d.endOf('day') : d).toFormat(SQL) : null;
  }
  const d = DateTime.fromISO(s.replace(' ', 'T'), { zone: 'utc' });
  return d.isValid ? d.toUTC().toFormat(SQL) : null;
}

const dateArg = (end: boolean): ArgSchema => ({
  type: 'string',
  default: '',
  description: end
    ? 'Entries logged on or before this day or date-time (UTC unless an offset is given).'
    : 'Entries logged on or after this day or date-time (UTC unless an offset is given).',
  validate: (v) =>
    v === '' || auditDate(String(v), end) !== null || new RestError('rest_invalid_date', 'Invalid date.', 400),
});

const idList = (what: string): ArgSchema => ({
  type: 'string',
  default: '',
  description: `Only entries of this ${what} ID (comma-separated for several).`,
  validate: (v) =>
    values(v).every((x) => /^\d+$/.test(x)) ||
    new RestError('rest_invalid_type', `${what === 'site' ? 'blog_id' : 'user_id'} must be a list of integers.`, 400),
});

const filterArgs: Record<string, ArgSchema> = {
  order: {
    type: 'string',
    default: 'desc',
    enum: ['asc', 'desc'],
    description: 'Order by time: newest first (desc) or oldest first (asc).',
  },
  start_date: dateArg(false),
  end_date: dateArg(true),
  blog_id: idList('site'),
  user_id: idList('user'),
  object_type: {
    type: 'string',
    default: '',
    description:
      'Only entries about these object types (post, page, user, plugin, option, term, attachment), comma-separated.',
  },
  action: { type: 'string', default: '', description: 'Only entries of these actions, comma-separated.' },
  priority: {
    type: 'string',
    default: '',
    description: `Only entries of these priorities (${AUDIT_PRIORITIES.join(', ')}), comma-separated.`,
    validate: (v) =>
      values(v).every((x) => (AUDIT_PRIORITIES as readonly string[]).includes(x)) ||
      new RestError('rest_not_in_enum', `priority is not one of ${AUDIT_PRIORITIES.join(', ')}.`, 400),
  },
};

const logsArgs: Record<string, ArgSchema> = {
  ...filterArgs,
  page: { type: 'integer', default: 1, minimum: 1, description: 'Current page of the collection.' },
  per_page: {
    type: 'integer',
    default: 20,
    minimum: 1,
    maximum: AUDIT_MAX_PER_PAGE,
    description: 'Maximum number of entries to be returned in result set.',
  },
};

const exportArgs: Record<string, ArgSchema> = {
  ...filterArgs,
  search: {
    type: 'string',
    default: '',
    description: 'Only entries whose message, user, object, action or IP contains this text.',
  },
};

/** manage_options; entries of another network site also need manage_network. */
function permission(req: RestRequest): boolean {
  if (!can(req.user, 'manage_options')) return false;
  return values(req.params.blog_id).every((b) => b === '1') || can(req.user, 'manage_network');
}

/** The WHERE clause of the filters; `search` only where the route declares it (export). */
function where(req: RestRequest, withSearch: boolean): { sql: string; args: unknown[] } {
  const p = req.params;
  const clauses: string[] = [];
  const args: unknown[] = [];
  const inList = (column: string, list: unknown[]) => {
    if (!list.length) return;
    clauses.push(`${column} IN (${list.map(() => '?').join(',')})`);
    args.push(...list);
  };
  if (p.start_date) {
    clauses.push('created_at >= ?');
    args.push(auditDate(p.start_date as string, false));
  }
  if (p.end_date) {
    clauses.push('created_at <= ?');
    args.push(auditDate(p.end_date as string, true));
  }
  const blogs = values(p.blog_id).map(Number);
  // Without manage_network only this site's entries are visible.
  inList('blog_id', blogs.length ? blogs : can(req.user, 'manage_network') ? [] : [1]);
  inList('user_id', values(p.user_id).map(Number));
  inList('object_type', values(p.object_type));
  inList('action', values(p.action));
  inList('priority', values(p.priority));
  if (withSearch && typeof p.search === 'string' && p.search.trim()) {
    const like = `%${p.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    clauses.push(
      `(${['message', 'user_login', 'object_type', 'object_name', 'action', 'ip'].map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`,
    );
    args.push(like, like, like, like, like, like);
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', args };
}

function entryJson(r: AuditRow): Record<string, unknown> {
  return {
    id: r.id,
    blog_id: r.blog_id,
    user_id: r.user_id,
    user_login: r.user_login,
    object_type: r.object_type,
    object_id: r.object_id,
    object_name: r.object_name,
    action: r.action,
    priority: r.priority,
    message: r.message,
    ip: r.ip,
    created_at: utcIso(r.created_at),
  };
}

function orderBy(req: RestRequest): string {
  const dir = req.params.order === 'asc' ? 'ASC' : 'DESC';
  return `ORDER BY created_at ${dir}, id ${dir}`;
}

function logs(req: RestRequest): RestResult {
  const db = req.site.store.db;
  const { sql, args } = where(req, false);
  const page = req.params.page as number;
  const perPage = req.params.per_page as number;
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM audit_log ${sql}`).get(...args) as { n: number }).n;
  const rows = db
    .prepare(`SELECT * FROM audit_log ${sql} ${orderBy(req)} LIMIT ? OFFSET ?`)
    .all(...args, perPage, (page - 1) * perPage) as AuditRow[];
  const totalPages = Math.ceil(total / perPage);
  const headers: Record<string, string> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) };
  const link = (n: number) => `<${req.site.restRoot}${req.path}?${buildQuery({ ...req.query, page: n })}>`;
  const links: string[] = [];
  if (page > 1 && totalPages > 0) links.push(`${link(Math.min(page - 1, totalPages))}; rel="prev"`);
  if (totalPages > page) links.push(`${link(page + 1)}; rel="next"`);
  if (links.length) headers.Link = links.join(', ');
  return new RestResult(rows.map(entryJson), 200, headers);
}

export const CSV_COLUMNS = [
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
] as const;

/**
 * One CSV cell: RFC 4180 quoting, and text that a spreadsheet would run as a
 * formula (starting with =, +, -, @, tab or CR) prefixed with an apostrophe.
 */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function exportCsv(req: RestRequest): RestResult {
  const { sql, args } = where(req, true);
  const rows = req.site.store.db.prepare(`SELECT * FROM audit_log ${sql} ${orderBy(req)}`).all(...args) as AuditRow[];
  const lines = [
    CSV_COLUMNS.join(','),
    ...rows.map((r) => CSV_COLUMNS.map((c) => csvCell(c === 'created_at' ? utcIso(r.created_at) : r[c])).join(',')),
  ];
  const day = req.site.now().toISOString().slice(0, 10);
  return new RestResult(
    `${lines.join('\r\n')}\r\n`,
    200,
    {
      'Content-Disposition': `attachment; filename="audit-log-${day}.csv"`,
      'X-WP-Total': String(rows.length),
      'Cache-Control': 'no-store',
    },
    'text/csv; charset=UTF-8',
  );
}

export function auditRoutes(): RouteDecl[] {
  return [
    {
      namespace: NS,
      path: `/${NS}/logs`,
      endpoints: [
        { methods: ['GET'], summary: 'Audit-log entries, one page', args: logsArgs, permission, handler: logs },
      ],
    },
    {
      namespace: NS,
      path: `/${NS}/export`,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'Every matching audit-log entry as CSV',
          args: exportArgs,
          permission,
          handler: exportCsv,
        },
      ],
    },
  ];
}
