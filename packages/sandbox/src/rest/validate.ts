/**
 * Argument checks in WordPress's order (WP_REST_Request::has_valid_params, then
 * sanitize_params; reference/site-upstream.md §1): missing required arguments
 * first (`rest_missing_callback_param`), then every argument's schema and
 * validate_callback, all failures gathered into one `rest_invalid_param`, then
 * sanitising (type coercion), whose failures are reported the same way.
 */
import { RestError, listJoin } from '../errors.ts';
import type { ArgSchema, RestRequest } from './types.ts';

/** A schema failure: `rest_invalid_type`, `rest_out_of_bounds`, ... */
export class SchemaError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

export function isIntegerLike(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v);
  return typeof v === 'string' && /^\s*[-+]?\d+(\.0*)?\s*$/.test(v);
}

export function isNumberLike(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  return typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));
}

/** rest_is_boolean */
export function isBooleanLike(v: unknown): boolean {
  if (typeof v === 'boolean') return true;
  if (typeof v === 'number') return v === 0 || v === 1;
  return typeof v === 'string' && ['true', 'false', '1', '0', ''].includes(v.toLowerCase());
}

/** rest_sanitize_boolean */
export function toBoolean(v: unknown): boolean {
  if (typeof v === 'string') return !['false', '0', ''].includes(v.toLowerCase());
  return Boolean(v);
}

/** wp_parse_list: arrays stay, scalars split on commas and whitespace. */
export function parseList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'object' && v !== null) return Object.values(v);
  if (v === undefined || v === null || v === '') return [];
  return String(v)
    .split(/[\s,]+/)
    .filter((x) => x !== '');
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|z|[+-]\d{2}(:?\d{2})?)?$/;

/** rest_parse_date's accepted form. */
export function isRfc3339(v: string): boolean {
  const m = RFC3339.exec(v);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= 31 && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 60
  );
}

function typeName(t: ArgSchema['type']): string {
  return Array.isArray(t) ? t.join(',') : String(t);
}

function matchesType(value: unknown, t: string): boolean {
  switch (t) {
    case 'integer':
      return isIntegerLike(value);
    case 'number':
      return isNumberLike(value);
    case 'boolean':
      return isBooleanLike(value);
    case 'string':
      return typeof value === 'string';
    case 'array':
      return (
        Array.isArray(value) ||
        typeof value === 'string' ||
        typeof value === 'number' ||
        (typeof value === 'object' && value !== null)
      );
    case 'object':
      return (
        (typeof value === 'object' && value !== null && !Array.isArray(value)) ||
        value === '' ||
        (Array.isArray(value) && value.length === 0)
      );
    case 'null':
      return value === null || value === '';
    default:
      return true;
  }
}

/** rest_validate_value_from_schema: throws SchemaError on the first problem. */
export function validateValue(value: unknown, schema: ArgSchema, param: string): void {
  let type = schema.type;
  if (Array.isArray(type)) {
    const best = type.find((t) => matchesType(value, t));
    if (!best) throw new SchemaError('rest_invalid_type', `${param} is not of type ${typeName(type)}.`, { param });
    type = best;
  }
  if (type && !matchesType(value, type)) {
    throw new SchemaError('rest_invalid_type', `${param} is not of type ${type}.`, { param });
  }
  if (type === 'array') {
    const list = parseList(value);
    if (schema.minItems !== undefined && list.length < schema.minItems) {
      throw new SchemaError(
        'rest_too_few_items',
        `${param} must contain at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}.`,
      );
    }
    if (schema.maxItems !== undefined && list.length > schema.maxItems) {
      throw new SchemaError(
        'rest_too_many_items',
        `${param} must contain at most ${schema.maxItems} item${schema.maxItems === 1 ? '' : 's'}.`,
      );
    }
    if (schema.items) list.forEach((item, i) => validateValue(item, schema.items!, `${param}[${i}]`));
    if (schema.uniqueItems) {
      const seen = new Set(list.map((x) => JSON.stringify(sanitizeValue(x, schema.items ?? {}))));
      if (seen.size !== list.length) throw new SchemaError('rest_duplicate_items', `${param} has duplicate items.`);
    }
    return;
  }
  if (type === 'object') {
    const obj = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    for (const [k, sub] of Object.entries(schema.properties ?? {})) {
      if (obj[k] === undefined) {
        if (sub.required) throw new SchemaError('rest_property_required', `${k} is a required property of ${param}.`);
        continue;
      }
      validateValue(obj[k], sub, `${param}[${k}]`);
    }
    if (schema.additionalProperties === false) {
      for (const k of Object.keys(obj)) {
        if (!schema.properties || !(k in schema.properties)) {
          throw new SchemaError('rest_additional_properties_forbidden', `${k} is not a valid property of Object.`);
        }
      }
    } else if (typeof schema.additionalProperties === 'object') {
      for (const k of Object.keys(obj)) {
        if (!schema.properties || !(k in schema.properties))
          validateValue(obj[k], schema.additionalProperties, `${param}[${k}]`);
      }
    }
    return;
  }
  if (schema.enum) {
    const v = type === 'integer' || type === 'number' ? Number(value) : value;
    if (!schema.enum.some((e) => e === v || String(e) === String(v))) {
      throw new SchemaError('rest_not_in_enum', `${param} is not one of ${listJoin(schema.enum)}.`);
    }
  }
  if ((type === 'integer' || type === 'number') && (schema.minimum !== undefined || schema.maximum !== undefined)) {
    const n = Number(value);
    const { minimum: min, maximum: max } = schema;
    if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
      const msg =
        min !== undefined && max !== undefined
          ? `${param} must be between ${min} (inclusive) and ${max} (inclusive)`
          : min !== undefined
            ? `${param} must be greater than or equal to ${min}`
            : `${param} must be less than or equal to ${max}`;
      throw new SchemaError('rest_out_of_bounds', msg);
    }
  }
  if (typeof value === 'string') {
    if (schema.format === 'date-time' && !isRfc3339(value)) throw new SchemaError('rest_invalid_date', 'Invalid date.');
    if (schema.format === 'email' && value !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
      throw new SchemaError('rest_invalid_email', 'Invalid email address.');
    }
    if (schema.format === 'uri' && value !== '' && !/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value)) {
      throw new SchemaError('rest_invalid_uri', 'Invalid URI.');
    }
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) {
      throw new SchemaError('rest_invalid_pattern', `${param} does not match pattern ${schema.pattern}.`);
    }
  }
}

