/**
 * One JSON line per request: `{method, path, query, status, ms, route?, batch?, undeclared?}`.
 * Kept in memory (tests read it) and appended to `SANDBOX_REQUEST_LOG` when set.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BatchLogItem } from './rest/types.ts';

export interface LogEntry {
  method: string;
  /**
   * REST path without the `/wp-json` prefix and the query, as requested, e.g. `/calendar-core/v1/events` or
   * `/tec/v1/events`.
   */
  path: string;
  query: Record<string, unknown>;
  status: number;
  ms: number;
  /** Matched route pattern under the name the request used, e.g. `/calendar-core/v1/events/(?P<id>\d+)`. */
  route?: string;
  /** Items of a /batch/v1 request (each with its own `undeclared`). */
  batch?: BatchLogItem[];
  /**
   * Query or body arguments the matched endpoint does not declare (sorted):
   * WordPress drops them without a word, so they changed nothing. Absent when none.
   */
  undeclared?: string[];
  /** The caller's User-Agent (the gateway sends `sitegraph/…`). */
  agent?: string;
  /** Start time, ms since the epoch (sub-millisecond precision). */
  at: number;
}

/** A request, or an item of a /batch/v1 request, that sent arguments its route does not declare. */
export interface UndeclaredUse {
  method: string;
  path: string;
  route?: string;
  undeclared: string[];
  /** Set on an item of a /batch/v1 request. */
  inBatch?: true;
}

export class RequestLog {
  readonly entries: LogEntry[] = [];
  /** Undeclared arguments dropped since the log was created or cleared, batch items included. */
  undeclaredCount = 0;

  constructor(private readonly file?: string) {
    if (file) mkdirSync(dirname(file), { recursive: true });
  }

  add(entry: LogEntry): void {
    this.entries.push(entry);
    this.undeclaredCount += undeclaredUses(entry).reduce((n, u) => n + u.undeclared.length, 0);
    if (this.file) appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }

  /**
   * Every request and batch item that sent an undeclared argument, in log
   * order: `expect(sb.log.undeclared()).toEqual([])` says the caller sent only
   * what each route declares.
   */
  undeclared(): UndeclaredUse[] {
    return this.entries.flatMap(undeclaredUses);
  }

  clear(): void {
    this.entries.length = 0;
    this.undeclaredCount = 0;
  }
}

/** The request and batch items of one entry that sent undeclared arguments. */
export function undeclaredUses(e: LogEntry): UndeclaredUse[] {
  const own: UndeclaredUse[] = e.undeclared?.length
    ? [{ method: e.method, path: e.path, route: e.route, undeclared: e.undeclared }]
    : [];
  const items = (e.batch ?? []).flatMap((b): UndeclaredUse[] =>
    b.undeclared?.length
      ? [{ method: b.method, path: b.path, route: b.route, undeclared: b.undeclared, inBatch: true }]
      : [],
  );
  return [...own, ...items];
}
