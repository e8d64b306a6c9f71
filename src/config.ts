/**
 * The gateway's one typed, validated configuration, made from the settings table (src/settings.ts: every
 * setting's variable, path, type, default, bounds and meaning, and the reason for its default), plus the rules
 * across settings that no row can say. `loadConfig` reads flags, environment and the optional config file, and
 * a bad value is a ConfigError that names it. `configJsonSchema` is the config file's JSON Schema.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describeIssues, parseText } from './cli-kit.ts';
import { settingDescription, settingsSchema, type Setting } from './settings-kit.ts';
import { CONFIG_FILE_SETTING, SETTINGS } from './settings.ts';

export { CONFIG_FILE_SETTING, SETTINGS, TRACE_SAMPLERS, parseKeyValues } from './settings.ts';
export { settingDefault, type Setting } from './settings-kit.ts';

/**
 * The configuration's schema: one field per row of SETTINGS, nested by path, each section defaulted as a whole
 * (settingsSchema), then the rules across settings.
 */
export const configSchema = settingsSchema(SETTINGS).superRefine((c, ctx) => {
  // The safelist is the manifest's operations: without a manifest, nothing could run.
  if (c.persistedDocuments.safelist && !c.persistedDocuments.manifest)
    ctx.addIssue({
      code: 'custom',
      path: ['persistedDocuments', 'safelist'],
      message: 'SAFELIST=1 needs PERSISTED_DOCUMENTS=<manifest.json>',
    });
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * The admin listener's port: `ADMIN_PORT`, else the public port + 1, else (the public
 * port is 0, a free one) a free port too. PORT 65535 has no + 1: ADMIN_PORT must be set.
 */
export function adminPortOf(config: Pick<Config, 'port' | 'admin'>): number {
  if (config.admin.port !== undefined) return config.admin.port;
  if (config.port === 0) return 0;
  if (config.port === 65_535)
    throw new ConfigError('invalid configuration: PORT is 65535, so ADMIN_PORT (by default PORT + 1) must be set');
  return config.port + 1;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function getPath(o: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), o);
}

function setPath(o: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop()!;
  let at = o;
  for (const k of keys) {
    if (!isObject(at[k])) at[k] = {};
    at = at[k] as Json;
  }
  at[last] = value;
}

/** `over` on top of `base`, objects merged key by key (arrays and values replaced). */
function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over))
    out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as Json, v) : v;
  return out;
}

/** The object schema inside `.prefault()`/`.default()`/`.optional()` wrappers, if it is one. */
function objectShape(schema: unknown): Record<string, unknown> | undefined {
  let s = schema as { def?: { innerType?: unknown } } | undefined;
  while (s && !(s instanceof z.ZodObject) && s.def?.innerType) s = s.def.innerType as typeof s;
  return s instanceof z.ZodObject ? (s.shape as Record<string, unknown>) : undefined;
}

/** Every leaf setting of the schema, dotted (`upstream.retries`). */
export function settingPaths(shape: Record<string, unknown> = configSchema.shape, prefix = ''): string[] {
  return Object.entries(shape).flatMap(([k, v]) => {
    const inner = objectShape(v);
    return inner ? settingPaths(inner, `${prefix}${k}.`) : [`${prefix}${k}`];
  });
}

/** Edit distance (insertions, deletions, substitutions), for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The setting an unknown config-file key most likely meant: the same letters in
 * another nesting or case (`cacheTtlSeconds`, `CACHE_TTL_SECONDS` -> `cache.ttlSeconds`),
 * else the nearest dotted path within a third of its length.
 */
export function suggestKey(key: string): string | undefined {
  const squash = (k: string) => k.toLowerCase().replace(/[^a-z0-9]/g, '');
  const paths = settingPaths();
  const bySetting = SETTINGS.find((s) => s.env === key);
  if (bySetting) return bySetting.path;
  const same = paths.find((p) => squash(p) === squash(key));
  if (same) return same;
  let best: { path: string; d: number } | undefined;
  for (const p of paths) {
    const d = Math.min(
      distance(key.toLowerCase(), p.toLowerCase()),
      distance(key.toLowerCase(), p.split('.').pop()!.toLowerCase()),
    );
    if (!best || d < best.d) best = { path: p, d };
  }
  return best && best.d <= Math.max(2, Math.floor(key.length / 3)) ? best.path : undefined;
}

/** Keys of a config file the schema does not have (a typo would otherwise be silently ignored). */
function unknownKeys(value: Json, shape: Record<string, unknown> = configSchema.shape, prefix = ''): string[] {
  return Object.entries(value).flatMap(([k, v]) => {
    if (!(k in shape)) return [`${prefix}${k}`];
    const inner = objectShape(shape[k]);
    return inner && isObject(v) ? unknownKeys(v, inner, `${prefix}${k}.`) : [];
  });
}

/**
 * Validates `input`. `sources` maps dotted paths to where their value came
 * from (`PORT`, `--port`, the file), so an error names what to fix.
 */
