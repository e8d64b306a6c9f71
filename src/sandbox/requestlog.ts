/**
 * One JSON line per request: `{method, path, query, status, ms, route?, batch?}`.
 * Kept in memory (tests read it) and appended to `SANDBOX_REQUEST_LOG` when set.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface LogEntry {
  method: string;
  /** REST path without the `/wp-json` prefix and the query, e.g. `/calendar-core/v1/events`. */
  path: string;
  query: Record<string, unknown>;
  status: number;
  ms: number;
  /** Matched route pattern, e.g. `/calendar-core/v1/events/(?P<id>\d+)`. */
  route?: string;
  /** Items of a /batch/v1 request. */
  batch?: { method: string; path: string; route?: string; status: number }[];
  /** The caller's User-Agent (the gateway sends `sitegraph/…`). */
  agent?: string;
  /** Start time, ms since the epoch (sub-millisecond precision). */
  at: number;
}

export class RequestLog {
  readonly entries: LogEntry[] = [];

  constructor(private readonly file?: string) {
    if (file) mkdirSync(dirname(file), { recursive: true });
  }

  add(entry: LogEntry): void {
    this.entries.push(entry);
    if (this.file) appendFileSync(this.file, `${JSON.stringify(entry)}\n`);
  }

  clear(): void {
    this.entries.length = 0;
  }
}
