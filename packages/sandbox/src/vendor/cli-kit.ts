// Generated from src/cli-kit.ts by scripts/vendor-cli-kit.ts: edit the original and run it again.
/**
 * What `npm start` (src/main.ts) and `npm run sandbox` (packages/sandbox/src/cli.ts)
 * share: reading a setting's text, flags with one-line errors, the help table,
 * the port check, exit codes and stopping on signals. No dependency on the gateway or the sandbox:
 * the sandbox runs on a generated copy (scripts/vendor-cli-kit.ts), so it imports nothing from src/.
 */
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';

/** A bad flag or value: one line on stderr, exit code 2 (the usual "usage" status). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The listen port is taken (or not ours to take): one line, exit code 1. */
export class PortError extends Error {
  override name = 'PortError';
}

/**
 * How a setting's text (environment variable or flag) becomes a value; a schema
 * validates the value after, naming ranges and allowed values:
 * `int` an integer, `bool` 1/0 true/false on/off yes/no, `list` comma-separated,
 * `enum` trimmed and lower-cased, `json` JSON, `string` as is.
 */
export type TextKind = 'int' | 'bool' | 'list' | 'enum' | 'json' | 'string';

export function parseText(
  name: string,
  kind: TextKind,
  raw: string,
  Err: new (message: string) => Error = UsageError,
): unknown {
  const v = raw.trim();
  switch (kind) {
    case 'int':
      if (!/^-?\d+$/.test(v)) throw new Err(`${name} must be an integer, got ${JSON.stringify(raw)}`);
      return Number(v);
    case 'bool':
      if (['1', 'true', 'on', 'yes'].includes(v.toLowerCase())) return true;
      if (['0', 'false', 'off', 'no'].includes(v.toLowerCase())) return false;
      throw new Err(`${name} must be a boolean (1/0, true/false), got ${JSON.stringify(raw)}`);
    case 'list':
      return v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
    case 'enum':
      return v.toLowerCase();
    case 'json':
      try {
        return JSON.parse(v);
      } catch (err) {
        throw new Err(`${name} is not valid JSON: ${(err as Error).message}`);
      }
    case 'string':
      return raw;
  }
}

/**
 * Schema issues as one line: each path named by where its value came from
 * (`sources`: dotted path -> `PORT`, `--port`, a config file), so the message
 * says what to fix. Values are never echoed (some are secrets).
 */
export function describeIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  sources: ReadonlyMap<string, string>,
): string {
  const where = (path: readonly PropertyKey[]): string => {
    const dotted = path.map(String);
    for (let n = dotted.length; n > 0; n -= 1) {
      const from = sources.get(dotted.slice(0, n).join('.'));
      if (from) return `${from} (${dotted.join('.')})`;
    }
    return dotted.join('.') || '(root)';
  };
  return issues.map((i) => `${where(i.path)}: ${i.message}`).join('; ');
}

/** A `--flag <value>` (string) or a `--flag` switch (boolean). */
export interface FlagSpec {
  name: string;
  short?: string;
  boolean?: boolean;
}

/**
 * `parseArgs` (strict: no unknown flag, no positional) with its TypeErrors made
 * one-line UsageErrors. Flags without a value are simply absent from the result.
 */
export function parseFlags(args: string[], specs: readonly FlagSpec[]): Record<string, string | boolean | undefined> {
  const options = Object.fromEntries(
    specs.map((f) => [
      f.name,
      { type: f.boolean ? ('boolean' as const) : ('string' as const), ...(f.short ? { short: f.short } : {}) },
    ]),
  );
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    const e = err as Error & { code?: string };
    const quoted = /'([^']+)'/.exec(e.message)?.[1] ?? '';
    const flag =
      quoted
        .replace(/ <value>$/, '')
        .split(', ')
        .pop() ?? quoted;
    switch (e.code) {
      case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
        throw new UsageError(`unknown option ${flag} (see --help)`);
      case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
        throw new UsageError(`unexpected argument ${JSON.stringify(quoted)} (see --help)`);
      case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
        throw new UsageError(
          specs.find((s) => `--${s.name}` === flag)?.boolean
            ? `${flag} takes no value (see --help)`
            : `${flag} needs a value (see --help)`,
        );
      default:
        throw new UsageError(`${e.message.split('\n')[0]} (see --help)`);
    }
  }
}

/** Rows as aligned columns, each row indented by two spaces; the last column is free text. */
export function columns(rows: readonly (readonly string[])[]): string {
  const widths = rows.reduce<number[]>((w, r) => r.map((c, i) => Math.max(w[i] ?? 0, c.length)), []);
  return rows
    .map((r) => `  ${r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i] ?? 0) : c)).join('  ')}`.trimEnd())
    .join('\n');
}

/**
 * Fails with a PortError when `host:port` cannot be listened on, before
 * anything slow starts or prints (port 0 always can). Another process may
 * still take it in between; the real listen reports that the same way.
 */
export async function assertPortFree(host: string, port: number, hint: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => reject(portError(err, host, port, hint) ?? err));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** The one-line PortError for a listen error, or undefined for another error. */
export function portError(err: unknown, host: string, port: number, hint: string): PortError | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return new PortError(`port ${port} on ${host} is already in use; ${hint}`);
  if (code === 'EACCES') return new PortError(`no permission to listen on port ${port} of ${host}; ${hint}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new PortError(`cannot listen on ${host}: no such local address; check the host setting`);
  return undefined;
}

/**
 * Runs a CLI's main: errors in `usage` (bad flags, settings, config) print one
 * line and exit 2, a PortError one line and exit 1; anything else is a bug or
 * an outage and keeps its stack (exit 1).
 */
export function runCli(
  prog: string,
  main: () => Promise<void>,
  usage: readonly (new (...a: never[]) => Error)[],
): void {
  main().catch((err: unknown) => {
    if ([UsageError, ...usage].some((C) => err instanceof C)) {
      console.error(`${prog}: ${(err as Error).message}`);
      process.exit(2);
    }
    console.error(err instanceof PortError ? `${prog}: ${err.message}` : err);
    process.exit(1);
  });
}

/**
 * Stops on SIGINT/SIGTERM: `close()`, then exit 0. Once: `npm start` runs under
 * tsx, which passes a terminal's Ctrl-C on to the process it already reached,
 * so a second signal is expected and ignored (listeners stay, or it would kill
 * the process mid-close). Bounded by `boundMs`: a close that hangs exits 1
 * rather than keep the process and its port forever.
 */
export function stopOnSignals(prog: string, close: () => Promise<void>, boundMs: number): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${prog}: ${signal}, stopping`);
    setTimeout(() => {
      console.error(`${prog}: still stopping after ${boundMs} ms; exiting`);
      process.exit(1);
    }, boundMs).unref();
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`${prog}: stopping failed:`, err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
