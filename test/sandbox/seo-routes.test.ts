/**
 * The shape of seo/v1 (every row of spec/routes.tsv, its arguments and
 * permissions) and the routes beyond redirects, scores and indexing:
 * configuration, dashboard notices, tasks, tools (reference other-upstream.md
 * §7; samples seo-check-capability.json, seo-configuration-state.json,
 * seo-file-size-missing-url.json).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

/** The seo/v1 rows of spec/routes.tsv (method, path), the namespace index included. */
const ROWS: [string, string][] = [
  ['GET', '/seo/v1/file_size'],
  ['GET', '/seo/v1/statistics'],
  ['POST', '/seo/v1/new-content-type-visibility/dismiss-post-type'],
  ['POST', '/seo/v1/new-content-type-visibility/dismiss-taxonomy'],
  ['POST', '/seo/v1/kit_configuration_permanent_dismissal'],
  ['GET', '/seo/v1/readability_scores'],
  ['GET', '/seo/v1/seo_scores'],
  ['POST', '/seo/v1/setup_steps_tracking'],
  ['POST', '/seo/v1/introductions/<introduction_id>/seen'],
  ['GET', '/seo/v1/video_embed_permission'],
  ['POST', '/seo/v1/video_embed_permission'],
  ['GET', '/seo/v1/available_posts'],
  ['POST', '/seo/v1/alerts/dismiss'],
  ['POST', '/seo/v1/configuration/site_representation'],
  ['POST', '/seo/v1/configuration/social_profiles'],
  ['GET', '/seo/v1/configuration/check_capability'],
  ['POST', '/seo/v1/configuration/enable_tracking'],
  ['POST', '/seo/v1/configuration/save_configuration_state'],
  ['GET', '/seo/v1/configuration/get_configuration_state'],
  ['POST', '/seo/v1/import/<plugin>/<type>'],
  ['GET', '/seo/v1/get_head'],
  ['POST', '/seo/v1/indexing/posts'],
  ['POST', '/seo/v1/indexing/terms'],
  ['POST', '/seo/v1/indexing/post-type-archives'],
  ['POST', '/seo/v1/indexing/general'],
  ['POST', '/seo/v1/indexing/prepare'],
  ['POST', '/seo/v1/indexing/indexables-complete'],
  ['POST', '/seo/v1/indexing/complete'],
  ['POST', '/seo/v1/link-indexing/posts'],
  ['POST', '/seo/v1/link-indexing/terms'],
  ['POST', '/seo/v1/integrations/set_active'],
  ['GET', '/seo/v1/meta/search'],
  ['POST', '/seo/v1/keyword_research/authenticate'],
  ['POST', '/seo/v1/keyword_research/country_code'],
  ['GET', '/seo/v1/keyword_research/related_keyphrases'],
  ['GET', '/seo/v1/workouts'],
  ['POST', '/seo/v1/workouts'],
  ['POST', '/seo/v1/complete_task'],
  ['GET', '/seo/v1/get_tasks'],
  ['POST', '/seo/v1/action_tracking'],
  ['GET', '/seo/v1/link_suggestions'],
  ['POST', '/seo/v1/prominent_words/get_content'],
  ['POST', '/seo/v1/prominent_words/complete'],
  ['POST', '/seo/v1/prominent_words/save'],
  ['POST', '/seo/v1/workouts/noindex'],
  ['POST', '/seo/v1/workouts/remove_redirect'],
  ['GET', '/seo/v1/workouts/link_suggestions'],
  ['GET', '/seo/v1/workouts/last_updated'],
  ['GET', '/seo/v1/workouts/cornerstone_data'],
  ['POST', '/seo/v1/workouts/enable_cornerstone'],
  ['POST', '/seo/v1/redirects'],
  ['POST', '/seo/v1/redirects/delete'],
  ['GET', '/seo/v1/redirects/list'],
  ['PUT', '/seo/v1/redirects/update'],
  ['GET', '/seo/v1/redirects/settings'],
  ['PUT', '/seo/v1/redirects/settings'],
  ['POST', '/seo/v1/redirects/undo-for-object'],
  ['GET', '/seo/v1'],
];

const toRegex = (p: string) =>
  p
    .replace('<introduction_id>', '(?P<introduction_id>[\\w-]+)')
    .replace('<plugin>', '(?P<plugin>[\\w-]+)')
    .replace('<type>', '(?P<type>[\\w-]+)');

