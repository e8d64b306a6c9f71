/**
 * Demo data of the platform namespaces, laid around the same anchor day as the
 * calendar's and drawn from its own `prng` stream (so adding platform data
 * never shifts the calendar's): 40 posts and 5 pages with categories, tags,
 * sticky, password-protected and duplicated posts; governance sites, training
 * and reviews; a few hundred audit-log entries; the keys of the governance
 * remote API and the challenge route.
 */
import { createHmac } from 'node:crypto';
import { DateTime } from 'luxon';
import { slugify } from '../../calendar/model.ts';
import { SQL, localToUtc } from '../../dates.ts';
import { prng } from '../../prng.ts';
import type { Clock, Secrets, Settings, Storage } from '../../capabilities.ts';
import type { PostRow } from '../../store/db.ts';
import { POST_CATEGORY_TAX, TAG_TAX, setSticky, type PlatformPostMeta } from './post-json.ts';
import { sqlUtc, type AuditRow } from './tables.ts';

/** Option names the platform routes read (documented in docs/sandbox-platform.md). */
export const OPTIONS = {
  defaultCategory: 'default_category',
  governanceApiKey: 'site_governance_api_key',
  governanceThreshold: 'site_governance_compliance_threshold',
  challengeKey: 'site_challenge_hmac_key',
  challengeMaxNumber: 'site_challenge_maxnumber',
  facetApi: 'facetwp_api_can_access',
} as const;

/** A key derived from the sandbox secret: stable per seed, never printed. */
export function derivedKey(site: Secrets, purpose: string, length = 40): string {
  return createHmac('sha256', site.secret).update(purpose).digest('hex').slice(0, length);
}

const CATEGORIES: [string, string[]][] = [
  ['Uncategorized', []],
  ['News', ['Releases', 'Announcements']],
  ['Guides', []],
  ['Opinion', []],
  ['Interviews', []],
];
const TAGS = ['howto', 'release-notes', 'community', 'security', 'performance', 'accessibility'];
const SUBJECTS = ['Harbor', 'Summit', 'Lantern', 'Cedar', 'Aurora', 'Meridian', 'Willow', 'Granite', 'Ember', 'Tidal'];
const TOPICS = [
  'release notes',
  'field guide',
  'community update',
  'security review',
  'performance tips',
  'interview',
  'roadmap',
  'retrospective',
];

/** Which seeded post is what (1-based index among the 40). */
export const SEED_POSTS = {
  count: 40,
  sticky: [2, 11],
  password: [5, 17],
  trash: [20],
  /** index -> index of its original */
  duplicates: { 30: 9, 31: 10 } as Record<number, number>,
  /** A Rewrite & Republish copy of post 11. */
  rewriteCopy: { copy: 32, original: 11 },
};

function statusOf(i: number): string {
  if (SEED_POSTS.trash.includes(i)) return 'trash';
  if (i === SEED_POSTS.rewriteCopy.copy) return 'draft';
  if (i % 13 === 0) return 'future';
  if (i % 10 === 3) return 'draft';
  if (i % 10 === 6) return 'pending';
  if (i % 10 === 8) return 'private';
  return 'publish';
}

