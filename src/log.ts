/**
 * The gateway's logger (pino): one JSON object per line by default, pretty
 * (pino-pretty) in a terminal. Every module that logs takes a `Logger` from
 * here (the gateway's own is `Gateway.log`), never `console`.
 *
 * Two things every line gets, whoever logs it:
 *
 * - the request it belongs to (`reqId`), when it is logged for a GraphQL
 *   request: the lines of a request (its operation line, its upstream
 *   failures, its internal errors) are written inside `withLogScope(record, …)`
 *   by src/plugins/observability.ts, which is handed the request's record
 *   explicitly (by server.ts, the operation's context and the upstream
 *   client's attempt events). The scope is synchronous: pino writes a line
 *   within the log call, so the scope is simply current while it runs. No
 *   AsyncLocalStorage: on Node 20 it installs promise hooks that cost every
 *   request about a quarter of a millisecond of CPU;
 * - redaction by value: the configured secrets (service credential) and the
 *   current request's secrets (its Authorization, secret headers and
 *   arguments, as src/plugins/redaction.ts knows them) are replaced in the
 *   final text of the line, then the pattern rules (`Basic …`, `?api_key=…`)
 *   apply. Whatever a log call passes (an error echoing a password, a header
 *   map), the secret never reaches the stream.
 */
import { hostname } from 'node:os';
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import pretty from 'pino-pretty';
import { redactValues, secretForms } from './redact.ts';

export type Logger = PinoLogger;

/** pino's levels, and `silent` (nothing). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** `auto`: pretty when stdout is a terminal, JSON otherwise (a pipe, a file, a container's log driver). */
export const LOG_FORMATS = ['json', 'pretty', 'auto'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  /** @default 'info': one line per operation and every upstream failure, nothing per field. */
  level?: LogLevel;
  /** @default 'auto' */
  format?: LogFormat;
  /**
   * Where lines go. @default stdout. Tests pass a stream to capture lines; a
   * logger given a destination is never silenced (see `quietUnderTest`).
   */
  destination?: DestinationStream;
  /** Secrets removed from every line by value (e.g. `user:app-password` and its forms). @default none */
  secrets?: readonly string[];
}

/** What the lines logged while one request is handled share. */
export interface LogScope {
  /** Request id: the caller's `X-Request-Id` when it is a plain token, else a fresh UUID. */
  reqId: string;
  /** The request's secret forms (set once the redaction plugin knows them); read at each line. */
  secrets?: () => readonly string[];
}

/** The scope of the line being written, if any (set only while `withLogScope` runs its function). */
let active: LogScope | undefined;

/**
 * Runs `fn` with `scope` current for every line it logs. Synchronous only: a
 * line logged after an `await` inside `fn` is not in the scope (pass the
 * scope on, and log inside another `withLogScope`).
 */
export function withLogScope(scope: LogScope | undefined, fn: () => void): void {
  const outer = active;
  active = scope;
  try {
    fn();
  } finally {
    active = outer;
  }
}

/**
 * Keys whose values are never logged, whatever their value (defence in depth
 * beside redaction by value: a header map or an options object passed whole).
 */
const REDACT_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'password',
  '*.password',
  'serviceAuth',
  '*.serviceAuth',
  'headers["x-governance-api-key"]',
  'headers["x-automation-token"]',
];

/**
 * Under vitest, a logger writing to stdout is silent unless `LOG_LEVEL` says
 * otherwise: hundreds of gateways start in the test suite, and their lines
 * would bury the test output. Tests that assert lines pass a destination.
 */
function quietUnderTest(options: LoggerOptions): boolean {
  return Boolean(process.env.VITEST) && !options.destination && !process.env.LOG_LEVEL;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level: LogLevel = quietUnderTest(options) ? 'silent' : (options.level ?? 'info');
  const format = options.format ?? 'auto';
  const configured = secretForms(options.secrets ?? []);
  const prettyOut = format === 'pretty' || (format === 'auto' && !options.destination && process.stdout.isTTY === true);
  const destination: DestinationStream | undefined = prettyOut
    ? // In-process (not a worker transport): lines are written in order and none is lost at exit.
      pretty({
        destination: options.destination ?? 1,
        sync: true,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
      })
    : options.destination;
  const opts = {
    level,
    // pino's own base (pid, hostname) tells instances apart; `service` tells the gateway's lines from others' in a
    // shared stream.
    base: { service: 'sitegraph', pid: process.pid, hostname: hostname() },
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    mixin: () => {
      return active ? { reqId: active.reqId } : {};
    },
    hooks: {
      streamWrite: (line: string) => {
        const own = active?.secrets?.() ?? [];
        return redactValues(
          line,
          own.length ? [...own, ...configured].sort((a, b) => b.length - a.length) : configured,
        );
      },
    },
  };
  return pino(opts, destination ?? stdout());
}

/**
 * How long a JSON line may wait before it is written to stdout, and how many
 * bytes are gathered before they are written at once: a write to a pipe per
 * line cost the gateway about a tenth of a millisecond of CPU per request.
 * Lines keep their order; what is gathered is written
 * synchronously when the process exits (`process.exit`, an uncaught error, the
 * end of `main.ts`'s shutdown), so only a SIGKILL can lose the last 25 ms.
 */
const STDOUT_FLUSH_MS = 25;
const STDOUT_BATCH_BYTES = 8 * 1024;

/** One stdout destination per process, whatever the number of loggers (the test suite makes hundreds). */
let shared: DestinationStream | undefined;
function stdout(): DestinationStream {
  if (shared) return shared;
  const boom = pino.destination({ dest: 1, sync: true, minLength: STDOUT_BATCH_BYTES });
  // The flush is armed by a write, never by a clock: sonic-boom's own periodicFlush is an interval
  // that writes (nothing) every 25 ms, waking an idle gateway 40 times a second.
  let armed: NodeJS.Timeout | undefined;
  const flush = () => {
    armed = undefined;
    boom.flush();
  };
  const write = boom.write.bind(boom);
  boom.write = (line: string) => {
    const ok = write(line);
    if (!armed) {
      armed = setTimeout(flush, STDOUT_FLUSH_MS);
      armed.unref();
    }
    return ok;
  };
  process.once('exit', () => {
    try {
      boom.flushSync();
    } catch {
      // Nothing more can be done at exit (stdout closed).
    }
  });
  return (shared = boom);
}
