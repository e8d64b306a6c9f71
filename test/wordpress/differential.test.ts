/**
 * Differential: the same REST requests to the sandbox (packages/sandbox/src/) and to real
 * WordPress (scripts/wordpress/), both under WordPress's own names (`wp/v2`: the
 * sandbox with `names: 'plugin'`, WordPress unmodified), comparing what the
 * gateway depends on: the status, the error `code` (and the parameters an
 * invalid-parameter error names), and the set of top-level keys of the body (of
 * the first item for lists; per item for /batch/v1). The sandbox must not drift
 * from WordPress on these routes.
 *
 * The sandbox runs without seo/v1 (real WordPress has no Yoast, so no
 * `yoast_head*` keys) and treats a wrong application password the way the real
 * site's release does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { testSandbox } from '../helpers/sandbox.ts';
import { basic, rest, wpAtLeast, wpSite, type Reply, type WpSite } from './site.ts';

type Who = 'admin' | 'wrong' | null;

interface Target {
  name: 'sandbox' | 'wordpress';
  root: string;
  auth(who: Who): string | null;
  /** The newest published post: its ID, permalink and first category. */
  post: { id: number; link: string; author: number; categories: number[] };
  /** Cleanup of posts created by the cases. */
  created: number[];
}

interface Case {
  name: string;
  method?: string;
  /** A function may create what the request needs first (a post to update or delete). */
  path: string | ((t: Target) => string | Promise<string>);
  /** A function may create what the body refers to first. */
  body?: unknown | ((t: Target) => Promise<unknown>);
  who?: Who;
  shape?: (r: Reply) => unknown;
}

const IGNORED_KEYS = new Set(['yoast_head', 'yoast_head_json']);
const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

function keysOf(body: unknown): string[] | string {
  if (Array.isArray(body)) return body.length ? keysOf(body[0]) : '(empty list)';
  if (isObj(body))
    return Object.keys(body)
      .filter((k) => !IGNORED_KEYS.has(k))
      .sort();
  return typeof body;
}

/** What the gateway reads from an answer. */
function shape(r: Reply): Record<string, unknown> {
  const b = r.body;
  const out: Record<string, unknown> = { status: r.status, keys: keysOf(b) };
  if (Array.isArray(b)) {
    // The gateway pages with these.
    out.totals = [r.headers.has('x-wp-total'), r.headers.has('x-wp-totalpages')];
    out.links = [...(r.headers.get('link') ?? '').matchAll(/rel="(prev|next)"/g)].map((m) => m[1]);
  }
  if (r.status === 201) out.location = r.headers.has('location');
  if (isObj(b) && typeof b.code === 'string') {
    out.code = b.code;
    const params = b.data?.params;
    if (Array.isArray(params)) out.params = [...params].sort();
    else if (isObj(params)) out.params = Object.keys(params).sort();
    if (isObj(b.data?.details))
      out.details = Object.fromEntries(Object.entries(b.data.details).map(([k, v]) => [k, (v as any)?.code ?? null]));
  }
  return out;
}

function batchShape(r: Reply): Record<string, unknown> {
  const b = r.body;
  if (!isObj(b) || !Array.isArray(b.responses)) return shape(r);
  return {
    status: r.status,
    keys: keysOf(b),
    failed: b.failed ?? null,
    responses: b.responses.map((x: any) =>
      x === null ? null : { ...shape({ status: x.status, headers: new Headers(), body: x.body }), envelope: keysOf(x) },
    ),
  };
}

const draft = (title: string) => ({ path: '/wp/v2/posts', body: { title, status: 'draft' } });

