/**
 * The sandbox's options, each with its default and the environment variable
 * that sets it. `npm run sandbox` and `npm start` read the environment; tests
 * pass options directly.
 */
import { z } from 'zod';
import { describeIssues, parseText, type TextKind } from './vendor/cli-kit.ts';
import { specNamespace, specPath } from './names.ts';
import { ABSENT } from './release.ts';

export const DEFAULT_APP_PASSWORD = 'sand boxa dmin pass word 0000';

const faultSchema = z.object({
  /** Regular expression matched against the REST path (e.g. `^/calendar-core/v1/events$`). */
  path: z.string().min(1),
  /** Only this method (default: any). */
  method: z.string().optional(),
  /** Answer with this status (and `body`, default a WordPress-style error) instead of dispatching. */
  status: z.number().int().min(100).max(599).optional(),
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Destroy the socket without answering. */
  reset: z.boolean().optional(),
  /** Send half the body, wait this long, then the rest. */
  slowBodyMs: z.number().int().min(0).optional(),
  /** Send a 200 whose JSON body is cut short. */
  malformed: z.boolean().optional(),
  /** Wait this long before answering (on top of the global latency). */
  delayMs: z.number().int().min(0).optional(),
  /** Apply to the next N matching requests only (default: every one). */
  times: z.number().int().min(1).optional(),
});
export type FaultRule = z.infer<typeof faultSchema>;
export const faultRulesSchema = z.array(faultSchema);

