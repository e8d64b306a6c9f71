/**
 * The sandbox's options, each with its default and the environment variable
 * that sets it. `npm run sandbox` and `npm start` read the environment; tests
 * pass options directly.
 */
import { z } from 'zod';

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
  /** SQLite file, or `:memory:`. `SANDBOX_DB`; default `.sandbox/site.sqlite`. */
  db: z.string().min(1).default('.sandbox/site.sqlite'),
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
  anchor: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  /**
   * The site's clock starts at this instant (RFC 3339) and runs from there.
   * `SANDBOX_NOW`; default the real time. With `anchor`, it makes a run
   * reproducible on any day ("upcoming", default windows, `is_past`).
   */
  now: z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an RFC 3339 date-time').optional(),
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
   * The TEC release calendar-core/v1 acts as (`SANDBOX_TEC`): `6.15` (default, as
   * the real site's 6.15.14) declares its query arguments but validates none of
   * them and ignores `categories`/`tags` on the events list, and writes accept
   * unknown venue and organizer IDs; `6.17` validates them
   * (400 `rest_invalid_param`, `tec_rest_invalid_*_argument`) and filters by terms.
   */
  tec: z.enum(['6.15', '6.17']).default('6.15'),
  /**
   * A wrong application password (`SANDBOX_WRONG_PASSWORD`): `error` (default,
   * WordPress 6.8) answers 401 `incorrect_password` (an unknown login 401
   * `invalid_username`/`invalid_email`); `anonymous` (WordPress 6.1) treats the
   * caller as anonymous (real-site-behaviour.md "Authentication").
   */
  wrongPassword: z.enum(['error', 'anonymous']).default('error'),
});

export type SandboxOptions = z.infer<typeof sandboxOptionsSchema>;
export type SandboxOptionsInput = z.input<typeof sandboxOptionsSchema>;

/** Thrown for bad options: names every bad field. */
export class SandboxConfigError extends Error {
  override name = 'SandboxConfigError';
}

export function parseSandboxOptions(input: SandboxOptionsInput): SandboxOptions {
  const r = sandboxOptionsSchema.safeParse(input);
  if (!r.success) {
    throw new SandboxConfigError(`invalid sandbox options: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  return r.data;
}

function int(name: string, v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d+$/.test(v.trim())) throw new SandboxConfigError(`${name} must be an integer, got ${JSON.stringify(v)}`);
  return Number(v);
}

/** Options from the environment (`SANDBOX_*`). */
export function sandboxOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SandboxOptionsInput {
  let faults: unknown = undefined;
  if (env.SANDBOX_FAULTS) {
    try {
      faults = JSON.parse(env.SANDBOX_FAULTS);
    } catch {
      throw new SandboxConfigError('SANDBOX_FAULTS must be a JSON array of fault rules');
    }
  }
  const out: Record<string, unknown> = {
    db: env.SANDBOX_DB || undefined,
    port: int('SANDBOX_PORT', env.SANDBOX_PORT),
    seed: int('SANDBOX_SEED', env.SANDBOX_SEED),
    anchor: env.SANDBOX_ANCHOR || undefined,
    now: env.SANDBOX_NOW || undefined,
    timezone: env.SANDBOX_TIMEZONE || undefined,
    appPassword: env.SANDBOX_APP_PASSWORD || undefined,
    latencyMs: int('SANDBOX_LATENCY_MS', env.SANDBOX_LATENCY_MS),
    jitterMs: int('SANDBOX_JITTER_MS', env.SANDBOX_JITTER_MS),
    requestLog: env.SANDBOX_REQUEST_LOG || undefined,
    events: int('SANDBOX_EVENTS', env.SANDBOX_EVENTS),
    faults,
    control: env.SANDBOX_CONTROL === undefined ? undefined : !['0', 'false', 'off'].includes(env.SANDBOX_CONTROL),
    disable: env.SANDBOX_DISABLE ? env.SANDBOX_DISABLE.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
    batchable: env.SANDBOX_BATCHABLE === undefined ? undefined : !['0', 'false', 'off'].includes(env.SANDBOX_BATCHABLE),
    calendarBatchable: env.SANDBOX_CALENDAR_BATCHABLE === undefined || env.SANDBOX_CALENDAR_BATCHABLE === '' ? undefined : !['0', 'false', 'off'].includes(env.SANDBOX_CALENDAR_BATCHABLE),
    // Bad values reach the schema, which names them (SandboxConfigError).
    tec: env.SANDBOX_TEC || undefined,
    wrongPassword: env.SANDBOX_WRONG_PASSWORD || undefined,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as SandboxOptionsInput;
}
