/**
 * A real `redis-server` (Debian's package) on a free loopback port, for tests:
 * no persistence, started by the test and stopped after it. `stop()` then
 * `start()` again on the same port imitates Redis going away and coming back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface TestRedis {
  url: string;
  port: number;
  /** Stops the server (an outage); `start()` brings it back on the same port, empty. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Everything stored, removed. */
  flush(): Promise<void>;
}

export const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function waitReady(port: number, ms: number): Promise<void> {
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
      if (Date.now() > until) throw new Error(`redis-server did not answer on port ${port}: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  let proc: ChildProcess | null = null;
  const start = async () => {
    proc = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
      {
        stdio: 'ignore',
      },
    );
    const p = proc;
    const failed = new Promise<never>((_, reject) =>
      p.once('error', (e) =>
        reject(new Error(`cannot start ${REDIS_SERVER} (apt-get install redis-server): ${e.message}`)),
      ),
    );
    await Promise.race([waitReady(port, 10_000), failed]);
  };
  const stop = async () => {
    const p = proc;
    proc = null;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGKILL');
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async flush() {
      const c = new Redis({ port, host: '127.0.0.1' });
      await c.flushall();
      c.disconnect();
    },
  };
}
