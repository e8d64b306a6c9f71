/**
 * Gateway processes for the several-instances tests: `tsx src/main.ts
 * --upstream <sandbox>` with the given variables, so one can be killed
 * (SIGKILL: no goodbye, its lease left to expire). Its admin listener serves
 * its metrics.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Instance {
  url: string;
  adminUrl: string;
  proc: ChildProcess;
  output(): string;
}

export async function startInstance(upstream: string, env: Record<string, string>): Promise<Instance> {
  const proc = spawn(process.execPath, ['--import', 'tsx/esm', 'src/main.ts', '--upstream', upstream, '--port', '0'], {
    env: { ...process.env, LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const [url, adminUrl] = await new Promise<[string, string]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start in 60 s:\n${out}`)), 60_000);
    const check = () => {
      const m = /sitegraph GraphQL: (http:\/\/\S+\/graphql)[\s\S]*?sitegraph admin: (http:\/\/[^\s"]+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve([m[1]!, m[2]!]);
    };
    proc.stdout!.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code}:\n${out}`));
    });
  });
  return { url, adminUrl, proc, output: () => out };
}

/** SIGTERM (SIGKILL with `kill`), and SIGKILL if it has not exited 5 s later. */
export async function stopInstance(i: Instance | undefined, kill = false): Promise<void> {
  if (!i || i.proc.exitCode !== null || i.proc.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const hard = setTimeout(() => i.proc.kill('SIGKILL'), 5_000);
    i.proc.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    i.proc.kill(kill ? 'SIGKILL' : 'SIGTERM');
  });
}

/** A metric of an instance, summed over the series whose labels include `labels`. */
export async function instanceMetric(i: Instance, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${i.adminUrl}/metrics`)).text();
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  return text
    .split('\n')
    .filter((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && want.every((w) => l.includes(w)))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

export async function until(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - start;
}
