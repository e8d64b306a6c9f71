/**
 * `site-governance/v1`: user training, content review and network compliance.
 *
 * No public plugin registers these routes (other-upstream.md §1 [U]), so the
 * bodies are the sandbox's own, following that section's suggested contract
 * and documented in docs/sandbox-platform.md:
 *
 * - `/users-overview` (list_users): totals by role and training status.
 * - `/users-training-status` (list_users): one row per user of this site.
 * - `/content-review-status/<post_id>` (edit_post on it): the post's review;
 *   an unknown post (or not a post/page) is 404 `rest_post_invalid_id`.
 * - `/network/*` (manage_network): per-site compliance over the network.
 * - `/remote/*`: no WordPress credentials; the `api_key` argument must equal
 *   the `site_governance_api_key` option (401 `site_governance_invalid_api_key`
 *   otherwise; 403 `site_governance_remote_disabled` when no key is set).
 *
 * Dates are UTC RFC 3339 strings with `Z`. "Overdue" is computed at request
 * time against the site clock. A site is compliant when nobody's training is
 * overdue and its QA and content-review rates reach the threshold option.
 */
import { timingSafeEqual } from 'node:crypto';
import { can, type User } from '../../auth.ts';
import { canEdit } from '../../calendar/model.ts';
import { RestError, authStatus } from '../../errors.ts';
import type { ArgSchema, RestRequest, RouteDecl } from '../../rest/types.ts';
import type { Clock, Origin, Site, Storage } from '../../capabilities.ts';
import { OPTIONS } from './seed.ts';
import { sqlUtc, utcIso, type ReviewRow, type SiteRow, type TrainingRow } from './tables.ts';

const NS = 'site-governance/v1';
/** Days before a review falls due during which it counts as `due_soon`. */
const DUE_SOON_DAYS = 30;
/** Review interval of content without a review record. */
const DEFAULT_INTERVAL_DAYS = 180;

type ReviewStatus = 'current' | 'due_soon' | 'overdue' | 'never_reviewed';

interface Now {
  sql: string;
  soon: string;
}

function clock(site: Clock): Now {
  const now = site.now();
  return { sql: sqlUtc(now), soon: sqlUtc(new Date(now.getTime() + DUE_SOON_DAYS * 86400_000)) };
}

const pct = (part: number, total: number) => (total === 0 ? 100 : Math.round((part / total) * 1000) / 10);

function threshold(site: Storage): number {
  return site.store.option<number>(OPTIONS.governanceThreshold, 90);
}

// ---- data access

function sites(site: Storage): SiteRow[] {
  return site.store.db.prepare('SELECT * FROM governance_sites ORDER BY blog_id').all() as SiteRow[];
}

function trainingRows(site: Storage, blogId?: number): TrainingRow[] {
  const db = site.store.db;
  return (
    blogId === undefined
      ? db.prepare('SELECT * FROM governance_training ORDER BY blog_id, user_id').all()
      : db.prepare('SELECT * FROM governance_training WHERE blog_id = ? ORDER BY user_id').all(blogId)
  ) as TrainingRow[];
}

function isOverdue(t: Pick<TrainingRow, 'status' | 'due_at'>, now: Now): boolean {
  return t.status !== 'completed' && t.due_at < now.sql;
}

/** The reviews of one site. Blog 1's content is the store's posts and pages; the others exist only as review rows. */
function reviewsOf(site: Storage, blogId: number): (ReviewRow & { post_type: string })[] {
  const db = site.store.db;
  if (blogId !== 1) {
    return (
      db.prepare('SELECT * FROM governance_reviews WHERE blog_id = ? ORDER BY post_id').all(blogId) as ReviewRow[]
    ).map((r) => ({ ...r, post_type: 'post' }));
  }
  const rows = db
    .prepare(
      `SELECT p.id AS post_id, p.type AS post_type, p.title AS title, r.last_reviewed AS last_reviewed,
              COALESCE(r.reviewer_id, 0) AS reviewer_id, COALESCE(r.interval_days, ?) AS interval_days
         FROM posts p LEFT JOIN governance_reviews r ON r.blog_id = 1 AND r.post_id = p.id
        WHERE p.type IN ('post', 'page') AND p.status NOT IN ('trash', 'auto-draft') ORDER BY p.id`,
    )
    .all(DEFAULT_INTERVAL_DAYS) as (Omit<ReviewRow, 'blog_id'> & { post_type: string })[];
  return rows.map((r) => ({ ...r, blog_id: 1 }));
}

