/**
 * Per-item results of a write, as the graph shows them (`MutationError`,
 * `EventResult`, `EventsPayload`, ...; schema/writes.graphql), and the
 * single mutations' GraphQL errors made from them. Pure: no I/O.
 *
 * Every problem the gateway finds in an item is reported. `MutationError` is
 * one object per item (a `message`, a `path`), so several problems become
 * one error whose message lists each (with its path) and whose path is the
 * part their paths share; a single mutation's GraphQL error also lists them
 * in `extensions.problems` and names every argument in `extensions.arguments`.
 */
import type { MutationError } from '../generated/graphql.ts';
import type { FieldIssue } from './inputs.ts';
import { GatewayError, type GatewayCode, type GatewayErrorInit, type UpstreamErrorSource } from '../errors.ts';

/** The site's answer as `MutationError.upstream`: `{code, status, route, params, details}`. */
export interface UpstreamDetail extends UpstreamErrorSource {
  params?: Record<string, string> | string[];
  details?: unknown;
}

/** One problem, its path from the mutation's arguments (`["inputs", "3", "startDate"]`). */
export interface Problem {
  path: string[];
  message: string;
}

/**
 * One field a write did not apply (`NotAppliedField`): `UNDECLARED`, no route
 * of the site declares it (nothing sent); `IGNORED`, the caller set it and the
 * site kept another value; `CHANGED`, the caller did not set it and it changed.
 */
export interface NotApplied {
  field: string;
  path: string[];
  reason: 'UNDECLARED' | 'IGNORED' | 'CHANGED';
  asked: unknown;
  kept: unknown;
}

/** A per-item error (`MutationError`), typed. */
export interface ItemError extends Omit<MutationError, 'notApplied'> {
  /** NOT_EXECUTED: a valid item of an atomic write that another item stopped. */
  code: GatewayCode | 'NOT_EXECUTED';
  upstream: UpstreamDetail | null;
  /** Every problem, when the gateway found more than one in the item. */
  problems?: Problem[];
  /** WRITE_NOT_APPLIED: each field, what was asked and what the site kept. */
  notApplied?: NotApplied[];
}

export interface ItemResult<M> {
  index: number;
  databaseId: number | null;
  model: M | null;
  error: ItemError | null;
}

export function upstreamOf(e: GatewayError): UpstreamDetail | null {
  const x = e.extensions;
  if (!x.upstream) return null;
  const out: UpstreamDetail = { ...x.upstream };
  if (x.params !== undefined) out.params = x.params;
  if (x.details !== undefined) out.details = x.details;
  return out;
}

/** The first parameter a site error names (`data.params`: `{name: reason}` or a list of names). */
function firstParam(e: GatewayError): string | undefined {
  const params = e.extensions.params;
  const first = Array.isArray(params) ? params[0] : params ? Object.keys(params)[0] : undefined;
  return first === undefined ? undefined : String(first);
}

/**
 * An error the site answered for one item. Its path is the input field of
 * the first parameter the site refused (`fieldOf` maps the REST name back),
 * else the item.
 */
export function siteError(e: GatewayError, itemPath: string[], fieldOf: (param: string) => string[]): ItemError {
  const first = firstParam(e);
  return { code: e.code, message: e.message, path: first ? fieldOf(first) : itemPath, upstream: upstreamOf(e) };
}

/** A write that was sent but whose answer was lost, not settled by reading back. Never "failed": it may be written. */
export function unknownError(e: GatewayError, itemPath: string[], message: string): ItemError {
  return {
    code: 'OUTCOME_UNKNOWN',
    message: `${message.replace(/\.$/, '')}.`,
    path: itemPath,
    upstream: upstreamOf(e),
  };
}

export function notExecuted(
  itemPath: string[],
  message = 'Not written: another item of this atomic write is invalid.',
): ItemError {
  return { code: 'NOT_EXECUTED', message, path: itemPath, upstream: null };
}

/** A write the site did not take, or whose answer was lost (a `WriteOutcome` of upstream/batch.ts that is not ok). */
export interface FailedWrite {
  error: GatewayError;
  notExecuted?: boolean;
  unknown?: boolean;
}

/**
 * The error of an item whose write failed, for every bulk writer (the
 * calendar's engine, `createPosts`): NOT_EXECUTED for a valid item an atomic
 * batch stopped; OUTCOME_UNKNOWN for one whose answer was lost (`unknown`
 * says what was sent and what to check); else the site's error, its path the
 * input field of the first parameter the site refused (`fieldOf`).
 */
export function failedItem(
  o: FailedWrite,
  itemPath: string[],
  how: { unknown: (e: GatewayError) => string; fieldOf: (param: string) => string[] },
): ItemError {
  if (o.notExecuted) return notExecuted(itemPath, o.error.message);
  if (o.unknown) return unknownError(o.error, itemPath, how.unknown(o.error));
  return siteError(o.error, itemPath, how.fieldOf);
}

/** Where several paths meet: their longest common prefix. */
function commonPath(paths: string[][]): string[] {
  const [first = [], ...rest] = paths;
  let n = first.length;
  for (const p of rest) {
    let k = 0;
    while (k < n && k < p.length && p[k] === first[k]) k += 1;
    n = k;
  }
  return first.slice(0, n);
}

