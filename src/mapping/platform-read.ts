/**
 * A small declarative reader for the platform bodies, whose keys map one to
 * one onto graph fields: `read(o, {userId: ['user_id', int]})`. Every value
 * goes through a defensive reader (mapping/json.ts), so a field of the wrong
 * type becomes null instead of failing the whole object.
 */
import { bool, int, num, obj, str, type Json } from './json.ts';

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
export const asStrings: Reader<string[]> = (v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
/** A positive ID, else 0 (fields typed `Int!`). */
export const asId: Reader<number> = (v) => {
  const n = int(v);
  return n !== null && n >= 0 ? n : 0;
};
/** An RFC 3339 date-time the site sends (`...Z`); anything else is null. */
export const asDateTime: Reader<string | null> = (v) =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : null;

export function nested<T>(reader: (v: unknown) => T): Reader<T | null> {
  return (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? reader(v) : null);
}

export function listOf<T>(reader: (v: unknown) => T): Reader<T[]> {
  return (v) => (Array.isArray(v) ? v.filter((x) => typeof x === 'object' && x !== null).map(reader) : []);
}
