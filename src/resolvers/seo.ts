/**
 * Query.seo and Mutation.seo (schema/seo.graphql): args -> upstream/seo.ts ->
 * mapping/seo.ts. The roots carry nothing; a site without `seo/v1` (or one of its
 * routes) fails the fields that need it, at the operation's session's gate.
 */
import type { Context } from '../context.ts';
import type { Resolvers, SeoMutationResolvers, SeoQueryResolvers } from '../generated/graphql.ts';
import * as map from '../mapping/seo.ts';
import { GatewayError } from '../upstream/errors.ts';
import * as seo from '../upstream/seo.ts';
import { sendWrites } from '../upstream/batch.ts';

/** The parent of every SeoQuery / SeoMutation field: nothing, the fields read the context. */
export type SeoRoot = Record<string, never>;

/** Upstream calls go through the operation's session, which gates them on `seo/v1` (and each route) being offered. */
const up = <T>(ctx: Context, fn: (s: Context['upstream']) => Promise<T>): Promise<T> => fn(ctx.upstream);

const SeoQuery: SeoQueryResolvers = {
  redirects: async (_p, { format }, ctx) => {
    const formats = format ? [format] : (['PLAIN', 'REGEX'] as const);
    const lists = await Promise.all(formats.map((f) => up(ctx, (s) => seo.listRedirects(s, map.formatParam(f)))));
    return lists.flatMap(map.redirectList);
  },
  redirectSettings: async (_p, _a, ctx) => map.redirectSettings(await up(ctx, seo.redirectSettings)),
  statistics: async (_p, _a, ctx) => map.statistics(await up(ctx, seo.statistics)),
  seoScores: async (_p, a, ctx) => map.scoreSummary(await up(ctx, (s) => seo.scores(s, 'seo', a))),
  readabilityScores: async (_p, a, ctx) => map.scoreSummary(await up(ctx, (s) => seo.scores(s, 'readability', a))),
  fileSize: async (_p, { url }, ctx) => map.fileSize(url, await up(ctx, (s) => seo.fileSize(s, url))),
  availablePosts: async (_p, { search, postType }, ctx) => map.availablePosts(await up(ctx, (s) => seo.availablePosts(s, search ?? '', postType ?? 'page'))),
  canEditUser: async (_p, { userId }, ctx) => map.capability(await up(ctx, (s) => seo.checkCapability(s, userId))),
  configurationState: async (_p, _a, ctx) => map.configurationState(await up(ctx, seo.configurationState)),
  head: async (_p, { url }, ctx) => {
    if (!/^https?:\/\//i.test(url)) throw GatewayError.badInput('head: url must be an absolute http(s) URL of this site', { arguments: ['url'] });
    const res = await up(ctx, (s) => seo.head(s, url));
    return map.head(res.status, res.body);
  },
  videoEmbedPermission: async (_p, _a, ctx) => map.videoEmbedPermission(await up(ctx, seo.videoEmbedPermission)),
  postMeta: async (_p, { postId, query }, ctx) => map.metaFields(await up(ctx, (s) => seo.metaSearch(s, postId, query ?? ''))),
  relatedKeyphrases: async (_p, { keyphrase, countryCode }, ctx) => map.keyphrases(await up(ctx, (s) => seo.relatedKeyphrases(s, keyphrase, countryCode))),
  tasks: async (_p, { filter, limit }, ctx) => {
    if (limit != null && limit < 0) throw GatewayError.badInput('tasks: limit must be >= 0', { arguments: ['limit'] });
    return map.tasks(await up(ctx, (s) => seo.tasks(s, filter ? filter.toLowerCase() : undefined, limit ?? undefined)));
  },
  linkSuggestions: async (_p, a, ctx) => {
    if (!a.prominentWords.length) throw GatewayError.badInput('linkSuggestions: prominentWords must not be empty', { arguments: ['prominentWords'] });
    return map.linkSuggestions(await up(ctx, (s) => seo.linkSuggestions(s, { ...a, limit: a.limit ?? 5 })));
  },
  workouts: async (_p, _a, ctx) => map.workouts(await up(ctx, seo.workouts)),
  workoutLinkSuggestions: async (_p, { indexableId }, ctx) => map.workoutLinkSuggestions(await up(ctx, (s) => seo.workoutLinkSuggestions(s, indexableId))),
  lastUpdated: async (_p, { postId }, ctx) => map.lastUpdated(await up(ctx, (s) => seo.lastUpdated(s, postId))),
  cornerstoneData: async (_p, _a, ctx) => map.cornerstoneData(await up(ctx, seo.cornerstoneData)),
};

/** Redirect types 410 and 451 need no target; the others do (Yoast's presence rule, checked before any call). */
function checkTarget(input: { target?: string | null; type: string }, arg: string): void {
  const needsTarget = input.type !== 'GONE' && input.type !== 'UNAVAILABLE_FOR_LEGAL_REASONS';
  if (needsTarget && !input.target) throw GatewayError.badInput(`${arg}.target is required for redirect type ${input.type}`, { arguments: [`${arg}.target`] });
}

/** Most redirects `importRedirects` takes at once. */
const MAX_IMPORT = 500;

const SeoMutation: SeoMutationResolvers = {
  importRedirects: async (_p, { inputs, ignoreWarning }, ctx) => {
    if (inputs.length > MAX_IMPORT) throw GatewayError.badInput(`importRedirects: at most ${MAX_IMPORT} inputs, got ${inputs.length}`, { arguments: ['inputs'] });
    inputs.forEach((input, i) => checkTarget(input, `inputs[${i}]`));
    const reqs = inputs.map((input) => seo.createRedirectRequest(map.redirectParams(input), ignoreWarning ?? false));
    const outcomes = await sendWrites(ctx.upstream, ctx.site, reqs, {});
    return outcomes.map((o, index) => {
      // Validation warnings and errors are HTTP 200 `success: false` bodies: data, like createRedirect.
      // A store failure (400) or a refusal is this item's error.
      if (o.ok) return { index, result: map.redirectResult({ status: o.status, body: o.body }), error: null };
      const { code, upstream } = o.error.extensions;
      return { index, result: null, error: { code, message: o.error.message, path: ['inputs', String(index)], upstream: upstream ?? null } };
    });
  },
  createRedirect: async (_p, { input, ignoreWarning }, ctx) => {
    checkTarget(input, 'input');
    return map.redirectResult(await up(ctx, (s) => seo.createRedirect(s, map.redirectParams(input), ignoreWarning ?? false)));
  },
  updateRedirect: async (_p, { from, to, ignoreWarning }, ctx) => {
    if ((from.format ?? 'PLAIN') !== (to.format ?? 'PLAIN')) {
      throw GatewayError.badInput('updateRedirect: from.format and to.format must be the same (the site updates within one format)', { arguments: ['from.format', 'to.format'] });
    }
    checkTarget(to, 'to');
    return map.redirectResult(await up(ctx, (s) => seo.updateRedirect(s, map.redirectParams(from), map.redirectParams(to), ignoreWarning ?? false)));
  },
  deleteRedirect: async (_p, { origin, format }, ctx) => map.redirectResult(await up(ctx, (s) => seo.deleteRedirect(s, origin, map.formatParam(format)))),
  updateRedirectSettings: async (_p, { disablePhpRedirect, separateFile }, ctx) =>
    map.redirectSettings(await up(ctx, (s) => seo.updateRedirectSettings(s, disablePhpRedirect, separateFile))),
  undoRedirectsForObject: async (_p, { objectId, kind }, ctx) =>
    map.redirectResult(await up(ctx, (s) => seo.undoRedirectsForObject(s, objectId, kind === 'TERM' ? 'term' : 'post'))),

  dismissNewPostType: async (_p, { name }, ctx) => map.actionResult(await up(ctx, (s) => seo.dismissNewPostType(s, name))),
  dismissNewTaxonomy: async (_p, { name }, ctx) => map.actionResult(await up(ctx, (s) => seo.dismissNewTaxonomy(s, name))),
  setKitConfigurationDismissed: async (_p, { dismissed }, ctx) => map.actionResult(await up(ctx, (s) => seo.kitConfigurationDismissal(s, dismissed))),
  trackSetupSteps: async (_p, { input }, ctx) => {
    const steps = map.setupSteps(input);
    if (!Object.keys(steps).length) throw GatewayError.badInput('trackSetupSteps: give at least one field of input', { arguments: ['input'] });
    return map.actionResult(await up(ctx, (s) => seo.setupStepsTracking(s, steps)));
  },
  markIntroductionSeen: async (_p, { id, isSeen }, ctx) => {
    if (!/^[\w-]+$/.test(id)) throw GatewayError.badInput('markIntroductionSeen: id is letters, digits, underscores and hyphens', { arguments: ['id'] });
    return map.actionResult(await up(ctx, (s) => seo.introductionSeen(s, id, isSeen ?? true)));
  },
  setVideoEmbedPermission: async (_p, { value }, ctx) => map.actionResult(await up(ctx, (s) => seo.setVideoEmbedPermission(s, value ?? true))),
  dismissAlert: async (_p, { key }, ctx) => map.actionResult(await up(ctx, (s) => seo.dismissAlert(s, key))),
  setSiteRepresentation: async (_p, { input }, ctx) => map.actionResult(await up(ctx, (s) => seo.siteRepresentation(s, map.siteRepresentation(input)))),
  setSocialProfiles: async (_p, { input }, ctx) => {
    const payload: Parameters<typeof seo.socialProfiles>[1] = {};
    if (input.socialSiteA != null) payload.social_site_a = input.socialSiteA;
    if (input.socialSiteB != null) payload.social_site_b = input.socialSiteB;
    if (input.otherSocialUrls != null) payload.other_social_urls = input.otherSocialUrls;
    return map.actionResult(await up(ctx, (s) => seo.socialProfiles(s, payload)));
  },
  enableTracking: async (_p, { tracking }, ctx) => map.actionResult(await up(ctx, (s) => seo.enableTracking(s, tracking))),
  saveConfigurationState: async (_p, { finishedSteps }, ctx) => map.actionResult(await up(ctx, (s) => seo.saveConfigurationState(s, finishedSteps))),
  runImport: async (_p, { plugin, type }, ctx) => {
    const bad = [['plugin', plugin], ['type', type]].filter(([, v]) => !/^[\w-]+$/.test(v!)).map(([k]) => k!);
    if (bad.length) throw GatewayError.badInput(`runImport: ${bad.join(' and ')} must be letters, digits, underscores and hyphens`, { arguments: bad });
    return map.indexingBatch(await up(ctx, (s) => seo.runImport(s, plugin, type)));
  },
  runIndexing: async (_p, { action }, ctx) => map.indexingBatch(await up(ctx, (s) => seo.runIndexing(s, action))),
  setIntegrationActive: async (_p, { integration, active }, ctx) => map.actionResult(await up(ctx, (s) => seo.setIntegrationActive(s, integration, active))),
  authenticateKeywordResearch: async (_p, { code }, ctx) => map.keywordAuth(await up(ctx, (s) => seo.keywordResearchAuthenticate(s, code))),
  setKeywordResearchCountry: async (_p, { countryCode }, ctx) => {
    // The site wants two lowercase letters (other-upstream.md §7); say so before calling it.
    if (!/^[a-z]{2}$/.test(countryCode)) throw GatewayError.badInput('setKeywordResearchCountry: countryCode must be two lowercase letters, e.g. "us"', { arguments: ['countryCode'] });
    return map.actionResult(await up(ctx, (s) => seo.keywordResearchCountry(s, countryCode)));
  },
  saveWorkouts: async (_p, { cornerstone, orphaned }, ctx) =>
    map.jsonBool(await up(ctx, (s) => seo.saveWorkouts(s, map.workoutPayload(cornerstone), map.workoutPayload(orphaned)))),
  completeTask: async (_p, { task }, ctx) => map.actionResult(await up(ctx, (s) => seo.completeTask(s, task))),
  trackAction: async (_p, { action }, ctx) => map.actionResult(await up(ctx, (s) => seo.actionTracking(s, action))),
  prominentWordsContent: async (_p, _a, ctx) => map.prominentWordsContent(await up(ctx, seo.prominentWordsContent)),
  completeProminentWords: async (_p, _a, ctx) => {
    await up(ctx, seo.prominentWordsComplete);
    return true;
  },
  saveProminentWords: async (_p, { items }, ctx) =>
    map.actionResult(await up(ctx, (s) => seo.prominentWordsSave(s, items.map((i) => ({ object_id: i.objectId, prominent_words: map.prominentWords(i.words) }))))),
  workoutNoindex: async (_p, a, ctx) =>
    map.jsonBool(await up(ctx, (s) => seo.workoutNoindex(s, { object_id: a.objectId, object_type: a.objectType, object_sub_type: a.objectSubType }))),
  workoutRemoveAndRedirect: async (_p, a, ctx) =>
    map.jsonBool(
      await up(ctx, (s) =>
        seo.workoutRemoveRedirect(s, { object_id: a.objectId, object_type: a.objectType, object_sub_type: a.objectSubType, permalink: a.permalink, redirect_url: a.redirectUrl }),
      ),
    ),
  enableCornerstone: async (_p, a, ctx) => map.jsonBool(await up(ctx, (s) => seo.enableCornerstone(s, { object_id: a.objectId, object_type: a.objectType }))),
};

export const seoResolvers: Resolvers = {
  Query: { seo: (): SeoRoot => ({}) },
  Mutation: { seo: (): SeoRoot => ({}) },
  SeoQuery,
  SeoMutation,
};