export function parseConfig(input: ConfigInput, sources: ReadonlyMap<string, string> = new Map()): Config {
  const r = configSchema.safeParse(input);
  if (r.success) return r.data;
  throw new ConfigError(`invalid configuration: ${describeIssues(r.error.issues, sources)}`);
}

/** The config file: JSON shaped like Config (nested, partial), unknown keys refused. */
export function readConfigFile(file: string): Json {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(value)) throw new ConfigError(`config file ${file} must hold a JSON object`);
  // `$schema` points an editor at config.schema.json (npm run config-schema); it is not a setting.
  const { $schema: _schema, ...settings } = value;
  const unknown = unknownKeys(settings);
  if (unknown.length) {
    const named = unknown.map((k) => {
      const meant = suggestKey(k);
      return meant ? `${JSON.stringify(k)} (did you mean ${JSON.stringify(meant)}?)` : JSON.stringify(k);
    });
    throw new ConfigError(`config file ${file}: unknown key${unknown.length > 1 ? 's' : ''} ${named.join(', ')}`);
  }
  // Checked alone too, so a bad value in the file is an error even where the environment overrides it.
  const sources = new Map(settingPaths().map((p) => [p, `config file ${file}`]));
  parseConfig(settings as ConfigInput, sources);
  return settings;
}

/**
 * The configuration: flags > environment > config file > defaults. `flags`
 * are `npm start`'s, by name without `--` (`port`, `host`, `upstream`, `config`).
 * An empty environment variable counts as unset; an empty flag does not.
 */
export function loadConfig(env: NodeJS.ProcessEnv, flags: Readonly<Record<string, string | undefined>> = {}): Config {
  const file = flags[CONFIG_FILE_SETTING.flag] ?? (env[CONFIG_FILE_SETTING.env] || undefined);
  const sources = new Map<string, string>();
  let input = configSchema.parse({}) as Json;
  if (file !== undefined) {
    input = deepMerge(input, readConfigFile(file));
    for (const p of settingPaths()) if (getPath(input, p) !== undefined) sources.set(p, `config file ${file}`);
  }
  for (const s of SETTINGS) {
    const flag = s.flag !== undefined ? flags[s.flag] : undefined;
    const raw = flag ?? (env[s.env] || undefined);
    if (raw === undefined) continue;
    const name = flag !== undefined ? `--${s.flag}` : s.env;
    setPath(input, s.path, parseText(name, s.kind, raw, ConfigError));
    sources.set(s.path, name);
  }
  return parseConfig(input as ConfigInput, sources);
}

/**
 * A hint when the upstream does not look like a WordPress REST root (no `/wp-json/`,
 * no `rest_route=`): the gateway starts anyway (a site may serve its API elsewhere),
 * but /readyz stays 503 until the root's index is read.
 */
export function upstreamHint(url: string): string | undefined {
  if (/\/wp-json(\/|$)|[?&]rest_route=/.test(url)) return undefined;
  return (
    `hint: ${url} has no /wp-json/: a WordPress REST root is usually https://<site>/wp-json/ ` +
    "(or https://<site>/?rest_route=/ without pretty permalinks); /readyz stays 503 until the root's index answers"
  );
}

/**
 * The configuration file's JSON Schema, from the same zod schema (input side: every key optional, defaults
 * shown), each setting described by its row (meaning, what unset means, variable and flag); unknown keys
 * refused, `$schema` allowed. `npm run config-schema` writes it to config.schema.json.
 */
export function configJsonSchema(
  schema: z.ZodType = configSchema,
  rows: readonly Setting[] = SETTINGS,
): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  type Node = {
    type?: string;
    format?: string;
    properties?: Record<string, Node>;
    additionalProperties?: unknown;
    description?: string;
    minimum?: number;
    maximum?: number;
  };
  const tidy = (n: Node) => {
    // An integer's implicit safe-integer bounds say nothing a reader needs.
    if (n.maximum === Number.MAX_SAFE_INTEGER) delete n.maximum;
    if (n.minimum === Number.MIN_SAFE_INTEGER) delete n.minimum;
    if (n.properties) {
      n.additionalProperties = false;
      for (const child of Object.values(n.properties)) tidy(child);
    }
  };
  tidy(json as Node);
  for (const s of rows) {
    let at = json as Node | undefined;
    for (const k of s.path.split('.')) at = at?.properties?.[k];
    if (!at) continue;
    at.description = settingDescription(s);
    // zod names no format once a pattern is given; a URL is still one.
    if (s.type === 'string' && s.url) at.format = 'uri';
  }
  const root = json as Node & Record<string, unknown>;
  root.properties = { $schema: { type: 'string', description: 'this JSON Schema, for editors' }, ...root.properties };
  return { ...root, title: `sitegraph configuration file (--${CONFIG_FILE_SETTING.flag}, ${CONFIG_FILE_SETTING.env})` };
}
