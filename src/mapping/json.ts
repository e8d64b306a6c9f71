/**
 * Defensive readers for upstream JSON: the one module that reads the site's
 * bodies (mapping, discovery, route declarations, and the error bodies of
 * upstream/errors.ts). The site's bodies are input like any other: a field of
 * the wrong type becomes null, and a body that is not the object it must be
 * raises UpstreamShapeError (UPSTREAM_BAD_RESPONSE), never a crash or a
 * silently wrong answer.
 *
 * Two styles over the same readers: one value at a time (`str(o.title)`), and
 * declarative specs for bodies whose keys map one to one onto graph fields
 * (`read(o, {userId: ['user_id', asInt]})`, at the end).
 */
export class UpstreamShapeError extends Error {
  override name = 'UpstreamShapeError';
}

export type Json = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export function isJson(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function obj(v: unknown, what: string): Json {
  if (!isJson(v)) throw new UpstreamShapeError(`expected ${what} to be an object, got ${describe(v)}`);
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
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0)
    throw new UpstreamShapeError(`expected ${what}.id to be a positive integer, got ${describe(o.id)}`);
  return n;
}

export function str(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return null;
}

/** A string only (a number is not text here: error bodies, where `{error: 500}` is no message). */
export function strict(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
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

/** An HTTP status stated in a body: an integer, or three digits as a string (`"404"`). */
export function statusIn(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  return typeof v === 'string' && /^\d{3}$/.test(v) ? Number(v) : undefined;
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
  if (isJson(v) && 'rendered' in v) return str(v.rendered);
  return null;
}

export function intList(v: unknown): number[] {
  if (!Array.isArray(v)) return [];
  return v.map((x) => int(x)).filter((x): x is number => x !== null && x > 0);
}

// ---------------------------------------------------------------------------
// Declarative readers, for bodies whose keys map one to one onto graph fields
// (the platform namespaces): `read(o, {userId: ['user_id', asInt]})`. Every
// value goes through a reader above, so a field of the wrong type becomes null
// instead of failing the whole object.

export type Reader<T> = (v: unknown) => T;
export type Spec = Record<string, readonly [string, Reader<unknown>]>;
export type Read<S extends Spec> = { [K in keyof S]: ReturnType<S[K][1]> };

export function read<S extends Spec>(o: Json, spec: S): Read<S> {
  const out: Record<string, unknown> = {};
  for (const [field, [key, reader]] of Object.entries(spec)) out[field] = reader(o[key]);
  return out as Read<S>;
}

/** A reader of one object shape that also keeps the body as `raw`. */
export function shape<S extends Spec>(what: string, spec: S): (v: unknown) => Read<S> & { raw: unknown } {
  return (v) => ({ ...read(obj(v, what), spec), raw: v });
}

export const asStr: Reader<string | null> = str;
export const asInt: Reader<number | null> = int;
export const asNum: Reader<number | null> = num;
export const asBool: Reader<boolean | null> = bool;
/** A list of strings (non-strings dropped); `[]` when absent. */
export const asStrings: Reader<string[]> = (v) =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
/** A positive ID, else 0 (fields typed `Int!`). */
export const asId: Reader<number> = (v) => {
  const n = int(v);
  return n !== null && n >= 0 ? n : 0;
};
/** An RFC 3339 date-time the site sends (`...Z`); anything else is null. */
export const asDateTime: Reader<string | null> = (v) =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : null;

export function nested<T>(reader: (v: unknown) => T): Reader<T | null> {
  return (v) => (isJson(v) ? reader(v) : null);
}

export function listOf<T>(reader: (v: unknown) => T): Reader<T[]> {
  return (v) => (Array.isArray(v) ? v.filter((x) => typeof x === 'object' && x !== null).map(reader) : []);
}