function nextDue(r: Pick<ReviewRow, 'last_reviewed' | 'interval_days'>): string | null {
  if (!r.last_reviewed) return null;
  return sqlUtc(new Date(Date.parse(`${r.last_reviewed.replace(' ', 'T')}Z`) + r.interval_days * 86400_000));
}

function reviewStatus(r: Pick<ReviewRow, 'last_reviewed' | 'interval_days'>, now: Now): ReviewStatus {
  const due = nextDue(r);
  if (!due) return 'never_reviewed';
  if (due < now.sql) return 'overdue';
  if (due < now.soon) return 'due_soon';
  return 'current';
}

function reviewJson(r: ReviewRow & { post_type: string }, now: Now): Record<string, unknown> {
  const status = reviewStatus(r, now);
  return {
    post_id: r.post_id,
    post_type: r.post_type,
    title: r.title,
    status,
    last_reviewed: utcIso(r.last_reviewed),
    next_review_due: utcIso(nextDue(r)),
    reviewer_id: r.reviewer_id || null,
    interval_days: r.interval_days,
    overdue: status === 'overdue',
  };
}

// ---- per-site summaries

function siteBase(site: Origin, s: SiteRow): Record<string, unknown> {
  const origin = new URL(site.origin);
  return { blog_id: s.blog_id, name: s.name, domain: origin.host, path: s.path, url: `${site.origin}${s.path}` };
}

function trainingSummary(site: Storage, blogId: number, now: Now) {
  const rows = trainingRows(site, blogId);
  const completed = rows.filter((t) => t.status === 'completed').length;
  const overdue = rows.filter((t) => isOverdue(t, now)).length;
  return {
    users_total: rows.length,
    users_completed: completed,
    users_overdue: overdue,
    rate: pct(completed, rows.length),
    compliant: overdue === 0,
  };
}

function qaSummary(site: Storage, s: SiteRow) {
  const rate = pct(s.qa_checks_passed, s.qa_checks_total);
  return {
    checks_total: s.qa_checks_total,
    checks_passed: s.qa_checks_passed,
    checks_failed: s.qa_checks_total - s.qa_checks_passed,
    rate,
    last_checked: utcIso(s.qa_last_checked),
    compliant: rate >= threshold(site),
  };
}

function reviewSummary(site: Storage, blogId: number, now: Now) {
  const statuses = reviewsOf(site, blogId).map((r) => reviewStatus(r, now));
  const count = (s: ReviewStatus) => statuses.filter((x) => x === s).length;
  const upToDate = count('current') + count('due_soon');
  const rate = pct(upToDate, statuses.length);
  return {
    posts_total: statuses.length,
    current: count('current'),
    due_soon: count('due_soon'),
    overdue: count('overdue'),
    never_reviewed: count('never_reviewed'),
    rate,
    compliant: rate >= threshold(site),
  };
}

function siteCompliance(site: Storage, s: SiteRow, now: Now) {
  const training = trainingSummary(site, s.blog_id, now);
  const qa = qaSummary(site, s);
  const review = reviewSummary(site, s.blog_id, now);
  const reasons = [
    ...(training.compliant ? [] : ['training']),
    ...(qa.compliant ? [] : ['qa']),
    ...(review.compliant ? [] : ['content_review']),
  ];
  return { training, qa, review, reasons, compliant: reasons.length === 0 };
}

