/**
 * `seo/v1` (Yoast SEO and Yoast SEO Premium's yoast/v1; reference
 * site-upstream.md §8 and other-upstream.md §7). The namespace index
 * `GET /seo/v1` is served by root.ts. Routes are listed in the order of
 * spec/routes.tsv. docs/sandbox-seo.md lists what is designed rather than
 * recorded.
 */
import type { RouteDecl } from '../../rest/types.ts';
import type { Site, Storage } from '../../capabilities.ts';
import { setPostSeoMeta } from './analysis.ts';
import { NS, OPT, wpseoSet } from './common.ts';
import { configurationRoutes } from './configuration.ts';
import { dashboardRoutes } from './dashboard.ts';
import { headRoutes } from './head.ts';
import { indexingRoutes } from './indexing.ts';
import { linkRoutes } from './links.ts';
import { DEFAULT_SETTINGS, redirectRoutes } from './redirects.ts';
import { scoreRoutes } from './scores.ts';
import { toolRoutes } from './tools.ts';
import { workoutRoutes } from './workouts.ts';

/** Route paths (after `/seo/v1/`) in the order of spec/routes.tsv. */
const ORDER = [
  'file_size',
  'statistics',
  'new-content-type-visibility/dismiss-post-type',
  'new-content-type-visibility/dismiss-taxonomy',
  'kit_configuration_permanent_dismissal',
  'readability_scores',
  'seo_scores',
  'setup_steps_tracking',
  'introductions/(?P<introduction_id>[\\w-]+)/seen',
  'video_embed_permission',
  'available_posts',
  'alerts/dismiss',
  'configuration/site_representation',
  'configuration/social_profiles',
  'configuration/check_capability',
  'configuration/enable_tracking',
  'configuration/save_configuration_state',
  'configuration/get_configuration_state',
  'import/(?P<plugin>[\\w-]+)/(?P<type>[\\w-]+)',
  'get_head',
  'indexing/posts',
  'indexing/terms',
  'indexing/post-type-archives',
  'indexing/general',
  'indexing/prepare',
  'indexing/indexables-complete',
  'indexing/complete',
  'link-indexing/posts',
  'link-indexing/terms',
  'integrations/set_active',
  'meta/search',
  'keyword_research/authenticate',
  'keyword_research/country_code',
  'keyword_research/related_keyphrases',
  'workouts',
  'complete_task',
  'get_tasks',
  'action_tracking',
  'link_suggestions',
  'prominent_words/get_content',
  'prominent_words/complete',
  'prominent_words/save',
  'workouts/noindex',
  'workouts/remove_redirect',
  'workouts/link_suggestions',
  'workouts/last_updated',
  'workouts/cornerstone_data',
  'workouts/enable_cornerstone',
  'redirects',
  'redirects/delete',
  'redirects/list',
  'redirects/update',
  'redirects/settings',
  'redirects/undo-for-object',
];

export function seoRoutes(_site: Site): RouteDecl[] {
  const routes = [
    ...dashboardRoutes(),
    ...scoreRoutes(),
    ...configurationRoutes(),
    ...toolRoutes(),
    ...headRoutes(),
    ...indexingRoutes(),
    ...workoutRoutes(),
    ...linkRoutes(),
    ...redirectRoutes(),
  ];
  const rank = (r: RouteDecl) => {
    const i = ORDER.indexOf(r.path.slice(NS.length + 2));
    return i < 0 ? ORDER.length : i;
  };
  return routes.sort((a, b) => rank(a) - rank(b));
}

/**
 * Demo data of this namespace; runs once, after the calendar's, on an empty
 * database. Deterministic: it only reads what the seed wrote before it.
 * - Redirects of both formats and all five types (plain ones first).
 * - Focus keyphrases on every other published event, half of them taken from
 *   the title (ok SEO score) and half not (bad), so the scores vary; two
 *   cornerstone events and one noindex event.
 * - "New" content types, the redirect settings, empty configuration and
 *   workouts state.
 */
export function seedSeo(site: Storage): void {
  const { store } = site;
  const events = store.posts('calendar_events', ['publish']).filter((e) => !e.password);
  const first = events[0];
  store.setOption(OPT.redirects, [
    { origin: 'old-summer-festival', url: first ? `event/${first.slug}` : 'events', type: 301, format: 'plain' },
    { origin: 'calendar-2023', url: 'events', type: 302, format: 'plain' },
    { origin: 'box-office', url: 'https://tickets.example/box-office', type: 307, format: 'plain' },
    { origin: 'retired-venue', url: '', type: 410, format: 'plain' },
    { origin: 'legal/withdrawn-page', url: '', type: 451, format: 'plain' },
    { origin: '^/blog/(\\d+)/?$', url: '?p=$1', type: 301, format: 'regex' },
    { origin: '^/old-events/(.*)$', url: 'event/$1', type: 301, format: 'regex' },
  ]);
  store.setOption(OPT.redirectSettings, { ...DEFAULT_SETTINGS });
  events.forEach((e, i) => {
    if (i % 2 !== 0) return;
    const titleWord = e.title.split(/\s+/)[0]!.toLowerCase();
    setPostSeoMeta(site, e.id, { focuskw: i % 4 === 0 ? titleWord : 'tickets' });
  });
  for (const e of events.slice(1, 3)) setPostSeoMeta(site, e.id, { cornerstone: true });
  if (events[3]) setPostSeoMeta(site, events[3].id, { noindex: true });
  wpseoSet(site, {
    new_post_types: ['calendar_event_series'],
    new_taxonomies: ['calendar_events_cat'],
    show_new_content_type_notification: true,
    configuration_finished_steps: [],
    first_time_install: true,
    tracking: false,
    workouts_data: { configuration: { finishedSteps: [] } },
  });
}