/**
 * The problems the gateway found in one item (none sent), as one
 * BAD_USER_INPUT error: one problem as itself; several listed in the
 * message, each with its path, the error's path the part theirs share.
 */
export function inputError(problems: readonly Problem[]): ItemError {
  if (problems.length === 0) throw new TypeError('inputError needs at least one problem');
  if (problems.length === 1)
    return { code: 'BAD_USER_INPUT', message: problems[0]!.message, path: problems[0]!.path, upstream: null };
  const listed = problems.map((p, i) => `(${i + 1}) ${p.path.join('.')}: ${p.message.replace(/\.$/, '')}.`).join(' ');
  return {
    code: 'BAD_USER_INPUT',
    message: `${problems.length} problems: ${listed}`,
    path: commonPath(problems.map((p) => p.path)),
    upstream: null,
    problems: [...problems],
  };
}

/** Where several problems of one item point: the part their paths share. */
function pathOf(paths: string[][], fallback: string[]): string[] {
  return paths.length === 1 ? paths[0]! : paths.length ? commonPath(paths) : fallback;
}

/**
 * Fields no route of the site declares (found before anything is sent):
 * WRITE_NOT_APPLIED, each problem listed, nothing written.
 */
export function notAppliedError(
  problems: readonly Problem[],
  itemPath: string[],
  asked: (field: string) => unknown,
): ItemError {
  const notApplied: NotApplied[] = problems.map((p) => ({
    field: p.path[p.path.length - 1]!,
    path: p.path,
    reason: 'UNDECLARED',
    asked: asked(p.path[p.path.length - 1]!) ?? null,
    kept: null,
  }));
  const message =
    problems.length === 1
      ? `Not written: ${problems[0]!.message}`
      : `Not written: ${problems.map((p) => p.message.replace(/\.$/, '')).join('; ')}.`;
  return {
    code: 'WRITE_NOT_APPLIED',
    message,
    path: pathOf(
      problems.map((p) => p.path),
      itemPath,
    ),
    upstream: null,
    notApplied,
  };
}

const shown = (v: unknown) => (v === null || v === undefined ? 'none' : JSON.stringify(v));

/**
 * A write the site answered but did not apply as asked, after one repair
 * (or where none was possible): WRITE_NOT_APPLIED naming each field, the value
 * asked (for a field not set: the value it had) and the value kept.
 */
export function notKeptError(fields: readonly NotApplied[], itemPath: string[], written: string): ItemError {
  const listed = fields
    .map((f) =>
      f.reason === 'CHANGED'
        ? `${f.field} (not set; it was ${shown(f.asked)} and is now ${shown(f.kept)})`
        : `${f.field} (asked ${shown(f.asked)}, the site kept ${shown(f.kept)})`,
    )
    .join('; ');
  return {
    code: 'WRITE_NOT_APPLIED',
    message: `${written}, but the site did not keep what was asked: ${listed}.`,
    path: pathOf(
      fields.map((f) => f.path),
      itemPath,
    ),
    upstream: null,
    notApplied: [...fields],
  };
}

/** Field issues (paths relative to the input) under the input's path in the arguments. */
export function issuesAt(issues: readonly FieldIssue[], prefix: string[]): Problem[] {
  return issues.map((i) => ({ path: [...prefix, ...i.path], message: i.message }));
}

/** A single mutation's failure as a GraphQL error naming the argument(s). */
export function toGraphError(err: ItemError, databaseId: number | null): GatewayError {
  const problems = err.problems ?? [];
  const fields = err.notApplied ?? [];
  const paths =
    problems.length > 1 ? problems.map((p) => p.path) : fields.length > 1 ? fields.map((f) => f.path) : [err.path];
  const init: GatewayErrorInit = { arguments: [...new Set(paths.map((p) => p.join('.')))] };
  if (problems.length > 1) init.problems = problems;
  if (err.upstream) {
    const { params, details, ...source } = err.upstream;
    init.upstream = source;
    if (params !== undefined) init.params = params;
    if (details !== undefined) init.details = details;
  }
  if (err.notApplied) init.notApplied = err.notApplied;
  if (databaseId !== null) init.databaseId = databaseId;
  // NOT_EXECUTED belongs to atomic bulk writes only; a single write is never one.
  return new GatewayError(err.code === 'NOT_EXECUTED' ? 'BAD_USER_INPUT' : err.code, err.message, init);
}

/**
 * A bulk payload (`EventsPayload`, ...). `named` puts the model under its
 * field (`(event) => ({ event })`). `written`: items whose object was
 * written (an item whose follow-up failed also counts in `failed` or
 * `unknown`); `failed`: items with an error the site or the gateway vouches
 * for (nothing written, or not completely); `unknown`: items whose write was
 * sent but whose outcome is not known (`OUTCOME_UNKNOWN`).
 */
export function bulkPayload<M, X extends object>(results: readonly ItemResult<M>[], named: (model: M | null) => X) {
  return {
    results: results.map((r) => ({ index: r.index, databaseId: r.databaseId, error: r.error, ...named(r.model) })),
    written: results.filter((r) => r.databaseId !== null && (!r.error || r.model)).length,
    failed: results.filter((r) => r.error && r.error.code !== 'OUTCOME_UNKNOWN').length,
    unknown: results.filter((r) => r.error?.code === 'OUTCOME_UNKNOWN').length,
  };
}