const CASES: Case[] = [
  // ---- lists
  { name: 'list', path: '/wp/v2/posts' },
  { name: 'list, second page of 3', path: '/wp/v2/posts?per_page=3&page=2' },
  { name: 'list, search + orderby title asc', path: '/wp/v2/posts?search=post&orderby=title&order=asc' },
  {
    name: 'list, orderby id + include + exclude',
    path: (t) => `/wp/v2/posts?orderby=include&include=${t.post.id}&exclude=999999`,
  },
  {
    name: 'list, author + author_exclude',
    path: (t) => `/wp/v2/posts?author=${t.post.author}&author_exclude=999999&per_page=1`,
  },
  {
    name: 'list, after/before/modified_after/modified_before',
    path: '/wp/v2/posts?after=2000-01-01T00:00:00&before=2100-01-01T00:00:00&modified_after=2000-01-01T00:00:00&modified_before=2100-01-01T00:00:00',
  },
  { name: 'list, slug', path: '/wp/v2/posts?slug=no-such-slug' },
  {
    name: 'list, categories/tags lists + tax_relation',
    path: (t) => `/wp/v2/posts?categories=${t.post.categories[0]}&tags=999999&tax_relation=OR`,
  },
  {
    name: 'list, categories as an object',
    path: (t) =>
      `/wp/v2/posts?categories[terms]=${t.post.categories[0]}&categories[include_children]=true&categories[operator]=AND`,
  },
  {
    name: 'list, categories_exclude + tags_exclude',
    path: '/wp/v2/posts?categories_exclude=999999&tags_exclude=999999',
  },
  { name: 'list, sticky=false', path: '/wp/v2/posts?sticky=false' },
  { name: 'list, offset', path: '/wp/v2/posts?offset=2&per_page=2' },
  { name: 'list, _fields', path: '/wp/v2/posts?_fields=id,title' },
  { name: 'list, context=embed', path: '/wp/v2/posts?context=embed' },
  { name: 'list, context=edit as the administrator', path: '/wp/v2/posts?context=edit', who: 'admin' },
  { name: 'list, context=edit anonymous: 401 rest_forbidden_context', path: '/wp/v2/posts?context=edit' },
  { name: 'list, status=draft anonymous: 400 wrapping rest_forbidden_status', path: '/wp/v2/posts?status=draft' },
  { name: 'list, status=draft as the administrator', path: '/wp/v2/posts?status=draft', who: 'admin' },
  { name: 'list, orderby=relevance without search: 400', path: '/wp/v2/posts?orderby=relevance' },
  { name: 'list, orderby=include without include: 400', path: '/wp/v2/posts?orderby=include' },
  // ---- bad arguments
  { name: 'bad argument: per_page=abc', path: '/wp/v2/posts?per_page=abc' },
  { name: 'bad argument: orderby=bogus', path: '/wp/v2/posts?orderby=bogus' },
  { name: 'bad argument: after=notadate', path: '/wp/v2/posts?after=notadate' },
  {
    name: 'bad argument: status=bogus anonymous (the status permission check comes first)',
    path: '/wp/v2/posts?status=bogus',
  },
  { name: 'bad argument: status=bogus as the administrator', path: '/wp/v2/posts?status=bogus', who: 'admin' },
  { name: 'per_page=101: 400 rest_out_of_bounds', path: '/wp/v2/posts?per_page=101' },
  { name: 'per_page=0: 400', path: '/wp/v2/posts?per_page=0' },
  { name: 'page=0: 400', path: '/wp/v2/posts?page=0' },
  { name: 'page past the end: 400 rest_post_invalid_page_number', path: '/wp/v2/posts?page=9999' },
  { name: 'page 2 of nothing: 200 []', path: '/wp/v2/posts?search=no-such-word-anywhere&page=2' },
  // ---- single posts
  { name: 'single post', path: (t) => `/wp/v2/posts/${t.post.id}` },
  { name: 'missing post: 404 rest_post_invalid_id', path: '/wp/v2/posts/999999' },
  {
    name: 'missing post, DELETE as the administrator: 404 rest_post_invalid_id',
    method: 'DELETE',
    path: '/wp/v2/posts/999999?force=true',
    who: 'admin',
  },
  // ---- writes and authentication
  {
    name: 'create without credentials: 401 rest_cannot_create',
    method: 'POST',
    path: '/wp/v2/posts',
    body: { title: 'x' },
  },
  {
    name: 'create with a wrong application password',
    method: 'POST',
    path: '/wp/v2/posts',
    body: { title: 'x' },
    who: 'wrong',
  },
  { name: 'read with a wrong application password', path: '/wp/v2/posts?per_page=1', who: 'wrong' },
  {
    name: 'create as the administrator: 201, context edit',
    method: 'POST',
    path: '/wp/v2/posts',
    body: { title: 'Differential', status: 'draft' },
    who: 'admin',
  },
  {
    name: 'create with a bad status: 400 rest_invalid_param',
    method: 'POST',
    path: '/wp/v2/posts',
    body: { title: 'x', status: 'bogus' },
    who: 'admin',
  },
  {
    name: 'create with an id: 400 rest_post_exists',
    method: 'POST',
    path: '/wp/v2/posts',
    body: { id: 1, title: 'x' },
    who: 'admin',
  },
  { name: 'unknown route: 404 rest_no_route', path: '/wp/v2/nothing-here' },
  {
    name: 'trash a post (DELETE without force): 200, the post itself',
    method: 'DELETE',
    path: async (t) => `/wp/v2/posts/${await scratch(t)}`,
    who: 'admin',
  },
  {
    name: 'trash a trashed post: 410 rest_already_trashed',
    method: 'DELETE',
    path: async (t) => {
      const id = await scratch(t);
      await rest(t.root, 'DELETE', `/wp/v2/posts/${id}`, { auth: t.auth('admin') });
      return `/wp/v2/posts/${id}`;
    },
    who: 'admin',
  },
  {
    name: 'delete with force: 200 {deleted, previous}',
    method: 'DELETE',
    path: async (t) => `/wp/v2/posts/${await scratch(t)}?force=true`,
    who: 'admin',
  },
  {
    name: 'delete without credentials: 401 rest_cannot_delete',
    method: 'DELETE',
    path: (t) => `/wp/v2/posts/${t.post.id}`,
  },
  // ---- batch/v1
  {
    name: 'batch: a posts create and an invalid item (normal)',
    method: 'POST',
    path: '/batch/v1',
    who: 'admin',
    body: { requests: [draft('Batched 1'), { path: '/wp/v2/posts', body: { title: 'bad', status: 'bogus' } }] },
    shape: batchShape,
  },
  {
    name: 'batch: require-all-validate with an invalid item',
    method: 'POST',
    path: '/batch/v1',
    who: 'admin',
    body: {
      validation: 'require-all-validate',
      requests: [draft('Never written'), { path: '/wp/v2/posts', body: { status: 'bogus' } }],
    },
    shape: batchShape,
  },
  {
    name: 'batch: require-all-validate, all valid',
    method: 'POST',
    path: '/batch/v1',
    who: 'admin',
    body: { validation: 'require-all-validate', requests: [draft('Batched 2'), draft('Batched 3')] },
    shape: batchShape,
  },
  {
    name: 'batch: a delete item on a missing wp/v2 post',
    method: 'POST',
    path: '/batch/v1',
    who: 'admin',
    body: { requests: [{ method: 'DELETE', path: '/wp/v2/posts/999999?force=true' }] },
    shape: batchShape,
  },
  {
    name: 'batch: anonymous create item: 207 with a 401 item',
    method: 'POST',
    path: '/batch/v1',
    body: { requests: [draft('anon')] },
    shape: batchShape,
  },
  {
    name: 'batch: unknown route item: rest_no_route',
    method: 'POST',
    path: '/batch/v1',
    who: 'admin',
    body: { requests: [{ path: '/wp/v2/nothing-here', body: {} }] },
    shape: batchShape,
  },
  {
    name: 'batch: a GET item: whole-batch 400',
    method: 'POST',
    path: '/batch/v1',
    who: 'admin',
    body: { requests: [{ method: 'GET', path: '/wp/v2/posts' }] },
    shape: batchShape,
  },
  {
    name: 'batch: 26 items: 400 rest_too_many_items',
    method: 'POST',
    path: '/batch/v1',
    who: 'admin',
    body: { requests: Array.from({ length: 26 }, () => draft('too many')) },
    shape: batchShape,
  },
  { name: 'batch: GET /batch/v1: 404 rest_no_route', path: '/batch/v1' },
  // ---- oEmbed
  { name: 'oEmbed of the newest post', path: (t) => `/oembed/1.0/embed?url=${encodeURIComponent(t.post.link)}` },
  {
    name: 'oEmbed with maxwidth',
    path: (t) => `/oembed/1.0/embed?url=${encodeURIComponent(t.post.link)}&maxwidth=300`,
  },
  {
    name: 'oEmbed of an unknown URL: 404 oembed_invalid_url',
    path: (t) => `/oembed/1.0/embed?url=${encodeURIComponent(`${new URL(t.root).origin}/no-such-post/`)}`,
  },
  { name: 'oEmbed without url: 400 rest_missing_callback_param', path: '/oembed/1.0/embed' },
  {
    name: 'oEmbed proxy anonymous: 401 rest_forbidden',
    path: (t) => `/oembed/1.0/proxy?url=${encodeURIComponent(t.post.link)}`,
  },
  {
    name: 'oEmbed proxy as the administrator, own URL',
    path: (t) => `/oembed/1.0/proxy?url=${encodeURIComponent(t.post.link)}`,
    who: 'admin',
  },
  // ---- indexes
  {
    name: 'root index: the wp/v2/posts entry',
    path: '/',
    shape: (r) => {
      const route = r.body?.routes?.['/wp/v2/posts'];
      return {
        status: r.status,
        listed: (r.body?.namespaces ?? []).includes('wp/v2'),
        route: keysOf(route),
        namespace: route?.namespace,
        methods: route?.methods,
        endpoints: (route?.endpoints ?? []).map((e: any) => ({
          keys: keysOf(e),
          methods: e.methods,
          allow_batch: e.allow_batch ?? null,
        })),
      };
    },
  },
  {
    name: 'root index: the batch/v1 and oembed entries',
    path: '/',
    shape: (r) => {
      const pick = (p: string) => {
        const route = r.body?.routes?.[p];
        return (
          route && {
            keys: keysOf(route),
            namespace: route.namespace,
            methods: route.methods,
            endpoints: route.endpoints.map((e: any) => ({
              keys: keysOf(e),
              allow_batch: e.allow_batch ?? null,
              args: Object.keys(e.args ?? {}).sort(),
            })),
          }
        );
      };
      return {
        batch: pick('/batch/v1'),
        embed: pick('/oembed/1.0/embed'),
        proxy: pick('/oembed/1.0/proxy'),
        authentication: keysOf(r.body?.authentication),
      };
    },
  },
  {
    name: 'namespace index GET /wp/v2',
    path: '/wp/v2',
    shape: (r) => ({
      status: r.status,
      keys: keysOf(r.body),
      namespace: r.body?.namespace,
      hasPosts: Boolean(r.body?.routes?.['/wp/v2/posts']),
    }),
  },
];