export const sandboxOptionsSchema = z.object({
  /**
   * SQLite file, or `:memory:`. `SANDBOX_DB` / `--db`; default `:memory:`, so every
   * start serves the same freshly seeded demo data and two instances never share
   * writes. A file keeps writes across restarts (and is seeded only when empty).
   */
  db: z.string().min(1).default(':memory:'),
  /** `--host`; default 127.0.0.1 (loopback only). */
  host: z.string().default('127.0.0.1'),
  /** `--port` / `SANDBOX_PORT`; 0 picks a free port. */
  port: z.number().int().min(0).max(65535).default(0),
  /** Seed of the demo data. `SANDBOX_SEED`; default 20261122. */
  seed: z.number().int().default(20261122),
  /**
   * Day the demo data is laid around (UTC date, `YYYY-MM-DD`). `SANDBOX_ANCHOR`;
   * default today, so events spread over the past and next 12 months.
   */
  anchor: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  /**
   * The site's clock starts at this instant (RFC 3339) and runs from there.
   * `SANDBOX_NOW`; default the real time. With `anchor`, it makes a run
   * reproducible on any day ("upcoming", default windows, `is_past`).
   */
  now: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), 'must be an RFC 3339 date-time')
    .optional(),
  /** Site time zone. `SANDBOX_TIMEZONE`; default America/New_York. */
  timezone: z.string().default('America/New_York'),
  /** The administrator's application password. `SANDBOX_APP_PASSWORD`. */
  appPassword: z.string().min(1).default(DEFAULT_APP_PASSWORD),
  /** Added to every response. `SANDBOX_LATENCY_MS`; default 0. */
  latencyMs: z.number().int().min(0).default(0),
  /** Uniform random extra latency in [0, jitterMs). `SANDBOX_JITTER_MS`; default 0. */
  jitterMs: z.number().int().min(0).default(0),
  /** Append one JSON line per request to this file. `SANDBOX_REQUEST_LOG`. */
  requestLog: z.string().optional(),
  /** Fault rules. `SANDBOX_FAULTS` (a JSON array). */
  faults: faultRulesSchema.default([]),
  /** Serve `/__sandbox/*` (faults and log over HTTP). `SANDBOX_CONTROL=0` turns it off; default on. */
  control: z.boolean().default(true),
  /** Number of demo events. `SANDBOX_EVENTS`; default 520. */
  events: z.number().int().min(0).default(520),
  /** Seed demo data into an empty database; default true. */
  demo: z.boolean().default(true),
  /**
   * Namespaces this site does not have (`SANDBOX_DISABLE`, comma-separated), e.g.
   * `calendar-core/v1` to act as an older site. They vanish from the index and their routes.
   * An entry starting with `/` removes the routes under that path instead (e.g.
   * `/seo/v1/redirects`, as on a site with Yoast SEO free).
   */
  disable: z.array(z.string()).default([]),
  /** Mark batchable routes with `allow_batch` (`SANDBOX_BATCHABLE=0` acts as a site that marks none); default true. */
  batchable: z.boolean().default(true),
  /**
   * Mark the calendar-core/v1 writes of events, venues and organizers `allow_batch`
   * (`SANDBOX_CALENDAR_BATCHABLE=1`); default false. A real site marks no calendar
   * route batchable (real-site-behaviour.md "calendar-core/v1 on a real site"); a
   * site filter can mark them, and this acts as such a site. Needs `batchable`.
   */
  calendarBatchable: z.boolean().default(false),
  /**
   * The release of WordPress + The Events Calendar the site acts as
   * (`SANDBOX_TEC`; docs/sandbox.md "Releases"): `5.7` is WordPress 6.1 + TEC
   * 5.7.1 (no calendar-core namespaces; the legacy routes declare 5.7.1's
   * arguments; a wrong application password is anonymous unless
   * `wrongPassword` says otherwise); `6.15` (default, as the real site's
   * 6.15.14) declares 6.15.14's arguments, checks none of calendar-core's query
   * arguments, ignores `categories`/`tags` on its events list, accepts unknown
   * venue and organizer IDs in writes and resets what a calendar-core event
   * update omits; `6.17` declares the spec's full tables and validates them
   * (400 `rest_invalid_param`, `tec_rest_invalid_*_argument`) and filters by terms.
   */
  tec: z.enum(['5.7', '6.15', '6.17']).default('6.15'),
  /**
   * Event Tickets is active (`SANDBOX_TICKETS=1`, `--tickets 1`; docs/sandbox.md
   * "Event Tickets"): the root index lists `tribe/tickets/v1` and the event and
   * series lists apply `ticketed`. Default off, on every release: as on a real
   * site without the plugin, the lists still declare `ticketed`, the legacy one
   * refuses `ticketed=1` (400 `rest_invalid_param`) and ignores `ticketed=0`,
   * and calendar-core/v1 ignores it.
   */
  tickets: z.boolean().default(false),
  /**
   * The names the namespaces are served under (`SANDBOX_NAMES`; docs/sandbox.md
   * "Names"): `spec` (default) the spec's (`calendar/events/v1`, ...); `plugin`
   * the plugins' own (`tribe/events/v1`, `tec/v1`, `yoast/v1`, `wp/v2`, ...),
   * the spec's renamed ones then being 404 `rest_no_route`; `both` both, as a
   * real site with an alias plugin serves them. calendar-core's event-category
   * field is `tribe_events_cat` unless the names are `spec`.
   */
  names: z.enum(['spec', 'plugin', 'both']).default('spec'),
  /**
   * Print `[sandbox] undeclared argument(s) … dropped` on stderr for every
   * argument a route does not declare (`SANDBOX_STRICT_ARGS=1`); default off.
   * Such arguments are dropped either way (WordPress ignores them) and always
   * recorded in the request log (`undeclared`).
   */
  strictArgs: z.boolean().default(false),
  /**
   * A wrong application password (`SANDBOX_WRONG_PASSWORD`): `error` (WordPress
   * 6.8) answers 401 `incorrect_password` (an unknown login 401
   * `invalid_username`/`invalid_email`); `anonymous` (WordPress 6.1) treats the
   * caller as anonymous (real-site-behaviour.md "Authentication"). Unset, it
   * follows `tec`: `anonymous` for `5.7`, `error` otherwise.
   */
  wrongPassword: z.enum(['error', 'anonymous']).optional(),
});

/**
 * The options once parsed: every default applied, `disable` in the spec's
 * names plus the namespaces the release lacks, `wrongPassword` decided.
 */
