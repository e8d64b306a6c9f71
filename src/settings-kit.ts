/**
 * What one row of the settings table (src/settings.ts) is, and what is made from rows: the zod schema
 * (type, bounds, check and default of each row, nested by its dotted path), how a variable's text is read,
 * and a default and its allowed values as `--help`, config.schema.json and docs/configuration.md show
 * them. Everything is derived from the row, so nothing about a setting is written twice.
 */
import { z } from 'zod';
import type { TextKind } from './cli-kit.ts';

/**
 * A check on a text value, with the message a refusal gives (values are never echoed: some are
 * secrets). A regular expression is also the config file's JSON Schema `pattern`.
 */
export type TextCheck = readonly [test: RegExp | ((value: string) => boolean), message: string];

interface Row {
  /** Environment variable. */
  readonly env: string;
  /** Where it goes in Config, dotted (`upstream.retries`): also its key in the config file. */
  readonly path: string;
  /** `--<flag>` of `npm start` that sets it too (flags win over the environment). */
  readonly flag?: string;
  /** One line of plain text: `--help` and config.schema.json. */
  readonly meaning: string;
  /** docs/configuration.md's text (Markdown) where one line is not enough; else the meaning. */
  readonly doc?: string;
  /** What leaving it unset means, for a setting without a default (or with an empty list). */
  readonly unset?: string;
}

/** An integer, or (`number`) any number; `min`/`max` inclusive. */
interface NumberRow extends Row {
  readonly type: 'int' | 'number';
  readonly default?: number;
  readonly min?: number;
  readonly max?: number;
}

/** A switch: 1/0, true/false, on/off, yes/no in the environment. */
interface BoolRow extends Row {
  readonly type: 'bool';
  readonly default: boolean;
}

/** Text; `min`/`max` bound its length, `url` wants a URL, `check` anything else. */
interface StringRow extends Row {
  readonly type: 'string';
  readonly default?: string;
  readonly min?: number;
  readonly max?: number;
  readonly url?: boolean;
  readonly check?: TextCheck;
}

/** One of `values` (the environment's text is trimmed and lower-cased). */
interface EnumRow extends Row {
  readonly type: 'enum';
  readonly values: readonly [string, ...string[]];
  readonly default?: string;
  /** The refusal's message; zod's own (which names the values) otherwise. */
  readonly message?: string;
}

/**
 * A list, comma-separated in the environment, of `values` or of text passing `check`. `normalize`
 * finishes a valid list (AUTH_SCHEMES always has Basic).
 */
interface ListRow extends Row {
  readonly type: 'list';
  readonly default: readonly string[];
  readonly values?: readonly [string, ...string[]];
  readonly check?: TextCheck;
  readonly message?: string;
  readonly normalize?: (list: string[]) => string[];
}

/** One row of the settings table as written. */
export type SettingRow = NumberRow | BoolRow | StringRow | EnumRow | ListRow;

/** A row with what is made from it: its zod schema and how its variable's text is read. */
export type Setting<P extends string = string, Z extends z.ZodType = z.ZodType> = SettingRow & {
  readonly path: P;
  /** How the variable's or flag's text becomes a value (src/cli-kit.ts); the schema validates it after. */
  readonly kind: TextKind;
  readonly schema: Z;
};

type ValueOf<R> = R extends { type: 'int' | 'number' }
  ? number
  : R extends { type: 'bool' }
    ? boolean
    : R extends { type: 'enum'; values: readonly (infer V)[] }
      ? V
      : R extends { type: 'list'; values: readonly (infer V)[] }
        ? V[]
        : R extends { type: 'list' }
          ? string[]
          : string;

/** A row's schema type: its value, defaulted (never undefined once parsed) or optional. */
type SchemaOf<R> = R extends { default: unknown }
  ? z.ZodDefault<z.ZodType<ValueOf<R>, ValueOf<R>>>
  : z.ZodOptional<z.ZodType<ValueOf<R>, ValueOf<R>>>;

/** Fractional numbers are read as JSON (`0.5`), as they always were. */
const KINDS: Record<SettingRow['type'], TextKind> = {
  int: 'int',
  number: 'json',
  bool: 'bool',
  string: 'string',
  enum: 'enum',
  list: 'list',
};

function text(row: StringRow | ListRow): z.ZodType<string, string> {
  let s = z.string();
  if (row.type === 'string') {
    if (row.url) s = s.url();
    if (row.min !== undefined) s = s.min(row.min);
    if (row.max !== undefined) s = s.max(row.max);
  }
  if (!row.check) return s;
  const [test, message] = row.check;
  return test instanceof RegExp ? s.regex(test, message) : s.refine(test, message);
}

function valueSchema(row: SettingRow): z.ZodType {
  switch (row.type) {
    case 'int':
    case 'number': {
      let n = row.type === 'int' ? z.number().int() : z.number();
      if (row.min !== undefined) n = n.min(row.min);
      if (row.max !== undefined) n = n.max(row.max);
      return n;
    }
    case 'bool':
      return z.boolean();
    case 'string':
      return text(row);
    case 'enum':
      return z.enum(row.values, row.message ? { message: row.message } : undefined);
    case 'list':
      return listOf(row);
  }
}

