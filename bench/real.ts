/**
 * npm run bench:real: sitegraph against WPGraphQL on a real site. One WordPress 6.1 + The Events
 * Calendar 5.7.1 + Yoast SEO 19.3 site (scripts/wordpress/start.sh, SITEGRAPH_WP_SHAPE=tec57) with
 * WPGraphQL 1.8.6, WPGraphQL Yoast SEO 4.18.1 and ql-events 0.1.0 active (SITEGRAPH_WP_WPGRAPHQL=1)
 * answers each workload to six clients, one request at a time, round-robin:
 *
 *   - sitegraph, caches off (CACHE_TTL_SECONDS=0, RESPONSE_CACHE=0), compiled, as its own process;
 *   - sitegraph, caches on (the defaults), a second process;
 *   - sitegraph's /wpgraphql (the WPGraphQL-compatible graph), caches off and on, two more processes, sent the
 *     very documents WPGraphQL gets;
 *   - WPGraphQL at the site's own /graphql;
 *   - a REST client making the requests sitegraph itself makes for the same answer.
 *
 * Before timing, each client's answer is read once and compared with the REST client's (the same
 * items, titles, venues, organizers, SEO fields); a difference is printed, not hidden. Then, per
 * workload, BENCH_REAL_WARMUP rounds of warm-up (3) and BENCH_REAL_REQUESTS measured rounds (30; the
 * bulk pull BENCH_REAL_BULK_REQUESTS, 16); each round sends one request per client, in an order
 * rotated every round. Per client: p50/p95/p99 wall time (the answer read and parsed), the bench process's CPU per
 * request, the site's CPU per request (PHP's
 * workers and MariaDB, from /proc), the site requests per answer (from PHP's server log) and, for
 * sitegraph, the gateway process's CPU over the whole measured run divided by its requests. A WPGraphQL document that
 * /wpgraphql refuses (no data) is reported as such and that client left out of the workload's timing; errors beside
 * data are reported and the answer timed as it is.
 *
 * BENCH_REAL_SITE=<dir>: use the site already running there (its site.json) and leave it running;
 * otherwise one is started in BENCH_REAL_DIR (default .wordpress-bench in the clone) and stopped at
 * the end. BENCH_REAL_WORKLOADS: a comma list among posts, events, event, bulk (default all).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, fstatSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { gateway, OPEN, type GatewayProcess } from './cpu-kit.ts';

// Bounded so that the whole run, the site's start included, stays within about five minutes on 2 cores:
// a round of the bulk pull takes about 3 s (four clients, each reading 80 events from PHP).
const REQUESTS = Number(process.env.BENCH_REAL_REQUESTS ?? 30);
const BULK_REQUESTS = Number(process.env.BENCH_REAL_BULK_REQUESTS ?? 16);
const WARMUP = Number(process.env.BENCH_REAL_WARMUP ?? 3);
const IDLE_MS = 3000;
const ONLY = (process.env.BENCH_REAL_WORKLOADS ?? 'posts,events,event,bulk').split(',').map((s) => s.trim());
const START_SH = resolve('scripts/wordpress/start.sh');
const STOP_SH = resolve('scripts/wordpress/stop.sh');

// ---- the site

interface SiteJson {
  origin: string;
  wpVersion: string;
  restUrl: string;
  plugins: Record<string, string>;
  names?: string;
  calendar: { events: number[] };
}

const given = process.env.BENCH_REAL_SITE;
const siteDir = resolve(given ?? process.env.BENCH_REAL_DIR ?? '.wordpress-bench');
const siteEnv = { ...process.env, SITEGRAPH_WP_DIR: siteDir, SITEGRAPH_WP_SHAPE: 'tec57', SITEGRAPH_WP_WPGRAPHQL: '1' };
let started = false;
function stopSite(): void {
  if (!started) return;
  started = false;
  spawnSync(STOP_SH, { env: siteEnv, stdio: ['ignore', 'ignore', 'inherit'] });
}
process.once('SIGINT', () => {
  stopSite();
  process.exit(130);
});

async function startSite(): Promise<void> {
  console.error(`bench:real: starting WordPress (tec57 + WPGraphQL) in ${siteDir}; about a minute`);
  started = true;
  const child = spawn(START_SH, [], { env: siteEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`scripts/wordpress/start.sh exited ${code}`);
}

/**
 * The site's own CPU so far, in µs: PHP's server (its parent and workers, one process group since
 * start.sh starts it with setsid) and every thread of MariaDB. schedstat's first field is a task's
 * run time in ns, where /proc/<pid>/stat counts 10 ms ticks; requests are sent one at a time,
 * so the difference across one request is that request's cost to the site.
 */
