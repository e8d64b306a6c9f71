/**
 * The published package as a user gets it: `npm pack` (of dist/ as `npm run build`
 * leaves it; compiled here first when missing), the tarball installed in an empty
 * folder with no dev dependencies (no tsx, no sandbox, no native addon), and its
 * `sitegraph` bin started with `npx` against a sandbox from the repository.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../packages/sandbox/src/index.ts';
import { testSandbox } from './helpers/sandbox.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(cmd: string, args: string[], cwd: string, timeout: number): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

let dir: string;
let sandbox: RunningSandbox;
let files: string[];

beforeAll(async () => {
  // CI built dist/ already (`npm run build`); pack it as it is (--ignore-scripts: no second compile).
  if (!existsSync(join(ROOT, 'dist/main.js'))) run(NPM, ['run', 'compile'], ROOT, 120_000);
  dir = mkdtempSync(join(tmpdir(), 'sitegraph-package-'));
  const packed = JSON.parse(run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT, 60_000)) as {
    filename: string;
    files: { path: string }[];
  }[];
  files = packed[0]!.files.map((f) => f.path);
  const app = join(dir, 'app');
  run('mkdir', ['-p', app], dir, 5_000);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'sitegraph-package-test', private: true }));
  run(NPM, ['install', '--omit=dev', '--no-audit', '--no-fund', join(dir, packed[0]!.filename)], app, 150_000);
  sandbox = await testSandbox();
}, 240_000);

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `npx sitegraph …` in the install folder, in its own process group (npx, then node). */
function start(args: string[]): { child: ChildProcess; url: Promise<string>; output: () => string } {
  const child = spawn(NPX, ['--no-install', 'sitegraph', ...args], {
    cwd: join(dir, 'app'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /sitegraph GraphQL: (http\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before its banner:\n${out}`));
    });
  });
  return { child, url, output: () => out };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    process.kill(-child.pid!, 'SIGTERM');
  });
}

describe('the npm package', () => {
  it('holds the compiled gateway and the schema, not the sources or the sandbox', () => {
    expect(files).toContain('dist/main.js');
    expect(files).toContain('schema/base.graphql');
    expect(files).toContain('package.json');
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('dist/sandbox/'))).toEqual([]);
  });

  it('installs with no dev dependency: no tsx, no sandbox, no native addon', () => {
    const modules = readdirSync(join(dir, 'app/node_modules'));
    expect(modules).toContain('sitegraph');
    expect(modules).not.toContain('tsx');
    expect(modules).not.toContain('better-sqlite3');
    expect(modules).not.toContain('typescript');
  });

  it('runs as `npx sitegraph --upstream <site>` and answers queries', async () => {
    const gateway = start(['--upstream', sandbox.url, '--port', '0', '--host', '127.0.0.1']);
    try {
      const url = await gateway.url;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ events(first: 2) { nodes { title } } }' }),
      });
      const body = (await res.json()) as { data?: { events: { nodes: { title: string }[] } }; errors?: unknown };
      expect(body.errors).toBeUndefined();
      expect(body.data!.events.nodes).toHaveLength(2);
      expect(typeof body.data!.events.nodes[0]!.title).toBe('string');
    } finally {
      await stop(gateway.child);
    }
  }, 90_000);

  it('says in one line, exit code 2, that it has no demo sandbox when given no upstream', () => {
    const r = spawnSync(NPX, ['--no-install', 'sitegraph', '--port', '0'], {
      cwd: join(dir, 'app'),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^sitegraph: no upstream given.*--upstream/);
  }, 60_000);
});