// ---- users

function userTraining(site: Storage, u: User, blogId: number, now: Now): Record<string, unknown> {
  const t = site.store.db
    .prepare('SELECT * FROM governance_training WHERE user_id = ? AND blog_id = ?')
    .get(u.id, blogId) as TrainingRow | undefined;
  if (!t) return { course: null, status: 'not_enrolled', completed_at: null, due_at: null, overdue: false };
  return {
    course: t.course,
    status: t.status,
    completed_at: utcIso(t.completed_at),
    due_at: utcIso(t.due_at),
    overdue: isOverdue(t, now),
  };
}

function userRow(site: Storage, u: User, now: Now): Record<string, unknown> {
  return {
    user_id: u.id,
    user_login: u.login,
    display_name: u.displayName,
    email: u.email,
    roles: [u.role],
    training: userTraining(site, u, 1, now),
  };
}

function usersOverview(req: RestRequest): unknown {
  const now = clock(req.site);
  const users = req.site.store.users();
  const roles: Record<string, number> = {};
  for (const u of users) roles[u.role] = (roles[u.role] ?? 0) + 1;
  const statuses = users.map((u) => userTraining(req.site, u, 1, now));
  const count = (s: string) => statuses.filter((t) => t.status === s).length;
  const compliant = statuses.filter((t) => t.status === 'completed').length;
  return {
    total_users: users.length,
    roles,
    training: {
      completed: count('completed'),
      in_progress: count('in_progress'),
      not_started: count('not_started'),
      not_enrolled: count('not_enrolled'),
      overdue: statuses.filter((t) => t.overdue).length,
    },
    compliance_rate: pct(compliant, users.length),
  };
}

// ---- network

function complianceOverview(req: RestRequest): unknown {
  const now = clock(req.site);
  const all = sites(req.site).map((s) => siteCompliance(req.site, s, now));
  const part = (pick: (c: (typeof all)[number]) => { compliant: boolean }) => {
    const ok = all.filter((c) => pick(c).compliant).length;
    return { compliant_sites: ok, non_compliant_sites: all.length - ok, rate: pct(ok, all.length) };
  };
  const ok = all.filter((c) => c.compliant).length;
  return {
    total_sites: all.length,
    compliant_sites: ok,
    non_compliant_sites: all.length - ok,
    compliance_rate: pct(ok, all.length),
    threshold: threshold(req.site),
    training: { ...part((c) => c.training), users_overdue: all.reduce((n, c) => n + c.training.users_overdue, 0) },
    qa: part((c) => c.qa),
    content_review: { ...part((c) => c.review), posts_overdue: all.reduce((n, c) => n + c.review.overdue, 0) },
  };
}

function sitesOutOfCompliance(req: RestRequest): unknown {
  const now = clock(req.site);
  return sites(req.site).flatMap((s) => {
    const c = siteCompliance(req.site, s, now);
    if (c.compliant) return [];
    return [
      {
        ...siteBase(req.site, s),
        compliant: false,
        reasons: c.reasons,
        training_rate: c.training.rate,
        qa_rate: c.qa.rate,
        content_review_rate: c.review.rate,
      },
    ];
  });
}

function usersOverdueTraining(req: RestRequest): unknown {
  const now = clock(req.site);
  const names = new Map(sites(req.site).map((s) => [s.blog_id, s.name]));
  return trainingRows(req.site)
    .filter((t) => isOverdue(t, now))
    .flatMap((t) => {
      const u = req.site.store.userById(t.user_id);
      if (!u) return [];
      const days = Math.floor(
        (Date.parse(`${now.sql.replace(' ', 'T')}Z`) - Date.parse(`${t.due_at.replace(' ', 'T')}Z`)) / 86400_000,
      );
      return [
        {
          user_id: u.id,
          user_login: u.login,
          display_name: u.displayName,
          email: u.email,
          blog_id: t.blog_id,
          site_name: names.get(t.blog_id) ?? '',
          course: t.course,
          status: t.status,
          due_at: utcIso(t.due_at),
          days_overdue: days,
        },
      ];
    });
}

