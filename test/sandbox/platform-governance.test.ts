/**
 * `site-governance/v1`: the sandbox's own contract (docs/sandbox-platform.md,
 * after other-upstream.md §1): who may read what, the users' training, the
 * content reviews, the network compliance summaries and the API-key routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const NS = '/site-governance/v1';
const NETWORK = [
  'compliance-overview',
  'sites-out-of-compliance',
  'users-overdue-training',
  'sites-training-compliance-summary',
  'sites-qa-compliance-summary',
  'sites-content-review-compliance-summary',
];
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('site-governance/v1', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let key: string;
  const post = (where: string) =>
    sb.site.store.db.prepare(`SELECT * FROM posts WHERE ${where} ORDER BY id LIMIT 1`).get() as {
      id: number;
      author: number;
      title: string;
      type: string;
    };

  beforeAll(async () => {
    sb = await testSandbox({ events: 20 });
    api = restClient(sb);
    key = sb.site.store.option('site_governance_api_key', '');
  });
  afterAll(() => sb.close());

  describe('permissions', () => {
    it.each([
      ['/users-overview', 'list_users'],
      ['/users-training-status', 'list_users'],
      ...NETWORK.map((n) => [`/network/${n}`, 'manage_network']),
    ])('%s needs %s: 401 anonymous, 403 for an editor, 200 for the administrator', async (path) => {
      const cases: [Who, number][] = [
        [null, 401],
        ['subscriber', 403],
        ['editor', 403],
        ['admin', 200],
      ];
      for (const [who, status] of cases) {
        const r = await api.get(`${NS}${path}`, who);
        expect(r.status, `${path} as ${who}`).toBe(status);
        if (status !== 200)
          expect(r.body).toEqual({
            code: 'rest_forbidden',
            message: 'Sorry, you are not allowed to do that.',
            data: { status },
          });
      }
    });
  });

  describe('users', () => {
    it("sums up this site's users by role and training status", async () => {
      const r = await api.get(`${NS}/users-overview`, 'admin');
      expect(r.body).toEqual({
        total_users: 5,
        roles: { administrator: 1, editor: 1, author: 1, contributor: 1, subscriber: 1 },
        training: { completed: 2, in_progress: 1, not_started: 2, not_enrolled: 0, overdue: 1 },
        compliance_rate: 40,
      });
    });

    it('lists each user with roles and training; the contributor is overdue', async () => {
      const r = await api.get(`${NS}/users-training-status`, 'admin');
      expect(r.body.map((u: any) => u.user_login)).toEqual(['admin', 'editor', 'author', 'contributor', 'subscriber']);
      const [admin, , author, contributor] = r.body;
      expect(Object.keys(admin)).toEqual(['user_id', 'user_login', 'display_name', 'email', 'roles', 'training']);
      expect(admin).toMatchObject({
        user_id: 1,
        display_name: 'Ada Admin',
        email: 'admin@sandbox.example',
        roles: ['administrator'],
      });
      expect(admin.training).toMatchObject({
        course: 'Content governance essentials',
        status: 'completed',
        overdue: false,
      });
      expect(admin.training.completed_at).toMatch(ISO_Z);
      expect(author.training).toMatchObject({ status: 'in_progress', completed_at: null, overdue: false });
      expect(contributor.training).toMatchObject({ status: 'not_started', overdue: true });
      expect(Date.parse(contributor.training.due_at)).toBeLessThan(Date.now());
    });
  });

  describe('content review', () => {
    it("reports one post's review to its editors", async () => {
      const p = post("type = 'post' AND status = 'publish'");
      const r = await api.get(`${NS}/content-review-status/${p.id}`, 'editor');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual([
        'post_id',
        'post_type',
        'title',
        'status',
        'last_reviewed',
        'next_review_due',
        'reviewer_id',
        'interval_days',
        'overdue',
      ]);
      expect(r.body).toMatchObject({ post_id: p.id, post_type: 'post', title: p.title, interval_days: 180 });
      expect(['current', 'due_soon', 'overdue', 'never_reviewed']).toContain(r.body.status);
      expect(r.body.overdue).toBe(r.body.status === 'overdue');
      if (r.body.last_reviewed) {
        expect(Date.parse(r.body.next_review_due) - Date.parse(r.body.last_reviewed)).toBe(180 * 86400_000);
      }
    });

    it('says never_reviewed, with nulls, for content without a review, and overdue past the due date', async () => {
      const reviewed = new Set(
        (
          sb.site.store.db.prepare('SELECT post_id FROM governance_reviews WHERE blog_id = 1').all() as {
            post_id: number;
          }[]
        ).map((r) => r.post_id),
      );
      const ids = (
        sb.site.store.db.prepare("SELECT id FROM posts WHERE type IN ('post', 'page') ORDER BY id").all() as {
          id: number;
        }[]
      ).map((r) => r.id);
      const never = ids.find((id) => !reviewed.has(id))!;
      const r = await api.get(`${NS}/content-review-status/${never}`, 'admin');
      expect(r.body).toMatchObject({
        status: 'never_reviewed',
        last_reviewed: null,
        next_review_due: null,
        reviewer_id: null,
        overdue: false,
      });
      const old = sb.site.store.db
        .prepare(
          "SELECT post_id FROM governance_reviews WHERE blog_id = 1 AND last_reviewed < datetime('now', '-181 days') LIMIT 1",
        )
        .get() as { post_id: number };
      const o = await api.get(`${NS}/content-review-status/${old.post_id}`, 'admin');
      expect(o.body).toMatchObject({ status: 'overdue', overdue: true });
    });

    it('answers pages too, and lets a contributor read its own draft', async () => {
      expect((await api.get(`${NS}/content-review-status/${post("type = 'page'").id}`, 'admin')).body.post_type).toBe(
        'page',
      );
      const own = post("type = 'post' AND author = 4 AND status = 'draft'");
      expect((await api.get(`${NS}/content-review-status/${own.id}`, 'contributor')).status).toBe(200);
    });

    it.each([
      [null, 401],
      ['subscriber', 403],
      ['contributor', 403],
    ] as const)("refuses %s on someone else's published post (%i)", async (who, status) => {
      const p = post("type = 'post' AND status = 'publish' AND author = 1");
      const r = await api.get(`${NS}/content-review-status/${p.id}`, who);
      expect(r.status).toBe(status);
      expect(r.body.code).toBe('rest_forbidden');
    });

    it('answers 404 rest_post_invalid_id for an unknown ID or a non-content post, before any permission check', async () => {
      const event = post("type = 'calendar_events'");
      for (const [id, who] of [
        [999999, null],
        [event.id, 'admin'],
      ] as const) {
        const r = await api.get(`${NS}/content-review-status/${id}`, who);
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
      }
      expect((await api.get(`${NS}/content-review-status/abc`, 'admin')).body.code).toBe('rest_no_route');
    });
  });

  describe('network', () => {
    it('summarises compliance over the four sites', async () => {
      const r = await api.get(`${NS}/network/compliance-overview`, 'admin');
      expect(r.body).toMatchObject({
        total_sites: 4,
        compliant_sites: 1,
        non_compliant_sites: 3,
        compliance_rate: 25,
        threshold: 90,
        training: { compliant_sites: 2, non_compliant_sites: 2, users_overdue: 2 },
        qa: { compliant_sites: 2, non_compliant_sites: 2, rate: 50 },
      });
      expect(r.body.content_review.posts_overdue).toBeGreaterThan(0);
    });

    it('lists the sites out of compliance with their reasons', async () => {
      const r = await api.get(`${NS}/network/sites-out-of-compliance`, 'admin');
      expect(r.body.map((s: any) => s.blog_id)).toEqual([1, 2, 3]);
      const [main, news, research] = r.body;
      expect(main).toMatchObject({
        name: 'Sitegraph Sandbox',
        path: '/',
        url: `${sb.origin}/`,
        domain: new URL(sb.origin).host,
        compliant: false,
        qa_rate: 82.5,
      });
      expect(main.reasons).toEqual(expect.arrayContaining(['training', 'qa']));
      expect(news.reasons).toEqual(['training', 'content_review']);
      expect(research.reasons).toEqual(['qa']);
      expect(research.qa_rate).toBe(68);
    });

    it('lists the users whose training is overdue, per site', async () => {
      const r = await api.get(`${NS}/network/users-overdue-training`, 'admin');
      expect(r.body.map((u: any) => [u.user_login, u.blog_id, u.status])).toEqual([
        ['contributor', 1, 'not_started'],
        ['editor', 2, 'in_progress'],
      ]);
      for (const u of r.body) {
        expect(u.days_overdue).toBe(Math.floor((Date.now() - Date.parse(u.due_at)) / 86400_000));
        expect(u.days_overdue).toBeGreaterThanOrEqual(1);
      }
      expect(r.body[1].site_name).toBe('Newsroom');
    });

    it('summarises training, QA and content review per site', async () => {
      const training = (await api.get(`${NS}/network/sites-training-compliance-summary`, 'admin')).body;
      expect(
        training.map((s: any) => [s.blog_id, s.users_total, s.users_completed, s.users_overdue, s.compliant]),
      ).toEqual([
        [1, 5, 2, 1, false],
        [2, 2, 1, 1, false],
        [3, 3, 3, 0, true],
        [4, 2, 2, 0, true],
      ]);
      const qa = (await api.get(`${NS}/network/sites-qa-compliance-summary`, 'admin')).body;
      expect(
        qa.map((s: any) => [s.blog_id, s.checks_total, s.checks_passed, s.checks_failed, s.rate, s.compliant]),
      ).toEqual([
        [1, 40, 33, 7, 82.5, false],
        [2, 30, 29, 1, 96.7, true],
        [3, 25, 17, 8, 68, false],
        [4, 20, 20, 0, 100, true],
      ]);
      expect(qa[0].last_checked).toMatch(ISO_Z);
      const review = (await api.get(`${NS}/network/sites-content-review-compliance-summary`, 'admin')).body;
      const content = (
        sb.site.store.db
          .prepare(
            "SELECT COUNT(*) n FROM posts WHERE type IN ('post', 'page') AND status NOT IN ('trash', 'auto-draft')",
          )
          .get() as { n: number }
      ).n;
      expect(review[0].posts_total).toBe(content);
      expect(review[0].never_reviewed).toBeGreaterThan(0);
      expect(review[1]).toMatchObject({ blog_id: 2, posts_total: 6, overdue: 1, rate: 83.3, compliant: false });
      expect(review[3]).toMatchObject({
        blog_id: 4,
        posts_total: 4,
        overdue: 0,
        never_reviewed: 0,
        rate: 100,
        compliant: true,
      });
    });
  });

  describe('remote (API key)', () => {
    it('needs api_key (400 before anything else)', async () => {
      const r = await api.get(`${NS}/remote/training-status`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): api_key',
        data: { status: 400, params: ['api_key'] },
      });
      const both = await api.get(`${NS}/remote/content-review-meta`);
      expect(both.body.data.params).toEqual(['api_key', 'site_id']);
    });

    it('refuses a wrong key with 401 site_governance_invalid_api_key, whoever calls', async () => {
      for (const who of [null, 'admin'] as const) {
        const r = await api.get(`${NS}/remote/training-status?api_key=wrong`, who);
        expect(r.status).toBe(401);
        expect(r.body).toEqual({
          code: 'site_governance_invalid_api_key',
          message: 'The API key is invalid.',
          data: { status: 401 },
        });
      }
    });

    it('answers 403 site_governance_remote_disabled while no key is configured', async () => {
      sb.site.store.setOption('site_governance_api_key', '');
      try {
        const r = await api.get(`${NS}/remote/training-status?api_key=${key}`);
        expect(r.status).toBe(403);
        expect(r.body.code).toBe('site_governance_remote_disabled');
      } finally {
        sb.site.store.setOption('site_governance_api_key', key);
      }
    });

    it('answers every user, or one by login or email, with the right key and no credentials', async () => {
      expect(key).toMatch(/^gov_[0-9a-f]{32}$/);
      const all = await api.get(`${NS}/remote/training-status?api_key=${key}`);
      expect(all.status).toBe(200);
      expect(all.body).toHaveLength(5);
      const editor = await api.get(`${NS}/remote/training-status?api_key=${key}&user_login=editor`);
      expect(editor.body).toMatchObject({
        user_id: 2,
        user_login: 'editor',
        user_email: 'editor@sandbox.example',
        status: 'overdue',
        overdue: true,
      });
      expect(editor.body.sites.map((s: any) => [s.blog_id, s.status, s.overdue])).toEqual([
        [1, 'completed', false],
        [2, 'in_progress', true],
      ]);
      const admin = await api.get(`${NS}/remote/training-status?api_key=${key}&user_email=ADMIN@sandbox.example`);
      expect(admin.body).toMatchObject({ user_login: 'admin', status: 'completed', overdue: false });
      expect(admin.body.sites).toHaveLength(4);
      const author = await api.get(`${NS}/remote/training-status?api_key=${key}&user_login=author`);
      expect(author.body.status).toBe('incomplete');
      const missing = await api.get(`${NS}/remote/training-status?api_key=${key}&user_login=ghost`);
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('site_governance_user_not_found');
    });

    it("answers one site's review metadata by site_id", async () => {
      const r = await api.get(`${NS}/remote/content-review-meta?api_key=${key}&site_id=2`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        site_id: 2,
        blog_id: 2,
        name: 'Newsroom',
        path: '/news/',
        review_interval_days: 180,
        summary: { posts_total: 6, overdue: 1 },
      });
      expect(r.body.reviews).toHaveLength(6);
      expect(r.body.reviews.filter((x: any) => x.overdue)).toHaveLength(1);
      expect(r.body.last_review_at).toMatch(ISO_Z);
      expect(r.body.next_review_due).toBe([...r.body.reviews.map((x: any) => x.next_review_due)].sort()[0]);
      const main = await api.get(`${NS}/remote/content-review-meta?api_key=${key}&site_id=1`);
      expect(main.body.reviews.length).toBe(main.body.summary.posts_total);
    });

    it('validates site_id and answers 404 for an unknown site', async () => {
      const bad = await api.get(`${NS}/remote/content-review-meta?api_key=${key}&site_id=two`);
      expect(bad.status).toBe(400);
      expect(bad.body.data.details.site_id.code).toBe('rest_invalid_type');
      const unknown = await api.get(`${NS}/remote/content-review-meta?api_key=${key}&site_id=9`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({
        code: 'site_governance_site_not_found',
        message: 'No site has this ID.',
        data: { status: 404 },
      });
      // A wrong key is refused even for an unknown site: the key is checked first.
      expect((await api.get(`${NS}/remote/content-review-meta?api_key=x&site_id=9`)).status).toBe(401);
    });
  });
});
