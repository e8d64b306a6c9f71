/**
 * The CLIs as a user runs them: `node --import tsx/esm src/main.ts` (what `npm start`
 * runs) or packages/sandbox/src/cli.ts in a child process, from the repository root,
 * with a clean environment (only PATH and HOME of ours, a request log for a demo
 * sandbox in the run's route logs (route-log.ts), then the test's), and bounded in time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { newRouteLogFile } from './route-log.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const GATEWAY_CLI = 'src/main.ts';
export const SANDBOX_CLI = 'packages/sandbox/src/cli.ts';

export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnCli(script: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx/esm', script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SANDBOX_REQUEST_LOG: newRouteLogFile(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs a CLI that is expected to exit by itself (help, errors) within `timeoutMs`. */
export function runCli(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<Exited> {
  const child = spawnCli(script, args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${script} ${args.join(' ')} still running after ${timeoutMs} ms; stdout: ${stdout} stderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      // Output still in the pipes arrives before 'close'.
      child.once('close', () => resolve({ code, stdout, stderr }));
    });
  });
}

export interface RunningCli {
  /** The first URL printed after `marker` (the GraphQL endpoint, or the sandbox's REST root). */
  url: string;
  output(): string;
  /** SIGTERM, and the exit code once it has stopped. */
  stop(): Promise<number | null>;
}

/**
 * Starts a server CLI and waits until it prints `marker` followed by a URL
 * (`sitegraph GraphQL:` for the gateway); fails with its output if it exits first.
 */
export function startCli(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  marker = 'sitegraph GraphQL:',
  timeoutMs = 90_000,
): Promise<RunningCli> {
  const child = spawnCli(script, args, env);
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "${marker}" within ${timeoutMs} ms; output:\n${out}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = new RegExp(`${marker} (http\\S+)`).exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1]!,
        output: () => out,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before "${marker}"; output:\n${out}`));
    });
  });
}