export type SandboxOptions = Omit<z.infer<typeof sandboxOptionsSchema>, 'wrongPassword'> & {
  wrongPassword: 'error' | 'anonymous';
};
export type SandboxOptionsInput = z.input<typeof sandboxOptionsSchema>;

/** Thrown for bad options: names every bad field. */
export class SandboxConfigError extends Error {
  override name = 'SandboxConfigError';
}

/** `sources` names where values came from (`SANDBOX_PORT`, `--port`), for the error. */
export function parseSandboxOptions(
  input: SandboxOptionsInput,
  sources: ReadonlyMap<string, string> = new Map(),
): SandboxOptions {
  const r = sandboxOptionsSchema.safeParse(input);
  if (!r.success) throw new SandboxConfigError(`invalid sandbox options: ${describeIssues(r.error.issues, sources)}`);
  const o = r.data;
  return {
    ...o,
    // One name per namespace inside the site: `disable` may name either (names.ts).
    // A release without a namespace is a site with that namespace disabled (release.ts).
    disable: [
      ...new Set([...o.disable.map((d) => (d.startsWith('/') ? specPath(d) : specNamespace(d))), ...ABSENT[o.tec]]),
    ],
    // WordPress 6.1, which TEC 5.7.1 runs on here, treats a wrong password as no password.
    wrongPassword: o.wrongPassword ?? (o.tec === '5.7' ? 'anonymous' : 'error'),
  };
}

/**
 * Every option the environment or a flag of `npm run sandbox` sets: the one
 * table `sandboxOptionsFromEnv`, `sandboxOptions` and `--help` read. `shown`
 * is the default as help prints it, where the schema's is not what a user sees.
 */
export interface SandboxSetting {
  key: keyof SandboxOptionsInput;
  env?: string;
  flag?: string;
  kind: TextKind;
  meaning: string;
  shown?: string;
}