function listOf(row: ListRow): z.ZodArray<z.ZodType<string, string>> {
  return z.array(row.values ? z.enum(row.values, row.message ? { message: row.message } : undefined) : text(row));
}

/**
 * The row's zod schema: its value's, then its default (which must pass the row's own bounds: a row
 * whose default it would refuse fails here, when the table is loaded), else optional.
 */
function schemaOf(row: SettingRow): z.ZodType {
  const value = valueSchema(row);
  if (row.default === undefined) return value.optional();
  const checked = value.safeParse(row.default);
  if (!checked.success)
    throw new Error(`settings: ${row.env}'s default is refused by its own row: ${checked.error.issues[0]?.message}`);
  if (row.type === 'list' && row.normalize)
    return listOf(row)
      .default([...row.default])
      .transform(row.normalize);
  return value.default(row.default);
}

/** A row of the table: the row as written, with its schema (typed by the row) and its text kind. */
export function setting<const R extends SettingRow>(row: R): Setting<R['path'], SchemaOf<R>>;
export function setting(row: SettingRow): Setting {
  return { ...row, kind: KINDS[row.type], schema: schemaOf(row) };
}

type Head<P extends string> = P extends `${infer H}.${string}` ? H : P;
type Below<S, K extends string> = S extends { path: `${K}.${infer Rest}`; schema: infer Z extends z.ZodType }
  ? { path: Rest; schema: Z }
  : never;
type Leaf = { path: string; schema: z.ZodType };

/** The object shape the rows `S` nest into: a row's schema at its path, a section for each prefix. */
export type ShapeOf<S extends Leaf> = {
  [K in Head<S['path']>]: [Extract<S, { path: K }>] extends [never]
    ? z.ZodPrefault<z.ZodObject<ShapeOf<Below<S, K>>>>
    : Extract<S, { path: K }>['schema'];
};

type Tree = Map<string, z.ZodType | Tree>;

function objectOf(tree: Tree): z.ZodObject {
  return z.object(
    Object.fromEntries(
      [...tree].map(([k, v]) => [k, v instanceof Map ? objectOf(v).prefault({}) : v] as [string, z.ZodType]),
    ),
  );
}

/**
 * The rows as one object schema, nested by their dotted paths. Each section (`upstream`, `limits`, ...)
 * is `.prefault({})`: an absent section is parsed as `{}`, so it gets its rows' own defaults.
 */
export function settingsSchema<const S extends readonly Leaf[]>(rows: S): z.ZodObject<ShapeOf<S[number]>>;
export function settingsSchema(rows: readonly Leaf[]): z.ZodObject {
  const root: Tree = new Map();
  for (const row of rows) {
    const keys = row.path.split('.');
    const last = keys.pop()!;
    let at = root;
    for (const k of keys) {
      const next = at.get(k) ?? new Map();
      if (!(next instanceof Map)) throw new Error(`settings: ${row.path} is below the setting ${k}`);
      at.set(k, next);
      at = next;
    }
    if (at.has(last)) throw new Error(`settings: ${row.path} is declared twice`);
    at.set(last, row.schema);
  }
  return objectOf(root);
}

const MIB = 1024 * 1024;

/** Milliseconds for people: `15 s`, `500 ms`, `2.5 s`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Bytes for people: `64 MiB`, `1 KiB`, else the number and `bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * A number in its unit, read from the setting's name (`...Ms`, `...Bytes`), where that says more than
 * the number: `15000` is `15 s`, `67108864` is `64 MiB`. Undefined for other settings and small values.
 */
export function readable(s: Setting, value: unknown): string | undefined {
  if (typeof value !== 'number') return undefined;
  if (s.path.endsWith('Ms') && value >= 1000) return formatMs(value);
  if (s.path.endsWith('Bytes') && value >= 1024) return formatBytes(value);
  return undefined;
}

/**
 * The default as the environment would take it (booleans as 1/0, lists comma-separated),
 * then in its unit (`15000 (15 s)`); `(unset)` without a default, `(none)` for an empty list.
 */
export function settingDefault(s: Setting): string {
  const v = s.default;
  if (v === undefined) return '(unset)';
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (Array.isArray(v)) return v.length ? v.join(',') : '(none)';
  const unit = readable(s, v);
  return unit ? `${String(v)} (${unit})` : String(v);
}

/** The values `--help` lists after an enum's meaning (`ip or credential`); undefined for other settings. */
export function settingChoices(s: Setting): string | undefined {
  const values = s.type === 'enum' || s.type === 'list' ? s.values : undefined;
  if (!values) return undefined;
  return values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values.at(-1)!}` : values[0];
}

/** A setting's line in config.schema.json: its meaning, what unset means, its variable and flag. */
export function settingDescription(s: Setting): string {
  const how = [s.env, s.flag ? `--${s.flag}` : undefined].filter(Boolean).join(', ');
  return `${s.meaning}${s.unset ? `; unset: ${s.unset}` : ''} (${how})`;
}

/** A setting's row of `--help`'s environment table: variable, default, meaning (with choices and unset). */
export function settingHelpRow(s: Setting): [string, string, string] {
  const choices = settingChoices(s);
  const meaning = `${s.meaning}${choices ? ` (${choices})` : ''}${s.unset ? `; unset: ${s.unset}` : ''}`;
  return [s.env, settingDefault(s), meaning];
}