function perSite(summary: (site: Site, s: SiteRow, now: Now) => Record<string, unknown>) {
  return (req: RestRequest) => {
    const now = clock(req.site);
    return sites(req.site).map((s) => ({ ...siteBase(req.site, s), ...summary(req.site, s, now) }));
  };
}

// ---- remote

function apiKeyCheck(req: RestRequest): true | RestError {
  const configured = req.site.store.option<string>(OPTIONS.governanceApiKey, '');
  if (!configured)
    return new RestError(
      'site_governance_remote_disabled',
      'The remote governance API is not enabled on this site.',
      403,
    );
  const given = Buffer.from(String(req.params.api_key));
  const want = Buffer.from(configured);
  if (given.length !== want.length || !timingSafeEqual(given, want)) {
    return new RestError('site_governance_invalid_api_key', 'The API key is invalid.', 401);
  }
  return true;
}

function remoteUser(site: Storage, u: User, now: Now): Record<string, unknown> {
  const names = new Map(sites(site).map((s) => [s.blog_id, s.name]));
  const rows = trainingRows(site).filter((t) => t.user_id === u.id);
  const sitesOut = rows.map((t) => ({
    blog_id: t.blog_id,
    site_name: names.get(t.blog_id) ?? '',
    course: t.course,
    status: t.status,
    completed_at: utcIso(t.completed_at),
    due_at: utcIso(t.due_at),
    overdue: isOverdue(t, now),
  }));
  const overdue = sitesOut.some((s) => s.overdue);
  const status = !rows.length
    ? 'not_enrolled'
    : rows.every((t) => t.status === 'completed')
      ? 'completed'
      : overdue
        ? 'overdue'
        : 'incomplete';
  return {
    user_id: u.id,
    user_login: u.login,
    user_email: u.email,
    display_name: u.displayName,
    status,
    overdue,
    sites: sitesOut,
  };
}

function remoteTrainingStatus(req: RestRequest): unknown {
  const { site } = req;
  const now = clock(site);
  const login = req.params.user_login as string | undefined;
  const email = req.params.user_email as string | undefined;
  if (!login && !email) return site.store.users().map((u) => remoteUser(site, u, now));
  const found = login ? site.store.userByLogin(login) : site.store.userByEmail(email!);
  if (!found) throw new RestError('site_governance_user_not_found', 'No user matches the given login or email.', 404);
  return remoteUser(site, site.store.userById(found.id)!, now);
}

function remoteContentReviewMeta(req: RestRequest): unknown {
  const { site } = req;
  const now = clock(site);
  const s = sites(site).find((x) => x.blog_id === req.params.site_id);
  if (!s) throw new RestError('site_governance_site_not_found', 'No site has this ID.', 404);
  const reviews = reviewsOf(site, s.blog_id).map((r) => reviewJson(r, now));
  const reviewed = reviews
    .map((r) => r.last_reviewed as string | null)
    .filter((d): d is string => d !== null)
    .sort();
  const due = reviews
    .map((r) => r.next_review_due as string | null)
    .filter((d): d is string => d !== null)
    .sort();
  return {
    site_id: s.blog_id,
    ...siteBase(site, s),
    review_interval_days: DEFAULT_INTERVAL_DAYS,
    summary: reviewSummary(site, s.blog_id, now),
    last_review_at: reviewed[reviewed.length - 1] ?? null,
    next_review_due: due[0] ?? null,
    reviews,
  };
}

// ---- routes

const needs = (cap: string) => (req: RestRequest) => can(req.user, cap);

