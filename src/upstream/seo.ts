/**
 * `seo/v1` (Yoast SEO's `yoast/v1`, renamed): the only place its paths and
 * parameters are built (reference/site-upstream.md §8, other-upstream.md §7,
 * docs/sandbox-seo.md). Functions return the body as received; mapping/seo.ts
 * reads it. Many of these routes answer failures inside an HTTP 200 body
 * (`{success:false}`, `{json:{success:false}}`): those are returned, not
 * thrown, so the graph can show them as data.
 */
import type { QueryValue, UpstreamSession } from './client.ts';
import { GatewayError, fromUpstreamResponse } from './errors.ts';
import type { RouteUse } from './route-use.ts';
import type { WriteRequest } from './batch.ts';

const NS = '/seo/v1';

const Q = 'Query.seo';
const M = 'Mutation.seo';

/** Every `seo/v1` row of spec/routes.tsv but the index (which `Query.namespace` reads), and the field that reaches it. */
export const SEO_ROUTES: RouteUse[] = [
  { method: 'GET', path: '/seo/v1/file_size', field: `${Q}.fileSize` },
  { method: 'GET', path: '/seo/v1/statistics', field: `${Q}.statistics` },
  { method: 'POST', path: '/seo/v1/new-content-type-visibility/dismiss-post-type', field: `${M}.dismissNewPostType` },
  { method: 'POST', path: '/seo/v1/new-content-type-visibility/dismiss-taxonomy', field: `${M}.dismissNewTaxonomy` },
  { method: 'POST', path: '/seo/v1/kit_configuration_permanent_dismissal', field: `${M}.setKitConfigurationDismissed` },
  { method: 'GET', path: '/seo/v1/readability_scores', field: `${Q}.readabilityScores` },
  { method: 'GET', path: '/seo/v1/seo_scores', field: `${Q}.seoScores` },
  { method: 'POST', path: '/seo/v1/setup_steps_tracking', field: `${M}.trackSetupSteps` },
  { method: 'POST', path: '/seo/v1/introductions/<introduction_id>/seen', field: `${M}.markIntroductionSeen` },
  { method: 'GET', path: '/seo/v1/video_embed_permission', field: `${Q}.videoEmbedPermission` },
  { method: 'POST', path: '/seo/v1/video_embed_permission', field: `${M}.setVideoEmbedPermission` },
  { method: 'GET', path: '/seo/v1/available_posts', field: `${Q}.availablePosts` },
  { method: 'POST', path: '/seo/v1/alerts/dismiss', field: `${M}.dismissAlert` },
  { method: 'POST', path: '/seo/v1/configuration/site_representation', field: `${M}.setSiteRepresentation` },
  { method: 'POST', path: '/seo/v1/configuration/social_profiles', field: `${M}.setSocialProfiles` },
  { method: 'GET', path: '/seo/v1/configuration/check_capability', field: `${Q}.canEditUser` },
  { method: 'POST', path: '/seo/v1/configuration/enable_tracking', field: `${M}.enableTracking` },
  { method: 'POST', path: '/seo/v1/configuration/save_configuration_state', field: `${M}.saveConfigurationState` },
  { method: 'GET', path: '/seo/v1/configuration/get_configuration_state', field: `${Q}.configurationState` },
  { method: 'POST', path: '/seo/v1/import/<plugin>/<type>', field: `${M}.runImport` },
  { method: 'GET', path: '/seo/v1/get_head', field: `${Q}.head` },
  { method: 'POST', path: '/seo/v1/indexing/posts', field: `${M}.runIndexing(action: POSTS)` },
  { method: 'POST', path: '/seo/v1/indexing/terms', field: `${M}.runIndexing(action: TERMS)` },
  { method: 'POST', path: '/seo/v1/indexing/post-type-archives', field: `${M}.runIndexing(action: POST_TYPE_ARCHIVES)` },
  { method: 'POST', path: '/seo/v1/indexing/general', field: `${M}.runIndexing(action: GENERAL)` },
  { method: 'POST', path: '/seo/v1/indexing/prepare', field: `${M}.runIndexing(action: PREPARE)` },
  { method: 'POST', path: '/seo/v1/indexing/indexables-complete', field: `${M}.runIndexing(action: INDEXABLES_COMPLETE)` },
  { method: 'POST', path: '/seo/v1/indexing/complete', field: `${M}.runIndexing(action: COMPLETE)` },
  { method: 'POST', path: '/seo/v1/link-indexing/posts', field: `${M}.runIndexing(action: LINK_POSTS)` },
  { method: 'POST', path: '/seo/v1/link-indexing/terms', field: `${M}.runIndexing(action: LINK_TERMS)` },
  { method: 'POST', path: '/seo/v1/integrations/set_active', field: `${M}.setIntegrationActive` },
  { method: 'GET', path: '/seo/v1/meta/search', field: `${Q}.postMeta` },
  { method: 'POST', path: '/seo/v1/keyword_research/authenticate', field: `${M}.authenticateKeywordResearch` },
  { method: 'POST', path: '/seo/v1/keyword_research/country_code', field: `${M}.setKeywordResearchCountry` },
  { method: 'GET', path: '/seo/v1/keyword_research/related_keyphrases', field: `${Q}.relatedKeyphrases` },
  { method: 'GET', path: '/seo/v1/workouts', field: `${Q}.workouts` },
  { method: 'POST', path: '/seo/v1/workouts', field: `${M}.saveWorkouts` },
  { method: 'POST', path: '/seo/v1/complete_task', field: `${M}.completeTask` },
  { method: 'GET', path: '/seo/v1/get_tasks', field: `${Q}.tasks` },
  { method: 'POST', path: '/seo/v1/action_tracking', field: `${M}.trackAction` },
  { method: 'GET', path: '/seo/v1/link_suggestions', field: `${Q}.linkSuggestions` },
  { method: 'POST', path: '/seo/v1/prominent_words/get_content', field: `${M}.prominentWordsContent` },
  { method: 'POST', path: '/seo/v1/prominent_words/complete', field: `${M}.completeProminentWords` },
  { method: 'POST', path: '/seo/v1/prominent_words/save', field: `${M}.saveProminentWords` },
  { method: 'POST', path: '/seo/v1/workouts/noindex', field: `${M}.workoutNoindex` },
  { method: 'POST', path: '/seo/v1/workouts/remove_redirect', field: `${M}.workoutRemoveAndRedirect` },
  { method: 'GET', path: '/seo/v1/workouts/link_suggestions', field: `${Q}.workoutLinkSuggestions` },
  { method: 'GET', path: '/seo/v1/workouts/last_updated', field: `${Q}.lastUpdated` },
  { method: 'GET', path: '/seo/v1/workouts/cornerstone_data', field: `${Q}.cornerstoneData` },
  { method: 'POST', path: '/seo/v1/workouts/enable_cornerstone', field: `${M}.enableCornerstone` },
  { method: 'POST', path: '/seo/v1/redirects', field: `${M}.createRedirect, ${M}.importRedirects` },
  { method: 'POST', path: '/seo/v1/redirects/delete', field: `${M}.deleteRedirect` },
  { method: 'GET', path: '/seo/v1/redirects/list', field: `${Q}.redirects` },
  { method: 'PUT', path: '/seo/v1/redirects/update', field: `${M}.updateRedirect` },
  { method: 'GET', path: '/seo/v1/redirects/settings', field: `${Q}.redirectSettings` },
  { method: 'PUT', path: '/seo/v1/redirects/settings', field: `${M}.updateRedirectSettings` },
  { method: 'POST', path: '/seo/v1/redirects/undo-for-object', field: `${M}.undoRedirectsForObject` },
];

