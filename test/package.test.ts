/**
 * The published package as a user gets it: `npm pack` (of dist/ as `npm run build`
 * leaves it; compiled here first when missing), the tarball installed in an empty
 * folder with no dev dependencies (no tsx, no sandbox, no native addon), and its
 * `sitegraph` bin started with `npx` against a sandbox from the repository.
 * An install from the tarball takes no lockfile (npm reads a package's shrinkwrap
 * only from the registry's metadata), so what it gets is what the dependency ranges
 * of package.json choose today: none of them may want a newer Node than the package's
 * own `engines.node` allows (issue 20: pinned where a newer release wants Node 22).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
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
  const packed = JSON.parse(
    run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT, 60_000),
  ) as {
    filename: string;
    files: { path: string }[];
  }[];
  files = packed[0]!.files.map((f) => f.path);
  const app = join(dir, 'app');
  run('mkdir', ['-p', app], dir, 5_000);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'sitegraph-package-test', private: true }));
  run(NPM, ['install', '--omit=dev', '--no-audit', '--no-fund', join(dir, packed[0]!.filename)], app, 300_000);
  sandbox = await testSandbox();
}, 420_000);

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Every package installed under `modules` (nested node_modules too): its folder and manifest. */
function installed(modules: string): { at: string; name: string; version: string; engines?: { node?: string } }[] {
  const out: { at: string; name: string; version: string; engines?: { node?: string } }[] = [];
  for (const entry of existsSync(modules) ? readdirSync(modules) : []) {
    if (entry.startsWith('.')) continue;
    const folders = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => join(entry, n)) : [entry];
    for (const folder of folders) {
      const at = join(modules, folder);
      if (!existsSync(join(at, 'package.json'))) continue;
      out.push({
        at,
        ...(JSON.parse(readFileSync(join(at, 'package.json'), 'utf8')) as { name: string; version: string }),
      });
      out.push(...installed(join(at, 'node_modules')));
    }
  }
  return out;
}

type Version = [number, number, number];
const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * Whether `version` satisfies an `engines.node` range: npm's grammar (`||`, comparator sets, hyphen
 * ranges, `^`, `~`, x-ranges); prerelease tags are ignored. Throws on what it cannot read, so that a
 * range it does not know fails the test rather than passing it.
 */
function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((set) => {
    const text = set.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1');
    if (text === '' || text === '*' || text === 'x') return true;
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
    const comparators = hyphen ? [`>=${hyphen[1]}`, `<=${hyphen[2]}`] : text.split(/\s+/);
    return comparators.every((c) => {
      const m =
        /^(>=|<=|>|<|=|\^|~>?|)v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(
          c,
        );
      if (!m) throw new Error(`cannot read the range ${JSON.stringify(range)} (${c})`);
      const op = m[1]!;
      const part = [m[2], m[3], m[4]].map((p) => (p === undefined || /[xX*]/.test(p) ? undefined : Number(p)));
      if (part[0] === undefined) return op === '' || op === '=' || op === '>=' || op === '<=';
      const [maj, min, pat] = part as [number, number | undefined, number | undefined];
      const low: Version = [maj, min ?? 0, pat ?? 0];
      // The first version past the given parts (1.2 -> 1.3.0, 1 -> 2.0.0, 1.2.3 -> 1.2.4).
      const next: Version =
        min === undefined ? [maj + 1, 0, 0] : pat === undefined ? [maj, min + 1, 0] : [maj, min, pat + 1];
      const v = version;
      switch (op) {
        case '>=':
          return cmp(v, low) >= 0;
        case '>':
          return cmp(v, next) >= 0;
        case '<':
          return cmp(v, low) < 0;
        case '<=':
          return cmp(v, next) < 0;
        case '^': {
          const upper: Version =
            maj > 0 || min === undefined
              ? [maj + 1, 0, 0]
              : min > 0 || pat === undefined
                ? [0, min + 1, 0]
                : [0, 0, pat + 1];
          return cmp(v, low) >= 0 && cmp(v, upper) < 0;
        }
        case '~':
        case '~>':
          return cmp(v, low) >= 0 && cmp(v, min === undefined ? [maj + 1, 0, 0] : [maj, min + 1, 0]) < 0;
        default:
          return cmp(v, low) >= 0 && cmp(v, next) < 0;
      }
    });
  });
}

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