/** edit_post on the post; a missing ID or another post type is 404 first, as the posts controller does. */
function reviewPermission(req: RestRequest): boolean | RestError {
  const post = req.site.store.post(Number(req.params.post_id));
  if (!post || (post.type !== 'post' && post.type !== 'page'))
    return new RestError('rest_post_invalid_id', 'Invalid post ID.', 404);
  return (
    canEdit(post, req.user, (cap) => can(req.user, cap)) ||
    new RestError('rest_forbidden', 'Sorry, you are not allowed to do that.', authStatus(req.user !== null))
  );
}

function contentReviewStatus(req: RestRequest): unknown {
  const post = req.site.store.post(Number(req.params.post_id))!;
  const r = req.site.store.db
    .prepare('SELECT * FROM governance_reviews WHERE blog_id = 1 AND post_id = ?')
    .get(post.id) as ReviewRow | undefined;
  return reviewJson(
    {
      blog_id: 1,
      post_id: post.id,
      post_type: post.type,
      title: post.title,
      last_reviewed: r?.last_reviewed ?? null,
      reviewer_id: r?.reviewer_id ?? 0,
      interval_days: r?.interval_days ?? DEFAULT_INTERVAL_DAYS,
    },
    clock(req.site),
  );
}

const apiKeyArg: ArgSchema = {
  type: 'string',
  required: true,
  description: 'The shared key of the remote governance API.',
};

function route(
  path: string,
  summary: string,
  permission: (req: RestRequest) => boolean | RestError,
  handler: (req: RestRequest) => unknown,
  args: Record<string, ArgSchema> = {},
): RouteDecl {
  return {
    namespace: NS,
    path: `/${NS}${path}`,
    endpoints: [{ methods: ['GET'], summary, args, permission, handler }],
  };
}

export function governanceRoutes(): RouteDecl[] {
  return [
    route(
      '/users-overview',
      "Totals of this site's users by role and training status",
      needs('list_users'),
      usersOverview,
    ),
    route('/users-training-status', 'Training status of each user of this site', needs('list_users'), (req) => {
      const now = clock(req.site);
      return req.site.store.users().map((u) => userRow(req.site, u, now));
    }),
    route(
      '/content-review-status/(?P<post_id>\\d+)',
      'Review status of one post or page',
      reviewPermission,
      contentReviewStatus,
      {
        post_id: { type: 'integer', description: 'Unique identifier for the post.' },
      },
    ),
    route(
      '/network/compliance-overview',
      'Network-wide compliance totals',
      needs('manage_network'),
      complianceOverview,
    ),
    route(
      '/network/sites-out-of-compliance',
      'Sites failing a compliance check',
      needs('manage_network'),
      sitesOutOfCompliance,
    ),
    route(
      '/network/users-overdue-training',
      'Users whose training is overdue, per site',
      needs('manage_network'),
      usersOverdueTraining,
    ),
    route(
      '/network/sites-training-compliance-summary',
      'Training compliance per site',
      needs('manage_network'),
      perSite((site, s, now) => trainingSummary(site, s.blog_id, now)),
    ),
    route(
      '/network/sites-qa-compliance-summary',
      'QA compliance per site',
      needs('manage_network'),
      perSite((site, s) => qaSummary(site, s)),
    ),
    route(
      '/network/sites-content-review-compliance-summary',
      'Content-review compliance per site',
      needs('manage_network'),
      perSite((site, s, now) => reviewSummary(site, s.blog_id, now)),
    ),
    route(
      '/remote/training-status',
      'Training status for a remote system (API key)',
      apiKeyCheck,
      remoteTrainingStatus,
      {
        api_key: apiKeyArg,
        user_email: { type: 'string', description: 'Only this user (by email).' },
        user_login: { type: 'string', description: 'Only this user (by login; wins over user_email).' },
      },
    ),
    route(
      '/remote/content-review-meta',
      'Content-review metadata of one site for a remote system (API key)',
      apiKeyCheck,
      remoteContentReviewMeta,
      {
        api_key: apiKeyArg,
        site_id: { type: 'integer', required: true, description: 'The network site (blog) ID.' },
      },
    ),
  ];
}