type Body = Record<string, unknown>;

/** A GET of `/seo/v1/<path>`; the route label is the spec path. */
async function get(s: UpstreamSession, path: string, query?: Record<string, QueryValue>, route = `GET ${NS}/${path}`): Promise<unknown> {
  return (await s.request({ method: 'GET', path: `${NS}/${path}`, query, route })).body;
}

/** A write to `/seo/v1/<path>` with a JSON body (writes are never retried by the client). */
async function send(s: UpstreamSession, method: 'POST' | 'PUT', path: string, body: Body = {}, route = `${method} ${NS}/${path}`): Promise<unknown> {
  return (await s.request({ method, path: `${NS}/${path}`, body, route })).body;
}

/** Drops undefined values, so optional arguments the caller left out are not sent (the site applies its defaults). */
function defined(o: Body): Body {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

// ---------------------------------------------------------------------------
// Redirects (site-upstream.md §8)

export type RedirectFormatParam = 'plain' | 'regex';

export interface RedirectParams {
  origin: string;
  target?: string | null;
  type: number;
  format: RedirectFormatParam;
}

/** The answer of a redirect write: Yoast's plain body and the HTTP status it came with. */
export interface RedirectWrite {
  status: number;
  body: unknown;
}

/**
 * Redirect writes answer validation and store failures with plain bodies
 * `{title, message, success:false, fields?, type?}`, with HTTP 200 (create)
 * or 400 (update, delete, store failures): those come back as data. Any other
 * 400 (core `rest_invalid_param`, ...) and every other status are errors.
 */
async function redirectWrite(s: UpstreamSession, method: 'POST' | 'PUT', path: string, body: Body): Promise<RedirectWrite> {
  const route = `${method} ${NS}/${path}`;
  const res = await s.request({ method, path: `${NS}/${path}`, body, route, okStatuses: (st) => (st >= 200 && st < 300) || st === 400 });
  if (res.status === 400 && !isYoastRedirectBody(res.body)) throw fromUpstreamResponse(res.status, res.body, route, res.headers);
  return { status: res.status, body: res.body };
}

function isYoastRedirectBody(b: unknown): boolean {
  return typeof b === 'object' && b !== null && !Array.isArray(b) && (b as Body).success === false && typeof (b as Body).title === 'string';
}

export function listRedirects(s: UpstreamSession, format: RedirectFormatParam): Promise<unknown> {
  return get(s, 'redirects/list', { format });
}

/** The create request of one redirect, for the bulk writer (src/upstream/batch.ts). */
export function createRedirectRequest(r: RedirectParams, ignoreWarning: boolean): WriteRequest {
  return {
    method: 'POST',
    path: `${NS}/redirects`,
    body: defined({ origin: r.origin, target: r.target ?? '', type: r.type, format: r.format, ignore_warning: ignoreWarning }),
    route: `POST ${NS}/redirects`,
  };
}

export function createRedirect(s: UpstreamSession, r: RedirectParams, ignoreWarning: boolean): Promise<RedirectWrite> {
  return redirectWrite(s, 'POST', 'redirects', defined({ origin: r.origin, target: r.target ?? '', type: r.type, format: r.format, ignore_warning: ignoreWarning }));
}

export function updateRedirect(s: UpstreamSession, from: RedirectParams, to: RedirectParams, ignoreWarning: boolean): Promise<RedirectWrite> {
  return redirectWrite(s, 'PUT', 'redirects/update', {
    old_origin: from.origin,
    old_target: from.target ?? '',
    old_type: from.type,
    new_origin: to.origin,
    new_target: to.target ?? '',
    new_type: to.type,
    // One format for both: the route has a single `format`.
    format: to.format,
    ignore_warning: ignoreWarning,
  });
}

/** Matching is by origin only (site-upstream.md §8). */
export function deleteRedirect(s: UpstreamSession, origin: string, format: RedirectFormatParam): Promise<RedirectWrite> {
  return redirectWrite(s, 'POST', 'redirects/delete', { origin, format });
}

export function undoRedirectsForObject(s: UpstreamSession, objId: number, objType: 'post' | 'term'): Promise<RedirectWrite> {
  return redirectWrite(s, 'POST', 'redirects/undo-for-object', { obj_id: objId, obj_type: objType });
}

export function redirectSettings(s: UpstreamSession): Promise<unknown> {
  return get(s, 'redirects/settings');
}

export function updateRedirectSettings(s: UpstreamSession, disablePhpRedirect: boolean, separateFile: boolean): Promise<unknown> {
  const onOff = (v: boolean) => (v ? 'on' : 'off');
  return send(s, 'PUT', 'redirects/settings', { disable_php_redirect: onOff(disablePhpRedirect), separate_file: onOff(separateFile) });
}

// ---------------------------------------------------------------------------
// Scores, statistics, tools

export function statistics(s: UpstreamSession): Promise<unknown> {
  return get(s, 'statistics');
}

export interface ScoresParams {
  contentType: string;
  taxonomy?: string | null;
  term?: number | null;
  troubleshooting?: boolean | null;
}

export function scores(s: UpstreamSession, kind: 'seo' | 'readability', p: ScoresParams): Promise<unknown> {
  return get(s, `${kind}_scores`, {
    contentType: p.contentType,
    taxonomy: p.taxonomy ?? undefined,
    term: p.term ?? undefined,
    troubleshooting: p.troubleshooting ?? undefined,
  });
}

export function fileSize(s: UpstreamSession, url: string): Promise<unknown> {
  return get(s, 'file_size', { url });
}

export function availablePosts(s: UpstreamSession, search: string, postType: string): Promise<unknown> {
  return get(s, 'available_posts', { search, postType });
}

/** Yoast answers HTTP 200 with `{success:false, status:403}` when the caller may not edit the user: returned as data. */
export function checkCapability(s: UpstreamSession, userId: number): Promise<unknown> {
  return get(s, 'configuration/check_capability', { user_id: userId });
}

export function configurationState(s: UpstreamSession): Promise<unknown> {
  return get(s, 'configuration/get_configuration_state');
}

/** `get_head` answers the not-found page's head with HTTP 404: that is data, not an error. */
export async function head(s: UpstreamSession, url: string): Promise<{ status: number; body: unknown }> {
  const route = `GET ${NS}/get_head`;
  const res = await s.request({ method: 'GET', path: `${NS}/get_head`, query: { url }, route, okStatuses: (st) => (st >= 200 && st < 300) || st === 404 });
  const b = res.body as Body | null;
  // A 404 without the head body (a site without headless REST endpoints) is a real "no route".
  if (res.status === 404 && !(b && typeof b === 'object' && 'html' in b)) throw fromUpstreamResponse(res.status, res.body, route, res.headers);
  return { status: res.status, body: res.body };
}

export function videoEmbedPermission(s: UpstreamSession): Promise<unknown> {
  return get(s, 'video_embed_permission');
}

/** The spec declares no parameters; Yoast's handler reads `post_id` and `query` (other-upstream.md §7). */
export function metaSearch(s: UpstreamSession, postId: number, query: string): Promise<unknown> {
  return get(s, 'meta/search', { post_id: postId, query });
}

export function relatedKeyphrases(s: UpstreamSession, keyphrase: string, countryCode: string): Promise<unknown> {
  return get(s, 'keyword_research/related_keyphrases', { keyphrase, country_code: countryCode });
}

/** `options` is an object parameter of a GET: sent PHP-style as `options[filter]`, `options[limit]`. */
export function tasks(s: UpstreamSession, filter: string | undefined, limit: number | undefined): Promise<unknown> {
  return get(s, 'get_tasks', { 'options[filter]': filter, 'options[limit]': limit });
}

/** `prominent_words` is a `{stem: weight}` object of a GET: sent as `prominent_words[<stem>]=<weight>`. */
export function linkSuggestions(
  s: UpstreamSession,
  p: { prominentWords: { stem: string; weight: number }[]; objectId: number; objectType: string; limit: number },
): Promise<unknown> {
  const query: Record<string, QueryValue> = { object_id: p.objectId, object_type: p.objectType, limit: p.limit };
  for (const w of p.prominentWords) query[`prominent_words[${w.stem}]`] = w.weight;
  return get(s, 'link_suggestions', query);
}

export function workouts(s: UpstreamSession): Promise<unknown> {
  return get(s, 'workouts');
}

export function workoutLinkSuggestions(s: UpstreamSession, indexableId: number): Promise<unknown> {
  return get(s, 'workouts/link_suggestions', { indexableId });
}

export function lastUpdated(s: UpstreamSession, postId: number): Promise<unknown> {
  return get(s, 'workouts/last_updated', { postId });
}

export function cornerstoneData(s: UpstreamSession): Promise<unknown> {
  return get(s, 'workouts/cornerstone_data');
}

// ---------------------------------------------------------------------------
// Writes: notices, configuration, tracking

/**
 * The declared argument is `postTypeName` (validated: the type must exist),
 * but Yoast's callback reads `post_type_name` (other-upstream.md §7): both are
 * sent, so the badge is really dismissed.
 */
export function dismissNewPostType(s: UpstreamSession, name: string): Promise<unknown> {
  return send(s, 'POST', 'new-content-type-visibility/dismiss-post-type', { postTypeName: name, post_type_name: name });
}

/** As `dismissNewPostType`: `taxonomyName` is validated, `taxonomy_name` is read. */
export function dismissNewTaxonomy(s: UpstreamSession, name: string): Promise<unknown> {
  return send(s, 'POST', 'new-content-type-visibility/dismiss-taxonomy', { taxonomyName: name, taxonomy_name: name });
}

export function kitConfigurationDismissal(s: UpstreamSession, isDismissed: boolean): Promise<unknown> {
  return send(s, 'POST', 'kit_configuration_permanent_dismissal', { is_dismissed: isDismissed });
}

export interface SetupSteps {
  setupWidgetLoaded?: 'yes' | 'no';
  setupWidgetTemporarilyDismissed?: 'yes' | 'no';
  setupWidgetPermanentlyDismissed?: 'yes' | 'no';
  firstInteractionStage?: string;
  lastInteractionStage?: string;
}

/**
 * The arguments are declared (and validated) in snake_case, but Yoast's
 * handler reads the camelCase names (other-upstream.md §7): both are sent.
 */
export function setupStepsTracking(s: UpstreamSession, p: SetupSteps): Promise<unknown> {
  return send(s, 'POST', 'setup_steps_tracking', defined({
    ...p,
    setup_widget_loaded: p.setupWidgetLoaded,
    setup_widget_temporarily_dismissed: p.setupWidgetTemporarilyDismissed,
    setup_widget_permanently_dismissed: p.setupWidgetPermanentlyDismissed,
    first_interaction_stage: p.firstInteractionStage,
    last_interaction_stage: p.lastInteractionStage,
  }));
}

/** An unknown introduction answers 400 with the body `[]`; the caller's error then says which one. */
export async function introductionSeen(s: UpstreamSession, id: string, isSeen: boolean): Promise<unknown> {
  const route = `POST ${NS}/introductions/<introduction_id>/seen`;
  const res = await s.request({
    method: 'POST',
    path: `${NS}/introductions/${encodeURIComponent(id)}/seen`,
    body: { is_seen: isSeen },
    route,
    okStatuses: (st) => (st >= 200 && st < 300) || st === 400,
  });
  if (res.status === 400) {
    if (Array.isArray(res.body) && res.body.length === 0) {
      throw GatewayError.badInput(`The site does not know the introduction ${JSON.stringify(id)}.`, {
        upstream: { code: null, status: 400, route },
        arguments: ['id'],
      });
    }
    // `{json:{success:false}}` (the save failed) is data; anything else is an error.
    const b = res.body as Body | null;
    if (!(b && typeof b === 'object' && 'json' in b)) throw fromUpstreamResponse(res.status, res.body, route, res.headers);
  }
  return res.body;
}

export function setVideoEmbedPermission(s: UpstreamSession, value: boolean): Promise<unknown> {
  return send(s, 'POST', 'video_embed_permission', { value });
}

export function dismissAlert(s: UpstreamSession, key: string): Promise<unknown> {
  return send(s, 'POST', 'alerts/dismiss', { key });
}

export interface SiteRepresentation {
  company_or_person: 'company' | 'person';
  company_name?: string;
  company_logo?: string;
  company_logo_id?: number;
  person_logo?: string;
  person_logo_id?: number;
  company_or_person_user_id?: number;
  description?: string;
}

export function siteRepresentation(s: UpstreamSession, p: SiteRepresentation): Promise<unknown> {
  return send(s, 'POST', 'configuration/site_representation', defined({ ...p }));
}

/** Always HTTP 200; a failure is `{json:{success:false, failures}}`. */
export function socialProfiles(s: UpstreamSession, p: { social_site_a?: string; social_site_b?: string; other_social_urls?: string[] }): Promise<unknown> {
  return send(s, 'POST', 'configuration/social_profiles', defined({ ...p }));
}

export function enableTracking(s: UpstreamSession, tracking: boolean): Promise<unknown> {
  return send(s, 'POST', 'configuration/enable_tracking', { tracking });
}

export function saveConfigurationState(s: UpstreamSession, finishedSteps: string[]): Promise<unknown> {
  return send(s, 'POST', 'configuration/save_configuration_state', { finishedSteps });
}

export function runImport(s: UpstreamSession, plugin: string, type: string): Promise<unknown> {
  return send(s, 'POST', `import/${encodeURIComponent(plugin)}/${encodeURIComponent(type)}`, {}, `POST ${NS}/import/<plugin>/<type>`);
}

/** The graph's indexing actions and their routes. */
export const INDEXING_PATHS = {
  POSTS: 'indexing/posts',
  TERMS: 'indexing/terms',
  POST_TYPE_ARCHIVES: 'indexing/post-type-archives',
  GENERAL: 'indexing/general',
  PREPARE: 'indexing/prepare',
  INDEXABLES_COMPLETE: 'indexing/indexables-complete',
  COMPLETE: 'indexing/complete',
  LINK_POSTS: 'link-indexing/posts',
  LINK_TERMS: 'link-indexing/terms',
} as const;

export function runIndexing(s: UpstreamSession, action: keyof typeof INDEXING_PATHS): Promise<unknown> {
  return send(s, 'POST', INDEXING_PATHS[action]);
}

/** Always HTTP 200; an unknown integration is `{json:{success:false, status:500, error}}`. */
export function setIntegrationActive(s: UpstreamSession, integration: string, active: boolean): Promise<unknown> {
  return send(s, 'POST', 'integrations/set_active', { integration, active });
}

/**
 * A refused authorization code answers 401 `{tokens: [], error, status: 401}`
 * (other-upstream.md §7): that is about the code, not the caller's
 * credentials, so it is data. A core `rest_forbidden` 401 stays an error.
 */
export async function keywordResearchAuthenticate(s: UpstreamSession, code: string): Promise<unknown> {
  const route = `POST ${NS}/keyword_research/authenticate`;
  const res = await s.request({ method: 'POST', path: `${NS}/keyword_research/authenticate`, body: { code }, route, okStatuses: (st) => (st >= 200 && st < 300) || st === 401 });
  const b = res.body as Body | null;
  if (res.status === 401 && !(b && typeof b === 'object' && 'tokens' in b)) throw fromUpstreamResponse(res.status, res.body, route, res.headers);
  return res.body;
}

export function keywordResearchCountry(s: UpstreamSession, countryCode: string): Promise<unknown> {
  return send(s, 'POST', 'keyword_research/country_code', { country_code: countryCode });
}

export function saveWorkouts(s: UpstreamSession, cornerstone: Body, orphaned: Body): Promise<unknown> {
  return send(s, 'POST', 'workouts', { cornerstone, orphaned });
}

export function completeTask(s: UpstreamSession, task: string): Promise<unknown> {
  return send(s, 'POST', 'complete_task', { options: { task } });
}

export function actionTracking(s: UpstreamSession, action: string): Promise<unknown> {
  return send(s, 'POST', 'action_tracking', { action });
}

export function prominentWordsContent(s: UpstreamSession): Promise<unknown> {
  return send(s, 'POST', 'prominent_words/get_content');
}

export function prominentWordsComplete(s: UpstreamSession): Promise<unknown> {
  return send(s, 'POST', 'prominent_words/complete');
}

export function prominentWordsSave(s: UpstreamSession, data: { object_id: number; prominent_words: Record<string, number> }[]): Promise<unknown> {
  return send(s, 'POST', 'prominent_words/save', { data });
}

export function workoutNoindex(s: UpstreamSession, p: { object_id: number; object_type: string; object_sub_type: string }): Promise<unknown> {
  return send(s, 'POST', 'workouts/noindex', { ...p });
}

export function workoutRemoveRedirect(
  s: UpstreamSession,
  p: { object_id: number; object_type: string; object_sub_type: string; permalink: string; redirect_url: string },
): Promise<unknown> {
  return send(s, 'POST', 'workouts/remove_redirect', { ...p });
}

export function enableCornerstone(s: UpstreamSession, p: { object_id: number; object_type: string }): Promise<unknown> {
  return send(s, 'POST', 'workouts/enable_cornerstone', { ...p });
}
