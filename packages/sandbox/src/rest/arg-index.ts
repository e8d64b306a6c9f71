/**
 * An argument as the indexes show it (reference/site-upstream.md §4): the
 * JSON-schema keywords of its declaration plus `required`. The root and
 * namespace indexes (namespaces/root.ts) print it as is; the OpenAPI
 * documents (openapi.ts) take the schema without `required`.
 */
import type { ArgSchema } from './types.ts';

const SCHEMA_KEYS = [
  'type',
  'description',
  'default',
  'enum',
  'minimum',
  'maximum',
  'format',
  'pattern',
  'items',
  'uniqueItems',
  'minItems',
  'maxItems',
  'properties',
  'additionalProperties',
] as const;

/** An argument as the index shows it: JSON-schema keywords plus `required`. */
export function argForIndex(a: ArgSchema): Record<string, unknown> {
  const out: Record<string, unknown> = { required: Boolean(a.required) };
  for (const k of SCHEMA_KEYS) {
    const v = a[k];
    if (v === undefined) continue;
    if (k === 'items' && typeof v === 'object') out.items = argForIndex(v as ArgSchema);
    else if (k === 'properties')
      out.properties = Object.fromEntries(
        Object.entries(v as Record<string, ArgSchema>).map(([n, s]) => [n, argForIndex(s)]),
      );
    else out[k] = v;
  }
  return out;
}
