/**
 * The rest of seo/v1 through the graph (other-upstream.md §7,
 * docs/sandbox-seo.md): scores, statistics, tools, configuration, notices,
 * tasks, indexing, keyword research, internal linking and workouts. Redirects
 * are in seo-redirects.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

describe('seo', () => {
  let h: Harness;
  let origin: string;
  beforeAll(async () => {
    h = await startHarness();
    origin = h.sandbox.origin;
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const ok = <T = any>(r: { errors?: unknown; data: T }): T => {
    expect(r.errors).toBeUndefined();
    return r.data;
  };
  const code = (r: { errors?: { extensions?: Record<string, any> }[] }) => r.errors?.[0]?.extensions?.code;
  const routes = () => h.calls().map((c) => `${c.method} ${c.path}`);

  describe('the namespace', () => {
    it('reads the seo/v1 index through Query.namespace', async () => {
      const d = ok(await h.gql(`{ namespace(name: "seo/v1") { available routes { pattern methods } } }`));
      expect(d.namespace.available).toBe(true);
      expect(d.namespace.routes.map((r: any) => r.pattern)).toContain('/seo/v1/redirects/list');
      expect(routes()).toEqual(['GET /seo/v1']);
    });
  });

  describe('scores and statistics', () => {
    it('reads statistics per SEO rank, with labels and links cleaned', async () => {
      const d = ok(await h.gql(`{ seo { statistics { header ranks { rank label count link } } } }`, {}, 'admin'));
      expect(typeof d.seo.statistics.header).toBe('string');
      expect(d.seo.statistics.ranks.length).toBeGreaterThan(0);
      for (const r of d.seo.statistics.ranks) {
        expect(['na', 'bad', 'ok', 'good', 'noindex']).toContain(r.rank);
        expect(r.label).not.toMatch(/<strong>/);
        expect(r.link).not.toMatch(/&#038;/);
      }
      expect(routes()).toEqual(['GET /seo/v1/statistics']);
    });

    it('asks anonymous callers to authenticate for statistics', async () => {
      const r = await h.gql(`{ seo { statistics { header } } }`);
      expect(code(r)).toBe('UNAUTHENTICATED');
    });

    it('reads SEO and readability scores of a content type', async () => {
      const q = `query($t: String!, $tr: Boolean) { seo { seoScores(contentType: $t, troubleshooting: $tr) { groups { name amount viewLink ids } cacheUsed queryTime } readabilityScores(contentType: $t) { groups { name amount } } } }`;
      const d = ok(await h.gql(q, { t: 'calendar_events', tr: true }, 'admin'));
      expect(d.seo.seoScores.groups.map((g: any) => g.name).sort()).toEqual(['bad', 'good', 'notAnalyzed', 'ok']);
      const withIds = d.seo.seoScores.groups.filter((g: any) => g.amount > 0);
      expect(withIds.every((g: any) => g.ids.length === g.amount)).toBe(true);
      expect(d.seo.readabilityScores.groups).toHaveLength(4);
      expect(routes().sort()).toEqual(['GET /seo/v1/readability_scores', 'GET /seo/v1/seo_scores']);
    });

    it('maps an invalid content type to BAD_USER_INPUT and subscribers to FORBIDDEN', async () => {
      const q = `{ seo { seoScores(contentType: "nope") { cacheUsed } } }`;
      expect(code(await h.gql(q, {}, 'admin'))).toBe('BAD_USER_INPUT');
      expect(code(await h.gql(q, {}, 'subscriber'))).toBe('FORBIDDEN');
    });
  });

  describe('tools', () => {
    it('reads the size of an uploaded file, and NOT_FOUND for another host', async () => {
      const imgs = ok(await h.gql(`{ events(first: 50) { nodes { featuredImage { url filesize } } } }`, {}, 'admin'));
      const img = imgs.events.nodes.map((n: any) => n.featuredImage).find((i: any) => i?.url);
      expect(img).toBeDefined();
      h.mark();
      const d = ok(
        await h.gql(`query($u: String!) { seo { fileSize(url: $u) { url sizeInBytes } } }`, { u: img.url }, 'admin'),
      );
      expect(d.seo.fileSize.sizeInBytes).toBeGreaterThan(0);
      const ext = await h.gql(
        `{ seo { fileSize(url: "https://elsewhere.example/a.jpg") { sizeInBytes } } }`,
        {},
        'admin',
      );
      expect(code(ext)).toBe('NOT_FOUND');
      expect(ext.errors![0]!.message).toMatch(/hosted externally/);
      expect(code(await h.gql(`{ seo { fileSize(url: "${img.url}") { sizeInBytes } } }`, {}, 'editor'))).toBe(
        'FORBIDDEN',
      );
    });

    it('lists available posts and refuses an unknown post type', async () => {
      const d = ok(
        await h.gql(`{ seo { availablePosts(postType: "calendar_events") { databaseId title slug } } }`, {}, 'admin'),
      );
      expect(d.seo.availablePosts.length).toBeGreaterThan(0);
      expect(d.seo.availablePosts[0].databaseId).toBeGreaterThan(0);
      const bad = await h.gql(`{ seo { availablePosts(postType: "nope") { databaseId } } }`, {}, 'admin');
      expect(code(bad)).toBe('BAD_USER_INPUT');
      expect(bad.errors![0]!.message).toMatch(/not valid/);
    });

    it('reads the SEO head of a page, and the not-found head with status 404 as data', async () => {
      const d = ok(
        await h.gql(
          `query($u: String!, $m: String!) { seo { home: head(url: $u) { status title html robots } missing: head(url: $m) { status title } } }`,
          { u: `${origin}/`, m: `${origin}/no-such-page/` },
        ),
      );
      expect(d.seo.home.status).toBe(200);
      expect(d.seo.home.html).toMatch(/<title>/);
      expect(d.seo.missing.status).toBe(404);
      expect(d.seo.missing.title).toMatch(/^Page not found/);
      const bad = await h.gql(`{ seo { head(url: "not a url") { status } } }`);
      expect(code(bad)).toBe('BAD_USER_INPUT');
    });

    it('searches the custom fields of a post', async () => {
      const ev = ok(await h.gql(`{ events(first: 1) { nodes { databaseId } } }`)).events.nodes[0];
      h.mark();
      const d = ok(
        await h.gql(`query($id: Int!) { seo { postMeta(postId: $id) { key value } } }`, { id: ev.databaseId }, 'admin'),
      );
      expect(d.seo.postMeta.length).toBeGreaterThan(0);
      expect(d.seo.postMeta.every((m: any) => !m.key.startsWith('_'))).toBe(true);
      expect(routes()).toEqual(['GET /seo/v1/meta/search']);
      expect(
        code(
          await h.gql(
            `query($id: Int!) { seo { postMeta(postId: $id) { key } } }`,
            { id: ev.databaseId },
            'subscriber',
          ),
        ),
      ).toBe('FORBIDDEN');
    });

    it('runs an importer action and maps an unknown importer to NOT_FOUND', async () => {
      const d = ok(
        await h.gql(
          `mutation { seo { runImport(plugin: "aioseo", type: "posts") { objects { objectId } hasMore nextUrl } } }`,
          {},
          'admin',
        ),
      );
      expect(d.seo.runImport).toEqual({ objects: [], hasMore: false, nextUrl: null });
      expect(routes()).toEqual(['POST /seo/v1/import/aioseo/posts']);
      expect(
        code(await h.gql(`mutation { seo { runImport(plugin: "yoast", type: "posts") { hasMore } } }`, {}, 'admin')),
      ).toBe('NOT_FOUND');
      expect(
        code(await h.gql(`mutation { seo { runImport(plugin: "a/b", type: "posts") { hasMore } } }`, {}, 'admin')),
      ).toBe('BAD_USER_INPUT');
    });

    it('turns integrations on, and reports an unknown one as success false', async () => {
      const q = `mutation($i: String!) { seo { setIntegrationActive(integration: $i, active: true) { success status message } } }`;
      expect(ok(await h.gql(q, { i: 'wincher' }, 'admin')).seo.setIntegrationActive).toMatchObject({
        success: true,
        status: 200,
      });
      const bad = ok(await h.gql(q, { i: 'nope' }, 'admin')).seo.setIntegrationActive;
      expect(bad).toMatchObject({ success: false, status: 500 });
      expect(bad.message).toMatch(/Could not save/);
    });
  });

  describe('configuration', () => {
    it('saves the site representation and social profiles, naming bad profiles', async () => {
      const rep = ok(
        await h.gql(
          `mutation { seo { setSiteRepresentation(input: { companyOrPerson: COMPANY, companyName: "Sandbox Events", description: "Events near you" }) { success status } } }`,
          {},
          'admin',
        ),
      );
      expect(rep.seo.setSiteRepresentation).toEqual({ success: true, status: 200 });
      expect(ok(await h.gql(`{ site { description } }`)).site).toBeDefined();
      const soc = ok(
        await h.gql(
          `mutation { seo { setSocialProfiles(input: { socialSiteA: "https://social.example/us", socialSiteB: "not a handle!", otherSocialUrls: ["https://ok.example", "bad"] }) { success failures message } } }`,
          {},
          'admin',
        ),
      );
      expect(soc.seo.setSocialProfiles).toMatchObject({
        success: false,
        failures: ['social_site_b', 'other_social_urls-1'],
      });
      const good = ok(
        await h.gql(
          `mutation { seo { setSocialProfiles(input: { socialSiteA: "https://social.example/us" }) { success failures } } }`,
          {},
          'admin',
        ),
      );
      expect(good.seo.setSocialProfiles).toEqual({ success: true, failures: [] });
    });

    it('refuses a bad companyOrPerson before calling the site', async () => {
      const r = await h.gql(
        `mutation { seo { setSiteRepresentation(input: { companyOrPerson: ROBOT }) { success } } }`,
        {},
        'admin',
      );
      expect(r.errors).toBeDefined();
      expect(h.calls()).toEqual([]);
    });

    it('checks capabilities as data, and saves and reads the configuration state', async () => {
      const cap = ok(await h.gql(`{ seo { me: canEditUser(userId: 1) other: canEditUser(userId: 2) } }`, {}, 'admin'));
      expect(cap.seo).toEqual({ me: true, other: true });
      const t = ok(await h.gql(`mutation { seo { enableTracking(tracking: true) { success } } }`, {}, 'admin'));
      expect(t.seo.enableTracking.success).toBe(true);
      const s = ok(
        await h.gql(
          `mutation { seo { saveConfigurationState(finishedSteps: ["siteRepresentation", "socialProfiles"]) { success } } }`,
          {},
          'admin',
        ),
      );
      expect(s.seo.saveConfigurationState.success).toBe(true);
      const st = ok(await h.gql(`{ seo { configurationState } }`, {}, 'admin'));
      expect(st.seo.configurationState).toEqual(['siteRepresentation', 'socialProfiles']);
      expect(code(await h.gql(`{ seo { configurationState } }`, {}, 'subscriber'))).toBe('FORBIDDEN');
      expect(code(await h.gql(`{ seo { configurationState } }`))).toBe('UNAUTHENTICATED');
    });
  });

  describe('notices', () => {
    it('dismisses new content types (sending the names the site really reads)', async () => {
      const m = `mutation { seo { a: dismissNewPostType(name: "calendar_event_series") { success message } b: dismissNewTaxonomy(name: "calendar_events_cat") { success message } } }`;
      const d = ok(await h.gql(m, {}, 'contributor'));
      expect(d.seo.a).toEqual({ success: true, message: 'Post type is no longer new.' });
      expect(d.seo.b).toEqual({ success: true, message: 'Taxonomy is no longer new.' });
      const again = ok(await h.gql(m, {}, 'contributor'));
      expect(again.seo.a.message).toBe('Post type is not new.');
      expect(code(await h.gql(`mutation { seo { dismissNewPostType(name: "nope") { success } } }`, {}, 'admin'))).toBe(
        'BAD_USER_INPUT',
      );
    });

    it('dismisses the kit configuration and tracks setup steps in the names the site reads', async () => {
      expect(
        ok(await h.gql(`mutation { seo { setKitConfigurationDismissed(dismissed: true) { success } } }`, {}, 'admin'))
          .seo.setKitConfigurationDismissed.success,
      ).toBe(true);
      h.mark();
      const d = ok(
        await h.gql(
          `mutation { seo { trackSetupSteps(input: { setupWidgetLoaded: true, firstInteractionStage: GRANT_CONSENT }) { success } } }`,
          {},
          'admin',
        ),
      );
      expect(d.seo.trackSetupSteps.success).toBe(true);
      // Success at all proves the camelCase names were sent: with only the declared ones the site answers 400.
      expect(routes()).toEqual(['POST /seo/v1/setup_steps_tracking']);
      h.mark();
      expect(code(await h.gql(`mutation { seo { trackSetupSteps(input: {}) { success } } }`, {}, 'admin'))).toBe(
        'BAD_USER_INPUT',
      );
      expect(h.calls()).toEqual([]);
    });

    it('marks introductions seen, and refuses an unknown one', async () => {
      const d = ok(await h.gql(`mutation { seo { markIntroductionSeen(id: "llms-txt") { success } } }`, {}, 'author'));
      expect(d.seo.markIntroductionSeen.success).toBe(true);
      expect(routes()).toEqual(['POST /seo/v1/introductions/llms-txt/seen']);
      const bad = await h.gql(`mutation { seo { markIntroductionSeen(id: "nope") { success } } }`, {}, 'author');
      expect(bad.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['id'] });
      expect(
        code(await h.gql(`mutation { seo { markIntroductionSeen(id: "llms-txt") { success } } }`, {}, 'subscriber')),
      ).toBe('FORBIDDEN');
    });

    it('reads and sets the video embed permission per user', async () => {
      expect(ok(await h.gql(`{ seo { videoEmbedPermission } }`, {}, 'editor')).seo.videoEmbedPermission).toBe(false);
      expect(
        ok(await h.gql(`mutation { seo { setVideoEmbedPermission(value: true) { success } } }`, {}, 'editor')).seo
          .setVideoEmbedPermission.success,
      ).toBe(true);
      expect(ok(await h.gql(`{ seo { videoEmbedPermission } }`, {}, 'editor')).seo.videoEmbedPermission).toBe(true);
      expect(ok(await h.gql(`{ seo { videoEmbedPermission } }`, {}, 'author')).seo.videoEmbedPermission).toBe(false);
    });

    it('dismisses known alerts only', async () => {
      expect(
        ok(
          await h.gql(
            `mutation { seo { dismissAlert(key: "black-friday-promotion") { success status } } }`,
            {},
            'author',
          ),
        ).seo.dismissAlert,
      ).toEqual({ success: true, status: 200 });
      expect(code(await h.gql(`mutation { seo { dismissAlert(key: "nope") { success } } }`, {}, 'author'))).toBe(
        'BAD_USER_INPUT',
      );
    });
  });

  describe('tasks', () => {
    it('lists tasks, completes one, and filters', async () => {
      const all = ok(
        await h.gql(
          `{ seo { tasks { id title isCompleted duration priority callToAction { label type href } } } }`,
          {},
          'admin',
        ),
      );
      expect(all.seo.tasks.map((t: any) => t.id)).toContain('create-new-content');
      const done = ok(
        await h.gql(`mutation { seo { completeTask(task: "create-new-content") { success } } }`, {}, 'admin'),
      );
      expect(done.seo.completeTask.success).toBe(true);
      const completed = ok(await h.gql(`{ seo { tasks(filter: COMPLETED) { id isCompleted } } }`, {}, 'admin'));
      expect(completed.seo.tasks.map((t: any) => t.id)).toContain('create-new-content');
      expect(completed.seo.tasks.every((t: any) => t.isCompleted)).toBe(true);
      const limited = ok(await h.gql(`{ seo { tasks(limit: 2) { id } } }`, {}, 'admin'));
      expect(limited.seo.tasks).toHaveLength(2);
      expect(code(await h.gql(`mutation { seo { completeTask(task: "nope") { success } } }`, {}, 'admin'))).toBe(
        'NOT_FOUND',
      );
    });

    it('tracks known actions and refuses others', async () => {
      const d = ok(
        await h.gql(`mutation { seo { trackAction(action: "task_list_first_opened_on") { success } } }`, {}, 'admin'),
      );
      expect(d.seo.trackAction.success).toBe(true);
      const bad = await h.gql(`mutation { seo { trackAction(action: "nope") { success } } }`, {}, 'admin');
      expect(code(bad)).toBe('BAD_USER_INPUT');
      expect(bad.errors![0]!.message).toMatch(/invalid/);
    });
  });

  describe('indexing', () => {
    it('runs every indexing step until done', async () => {
      const m = `mutation($a: SeoIndexingAction!) { seo { runIndexing(action: $a) { objects { objectId objectType objectSubType permalink isCornerstone } hasMore nextUrl } } }`;
      const prep = ok(await h.gql(m, { a: 'PREPARE' }, 'contributor'));
      expect(prep.seo.runIndexing).toEqual({ objects: [], hasMore: false, nextUrl: null });
      let first = ok(await h.gql(m, { a: 'POSTS' }, 'contributor')).seo.runIndexing;
      expect(first.objects.length).toBe(25);
      expect(first.hasMore).toBe(true);
      expect(first.objects[0]).toMatchObject({ objectType: 'post' });
      expect(typeof first.objects[0].objectId).toBe('number');
      let guard = 0;
      while (first.hasMore && guard++ < 200) first = ok(await h.gql(m, { a: 'POSTS' }, 'contributor')).seo.runIndexing;
      expect(first.hasMore).toBe(false);
      for (const a of [
        'TERMS',
        'POST_TYPE_ARCHIVES',
        'GENERAL',
        'INDEXABLES_COMPLETE',
        'COMPLETE',
        'LINK_POSTS',
        'LINK_TERMS',
      ]) {
        const r = ok(await h.gql(m, { a }, 'contributor'));
        expect(Array.isArray(r.seo.runIndexing.objects)).toBe(true);
      }
      const general = h.calls().find((c) => c.path === '/seo/v1/indexing/general');
      expect(general?.status).toBe(200);
      expect(code(await h.gql(m, { a: 'POSTS' }, 'subscriber'))).toBe('FORBIDDEN');
      expect(code(await h.gql(m, { a: 'EVERYTHING' }, 'admin'))).toBe('BAD_USER_INPUT');
    });
  });

  describe('keyword research', () => {
    it('refuses related keyphrases before authentication, then answers typed rows', async () => {
      const q = `{ seo { relatedKeyphrases(keyphrase: "jazz", countryCode: "us") { columnNames keyphrases { keyword searchVolume trends difficulty intent } } } }`;
      expect(code(await h.gql(q, {}, 'author'))).toBe('UNAUTHENTICATED');
      const bad = ok(
        await h.gql(
          `mutation { seo { authenticateKeywordResearch(code: "invalid") { success hasAccessToken message } } }`,
          {},
          'author',
        ),
      );
      expect(bad.seo.authenticateKeywordResearch).toMatchObject({ success: false, hasAccessToken: false });
      expect(bad.seo.authenticateKeywordResearch.message).toMatch(/Authentication failed/);
      const auth = ok(
        await h.gql(
          `mutation { seo { authenticateKeywordResearch(code: "abc") { success hasAccessToken expiresAt createdAt message } } }`,
          {},
          'author',
        ),
      );
      expect(auth.seo.authenticateKeywordResearch).toMatchObject({
        success: true,
        hasAccessToken: true,
        message: null,
      });
      expect(auth.seo.authenticateKeywordResearch.expiresAt).toBeGreaterThan(
        auth.seo.authenticateKeywordResearch.createdAt,
      );
      const cc = ok(
        await h.gql(`mutation { seo { setKeywordResearchCountry(countryCode: "gb") { success } } }`, {}, 'author'),
      );
      expect(cc.seo.setKeywordResearchCountry.success).toBe(true);
      h.mark();
      expect(
        code(
          await h.gql(`mutation { seo { setKeywordResearchCountry(countryCode: "GB") { success } } }`, {}, 'author'),
        ),
      ).toBe('BAD_USER_INPUT');
      expect(h.calls()).toEqual([]);
      const d = ok(await h.gql(q, {}, 'author'));
      const r = d.seo.relatedKeyphrases;
      expect(r.columnNames).toEqual(['Keyword', 'Search Volume', 'Trends', 'Keyword Difficulty Index', 'Intent']);
      expect(r.keyphrases).toHaveLength(5);
      expect(r.keyphrases[0].keyword).toBe('jazz');
      expect(r.keyphrases[0].trends).toHaveLength(12);
      expect(typeof r.keyphrases[0].searchVolume).toBe('number');
      expect(code(await h.gql(q, {}, 'subscriber'))).toBe('FORBIDDEN');
    });
  });

  describe('internal linking', () => {
    it('suggests links for prominent words', async () => {
      const ev = ok(await h.gql(`{ events(first: 1) { nodes { databaseId title } } }`)).events.nodes[0];
      const stem = String(ev.title)
        .split(/\s+/)
        .find((w: string) => w.length >= 4)!
        .toLowerCase();
      h.mark();
      const d = ok(
        await h.gql(
          `query($w: [SeoProminentWordInput!]!) { seo { linkSuggestions(prominentWords: $w, objectId: 0, objectType: "post", limit: 3) { databaseId title link isCornerstone labels score } } }`,
          { w: [{ stem, weight: 5 }] },
          'contributor',
        ),
      );
      expect(d.seo.linkSuggestions.length).toBeGreaterThan(0);
      expect(d.seo.linkSuggestions.length).toBeLessThanOrEqual(3);
      expect(routes()).toEqual(['GET /seo/v1/link_suggestions']);
      expect(h.calls()[0]!.query).toMatchObject({ prominent_words: { [stem]: '5' } });
      expect(
        code(
          await h.gql(
            `{ seo { linkSuggestions(prominentWords: [], objectId: 1, objectType: "post") { score } } }`,
            {},
            'contributor',
          ),
        ),
      ).toBe('BAD_USER_INPUT');
    });

    it('hands out content for prominent words, saves words and completes', async () => {
      const c = ok(
        await h.gql(
          `mutation { seo { prominentWordsContent { objects { objectId content title } hasMore } } }`,
          {},
          'contributor',
        ),
      );
      const objs = c.seo.prominentWordsContent.objects;
      expect(objs.length).toBeGreaterThan(0);
      const items = objs.map((o: any) => ({ objectId: o.objectId, words: [{ stem: 'sandboxword', weight: 3 }] }));
      const s = ok(
        await h.gql(
          `mutation($i: [SeoProminentWordsInput!]!) { seo { saveProminentWords(items: $i) { success message } } }`,
          { i: items },
          'contributor',
        ),
      );
      expect(s.seo.saveProminentWords.success).toBe(true);
      expect(s.seo.saveProminentWords.message).toMatch(/successfully saved/);
      const next = ok(
        await h.gql(`mutation { seo { prominentWordsContent { objects { objectId } } } }`, {}, 'contributor'),
      );
      expect(next.seo.prominentWordsContent.objects.map((o: any) => o.objectId)).not.toContain(objs[0].objectId);
      expect(
        ok(await h.gql(`mutation { seo { completeProminentWords } }`, {}, 'contributor')).seo.completeProminentWords,
      ).toBe(true);
    });
  });

  describe('workouts', () => {
    it('reads and saves workouts', async () => {
      const w = ok(
        await h.gql(
          `{ seo { workouts { configuration { finishedSteps } cornerstone { finishedSteps } } } }`,
          {},
          'editor',
        ),
      );
      expect(w.seo.workouts.configuration).toEqual({ finishedSteps: [] });
      const save = ok(
        await h.gql(
          `mutation { seo { saveWorkouts(cornerstone: { finishedSteps: ["chooseCornerstones"] }, orphaned: { finishedSteps: [] }) } }`,
          {},
          'editor',
        ),
      );
      expect(save.seo.saveWorkouts).toBe(true);
      const after = ok(
        await h.gql(
          `{ seo { workouts { cornerstone { finishedSteps indexablesByStep } orphaned { finishedSteps } } } }`,
          {},
          'editor',
        ),
      );
      expect(after.seo.workouts.cornerstone).toEqual({ finishedSteps: ['chooseCornerstones'], indexablesByStep: {} });
      expect(code(await h.gql(`{ seo { workouts { raw } } }`, {}, 'author'))).toBe('FORBIDDEN');
      expect(
        code(
          await h.gql(
            `mutation { seo { saveWorkouts(cornerstone: { finishedSteps: ["dance"] }, orphaned: { finishedSteps: [] }) } }`,
            {},
            'editor',
          ),
        ),
      ).toBe('BAD_USER_INPUT');
    });

    it('reads cornerstone data, link suggestions and last updated; enables cornerstone and noindex', async () => {
      const evs = ok(await h.gql(`{ events(first: 5) { nodes { databaseId } } }`)).events.nodes;
      const id = evs[4].databaseId;
      const en = ok(
        await h.gql(
          `mutation($id: Int!) { seo { enableCornerstone(objectId: $id, objectType: "post") } }`,
          { id },
          'editor',
        ),
      );
      expect(en.seo.enableCornerstone).toBe(true);
      const cd = ok(
        await h.gql(
          `{ seo { cornerstoneData { cornerstones { objectId objectType objectSubType isCornerstone } mostLinked { objectId incomingLinkCount } } } }`,
          {},
          'editor',
        ),
      );
      expect(cd.seo.cornerstoneData.cornerstones.map((c: any) => c.objectId)).toContain(id);
      expect(cd.seo.cornerstoneData.cornerstones.every((c: any) => c.isCornerstone)).toBe(true);
      const q = ok(
        await h.gql(
          `query($id: Int!) { seo { workoutLinkSuggestions(indexableId: $id) { objectId title permalink editLink score } lastUpdated(postId: $id) } }`,
          { id },
          'editor',
        ),
      );
      expect(Array.isArray(q.seo.workoutLinkSuggestions)).toBe(true);
      expect(q.seo.lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}/);
      const ni = ok(
        await h.gql(
          `mutation($id: Int!) { seo { workoutNoindex(objectId: $id, objectType: "post", objectSubType: "calendar_events") } }`,
          { id },
          'editor',
        ),
      );
      expect(ni.seo.workoutNoindex).toBe(true);
      const meta = ok(
        await h.gql(
          `query($id: Int!) { seo { postMeta(postId: $id, query: "_yoast") { key value } } }`,
          { id },
          'admin',
        ),
      );
      expect(meta.seo.postMeta.map((m: any) => m.key)).toEqual(
        expect.arrayContaining(['_yoast_wpseo_meta-robots-noindex', '_yoast_wpseo_is_cornerstone']),
      );
    });

    it('trashes a post and redirects its permalink', async () => {
      const ev = ok(await h.gql(`{ events(first: 8) { nodes { databaseId url } } }`)).events.nodes[7];
      const m = `mutation($id: Int!, $p: String!) { seo { workoutRemoveAndRedirect(objectId: $id, objectType: "post", objectSubType: "calendar_events", permalink: $p, redirectUrl: "events") } }`;
      const d = ok(await h.gql(m, { id: ev.databaseId, p: ev.url }, 'editor'));
      expect(d.seo.workoutRemoveAndRedirect).toBe(true);
      const list = ok(await h.gql(`{ seo { redirects(format: PLAIN) { origin target type } } }`, {}, 'admin')).seo
        .redirects;
      expect(
        list.some((r: any) => r.target === 'events' && r.type === 'MOVED_PERMANENTLY' && ev.url.includes(r.origin)),
      ).toBe(true);
    });
  });
});
