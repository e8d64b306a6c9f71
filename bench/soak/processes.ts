/**
 * The soak's child processes (bench/soak.ts): the sandbox, one redis-server and
 * the gateway instances, each a process of its own on loopback, so each one's
 * memory, descriptors and CPU are its own. Every process started here is
 * registered, so an error or a SIGINT stops them all (`stopAll`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, readdirSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- the registry

const children = new Set<ChildProcess>();

function track(p: ChildProcess): ChildProcess {
  children.add(p);
  p.once('exit', () => children.delete(p));
  return p;
}

/** SIGTERM to every process still running, SIGKILL to those left after `ms`. */
export async function stopAll(ms = 5_000): Promise<void> {
  const left = [...children].filter((p) => p.exitCode === null && p.signalCode === null);
  await Promise.all(
    left.map(
      (p) =>
        new Promise<void>((resolve) => {
          const hard = setTimeout(() => p.kill('SIGKILL'), ms);
          p.once('exit', () => {
            clearTimeout(hard);
            resolve();
          });
          p.kill('SIGTERM');
        }),
    ),
  );
}

/** Last resort on the way out (synchronous: `process.on('exit')`). */
export function killAllNow(): void {
  for (const p of children) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------- /proc

/** Open descriptors of a process, counted in /proc/<pid>/fd (null when it is gone). */
export function procFds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

/** User + system CPU of a process so far, in seconds (/proc/<pid>/stat, clock ticks of 1/100 s). */
export function procCpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces: the fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- the sandbox

export interface SandboxProcess {
  url: string;
  origin: string;
  /** REST path prefix, `/wp-json`. */
  prefix: string;
  /** login -> application password, from the start banner. */
  users: Record<string, string>;
  pid: number | undefined;
  basic(login: string): string;
  stop(): void;
}

export async function startSandbox(logFile: string, env: Record<string, string>): Promise<SandboxProcess> {
  const child = track(
    spawn(process.execPath, ['--import', 'tsx/esm', 'packages/sandbox/src/cli.ts', '--port', '0', '--db', ':memory:'], {
      env: { ...process.env, SANDBOX_CONTROL: '1', SANDBOX_FAULTS: '', SANDBOX_REQUEST_LOG: logFile, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stopping = false;
  let errors = '';
  child.stderr!.on('data', (c) => (errors = (errors + String(c)).slice(-20_000)));
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`the sandbox exited (${code ?? signal}):\n${errors}`);
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    let done = false;
    child.stdout!.on('data', (chunk) => {
      if (done) return;
      buf += String(chunk);
      const root = /sandbox REST root: (\S+)/.exec(buf);
      // The credentials table ends before the automation connectors' lines.
      if (!root || !/automation connectors:/.test(buf)) return;
      done = true;
      const users: Record<string, string> = {};
      for (const m of buf.matchAll(/^ {2}(admin|editor|author|contributor|subscriber) +\S+ +(.+)$/gm))
        users[m[1]!] = m[2]!.trim();
      const url = new URL(root[1]!);
      resolve({
        url: root[1]!,
        origin: url.origin,
        prefix: url.pathname.replace(/\/$/, ''),
        users,
        pid: child.pid,
        basic: (login) => `Basic ${Buffer.from(`${login}:${users[login]}`).toString('base64')}`,
        stop: () => {
          stopping = true;
          child.kill('SIGTERM');
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it started: ${errors}`)));
  });
}

// ---------------------------------------------------------------- redis-server

export interface RedisProcess {
  port: number;
  url: string;
  pid(): number | undefined;
  /** Starts it (again) on its port; resolves once it answers PING. */
  start(): Promise<void>;
  /** SIGKILL: gone at once, as a crashed or restarted server, its in-memory keys with it. */
  kill(): Promise<void>;
}

/**
 * A redis-server on a loopback port (as test/helpers/redis.ts starts one), its
 * working directory a temporary one, without persistence: a restart brings it
 * back empty, so every lock, lease, poll state and tag version is lost at once,
 * the harder case for the gateways (a persisted Redis would hand most of it back).
 */
export function redisServer(dir: string, port: number): RedisProcess {
  const bin = process.env.REDIS_SERVER ?? 'redis-server';
  let proc: ChildProcess | null = null;
  const waitReady = async (ms: number) => {
    const until = Date.now() + ms;
    for (;;) {
      const c = new Redis({
        port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      c.on('error', () => {});
      try {
        await c.connect();
        await c.ping();
        c.disconnect();
        return;
      } catch (err) {
        c.disconnect();
        if (Date.now() > until)
          throw new Error(`redis-server did not answer on port ${port}: ${(err as Error).message}`);
        await sleep(50);
      }
    }
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pid: () => proc?.pid,
    async start() {
      const p = track(
        spawn(
          bin,
          [
            '--port',
            String(port),
            '--bind',
            '127.0.0.1',
            '--dir',
            dir,
            '--save',
            '',
            '--appendonly',
            'no',
            '--protected-mode',
            'yes',
          ],
          {
            stdio: 'ignore',
          },
        ),
      );
      proc = p;
      const failed = new Promise<never>((_, reject) =>
        p.once('error', (e) => reject(new Error(`cannot start ${bin} (apt-get install redis-server): ${e.message}`))),
      );
      await Promise.race([waitReady(10_000), failed]);
    },
    async kill() {
      const p = proc;
      proc = null;
      if (!p || p.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        p.once('exit', () => resolve());
        p.kill('SIGKILL');
      });
    },
  };
}

// ---------------------------------------------------------------- a gateway instance

export interface LogFinding {
  count: number;
  first: number;
  sample: string;
}

/**
 * One gateway instance: `node dist/main.js` (the compiled gateway, as `npm
 * start` runs it) with its configuration in the environment, on fixed ports so
 * a restart comes back where it was. Its output (JSON lines) goes to a file;
 * lines at `warn` and above are counted by message, with a sample of each.
 */
export class GatewayProcess {
  proc: ChildProcess | null = null;
  url = '';
  adminUrl = '';
  /** Which life of the instance (1, then 2 after a restart). */
  gen = 0;
  /** Since when it answers (ms since the epoch), per life. */
  readonly upAt: number[] = [];
  /** When it was sent SIGTERM, per life (undefined: not yet). */
  readonly sigtermAt: number[] = [];
  /** Exits nobody asked for. */
  readonly crashes: string[] = [];
  readonly errors = new Map<string, LogFinding>();
  readonly warnings = new Map<string, LogFinding>();
  private log: WriteStream;
  private tail = '';
  private stopping = false;

  constructor(
    readonly name: string,
    readonly port: number,
    readonly adminPort: number,
    private readonly env: Record<string, string>,
    readonly logFile: string,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  get running(): boolean {
    return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  async start(): Promise<void> {
    this.stopping = false;
    const proc = track(
      spawn(process.execPath, ['dist/main.js'], {
        env: {
          ...process.env,
          ...this.env,
          HOST: '127.0.0.1',
          PORT: String(this.port),
          ADMIN_HOST: '127.0.0.1',
          ADMIN_PORT: String(this.adminPort),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    this.proc = proc;
    this.gen += 1;
    const gen = this.gen;
    let banner = '';
    const started = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`gateway ${this.name} did not start in 60 s:\n${banner.slice(-4000)}`)),
        60_000,
      );
      const onData = (d: Buffer) => {
        banner += String(d);
        const m = /sitegraph GraphQL: (http:\/\/\S+\/graphql)[\s\S]*?sitegraph admin: (http:\/\/[^\s"]+)/.exec(banner);
        if (!m) return;
        clearTimeout(timer);
        proc.stdout!.off('data', onData);
        this.url = m[1]!;
        this.adminUrl = m[2]!;
        resolve();
      };
      proc.stdout!.on('data', onData);
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`gateway ${this.name} exited (${code ?? signal}) before it started:\n${banner.slice(-4000)}`));
      });
    });
    proc.stdout!.on('data', (d: Buffer) => {
      this.log.write(d);
      this.scan(String(d));
    });
    // Anything on stderr is an error (the logger writes JSON to stdout).
    proc.stderr!.on('data', (d: Buffer) => {
      this.log.write(d);
      for (const line of String(d).split('\n'))
        if (line.trim()) this.note(this.errors, `(stderr) ${line.slice(0, 120)}`, line);
    });
    proc.once('exit', (code, signal) => {
      if (!this.stopping)
        this.crashes.push(`life ${gen} exited unasked (${code ?? signal}) at ${new Date().toISOString()}`);
    });
    await started;
    this.upAt[gen - 1] = Date.now();
  }

  /** SIGTERM; SIGKILL if it has not exited after `ms`. Resolves with how long it took and how it ended. */
  async stop(ms = 20_000): Promise<{ ms: number; exit: string }> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return { ms: 0, exit: 'not running' };
    this.stopping = true;
    const t0 = Date.now();
    this.sigtermAt[this.gen - 1] = t0;
    const exit = await new Promise<string>((resolve) => {
      const hard = setTimeout(() => p.kill('SIGKILL'), ms);
      p.once('exit', (code, signal) => {
        clearTimeout(hard);
        resolve(signal ? `signal ${signal}` : `code ${code}`);
      });
      p.kill('SIGTERM');
    });
    return { ms: Date.now() - t0, exit };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.log.end(() => resolve()));
  }

  private scan(text: string): void {
    this.tail += text;
    const lines = this.tail.split('\n');
    this.tail = lines.pop() ?? '';
    for (const line of lines) {
      // Plain lines on stdout are the CLI's own notices (`sitegraph: SIGTERM, stopping`).
      if (!line.startsWith('{')) continue;
      let entry: { level?: number; msg?: string; err?: { message?: string }; code?: string };
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if ((entry.level ?? 0) < 40) continue;
      const key = `${entry.msg ?? '(no msg)'}${entry.err?.message ? `: ${entry.err.message.slice(0, 100)}` : ''}`;
      this.note((entry.level ?? 0) >= 50 ? this.errors : this.warnings, key, line);
    }
  }

  private note(map: Map<string, LogFinding>, key: string, line: string): void {
    const f = map.get(key);
    if (f) f.count += 1;
    else if (map.size < 200) map.set(key, { count: 1, first: Date.now(), sample: line.slice(0, 1500) });
  }
}
