/**
 * `oembed/1.0` embed and proxy (reference/site-upstream.md §9): which URLs
 * resolve, width clamping and the 16:9 height, the XML format, the proxy's
 * permission and its own-site short circuit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const EMBED = '/oembed/1.0/embed';
const PROXY = '/oembed/1.0/proxy';

describe('oembed/1.0', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  const one = (sql: string) =>
    sb.site.store.db.prepare(sql).get() as {
      id: number;
      slug: string;
      title: string;
      author: number;
      featured_media: number;
    };
  const q = (url: string, extra = '') => `?url=${encodeURIComponent(url)}${extra}`;
  let post: ReturnType<typeof one>;

  beforeAll(async () => {
    sb = await testSandbox({ events: 30 });
    api = restClient(sb);
    post = one(
      "SELECT * FROM posts WHERE type = 'post' AND status = 'publish' AND password = '' AND featured_media = 0 ORDER BY id LIMIT 1",
    );
  });
  afterAll(() => sb.close());

  describe('embed', () => {
    it('answers the rich oEmbed object of a published post, at 600 x 338 by default', async () => {
      const r = await api.get(`${EMBED}${q(`${sb.origin}/${post.slug}/`)}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual([
        'version',
        'provider_name',
        'provider_url',
        'author_name',
        'author_url',
        'title',
        'type',
        'width',
        'height',
        'html',
      ]);
      const author = sb.site.store.userById(post.author)!;
      expect(r.body).toMatchObject({
        version: '1.0',
        provider_name: 'Sitegraph Sandbox',
        provider_url: sb.origin,
        author_name: author.displayName,
        author_url: `${sb.origin}/author/${author.login}/`,
        title: post.title,
        type: 'rich',
        width: 600,
        height: 338,
      });
      expect(r.body.html).toMatch(/^<blockquote class="wp-embedded-content" data-secret="(\w{10})"><a href="[^"]+">/);
      expect(r.body.html).toContain(`src="${sb.origin}/${post.slug}/embed/#?secret=`);
      expect(r.body.html).toContain('sandbox="allow-scripts" security="restricted"');
      expect(r.body.html).toContain('width="600" height="338"');
    });

    it.each([
      ['100', 200, 200],
      ['200', 200, 200],
      ['400', 400, 225],
      ['480', 480, 270],
      ['601', 600, 338],
      ['5000', 600, 338],
      ['-400', 400, 225],
      ['abc', 200, 200],
    ])('clamps maxwidth=%s to %i wide, %i high', async (maxwidth, width, height) => {
      const r = await api.get(`${EMBED}${q(`${sb.origin}/${post.slug}/`, `&maxwidth=${maxwidth}`)}`);
      expect(r.status).toBe(200);
      expect([r.body.width, r.body.height]).toEqual([width, height]);
    });

    it('resolves ?p= links, pages, events, and /embed/ suffixes', async () => {
      expect((await api.get(`${EMBED}${q(`${sb.origin}/?p=${post.id}`)}`)).body.title).toBe(post.title);
      expect((await api.get(`${EMBED}${q(`${sb.origin}/${post.slug}/embed/`)}`)).body.title).toBe(post.title);
      expect((await api.get(`${EMBED}${q(`${sb.origin}/about/`)}`)).body.title).toBe('About');
      const event = one(
        "SELECT * FROM posts WHERE type = 'calendar_events' AND status = 'publish' ORDER BY id LIMIT 1",
      );
      const r = await api.get(`${EMBED}${q(`${sb.origin}/event/${event.slug}/`)}`);
      expect(r.status).toBe(200);
      expect(r.body.title).toBe(event.title);
      expect(r.body.html).toContain(`${sb.origin}/event/${event.slug}/embed/`);
    });

    it('adds the featured image as a thumbnail, sized for the width', async () => {
      const withImage = one(
        "SELECT * FROM posts WHERE type = 'post' AND status = 'publish' AND featured_media > 0 ORDER BY id LIMIT 1",
      );
      const r = await api.get(`${EMBED}${q(`${sb.origin}/${withImage.slug}/`, '&maxwidth=300')}`);
      expect(r.body).toMatchObject({ thumbnail_width: 300, thumbnail_height: 200 });
      expect(r.body.thumbnail_url).toMatch(new RegExp(`^${sb.origin}/wp-content/uploads/demo-\\d-300x200\\.jpg$`));
      const wide = await api.get(`${EMBED}${q(`${sb.origin}/${withImage.slug}/`)}`);
      expect(wide.body).toMatchObject({ thumbnail_width: 600, thumbnail_height: 400 });
      expect(wide.body.thumbnail_url).toMatch(/-1024x683\.jpg$/);
    });

    it.each([
      [
        'a draft',
        () => `${sb.origin}/?p=${one("SELECT * FROM posts WHERE type = 'post' AND status = 'draft' LIMIT 1").id}`,
      ],
      [
        'a private post',
        () => `${sb.origin}/${one("SELECT * FROM posts WHERE type = 'post' AND status = 'private' LIMIT 1").slug}/`,
      ],
      ['an unknown slug', () => `${sb.origin}/no-such-post/`],
      ['another host', () => `https://example.com/${post.slug}/`],
      ['the home page', () => `${sb.origin}/`],
    ])('answers 404 oembed_invalid_url for %s', async (_what, url) => {
      const r = await api.get(`${EMBED}${q(url())}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
    });

    it('needs url, and a URI', async () => {
      const missing = await api.get(EMBED);
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['url'] } });
      const bad = await api.get(`${EMBED}?url=not-a-url`);
      expect(bad.status).toBe(400);
      expect(bad.body.data.details.url.code).toBe('rest_invalid_uri');
    });

    it('answers text/xml with an <oembed> root for format=xml', async () => {
      const r = await api.get(`${EMBED}${q(`${sb.origin}/${post.slug}/`, '&format=xml&maxwidth=400')}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/xml; charset=UTF-8');
      expect(r.text).toMatch(
        /^<\?xml version="1\.0"\?>\n<oembed><version>1\.0<\/version><provider_name>Sitegraph Sandbox<\/provider_name>/,
      );
      expect(r.text).toContain(
        '<type>rich</type><width>400</width><height>225</height><html>&lt;blockquote class="wp-embedded-content"',
      );
      expect(r.text.trim().endsWith('</oembed>')).toBe(true);
    });

    it('sends the 404 as XML too, and treats any other format as json', async () => {
      const r = await api.get(`${EMBED}${q(`${sb.origin}/nope/`, '&format=xml')}`);
      expect(r.status).toBe(404);
      expect(r.text).toBe(
        '<?xml version="1.0"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n',
      );
      const other = await api.get(`${EMBED}${q(`${sb.origin}/${post.slug}/`, '&format=yaml')}`);
      expect(other.headers.get('content-type')).toContain('application/json');
      expect(other.body.version).toBe('1.0');
    });
  });

  describe('proxy', () => {
    it.each([
      [null, 401],
      ['subscriber', 403],
    ] as const)('refuses %s (%i) with its own message', async (who, status) => {
      const r = await api.get(`${PROXY}${q(`${sb.origin}/${post.slug}/`)}`, who);
      expect(r.status).toBe(status);
      expect(r.body).toEqual({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to make proxied oEmbed requests.',
        data: { status },
      });
    });

    it('answers own-site URLs locally for a contributor, clamped like embed', async () => {
      const r = await api.get(
        `${PROXY}${q(`${sb.origin}/${post.slug}/`, '&maxwidth=250&maxheight=50&discover=false')}`,
        'contributor',
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ title: post.title, type: 'rich', width: 250, height: 200 });
      const xml = await api.get(`${PROXY}${q(`${sb.origin}/${post.slug}/`, '&format=xml')}`, 'contributor');
      expect(xml.body.width).toBe(600);
    });

    it('answers 404 oembed_invalid_url for other sites (the sandbox has no internet)', async () => {
      const r = await api.get(`${PROXY}${q('https://www.youtube.com/watch?v=dQw4w9WgXcQ')}`, 'editor');
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
    });

    it('validates before checking permission: format, maxwidth and discover', async () => {
      const r = await api.get(`${PROXY}${q(`${sb.origin}/x/`, '&format=yaml&maxwidth=wide&discover=maybe')}`);
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.data.params).sort()).toEqual(['discover', 'format', 'maxwidth']);
      expect(r.body.data.params.format).toBe('format is not one of json and xml.');
    });
  });
});