export function seedPlatform(site: Clock & Storage & Settings & Secrets): void {
  const { store } = site;
  const rnd = prng((site.options.seed ^ 0x5eed2) >>> 0);
  const anchor = site.options.anchor
    ? DateTime.fromISO(site.options.anchor, { zone: 'utc' })
    : DateTime.fromJSDate(site.now(), { zone: 'utc' }).startOf('day');
  const local = (d: DateTime) => d.toFormat(SQL);

  // ---- terms
  const cat = new Map<string, number>();
  for (const [parent, children] of CATEGORIES) {
    const p = store.insertTerm({
      taxonomy: POST_CATEGORY_TAX,
      name: parent,
      slug: slugify(parent),
      description: '',
      parent: 0,
    });
    cat.set(parent, p.id);
    for (const c of children)
      cat.set(
        c,
        store.insertTerm({ taxonomy: POST_CATEGORY_TAX, name: c, slug: slugify(c), description: '', parent: p.id }).id,
      );
  }
  store.setOption(OPTIONS.defaultCategory, cat.get('Uncategorized'));
  const usableCats = [...cat.entries()].filter(([n]) => n !== 'Uncategorized').map(([, id]) => id);
  const tagIds = TAGS.map(
    (t) => store.insertTerm({ taxonomy: TAG_TAX, name: t.replace('-', ' '), slug: t, description: '', parent: 0 }).id,
  );
  const images = store.posts('attachment').map((a) => a.id);

  // ---- posts: dates ascend with the index, future ones after the anchor.
  const ids: number[] = [];
  for (let i = 1; i <= SEED_POSTS.count; i++) {
    const status = statusOf(i);
    const subject = SUBJECTS[i % SUBJECTS.length]!;
    const topic = TOPICS[Math.floor(rnd() * TOPICS.length)]!;
    const dup =
      SEED_POSTS.duplicates[i] ?? (i === SEED_POSTS.rewriteCopy.copy ? SEED_POSTS.rewriteCopy.original : undefined);
    const title = dup ? `${store.post(ids[dup - 1]!)!.title} (copy)` : `${subject} ${topic} ${i}`;
    const when =
      status === 'future'
        ? anchor.plus({ days: 5 + i, hours: 10 })
        : anchor.minus({ days: (SEED_POSTS.count + 1 - i) * 3, hours: -8 - (i % 9) });
    const date = local(when.setZone(site.timezone));
    const modified =
      status === 'future'
        ? local(anchor.minus({ days: 1, minutes: -i }).setZone(site.timezone))
        : local(when.plus({ days: i % 4 === 0 ? 2 : 0, minutes: i }).setZone(site.timezone));
    const slug = ['draft', 'pending'].includes(status) ? '' : store.uniqueSlug('post', slugify(title));
    const meta: PlatformPostMeta = { guid: status === 'publish' ? `/${slug}/` : `/?p=${i}` };
    const words = Array.from({ length: 3 + (i % 4) }, () =>
      SUBJECTS[Math.floor(rnd() * SUBJECTS.length)]!.toLowerCase(),
    ).join(' ');
    const post = store.insertPost<PlatformPostMeta>({
      type: 'post',
      status,
      author: [1, 2, 3, 4, 2][i % 5]!,
      title,
      content:
        i === 40 ? '' : `<p>${title}: notes on ${topic}, with ${words}.</p>\n\n<p>Paragraph two of post ${i}.</p>`,
      excerpt: i % 6 === 1 ? `Summary of ${title}.` : '',
      slug,
      password: SEED_POSTS.password.includes(i) ? 'letmein' : '',
      date,
      dateGmt: localToUtc(date, site.timezone),
      modified,
      modifiedGmt: localToUtc(modified, site.timezone),
      commentStatus: i % 4 === 0 ? 'closed' : 'open',
      pingStatus: i % 8 === 0 ? 'closed' : 'open',
      format: i % 9 === 0 ? 'aside' : i % 11 === 0 ? 'gallery' : 'standard',
      featuredMedia: i % 6 === 0 && images.length ? images[i % images.length]! : 0,
      meta,
    });
    // The guid was written before the ID was known.
    if (meta.guid === `/?p=${i}`) store.updatePost<PlatformPostMeta>(post.id, { meta: { guid: `/?p=${post.id}` } });
    ids.push(post.id);
    const cats =
      i % 7 === 0
        ? [cat.get('Uncategorized')!]
        : [
            ...new Set([
              usableCats[i % usableCats.length]!,
              ...(i % 3 === 0 ? [usableCats[(i * 5 + 1) % usableCats.length]!] : []),
            ]),
          ];
    store.setTerms(post.id, POST_CATEGORY_TAX, cats);
    store.setTerms(post.id, TAG_TAX, [
      ...new Set(Array.from({ length: i % 3 }, (_, k) => tagIds[(i + k) % tagIds.length]!)),
    ]);
    if (SEED_POSTS.sticky.includes(i)) setSticky(site, post.id, true);
    if (status === 'trash') store.updatePost(post.id, { meta: { _wp_trash_meta_status: 'publish' } });
  }
  for (const [copy, original] of Object.entries(SEED_POSTS.duplicates)) {
    store.updatePost<PlatformPostMeta>(ids[Number(copy) - 1]!, { meta: { _dp_original: ids[original - 1]! } });
  }
  const rr = SEED_POSTS.rewriteCopy;
  store.updatePost<PlatformPostMeta>(ids[rr.copy - 1]!, {
    meta: { _dp_original: ids[rr.original - 1]!, _dp_is_rewrite_republish_copy: 1 },
  });
  store.updatePost<PlatformPostMeta>(ids[rr.original - 1]!, {
    meta: { _dp_has_rewrite_republish_copy: ids[rr.copy - 1]! },
  });

  // ---- pages
  const pages: PostRow<PlatformPostMeta>[] = [];
  const PAGES: [string, string][] = [
    ['About', 'publish'],
    ['Contact', 'publish'],
    ['Privacy Policy', 'publish'],
    ['Careers', 'publish'],
    ['Coming Soon', 'draft'],
  ];
  PAGES.forEach(([title, status], k) => {
    const date = local(
      anchor
        .minus({ days: 400 - k * 10 })
        .set({ hour: 9 })
        .setZone(site.timezone),
    );
    const slug = status === 'draft' ? '' : store.uniqueSlug('page', slugify(title));
    pages.push(
      store.insertPost<PlatformPostMeta>({
        type: 'page',
        status,
        author: 1,
        title,
        slug,
        content: `<p>The ${title} page.</p>`,
        date,
        dateGmt: localToUtc(date, site.timezone),
        menuOrder: k,
        commentStatus: 'closed',
        pingStatus: 'closed',
        meta: { guid: status === 'draft' ? '' : `/${slug}/` },
      }),
    );
    const last = pages[pages.length - 1]!;
    if (status === 'draft') store.updatePost<PlatformPostMeta>(last.id, { meta: { guid: `/?page_id=${last.id}` } });
  });

  seedGovernance(site, anchor, [...ids, ...pages.map((p) => p.id)], rnd);
  seedAudit(site, anchor, rnd, ids);
  store.setOption(OPTIONS.governanceApiKey, `gov_${derivedKey(site, 'site-governance-api-key', 32)}`);
  store.setOption(OPTIONS.challengeKey, derivedKey(site, 'site-challenge-hmac-key', 64));
  store.setOption(OPTIONS.facetApi, false);
}