function siteCpuReader(): () => number {
  const read = (file: string): number => {
    try {
      return Number(readFileSync(file, 'utf8').split(' ')[0]) / 1000;
    } catch {
      return 0; // a thread that ended between the listing and the read
    }
  };
  const phpGroup = Number(readFileSync(`${siteDir}/php.pid`, 'utf8').trim());
  const mariadb = Number(readFileSync(`${siteDir}/mariadb.pid`, 'utf8').trim());
  if (!existsSync('/proc/self/schedstat')) return () => NaN;
  const php = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        // Field 5 of stat is the process group; the command name (field 2) may hold spaces, so count after its ')'.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === phpGroup;
      } catch {
        return false;
      }
    });
  return () => {
    let us = 0;
    for (const pid of php) us += read(`/proc/${pid}/schedstat`);
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${mariadb}/task`);
    } catch {
      /* MariaDB gone: counted as nothing */
    }
    for (const t of tasks) us += read(`/proc/${mariadb}/task/${t}/schedstat`);
    return us;
  };
}

/**
 * Requests the site has accepted so far: PHP's built-in server logs one `Accepted` line per connection, and closes each
 * after one request.
 */
function siteRequestCounter(): () => number {
  const fd = openSync(`${siteDir}/php.log`, 'r');
  let offset = fstatSync(fd).size;
  let count = 0;
  let tail = '';
  process.once('exit', () => closeSync(fd));
  return () => {
    const size = fstatSync(fd).size;
    if (size > offset) {
      const buf = Buffer.alloc(size - offset);
      readSync(fd, buf, 0, buf.length, offset);
      offset = size;
      const text = tail + buf.toString('utf8');
      const lines = text.split('\n');
      tail = lines.pop() ?? '';
      for (const l of lines) if (l.endsWith(' Accepted')) count++;
    }
    return count;
  };
}

// ---- clients

type Json = any;

/** Every pool the clients open, closed at the end so that no kept-alive socket holds the process. */
const pools: Pool[] = [];
function poolFor(origin: string): Pool {
  const p = new Pool(origin, { connections: 4 });
  pools.push(p);
  return p;
}

async function readJson(
  pool: Pool,
  opts: Parameters<Pool['request']>[0],
  ok: number[] = [200],
): Promise<{ body: Json; bytes: number }> {
  const r = await pool.request(opts);
  const text = await r.body.text();
  if (!ok.includes(r.statusCode)) throw new Error(`${opts.method} ${opts.path}: ${r.statusCode} ${text.slice(0, 300)}`);
  return { body: JSON.parse(text), bytes: Buffer.byteLength(text) };
}

/** A document the server answered without data (a validation failure, a refusal): its errors, code and message. */
class Refused extends Error {}

const describeError = (e: Json): string =>
  `${e.extensions?.code ?? 'ERROR'}${e.path ? ` at ${e.path.join('.')}` : ''}: ${e.message}`;

/**
 * One GraphQL request. Errors throw, unless `partial` is given: then errors beside data are added to it (one
 * `describeError` line each) and the data returned, and an answer without data throws `Refused`.
 */
async function graphql(
  pool: Pool,
  path: string,
  query: string,
  variables: Record<string, unknown> = {},
  partial?: Set<string>,
): Promise<{ data: Json; bytes: number }> {
  const { body, bytes } = await readJson(
    pool,
    {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    },
    partial ? [200, 400] : [200],
  );
  if (body.errors && partial) {
    if (body.data == null) throw new Refused(`${path}: ${body.errors.map(describeError).join('; ')}`);
    for (const e of body.errors) partial.add(describeError(e));
  } else if (body.errors) throw new Error(`${path}: ${JSON.stringify(body.errors).slice(0, 500)}`);
  return { data: body.data, bytes };
}

/** What each client's answer is reduced to for the check: the same shape whichever client gave it. */
interface Item {
  id: number;
  title: string;
  venue?: string | null;
  organizers?: string[];
  categories?: string[];
  tags?: string[];
  seo?: { title: string; description: string; canonical: string; ogTitle: string };
}

interface Answer {
  items: Item[];
  bytes: number;
}

type Run = () => Promise<Answer>;

interface Client {
  name: string;
  gateway?: GatewayProcess;
  workloads: Record<string, Run>;
  /** /wpgraphql's: errors it answered beside data, collected while its answer is checked. */
  errors?: Set<string>;
}

const sorted = (xs: (string | null | undefined)[]): string[] => xs.map((x) => String(x ?? '')).sort();
const seo = (s: Json): Item['seo'] => ({
  title: s?.title ?? '',
  description: s?.description ?? s?.metaDesc ?? '',
  canonical: s?.canonical ?? '',
  ogTitle: s?.og_title ?? s?.opengraphTitle ?? '',
});

const SG_POSTS = '{ posts(first: 10) { nodes { databaseId title raw } } }';
const WPG_POSTS = '{ posts(first: 10) { nodes { databaseId title seo { title metaDesc canonical opengraphTitle } } } }';
const SG_EVENTS =
  '{ events(first: 10) { nodes { databaseId title startDate venues { databaseId title city } organizers { databaseId title } } } }';
// ql-events 0.1.0 cannot order by start date; the seeded events' titles follow their start dates, so
// title order gives the legacy list's first ten.
const WPG_EVENTS =
  '{ events(first: 10, where: { orderby: [{ field: TITLE, order: ASC }] }) { nodes { databaseId title startDate venue { databaseId title city } organizers { nodes { databaseId title } } } } }';
const SG_EVENT = `query($slug: ID!, $url: String!) {
  event(id: $slug, idType: SLUG) { databaseId title description startDate endDate cost url venues { title address city } organizers { title email } categories { name slug } tags { name } }
  seo { head(url: $url) { title description canonical json } }
}`;
const WPG_EVENT = `query($slug: ID!) {
  event(id: $slug, idType: SLUG) { databaseId title content startDate endDate cost link venue { title address city } organizers { nodes { title email } } eventsCategories { nodes { name slug } } tags { nodes { name } } seo { title metaDesc canonical opengraphTitle } }
}`;
// The same document for both GraphQL servers: each pages with its own cursors (WPGraphQL in its default order).
const BULK =
  'query($after: String) { events(first: 100, after: $after) { nodes { databaseId title startDate } pageInfo { hasNextPage endCursor } } }';

type Query = (query: string, variables?: Record<string, unknown>) => Promise<{ data: Json; bytes: number }>;

/** Every event through the `events` connection, page after page from the cursor of the last. */
async function pullAll(q: Query): Promise<Answer> {
  const items: Item[] = [];
  let bytes = 0;
  for (let after: string | null = null; ;) {
    const { data, bytes: b } = await q(BULK, { after });
    bytes += b;
    for (const e of data.events.nodes) items.push({ id: e.databaseId, title: e.title });
    if (!data.events.pageInfo.hasNextPage) return { items, bytes };
    after = data.events.pageInfo.endCursor;
  }
}

function sitegraphClient(name: string, gw: GatewayProcess, page: { slug: string; url: string }): Client {
  const u = new URL(gw.url);
  const pool = poolFor(u.origin);
  const q: Query = (query, variables) => graphql(pool, u.pathname, query, variables);
  return {
    name,
    gateway: gw,
    workloads: {
      // Post has no typed SEO fields in sitegraph's schema: the site's object (`raw`) carries Yoast's yoast_head_json.
      posts: async () => {
        const { data, bytes } = await q(SG_POSTS);
        return {
          bytes,
          items: data.posts.nodes.map((p: Json) => ({
            id: p.databaseId,
            title: p.title,
            seo: seo(p.raw?.yoast_head_json),
          })),
        };
      },
      events: async () => {
        const { data, bytes } = await q(SG_EVENTS);
        return {
          bytes,
          items: data.events.nodes.map((e: Json) => ({
            id: e.databaseId,
            title: e.title,
            venue: e.venues[0]?.title ?? null,
            organizers: sorted(e.organizers.map((o: Json) => o.title)),
          })),
        };
      },
      event: async () => {
        const { data, bytes } = await q(SG_EVENT, page);
        const e = data.event;
        return {
          bytes,
          items: [
            {
              id: e.databaseId,
              title: e.title,
              venue: e.venues[0]?.title ?? null,
              organizers: sorted(e.organizers.map((o: Json) => o.title)),
              categories: sorted(e.categories.map((c: Json) => c.name)),
              tags: sorted(e.tags.map((t: Json) => t.name)),
              seo: seo({ ...data.seo.head, og_title: data.seo.head?.json?.og_title }),
            },
          ],
        };
      },
      bulk: () => pullAll(q),
    },
  };
}

/**
 * A client sending WPGraphQL's documents: to WPGraphQL at the site's /graphql, or to a gateway's /wpgraphql
 * (`gw`), where errors beside data are collected rather than thrown.
 */
function wpgraphqlClient(name: string, url: string, page: { slug: string }, gw?: GatewayProcess): Client {
  const u = new URL(url);
  const pool = poolFor(u.origin);
  const errors = gw ? new Set<string>() : undefined;
  const q: Query = (query, variables) => graphql(pool, u.pathname, query, variables, errors);
  return {
    name,
    gateway: gw,
    errors,
    workloads: {
      posts: async () => {
        const { data, bytes } = await q(WPG_POSTS);
        return {
          bytes,
          items: data.posts.nodes.map((p: Json) => ({ id: p.databaseId, title: p.title, seo: seo(p.seo) })),
        };
      },
      events: async () => {
        const { data, bytes } = await q(WPG_EVENTS);
        return {
          bytes,
          items: data.events.nodes.map((e: Json) => ({
            id: e.databaseId,
            title: e.title,
            venue: e.venue?.title ?? null,
            organizers: sorted(e.organizers.nodes.map((o: Json) => o.title)),
          })),
        };
      },
      event: async () => {
        const { data, bytes } = await q(WPG_EVENT, { slug: page.slug });
        const e = data.event;
        return {
          bytes,
          items: [
            {
              id: e.databaseId,
              title: e.title,
              venue: e.venue?.title ?? null,
              organizers: sorted(e.organizers.nodes.map((o: Json) => o.title)),
              categories: sorted(e.eventsCategories.nodes.map((c: Json) => c.name)),
              tags: sorted(e.tags.nodes.map((t: Json) => t.name)),
              seo: seo(e.seo),
            },
          ],
        };
      },
      bulk: () => pullAll(q),
    },
  };
}

/** The legacy list's event reduced to what the check compares. */
function legacyEvent(e: Json): Item {
  const venues = Array.isArray(e.venue) ? e.venue : e.venue ? [e.venue] : [];
  return {
    id: e.id,
    title: e.title,
    venue: venues[0]?.venue ?? null,
    organizers: sorted((e.organizer ?? []).map((o: Json) => o.organizer)),
  };
}

/** The requests sitegraph itself makes for each answer (seen on the wire), made by hand and parsed. */
function restClient(site: SiteJson, page: { slug: string; url: string }): Client {
  const pool = poolFor(site.origin);
  const base = new URL(site.restUrl).pathname.replace(/\/$/, '');
  const get = (path: string, ok?: number[]) => readJson(pool, { method: 'GET', path: `${base}/${path}` }, ok);
  return {
    name: 'REST',
    workloads: {
      posts: async () => {
        const { body, bytes } = await get('wp/v2/posts?page=1&per_page=10');
        return {
          bytes,
          items: body.map((p: Json) => ({ id: p.id, title: p.title.rendered, seo: seo(p.yoast_head_json) })),
        };
      },
      events: async () => {
        const { body, bytes } = await get(`tribe/events/v1/events?${OPEN}&page=1&per_page=10`);
        return { bytes, items: body.events.map(legacyEvent) };
      },
      // get_head answers an unknown URL with 404 and the not-found page's head, which sitegraph passes on as data.
      event: async () => {
        const [ev, head] = await Promise.all([
          get(`tribe/events/v1/events/by-slug/${page.slug}`),
          get(`yoast/v1/get_head?url=${encodeURIComponent(page.url)}`, [200, 404]),
        ]);
        const e = ev.body;
        return {
          bytes: ev.bytes + head.bytes,
          items: [
            {
              ...legacyEvent(e),
              categories: sorted((e.categories ?? []).map((c: Json) => c.name)),
              tags: sorted((e.tags ?? []).map((t: Json) => t.name)),
              seo: seo(head.body.json),
            },
          ],
        };
      },
      // The first page says how many there are; the others are then asked for at once.
      bulk: async () => {
        const first = await get(`tribe/events/v1/events?${OPEN}&page=1&per_page=50`);
        const rest = await Promise.all(
          Array.from({ length: Math.max(0, first.body.total_pages - 1) }, (_, i) =>
            get(`tribe/events/v1/events?${OPEN}&page=${i + 2}&per_page=50`),
          ),
        );
        const pages = [first, ...rest];
        return {
          bytes: pages.reduce((n, p) => n + p.bytes, 0),
          items: pages.flatMap((p) => p.body.events.map((e: Json) => ({ id: e.id, title: e.title }))),
        };
      },
    },
  };
}

// ---- the check

/** Differences between an answer and the reference, one line each (at most `max`). */
function differences(workload: string, got: Answer, want: Answer, max = 6): string[] {
  const out: string[] = [];
  const key = (i: Item) => JSON.stringify(i);
  if (workload === 'bulk') {
    // Each client pages in its own order: the same set of events is what counts.
    const g = new Map(got.items.map((i) => [i.id, i]));
    const w = new Map(want.items.map((i) => [i.id, i]));
    if (got.items.length !== g.size) out.push(`${got.items.length - g.size} event(s) repeated`);
    for (const [id, i] of w) if (!g.has(id)) out.push(`missing ${id} ${i.title}`);
    for (const [id, i] of g) if (!w.has(id)) out.push(`extra ${id} ${i.title}`);
    for (const [id, i] of g)
      if (w.has(id) && w.get(id)!.title !== i.title)
        out.push(`${id}: title ${JSON.stringify(i.title)} against ${JSON.stringify(w.get(id)!.title)}`);
  } else {
    if (got.items.length !== want.items.length) out.push(`${got.items.length} items against ${want.items.length}`);
    for (let n = 0; n < Math.max(got.items.length, want.items.length); n++) {
      const g = got.items[n];
      const w = want.items[n];
      if (!g || !w || key(g) === key(w)) continue;
      for (const f of Object.keys({ ...g, ...w }) as (keyof Item)[]) {
        if (JSON.stringify(g[f]) !== JSON.stringify(w[f]))
          out.push(`#${n + 1} (${w.id} ${w.title}) ${f}: ${JSON.stringify(g[f])} against ${JSON.stringify(w[f])}`);
      }
    }
  }
  return out.length > max ? [...out.slice(0, max), `... and ${out.length - max} more`] : out;
}

