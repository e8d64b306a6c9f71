/**
 * The sandbox's storage: one SQLite database (a file, or `:memory:`), laid out
 * like a small WordPress: posts of every type in one table sharing one ID
 * space, per-type fields in a JSON `meta` column, terms and relationships,
 * users, options. The schema is created on open.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Role, User } from '../auth.ts';

export type PostType =
  | 'calendar_events'
  | 'calendar_venue'
  | 'calendar_organizer'
  | 'calendar_event_series'
  | 'post'
  | 'page'
  | 'attachment'
  | 'calendar_ea_record';

export type PostStatus =
  'publish' | 'future' | 'draft' | 'pending' | 'private' | 'trash' | 'auto-draft' | 'inherit' | string;

export interface PostRow<M = Record<string, unknown>> {
  id: number;
  type: PostType;
  status: PostStatus;
  author: number;
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  password: string;
  /** Site-local `Y-m-d H:i:s`. */
  date: string;
  dateGmt: string;
  modified: string;
  modifiedGmt: string;
  parent: number;
  menuOrder: number;
  commentStatus: 'open' | 'closed';
  pingStatus: 'open' | 'closed';
  format: string;
  template: string;
  featuredMedia: number;
  meta: M;
}

export interface TermRow {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY, login TEXT NOT NULL UNIQUE, email TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL, role TEXT NOT NULL, password_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS posts (
  id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, status TEXT NOT NULL, author INTEGER NOT NULL DEFAULT 0,
  title TEXT NOT NULL DEFAULT '', content TEXT NOT NULL DEFAULT '', excerpt TEXT NOT NULL DEFAULT '',
  slug TEXT NOT NULL DEFAULT '', password TEXT NOT NULL DEFAULT '',
  date TEXT NOT NULL, date_gmt TEXT NOT NULL, modified TEXT NOT NULL, modified_gmt TEXT NOT NULL,
  parent INTEGER NOT NULL DEFAULT 0, menu_order INTEGER NOT NULL DEFAULT 0,
  comment_status TEXT NOT NULL DEFAULT 'open', ping_status TEXT NOT NULL DEFAULT 'open',
  format TEXT NOT NULL DEFAULT 'standard', template TEXT NOT NULL DEFAULT '', featured_media INTEGER NOT NULL DEFAULT 0,
  meta TEXT NOT NULL DEFAULT '{}');
CREATE INDEX IF NOT EXISTS posts_type_status ON posts(type, status);
CREATE INDEX IF NOT EXISTS posts_slug ON posts(type, slug);
CREATE TABLE IF NOT EXISTS terms (
  id INTEGER PRIMARY KEY AUTOINCREMENT, taxonomy TEXT NOT NULL, name TEXT NOT NULL, slug TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '', parent INTEGER NOT NULL DEFAULT 0);
CREATE UNIQUE INDEX IF NOT EXISTS terms_slug ON terms(taxonomy, slug);
CREATE TABLE IF NOT EXISTS term_relationships (
  post_id INTEGER NOT NULL, term_id INTEGER NOT NULL, PRIMARY KEY (post_id, term_id));
CREATE INDEX IF NOT EXISTS term_rel_term ON term_relationships(term_id);
CREATE TABLE IF NOT EXISTS options (name TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** A row of the `users` table, as SQLite returns it. */
interface UserRow {
  id: number;
  login: string;
  email: string;
  display_name: string;
  role: string;
  password_hash: string;
}

interface PostDbRow {
  id: number;
  type: string;
  status: string;
  author: number;
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  password: string;
  date: string;
  date_gmt: string;
  modified: string;
  modified_gmt: string;
  parent: number;
  menu_order: number;
  comment_status: string;
  ping_status: string;
  format: string;
  template: string;
  featured_media: number;
  meta: string;
}

function fromDb<M>(r: PostDbRow): PostRow<M> {
  return {
    id: r.id,
    type: r.type as PostType,
    status: r.status,
    author: r.author,
    title: r.title,
    content: r.content,
    excerpt: r.excerpt,
    slug: r.slug,
    password: r.password,
    date: r.date,
    dateGmt: r.date_gmt,
    modified: r.modified,
    modifiedGmt: r.modified_gmt,
    parent: r.parent,
    menuOrder: r.menu_order,
    commentStatus: r.comment_status as 'open' | 'closed',
    pingStatus: r.ping_status as 'open' | 'closed',
    format: r.format,
    template: r.template,
    featuredMedia: r.featured_media,
    meta: JSON.parse(r.meta) as M,
  };
}

const COLUMNS: Record<string, string> = {
  type: 'type',
  status: 'status',
  author: 'author',
  title: 'title',
  content: 'content',
  excerpt: 'excerpt',
  slug: 'slug',
  password: 'password',
  date: 'date',
  dateGmt: 'date_gmt',
  modified: 'modified',
  modifiedGmt: 'modified_gmt',
  parent: 'parent',
  menuOrder: 'menu_order',
  commentStatus: 'comment_status',
  pingStatus: 'ping_status',
  format: 'format',
  template: 'template',
  featuredMedia: 'featured_media',
};

export type NewPost<M> = Partial<Omit<PostRow<M>, 'id' | 'meta'>> &
  Pick<PostRow<M>, 'type' | 'status' | 'date' | 'dateGmt'> & { meta?: M; id?: number };

export class Store {
  readonly db: Database.Database;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    if (file !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.exec(SCHEMA);
  }

  /** Prepared statements, compiled once per SQL text. */
  private statements = new Map<string, Database.Statement>();

  private stmt(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  close(): void {
    this.db.close();
  }

  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } finally {
      // A rolled-back transaction may have filled the cache with rows that never existed.
      this.listCache.clear();
    }
  }

  /**
   * Lists of posts by type are read on almost every request and change rarely:
   * they are cached, frozen, until the connection's `total_changes()` moves
   * (which counts every write, through this class or raw SQL).
   */
  private listCache = new Map<string, readonly PostRow<unknown>[]>();
  private cacheStamp = -1;

  private cached<M>(key: string, load: () => PostRow<M>[]): PostRow<M>[] {
    const stamp = (this.stmt('SELECT total_changes() AS n').get() as { n: number }).n;
    if (stamp !== this.cacheStamp) {
      this.listCache.clear();
      this.cacheStamp = stamp;
    }
    let rows = this.listCache.get(key);
    if (!rows) {
      rows = load().map((r) => Object.freeze({ ...r, meta: Object.freeze(r.meta) }));
      this.listCache.set(key, rows);
    }
    return rows as PostRow<M>[];
  }

  isEmpty(): boolean {
    const row = this.stmt('SELECT COUNT(*) AS n FROM users').get() as { n: number };
    return row.n === 0;
  }

  // ---- users
  insertUser(u: User & { passwordHash: string }): void {
    this.db
      .prepare('INSERT INTO users (id, login, email, display_name, role, password_hash) VALUES (?, ?, ?, ?, ?, ?)')
      .run(u.id, u.login, u.email, u.displayName, u.role, u.passwordHash);
  }

  setUserPassword(login: string, passwordHash: string): void {
    this.stmt('UPDATE users SET password_hash = ? WHERE login = ?').run(passwordHash, login);
  }

  private userFrom(r: UserRow | undefined) {
    return (
      r && {
        id: r.id,
        login: r.login,
        email: r.email,
        displayName: r.display_name,
        role: r.role as Role,
        passwordHash: r.password_hash,
      }
    );
  }

  userByLogin(login: string) {
    return this.userFrom(this.stmt('SELECT * FROM users WHERE login = ?').get(login) as UserRow | undefined);
  }

  userByEmail(email: string) {
    return this.userFrom(
      this.stmt('SELECT * FROM users WHERE lower(email) = lower(?)').get(email) as UserRow | undefined,
    );
  }

  userById(id: number): User | undefined {
    const u = this.userFrom(this.stmt('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined);
    if (!u) return undefined;
    const { passwordHash: _p, ...user } = u;
    return user;
  }

  users(): User[] {
    return (this.stmt('SELECT * FROM users ORDER BY id').all() as UserRow[]).map((r) => {
      const { passwordHash: _p, ...user } = this.userFrom(r)!;
      return user;
    });
  }

  // ---- posts
  post<M = Record<string, unknown>>(id: number): PostRow<M> | undefined {
    const r = this.stmt('SELECT * FROM posts WHERE id = ?').get(id) as PostDbRow | undefined;
    return r && fromDb<M>(r);
  }

  /** Posts of a type, optionally of some statuses, in ID order (frozen: copy before changing). */
  posts<M = Record<string, unknown>>(type: PostType, statuses?: readonly string[]): PostRow<M>[] {
    return this.cached<M>(`${type}|${statuses?.join(',') ?? '*'}`, () => this.loadPosts<M>(type, statuses));
  }

  private loadPosts<M>(type: PostType, statuses?: readonly string[]): PostRow<M>[] {
    const rows = statuses
      ? (this.db
          .prepare(
            `SELECT * FROM posts WHERE type = ? AND status IN (${statuses.map(() => '?').join(',')}) ORDER BY id`,
          )
          .all(type, ...statuses) as PostDbRow[])
      : (this.stmt('SELECT * FROM posts WHERE type = ? ORDER BY id').all(type) as PostDbRow[]);
    return rows.map((r) => fromDb<M>(r));
  }

  postsByIds<M = Record<string, unknown>>(ids: readonly number[]): PostRow<M>[] {
    if (!ids.length) return [];
    const rows = this.stmt(`SELECT * FROM posts WHERE id IN (${ids.map(() => '?').join(',')})`).all(
      ...ids,
    ) as PostDbRow[];
    const byId = new Map(rows.map((r) => [r.id, fromDb<M>(r)]));
    return ids.map((id) => byId.get(id)).filter((p): p is PostRow<M> => p !== undefined);
  }

  postBySlug<M = Record<string, unknown>>(type: PostType, slug: string): PostRow<M> | undefined {
    const r = this.stmt('SELECT * FROM posts WHERE type = ? AND slug = ? ORDER BY id LIMIT 1').get(type, slug) as
      PostDbRow | undefined;
    return r && fromDb<M>(r);
  }

  /** wp_unique_post_slug: appends -2, -3, ... */
  uniqueSlug(type: PostType, base: string, excludeId = 0): string {
    const clean = base || 'untitled';
    let slug = clean;
    for (let n = 2; ; n++) {
      const hit = this.stmt('SELECT id FROM posts WHERE type = ? AND slug = ? AND id != ?').get(type, slug, excludeId);
      if (!hit) return slug;
      slug = `${clean}-${n}`;
    }
  }

  insertPost<M>(p: NewPost<M>): PostRow<M> {
    const row = {
      author: 0,
      title: '',
      content: '',
      excerpt: '',
      slug: '',
      password: '',
      modified: p.date,
      modifiedGmt: p.dateGmt,
      parent: 0,
      menuOrder: 0,
      commentStatus: 'open',
      pingStatus: 'open',
      format: 'standard',
      template: '',
      featuredMedia: 0,
      ...p,
    };
    const cols = Object.keys(COLUMNS).filter((k) => (row as Record<string, unknown>)[k] !== undefined);
    const names = [...(p.id ? ['id'] : []), ...cols.map((k) => COLUMNS[k]!), 'meta'];
    const values = [
      ...(p.id ? [p.id] : []),
      ...cols.map((k) => (row as Record<string, unknown>)[k]),
      JSON.stringify(p.meta ?? {}),
    ];
    const info = this.stmt(`INSERT INTO posts (${names.join(',')}) VALUES (${names.map(() => '?').join(',')})`).run(
      ...values,
    );
    return this.post<M>(Number(info.lastInsertRowid))!;
  }

  updatePost<M>(id: number, patch: Partial<Omit<PostRow<M>, 'id' | 'meta'>> & { meta?: Partial<M> }): PostRow<M> {
    const current = this.post<M>(id);
    if (!current) throw new Error(`post ${id} does not exist`);
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const [k, col] of Object.entries(COLUMNS)) {
      const v = (patch as Record<string, unknown>)[k];
      if (v !== undefined) {
        sets.push(`${col} = ?`);
        values.push(v);
      }
    }
    if (patch.meta) {
      sets.push('meta = ?');
      values.push(JSON.stringify({ ...current.meta, ...patch.meta }));
    }
    if (sets.length) this.stmt(`UPDATE posts SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
    return this.post<M>(id)!;
  }

  deletePost(id: number): void {
    this.stmt('DELETE FROM term_relationships WHERE post_id = ?').run(id);
    this.stmt('DELETE FROM posts WHERE id = ?').run(id);
  }

  // ---- terms
  term(id: number): TermRow | undefined {
    return this.stmt('SELECT * FROM terms WHERE id = ?').get(id) as TermRow | undefined;
  }

  terms(taxonomy: string): TermRow[] {
    return this.stmt('SELECT * FROM terms WHERE taxonomy = ? ORDER BY id').all(taxonomy) as TermRow[];
  }

  termBySlug(taxonomy: string, slug: string): TermRow | undefined {
    return this.stmt('SELECT * FROM terms WHERE taxonomy = ? AND slug = ?').get(taxonomy, slug) as TermRow | undefined;
  }

  termByName(taxonomy: string, name: string): TermRow | undefined {
    return this.stmt('SELECT * FROM terms WHERE taxonomy = ? AND lower(name) = lower(?)').get(taxonomy, name) as
      TermRow | undefined;
  }

  insertTerm(t: Omit<TermRow, 'id'> & { id?: number }): TermRow {
    const info = t.id
      ? this.stmt('INSERT INTO terms (id, taxonomy, name, slug, description, parent) VALUES (?, ?, ?, ?, ?, ?)').run(
          t.id,
          t.taxonomy,
          t.name,
          t.slug,
          t.description,
          t.parent,
        )
      : this.stmt('INSERT INTO terms (taxonomy, name, slug, description, parent) VALUES (?, ?, ?, ?, ?)').run(
          t.taxonomy,
          t.name,
          t.slug,
          t.description,
          t.parent,
        );
    return this.term(Number(info.lastInsertRowid))!;
  }

  updateTerm(id: number, patch: Partial<Omit<TermRow, 'id' | 'taxonomy'>>): TermRow {
    const cur = this.term(id);
    if (!cur) throw new Error(`term ${id} does not exist`);
    const next = { ...cur, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
    this.stmt('UPDATE terms SET name = ?, slug = ?, description = ?, parent = ? WHERE id = ?').run(
      next.name,
      next.slug,
      next.description,
      next.parent,
      id,
    );
    return this.term(id)!;
  }

  deleteTerm(id: number): void {
    this.stmt('DELETE FROM term_relationships WHERE term_id = ?').run(id);
    this.stmt('UPDATE terms SET parent = 0 WHERE parent = ?').run(id);
    this.stmt('DELETE FROM terms WHERE id = ?').run(id);
  }

  /** Term IDs of one post in one taxonomy, in term ID order. */
  termIdsOf(postId: number, taxonomy: string): number[] {
    return (
      this.db
        .prepare(
          'SELECT t.id FROM term_relationships r JOIN terms t ON t.id = r.term_id WHERE r.post_id = ? AND t.taxonomy = ? ORDER BY t.id',
        )
        .all(postId, taxonomy) as { id: number }[]
    ).map((r) => r.id);
  }

  /** Every (post, term) pair of a taxonomy, for filtering lists without a query per post. */
  termMap(taxonomy: string): Map<number, number[]> {
    const rows = this.db
      .prepare(
        'SELECT r.post_id AS p, r.term_id AS t FROM term_relationships r JOIN terms t ON t.id = r.term_id WHERE t.taxonomy = ? ORDER BY r.term_id',
      )
      .all(taxonomy) as { p: number; t: number }[];
    const map = new Map<number, number[]>();
    for (const { p, t } of rows) {
      const list = map.get(p);
      if (list) list.push(t);
      else map.set(p, [t]);
    }
    return map;
  }

  setTerms(postId: number, taxonomy: string, termIds: readonly number[]): void {
    this.stmt(
      'DELETE FROM term_relationships WHERE post_id = ? AND term_id IN (SELECT id FROM terms WHERE taxonomy = ?)',
    ).run(postId, taxonomy);
    const ins = this.stmt('INSERT OR IGNORE INTO term_relationships (post_id, term_id) VALUES (?, ?)');
    for (const t of termIds) ins.run(postId, t);
  }

  /** Number of published posts carrying the term (WordPress's term count). */
  termCount(termId: number): number {
    const row = this.db
      .prepare(
        "SELECT COUNT(*) AS n FROM term_relationships r JOIN posts p ON p.id = r.post_id WHERE r.term_id = ? AND p.status = 'publish'",
      )
      .get(termId) as { n: number };
    return row.n;
  }

  termCounts(taxonomy: string): Map<number, number> {
    const rows = this.db
      .prepare(
        "SELECT t.id AS id, COUNT(p.id) AS n FROM terms t LEFT JOIN term_relationships r ON r.term_id = t.id LEFT JOIN posts p ON p.id = r.post_id AND p.status = 'publish' WHERE t.taxonomy = ? GROUP BY t.id",
      )
      .all(taxonomy) as { id: number; n: number }[];
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  // ---- options
  option<T>(name: string, fallback: T): T {
    const r = this.stmt('SELECT value FROM options WHERE name = ?').get(name) as { value: string } | undefined;
    return r ? (JSON.parse(r.value) as T) : fallback;
  }

  setOption(name: string, value: unknown): void {
    this.stmt(
      'INSERT INTO options (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value',
    ).run(name, JSON.stringify(value));
  }
}