/**
 * Routes of real WordPress beyond the spec's (which has only GET/POST /core/v2/posts, WordPress's /wp/v2/posts):
 * reads, updates and deletes of single posts, which the sandbox serves too.
 */
const BEYOND_SPEC: Case[] = [
  {
    name: 'update a post: 200, context edit',
    method: 'POST',
    path: async (t) => `/wp/v2/posts/${await scratch(t)}`,
    body: { title: 'Updated' },
    who: 'admin',
  },
  {
    name: 'update a post with PATCH',
    method: 'PATCH',
    path: async (t) => `/wp/v2/posts/${await scratch(t)}`,
    body: { excerpt: 'Patched' },
    who: 'admin',
  },
  {
    name: 'update a post with PUT, publishing it',
    method: 'PUT',
    path: async (t) => `/wp/v2/posts/${await scratch(t)}`,
    body: { status: 'publish', title: 'Published by PUT' },
    who: 'admin',
  },
  {
    name: 'update without credentials: 401 rest_cannot_edit',
    method: 'POST',
    path: (t) => `/wp/v2/posts/${t.post.id}`,
    body: { title: 'x' },
  },
  {
    name: 'update a missing post: 404 rest_post_invalid_id',
    method: 'PATCH',
    path: '/wp/v2/posts/999999',
    body: { title: 'x' },
    who: 'admin',
  },
  {
    name: 'update a missing post without credentials: 404 rest_post_invalid_id',
    method: 'PATCH',
    path: '/wp/v2/posts/999999',
    body: { title: 'x' },
  },
  {
    name: 'update with a bad status: 400 rest_invalid_param',
    method: 'PATCH',
    path: (t) => `/wp/v2/posts/${t.post.id}`,
    body: { status: 'bogus' },
    who: 'admin',
  },
  {
    name: 'update with a bad value, anonymous: the 400 comes before the 401',
    method: 'PATCH',
    path: (t) => `/wp/v2/posts/${t.post.id}`,
    body: { status: 'bogus', comment_status: 'maybe' },
  },
  {
    name: 'update with an unknown author: 400 rest_invalid_author',
    method: 'PATCH',
    path: async (t) => `/wp/v2/posts/${await scratch(t)}`,
    body: { author: 999999 },
    who: 'admin',
  },
  {
    name: 'single post, context=edit as the administrator',
    path: (t) => `/wp/v2/posts/${t.post.id}?context=edit`,
    who: 'admin',
  },
  {
    name: 'single post, context=edit anonymous: 401 rest_forbidden_context',
    path: (t) => `/wp/v2/posts/${t.post.id}?context=edit`,
  },
  {
    name: 'batch: an update item on a missing wp/v2 post: rest_post_invalid_id',
    method: 'POST',
    path: '/batch/v1',
    who: 'admin',
    body: { requests: [{ method: 'PUT', path: '/wp/v2/posts/999999', body: { title: 'x' } }] },
    shape: batchShape,
  },
  {
    name: 'batch: PATCH and DELETE items on a post',
    method: 'POST',
    path: '/batch/v1',
    who: 'admin',
    body: async (t: Target) => {
      const id = await scratch(t);
      return {
        requests: [
          { method: 'PATCH', path: `/wp/v2/posts/${id}`, body: { title: 'Batched update' } },
          { method: 'DELETE', path: `/wp/v2/posts/${id}?force=true` },
        ],
      };
    },
    shape: batchShape,
  },
];

