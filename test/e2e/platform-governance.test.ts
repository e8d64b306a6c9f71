/**
 * site-governance/v1 and site-audit-log/v1 through the graph: every route,
 * permissions (anonymous / subscriber / editor / admin), API-key errors that
 * never echo the key, the audit log as a connection with every filter, and
 * the CSV export.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

describe('Query.governance', () => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await startHarness();
    key = h.sandbox.site.store.option<string>('site_governance_api_key', '');
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const SITE_Q = `{ governance {
    usersOverview { totalUsers roles { role count } training { completed inProgress notStarted notEnrolled overdue } complianceRate raw }
    usersTrainingStatus { userId userLogin displayName email roles training { course status completedAt dueAt overdue } }
  } }`;

  it("reads this site's users overview and training for list_users callers", async () => {
    const r = await h.gql(SITE_Q, {}, 'admin');
    expect(r.errors).toBeUndefined();
    const o = r.data.governance.usersOverview;
    expect(o.totalUsers).toBe(5);
    expect(o.roles.find((x: any) => x.role === 'administrator').count).toBe(1);
    expect(typeof o.complianceRate).toBe('number');
    expect(r.data.governance.usersTrainingStatus).toHaveLength(5);
    expect(r.data.governance.usersTrainingStatus[0].roles.length).toBeGreaterThan(0);
    expect(
      h
        .calls()
        .map((c) => c.path)
        .sort(),
    ).toEqual(['/site-governance/v1/users-overview', '/site-governance/v1/users-training-status']);
  });

  it('refuses anonymous callers (UNAUTHENTICATED) and editors (FORBIDDEN)', async () => {
    const anon = await h.gql(SITE_Q);
    expect(anon.errors!.map((e) => e.extensions!.code)).toEqual(['UNAUTHENTICATED', 'UNAUTHENTICATED']);
    const editor = await h.gql(SITE_Q, {}, 'editor');
    expect(
      editor.errors!.every(
        (e) => e.extensions!.code === 'FORBIDDEN' && e.extensions!.upstream.code === 'rest_forbidden',
      ),
    ).toBe(true);
  });

  it("reads one post's content review, by database or global ID", async () => {
    const post = (await h.gql(`{ posts(first: 1) { nodes { id databaseId } } }`)).data.posts.nodes[0];
    const q = `query($id: ID!) { governance { contentReviewStatus(postId: $id) { postId postType title status lastReviewed nextReviewDue reviewerId intervalDays overdue } } }`;
    const r = await h.gql(q, { id: String(post.databaseId) }, 'editor');
    expect(r.errors).toBeUndefined();
    expect(r.data.governance.contentReviewStatus).toMatchObject({
      postId: post.databaseId,
      postType: 'post',
      intervalDays: expect.any(Number),
    });
    expect(['current', 'due_soon', 'overdue', 'never_reviewed']).toContain(
      r.data.governance.contentReviewStatus.status,
    );
    const g = await h.gql(q, { id: post.id }, 'admin');
    expect(g.data.governance.contentReviewStatus.postId).toBe(post.databaseId);
    const missing = await h.gql(q, { id: '999999' }, 'admin');
    expect(missing.errors![0]!.extensions).toMatchObject({
      code: 'NOT_FOUND',
      upstream: { code: 'rest_post_invalid_id' },
    });
    const sub = await h.gql(q, { id: String(post.databaseId) }, 'subscriber');
    expect(sub.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    const bad = await h.gql(q, { id: 'nope' }, 'admin');
    expect(bad.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
  });

  const NETWORK_Q = `{ governance { network {
    complianceOverview { totalSites compliantSites nonCompliantSites complianceRate threshold training { compliantSites rate usersOverdue } qa { rate } contentReview { rate postsOverdue } }
    sitesOutOfCompliance { blogId name url compliant reasons trainingRate qaRate contentReviewRate }
    usersOverdueTraining { userId userLogin blogId siteName course status dueAt daysOverdue }
    sitesTrainingCompliance { blogId name usersTotal usersCompleted usersOverdue rate compliant }
    sitesQaCompliance { blogId checksTotal checksPassed checksFailed rate lastChecked compliant }
    sitesContentReviewCompliance { blogId postsTotal current dueSoon overdue neverReviewed rate compliant }
  } } }`;

  it('reads the six network routes for a network administrator', async () => {
    const r = await h.gql(NETWORK_Q, {}, 'admin');
    expect(r.errors).toBeUndefined();
    const n = r.data.governance.network;
    expect(n.complianceOverview.totalSites).toBe(4);
    expect(n.complianceOverview.compliantSites + n.complianceOverview.nonCompliantSites).toBe(4);
    expect(n.sitesOutOfCompliance.every((s: any) => s.compliant === false && s.reasons.length > 0)).toBe(true);
    expect(n.sitesTrainingCompliance).toHaveLength(4);
    expect(n.sitesQaCompliance).toHaveLength(4);
    expect(n.sitesContentReviewCompliance).toHaveLength(4);
    expect(n.usersOverdueTraining.every((u: any) => u.daysOverdue > 0)).toBe(true);
    expect(new Set(h.calls().map((c) => c.path)).size).toBe(6);
  });

  it('refuses the network part to editors, one error per field', async () => {
    const r = await h.gql(NETWORK_Q, {}, 'editor');
    expect(Object.values(r.data.governance.network).every((v) => v === null)).toBe(true);
    expect(r.errors).toHaveLength(6);
    expect(r.errors!.every((e) => e.extensions!.code === 'FORBIDDEN')).toBe(true);
  });

  describe('the remote API', () => {
    const REMOTE = `query($key: String!, $login: String, $email: String, $site: Int!) { governance { remote(apiKey: $key) {
      trainingStatuses { userId userLogin status sites { blogId course status } }
      one: trainingStatus(userLogin: $login, userEmail: $email) { userId userLogin userEmail displayName status overdue sites { blogId siteName course status completedAt dueAt overdue } }
      contentReviewMeta(siteId: $site) { siteId blogId name reviewIntervalDays summary { postsTotal current dueSoon overdue neverReviewed rate compliant } lastReviewAt nextReviewDue reviews { postId status } }
    } } }`;

    it('answers with the right key, whoever calls', async () => {
      const r = await h.gql(REMOTE, { key, login: 'editor', site: 2 });
      expect(r.errors).toBeUndefined();
      const remote = r.data.governance.remote;
      expect(remote.trainingStatuses.length).toBeGreaterThan(0);
      expect(remote.one.userLogin).toBe('editor');
      expect(remote.contentReviewMeta).toMatchObject({ siteId: 2, blogId: 2 });
      expect(remote.contentReviewMeta.reviews.length).toBe(remote.contentReviewMeta.summary.postsTotal);
      const byEmail = await h.gql(REMOTE, { key, email: remote.one.userEmail.toUpperCase(), site: 1 });
      expect(byEmail.data.governance.remote.one.userId).toBe(remote.one.userId);
    });

    it('maps a wrong key to UNAUTHENTICATED and never echoes the key', async () => {
      const wrong = `gov_${'0'.repeat(32)}`;
      const r = await h.gql(REMOTE, { key: wrong, login: 'admin', site: 1 });
      expect(r.errors).toHaveLength(3);
      for (const e of r.errors!) {
        expect(e.extensions).toMatchObject({
          code: 'UNAUTHENTICATED',
          upstream: { code: 'site_governance_invalid_api_key', status: 401 },
        });
      }
      expect(JSON.stringify(r)).not.toContain(wrong);
    });

    it('maps a site without a key to FORBIDDEN', async () => {
      h.sandbox.site.store.setOption('site_governance_api_key', '');
      try {
        const r = await h.gql(REMOTE, { key, login: 'admin', site: 1 });
        expect(r.errors![0]!.extensions).toMatchObject({
          code: 'FORBIDDEN',
          upstream: { code: 'site_governance_remote_disabled' },
        });
        expect(JSON.stringify(r)).not.toContain(key);
      } finally {
        h.sandbox.site.store.setOption('site_governance_api_key', key);
      }
    });

    it('reports unknown users and sites as NOT_FOUND, and refuses empty input', async () => {
      const r = await h.gql(REMOTE, { key, login: 'nobody-here', site: 99 });
      const codes = r.errors!.map((e) => e.extensions!.upstream?.code).sort();
      expect(codes).toEqual(['site_governance_site_not_found', 'site_governance_user_not_found']);
      const noUser = await h.gql(
        `query($key: String!) { governance { remote(apiKey: $key) { trainingStatus { userId } } } }`,
        { key },
      );
      expect(noUser.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
      const empty = await h.gql(`{ governance { remote(apiKey: "") { trainingStatuses { userId } } } }`);
      expect(empty.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    });

    it('takes the key from the X-Governance-Api-Key header when the argument is absent', async () => {
      const r = await h.gql(`{ governance { remote { trainingStatuses { userId } } } }`, undefined, null, {
        'x-governance-api-key': key,
      });
      expect(r.errors).toBeUndefined();
      expect(r.data.governance.remote.trainingStatuses.length).toBeGreaterThan(0);
      const none = await h.gql(`{ governance { remote { trainingStatuses { userId } } } }`);
      expect(none.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
      expect(none.errors![0]!.message).toMatch(/X-Governance-Api-Key/);
    });
  });
});

describe('Query.auditLog', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const LOG = `query($first: Int, $after: String, $last: Int, $where: AuditLogWhere, $order: OrderDirection) {
    auditLog(first: $first, after: $after, last: $last, where: $where, order: $order) {
      totalCount pageInfo { hasNextPage hasPreviousPage endCursor }
      nodes { databaseId blogId userId userLogin objectType objectId objectName action priority message ip createdAt }
    } }`;
  const log = async (vars: Record<string, unknown>, who: Parameters<Harness['gql']>[2] = 'admin') => {
    const r = await h.gql(LOG, { first: 100, ...vars }, who);
    expect(r.errors).toBeUndefined();
    return r.data.auditLog as { totalCount: number; nodes: any[]; pageInfo: any };
  };

  it("pages every site's entries, newest first, with totals", async () => {
    const first = await log({ first: 30 });
    expect(first.totalCount).toBe(320);
    expect(first.nodes).toHaveLength(30);
    const dates = first.nodes.map((n) => Date.parse(n.createdAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const next = await log({ first: 150, after: first.pageInfo.endCursor });
    expect(next.nodes).toHaveLength(150);
    expect(next.nodes[0].databaseId).not.toBe(first.nodes[29].databaseId);
    // 150 over pages of at most 100: two upstream requests.
    expect(h.calls().filter((c) => c.path === '/site-audit-log/v1/logs')).toHaveLength(3);
    const asc = await log({ first: 5, order: 'ASC' });
    expect(Date.parse(asc.nodes[0].createdAt)).toBeLessThanOrEqual(Date.parse(asc.nodes[4].createdAt));
    const last = await log({ first: undefined, last: 3 });
    expect(last.nodes).toHaveLength(3);
    expect(last.pageInfo.hasNextPage).toBe(false);
  });

  it('applies every filter', async () => {
    const all = (await log({})).nodes;
    const day = all[0].createdAt.slice(0, 10);
    const byDay = await log({ where: { startDate: day, endDate: day } });
    expect(byDay.nodes.every((n) => n.createdAt.startsWith(day))).toBe(true);
    expect(h.calls().at(-1)!.query).toMatchObject({ start_date: day, end_date: day });
    const blogs = await log({ where: { blogIds: [2, 3] } });
    expect(blogs.nodes.every((n) => n.blogId === 2 || n.blogId === 3)).toBe(true);
    expect(h.calls().at(-1)!.query.blog_id).toBe('2,3');
    const users = await log({ where: { userIds: [0] } });
    expect(users.nodes.every((n) => n.userId === 0 && n.action === 'login_failed')).toBe(true);
    const types = await log({ where: { objectTypes: ['POST', 'USER'] } });
    expect(types.nodes.every((n) => n.objectType === 'post' || n.objectType === 'user')).toBe(true);
    const actions = await log({ where: { actions: ['LOGIN_FAILED'] } });
    expect(actions.totalCount).toBeGreaterThan(0);
    expect(actions.nodes.every((n) => n.action === 'login_failed')).toBe(true);
    const prio = await log({ where: { priorities: ['HIGH', 'CRITICAL'] } });
    expect(prio.nodes.every((n) => n.priority === 'high' || n.priority === 'critical')).toBe(true);
    const since = await log({ where: { startDate: all[10].createdAt } });
    expect(since.totalCount).toBeGreaterThanOrEqual(11);
  });

  it('passes invalid dates on as BAD_USER_INPUT', async () => {
    const r = await h.gql(LOG, { where: { startDate: 'last tuesday' } }, 'admin');
    expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
  });

  it('needs manage_options, and manage_network for other sites', async () => {
    const anon = await h.gql(LOG, {});
    expect(anon.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const sub = await h.gql(LOG, {}, 'subscriber');
    expect(sub.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    const editor = await h.gql(LOG, {}, 'editor');
    expect(editor.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });

  it('exports the matching entries as CSV', async () => {
    const q = `query($where: AuditLogWhere, $search: String) { auditLogExport(where: $where, search: $search, order: ASC) { filename contentType totalCount csv } }`;
    const r = await h.gql(q, { where: { actions: ['LOGIN_FAILED'] }, search: 'login' }, 'admin');
    expect(r.errors).toBeUndefined();
    const x = r.data.auditLogExport;
    expect(x.filename).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(x.contentType).toMatch(/^text\/csv/);
    const lines = x.csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      'id,created_at,blog_id,user_id,user_login,object_type,object_id,object_name,action,priority,message,ip',
    );
    expect(lines.length - 1).toBe(x.totalCount);
    expect(x.totalCount).toBeGreaterThan(0);
    expect(h.calls().at(-1)!.query).toMatchObject({ action: 'login_failed', search: 'login', order: 'asc' });
    const anon = await h.gql(q, {});
    expect(anon.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
  });
});
