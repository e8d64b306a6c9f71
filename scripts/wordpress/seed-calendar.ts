/**
 * Seeds a real calendar site (scripts/wordpress/start.sh, SITEGRAPH_WP_SHAPE=tec57 | tec615) through
 * its own REST API, as an editor's tools would: the legacy interface's writes, which every release
 * has, under the plugins' names (the site is seeded before it is switched to the contract's).
 *
 *   node --import tsx/esm scripts/wordpress/seed-calendar.ts <site.json>
 *
 * The data is deterministic but for its dates, which are laid out around the day of the run (the
 * calendar's lists are windows on "now"): 6 venues, 5 organizers, a category tree, 3 tags, 80
 * published events one a day from 35 days ago (each with a venue but every 13th, one to three
 * organizers but every 17th, which has none), a multi-day and an all-day event among them, 3 draft
 * events and a pending one. What was made is added to <site.json> under `calendar`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

interface SiteJson {
  restUrl: string;
  admin: { login: string; appPassword: string };
  plugins?: Record<string, string>;
  posts?: { published: number[]; helloWorld: number; others: Record<string, number> };
  pages?: Record<string, number>;
  media?: Record<string, number>;
  categories?: Record<string, number>;
  tags?: Record<string, number>;
  [k: string]: unknown;
}

const file = process.argv[2];
if (!file) {
  console.error('usage: seed-calendar.ts <site.json>');
  process.exit(2);
}
const site = JSON.parse(readFileSync(file, 'utf8')) as SiteJson;
const auth = `Basic ${Buffer.from(`${site.admin.login}:${site.admin.appPassword}`).toString('base64')}`;
const root = site.restUrl.replace(/\/$/, '');

async function post(path: string, body: Record<string, unknown>, ns = 'tribe/events/v1'): Promise<{ id: number }> {
  const res = await fetch(`${root}/${ns}${path}`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`POST ${path} ${JSON.stringify(body)}: ${res.status} ${text.slice(0, 400)}`);
  const json = JSON.parse(text) as { id?: unknown };
  if (typeof json.id !== 'number') throw new Error(`POST ${path}: no id in ${text.slice(0, 200)}`);
  return { id: json.id };
}

/** Runs `jobs` with at most `width` in flight (PHP's server has a few workers), keeping their order. */
async function pool<T>(width: number, jobs: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A site-local date `offset` days from today (UTC's today: the run's), at `hour`:`minute`. */
function local(offset: number, hour: number, minute = 0): string {
  const d = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + offset));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(hour)}:${pad(minute)}:00`;
}

const CITIES = ['Paris', 'Lyon', 'London', 'Berlin', 'Madrid', 'Rome'];
const venues = await pool(
  3,
  CITIES.map(
    (city, i) => () =>
      post('/venues', {
        venue: `Seeded Venue ${i + 1} ${city}`,
        address: `${i + 1} Main Street`,
        city,
        country: 'France',
        zip: `7500${i}`,
        status: 'publish',
      }),
  ),
);
const ORGS = ['Aurora Society', 'Birch Collective', 'Cedar Foundation', 'Delta Club', 'Ember Group'];
const organizers = await pool(
  3,
  ORGS.map(
    (name, i) => () =>
      post('/organizers', {
        organizer: name,
        email: `org${i + 1}@example.org`,
        phone: `+33 1 00 00 00 0${i}`,
        website: `https://org${i + 1}.example.org`,
        status: 'publish',
      }),
  ),
);
const music = await post('/categories', { name: 'Music' });
const [jazz, rock] = await pool(2, [
  () => post('/categories', { name: 'Jazz', parent: music.id }),
  () => post('/categories', { name: 'Rock', parent: music.id }),
]);
const [sports, family] = await pool(2, [
  () => post('/categories', { name: 'Sports' }),
  () => post('/categories', { name: 'Family' }),
]);
const tags = await pool(
  3,
  ['outdoor', 'free', 'indoor'].map((name) => () => post('/tags', { name })),
);
const categoryIds = [music.id, jazz!.id, rock!.id, sports!.id, family!.id];