/**
 * The arguments of GET/POST /wp/v2/posts in the root index. WordPress adds list
 * arguments over releases (search_columns 6.2, format 6.3, search_semantics 6.9),
 * and the sandbox models the spec (the newest): an argument the real site lacks is
 * allowed only if it is one of those; anything else differs.
 */
const NEWER_WORDPRESS_LIST_ARGS: Record<string, [number, number]> = {
  search_columns: [6, 2],
  format: [6, 3],
  search_semantics: [6, 9],
};

let site: WpSite;
let sandbox: RunningSandbox;
const targets: Target[] = [];

async function newestPost(root: string): Promise<Target['post']> {
  const r = await rest(root, 'GET', '/wp/v2/posts?per_page=1&_fields=id,link,author,categories');
  const [p] = r.body as Target['post'][];
  if (!p) throw new Error(`no posts at ${root}`);
  return p;
}

beforeAll(async () => {
  site = wpSite();
  // WordPress 6.1 treats a wrong application password as anonymous; 6.8 answers 401 incorrect_password.
  sandbox = await testSandbox({
    names: 'plugin',
    disable: ['seo/v1'],
    timezone: 'Europe/Paris',
    wrongPassword: wpAtLeast(site, 6, 8) ? 'error' : 'anonymous',
  });
  const sbAdmin = sandbox.users.find((u) => u.login === 'admin')!;
  const wrong = (login: string) => basic(login, 'abcdABCDabcdABCDabcdABCD');
  targets.push(
    {
      name: 'sandbox',
      root: sandbox.url,
      auth: (who) =>
        who === 'admin' ? basic(sbAdmin.login, sbAdmin.appPassword) : who === 'wrong' ? wrong(sbAdmin.login) : null,
      post: await newestPost(sandbox.url),
      created: [],
    },
    {
      name: 'wordpress',
      root: site.restUrl,
      auth: (who) =>
        who === 'admin'
          ? basic(site.admin.login, site.admin.appPassword)
          : who === 'wrong'
            ? wrong(site.admin.login)
            : null,
      post: await newestPost(site.restUrl),
      created: [],
    },
  );
});