/** rest_sanitize_value_from_schema: coerce to the declared type. */
export function sanitizeValue(value: unknown, schema: ArgSchema): unknown {
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => matchesType(value, t));
  switch (type) {
    case 'integer':
      return Math.trunc(Number(value));
    case 'number':
      return Number(value);
    case 'boolean':
      return toBoolean(value);
    case 'string':
      return String(value);
    case 'array':
      return parseList(value).map((x) => (schema.items ? sanitizeValue(x, schema.items) : x));
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const sub =
          schema.properties?.[k] ??
          (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
        out[k] = sub ? sanitizeValue(v, sub) : v;
      }
      return out;
    }
    case 'null':
      return null;
    default:
      return value;
  }
}

/**
 * Checks `raw` (already merged in WordPress's parameter order) against `args`
 * and returns the sanitised parameters with defaults applied, or throws the
 * RestError WordPress would send.
 */
export function checkParams(
  raw: Record<string, unknown>,
  args: Record<string, ArgSchema>,
  req: RestRequest,
): Record<string, unknown> {
  const params: Record<string, unknown> = { ...raw };
  for (const [name, arg] of Object.entries(args)) {
    if (params[name] === undefined && arg.default !== undefined) params[name] = structuredClone(arg.default);
  }

  const missing = Object.entries(args)
    .filter(([name, arg]) => arg.required && (params[name] === undefined || params[name] === null))
    .map(([name]) => name);
  if (missing.length) {
    throw new RestError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, 400, {
      params: missing,
    });
  }

  const invalid: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  const fail = (name: string, err: unknown) => {
    if (err instanceof SchemaError || err instanceof RestError) {
      invalid[name] = err.message;
      details[name] = { code: err.code, message: err.message, data: err instanceof RestError ? err.data : err.data };
    } else {
      invalid[name] = 'Invalid parameter.';
    }
  };

  for (const [name, arg] of Object.entries(args)) {
    const value = params[name];
    if (value === undefined || value === null) continue;
    try {
      // has_valid_params runs only validate callbacks; an argument with just a sanitize callback gets no schema check
      // here.
      if (!arg.sanitizeOnly) validateValue(value, arg, name);
      if (arg.validate) {
        const ok = arg.validate(value, req);
        if (ok === false) fail(name, null);
        else if (ok instanceof RestError) fail(name, ok);
      }
    } catch (err) {
      fail(name, err);
    }
  }
  if (Object.keys(invalid).length) throw invalidParams(invalid, details);

  for (const [name, arg] of Object.entries(args)) {
    const value = params[name];
    if (value === undefined || value === null) continue;
    try {
      const v = sanitizeValue(value, arg);
      params[name] = arg.sanitize ? arg.sanitize(v, req) : v;
    } catch (err) {
      fail(name, err);
    }
  }
  if (Object.keys(invalid).length) throw invalidParams(invalid, details);
  return params;
}

export function invalidParams(invalid: Record<string, string>, details: Record<string, unknown> = {}): RestError {
  return new RestError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(invalid).join(', ')}`, 400, {
    params: invalid,
    // PHP's empty array serialises as [], as the legacy bad-date sample shows.
    details: Object.keys(details).length ? details : [],
  });
}

/** A single invalid argument, for checks made inside a callback. */
export function invalidParam(name: string, code: string, message: string, data: unknown = null): RestError {
  return invalidParams({ [name]: message }, { [name]: { code, message, data } });
}
