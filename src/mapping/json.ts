/**
 * Defensive readers for upstream JSON. The site's bodies are input like any
 * other: a field of the wrong type becomes null, and a body that is not the
 * object it must be raises UpstreamShapeError (UPSTREAM_BAD_RESPONSE), never a
 * crash or a silently wrong answer.
 */
export class UpstreamShapeError extends Error {
  override name = 'UpstreamShapeError';
}

export type Json = Record<string, unknown>;

export function obj(v: unknown, what: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new UpstreamShapeError(`expected ${what} to be an object, got ${describe(v)}`);
  return v as Json;
}

export function arr(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new UpstreamShapeError(`expected ${what} to be an array, got ${describe(v)}`);
  return v;
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return typeof v;
}

/** The object's numeric ID (WordPress IDs are positive integers, sometimes as strings). */
export function idOf(o: Json, what: string): number {
  const n = typeof o.id === 'string' && /^\d+$/.test(o.id) ? Number(o.id) : o.id;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) throw new UpstreamShapeError(`expected ${what}.id to be a positive integer, got ${describe(o.id)}`);
  return n;
}

export function str(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return null;
}

/** A string, or undefined when the key is absent (the source does not serve it). */
export function strOpt(o: Json, key: string): string | null | undefined {
  return key in o ? str(o[key]) : undefined;
}

export function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

export function int(v: unknown): number | null {
  const n = num(v);
  return n === null ? null : Math.trunc(n);
}

export function bool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true' || v === 'yes') return true;
  if (v === 0 || v === '0' || v === 'false' || v === 'no' || v === '') return false;
  return null;
}

export function boolOpt(o: Json, key: string): boolean | null | undefined {
  return key in o ? bool(o[key]) : undefined;
}

/** `{rendered: "..."}` (posts controller) or a plain string. */
export function rendered(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null && 'rendered' in v) return str((v as Json).rendered);
  return null;
}

export function intList(v: unknown): number[] {
  if (!Array.isArray(v)) return [];
  return v.map((x) => int(x)).filter((x): x is number => x !== null && x > 0);
}
