/**
 * `seo/v1` (Yoast SEO's `yoast/v1`, renamed) as data: one declaration per
 * route of spec/routes.tsv (but the index, which `Query.namespace` reads),
 * keyed by the SeoQuery / SeoMutation field it serves. src/routes/declare.ts
 * derives the upstream request, the resolver and the route-coverage row from
 * each; mapping.ts reads the bodies (docs/sandbox-seo.md says what the
 * sandbox decides where Yoast is silent).
 *
 * Many of these routes answer failures inside an HTTP 200 body
 * (`{success:false}`, `{json:{success:false}}`): those are data, mapped by
 * `actionResult` and friends. The few that answer data with another status
 * say so in `dataStatus`.
 *
 * Hand-written, because the logic is real: `redirects` calls its route once
 * per format when none is given (`resolve`), and `importRedirects` sends the
 * `createRedirect` request of each input through the bulk writer
 * (resolvers.ts).
 */
import type {
  RedirectInput,
  SeoIndexingAction,
  SeoMutationResolvers,
  SeoQueryResolvers,
  SeoQueryReadabilityScoresArgs,
} from '../../generated/graphql.ts';
import * as map from './mapping.ts';
import { isJson } from '../../mapping/json.ts';
import { GatewayError } from '../../errors.ts';
import type { RouteUse } from '../../routes/route-use.ts';
import { byArg, routeRows, type FieldRoute, type FieldRoutes, type RouteDecl } from '../../routes/declare.ts';

/** A body that is an object with this key (`'html' in body`), the mark of Yoast's data answers at a non-2xx status. */
const hasKey =
  (key: string) =>
  (b: unknown): boolean =>
    typeof b === 'object' && b !== null && key in b;

/**
 * Redirect writes answer validation and store failures with plain bodies
 * `{title, message, success:false, fields?, type?}`, with HTTP 200 (create)
 * or 400 (update, delete, store failures): those are data. Any other 400
 * (core `rest_invalid_param`, ...) and every other status are errors.
 */
const REDIRECT_ANSWER = {
  status: 400,
  isData: (b: unknown) => isJson(b) && b.success === false && typeof b.title === 'string',
};

const redirectResult = (body: unknown, { status }: { status: number }) => map.redirectResult({ status, body });

/** Redirect types 410 and 451 need no target; the others do (Yoast's presence rule, checked before any call). */
export function checkTarget(input: Pick<RedirectInput, 'target' | 'type'>, arg: string): void {
  const needsTarget = input.type !== 'GONE' && input.type !== 'UNAVAILABLE_FOR_LEGAL_REASONS';
  if (needsTarget && !input.target)
    throw GatewayError.badInput(`${arg}.target is required for redirect type ${input.type}`, {
      arguments: [`${arg}.target`],
    });
}

/** Path segments the site takes as names: checked here, so a bad one is the caller's error, not a 404. */
const NAME = /^[\w-]+$/;

/** Both score routes take the same query. */
function scoresRoute(path: string): RouteDecl<SeoQueryReadabilityScoresArgs, ReturnType<typeof map.scoreSummary>> {
  return {
    method: 'GET',
    path,
    query: (a) => ({
      contentType: a.contentType,
      taxonomy: a.taxonomy ?? undefined,
      term: a.term ?? undefined,
      troubleshooting: a.troubleshooting ?? undefined,
    }),
    result: map.scoreSummary,
  };
}

