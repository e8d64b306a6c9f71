/**
 * The sandbox acting as a real shape's release (its twin): the same release of The Events Calendar,
 * the same names, the site's time zone, no demo data, and the namespaces the real site has not
 * turned off, then seeded by the real sites' own seeder (scripts/wordpress/seed-calendar.ts) through
 * its REST API, so both sides hold the same calendar. Only the IDs differ (WordPress numbers the
 * seeder's objects after its own posts).
 *
 * The seeder writes through the plugins' names (`tribe/events/v1`); a twin serving the contract's
 * names is seeded under the plugins' names first, on a database file, then restarted on that file
 * under the contract's.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSandbox, type RunningSandbox } from '../../packages/sandbox/src/server.ts';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';
import { ROOT, type CalendarSeed, type RealSite } from './shapes.ts';

const run = promisify(execFile);

/**
 * Namespaces the sandbox serves for the contract that neither real shape has (no governance, audit
 * log, blocks, FacetWP or Event Automator plugin there), turned off so the twin has the real site's
 * plugins. 6.15's shape has no Yoast SEO or Duplicate Post either.
 */
const NOT_ON_REAL_SITES = [
  'site-governance/v1',
  'site-audit-log/v1',
  'site-blocks/v1',
  'site/v1',
  'facet/v1',
  'calendar/automation-a/v1',
  'calendar/automation-b/v1',
];
const NOT_ON_TEC615 = ['seo/v1', 'duplicate-post/v1'];

export interface Twin {
  /** The twin as kit.ts's `rest` takes a site: its REST root, its administrator, what the seeder made. */
  site: RealSite;
  sandbox: RunningSandbox;
  close(): Promise<void>;
}

export function twinOptions(real: RealSite): SandboxOptionsInput {
  return {
    tec: real.key.shape === 'tec57' ? '5.7' : '6.15',
    timezone: 'Europe/Paris',
    demo: false,
    disable: [...NOT_ON_REAL_SITES, ...(real.key.shape === 'tec615' ? NOT_ON_TEC615 : [])],
  };
}

const names = (n: string) =>
  n === 'spec' ? { legacy: 'calendar/events/v1', wp: 'core/v2' } : { legacy: 'tribe/events/v1', wp: 'wp/v2' };

/**
 * The real site's own posts and post tags (start.sh's WordPress seed, before the calendar's), copied
 * into the twin: the legacy tag archive lists every post tag, and the posts list pages over them.
 */
async function mirrorPosts(
  real: RealSite,
  sandbox: RunningSandbox,
  ns: { legacy: string; wp: string },
  admin: { login: string; appPassword: string },
): Promise<void> {
  const realNs = names(real.key.names);
  const auth = `Basic ${Buffer.from(`${admin.login}:${admin.appPassword}`).toString('base64')}`;
  const call = async (root: string, method: string, path: string, body?: unknown, authorization?: string) => {
    const res = await fetch(root.replace(/\/$/, '') + path, {
      method,
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const tags = (await call(real.restUrl, 'GET', `/${realNs.wp}/tags?per_page=100`)) as { id: number; name: string }[];
  const calendarTags = new Set(real.calendar.tags);
  const tagIds = new Map<number, number>();
  for (const t of tags.filter((x) => !calendarTags.has(x.id)).sort((a, b) => a.id - b.id)) {
    tagIds.set(t.id, (await call(sandbox.url, 'POST', `/${ns.legacy}/tags`, { name: t.name }, auth)).id);
  }
  const posts = (await call(real.restUrl, 'GET', `/${realNs.wp}/posts?per_page=100&orderby=id&order=asc`)) as any[];
  for (const p of posts) {
    await call(
      sandbox.url,
      'POST',
      `/${ns.wp}/posts`,
      {
        title: p.title.rendered,
        content: p.content.rendered,
        excerpt: p.excerpt.rendered,
        status: 'publish',
        date: p.date,
        sticky: p.sticky,
        tags: (p.tags as number[]).flatMap((id) => tagIds.get(id) ?? []),
      },
      auth,
    );
  }
}

export async function startTwin(real: RealSite): Promise<Twin> {
  const dir = mkdtempSync(join(tmpdir(), 'sitegraph-twin-'));
  const db = join(dir, 'site.db');
  const options: SandboxOptionsInput = { ...twinOptions(real), db, port: 0 };
  let sandbox = await startSandbox({ ...options, names: 'plugin' });
  const admin = sandbox.users.find((u) => u.login === 'admin')!;
  const file = join(dir, 'site.json');
  writeFileSync(
    file,
    JSON.stringify({ restUrl: sandbox.url, admin: { login: admin.login, appPassword: admin.appPassword } }),
  );
  try {
    await run(process.execPath, ['--import', 'tsx/esm', join(ROOT, 'scripts', 'wordpress', 'seed-calendar.ts'), file], {
      cwd: ROOT,
      timeout: 120_000,
    });
  } catch (err) {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`seeding the sandbox twin of ${real.label} failed: ${(err as { stderr?: string }).stderr ?? err}`);
  }
  const calendar = (JSON.parse(readFileSync(file, 'utf8')) as { calendar: CalendarSeed }).calendar;
  if (real.key.names !== 'plugin') {
    await sandbox.close();
    sandbox = await startSandbox({ ...options, names: real.key.names });
  }
  await mirrorPosts(real, sandbox, names(real.key.names), admin);
  const site: RealSite = {
    ...real,
    label: `the sandbox twin of ${real.label}`,
    origin: sandbox.origin,
    restUrl: sandbox.url,
    admin: { id: admin.id, login: admin.login, appPassword: admin.appPassword },
    calendar,
  };
  const running = sandbox;
  return {
    site,
    sandbox: running,
    async close() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