function seedGovernance(site: Storage, anchor: DateTime, contentIds: number[], rnd: () => number): void {
  const db = site.store.db;
  const utc = (d: DateTime) => d.toUTC().toFormat(SQL);
  const sites: [number, string, string, number, number][] = [
    [1, 'Sitegraph Sandbox', '/', 40, 33],
    [2, 'Newsroom', '/news/', 30, 29],
    [3, 'Research', '/research/', 25, 17],
    [4, 'Community', '/community/', 20, 20],
  ];
  const insSite = db.prepare(
    'INSERT INTO governance_sites (blog_id, name, path, qa_checks_total, qa_checks_passed, qa_last_checked) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const [id, name, path, total, passed] of sites)
    insSite.run(id, name, path, total, passed, utc(anchor.minus({ days: id * 2, hours: -6 })));

  // Training: [user, blog, status, completed days ago | null, due in days (negative: past)]
  const COURSE = 'Content governance essentials';
  const training: [number, number, string, number | null, number][] = [
    [1, 1, 'completed', 120, 245],
    [2, 1, 'completed', 40, 325],
    [3, 1, 'in_progress', null, 21],
    [4, 1, 'not_started', null, -12],
    [5, 1, 'not_started', null, 60],
    [1, 2, 'completed', 100, 265],
    [2, 2, 'in_progress', null, -5],
    [1, 3, 'completed', 90, 275],
    [3, 3, 'completed', 30, 335],
    [4, 3, 'completed', 10, 355],
    [1, 4, 'completed', 80, 285],
    [5, 4, 'completed', 15, 350],
  ];
  const insTraining = db.prepare(
    'INSERT INTO governance_training (user_id, blog_id, course, status, completed_at, due_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const [u, b, status, done, due] of training) {
    insTraining.run(
      u,
      b,
      COURSE,
      status,
      done === null ? null : utc(anchor.minus({ days: done }).set({ hour: 14 })),
      utc(anchor.plus({ days: due }).set({ hour: 23, minute: 59, second: 59 })),
    );
  }

  // Reviews of this site's posts and pages: some never, some overdue, most current.
  const insReview = db.prepare(
    'INSERT INTO governance_reviews (blog_id, post_id, title, last_reviewed, reviewer_id, interval_days) VALUES (?, ?, ?, ?, ?, ?)',
  );
  contentIds.forEach((id, k) => {
    if (k % 9 === 4) return; // never reviewed: no row
    const daysAgo = k % 7 === 0 ? 200 + k : k % 5 === 0 ? 170 : Math.floor(rnd() * 120);
    insReview.run(1, id, '', utc(anchor.minus({ days: daysAgo }).set({ hour: 11 })), k % 2 ? 2 : 1, 180);
  });
  // The other sites' content exists only here (their posts live in other databases).
  const remote: [number, number, boolean][] = [
    [2, 6, true],
    [3, 5, true],
    [4, 4, true],
  ];
  for (const [blog, count] of remote) {
    for (let n = 1; n <= count; n++) {
      const overdue = blog === 2 && n === 6;
      insReview.run(
        blog,
        1000 * blog + n,
        `${['', '', 'Newsroom', 'Research', 'Community'][blog]} article ${n}`,
        utc(anchor.minus({ days: overdue ? 300 : 10 * n }).set({ hour: 10 })),
        1,
        180,
      );
    }
  }
}

const AUDIT_KINDS: { type: string; actions: [string, string][] }[] = [
  {
    type: 'post',
    actions: [
      ['created', 'low'],
      ['updated', 'low'],
      ['published', 'medium'],
      ['trashed', 'medium'],
      ['deleted', 'high'],
    ],
  },
  {
    type: 'page',
    actions: [
      ['created', 'low'],
      ['updated', 'low'],
      ['published', 'medium'],
      ['deleted', 'high'],
    ],
  },
  {
    type: 'user',
    actions: [
      ['logged_in', 'low'],
      ['logged_out', 'low'],
      ['login_failed', 'high'],
      ['role_changed', 'critical'],
      ['created', 'medium'],
    ],
  },
  {
    type: 'plugin',
    actions: [
      ['activated', 'medium'],
      ['deactivated', 'medium'],
      ['updated', 'medium'],
      ['deleted', 'critical'],
    ],
  },
  { type: 'option', actions: [['updated', 'medium']] },
  {
    type: 'term',
    actions: [
      ['created', 'low'],
      ['updated', 'low'],
      ['deleted', 'medium'],
    ],
  },
  {
    type: 'attachment',
    actions: [
      ['uploaded', 'low'],
      ['deleted', 'medium'],
    ],
  },
];
export const AUDIT_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
const PLUGINS = ['Event Calendar', 'SEO Toolkit', 'Duplicate Post', 'FacetWP', 'Audit Log'];
const OPTION_NAMES = ['blogname', 'timezone_string', 'permalink_structure', 'default_role', 'users_can_register'];

function seedAudit(site: Storage, anchor: DateTime, rnd: () => number, postIds: number[]): void {
  const users = site.store.users();
  const times = Array.from({ length: 320 }, () =>
    anchor.minus({ seconds: Math.floor(rnd() * 90 * 86400) }).toJSDate(),
  ).sort((a, b) => a.getTime() - b.getTime());
  const blogs = [1, 1, 1, 1, 2, 2, 3, 4];
  const rows: Omit<AuditRow, 'id'>[] = times.map((t, n) => {
    const kind = AUDIT_KINDS[Math.floor(rnd() * AUDIT_KINDS.length)]!;
    const [action, priority] = kind.actions[Math.floor(rnd() * kind.actions.length)]!;
    const failed = action === 'login_failed';
    // Site-wide changes are an administrator's; content changes anybody's.
    const adminOnly =
      kind.type === 'plugin' ||
      kind.type === 'option' ||
      action === 'role_changed' ||
      (kind.type === 'user' && action === 'created');
    const drawn = users[Math.floor(rnd() * users.length)]!;
    const user = failed ? null : adminOnly ? users[0]! : drawn;
    const blog = blogs[Math.floor(rnd() * blogs.length)]!;
    let objectId = 0;
    let name = '';
    switch (kind.type) {
      case 'post':
      case 'page':
        objectId = blog === 1 ? postIds[n % postIds.length]! : 1000 * blog + (n % 9);
        name = blog === 1 ? site.store.post(objectId)!.title : `Article ${objectId}`;
        break;
      case 'user': {
        const target = action === 'logged_in' || action === 'logged_out' ? drawn : users[n % users.length]!;
        objectId = target.id;
        name = target.login;
        break;
      }
      case 'plugin':
        name = PLUGINS[n % PLUGINS.length]!;
        break;
      case 'option':
        name = OPTION_NAMES[n % OPTION_NAMES.length]!;
        break;
      case 'term':
        objectId = 1 + (n % 30);
        name = `term ${objectId}`;
        break;
      default:
        objectId = 100 + n;
        name = `upload-${n}.jpg`;
    }
    const who = user ? user.login : 'unknown';
    const message = failed ? `Failed login for "${name}"` : `${who} ${action.replace('_', ' ')} ${kind.type} "${name}"`;
    return {
      blog_id: blog,
      user_id: user?.id ?? 0,
      user_login: user?.login ?? '',
      object_type: kind.type,
      object_id: objectId,
      object_name: name,
      action,
      priority,
      message,
      ip: `192.0.2.${1 + ((n * 37) % 250)}`,
      created_at: sqlUtc(t),
    };
  });
  const ins = site.store.db.prepare(
    'INSERT INTO audit_log (blog_id, user_id, user_login, object_type, object_id, object_name, action, priority, message, ip, created_at) VALUES (@blog_id, @user_id, @user_login, @object_type, @object_id, @object_name, @action, @priority, @message, @ip, @created_at)',
  );
  for (const r of rows) ins.run(r);
}