afterAll(async () => {
  const wp = targets.find((t) => t.name === 'wordpress');
  if (wp)
    for (const id of wp.created)
      await rest(wp.root, 'DELETE', `/wp/v2/posts/${id}?force=true`, { auth: wp.auth('admin') });
  await sandbox?.close();
});

/** A draft to update or delete, created as the administrator. */
async function scratch(t: Target): Promise<number> {
  const r = await rest(t.root, 'POST', '/wp/v2/posts', {
    body: { title: 'Scratch', status: 'draft' },
    auth: t.auth('admin'),
  });
  if (r.status !== 201) throw new Error(`${t.name}: could not create a scratch post (${r.status})`);
  t.created.push(r.body.id);
  return r.body.id;
}

async function send(t: Target, c: Case): Promise<Reply> {
  const path = typeof c.path === 'function' ? await c.path(t) : c.path;
  const body = typeof c.body === 'function' ? await (c.body as (t: Target) => Promise<unknown>)(t) : c.body;
  const r = await rest(t.root, c.method ?? 'GET', path, { body, auth: t.auth(c.who ?? null) });
  // Remember what was written, to clean the real site up afterwards.
  const b = r.body as any;
  if (r.status === 201 && typeof b?.id === 'number') t.created.push(b.id);
  if (Array.isArray(b?.responses))
    for (const x of b.responses) if (x?.status === 201 && typeof x.body?.id === 'number') t.created.push(x.body.id);
  return r;
}

