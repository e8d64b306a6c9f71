/**
 * Redirects through the graph (seo/v1 redirects*, reference/site-upstream.md
 * §8): list, create, update, delete, settings and undo-for-object, with the
 * site's validation rules surfacing as data a client can act on.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const LIST = `query($f: RedirectFormat) { seo { redirects(format: $f) { origin target type statusCode format position } } }`;
const CREATE = `mutation($i: RedirectInput!, $ig: Boolean) { seo { createRedirect(input: $i, ignoreWarning: $ig) { success outcome canIgnore title message fields } } }`;
const UPDATE = `mutation($from: RedirectInput!, $to: RedirectInput!, $ig: Boolean) { seo { updateRedirect(from: $from, to: $to, ignoreWarning: $ig) { success outcome canIgnore message fields } } }`;
const DELETE = `mutation($o: String!, $f: RedirectFormat) { seo { deleteRedirect(origin: $o, format: $f) { success outcome title message } } }`;

describe('seo redirects', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const origins = async (format?: string) =>
    (await h.gql(LIST, { f: format }, 'admin')).data.seo.redirects.map((r: any) => r.origin);

  describe('listing', () => {
    it('lists plain redirects with typed types and formats', async () => {
      const r = await h.gql(LIST, { f: 'PLAIN' }, 'admin');
      expect(r.errors).toBeUndefined();
      const list = r.data.seo.redirects;
      expect(list.map((x: any) => x.type)).toEqual([
        'MOVED_PERMANENTLY',
        'FOUND',
        'TEMPORARY_REDIRECT',
        'GONE',
        'UNAVAILABLE_FOR_LEGAL_REASONS',
      ]);
      expect(list.map((x: any) => x.statusCode)).toEqual([301, 302, 307, 410, 451]);
      expect(list.every((x: any) => x.format === 'PLAIN')).toBe(true);
      expect(list[0].position).toBe(0);
      expect(h.calls().map((c) => `${c.method} ${c.path}`)).toEqual(['GET /seo/v1/redirects/list']);
    });

    it('reads the regex list the site sends as a position-keyed object', async () => {
      const r = await h.gql(LIST, { f: 'REGEX' }, 'admin');
      expect(r.errors).toBeUndefined();
      expect(r.data.seo.redirects.map((x: any) => [x.format, x.position])).toEqual([
        ['REGEX', 5],
        ['REGEX', 6],
      ]);
    });

    it('lists both formats (one request each) when no format is given', async () => {
      const r = await h.gql(LIST, {}, 'admin');
      expect(r.data.seo.redirects).toHaveLength(7);
      expect(
        h
          .calls()
          .map((c) => c.query.format)
          .sort(),
      ).toEqual(['plain', 'regex']);
    });
  });

  describe('permissions', () => {
    it('asks anonymous callers to authenticate', async () => {
      const r = await h.gql(LIST, { f: 'PLAIN' });
      expect(r.data).toEqual({ seo: { redirects: null } });
      expect(r.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
      expect(r.errors![0]!.extensions!.upstream.route).toBe('GET /seo/v1/redirects/list');
    });

    it('forbids subscribers and editors (no wpseo_manage_redirects)', async () => {
      for (const who of ['subscriber', 'editor'] as const) {
        const r = await h.gql(CREATE, { i: { origin: 'x-forbidden', target: 'events', type: 'FOUND' } }, who);
        expect(r.errors![0]!.extensions!.code).toBe('FORBIDDEN');
      }
      expect(await origins('PLAIN')).not.toContain('x-forbidden');
    });
  });

  describe('bad input never reaches the site', () => {
    it('refuses a redirect type outside 301/302/307/410/451', async () => {
      const r = await h.gql(
        `mutation { seo { createRedirect(input: { origin: "a", target: "b", type: 303 }) { success } } }`,
        {},
        'admin',
      );
      expect(r.errors![0]!.extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const v = await h.gql(CREATE, { i: { origin: 'a', target: 'b', type: 'SEE_OTHER' } }, 'admin');
      expect(v.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
      expect(h.calls()).toEqual([]);
    });

    it('refuses an unknown format', async () => {
      const r = await h.gql(LIST, { f: 'XML' }, 'admin');
      expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
      expect(h.calls()).toEqual([]);
    });

    it('asks for a target unless the type is GONE or UNAVAILABLE_FOR_LEGAL_REASONS', async () => {
      const r = await h.gql(CREATE, { i: { origin: 'no-target', type: 'MOVED_PERMANENTLY' } }, 'admin');
      expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['input.target'] });
      expect(h.calls()).toEqual([]);
    });

    it('refuses an update across formats', async () => {
      const r = await h.gql(
        UPDATE,
        {
          from: { origin: 'a', target: 'b', type: 'FOUND' },
          to: { origin: 'a', target: 'b', type: 'FOUND', format: 'REGEX' },
        },
        'admin',
      );
      expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
      expect(h.calls()).toEqual([]);
    });
  });

  describe('validation rules surface as data', () => {
    it('returns a warning, then creates the redirect when the warning is ignored', async () => {
      const input = { origin: '/old-news/', target: '/no-such-page-anywhere/', type: 'MOVED_PERMANENTLY' };
      const first = await h.gql(CREATE, { i: input }, 'admin');
      expect(first.errors).toBeUndefined();
      expect(first.data.seo.createRedirect).toMatchObject({
        success: false,
        outcome: 'WARNING',
        canIgnore: true,
        title: 'Redirect not created.',
        fields: ['target'],
      });
      expect(first.data.seo.createRedirect.message).toMatch(/404/);
      expect(await origins('PLAIN')).not.toContain('old-news');

      const again = await h.gql(CREATE, { i: input, ig: true }, 'admin');
      expect(again.data.seo.createRedirect).toMatchObject({
        success: true,
        outcome: 'OK',
        canIgnore: false,
        title: 'Redirect created.',
        fields: [],
      });
      expect(await origins('PLAIN')).toContain('old-news');
    });

    it('returns an error that ignoreWarning cannot bypass', async () => {
      for (const ig of [false, true]) {
        const r = await h.gql(CREATE, { i: { origin: 'calendar-2023', target: 'events', type: 'FOUND' }, ig }, 'admin');
        expect(r.errors).toBeUndefined();
        expect(r.data.seo.createRedirect).toMatchObject({
          success: false,
          outcome: 'ERROR',
          canIgnore: false,
          fields: ['origin'],
        });
        expect(r.data.seo.createRedirect.message).toMatch(/already exists/);
      }
      const self = await h.gql(
        CREATE,
        { i: { origin: 'loop-me', target: 'loop-me', type: 'FOUND' }, ig: true },
        'admin',
      );
      expect(self.data.seo.createRedirect.outcome).toBe('ERROR');
    });

    it('reports a store failure as FAILED', async () => {
      // A regex origin equal to a plain one once slashes are trimmed (docs/sandbox-seo.md).
      const r = await h.gql(
        CREATE,
        { i: { origin: '/calendar-2023/', target: 'events', type: 'FOUND', format: 'REGEX' } },
        'admin',
      );
      expect(r.errors).toBeUndefined();
      expect(r.data.seo.createRedirect).toMatchObject({ success: false, outcome: 'FAILED', canIgnore: false });
    });
  });

  describe('update and delete round trips', () => {
    it('creates, updates, lists and deletes a redirect', async () => {
      const made = await h.gql(CREATE, { i: { origin: 'round-trip', target: 'events', type: 'FOUND' } }, 'admin');
      expect(made.data.seo.createRedirect.outcome).toBe('OK');

      const upd = await h.gql(
        UPDATE,
        {
          from: { origin: 'round-trip', target: 'events', type: 'FOUND' },
          to: { origin: 'round-trip-2', target: 'events', type: 'TEMPORARY_REDIRECT' },
        },
        'admin',
      );
      expect(upd.errors).toBeUndefined();
      expect(upd.data.seo.updateRedirect).toMatchObject({ success: true, outcome: 'OK' });
      const list = (await h.gql(LIST, { f: 'PLAIN' }, 'admin')).data.seo.redirects;
      expect(list.find((r: any) => r.origin === 'round-trip')).toBeUndefined();
      expect(list.find((r: any) => r.origin === 'round-trip-2')).toMatchObject({
        target: 'events',
        type: 'TEMPORARY_REDIRECT',
        statusCode: 307,
      });

      const del = await h.gql(DELETE, { o: 'round-trip-2' }, 'admin');
      expect(del.data.seo.deleteRedirect).toMatchObject({ success: true, outcome: 'OK', title: 'Redirect deleted.' });
      expect(await origins('PLAIN')).not.toContain('round-trip-2');

      const twice = await h.gql(DELETE, { o: 'round-trip-2' }, 'admin');
      expect(twice.errors).toBeUndefined();
      expect(twice.data.seo.deleteRedirect).toMatchObject({ success: false, outcome: 'FAILED' });
    });

    it('surfaces an update warning (HTTP 400 upstream) as data, and ignoreWarning gets past it', async () => {
      await h.gql(CREATE, { i: { origin: 'upd-warn', target: 'events', type: 'FOUND' } }, 'admin');
      const vars = {
        from: { origin: 'upd-warn', target: 'events', type: 'FOUND' },
        to: { origin: 'upd-warn', target: 'missing-target-page', type: 'FOUND' },
      };
      const warn = await h.gql(UPDATE, vars, 'admin');
      expect(warn.errors).toBeUndefined();
      expect(warn.data.seo.updateRedirect).toMatchObject({
        success: false,
        outcome: 'WARNING',
        canIgnore: true,
        fields: ['target'],
      });
      const ok = await h.gql(UPDATE, { ...vars, ig: true }, 'admin');
      expect(ok.data.seo.updateRedirect).toMatchObject({ success: true, outcome: 'OK' });
      const list = (await h.gql(LIST, { f: 'PLAIN' }, 'admin')).data.seo.redirects;
      expect(list.find((r: any) => r.origin === 'upd-warn').target).toBe('missing-target-page');
    });

    it('deletes a regex redirect', async () => {
      const before = await origins('REGEX');
      const del = await h.gql(DELETE, { o: before[1], f: 'REGEX' }, 'admin');
      expect(del.data.seo.deleteRedirect.success).toBe(true);
      expect(await origins('REGEX')).toEqual([before[0]]);
    });
  });

  describe('settings', () => {
    it('reads and updates the redirect settings', async () => {
      const q = `{ seo { redirectSettings { disablePhpRedirect separateFile isApache filePath } } }`;
      const before = await h.gql(q, {}, 'admin');
      expect(before.data.seo.redirectSettings).toEqual({
        disablePhpRedirect: false,
        separateFile: false,
        isApache: false,
        filePath: '/var/www/html/wp-content/uploads/wpseo-redirects/.redirects',
      });
      const put = await h.gql(
        `mutation { seo { updateRedirectSettings(disablePhpRedirect: true, separateFile: false) { disablePhpRedirect separateFile message } } }`,
        {},
        'admin',
      );
      expect(put.errors).toBeUndefined();
      expect(put.data.seo.updateRedirectSettings).toMatchObject({ disablePhpRedirect: true, separateFile: false });
      expect(put.data.seo.updateRedirectSettings.message).toMatch(/updated/);
      const after = await h.gql(q, {}, 'admin');
      expect(after.data.seo.redirectSettings.disablePhpRedirect).toBe(true);
      const calls = h.calls().map((c) => `${c.method} ${c.path}`);
      expect(calls).toEqual([
        'GET /seo/v1/redirects/settings',
        'PUT /seo/v1/redirects/settings',
        'GET /seo/v1/redirects/settings',
      ]);
    });

    it('forbids subscribers to read the settings', async () => {
      const r = await h.gql(`{ seo { redirectSettings { separateFile } } }`, {}, 'subscriber');
      expect(r.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    });
  });

  describe('undo for object', () => {
    it('removes the redirects to a post, then reports nothing left to undo', async () => {
      const seeded = (await h.gql(LIST, { f: 'PLAIN' }, 'admin')).data.seo.redirects.find(
        (r: any) => r.origin === 'old-summer-festival',
      );
      const slug = seeded.target.replace(/^event\//, '').replace(/\/$/, '');
      const ev = await h.gql(`query($s: ID!) { event(id: $s, idType: SLUG) { databaseId } }`, { s: slug });
      const id = ev.data.event.databaseId;
      const m = `mutation($id: Int!, $k: SeoObjectKind!) { seo { undoRedirectsForObject(objectId: $id, kind: $k) { success outcome title } } }`;

      const denied = await h.gql(m, { id, k: 'POST' }, 'subscriber');
      expect(denied.errors![0]!.extensions!.code).toBe('FORBIDDEN');

      const r = await h.gql(m, { id, k: 'POST' }, 'editor');
      expect(r.errors).toBeUndefined();
      expect(r.data.seo.undoRedirectsForObject).toMatchObject({
        success: true,
        outcome: 'OK',
        title: 'Redirect deleted.',
      });
      expect(await origins('PLAIN')).not.toContain('old-summer-festival');

      const again = await h.gql(m, { id, k: 'POST' }, 'editor');
      expect(again.data.seo.undoRedirectsForObject).toMatchObject({ success: false, outcome: 'FAILED' });

      const badKind = await h.gql(m, { id, k: 'COMMENT' }, 'admin');
      expect(badKind.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    });
  });

  describe('bulk import', () => {
    const IMPORT = `mutation($inputs: [RedirectInput!]!, $ignore: Boolean) { seo { importRedirects(inputs: $inputs, ignoreWarning: $ignore) {
      index result { outcome success fields } error { code path } } } }`;

    it('creates many redirects in input order, direct when the route is not batchable, warnings as data', async () => {
      const inputs = [
        { origin: '/bulk-one', target: '/about', type: 'MOVED_PERMANENTLY' },
        { origin: '/bulk-two', type: 'GONE' },
        { origin: '/bulk-one', target: '/elsewhere', type: 'FOUND' },
        { origin: '/bulk-three', target: '/wp-json/x', type: 'FOUND' },
      ];
      const r = await h.gql(IMPORT, { inputs }, 'admin');
      expect(r.errors).toBeUndefined();
      const items = r.data.seo.importRedirects;
      expect(items.map((i: any) => i.index)).toEqual([0, 1, 2, 3]);
      expect(items[0].result.outcome).toBe('OK');
      expect(items[1].result.outcome).toBe('OK');
      // A duplicate origin is an error; a wp-json target a warning.
      expect(items[2].result).toMatchObject({ outcome: 'ERROR', fields: ['origin'] });
      expect(items[3].result.outcome).toBe('WARNING');
      // The seo routes are not batchable on this site: one direct POST per item, no /batch/v1.
      const posts = h.calls().filter((c) => c.path === '/seo/v1/redirects');
      expect(posts).toHaveLength(4);
      expect(h.calls().some((c) => c.path === '/batch/v1')).toBe(false);
      expect(await origins('PLAIN')).toEqual(expect.arrayContaining(['bulk-one', 'bulk-two']));
    });

    it('reports refusals per item and checks inputs before sending', async () => {
      const denied = await h.gql(
        IMPORT,
        { inputs: [{ origin: '/bulk-x', target: '/y', type: 'FOUND' }] },
        'subscriber',
      );
      expect(denied.data.seo.importRedirects[0]).toMatchObject({
        result: null,
        error: { code: 'FORBIDDEN', path: ['inputs', '0'] },
      });
      h.mark();
      const bad = await h.gql(
        IMPORT,
        {
          inputs: [
            { origin: '/ok', target: '/y', type: 'FOUND' },
            { origin: '/no-target', type: 'FOUND' },
          ],
        },
        'admin',
      );
      expect(bad.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['inputs[1].target'] });
      expect(h.calls()).toHaveLength(0);
    });
  });
});