const FORBIDDEN = (status: number) => ({
  code: 'rest_forbidden',
  message: 'Sorry, you are not allowed to do that.',
  data: { status },
});

describe('seo/v1 routes', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let routes: Record<string, any>;
  const post = (path: string, body: unknown = {}, who: Who = 'admin') => api.send('POST', `/seo/v1/${path}`, body, who);
  const get = (path: string, who: Who = 'admin') => api.get(`/seo/v1/${path}`, who);

  beforeAll(async () => {
    sb = await testSandbox();
    api = restClient(sb);
    routes = (await api.get('/seo/v1')).body.routes;
  });
  afterAll(() => sb.close());

  describe('the index', () => {
    it('serves every method of every seo/v1 row of routes.tsv, and nothing else', () => {
      expect(ROWS).toHaveLength(58);
      const declared = Object.entries(routes).flatMap(([path, r]: [string, any]) =>
        r.methods.map((m: string) => `${m} ${path}`),
      );
      expect(declared.sort()).toEqual(ROWS.map(([m, p]) => `${m} ${toRegex(p)}`).sort());
    });

    it("declares the spec's arguments: required ones, enums, types and defaults", () => {
      const args = (path: string, method = 'GET') =>
        routes[`/seo/v1/${path}`].endpoints.find((e: any) => e.methods.includes(method)).args;
      expect(args('redirects', 'POST')).toEqual({
        origin: { required: true, type: 'string', description: 'The origin to redirect' },
        target: { required: false, type: 'string', description: 'The redirect target' },
        type: { required: true, type: 'integer', description: 'The redirect type' },
        ignore_warning: { required: false, type: 'boolean', description: 'Whether to ignore warnings', default: false },
        format: {
          required: false,
          type: 'string',
          description: 'The format of the redirect to create.',
          default: 'plain',
          enum: ['plain', 'regex'],
        },
      });
      expect(args('redirects/delete', 'POST').type).toEqual({
        required: false,
        type: 'string',
        description: 'The redirect format',
      });
      expect(args('redirects/settings', 'PUT').separate_file).toMatchObject({
        required: true,
        type: 'string',
        enum: ['on', 'off'],
      });
      expect(args('seo_scores')).toEqual({
        contentType: { required: true, type: 'string' },
        taxonomy: { required: false, type: 'string', default: '' },
        term: { required: false, type: 'integer', default: null },
        troubleshooting: { required: false, type: 'boolean', default: null },
      });
      expect(args('link_suggestions').limit).toEqual({
        required: false,
        type: 'integer',
        default: 5,
        description: 'The maximum number of suggestions.',
      });
      expect(args('available_posts')).toEqual({
        search: { required: false, type: 'string', default: '' },
        postType: { required: false, type: 'string', default: 'page' },
      });
      expect(args('setup_steps_tracking', 'POST').first_interaction_stage.enum).toEqual([
        'install',
        'activate',
        'setup',
        'grantConsent',
        'successfullyConnected',
      ]);
      expect(args('complete_task', 'POST').options).toEqual({
        required: true,
        type: 'object',
        properties: { task: { required: true, type: 'string' } },
      });
      expect(args('configuration/site_representation', 'POST').company_or_person).toEqual({
        required: true,
        type: 'string',
        enum: ['company', 'person'],
      });
      expect(args('prominent_words/save', 'POST').data.items.properties.object_id).toEqual({
        required: true,
        type: 'number',
      });
      expect(args('video_embed_permission', 'POST').value).toEqual({ required: false, type: 'boolean', default: true });
      expect(args('introductions/(?P<introduction_id>[\\w-]+)/seen', 'POST').is_seen).toEqual({
        required: false,
        type: 'boolean',
        default: true,
      });
    });

    it('lets no seo/v1 route into /batch/v1', async () => {
      for (const [path, route] of Object.entries(routes))
        for (const e of route.endpoints) expect(e, path).not.toHaveProperty('allow_batch');
      const r = await api.send('POST', '/batch/v1', { requests: [{ path: '/seo/v1/indexing/prepare' }] }, 'admin');
      expect(r.body.responses[0].body.code).toBe('rest_batch_not_allowed');
    });
  });

  describe('permissions', () => {
    const matrix: [string, string, unknown, Record<string, number>][] = [
      ['GET', 'statistics', undefined, { anonymous: 401, subscriber: 200, admin: 200 }],
      [
        'GET',
        'configuration/get_configuration_state',
        undefined,
        { anonymous: 401, subscriber: 403, editor: 403, admin: 200 },
      ],
      ['GET', 'file_size?url=https%3A%2F%2Fx.example%2Fa.jpg', undefined, { anonymous: 401, editor: 403, admin: 404 }],
      [
        'POST',
        'alerts/dismiss',
        { key: 'webinar-promo-notification' },
        { anonymous: 401, subscriber: 403, contributor: 200 },
      ],
      ['GET', 'video_embed_permission', undefined, { anonymous: 401, subscriber: 403, contributor: 200 }],
      ['POST', 'import/aioseo/posts', {}, { anonymous: 401, editor: 403, admin: 200 }],
      [
        'GET',
        'keyword_research/related_keyphrases?keyphrase=jazz&country_code=us',
        undefined,
        { anonymous: 401, subscriber: 403, author: 401 },
      ],
      ['GET', 'get_tasks', undefined, { anonymous: 401, editor: 403, admin: 200 }],
      ['GET', 'available_posts', undefined, { anonymous: 401, editor: 403, admin: 200 }],
    ];
    for (const [method, path, body, expected] of matrix) {
      it(`${method} ${path.split('?')[0]}: ${Object.entries(expected)
        .map(([w, s]) => `${w} ${s}`)
        .join(', ')}`, async () => {
        for (const [who, status] of Object.entries(expected)) {
          const caller = (who === 'anonymous' ? null : who) as Who;
          const r = await api.send(method, `/seo/v1/${path}`, body, caller);
          expect(r.status, `${who}`).toBe(status);
          if ((status === 401 && who === 'anonymous') || status === 403) expect(r.body).toEqual(FORBIDDEN(status));
        }
      });
    }
  });

  describe('configuration', () => {
    it('checks capabilities as the sample does', async () => {
      const r = await get('configuration/check_capability?user_id=1');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ success: true, status: 200 });
      const missing = await get('configuration/check_capability');
      expect(missing.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): user_id',
        data: { status: 400, params: ['user_id'] },
      });
    });

    it('saves and reads back the configuration state (sample shape)', async () => {
      let r = await get('configuration/get_configuration_state');
      expect(r.body).toEqual({ success: true, status: 200, data: [] });
      r = await post('configuration/save_configuration_state', {
        finishedSteps: ['siteRepresentation', 'socialProfiles'],
      });
      expect(r.body).toEqual({ success: true, status: 200 });
      r = await get('configuration/get_configuration_state');
      expect(r.body).toEqual({ success: true, status: 200, data: ['siteRepresentation', 'socialProfiles'] });
      r = await post('configuration/save_configuration_state', {});
      expect(r.body.data.params).toEqual(['finishedSteps']);
    });

    it('sets the site representation; the description becomes the site tagline', async () => {
      let r = await post('configuration/site_representation', {
        company_or_person: 'company',
        company_name: 'Harbor Events',
        company_logo_id: 3,
        description: 'Events by the sea',
      });
      expect(r.body).toEqual({ success: true, status: 200 });
      expect((await api.get('/')).body.description).toBe('Events by the sea');
      expect(sb.site.store.option<any>('wpseo', {})).toMatchObject({
        company_or_person: 'company',
        company_name: 'Harbor Events',
        company_logo_id: 3,
      });
      r = await post('configuration/site_representation', { company_or_person: 'band' });
      expect(r.body.data.params).toEqual({ company_or_person: 'company_or_person is not one of company and person.' });
      r = await post('configuration/site_representation', { company_or_person: 'person', person_logo_id: 'x' });
      expect(r.body.data.details.person_logo_id.code).toBe('rest_invalid_type');
    });

    it('sets social profiles inside {json}, always HTTP 200, naming the fields it could not save', async () => {
      let r = await post('configuration/social_profiles', {
        social_site_a: 'https://social-a.example/harbor',
        social_site_b: '@harbor',
        other_social_urls: ['https://video.example/harbor'],
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ json: { success: true, status: 200 } });
      r = await post('configuration/social_profiles', {
        social_site_a: 'not a url',
        other_social_urls: ['https://ok.example/', 'nope'],
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        json: {
          success: false,
          status: 200,
          error: 'Could not save some options in the database',
          failures: ['social_site_a', 'other_social_urls-1'],
        },
      });
      expect(sb.site.store.option<any>('wpseo', {}).other_social_urls).toEqual(['https://ok.example/']);
    });

    it('turns tracking on and off, refusing non-booleans', async () => {
      expect((await post('configuration/enable_tracking', { tracking: true })).body).toEqual({
        success: true,
        status: 200,
      });
      expect(sb.site.store.option<any>('wpseo', {})).toMatchObject({ tracking: true, toggled_tracking: true });
      const r = await post('configuration/enable_tracking', { tracking: 'maybe' });
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ tracking: 'tracking is not of type boolean.' });
    });
  });

  describe('dashboard notices', () => {
    it('dismisses the "new" badge only through the name the callback reads (post_type_name), as Yoast does', async () => {
      let r = await post(
        'new-content-type-visibility/dismiss-post-type',
        { postTypeName: 'calendar_event_series' },
        'contributor',
      );
      expect(r.body).toEqual({ message: 'Post type is not new.', success: true, status: 200 });
      r = await post(
        'new-content-type-visibility/dismiss-post-type',
        { postTypeName: 'calendar_event_series', post_type_name: 'calendar_event_series' },
        'contributor',
      );
      expect(r.body).toEqual({ message: 'Post type is no longer new.', success: true, status: 200 });
      r = await post(
        'new-content-type-visibility/dismiss-taxonomy',
        { taxonomy_name: 'calendar_events_cat' },
        'contributor',
      );
      expect(r.body).toEqual({ message: 'Taxonomy is no longer new.', success: true, status: 200 });
      expect(sb.site.store.option<any>('wpseo', {})).toMatchObject({
        new_post_types: [],
        new_taxonomies: [],
        show_new_content_type_notification: false,
      });
      r = await post('new-content-type-visibility/dismiss-post-type', { postTypeName: 'spaceship' }, 'contributor');
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ postTypeName: 'Invalid parameter.' });
      r = await post('new-content-type-visibility/dismiss-taxonomy', { taxonomyName: 'colour' }, 'contributor');
      expect(r.body.code).toBe('rest_invalid_param');
    });

    it('stores the Site Kit dismissal', async () => {
      expect((await post('kit_configuration_permanent_dismissal', { is_dismissed: true })).body).toEqual({
        success: true,
      });
      expect((await post('kit_configuration_permanent_dismissal', {})).body.data.params).toEqual(['is_dismissed']);
    });

    it('reads camelCase setup steps, refusing a request with only the declared snake_case names', async () => {
      let r = await post('setup_steps_tracking', { setup_widget_loaded: 'yes' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'wpseo_set_site_kit_usage_tracking',
        message: 'No valid parameters were passed.',
        data: { status: 400 },
      });
      r = await post('setup_steps_tracking', { setupWidgetLoaded: 'yes', firstInteractionStage: 'install' });
      expect(r.body).toEqual({ success: true });
      expect(sb.site.store.option<any>('wpseo', {}).site_kit_usage_tracking).toEqual({
        setup_widget_loaded: 'yes',
        first_interaction_stage: 'install',
      });
      r = await post('setup_steps_tracking', { last_interaction_stage: 'finished' });
      expect(r.body.data.params).toEqual({
        last_interaction_stage:
          'last_interaction_stage is not one of install, activate, setup, grantConsent, and successfullyConnected.',
      });
    });

    it('marks introductions seen per user; unknown ones get 400 []', async () => {
      let r = await post('introductions/ai-fix-assessments-upsell/seen', {}, 'author');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ json: { success: true } });
      expect(sb.site.store.option<any>('wpseo_sandbox_user_meta', {})[3].introductions).toEqual({
        'ai-fix-assessments-upsell': true,
      });
      r = await post('introductions/ai-fix-assessments-upsell/seen', { is_seen: false }, 'author');
      expect(sb.site.store.option<any>('wpseo_sandbox_user_meta', {})[3].introductions).toEqual({
        'ai-fix-assessments-upsell': false,
      });
      r = await post('introductions/no-such-intro/seen', {}, 'author');
      expect(r.status).toBe(400);
      expect(r.body).toEqual([]);
      expect((await post('introductions/bad.id/seen', {}, 'author')).status).toBe(404);
    });

    it('keeps the video embed permission per user', async () => {
      expect((await get('video_embed_permission', 'author')).body).toEqual({ json: { value: false } });
      expect((await post('video_embed_permission', {}, 'author')).body).toEqual({ json: { success: true } });
      expect((await get('video_embed_permission', 'author')).body).toEqual({ json: { value: true } });
      expect((await get('video_embed_permission', 'editor')).body).toEqual({ json: { value: false } });
      await post('video_embed_permission', { value: false }, 'author');
      expect((await get('video_embed_permission', 'author')).body).toEqual({ json: { value: false } });
    });

    it('dismisses allowed alerts and refuses others', async () => {
      expect((await post('alerts/dismiss', { key: 'black-friday-promotion' }, 'editor')).body).toEqual({
        success: true,
        status: 200,
      });
      const r = await post('alerts/dismiss', { key: 'free-pony' }, 'editor');
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ key: 'Invalid parameter.' });
      expect((await post('alerts/dismiss', {}, 'editor')).body.code).toBe('rest_missing_callback_param');
    });

    it('tracks the first time of known actions only', async () => {
      let r = await post('action_tracking', { action: 'task_list_first_opened_on' });
      expect(r.body).toEqual({ success: true, action: 'task_list_first_opened_on' });
      const first = sb.site.store.option<any>('wpseo', {}).tracking_only.task_list_first_opened_on;
      expect(typeof first).toBe('number');
      r = await post('action_tracking', { action: 'made_coffee' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ success: false, error: 'The tracked action is invalid' });
    });

    it('lists tasks and completes them', async () => {
      let r = await get('get_tasks');
      expect(r.body.success).toBe(true);
      const ids = Object.keys(r.body.tasks);
      expect(ids).toContain('create-new-content');
      expect(r.body.tasks['create-new-content']).toMatchObject({
        id: 'create-new-content',
        isCompleted: false,
        priority: 'medium',
      });
      expect(Object.keys(r.body.tasks['create-new-content'])).toEqual([
        'id',
        'duration',
        'priority',
        'badge',
        'isCompleted',
        'callToAction',
        'title',
        'about',
      ]);
      expect((await post('complete_task', { options: { task: 'create-new-content' } })).body).toEqual({
        success: true,
      });
      r = await get('get_tasks?options[filter]=completed');
      expect(Object.keys(r.body.tasks)).toContain('create-new-content');
      expect(Object.values(r.body.tasks).every((t: any) => t.isCompleted)).toBe(true);
      r = await get('get_tasks?options[filter]=incomplete&options[limit]=1');
      expect(Object.keys(r.body.tasks)).toHaveLength(1);
      r = await post('complete_task', { options: { task: 'fly-to-the-moon' } });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ success: false, error: 'Task not found' });
      r = await post('complete_task', { options: {} });
      expect(r.body.data.params).toEqual({ options: 'task is a required property of options.' });
    });

    it('completes the configuration task once three configuration steps are saved', async () => {
      await post('configuration/save_configuration_state', { finishedSteps: ['a', 'b', 'c'] });
      const r = await get('get_tasks');
      expect(r.body.tasks['complete-ftc'].isCompleted).toBe(true);
      expect(sb.site.store.option<any>('wpseo', {}).first_time_install).toBe(false);
    });
  });

  describe('tools', () => {
    it('answers the file size of an uploaded file, and the two failures', async () => {
      const missing = await get('file_size');
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): url',
        data: { status: 400, params: ['url'] },
      });
      const file = sb.site.store.posts<{ url: string; filesize: number }>('attachment')[0]!;
      let r = await get(`file_size?url=${encodeURIComponent(`${sb.origin}${file.meta.url}`)}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ type: 'success', size_in_bytes: file.meta.filesize });
      const external = 'https://cdn.example/a.jpg';
      r = await get(`file_size?url=${encodeURIComponent(external)}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({
        type: 'failure',
        response: `Cannot get the size of ${external} because it is hosted externally.`,
      });
      const local = `${sb.origin}/wp-content/uploads/none.jpg`;
      r = await get(`file_size?url=${encodeURIComponent(local)}`);
      expect(r.body).toEqual({
        type: 'failure',
        response: `Cannot get the size of ${local} because of unknown reasons.`,
      });
    });

    it('lists available posts of a type, searched by title', async () => {
      const event = sb.site.store.posts('calendar_events', ['publish'])[0]!;
      let r = await get(`available_posts?postType=calendar_events&search=${encodeURIComponent(event.title)}`);
      expect(r.status).toBe(200);
      expect(r.body).toContainEqual({ id: event.id, title: event.title, slug: event.slug });
      r = await get('available_posts?postType=calendar_events');
      expect(r.body.length).toBe(100);
      r = await get('available_posts?postType=spaceship');
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'The post type asked is not valid' });
      r = await get('available_posts');
      expect(Array.isArray(r.body)).toBe(true);
    });

    it("runs the AIOSEO importer's actions, and refuses unknown importers", async () => {
      let r = await post('import/aioseo/general_settings');
      expect(r.body).toEqual({ objects: [], next_url: false });
      r = await post('import/rankmath/posts');
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 'rest_no_route', message: 'Requested importer not found', data: { status: 404 } });
      expect((await post('import/aioseo/bad.type')).status).toBe(404);
    });

    it('turns integrations on and off inside {json}', async () => {
      let r = await post('integrations/set_active', { integration: 'semrush', active: true });
      expect(r.body).toEqual({ json: { success: true, status: 200 } });
      expect(sb.site.store.option<any>('wpseo', {}).semrush_integration_active).toBe(true);
      r = await post('integrations/set_active', { integration: 'teleport', active: true });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        json: { success: false, status: 500, error: 'Could not save the option in the database' },
      });
      r = await post('integrations/set_active', { integration: 'semrush' });
      expect(r.body.data.params).toEqual(['active']);
    });

    it('searches the custom fields of a post it may edit', async () => {
      const event = sb.site.store.posts('calendar_events', ['publish'])[0]!;
      let r = await get(`meta/search?post_id=${event.id}&query=start`);
      expect(r.status).toBe(200);
      expect(r.body.meta).toContainEqual({ key: 'startDate', value: (event.meta as any).startDate });
      expect(r.body.meta.every((m: any) => m.key.startsWith('start'))).toBe(true);
      r = await get(`meta/search?post_id=${event.id}&query=_yoast`);
      expect(Array.isArray(r.body.meta)).toBe(true);
      r = await get(`meta/search?post_id=${event.id}`);
      expect(r.body.meta.length).toBeLessThanOrEqual(25);
      expect(r.body.meta.some((m: any) => m.key.startsWith('_'))).toBe(false);
      expect((await get('meta/search')).status).toBe(403);
      expect((await get(`meta/search?post_id=${event.id}`, null)).status).toBe(401);
      expect((await get(`meta/search?post_id=${event.id}`, 'subscriber')).status).toBe(403);
    });

    it('authenticates keyword research, then answers related keyphrases', async () => {
      let r = await get('keyword_research/related_keyphrases?keyphrase=jazz&country_code=us', 'author');
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'Authentication failed: no valid tokens.', status: 401 });
      r = await post('keyword_research/authenticate', { code: 'invalid' }, 'author');
      expect(r.status).toBe(401);
      expect(r.body.tokens).toEqual([]);
      r = await post('keyword_research/authenticate', { code: 'abc123' }, 'author');
      expect(r.status).toBe(200);
      expect(r.body.status).toBe(200);
      expect(r.body.tokens).toMatchObject({ access_token: 'kr-access-abc123', has_access_token: true });
      r = await post('keyword_research/country_code', { country_code: 'US' }, 'author');
      expect(r.status).toBe(400);
      r = await post('keyword_research/country_code', { country_code: 'fr' }, 'author');
      expect(r.body).toEqual({ success: true, status: 200 });
      r = await get('keyword_research/related_keyphrases?keyphrase=Jazz&country_code=fr', 'author');
      expect(r.status).toBe(200);
      expect(r.body.results.columnNames).toEqual([
        'Keyword',
        'Search Volume',
        'Trends',
        'Keyword Difficulty Index',
        'Intent',
      ]);
      expect(r.body.results.rows).toHaveLength(5);
      expect(r.body.results.rows[0][0]).toBe('jazz');
      const again = await get('keyword_research/related_keyphrases?keyphrase=Jazz&country_code=fr', 'author');
      expect(again.body).toEqual(r.body);
      r = await get('keyword_research/related_keyphrases?keyphrase=jazz', 'author');
      expect(r.body.data.params).toEqual(['country_code']);
    });
  });
});