// ---- the run

interface Tally {
  wall: number[];
  clientCpu: number;
  siteCpu: number;
  siteRequests: number;
  bytes: number;
  /** The gateway process's CPU over the measured run per request, and the share its idle rate accounts for. */
  gatewayCpu?: number;
  gatewayIdle?: number;
  /** Why this client was not timed on this workload (its document refused). */
  refused?: string;
}

function pct(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
}
const ms = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

async function main(): Promise<void> {
  if (given) console.error(`bench:real: using the site in ${siteDir} (left running)`);
  else await startSite();
  const site = JSON.parse(readFileSync(`${siteDir}/site.json`, 'utf8')) as SiteJson;
  if (!site.plugins['wp-graphql'])
    throw new Error(`${siteDir} has no WPGraphQL: start it with SITEGRAPH_WP_SHAPE=tec57 SITEGRAPH_WP_WPGRAPHQL=1`);
  // The REST client asks for the plugins' own route names (wp/v2, tribe/events/v1, yoast/v1).
  if ((site.names ?? 'plugin') !== 'plugin')
    throw new Error(
      `${siteDir} serves the contract's names (${site.names}); bench:real reads the plugins' (SITEGRAPH_WP_NAMES=plugin)`,
    );

  // The event page: the first seeded event (a venue, two organizers, a category, a tag).
  const probe = new Pool(site.origin);
  const firstEvent = (
    await readJson(probe, {
      method: 'GET',
      path: `${new URL(site.restUrl).pathname}tribe/events/v1/events/${site.calendar.events[0]}`,
    })
  ).body;
  await probe.close();
  const page = { slug: String(firstEvent.slug), url: String(firstEvent.url) };

  // One gateway process per sitegraph client, so that each process's CPU is that client's alone.
  const start = async (env: Record<string, string>) => {
    const g = await gateway(site.restUrl, env);
    gateways.push(g);
    return g;
  };
  const CACHES_OFF = { CACHE_TTL_SECONDS: '0', RESPONSE_CACHE: '0' };
  const off = await start(CACHES_OFF);
  const on = await start({});
  const wpOff = await start(CACHES_OFF);
  const wpOn = await start({});
  const at = (g: GatewayProcess) => new URL('/wpgraphql', g.url).href;
  const reference = restClient(site, page);
  const clients = [
    sitegraphClient('sitegraph, caches off', off, page),
    sitegraphClient('sitegraph, caches on', on, page),
    wpgraphqlClient('/wpgraphql, caches off', at(wpOff), page, wpOff),
    wpgraphqlClient('/wpgraphql, caches on', at(wpOn), page, wpOn),
    wpgraphqlClient('WPGraphQL', new URL('/graphql', site.origin).href, page),
    reference,
  ];
  const timed = clients.filter((c): c is Client & { gateway: GatewayProcess } => c.gateway !== undefined);
  const siteCpu = siteCpuReader();
  const siteRequests = siteRequestCounter();

  // The gateways' idle cost (their timers), since each measured run includes the time the other clients take.
  const idle0 = await Promise.all(timed.map((c) => c.gateway.cpu()));
  const idleT0 = performance.now();
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const idle1 = await Promise.all(timed.map((c) => c.gateway.cpu()));
  const idleSeconds = (performance.now() - idleT0) / 1000;
  const idleRate = new Map(timed.map((c, i) => [c.gateway, (idle1[i]! - idle0[i]!) / idleSeconds])); // µs per second

  const workloads = ['posts', 'events', 'event', 'bulk'].filter((w) => ONLY.includes(w));
  const results = new Map<string, Map<Client, Tally>>();
  const mismatches: string[] = [];
  /** What /wpgraphql refused or answered with errors, per workload and client. */
  const refusals: string[] = [];
  const t0 = performance.now();
  const load0 = loadavg()[0]!;
  for (const w of workloads) {
    // The check, once, before timing; cold for the cached gateway.
    const want = await reference.workloads[w]!();
    const tallies = new Map<Client, Tally>(
      clients.map((c) => [c, { wall: [], clientCpu: 0, siteCpu: 0, siteRequests: 0, bytes: 0 }]),
    );
    for (const c of clients) {
      c.errors?.clear();
      let got: Answer;
      try {
        got = c === reference ? want : await c.workloads[w]!();
      } catch (e) {
        if (!(e instanceof Refused)) throw e;
        const line = `${w}: ${c.name}: the WPGraphQL document is refused, so not timed: ${e.message}`;
        console.error(`check ${line}`);
        refusals.push(line);
        tallies.get(c)!.refused = e.message;
        continue;
      }
      if (c.errors?.size) {
        const line = `${w}: ${c.name}: answered with errors beside the data (timed as answered): ${[...c.errors].join('; ')}`;
        console.error(`check ${line}`);
        refusals.push(line);
      }
      const diff = c === reference ? [] : differences(w, got, want);
      const line = `${w}: ${c.name}: ${got.items.length} item(s), ${diff.length ? `DIFFERS from REST:\n    ${diff.join('\n    ')}` : c === reference ? 'the reference' : 'the same as REST'}`;
      console.error(`check ${line}`);
      if (diff.length) mismatches.push(line);
    }
    const running = clients.filter((c) => tallies.get(c)!.refused === undefined);
    const n = w === 'bulk' ? BULK_REQUESTS : REQUESTS;
    let gw0: number[] = [];
    let tw0 = 0;
    for (let round = 0; round < WARMUP + n; round++) {
      if (round === WARMUP) {
        gw0 = await Promise.all(timed.map((c) => c.gateway.cpu()));
        tw0 = performance.now();
      }
      for (let k = 0; k < running.length; k++) {
        const c = running[(round + k) % running.length]!;
        const s0 = siteCpu();
        const r0 = siteRequests();
        const cpu0 = process.cpuUsage();
        const start = performance.now();
        const answer = await c.workloads[w]!();
        const wall = performance.now() - start;
        const cpu = process.cpuUsage(cpu0);
        const s1 = siteCpu();
        const r1 = siteRequests();
        if (round < WARMUP) continue;
        const t = tallies.get(c)!;
        t.wall.push(wall);
        t.clientCpu += (cpu.user + cpu.system) / 1000;
        t.siteCpu += (s1 - s0) / 1000;
        t.siteRequests += r1 - r0;
        t.bytes = answer.bytes;
      }
    }
    const gw1 = await Promise.all(timed.map((c) => c.gateway.cpu()));
    const runSeconds = (performance.now() - tw0) / 1000;
    for (const [i, c] of timed.entries()) {
      const t = tallies.get(c)!;
      if (t.refused !== undefined) continue;
      t.gatewayCpu = (gw1[i]! - gw0[i]!) / 1000 / n;
      t.gatewayIdle = (idleRate.get(c.gateway)! * runSeconds) / 1000 / n;
    }
    results.set(w, tallies);
    console.error(`bench:real: ${w} done (${runSeconds.toFixed(0)} s measured)`);
  }
  const totalSeconds = (performance.now() - t0) / 1000;
  await Promise.all([...timed.map((c) => c.gateway.stop()), ...pools.map((p) => p.close())]);

  const titles: Record<string, string> = {
    posts: 'posts ×10 with SEO',
    events: 'events ×10 with venue, organizers',
    event: 'one event page (by slug) with SEO',
    bulk: 'every event (bulk pull)',
  };
  const lines = [
    `bench:real, ${new Date().toISOString().slice(0, 10)}: WordPress ${site.wpVersion} + TEC ${site.plugins['the-events-calendar']} + Yoast ${site.plugins['wordpress-seo']}, WPGraphQL ${site.plugins['wp-graphql']}; ${REQUESTS} measured requests per client and workload (the bulk pull ${BULK_REQUESTS}) after ${WARMUP} rounds of warm-up, one at a time, round-robin; ${totalSeconds.toFixed(0)} s; ${cpus().length} cores, load average ${load0.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end`,
    '',
    '| workload | client | p50 ms | p95 ms | p99 ms | client CPU ms/req | site CPU ms/req | site requests/answer | answer bytes | gateway CPU ms/req (of which idle) |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [w, tallies] of results) {
    for (const c of clients) {
      const t = tallies.get(c)!;
      if (t.refused !== undefined) {
        lines.push(
          `| ${titles[w]} | ${c.name} | refused, not timed: ${t.refused.replaceAll('|', '\\|')} |${' |'.repeat(7)}`,
        );
        continue;
      }
      const gw = t.gatewayCpu === undefined ? '—' : `${ms(t.gatewayCpu, 2)} (${ms(t.gatewayIdle ?? NaN, 2)})`;
      lines.push(
        `| ${titles[w]} | ${c.name} | ${ms(pct(t.wall, 0.5))} | ${ms(pct(t.wall, 0.95))} | ${ms(pct(t.wall, 0.99))} | ${ms(t.clientCpu / t.wall.length, 2)} | ${ms(t.siteCpu / t.wall.length)} | ${(t.siteRequests / t.wall.length).toFixed(2)} | ${t.bytes} | ${gw} |`,
      );
    }
  }
  lines.push(
    '',
    `gateways idle: ${timed.map((c) => `${(idleRate.get(c.gateway)! / 1000).toFixed(2)} ms (${c.name})`).join(', ')} of CPU per second; "of which idle" is that rate times the measured run, per request`,
  );
  if (refusals.length)
    lines.push(
      `\n/wpgraphql's errors on WPGraphQL's documents (checked once, before timing):\n- ${refusals.join('\n- ')}`,
    );
  lines.push(
    mismatches.length
      ? `\nanswers that differ from the REST client's (checked once, before timing):\n- ${mismatches.join('\n- ')}`
      : "\nevery client's answer held the same items as the REST client's",
  );
  console.log(lines.join('\n'));
}

/** The gateway processes, ended if the run fails half-way (a forked child would keep this process alive). */
const gateways: GatewayProcess[] = [];
try {
  await main();
} finally {
  for (const g of gateways) if (g.child.exitCode === null) g.child.kill('SIGTERM');
  stopSite();
}