export const SEO_QUERY_ROUTES: FieldRoutes<SeoQueryResolvers> = {
  redirects: {
    method: 'GET',
    path: '/seo/v1/redirects/list',
    query: (a) => ({ format: map.formatParam(a.format) }),
    result: map.redirectList,
    // The site lists one format per request: no format means both, one request each.
    resolve: async (a, call) => {
      const formats = a.format ? [a.format] : (['PLAIN', 'REGEX'] as const);
      const lists = await Promise.all(formats.map((format) => call({ ...a, format })));
      return lists.flatMap((l) => l ?? []);
    },
  },
  redirectSettings: { method: 'GET', path: '/seo/v1/redirects/settings', result: map.redirectSettings },
  statistics: { method: 'GET', path: '/seo/v1/statistics', result: map.statistics },
  seoScores: scoresRoute('/seo/v1/seo_scores'),
  readabilityScores: scoresRoute('/seo/v1/readability_scores'),
  fileSize: {
    method: 'GET',
    path: '/seo/v1/file_size',
    query: (a) => ({ url: a.url }),
    result: (b, { args }) => map.fileSize(args.url, b),
  },
  availablePosts: {
    method: 'GET',
    path: '/seo/v1/available_posts',
    query: (a) => ({ search: a.search ?? '', postType: a.postType ?? 'page' }),
    result: map.availablePosts,
  },
  /** Yoast answers HTTP 200 with `{success:false, status:403}` when the caller may not edit the user: data (false). */
  canEditUser: {
    method: 'GET',
    path: '/seo/v1/configuration/check_capability',
    query: (a) => ({ user_id: a.userId }),
    result: map.capability,
  },
  configurationState: {
    method: 'GET',
    path: '/seo/v1/configuration/get_configuration_state',
    result: map.configurationState,
  },
  head: {
    method: 'GET',
    path: '/seo/v1/get_head',
    check: (a) => {
      if (!/^https?:\/\//i.test(a.url))
        throw GatewayError.badInput('head: url must be an absolute http(s) URL of this site', { arguments: ['url'] });
    },
    query: (a) => ({ url: a.url }),
    // The not-found page's head comes with HTTP 404: data. A 404 without the head body
    // (a site without headless REST endpoints) is a real "no route".
    dataStatus: { status: 404, isData: hasKey('html') },
    result: (b, { status }) => map.head(status, b),
  },
  videoEmbedPermission: { method: 'GET', path: '/seo/v1/video_embed_permission', result: map.videoEmbedPermission },
  /** The spec declares no parameters; Yoast's handler reads `post_id` and `query`. */
  postMeta: {
    method: 'GET',
    path: '/seo/v1/meta/search',
    query: (a) => ({ post_id: a.postId, query: a.query ?? '' }),
    result: map.metaFields,
  },
  relatedKeyphrases: {
    method: 'GET',
    path: '/seo/v1/keyword_research/related_keyphrases',
    query: (a) => ({ keyphrase: a.keyphrase, country_code: a.countryCode }),
    result: map.keyphrases,
  },
  tasks: {
    method: 'GET',
    path: '/seo/v1/get_tasks',
    check: (a) => {
      if (a.limit != null && a.limit < 0)
        throw GatewayError.badInput('tasks: limit must be >= 0', { arguments: ['limit'] });
    },
    // `options` is an object parameter of a GET: sent PHP-style as `options[filter]`, `options[limit]`.
    query: (a) => ({
      'options[filter]': a.filter ? a.filter.toLowerCase() : undefined,
      'options[limit]': a.limit ?? undefined,
    }),
    result: map.tasks,
  },
  linkSuggestions: {
    method: 'GET',
    path: '/seo/v1/link_suggestions',
    check: (a) => {
      if (!a.prominentWords.length)
        throw GatewayError.badInput('linkSuggestions: prominentWords must not be empty', {
          arguments: ['prominentWords'],
        });
    },
    // `prominent_words` is a `{stem: weight}` object of a GET: sent as `prominent_words[<stem>]=<weight>`.
    query: (a) => ({
      object_id: a.objectId,
      object_type: a.objectType,
      limit: a.limit ?? 5,
      ...Object.fromEntries(a.prominentWords.map((w) => [`prominent_words[${w.stem}]`, w.weight])),
    }),
    result: map.linkSuggestions,
  },
  workouts: { method: 'GET', path: '/seo/v1/workouts', result: map.workouts },
  workoutLinkSuggestions: {
    method: 'GET',
    path: '/seo/v1/workouts/link_suggestions',
    query: (a) => ({ indexableId: a.indexableId }),
    result: map.workoutLinkSuggestions,
  },
  lastUpdated: {
    method: 'GET',
    path: '/seo/v1/workouts/last_updated',
    query: (a) => ({ postId: a.postId }),
    result: map.lastUpdated,
  },
  cornerstoneData: { method: 'GET', path: '/seo/v1/workouts/cornerstone_data', result: map.cornerstoneData },
};

/** Also the request of each item of `importRedirects` (resolvers.ts), so both send the same body. */
export const CREATE_REDIRECT: FieldRoute<SeoMutationResolvers, 'createRedirect'> = {
  method: 'POST',
  path: '/seo/v1/redirects',
  check: (a) => checkTarget(a.input, 'input'),
  body: (a) => {
    const r = map.redirectParams(a.input);
    return {
      origin: r.origin,
      target: r.target ?? '',
      type: r.type,
      format: r.format,
      ignore_warning: a.ignoreWarning ?? false,
    };
  },
  dataStatus: REDIRECT_ANSWER,
  result: redirectResult,
  alsoReachedBy: ['importRedirects'],
};

/** The graph's indexing actions and their routes. */
const INDEXING_PATHS: Record<SeoIndexingAction, string> = {
  POSTS: '/seo/v1/indexing/posts',
  TERMS: '/seo/v1/indexing/terms',
  POST_TYPE_ARCHIVES: '/seo/v1/indexing/post-type-archives',
  GENERAL: '/seo/v1/indexing/general',
  PREPARE: '/seo/v1/indexing/prepare',
  INDEXABLES_COMPLETE: '/seo/v1/indexing/indexables-complete',
  COMPLETE: '/seo/v1/indexing/complete',
  LINK_POSTS: '/seo/v1/link-indexing/posts',
  LINK_TERMS: '/seo/v1/link-indexing/terms',
};

const onOff = (v: boolean) => (v ? 'on' : 'off');

export const SEO_MUTATION_ROUTES: FieldRoutes<SeoMutationResolvers> = {
  createRedirect: CREATE_REDIRECT,
  updateRedirect: {
    method: 'PUT',
    path: '/seo/v1/redirects/update',
    check: (a) => {
      if ((a.from.format ?? 'PLAIN') !== (a.to.format ?? 'PLAIN')) {
        throw GatewayError.badInput(
          'updateRedirect: from.format and to.format must be the same (the site updates within one format)',
          { arguments: ['from.format', 'to.format'] },
        );
      }
      checkTarget(a.to, 'to');
    },
    body: (a) => {
      const [from, to] = [map.redirectParams(a.from), map.redirectParams(a.to)];
      return {
        old_origin: from.origin,
        old_target: from.target ?? '',
        old_type: from.type,
        new_origin: to.origin,
        new_target: to.target ?? '',
        new_type: to.type,
        // One format for both: the route has a single `format`.
        format: to.format,
        ignore_warning: a.ignoreWarning ?? false,
      };
    },
    dataStatus: REDIRECT_ANSWER,
    result: redirectResult,
  },
  /** Matching is by origin only. */
  deleteRedirect: {
    method: 'POST',
    path: '/seo/v1/redirects/delete',
    body: (a) => ({ origin: a.origin, format: map.formatParam(a.format) }),
    dataStatus: REDIRECT_ANSWER,
    result: redirectResult,
  },
  updateRedirectSettings: {
    method: 'PUT',
    path: '/seo/v1/redirects/settings',
    body: (a) => ({ disable_php_redirect: onOff(a.disablePhpRedirect), separate_file: onOff(a.separateFile) }),
    result: map.redirectSettings,
  },
  undoRedirectsForObject: {
    method: 'POST',
    path: '/seo/v1/redirects/undo-for-object',
    body: (a) => ({ obj_id: a.objectId, obj_type: a.kind === 'TERM' ? 'term' : 'post' }),
    dataStatus: REDIRECT_ANSWER,
    result: redirectResult,
  },

  /**
   * The declared argument is `postTypeName` (validated: the type must exist),
   * but Yoast's callback reads `post_type_name`: both are
   * sent, so the badge is really dismissed.
   */
  dismissNewPostType: {
    method: 'POST',
    path: '/seo/v1/new-content-type-visibility/dismiss-post-type',
    body: (a) => ({ postTypeName: a.name, post_type_name: a.name }),
    result: map.actionResult,
  },
  /** As `dismissNewPostType`: `taxonomyName` is validated, `taxonomy_name` is read. */
  dismissNewTaxonomy: {
    method: 'POST',
    path: '/seo/v1/new-content-type-visibility/dismiss-taxonomy',
    body: (a) => ({ taxonomyName: a.name, taxonomy_name: a.name }),
    result: map.actionResult,
  },
  setKitConfigurationDismissed: {
    method: 'POST',
    path: '/seo/v1/kit_configuration_permanent_dismissal',
    body: (a) => ({ is_dismissed: a.dismissed }),
    result: map.actionResult,
  },
  /**
   * The arguments are declared (and validated) in snake_case, but Yoast's
   * handler reads the camelCase names: both are sent.
   */
  trackSetupSteps: {
    method: 'POST',
    path: '/seo/v1/setup_steps_tracking',
    check: (a) => {
      if (!Object.keys(map.setupSteps(a.input)).length)
        throw GatewayError.badInput('trackSetupSteps: give at least one field of input', { arguments: ['input'] });
    },
    body: (a) => {
      const p = map.setupSteps(a.input);
      return {
        ...p,
        setup_widget_loaded: p.setupWidgetLoaded,
        setup_widget_temporarily_dismissed: p.setupWidgetTemporarilyDismissed,
        setup_widget_permanently_dismissed: p.setupWidgetPermanentlyDismissed,
        first_interaction_stage: p.firstInteractionStage,
        last_interaction_stage: p.lastInteractionStage,
      };
    },
    result: map.actionResult,
  },
  markIntroductionSeen: {
    method: 'POST',
    path: '/seo/v1/introductions/<introduction_id>/seen',
    check: (a) => {
      if (!NAME.test(a.id))
        throw GatewayError.badInput('markIntroductionSeen: id is letters, digits, underscores and hyphens', {
          arguments: ['id'],
        });
    },
    params: (a) => ({ introduction_id: a.id }),
    body: (a) => ({ is_seen: a.isSeen ?? true }),
    // `{json:{success:false}}` at 400 (the save failed) is data. An unknown
    // introduction answers 400 with the body `[]`: the caller's error, naming it.
    dataStatus: {
      status: 400,
      isData: hasKey('json'),
      refusal: (b, a, route) =>
        Array.isArray(b) && b.length === 0
          ? GatewayError.badInput(`The site does not know the introduction ${JSON.stringify(a.id)}.`, {
              upstream: { code: null, status: 400, route },
              arguments: ['id'],
            })
          : undefined,
    },
    result: map.actionResult,
  },
  setVideoEmbedPermission: {
    method: 'POST',
    path: '/seo/v1/video_embed_permission',
    body: (a) => ({ value: a.value ?? true }),
    result: map.actionResult,
  },
  dismissAlert: {
    method: 'POST',
    path: '/seo/v1/alerts/dismiss',
    body: (a) => ({ key: a.key }),
    result: map.actionResult,
  },
  setSiteRepresentation: {
    method: 'POST',
    path: '/seo/v1/configuration/site_representation',
    body: (a) => ({ ...map.siteRepresentation(a.input) }),
    result: map.actionResult,
  },
  /** Always HTTP 200; a failure is `{json:{success:false, failures}}`. */
  setSocialProfiles: {
    method: 'POST',
    path: '/seo/v1/configuration/social_profiles',
    body: ({ input: i }) => ({
      social_site_a: i.socialSiteA ?? undefined,
      social_site_b: i.socialSiteB ?? undefined,
      other_social_urls: i.otherSocialUrls ?? undefined,
    }),
    result: map.actionResult,
  },
  enableTracking: {
    method: 'POST',
    path: '/seo/v1/configuration/enable_tracking',
    body: (a) => ({ tracking: a.tracking }),
    result: map.actionResult,
  },
  saveConfigurationState: {
    method: 'POST',
    path: '/seo/v1/configuration/save_configuration_state',
    body: (a) => ({ finishedSteps: a.finishedSteps }),
    result: map.actionResult,
  },
  runImport: {
    method: 'POST',
    path: '/seo/v1/import/<plugin>/<type>',
    check: ({ plugin, type }) => {
      const bad = Object.entries({ plugin, type })
        .filter(([, v]) => !NAME.test(v))
        .map(([k]) => k);
      if (bad.length)
        throw GatewayError.badInput(
          `runImport: ${bad.join(' and ')} must be letters, digits, underscores and hyphens`,
          { arguments: bad },
        );
    },
    params: (a) => ({ plugin: a.plugin, type: a.type }),
    result: map.indexingBatch,
  },
  runIndexing: { method: 'POST', path: byArg('action', INDEXING_PATHS), result: map.indexingBatch },
  /** Always HTTP 200; an unknown integration is `{json:{success:false, status:500, error}}`. */
  setIntegrationActive: {
    method: 'POST',
    path: '/seo/v1/integrations/set_active',
    body: (a) => ({ integration: a.integration, active: a.active }),
    result: map.actionResult,
  },
  /**
   * A refused authorization code answers 401 `{tokens: [], error, status: 401}`:
   * that is about the code, not the caller's credentials, so it is data. A
   * core `rest_forbidden` 401 stays an error.
   */
  authenticateKeywordResearch: {
    method: 'POST',
    path: '/seo/v1/keyword_research/authenticate',
    body: (a) => ({ code: a.code }),
    dataStatus: { status: 401, isData: hasKey('tokens') },
    result: map.keywordAuth,
  },
  setKeywordResearchCountry: {
    method: 'POST',
    path: '/seo/v1/keyword_research/country_code',
    // The site wants two lowercase letters; say so before calling it.
    check: (a) => {
      if (!/^[a-z]{2}$/.test(a.countryCode))
        throw GatewayError.badInput('setKeywordResearchCountry: countryCode must be two lowercase letters, e.g. "us"', {
          arguments: ['countryCode'],
        });
    },
    body: (a) => ({ country_code: a.countryCode }),
    result: map.actionResult,
  },
  saveWorkouts: {
    method: 'POST',
    path: '/seo/v1/workouts',
    body: (a) => ({ cornerstone: map.workoutPayload(a.cornerstone), orphaned: map.workoutPayload(a.orphaned) }),
    result: map.jsonBool,
  },
  completeTask: {
    method: 'POST',
    path: '/seo/v1/complete_task',
    body: (a) => ({ options: { task: a.task } }),
    result: map.actionResult,
  },
  trackAction: {
    method: 'POST',
    path: '/seo/v1/action_tracking',
    body: (a) => ({ action: a.action }),
    result: map.actionResult,
  },
  prominentWordsContent: {
    method: 'POST',
    path: '/seo/v1/prominent_words/get_content',
    result: map.prominentWordsContent,
  },
  // The answer carries nothing the graph shows: done is done.
  completeProminentWords: { method: 'POST', path: '/seo/v1/prominent_words/complete', result: () => true },
  saveProminentWords: {
    method: 'POST',
    path: '/seo/v1/prominent_words/save',
    body: (a) => ({
      data: a.items.map((i) => ({ object_id: i.objectId, prominent_words: map.prominentWords(i.words) })),
    }),
    result: map.actionResult,
  },
  workoutNoindex: {
    method: 'POST',
    path: '/seo/v1/workouts/noindex',
    body: (a) => ({ object_id: a.objectId, object_type: a.objectType, object_sub_type: a.objectSubType }),
    result: map.jsonBool,
  },
  workoutRemoveAndRedirect: {
    method: 'POST',
    path: '/seo/v1/workouts/remove_redirect',
    body: (a) => ({
      object_id: a.objectId,
      object_type: a.objectType,
      object_sub_type: a.objectSubType,
      permalink: a.permalink,
      redirect_url: a.redirectUrl,
    }),
    result: map.jsonBool,
  },
  enableCornerstone: {
    method: 'POST',
    path: '/seo/v1/workouts/enable_cornerstone',
    body: (a) => ({ object_id: a.objectId, object_type: a.objectType }),
    result: map.jsonBool,
  },
};

/** Every `seo/v1` row of spec/routes.tsv but the index, and the field that reaches it (for routes/route-table.ts). */
export const SEO_ROUTES: RouteUse[] = [
  ...routeRows('SeoQuery', SEO_QUERY_ROUTES),
  ...routeRows('SeoMutation', SEO_MUTATION_ROUTES),
];
