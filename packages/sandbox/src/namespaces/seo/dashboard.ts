/**
 * Dashboard and notification routes of `seo/v1` (Yoast SEO; reference
 * other-upstream.md §7; samples seo-statistics*.json): statistics, the
 * "new content type" badges, Site Kit dismissal and setup tracking,
 * introductions, the video embed permission, alerts, action tracking and the
 * task list. Per-user state (introductions, alerts, video permission) is kept
 * per user, as Yoast keeps it in user meta.
 */
import { can } from '../../auth.ts';
import { RawError, RestError } from '../../errors.ts';
import { RestResult, type ArgSchema, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { Site } from '../../capabilities.ts';
import { postMetaAll, seoRank, seoScore } from './analysis.ts';
import {
  adminUrl,
  endpoint,
  needs,
  rawParam,
  route,
  setUserMeta,
  userMeta,
  wpseoGet,
  wpseoSet,
  type Json,
} from './common.ts';

// ---- statistics

const RANKS = ['na', 'bad', 'ok', 'good', 'noindex'] as const;
const RANK_LABELS: Record<(typeof RANKS)[number], string> = {
  na: 'Posts <strong>without</strong> a focus keyphrase',
  bad: 'Posts with the SEO score: <strong>Needs improvement</strong>',
  ok: 'Posts with the SEO score: <strong>OK</strong>',
  good: 'Posts with the SEO score: <strong>Good</strong>',
  noindex: 'Posts that should not show up in search results',
};

/**
 * WPSEO_Statistics_Service: published posts (post type `post`) per rank; a
 * user who may not edit others' posts sees only their own. Zero counts are
 * left out. A noindex post is counted under `noindex` and under its score.
 * Yoast caches this per user for a day; the sandbox computes it every time.
 */
function statistics(req: RestRequest): unknown {
  const { site, user } = req;
  const own = !can(user, 'edit_others_posts');
  const meta = postMetaAll(site);
  const counts: Record<string, number> = { na: 0, bad: 0, ok: 0, good: 0, noindex: 0 };
  for (const post of site.store.posts('post', ['publish'])) {
    if (own && post.author !== user?.id) continue;
    const m = meta[post.id] ?? {};
    counts[seoRank(seoScore(post, m))]!++;
    if (m.noindex) counts.noindex!++;
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const header =
    total === 0
      ? "You don't have any published posts, your SEO scores will appear here once you make your first post!"
      : counts.good! / total > 0.66
        ? 'Hey, your SEO is doing pretty well! Check out the stats:'
        : "Below are your published posts' SEO scores. Now is as good a time as any to start improving some of your posts!";
  const seo_scores = RANKS.filter((r) => counts[r] !== 0).map((rank) => ({
    seo_rank: rank,
    label: RANK_LABELS[rank],
    count: counts[rank],
    // esc_url() writes & as &#038;, as the sample shows.
    link: adminUrl(
      site,
      `edit.php?post_status=publish&post_type=post&seo_filter=${rank}${own ? `&author=${user?.id ?? 0}` : ''}`,
    ).replace(/&/g, '&#038;'),
  }));
  return { header, seo_scores };
}

// ---- new content types

/** Registered post types and taxonomies (post_type_exists / taxonomy_exists). */
const POST_TYPES = [
  'post',
  'page',
  'attachment',
  'calendar_events',
  'calendar_venue',
  'calendar_organizer',
  'calendar_event_series',
  'calendar_ea_record',
];
const TAXONOMY_NAMES = ['category', 'post_tag', 'post_format', 'calendar_events_cat'];

/**
 * Content_Type_Visibility_Dismiss_Notifications. The declared argument is
 * `postTypeName` (checked to exist), but the callback reads `post_type_name`
 * (a Yoast quirk, kept): a request with only the declared name is told
 * "Post type is not new.".
 */
function dismissNew(kind: 'post type' | 'taxonomy') {
  const option = kind === 'post type' ? 'new_post_types' : 'new_taxonomies';
  const label = kind === 'post type' ? 'Post type' : 'Taxonomy';
  const param = kind === 'post type' ? 'post_type_name' : 'taxonomy_name';
  return (req: RestRequest): unknown => {
    const name = rawParam(req, param);
    const pending = wpseoGet<string[]>(req.site, option, []);
    let message = `${label} is not new.`;
    if (typeof name === 'string' && pending.includes(name)) {
      const rest = pending.filter((x) => x !== name);
      wpseoSet(req.site, { [option]: rest });
      const other = wpseoGet<string[]>(req.site, kind === 'post type' ? 'new_taxonomies' : 'new_post_types', []);
      if (!rest.length && !other.length) wpseoSet(req.site, { show_new_content_type_notification: false });
      message = `${label} is no longer new.`;
    }
    return { message, success: true, status: 200 };
  };
}

// ---- site kit setup tracking

const STAGES = ['install', 'activate', 'setup', 'grantConsent', 'successfullyConnected'];
const YES_NO: ArgSchema = { type: 'string', enum: ['yes', 'no'] };
const STAGE: ArgSchema = { type: 'string', enum: STAGES };

/** The names Setup_Steps_Tracking_Route's callback reads (camelCase) -> the declared ones. */
const SETUP_STEPS: Record<string, string> = {
  setupWidgetLoaded: 'setup_widget_loaded',
  firstInteractionStage: 'first_interaction_stage',
  lastInteractionStage: 'last_interaction_stage',
  setupWidgetTemporarilyDismissed: 'setup_widget_temporarily_dismissed',
  setupWidgetPermanentlyDismissed: 'setup_widget_permanently_dismissed',
};

/**
 * Setup_Steps_Tracking_Route: the arguments are declared in snake_case (and
 * validated as such), but the handler reads the camelCase names, as Yoast's
 * does. With none of those: 400 wpseo_set_site_kit_usage_tracking.
 */
function setupStepsTracking(req: RestRequest): unknown {
  const data: Record<string, unknown> = {};
  for (const [camel, snake] of Object.entries(SETUP_STEPS)) {
    const v = rawParam(req, camel);
    if (v !== undefined && v !== null) data[snake] = v;
  }
  if (!Object.keys(data).length)
    throw new RestError('wpseo_set_site_kit_usage_tracking', 'No valid parameters were passed.', 400);
  wpseoSet(req.site, {
    site_kit_usage_tracking: { ...wpseoGet<Json>(req.site, 'site_kit_usage_tracking', {}), ...data },
  });
  return { success: true };
}

// ---- introductions, video embed permission, alerts

/** Introductions this site knows (Introductions_Collector). */
export const INTRODUCTIONS = [
  'ai-fix-assessments-upsell',
  'ai-brand-insights-pre-launch',
  'google-docs-addon-upsell',
  'llms-txt',
  'task-list',
];
/** Alerts that may be dismissed (filter `wpseo_allowed_dismissable_alerts`). */
export const ALERTS = [
  'webinar-promo-notification',
  'black-friday-promotion',
  'default-seo-data-alert',
  'trustpilot-review-notification',
  'site-kit-setup-alert',
];

function introductionSeen(req: RestRequest): unknown {
  const id = req.params.introduction_id as string;
  if (!INTRODUCTIONS.includes(id)) return new RestResult([], 400);
  const user = req.user!;
  setUserMeta(req.site, user.id, {
    introductions: { ...(userMeta(req.site, user.id).introductions ?? {}), [id]: req.params.is_seen as boolean },
  });
  return { json: { success: true } };
}

// ---- action tracking and tasks

/** Tracking-only options (inc/options/class-wpseo-option-tracking-only.php). */
const TRACKED_ACTIONS = ['task_list_first_opened_on', 'task_first_actioned_on', 'frontend_inspector_first_actioned_on'];

function actionTracking(req: RestRequest): unknown {
  const action = req.params.action as string;
  if (!TRACKED_ACTIONS.includes(action))
    throw new RawError(400, { success: false, error: 'The tracked action is invalid' });
  const tracked = wpseoGet<Record<string, number>>(req.site, 'tracking_only', {});
  // Only the first occurrence is recorded.
  if (tracked[action] === undefined)
    wpseoSet(req.site, { tracking_only: { ...tracked, [action]: Math.floor(req.site.now().getTime() / 1000) } });
  return { success: true, action };
}

interface TaskDef {
  id: string;
  title: string;
  about: string;
  duration: number;
  priority: 'high' | 'medium' | 'low';
  badge: string | null;
  cta: (site: Site) => { label: string; type: string; href: string | null } | null;
  /** Done by itself, whatever complete_task says. */
  done?: (site: Site) => boolean;
}

const TASKS: TaskDef[] = [
  {
    id: 'complete-ftc',
    title: 'Complete the First-time configuration',
    duration: 15,
    priority: 'high',
    badge: null,
    about:
      'Tell search engines about your site: how it is represented, its social profiles and who may change its SEO settings.',
    cta: (site) => ({
      label: 'Start configuration',
      type: 'link',
      href: adminUrl(site, 'admin.php?page=wpseo_dashboard#/first-time-configuration'),
    }),
    done: (site) => wpseoGet<unknown[]>(site, 'configuration_finished_steps', []).length >= 3,
  },
  {
    id: 'improve-content-seo',
    title: 'Improve the SEO of your posts',
    duration: 20,
    priority: 'high',
    badge: null,
    about: 'Some published posts have an SEO score that needs improvement.',
    cta: (site) => ({
      label: 'Show posts',
      type: 'link',
      href: adminUrl(site, 'edit.php?post_status=publish&post_type=post&seo_filter=bad'),
    }),
  },
  {
    id: 'create-new-content',
    title: 'Create new content',
    duration: 30,
    priority: 'medium',
    badge: null,
    about: 'Regular new content keeps search engines coming back.',
    cta: (site) => ({ label: 'Add a post', type: 'link', href: adminUrl(site, 'post-new.php') }),
  },
  {
    id: 'enable-llms-txt',
    title: 'Enable llms.txt',
    duration: 2,
    priority: 'medium',
    badge: 'new',
    about: 'Help AI tools find your most important content.',
    cta: () => ({ label: 'Enable', type: 'default', href: null }),
  },
  {
    id: 'delete-hello-world',
    title: 'Delete the "Hello world!" post',
    duration: 1,
    priority: 'low',
    badge: null,
    about: 'The sample post of a new site adds nothing for your visitors.',
    cta: () => null,
    done: (site) => !site.store.posts('post').some((p) => p.title === 'Hello world!' && p.status !== 'trash'),
  },
];

function taskJson(site: Site, t: TaskDef, completed: string[]): Json {
  return {
    id: t.id,
    duration: t.duration,
    priority: t.priority,
    badge: t.badge,
    isCompleted: completed.includes(t.id) || Boolean(t.done?.(site)),
    callToAction: t.cta(site),
    title: t.title,
    about: t.about,
  };
}

/**
 * `options.filter`: `completed` or `incomplete` narrows the list, anything else keeps all; `options.limit` keeps the
 * first N.
 */
function getTasks(req: RestRequest): unknown {
  const { site } = req;
  const opts = (req.params.options as { filter?: string; limit?: number } | undefined) ?? {};
  const completed = wpseoGet<string[]>(site, 'task_list_completed', []);
  let list = TASKS.map((t) => taskJson(site, t, completed));
  if (opts.filter === 'completed') list = list.filter((t) => t.isCompleted);
  if (opts.filter === 'incomplete') list = list.filter((t) => !t.isCompleted);
  if (typeof opts.limit === 'number' && opts.limit >= 0) list = list.slice(0, opts.limit);
  return { success: true, tasks: Object.fromEntries(list.map((t) => [t.id, t])) };
}

function completeTask(req: RestRequest): unknown {
  const id = (req.params.options as { task: string }).task;
  if (!TASKS.some((t) => t.id === id)) throw new RawError(404, { success: false, error: 'Task not found' });
  const completed = wpseoGet<string[]>(req.site, 'task_list_completed', []);
  if (!completed.includes(id)) wpseoSet(req.site, { task_list_completed: [...completed, id] });
  return { success: true };
}

export function dashboardRoutes(): RouteDecl[] {
  const manage = needs('wpseo_manage_options');
  const editPosts = needs('edit_posts');
  return [
    route('statistics', endpoint('GET', needs('read'), statistics, {}, 'SEO score statistics of published posts')),
    route(
      'new-content-type-visibility/dismiss-post-type',
      endpoint(
        'POST',
        editPosts,
        dismissNew('post type'),
        {
          postTypeName: { validate: (v) => typeof v === 'string' && POST_TYPES.includes(v) },
        },
        'Remove the "new" badge of a post type',
        ['post_type_name'],
      ),
    ),
    route(
      'new-content-type-visibility/dismiss-taxonomy',
      endpoint(
        'POST',
        editPosts,
        dismissNew('taxonomy'),
        {
          taxonomyName: { validate: (v) => typeof v === 'string' && TAXONOMY_NAMES.includes(v) },
        },
        'Remove the "new" badge of a taxonomy',
        ['taxonomy_name'],
      ),
    ),
    route(
      'kit_configuration_permanent_dismissal',
      endpoint(
        'POST',
        manage,
        (req) => {
          wpseoSet(req.site, { site_kit_configuration_permanently_dismissed: req.params.is_dismissed });
          return { success: true };
        },
        { is_dismissed: { type: 'boolean', required: true } },
        'Dismiss the Site Kit configuration for good',
      ),
    ),
    route(
      'setup_steps_tracking',
      endpoint(
        'POST',
        manage,
        setupStepsTracking,
        {
          setup_widget_loaded: YES_NO,
          first_interaction_stage: STAGE,
          last_interaction_stage: STAGE,
          setup_widget_temporarily_dismissed: YES_NO,
          setup_widget_permanently_dismissed: YES_NO,
        },
        'Track Site Kit setup steps',
        Object.keys(SETUP_STEPS),
      ),
    ),
    route(
      'introductions/(?P<introduction_id>[\\w-]+)/seen',
      endpoint(
        'POST',
        editPosts,
        introductionSeen,
        {
          introduction_id: { type: 'string', required: true },
          is_seen: { type: 'boolean', default: true },
        },
        'Mark an introduction as seen',
      ),
    ),
    route(
      'video_embed_permission',
      endpoint(
        'GET',
        editPosts,
        (req) => ({ json: { value: Boolean(userMeta(req.site, req.user!.id).videoEmbedPermission) } }),
        {},
        "The caller's video embed permission",
      ),
      endpoint(
        'POST',
        editPosts,
        (req) => {
          setUserMeta(req.site, req.user!.id, { videoEmbedPermission: req.params.value as boolean });
          return { json: { success: true } };
        },
        { value: { type: 'boolean', default: true } },
        "Set the caller's video embed permission",
      ),
    ),
    route(
      'alerts/dismiss',
      endpoint(
        'POST',
        editPosts,
        (req) => {
          const user = req.user!;
          setUserMeta(req.site, user.id, {
            dismissedAlerts: {
              ...(userMeta(req.site, user.id).dismissedAlerts ?? {}),
              [req.params.key as string]: true,
            },
          });
          return { success: true, status: 200 };
        },
        { key: { required: true, validate: (v) => typeof v === 'string' && ALERTS.includes(v) } },
        'Dismiss an alert',
      ),
    ),
    route(
      'complete_task',
      endpoint(
        'POST',
        manage,
        completeTask,
        {
          options: { type: 'object', required: true, properties: { task: { type: 'string', required: true } } },
        },
        'Mark a task of the task list as done',
      ),
    ),
    route(
      'get_tasks',
      endpoint(
        'GET',
        manage,
        getTasks,
        {
          options: { type: 'object', properties: { filter: { type: 'string' }, limit: { type: 'integer' } } },
        },
        'The task list',
      ),
    ),
    route(
      'action_tracking',
      endpoint(
        'POST',
        manage,
        actionTracking,
        { action: { type: 'string', required: true } },
        'Record the first time an action happened',
      ),
    ),
  ];
}