const EVENTS = 80;
const FIRST_DAY = -35;
const MULTI_DAY = 50;
const ALL_DAY = 51;
const specs = Array.from({ length: EVENTS }, (_, i) => {
  const day = FIRST_DAY + i;
  const hour = 9 + (i % 5) * 2;
  const body: Record<string, unknown> = {
    title: `Seeded Event ${pad(i + 1)} ${['Concert', 'Match', 'Workshop', 'Fair'][i % 4]}`,
    description: `<p>Seeded event ${i + 1}. ${i % 9 === 0 ? 'The word quetzal appears in these.' : ''}</p>`,
    start_date: local(day, hour),
    end_date: i === MULTI_DAY ? local(day + 2, 18) : local(day, hour + 2),
    status: 'publish',
    cost: i % 3 === 0 ? '' : String(5 + (i % 4) * 5),
    featured: i % 7 === 0,
    categories: [categoryIds[i % categoryIds.length]!],
    tags: i % 2 === 0 ? [tags[i % 3]!.id] : [],
  };
  if (i === ALL_DAY) {
    body.all_day = true;
    body.start_date = local(day, 0);
    body.end_date = local(day, 23, 59);
  }
  if (i % 13 !== 6) body.venue = venues[i % venues.length]!.id;
  if (i % 17 !== 5)
    body.organizer = organizers.filter((_, k) => k === i % 5 || (i % 4 === 0 && k === (i + 2) % 5)).map((o) => o.id);
  return body;
});
const events = await pool(
  4,
  specs.map((body) => () => post('/events', body)),
);
const others = await pool(2, [
  ...[1, 2, 3].map(
    (n) => () =>
      post('/events', {
        title: `Seeded Draft ${n}`,
        start_date: local(10 + n, 14),
        end_date: local(10 + n, 16),
        status: 'draft',
        venue: venues[0]!.id,
      }),
  ),
  () =>
    post('/events', { title: 'Seeded Pending', start_date: local(20, 14), end_date: local(20, 16), status: 'pending' }),
]);

// The posts install.php wrote came before Yoast SEO was active, so Yoast has no record of them, and
// 19.3 then gives every such post in a list the head of the first post it has (seen: every seeded
// post titled "Hello world!" in wp/v2/posts). Saving each once through REST, as an editor would,
// makes its record; sites that add Yoast to existing content index them from wp-admin instead.
// Pages, the media item and the posts' terms were made before Yoast too: each is saved once the same way.
if (site.plugins?.['wordpress-seo'] && site.posts) {
  const ids = [site.posts.helloWorld, ...site.posts.published, ...Object.values(site.posts.others)];
  const saves = [
    ...ids.map((id) => `/posts/${id}`),
    ...Object.values(site.pages ?? {}).map((id) => `/pages/${id}`),
    ...Object.values(site.media ?? {}).map((id) => `/media/${id}`),
    ...Object.values(site.categories ?? {}).map((id) => `/categories/${id}`),
    ...Object.values(site.tags ?? {}).map((id) => `/tags/${id}`),
  ];
  await pool(
    4,
    saves.map((path) => () => post(path, {}, 'wp/v2')),
  );
}

site.calendar = {
  firstDay: FIRST_DAY,
  venues: venues.map((v) => v.id),
  organizers: organizers.map((o) => o.id),
  categories: { music: music.id, jazz: jazz!.id, rock: rock!.id, sports: sports!.id, family: family!.id },
  tags: tags.map((t) => t.id),
  events: events.map((e) => e.id),
  multiDay: events[MULTI_DAY]!.id,
  allDay: events[ALL_DAY]!.id,
  noOrganizer: events.filter((_, i) => i % 17 === 5).map((e) => e.id),
  noVenue: events.filter((_, i) => i % 13 === 6).map((e) => e.id),
  drafts: others.slice(0, 3).map((e) => e.id),
  pending: others[3]!.id,
};
writeFileSync(file, `${JSON.stringify(site, null, 4)}\n`, { mode: 0o600 });
console.error(
  `[wordpress] seeded ${events.length} events, ${others.length} unpublished, ${venues.length} venues, ${organizers.length} organizers`,
);
