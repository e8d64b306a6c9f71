/**
 * Brings up the real-calendar tier's sites (scripts/wordpress/start.sh) once for `npm run test:real`:
 * each shape of SITEGRAPH_REAL_SHAPES (default all four: tec57 and tec615, each under the plugins'
 * names and under the contract's), in parallel, each a fresh install seeded through REST in
 * .wordpress-real/<shape>-<names>/ (tec57 under the plugins' names with WPGraphQL and its companions
 * active too, for wpgraphql.test.ts: shapes.ts hasWpGraphql), and stops them afterwards. `WORDPRESS_KEEP=1` leaves them
 * running; `SITEGRAPH_REAL_REUSE=1` uses sites a kept run left (no fresh install: earlier writes stay).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { PLUGINS_DIR, ROOT, hasWpGraphql, realShapes, shapeDir, type ShapeKey } from './shapes.ts';

const run = promisify(execFile);
const script = (name: string) => join(ROOT, 'scripts', 'wordpress', name);

function alive(dir: string): boolean {
  try {
    const pid = Number(readFileSync(join(dir, 'php.pid'), 'utf8'));
    process.kill(pid, 0);
    return existsSync(join(dir, 'site.json'));
  } catch {
    return false;
  }
}

async function start(key: ShapeKey): Promise<void> {
  const dir = shapeDir(key);
  if (process.env.SITEGRAPH_REAL_REUSE === '1' && alive(dir)) return;
  const t0 = Date.now();
  await run('bash', [script('start.sh')], {
    env: {
      ...process.env,
      SITEGRAPH_WP_SHAPE: key.shape,
      SITEGRAPH_WP_NAMES: key.names,
      SITEGRAPH_WP_DIR: dir,
      SITEGRAPH_WP_PLUGINS: PLUGINS_DIR,
      SITEGRAPH_WP_WPGRAPHQL: hasWpGraphql(key) ? '1' : '0',
    },
    timeout: 600_000,
    maxBuffer: 16 << 20,
  }).catch((err: Error & { stderr?: string }) => {
    throw new Error(`starting ${key.shape} (${key.names} names) failed: ${err.stderr ?? err.message}`);
  });
  console.error(
    `[real] ${key.shape} under the ${key.names} names: up and seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (!existsSync(join(PLUGINS_DIR, 'SHA256SUMS'))) {
    throw new Error(`the real-calendar tier needs the plugins' tarballs at ${PLUGINS_DIR} (set SITEGRAPH_WP_PLUGINS)`);
  }
  const shapes = realShapes();
  // Debian's packages once, before the parallel starts (apt takes one lock).
  execFileSync('bash', [script('start.sh'), '--packages-only'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 900_000,
  });
  const started = await Promise.allSettled(shapes.map(start));
  const failed = started.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
  const stopAll = () => {
    if (process.env.WORDPRESS_KEEP === '1') return;
    for (const key of shapes) {
      execFileSync('bash', [script('stop.sh')], {
        env: { ...process.env, SITEGRAPH_WP_DIR: shapeDir(key) },
        stdio: 'ignore',
        timeout: 60_000,
      });
    }
  };
  if (failed.length) {
    stopAll();
    throw new Error(failed.join('\n'));
  }
  project.provide('realShapes', shapes);
  return stopAll;
}

declare module 'vitest' {
  export interface ProvidedContext {
    realShapes: ShapeKey[];
  }
}
