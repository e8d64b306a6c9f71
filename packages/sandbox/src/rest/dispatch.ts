/**
 * The dispatch capability: one REST request in, one answer out, with
 * WordPress's order of checks (site.ts implements it). Only `/batch/v1` is
 * given it, to run its items.
 */
import type { User } from '../auth.ts';
import type { BatchLogItem } from './types.ts';

export interface DispatchInput {
  method: string;
  /** REST path with an optional query string, e.g. `/calendar-core/v1/events?per_page=5`. */
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body, or form fields; null when none. */
  body: Record<string, unknown> | null;
  /** Set when the raw body was not valid JSON. */
  jsonError?: string;
  inBatch?: boolean;
  /** The already authenticated caller (batch items reuse the outer one). */
  user?: User | null;
}

export interface DispatchOutput {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  contentType?: string;
  /** The matched route pattern, for the request log. */
  route?: string;
  /** Per-item log of a batch. */
  batch?: BatchLogItem[];
  /**
   * Query or body arguments the matched endpoint does not declare: WordPress
   * drops them without a word, so the handler never saw them (sorted names).
   */
  undeclared?: string[];
}

export interface Dispatcher {
  dispatch(input: DispatchInput): DispatchOutput;
  /**
   * Route match and validation without running the callback, for
   * `require-all-validate` batches: `output` is the item's error, or null and
   * `run` executes it later.
   */
  validateOnly(input: DispatchInput): { output: DispatchOutput | null; run: () => DispatchOutput };
}