describe('the image (Containerfile)', () => {
  it("copies into its build stage everything package.json's files publish, so its package is the npm one", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    const copied = [...readFileSync(join(ROOT, 'Containerfile'), 'utf8').matchAll(/^COPY (?!--from)(.+)$/gm)].flatMap(
      (m) => m[1]!.trim().split(/\s+/).slice(0, -1),
    );
    // dist/ is compiled in the stage from src/; a negation only takes away.
    const published = pkg.files.filter((f) => !f.startsWith('!') && !f.startsWith('dist'));
    const missing = published.filter((f) => !copied.some((c) => f === c || f.startsWith(`${c.replace(/\/$/, '')}/`)));
    expect(missing).toEqual([]);
  });
});

describe('the npm package', () => {
  it('holds the compiled gateway and the schema, not the sources or the sandbox', () => {
    expect(files).toContain('dist/main.js');
    expect(files).toContain('schema/base.graphql');
    // The compatible graph's SDL and the list of what it leaves out, both read when the gateway starts.
    expect(files).toContain('schema-wpgraphql/schema.graphql');
    expect(files).toContain('schema-wpgraphql/outside.json');
    expect(files).toContain('package.json');
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('dist/sandbox/'))).toEqual(
      [],
    );
  });

  it('installs with no dev dependency: no tsx, no sandbox, no native addon', () => {
    const modules = readdirSync(join(dir, 'app/node_modules'));
    expect(modules).toContain('sitegraph');
    // Nowhere in the tree, nested folders included: the production dependencies bring none of them.
    const names = new Set(installed(join(dir, 'app/node_modules')).map((p) => p.name));
    for (const dev of ['tsx', 'better-sqlite3', 'typescript', 'esbuild', '@sitegraph/sandbox'])
      expect(names.has(dev), dev).toBe(false);
  });

  it('installs nothing whose engines.node refuses the oldest Node the package supports (a Node 20)', () => {
    // The package's floor is the highest its dependencies ask within Node 20 (undici 7: 20.18.1).
    const ours = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines
      .node;
    const floor = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(ours);
    expect(floor, `engines.node ${ours}`).not.toBeNull();
    const oldest = floor!.slice(1).map(Number) as Version;
    expect(oldest[0]).toBe(20);
    const packages = installed(join(dir, 'app/node_modules'));
    expect(packages.length).toBeGreaterThan(100);
    const refusing = packages
      .filter((p) => typeof p.engines?.node === 'string' && !satisfies(oldest, p.engines.node))
      .map((p) => `${p.name}@${p.version} (engines.node ${p.engines!.node})`);
    expect(refusing).toEqual([]);
    // The two that did (issue 20): what the ranges of package.json now choose.
    const version = (name: string) => packages.filter((p) => p.name === name).map((p) => p.version);
    expect(version('@whatwg-node/promise-helpers').every((v) => v.startsWith('1.'))).toBe(true);
    expect(version('strip-json-comments').every((v) => v.startsWith('5.0.'))).toBe(true);
  });

  it('reads engines.node ranges as npm does', () => {
    const node20: Version = [20, 0, 0];
    expect(satisfies([20, 18, 1], '^18.19.0 || >=20.6.0')).toBe(true);
    expect(satisfies([20, 18, 0], '>=20.18.1')).toBe(false);
    for (const yes of [
      '>=20',
      '>= 16.0.0',
      '^20.0.0',
      '20 || >=22',
      '^12.22.0 || ^14.16.0 || ^16.0.0 || >=17.0.0',
      '*',
      '',
      '>=14.16',
      '20.x',
      '18 - 20',
      '~20',
      '<21',
      '>19.9',
    ])
      expect(satisfies(node20, yes), yes).toBe(true);
    for (const no of [
      '>=22',
      '>=22.15.0',
      '>=20.11',
      '^18.18.0 || >=21.1.0',
      '20.1.x',
      '<20',
      '>20',
      '^21',
      '~20.1',
      '21 - 23',
    ])
      expect(satisfies(node20, no), no).toBe(false);
    expect(() => satisfies(node20, 'node >= 12')).toThrow(/cannot read/);
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