describe('sandbox vs real WordPress: status, error code, top-level keys', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const [sb, wp] = await Promise.all(targets.map((t) => send(t, c)));
      const f = c.shape ?? shape;
      expect(f(sb!), `sandbox vs WordPress ${site.wpVersion}`).toEqual(f(wp!));
    });
  }

  for (const c of BEYOND_SPEC) {
    it(`beyond the spec: ${c.name}`, async () => {
      const [sb, wp] = await Promise.all(targets.map((t) => send(t, c)));
      const f = c.shape ?? shape;
      expect(f(sb!), `sandbox vs WordPress ${site.wpVersion}`).toEqual(f(wp!));
    });
  }

  it('root index: the arguments of GET and POST /wp/v2/posts', async () => {
    const [sb, wp] = await Promise.all(targets.map((t) => rest(t.root, 'GET', '/')));
    const argsOf = (r: Reply, method: string) => {
      const e = (r.body.routes['/wp/v2/posts'].endpoints as any[]).find((x) => x.methods.includes(method));
      return Object.keys(e?.args ?? {}).sort();
    };
    for (const method of ['GET', 'POST']) {
      const real = argsOf(wp!, method);
      const newer =
        method === 'GET'
          ? Object.entries(NEWER_WORDPRESS_LIST_ARGS)
              .filter(([, v]) => !wpAtLeast(site, v[0], v[1]))
              .map(([k]) => k)
          : [];
      const expected = [...new Set([...real, ...argsOf(sb!, method).filter((a) => newer.includes(a))])].sort();
      expect(argsOf(sb!, method), `${method} /wp/v2/posts args`).toEqual(expected);
    }
  });

  it('root index: the list orderby enum and paging limits', async () => {
    const [sb, wp] = await Promise.all(targets.map((t) => rest(t.root, 'GET', '/')));
    const listArgs = (r: Reply) =>
      (r.body.routes['/wp/v2/posts'].endpoints as any[]).find((x) => x.methods.includes('GET')).args;
    // The spec's orderby enum adds `rand`, which WordPress core does not offer (a site plugin can).
    const pick = (a: any) => ({
      orderby: (a.orderby?.enum as string[]).filter((x) => x !== 'rand'),
      perPage: [a.per_page?.minimum, a.per_page?.maximum, a.per_page?.default],
      page: [a.page?.minimum, a.page?.default],
    });
    expect(pick(listArgs(sb!))).toEqual(pick(listArgs(wp!)));
  });
});
