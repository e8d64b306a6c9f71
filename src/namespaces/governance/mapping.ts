/**
 * site-governance/v1 bodies -> graph objects (docs/sandbox-platform.md
 * "site-governance/v1"; no real server to follow).
 */
import {
  arr,
  asBool,
  asDateTime,
  asId,
  asInt,
  asNum,
  asStr,
  asStrings,
  isJson,
  listOf,
  nested,
  obj,
  read,
  shape,
  type Json,
} from '../../mapping/json.ts';

const SITE = {
  blogId: ['blog_id', asId],
  name: ['name', asStr],
  domain: ['domain', asStr],
  path: ['path', asStr],
  url: ['url', asStr],
} as const;

export function usersOverview(body: unknown) {
  const o = obj(body, 'users overview');
  const roles = isJson(o.roles) ? o.roles : {};
  return {
    ...read(o, { totalUsers: ['total_users', asInt], complianceRate: ['compliance_rate', asNum] } as const),
    roles: Object.entries(roles).map(([role, n]) => ({ role, count: asId(n) })),
    training: nested(
      shape('training counts', {
        completed: ['completed', asInt],
        inProgress: ['in_progress', asInt],
        notStarted: ['not_started', asInt],
        notEnrolled: ['not_enrolled', asInt],
        overdue: ['overdue', asInt],
      } as const),
    )(o.training),
    raw: body,
  };
}

const trainingRecord = shape('training', {
  course: ['course', asStr],
  status: ['status', asStr],
  completedAt: ['completed_at', asDateTime],
  dueAt: ['due_at', asDateTime],
  overdue: ['overdue', asBool],
} as const);

export const userTraining = (v: unknown) => {
  const o = obj(v, 'user training');
  return {
    ...read(o, {
      userId: ['user_id', asId],
      userLogin: ['user_login', asStr],
      displayName: ['display_name', asStr],
      email: ['email', asStr],
      roles: ['roles', asStrings],
    } as const),
    training: nested(trainingRecord)(o.training),
    raw: v,
  };
};

export const usersTraining = (body: unknown) => arr(body, 'users training status').map(userTraining);

export const contentReview = shape('content review status', {
  postId: ['post_id', asId],
  postType: ['post_type', asStr],
  title: ['title', asStr],
  status: ['status', asStr],
  lastReviewed: ['last_reviewed', asDateTime],
  nextReviewDue: ['next_review_due', asDateTime],
  reviewerId: ['reviewer_id', asInt],
  intervalDays: ['interval_days', asInt],
  overdue: ['overdue', asBool],
} as const);

const area = nested(
  shape('compliance area', {
    compliantSites: ['compliant_sites', asInt],
    nonCompliantSites: ['non_compliant_sites', asInt],
    rate: ['rate', asNum],
    usersOverdue: ['users_overdue', asInt],
    postsOverdue: ['posts_overdue', asInt],
  } as const),
);

export function complianceOverview(body: unknown) {
  const o = obj(body, 'compliance overview');
  return {
    ...read(o, {
      totalSites: ['total_sites', asInt],
      compliantSites: ['compliant_sites', asInt],
      nonCompliantSites: ['non_compliant_sites', asInt],
      complianceRate: ['compliance_rate', asNum],
      threshold: ['threshold', asNum],
      training: ['training', area],
      qa: ['qa', area],
      contentReview: ['content_review', area],
    } as const),
    raw: body,
  };
}

const siteCompliance = shape('site compliance', {
  ...SITE,
  compliant: ['compliant', asBool],
  reasons: ['reasons', asStrings],
  trainingRate: ['training_rate', asNum],
  qaRate: ['qa_rate', asNum],
  contentReviewRate: ['content_review_rate', asNum],
} as const);
export const sitesOutOfCompliance = (body: unknown) => arr(body, 'sites out of compliance').map(siteCompliance);

const overdue = shape('overdue training', {
  userId: ['user_id', asId],
  userLogin: ['user_login', asStr],
  displayName: ['display_name', asStr],
  email: ['email', asStr],
  blogId: ['blog_id', asInt],
  siteName: ['site_name', asStr],
  course: ['course', asStr],
  status: ['status', asStr],
  dueAt: ['due_at', asDateTime],
  daysOverdue: ['days_overdue', asInt],
} as const);
export const usersOverdueTraining = (body: unknown) => arr(body, 'users overdue training').map(overdue);

const trainingSummary = shape('site training summary', {
  ...SITE,
  usersTotal: ['users_total', asInt],
  usersCompleted: ['users_completed', asInt],
  usersOverdue: ['users_overdue', asInt],
  rate: ['rate', asNum],
  compliant: ['compliant', asBool],
} as const);
export const sitesTrainingCompliance = (body: unknown) => arr(body, 'sites training compliance').map(trainingSummary);

const qaSummary = shape('site QA summary', {
  ...SITE,
  checksTotal: ['checks_total', asInt],
  checksPassed: ['checks_passed', asInt],
  checksFailed: ['checks_failed', asInt],
  rate: ['rate', asNum],
  lastChecked: ['last_checked', asDateTime],
  compliant: ['compliant', asBool],
} as const);
export const sitesQaCompliance = (body: unknown) => arr(body, 'sites QA compliance').map(qaSummary);

const REVIEW_COUNTS = {
  postsTotal: ['posts_total', asInt],
  current: ['current', asInt],
  dueSoon: ['due_soon', asInt],
  overdue: ['overdue', asInt],
  neverReviewed: ['never_reviewed', asInt],
  rate: ['rate', asNum],
  compliant: ['compliant', asBool],
} as const;
const reviewSummary = shape('site content-review summary', { ...SITE, ...REVIEW_COUNTS } as const);
export const sitesContentReviewCompliance = (body: unknown) =>
  arr(body, 'sites content-review compliance').map(reviewSummary);

const remoteSite = shape('remote site training', {
  blogId: ['blog_id', asInt],
  siteName: ['site_name', asStr],
  course: ['course', asStr],
  status: ['status', asStr],
  completedAt: ['completed_at', asDateTime],
  dueAt: ['due_at', asDateTime],
  overdue: ['overdue', asBool],
} as const);

export const remoteTraining = (v: unknown) => {
  const o = obj(v, 'remote training status');
  return {
    ...read(o, {
      userId: ['user_id', asId],
      userLogin: ['user_login', asStr],
      userEmail: ['user_email', asStr],
      displayName: ['display_name', asStr],
      status: ['status', asStr],
      overdue: ['overdue', asBool],
      sites: ['sites', listOf(remoteSite)],
    } as const),
    raw: v,
  };
};

/** Without a user the route answers an array; with one, one object. */
export const remoteTrainings = (body: unknown) => (Array.isArray(body) ? body : [body]).map(remoteTraining);

export function contentReviewMeta(body: unknown) {
  const o = obj(body, 'content review meta');
  return {
    ...read(o, {
      siteId: ['site_id', asId],
      blogId: ['blog_id', asInt],
      name: ['name', asStr],
      domain: ['domain', asStr],
      path: ['path', asStr],
      url: ['url', asStr],
      reviewIntervalDays: ['review_interval_days', asInt],
      summary: ['summary', nested(shape('review summary', REVIEW_COUNTS))],
      lastReviewAt: ['last_review_at', asDateTime],
      nextReviewDue: ['next_review_due', asDateTime],
      reviews: ['reviews', listOf(contentReview)],
    } as const),
    raw: body,
  };
}
