/**
 * seo/v1 redirects (Yoast SEO Premium; reference/site-upstream.md §8):
 * normalisation, the validation rules one by one and in order, the create,
 * delete, list, update, settings and undo routes, read back through the list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const R = '/seo/v1/redirects';

const MESSAGES = {
  control: 'The redirect URLs may not contain line breaks or control characters.',
  relative:
    'The old URL for your redirect is not relative. Only the new URL is allowed to be absolute. Make sure to provide a relative old URL.',
  self: 'You are attempting to redirect to the same URL as the origin. Please choose a different URL to redirect to.',
  unique: 'The old URL already exists as a redirect.',
  presence: 'Not all the required fields are filled.',
  wpJsonOrigin:
    'You cannot create a redirect from the WordPress REST API endpoint (/wp-json). Please choose a different origin URL.',
  wpJsonTarget:
    'You cannot create a redirect to the WordPress REST API endpoint (/wp-json). Please choose a different URL to redirect to.',
  unreachable:
    'The URL you are redirecting to seems to return a 404 status. You might want to check if the target can be reached manually before saving.',
  loop: 'The redirect you are trying to save will create a redirect loop. This means there probably already exists a redirect that points to the origin of the redirect you are trying to save',
};
const CREATED = { title: 'Redirect created.', message: 'The redirect was created successfully.', success: true };
const DELETED = { title: 'Redirect deleted.', message: 'The redirect was deleted successfully.', success: true };
const NOT_DELETED = {
  title: 'Redirect not deleted.',
  message: 'Something went wrong when deleting this redirect.',
  success: false,
};
const notCreated = (type: 'error' | 'warning', message: string, fields: string[]) => ({
  title: 'Redirect not created.',
  message,
  fields,
  type,
  success: false,
});

describe('seo/v1 redirects', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  /** The path of a published event, a target the sandbox knows is reachable. */
  let eventPath: string;
  let eventId: number;

  const create = (body: Record<string, unknown>, who: Who = 'admin') => api.send('POST', R, body, who);
  const list = async (format?: 'plain' | 'regex') => {
    const r = await api.get(`${R}/list${format ? `?format=${format}` : ''}`, 'admin');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    return Object.values(r.body.redirects) as { origin: string; target: string; type: number; format: string }[];
  };
  const find = async (origin: string, format: 'plain' | 'regex' = 'plain') =>
    (await list(format)).find((x) => x.origin === origin);

  beforeAll(async () => {
    sb = await testSandbox();
    api = restClient(sb);
    const event = sb.site.store.posts('calendar_events', ['publish']).find((e) => !e.password)!;
    eventPath = `event/${event.slug}`;
    eventId = event.id;
  });
  afterAll(() => sb.close());

  describe('the seeded list', () => {
    it('lists plain redirects as an array of {origin, target, type, format}', async () => {
      const r = await api.get(`${R}/list`, 'admin');
      expect(Array.isArray(r.body.redirects)).toBe(true);
      expect(r.body.redirects).toContainEqual({
        origin: 'calendar-2023',
        target: 'events',
        type: 302,
        format: 'plain',
      });
      expect(r.body.redirects).toContainEqual({ origin: 'retired-venue', target: '', type: 410, format: 'plain' });
      expect(r.body.redirects.every((x: any) => x.format === 'plain')).toBe(true);
    });

    it('keeps the positions of a filtered list, so regex redirects after plain ones come back as an object (PHP array_filter)', async () => {
      const r = await api.get(`${R}/list?format=regex`, 'admin');
      expect(Array.isArray(r.body.redirects)).toBe(false);
      const entries = Object.entries(r.body.redirects) as [string, any][];
      expect(entries.length).toBeGreaterThanOrEqual(2);
      for (const [key, red] of entries) {
        expect(key).toMatch(/^\d+$/);
        expect(red.format).toBe('regex');
      }
      expect(entries.map(([, x]) => x.origin)).toContain('^/blog/(\\d+)/?$');
    });

    it('stores redirects in the option Yoast uses, as {origin, url, type, format}', () => {
      const stored = sb.site.store.option<any[]>('wpseo-premium-redirects-base', []);
      expect(stored).toContainEqual({ origin: 'calendar-2023', url: 'events', type: 302, format: 'plain' });
    });
  });

  describe('creating', () => {
    it('trims the slashes of a plain origin and target: /old/ is stored as old', async () => {
      const r = await create({ origin: '/old-page/', target: `/${eventPath}/`, type: 301 });
      expect(r.status).toBe(200);
      expect(r.body).toEqual(CREATED);
      expect(await find('old-page')).toEqual({ origin: 'old-page', target: eventPath, type: 301, format: 'plain' });
    });

    it('turns same-host absolute URLs into paths, and keeps other hosts absolute', async () => {
      let r = await create({ origin: `${sb.origin}/abs-origin/`, target: `${sb.origin}/${eventPath}/`, type: 302 });
      expect(r.body).toEqual(CREATED);
      expect(await find('abs-origin')).toEqual({ origin: 'abs-origin', target: eventPath, type: 302, format: 'plain' });
      r = await create({ origin: 'to-elsewhere', target: 'https://elsewhere.example/page/', type: 307 });
      expect(r.body).toEqual(CREATED);
      expect((await find('to-elsewhere'))!.target).toBe('https://elsewhere.example/page/');
    });

    it('keeps a regex origin verbatim and skips the plain-only rules', async () => {
      const r = await create({ origin: '^/news/(.*)/$', target: '/no/such/page/$1/', type: 301, format: 'regex' });
      expect(r.body).toEqual(CREATED);
      expect(await find('^/news/(.*)/$', 'regex')).toEqual({
        origin: '^/news/(.*)/$',
        target: 'no/such/page/$1',
        type: 301,
        format: 'regex',
      });
    });

    it('accepts every type, 410 and 451 without a target', async () => {
      for (const [i, type] of [301, 302, 307].entries()) {
        expect((await create({ origin: `typed-${type}`, target: eventPath, type })).body, `type ${type} #${i}`).toEqual(
          CREATED,
        );
      }
      for (const type of [410, 451]) expect((await create({ origin: `gone-${type}`, type })).body).toEqual(CREATED);
      expect(await find('gone-451')).toEqual({ origin: 'gone-451', target: '', type: 451, format: 'plain' });
    });
  });

  describe('the validation rules, in order', () => {
    it('1: refuses control characters in origin or target, even with ignore_warning (error)', async () => {
      for (const body of [
        { origin: 'bad\norigin', target: eventPath },
        { origin: 'fine-origin', target: `${eventPath}\t` },
      ]) {
        const r = await create({ ...body, type: 301, ignore_warning: true });
        expect(r.status).toBe(200);
        expect(r.body).toEqual(notCreated('error', MESSAGES.control, ['origin', 'target']));
      }
      expect(await find('fine-origin')).toBeUndefined();
    });

    it('2: warns when a plain origin is an absolute URL of another host; ignore_warning stores it as given', async () => {
      const origin = 'https://other.example/landing/';
      let r = await create({ origin, target: eventPath, type: 301 });
      expect(r.body).toEqual(notCreated('warning', MESSAGES.relative, ['origin']));
      r = await create({ origin, target: eventPath, type: 301, ignore_warning: true });
      expect(r.body).toEqual(CREATED);
      expect((await find(origin))!.target).toBe(eventPath);
    });

    it('3: refuses a plain redirect to its own origin (error)', async () => {
      const r = await create({ origin: '/same-place/', target: 'same-place', type: 301, ignore_warning: true });
      expect(r.body).toEqual(notCreated('error', MESSAGES.self, ['origin']));
    });

    it('4: refuses an origin that already exists, in either format (error)', async () => {
      let r = await create({ origin: '/calendar-2023/', target: eventPath, type: 301, ignore_warning: true });
      expect(r.body).toEqual(notCreated('error', MESSAGES.unique, ['origin']));
      r = await create({ origin: '^/blog/(\\d+)/?$', target: eventPath, type: 301, format: 'regex' });
      expect(r.body).toEqual(notCreated('error', MESSAGES.unique, ['origin']));
      // A plain origin that spells an existing regex origin is taken too: one map covers both formats.
      r = await create({ origin: 'calendar-2023', target: 'x', type: 301, format: 'regex' });
      expect(r.body).toEqual(notCreated('error', MESSAGES.unique, ['origin']));
    });

    it('5: refuses a missing target unless the type is 410 or 451 (error, no fields)', async () => {
      const r = await create({ origin: 'no-target-here', type: 301, ignore_warning: true });
      expect(r.body).toEqual(notCreated('error', MESSAGES.presence, []));
      expect((await create({ origin: 'no-target-here', type: 410 })).body).toEqual(CREATED);
    });

    it('6: never asks for a subdirectory (the sandbox is installed at the root)', async () => {
      expect((await create({ origin: 'root-level', target: eventPath, type: 301 })).body).toEqual(CREATED);
    });

    it('7: warns about wp-json in the origin, then in the target; 410 skips the rule', async () => {
      let r = await create({ origin: 'wp-json/seo/v1/old', target: eventPath, type: 301 });
      expect(r.body).toEqual(notCreated('warning', MESSAGES.wpJsonOrigin, ['origin']));
      r = await create({ origin: 'api-alias', target: `${sb.origin}/wp-json/`, type: 301 });
      expect(r.body).toEqual(notCreated('warning', MESSAGES.wpJsonTarget, ['target']));
      r = await create({ origin: 'api-alias', target: `${sb.origin}/wp-json/`, type: 301, ignore_warning: true });
      expect(r.body).toEqual(CREATED);
      expect((await find('api-alias'))!.target).toBe('wp-json');
      expect((await create({ origin: 'wp-json/gone', type: 410 })).body).toEqual(CREATED);
    });

    it('8: warns when a path of this site leads nowhere; posts, archives, redirect origins and other hosts are reachable', async () => {
      let r = await create({ origin: 'dead-end', target: '/no/such/page/', type: 301 });
      expect(r.body).toEqual(notCreated('warning', MESSAGES.unreachable, ['target']));
      for (const [origin, target] of [
        ['to-post', eventPath],
        ['to-archive', 'events'],
        ['to-home', '/'],
        ['to-query', `?p=${eventId}`],
        ['to-redirect', 'retired-venue'],
        ['to-regex', 'blog/12'],
      ]) {
        r = await create({ origin, target, type: 301 });
        expect(r.body, origin).toEqual(CREATED);
      }
      r = await create({ origin: 'dead-end', target: '/no/such/page/', type: 301, ignore_warning: true });
      expect(r.body).toEqual(CREATED);
    });

    it('9: refuses a loop through existing redirects (error), warns about a chain (warning)', async () => {
      // calendar-2023 -> events exists: events -> calendar-2023 would loop.
      let r = await create({ origin: 'events', target: 'calendar-2023', type: 301, ignore_warning: true });
      expect(r.body).toEqual(notCreated('error', MESSAGES.loop, ['origin', 'target']));
      // old-summer-festival -> event/... exists: pointing at it makes a chain.
      const festival = (await find('old-summer-festival'))!;
      r = await create({ origin: 'chain-start', target: '/old-summer-festival/', type: 301 });
      expect(r.body).toEqual(
        notCreated(
          'warning',
          `old-summer-festival will be redirected to ${festival.target}. Maybe it's worth considering to create a direct redirect to ${festival.target}.`,
          ['target'],
        ),
      );
      r = await create({ origin: 'chain-start', target: '/old-summer-festival/', type: 301, ignore_warning: true });
      expect(r.body).toEqual(CREATED);
      // A longer loop: a -> b exists, b -> c exists; c -> a closes it.
      expect((await create({ origin: 'loop-a', target: 'loop-b', type: 301, ignore_warning: true })).body).toEqual(
        CREATED,
      );
      expect((await create({ origin: 'loop-b', target: 'loop-c', type: 301, ignore_warning: true })).body).toEqual(
        CREATED,
      );
      r = await create({ origin: 'loop-c', target: 'loop-a', type: 301, ignore_warning: true });
      expect(r.body).toEqual(notCreated('error', MESSAGES.loop, ['origin', 'target']));
    });

    it('reports only the first failing rule', async () => {
      // Control characters (1) before uniqueness (4).
      let r = await create({ origin: 'calendar-2023\u0007', target: eventPath, type: 301 });
      expect(r.body.message).toBe(MESSAGES.control);
      // Relative origin (2) before an unreachable target (8).
      r = await create({ origin: 'http://other.example/x', target: 'nowhere-at-all', type: 301 });
      expect(r.body.message).toBe(MESSAGES.relative);
      // Self redirect (3) before presence (5): both empty.
      r = await create({ origin: '', type: 301 });
      expect(r.body.message).toBe(MESSAGES.self);
      // Uniqueness (4) before wp-json (7).
      r = await create({ origin: 'api-alias', target: 'wp-json/x', type: 301 });
      expect(r.body.message).toBe(MESSAGES.unique);
    });

    it('answers a store failure with 400: a regex origin that equals a plain origin once its slashes are trimmed', async () => {
      const r = await create({ origin: '/calendar-2023/', target: eventPath, type: 301, format: 'regex' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        title: 'Redirect not created.',
        message: 'Something went wrong when creating this redirect.',
        success: false,
      });
    });
  });

  describe('deleting', () => {
    it('matches by origin only, whatever target and type are sent', async () => {
      expect((await create({ origin: 'to-delete', target: eventPath, type: 301 })).body).toEqual(CREATED);
      const r = await api.send(
        'POST',
        `${R}/delete`,
        { origin: '/to-delete/', target: 'something-else', type: '302' },
        'admin',
      );
      expect(r.status).toBe(200);
      expect(r.body).toEqual(DELETED);
      expect(await find('to-delete')).toBeUndefined();
    });

    it('answers 400 when no redirect has that origin', async () => {
      const r = await api.send('POST', `${R}/delete`, { origin: 'to-delete' }, 'admin');
      expect(r.status).toBe(400);
      expect(r.body).toEqual(NOT_DELETED);
    });

    it('deletes a regex redirect by its verbatim origin', async () => {
      const r = await api.send('POST', `${R}/delete`, { origin: '^/news/(.*)/$', format: 'regex' }, 'admin');
      expect(r.body).toEqual(DELETED);
      expect(await find('^/news/(.*)/$', 'regex')).toBeUndefined();
    });
  });

  describe('updating', () => {
    const put = (body: Record<string, unknown>, who: Who = 'admin') => api.send('PUT', `${R}/update`, body, who);

    it('replaces the redirect in place', async () => {
      const before = (await list()).map((x) => x.origin);
      const r = await put({
        old_origin: 'typed-302',
        old_target: eventPath,
        old_type: 302,
        new_origin: '/typed-302-renamed/',
        new_target: 'events',
        new_type: 307,
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        title: 'Redirect updated.',
        message: 'The redirect was updated successfully.',
        success: true,
      });
      const after = await list();
      expect(after.map((x) => x.origin)).toEqual(before.map((o) => (o === 'typed-302' ? 'typed-302-renamed' : o)));
      expect(after.find((x) => x.origin === 'typed-302-renamed')).toEqual({
        origin: 'typed-302-renamed',
        target: 'events',
        type: 307,
        format: 'plain',
      });
    });

    it('skips the uniqueness rule when the origin does not change', async () => {
      const r = await put({
        old_origin: 'box-office',
        old_type: 307,
        new_origin: 'box-office',
        new_target: 'https://tickets.example/new',
        new_type: 302,
      });
      expect(r.body.success).toBe(true);
      expect(await find('box-office')).toEqual({
        origin: 'box-office',
        target: 'https://tickets.example/new',
        type: 302,
        format: 'plain',
      });
    });

    it('answers a validation failure with 400 titled "Redirect not deleted." (sic), errors and warnings alike', async () => {
      let r = await put({
        old_origin: 'box-office',
        old_type: 302,
        new_origin: 'calendar-2023',
        new_target: 'events',
        new_type: 301,
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        title: 'Redirect not deleted.',
        message: MESSAGES.unique,
        fields: ['origin'],
        type: 'error',
        success: false,
      });
      r = await put({
        old_origin: 'box-office',
        old_type: 302,
        new_origin: 'box-office',
        new_target: 'nowhere/at/all',
        new_type: 301,
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        title: 'Redirect not deleted.',
        message: MESSAGES.unreachable,
        fields: ['target'],
        type: 'warning',
        success: false,
      });
      r = await put({
        old_origin: 'box-office',
        old_type: 302,
        new_origin: 'box-office',
        new_target: 'nowhere/at/all',
        new_type: 301,
        ignore_warning: true,
      });
      expect(r.status).toBe(200);
      expect((await find('box-office'))!.target).toBe('nowhere/at/all');
    });

    it('answers 400 "Redirect not updated." when the old redirect does not exist', async () => {
      const r = await put({
        old_origin: 'never-was',
        old_type: 301,
        new_origin: 'never-will-be',
        new_target: eventPath,
        new_type: 301,
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        title: 'Redirect not updated.',
        message: 'Something went wrong when updated this redirect.',
        success: false,
      });
    });

    it('is a PUT route only, with its required arguments', async () => {
      expect(
        (
          await api.send(
            'POST',
            `${R}/update`,
            { old_origin: 'a', old_type: 301, new_origin: 'b', new_type: 301 },
            'admin',
          )
        ).status,
      ).toBe(404);
      const r = await put({ old_origin: 'a' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): old_type, new_origin, new_type',
        data: { status: 400, params: ['old_type', 'new_origin', 'new_type'] },
      });
    });
  });

  describe('settings', () => {
    it('reads the defaults, writes on/off and reads them back', async () => {
      let r = await api.get(`${R}/settings`, 'admin');
      expect(r.body).toEqual({
        success: true,
        is_apache: false,
        disable_php_redirect: 'off',
        separate_file: 'off',
        file_path: '/var/www/html/wp-content/uploads/wpseo-redirects/.redirects',
      });
      r = await api.send('PUT', `${R}/settings`, { disable_php_redirect: 'on', separate_file: 'off' }, 'admin');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        success: true,
        message: 'Redirect settings updated successfully.',
        data: { disable_php_redirect: 'on', separate_file: 'off' },
      });
      r = await api.get(`${R}/settings`, 'admin');
      expect(r.body.disable_php_redirect).toBe('on');
    });

    it('refuses values other than on and off, and missing ones', async () => {
      let r = await api.send('PUT', `${R}/settings`, { disable_php_redirect: 'yes', separate_file: 'off' }, 'admin');
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): disable_php_redirect',
        data: {
          status: 400,
          params: { disable_php_redirect: 'disable_php_redirect is not one of on and off.' },
          details: {
            disable_php_redirect: {
              code: 'rest_not_in_enum',
              message: 'disable_php_redirect is not one of on and off.',
              data: null,
            },
          },
        },
      });
      r = await api.send('PUT', `${R}/settings`, { separate_file: 'on' }, 'admin');
      expect(r.body.code).toBe('rest_missing_callback_param');
      expect(r.body.data.params).toEqual(['disable_php_redirect']);
    });
  });

  describe('undo-for-object', () => {
    it('removes the redirects pointing at a post, and answers like delete', async () => {
      expect((await create({ origin: 'undo-one', target: eventPath, type: 301 })).body).toEqual(CREATED);
      expect((await create({ origin: 'undo-two', target: `${sb.origin}/${eventPath}/`, type: 302 })).body).toEqual(
        CREATED,
      );
      let r = await api.send('POST', `${R}/undo-for-object`, { obj_id: eventId, obj_type: 'post' }, 'admin');
      expect(r.status).toBe(200);
      expect(r.body).toEqual(DELETED);
      const origins = (await list()).map((x) => x.origin);
      expect(origins).not.toContain('undo-one');
      expect(origins).not.toContain('undo-two');
      expect(origins).not.toContain('old-page');
      r = await api.send('POST', `${R}/undo-for-object`, { obj_id: eventId, obj_type: 'post' }, 'admin');
      expect(r.status).toBe(400);
      expect(r.body).toEqual(NOT_DELETED);
    });

    it('removes the redirects pointing at a term', async () => {
      const term = sb.site.store.terms('post_tag')[0]!;
      expect((await create({ origin: 'old-tag', target: `/tag/${term.slug}/`, type: 301 })).body).toEqual(CREATED);
      const r = await api.send('POST', `${R}/undo-for-object`, { obj_id: term.id, obj_type: 'term' }, 'admin');
      expect(r.body).toEqual(DELETED);
      expect(await find('old-tag')).toBeUndefined();
    });

    it('needs edit_post on the object: 401 anonymous, 403 subscriber or other object types', async () => {
      const body = { obj_id: eventId, obj_type: 'post' };
      expect((await api.send('POST', `${R}/undo-for-object`, body)).status).toBe(401);
      expect((await api.send('POST', `${R}/undo-for-object`, body, 'subscriber')).status).toBe(403);
      expect(
        (await api.send('POST', `${R}/undo-for-object`, { obj_id: eventId, obj_type: 'comment' }, 'admin')).status,
      ).toBe(403);
      // An editor may edit the post: the request goes through (nothing left to remove).
      expect((await api.send('POST', `${R}/undo-for-object`, body, 'editor')).body).toEqual(NOT_DELETED);
    });
  });

  describe('permissions and arguments', () => {
    it('needs wpseo_manage_redirects: 401 anonymous, 403 subscriber and editor', async () => {
      for (const [who, status] of [
        [null, 401],
        ['subscriber', 403],
        ['editor', 403],
        ['admin', 200],
      ] as const) {
        const r = await api.get(`${R}/list`, who);
        expect(r.status, String(who)).toBe(status);
        if (status !== 200)
          expect(r.body).toEqual({
            code: 'rest_forbidden',
            message: 'Sorry, you are not allowed to do that.',
            data: { status },
          });
      }
      expect((await create({ origin: 'x-forbidden', target: eventPath, type: 301 }, 'editor')).status).toBe(403);
    });

    it('validates before checking permissions: missing and mistyped arguments are 400 even anonymously', async () => {
      let r = await create({ target: 'x' }, null);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): origin, type',
        data: { status: 400, params: ['origin', 'type'] },
      });
      r = await create({ origin: 'a', type: 'permanent', format: 'glob' });
      expect(r.body.code).toBe('rest_invalid_param');
      expect(r.body.data.params).toEqual({
        type: 'type is not of type integer.',
        format: 'format is not one of plain and regex.',
      });
      expect(r.body.data.details.type.code).toBe('rest_invalid_type');
      r = await api.get(`${R}/list?format=csv`, 'admin');
      expect(r.body.data.details.format.code).toBe('rest_not_in_enum');
    });

    it('shares redirects between callers and keeps them across requests', async () => {
      expect((await create({ origin: 'shared-one', target: eventPath, type: 301 })).body).toEqual(CREATED);
      const stored = sb.site.store.option<any[]>('wpseo-premium-redirects-base', []);
      expect(stored.find((x) => x.origin === 'shared-one')).toEqual({
        origin: 'shared-one',
        url: eventPath,
        type: 301,
        format: 'plain',
      });
    });
  });
});