export const SANDBOX_SETTINGS: readonly SandboxSetting[] = [
  {
    key: 'port',
    env: 'SANDBOX_PORT',
    flag: 'port',
    kind: 'int',
    meaning: 'port (0: a free one)',
    shown: '8080 (npm start: a free one)',
  },
  { key: 'host', flag: 'host', kind: 'string', meaning: 'listen address' },
  {
    key: 'db',
    env: 'SANDBOX_DB',
    flag: 'db',
    kind: 'string',
    meaning:
      'SQLite file that keeps writes across restarts (seeded when empty), or :memory: (fresh demo data every start)',
  },
  { key: 'seed', env: 'SANDBOX_SEED', kind: 'int', meaning: 'seed of the demo data' },
  { key: 'events', env: 'SANDBOX_EVENTS', kind: 'int', meaning: 'number of demo events' },
  {
    key: 'anchor',
    env: 'SANDBOX_ANCHOR',
    kind: 'string',
    meaning: 'the day the demo events are laid around (YYYY-MM-DD)',
    shown: 'today (UTC)',
  },
  {
    key: 'now',
    env: 'SANDBOX_NOW',
    kind: 'string',
    meaning: "the site's clock starts at this instant (RFC 3339) and runs on",
    shown: 'real time',
  },
  { key: 'timezone', env: 'SANDBOX_TIMEZONE', kind: 'string', meaning: 'site time zone' },
  {
    key: 'appPassword',
    env: 'SANDBOX_APP_PASSWORD',
    kind: 'string',
    meaning: "the administrator's application password",
  },
  { key: 'latencyMs', env: 'SANDBOX_LATENCY_MS', kind: 'int', meaning: 'added to every response' },
  { key: 'jitterMs', env: 'SANDBOX_JITTER_MS', kind: 'int', meaning: 'plus a random [0, jitter) ms' },
  {
    key: 'faults',
    env: 'SANDBOX_FAULTS',
    kind: 'json',
    meaning: 'fault rules (JSON array; docs/sandbox.md "Control routes")',
  },
  {
    key: 'requestLog',
    env: 'SANDBOX_REQUEST_LOG',
    kind: 'string',
    meaning: 'append one JSON line per request to this file',
  },
  {
    key: 'disable',
    env: 'SANDBOX_DISABLE',
    kind: 'list',
    meaning: 'namespaces (calendar-core/v1) or route paths (/seo/v1/redirects) the site does not have, comma-separated',
  },
  { key: 'batchable', env: 'SANDBOX_BATCHABLE', kind: 'bool', meaning: '0: mark no route allow_batch' },
  {
    key: 'calendarBatchable',
    env: 'SANDBOX_CALENDAR_BATCHABLE',
    kind: 'bool',
    meaning: '1: mark the calendar-core/v1 writes allow_batch',
  },
  {
    key: 'tec',
    env: 'SANDBOX_TEC',
    kind: 'string',
    meaning:
      'the release the site acts as: 5.7 (WordPress 6.1 + TEC 5.7.1, no calendar-core), 6.15 (TEC 6.15.14) or 6.17; each declares its own arguments',
  },
  {
    key: 'tickets',
    env: 'SANDBOX_TICKETS',
    flag: 'tickets',
    kind: 'bool',
    meaning:
      '1: Event Tickets active: tribe/tickets/v1 in the root index, ticketed applied by the event and series lists (0: declared, but refused or ignored, as on a site without it)',
  },
  {
    key: 'names',
    env: 'SANDBOX_NAMES',
    kind: 'string',
    meaning:
      "namespace names: spec (calendar/events/v1, ...), plugin (the plugins' own: tribe/events/v1, tec/v1, yoast/v1, wp/v2, ...) or both",
  },
  {
    key: 'strictArgs',
    env: 'SANDBOX_STRICT_ARGS',
    kind: 'bool',
    meaning: '1: print every undeclared argument dropped on stderr (the request log always records them)',
  },
  {
    key: 'wrongPassword',
    env: 'SANDBOX_WRONG_PASSWORD',
    kind: 'string',
    meaning: 'a wrong application password: error (401, WordPress 6.8) or anonymous (WordPress 6.1)',
    shown: 'error (SANDBOX_TEC=5.7: anonymous)',
  },
  { key: 'control', env: 'SANDBOX_CONTROL', kind: 'bool', meaning: '0: turn off the /__sandbox/* control routes' },
];

/** A setting's default as help prints it. */
export function sandboxSettingDefault(s: SandboxSetting): string {
  if (s.shown) return s.shown;
  const v = sandboxOptionsSchema.parse({})[s.key];
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (Array.isArray(v)) return v.length ? JSON.stringify(v) : '(none)';
  return v === undefined ? '(unset)' : String(v);
}

/**
 * Options from flags (`port`, `db`, `host`, by name) over the environment
 * (`SANDBOX_*`); an empty variable counts as unset. Text that is no number,
 * boolean or JSON is a SandboxConfigError naming the variable or flag; values
 * are checked by the schema when the sandbox starts. `sources` receives where
 * each came from, for parseSandboxOptions.
 */
export function sandboxOptions(
  env: NodeJS.ProcessEnv,
  flags: Readonly<Record<string, string | undefined>> = {},
  sources = new Map<string, string>(),
): SandboxOptionsInput {
  const out: Record<string, unknown> = {};
  for (const s of SANDBOX_SETTINGS) {
    const flag = s.flag !== undefined ? flags[s.flag] : undefined;
    const raw = flag ?? (s.env !== undefined ? env[s.env] || undefined : undefined);
    if (raw === undefined) continue;
    const name = flag !== undefined ? `--${s.flag}` : s.env!;
    out[s.key] = parseText(name, s.kind, raw, SandboxConfigError);
    sources.set(s.key, name);
  }
  return out as SandboxOptionsInput;
}

/** Options from the environment (`SANDBOX_*`). */
export function sandboxOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SandboxOptionsInput {
  return sandboxOptions(env);
}
