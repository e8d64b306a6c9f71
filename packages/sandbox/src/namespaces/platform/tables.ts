/**
 * The platform namespaces' own tables, next to the store's WordPress-like
 * ones. They are created when the routes are built (every start, seeded or
 * not), so the routes work on a database without demo data too.
 *
 * Dates are UTC `Y-m-d H:i:s` strings, as the store keeps `date_gmt`.
 */
import type { Storage } from '../../capabilities.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT, blog_id INTEGER NOT NULL, user_id INTEGER NOT NULL, user_login TEXT NOT NULL,
  object_type TEXT NOT NULL, object_id INTEGER NOT NULL DEFAULT 0, object_name TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL, priority TEXT NOT NULL, message TEXT NOT NULL, ip TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS audit_log_created ON audit_log(created_at);
CREATE TABLE IF NOT EXISTS governance_sites (
  blog_id INTEGER PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL,
  qa_checks_total INTEGER NOT NULL, qa_checks_passed INTEGER NOT NULL, qa_last_checked TEXT);
CREATE TABLE IF NOT EXISTS governance_training (
  user_id INTEGER NOT NULL, blog_id INTEGER NOT NULL, course TEXT NOT NULL, status TEXT NOT NULL,
  completed_at TEXT, due_at TEXT NOT NULL, PRIMARY KEY (user_id, blog_id));
CREATE TABLE IF NOT EXISTS governance_reviews (
  blog_id INTEGER NOT NULL, post_id INTEGER NOT NULL, title TEXT NOT NULL DEFAULT '', last_reviewed TEXT,
  reviewer_id INTEGER NOT NULL DEFAULT 0, interval_days INTEGER NOT NULL, PRIMARY KEY (blog_id, post_id));
CREATE TABLE IF NOT EXISTS challenge_spent (signature TEXT PRIMARY KEY, expires INTEGER NOT NULL);
`;

export function ensurePlatformTables(site: Storage): void {
  site.store.db.exec(SCHEMA);
}

// ---- rows

export interface AuditRow {
  id: number;
  blog_id: number;
  user_id: number;
  user_login: string;
  object_type: string;
  object_id: number;
  object_name: string;
  action: string;
  priority: string;
  message: string;
  ip: string;
  created_at: string;
}

export interface SiteRow {
  blog_id: number;
  name: string;
  path: string;
  qa_checks_total: number;
  qa_checks_passed: number;
  qa_last_checked: string | null;
}

export interface TrainingRow {
  user_id: number;
  blog_id: number;
  course: string;
  status: 'completed' | 'in_progress' | 'not_started';
  completed_at: string | null;
  due_at: string;
}

export interface ReviewRow {
  blog_id: number;
  post_id: number;
  title: string;
  last_reviewed: string | null;
  reviewer_id: number;
  interval_days: number;
}

/** `2026-05-01 09:00:00` (UTC) -> `2026-05-01T09:00:00Z`; null stays null. */
export function utcIso(sql: string | null): string | null {
  return sql === null ? null : `${sql.replace(' ', 'T')}Z`;
}

/** A JS date as the tables store it. */
export function sqlUtc(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}
