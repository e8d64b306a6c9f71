/**
 * Either name for every namespace (src/upstream/names.ts, discovery.ts, session.ts;
 * docs/real-sites.md, "Namespace names"): discovery reads which name the site
 * serves each spec namespace and route under and turns the index into spec
 * names; the operation's session sends spec paths in the site's names. Indexes
 * here are fixtures in the root index's shape; test/e2e/plugin-names.test.ts
 * runs the same over the sandbox, and test/wordpress/ over real WordPress.
 */
import { describe, expect, it } from 'vitest';
import { readSpecRoutes } from '../../src/routes-tsv.ts';
import { SiteState } from '../../src/site.ts';
import {
  UpstreamClient,
  type UpstreamAttemptEvent,
  type UpstreamRequest,
  type UpstreamResponse,
  type UpstreamSession,
} from '../../src/upstream/client.ts';
import { allowsBatch, declaredArgs, parseIndex } from '../../src/upstream/discovery.ts';
import { siteOffers } from '../../src/upstream/gate.ts';
import {
  NAMESPACE_RENAMES,
  ROUTE_RENAMES,
  specNamespace,
  toSitePath,
  toSiteRequest,
  toSpecPath,
} from '../../src/upstream/names.ts';
import { pluginPathOf } from '../../src/namespaces/route-table.ts';
import { createOperationSession } from '../../src/upstream/session.ts';
import { sendWrites } from '../../src/upstream/batch.ts';
import { GatewayError } from '../../src/errors.ts';
import { sendJson, startStubServer } from '../helpers/stub-server.ts';

type Endpoint = { methods: string[]; args?: Record<string, unknown> | unknown[]; allow_batch?: { v1: boolean } };

/** A root-index route entry as WordPress writes it. */
function route(
  namespace: string,
  methods: string[],
  args: Record<string, string[]> = {},
  batch: string[] = [],
): { namespace: string; methods: string[]; endpoints: Endpoint[] } {
  return {
    namespace,
    methods,
    endpoints: methods.map((m) => ({
      methods: [m],
      args: Object.fromEntries((args[m] ?? []).map((a) => [a, { type: 'string' }])),
      ...(batch.includes(m) ? { allow_batch: { v1: true } } : {}),
    })),
  };
}

/**
 * An index with the given namespaces, each with its index route and one route
 * below it (`/<ns>/things`), plus `/batch/v1`.
 */
function indexOf(namespaces: string[], extra: Record<string, ReturnType<typeof route>> = {}) {
  const routes: Record<string, ReturnType<typeof route>> = {
    '/': route('', ['GET']),
    '/batch/v1': route('batch/v1', ['POST']),
  };
  for (const ns of namespaces) {
    routes[`/${ns}`] = route(ns, ['GET']);
    routes[`/${ns}/things/(?P<id>\\d+)`] = route(ns, ['GET', 'POST'], { GET: ['id', 'context'] }, ['POST']);
  }
  return { name: 'Test', namespaces: ['oembed/1.0', ...namespaces, 'batch/v1'], routes: { ...routes, ...extra } };
}

/** Yoast SEO 19.3's keyword research, Wistia and Site Kit routes under the namespace `ns`. */
function yoastRoutes(ns: string, names: 'plugin' | 'spec' = 'plugin') {
  const [kr, video, kit] =
    names === 'plugin'
      ? ['semrush', 'wistia_embed_permission', 'site_kit_configuration_permanent_dismissal']
      : ['keyword_research', 'video_embed_permission', 'kit_configuration_permanent_dismissal'];
  return {
    [`/${ns}/${kr}/authenticate`]: route(ns, ['POST'], { POST: ['code'] }),
    [`/${ns}/${kr}/country_code`]: route(ns, ['POST'], { POST: ['country_code'] }),
    [`/${ns}/${kr}/related_keyphrases`]: route(ns, ['GET'], { GET: ['keyphrase', 'country_code'] }),
    [`/${ns}/${video}`]: route(ns, ['GET', 'POST'], { POST: ['value'] }),
    [`/${ns}/${kit}`]: route(ns, ['POST'], { POST: ['is_dismissed'] }),
    [`/${ns}/statistics`]: route(ns, ['GET']),
  };
}

const PLUGIN_NAMES = NAMESPACE_RENAMES.map((n) => n.plugin);
const SPEC_NAMESPACES = NAMESPACE_RENAMES.map((n) => n.spec);

describe('the table of renames', () => {
  const rows = readSpecRoutes();

  it('names only namespaces and routes of the spec (spec/routes.tsv)', () => {
    const namespaces = new Set(rows.map((r) => r.namespace));
    for (const n of NAMESPACE_RENAMES) expect(namespaces, n.spec).toContain(n.spec);
    for (const r of ROUTE_RENAMES)
      expect(
        rows.some((row) => row.path === `/${r.spec}` || row.path.startsWith(`/${r.spec}/`)),
        r.spec,
      ).toBe(true);
  });

  it('every spec route has a plugin path, and reads back to itself (npm run routes -- --plugin-names)', () => {
    for (const r of rows) expect(toSpecPath(pluginPathOf(r.path)), r.path).toBe(r.path);
    expect(pluginPathOf('/calendar-core/v1/events/<id>')).toBe('/tec/v1/events/<id>');
    expect(pluginPathOf('/seo/v1/keyword_research/authenticate')).toBe('/yoast/v1/semrush/authenticate');
    expect(pluginPathOf('/site/v1/challenge')).toBe('/site/v1/challenge');
    const renamed = rows.filter((r) => pluginPathOf(r.path) !== r.path).map((r) => r.namespace);
    expect(new Set(renamed)).toEqual(new Set(SPEC_NAMESPACES));
  });

  it('gives each name once, and no plugin name is a spec name', () => {
    const all = [...SPEC_NAMESPACES, ...PLUGIN_NAMES];
    expect(new Set(all).size).toBe(all.length);
  });

  it('names the plugins as real sites serve them', () => {
    expect(Object.fromEntries(NAMESPACE_RENAMES.map((n) => [n.spec, n.plugin]))).toMatchObject({
      'calendar/events/v1': 'tribe/events/v1',
      'calendar-core/v1': 'tec/v1',
      'seo/v1': 'yoast/v1',
      'core/v2': 'wp/v2',
      'calendar/views/v2': 'tribe/views/v2',
      'calendar/aggregator/v1': 'tribe/event-aggregator/v1',
      'calendar-core/v2/onboarding': 'tec/v2/onboarding',
    });
  });
});

describe('a site that serves the plugins’ names only', () => {
  const site = parseIndex(indexOf(PLUGIN_NAMES, yoastRoutes('yoast/v1')));

  it('lists the spec’s namespaces, and its routes under the spec’s names', () => {
    expect(site.namespaces).toEqual(['oembed/1.0', ...SPEC_NAMESPACES, 'batch/v1']);
    expect(site.hasLegacy).toBe(true);
    expect(site.hasCore).toBe(true);
    expect(site.calendarInterface).toBe('LEGACY');
    for (const ns of SPEC_NAMESPACES) {
      const mine = site.routes.filter((r) => r.namespace === ns).map((r) => r.pattern);
      expect(mine, ns).toEqual(expect.arrayContaining([`/${ns}`, `/${ns}/things/(?P<id>\\d+)`]));
    }
    expect(site.routes.some((r) => PLUGIN_NAMES.some((p) => r.pattern.startsWith(`/${p}`)))).toBe(false);
    // The raw index is the site's own.
    expect((site.raw as { namespaces: string[] }).namespaces).toContain('tribe/events/v1');
  });

  it('keeps the name each namespace is served under', () => {
    expect(site.names.namespaces).toEqual(Object.fromEntries(NAMESPACE_RENAMES.map((n) => [n.spec, n.plugin])));
  });

  it.each(NAMESPACE_RENAMES.map((n) => [n.spec, n.plugin]))('sends %s as %s', (spec, plugin) => {
    expect(toSitePath(site.names, `/${spec}`)).toBe(`/${plugin}`);
    expect(toSitePath(site.names, `/${spec}/things/5`)).toBe(`/${plugin}/things/5`);
    expect(toSpecPath(`/${plugin}/things/5`)).toBe(`/${spec}/things/5`);
    expect(specNamespace(plugin)).toBe(spec);
  });

  it('sends Yoast’s renamed routes under their plugin names', () => {
    expect(site.names.routes).toEqual(Object.fromEntries(ROUTE_RENAMES.map((r) => [r.spec, r.plugin])));
    expect(toSitePath(site.names, '/seo/v1/keyword_research/authenticate')).toBe('/yoast/v1/semrush/authenticate');
    expect(toSitePath(site.names, '/seo/v1/keyword_research/country_code')).toBe('/yoast/v1/semrush/country_code');
    expect(toSitePath(site.names, '/seo/v1/keyword_research/related_keyphrases')).toBe(
      '/yoast/v1/semrush/related_keyphrases',
    );
    expect(toSitePath(site.names, '/seo/v1/video_embed_permission')).toBe('/yoast/v1/wistia_embed_permission');
    expect(toSitePath(site.names, '/seo/v1/kit_configuration_permanent_dismissal')).toBe(
      '/yoast/v1/site_kit_configuration_permanent_dismissal',
    );
    expect(toSitePath(site.names, '/seo/v1/statistics')).toBe('/yoast/v1/statistics');
    for (const r of ROUTE_RENAMES)
      expect(
        site.routes.some((x) => x.pattern.startsWith(`/${r.spec}`)),
        r.spec,
      ).toBe(true);
    expect(toSpecPath('/yoast/v1/semrush/related_keyphrases')).toBe('/seo/v1/keyword_research/related_keyphrases');
  });

  it('renames whole segments only', () => {
    expect(toSitePath(site.names, '/core/v2x/posts')).toBe('/core/v2x/posts');
    expect(toSitePath(site.names, '/calendar-core/v10/events')).toBe('/calendar-core/v10/events');
    expect(toSitePath(site.names, '/seo/v1/keyword_researcher')).toBe('/yoast/v1/keyword_researcher');
    expect(toSitePath(site.names, '/core/v2?context=edit')).toBe('/wp/v2?context=edit');
    // Not renamed: WordPress's own and the spec's unrenamed namespaces.
    expect(toSitePath(site.names, '/batch/v1')).toBe('/batch/v1');
    expect(toSitePath(site.names, '/oembed/1.0/embed')).toBe('/oembed/1.0/embed');
    expect(toSitePath(site.names, '/')).toBe('/');
    // calendar-core/v2/onboarding is its own namespace, not under calendar-core/v1.
    expect(toSitePath(site.names, '/calendar-core/v2/onboarding/wizard')).toBe('/tec/v2/onboarding/wizard');
  });

  it('the route gate judges spec paths', () => {
    expect(siteOffers(site, 'GET', '/calendar/events/v1/things/5')).toBe(true);
    expect(siteOffers(site, 'GET', '/calendar/events/v1')).toBe(true);
    expect(siteOffers(site, 'POST', '/seo/v1/keyword_research/authenticate')).toBe(true);
    expect(siteOffers(site, 'GET', '/tribe/events/v1/things/5')).toBe(false);
    expect(siteOffers(site, 'DELETE', '/calendar/events/v1/things/5')).toBe(false);
    expect(siteOffers(site, 'GET', '/calendar/events/v1/nothing')).toBe(false);
    // Asked again: the same answers (kept per index read), then an index read again without the route.
    expect(siteOffers(site, 'GET', '/calendar/events/v1/things/5')).toBe(true);
    expect(siteOffers(site, 'DELETE', '/calendar/events/v1/things/5')).toBe(false);
    const without = { ...site, routes: site.routes.filter((r) => !r.re?.test('/calendar/events/v1/things/5')) };
    expect(siteOffers(without, 'GET', '/calendar/events/v1/things/5')).toBe(false);
    expect(siteOffers(site, 'GET', '/calendar/events/v1/things/5')).toBe(true);
    // Paths carry IDs: thousands of them are answered alike, the kept answers bounded.
    for (let id = 0; id < 10_000; id++) expect(siteOffers(site, 'GET', `/calendar/events/v1/things/${id}`)).toBe(true);
  });

  it('declaredArgs and allowsBatch take the spec’s patterns and paths', () => {
    expect([...(declaredArgs(site, 'GET', '/core/v2/things/(?P<id>\\d+)') ?? [])]).toEqual(['id', 'context']);
    expect([...(declaredArgs(site, 'GET', '/seo/v1/keyword_research/related_keyphrases') ?? [])]).toEqual([
      'keyphrase',
      'country_code',
    ]);
    expect(declaredArgs(site, 'GET', '/wp/v2/things/(?P<id>\\d+)')).toBeNull();
    expect(allowsBatch(site, 'POST', '/calendar-core/v1/things/7')).toBe(true);
    expect(allowsBatch(site, 'GET', '/calendar-core/v1/things/7')).toBe(false);
    expect(allowsBatch(site, 'POST', '/tec/v1/things/7')).toBe(false);
  });
});

describe('a site that serves both names (an alias plugin)', () => {
  // The alias renames namespaces only: under seo/v1 too, the routes keep Yoast's names.
  const site = parseIndex(
    indexOf([...PLUGIN_NAMES, ...SPEC_NAMESPACES], { ...yoastRoutes('yoast/v1'), ...yoastRoutes('seo/v1') }),
  );

  it('prefers the spec’s namespace names: nothing to translate but the routes the alias kept', () => {
    expect(site.names.namespaces).toEqual({});
    expect(toSitePath(site.names, '/calendar/events/v1/things/5')).toBe('/calendar/events/v1/things/5');
    expect(toSitePath(site.names, '/seo/v1/keyword_research/authenticate')).toBe('/seo/v1/semrush/authenticate');
    expect(toSitePath(site.names, '/seo/v1/statistics')).toBe('/seo/v1/statistics');
  });

  it('lists each namespace once, and each route once (the plugin-named copies left out)', () => {
    expect(site.namespaces).toEqual(['oembed/1.0', ...SPEC_NAMESPACES, 'batch/v1']);
    const patterns = site.routes.map((r) => r.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    expect(patterns.filter((p) => p.startsWith('/calendar/events/v1'))).toEqual([
      '/calendar/events/v1',
      '/calendar/events/v1/things/(?P<id>\\d+)',
    ]);
  });

  it('a site with spec names throughout needs no translation at all', () => {
    const spec = parseIndex(indexOf(SPEC_NAMESPACES, yoastRoutes('seo/v1', 'spec')));
    expect(spec.names.rewrites).toEqual([]);
    expect(spec.names.namespaces).toEqual({});
    const req: UpstreamRequest = {
      method: 'GET',
      path: '/seo/v1/keyword_research/related_keyphrases',
      route: 'GET /seo/v1/keyword_research/related_keyphrases',
    };
    expect(toSiteRequest(spec.names, req)).toBe(req);
  });

  it('mixes per namespace: each is served under the name the site has', () => {
    const mixed = parseIndex(indexOf(['tribe/events/v1', 'calendar-core/v1', 'wp/v2', 'seo/v1']));
    expect(mixed.names.namespaces).toEqual({ 'calendar/events/v1': 'tribe/events/v1', 'core/v2': 'wp/v2' });
    expect(toSitePath(mixed.names, '/calendar/events/v1/things/1')).toBe('/tribe/events/v1/things/1');
    expect(toSitePath(mixed.names, '/calendar-core/v1/things/1')).toBe('/calendar-core/v1/things/1');
    expect(mixed.namespaces).toEqual([
      'oembed/1.0',
      'calendar/events/v1',
      'calendar-core/v1',
      'core/v2',
      'seo/v1',
      'batch/v1',
    ]);
  });
});

describe('a site with neither name', () => {
  const site = parseIndex(indexOf(['tribe/events/v1']));

  it('has not the namespace: the gate refuses it, and nothing is renamed for it', async () => {
    expect(site.hasCore).toBe(false);
    expect(site.calendarInterface).toBe('LEGACY');
    expect(site.names.namespaces['calendar-core/v1']).toBeUndefined();
    expect(toSitePath(site.names, '/calendar-core/v1/things/1')).toBe('/calendar-core/v1/things/1');
    expect(siteOffers(site, 'GET', '/calendar-core/v1/things/1')).toBe(false);
    const sent: UpstreamRequest[] = [];
    const s = createOperationSession(recording(sent), { site, concurrency: 2, budget: 10, deadlineMs: 5_000 });
    const err = (await s
      .request({ method: 'GET', path: '/calendar-core/v1/things/1', route: 'GET /calendar-core/v1/things/<id>' })
      .catch((e: unknown) => e)) as GatewayError;
    expect(err.code).toBe('NAMESPACE_UNAVAILABLE');
    expect(err.extensions.namespace).toBe('calendar-core/v1');
    expect(sent).toEqual([]);
  });

  it('a site without Yoast’s SEMrush routes has neither route name: the spec’s is kept, and refused', () => {
    const yoast = parseIndex(indexOf(['yoast/v1']));
    expect(yoast.names.routes).toEqual({});
    expect(siteOffers(yoast, 'POST', '/seo/v1/keyword_research/authenticate')).toBe(false);
  });
});

describe('indexes without routes, and namespace indexes', () => {
  it('an index stripped of its routes is judged by its namespaces; renamed routes follow their namespace', () => {
    const site = parseIndex({ namespaces: ['tribe/events/v1', 'yoast/v1', 'calendar-core/v1'] });
    expect(site.namespaces).toEqual(['calendar/events/v1', 'seo/v1', 'calendar-core/v1']);
    expect(site.names.namespaces).toEqual({ 'calendar/events/v1': 'tribe/events/v1', 'seo/v1': 'yoast/v1' });
    expect(toSitePath(site.names, '/seo/v1/keyword_research/authenticate')).toBe('/yoast/v1/semrush/authenticate');
    expect(siteOffers(site, 'GET', '/calendar/events/v1/events')).toBe(true);
    expect(siteOffers(site, 'GET', '/tribe/events/v1/events')).toBe(false);
  });

  it('a namespace index (GET /tribe/events/v1, read for Query.namespace) is read in the spec’s names', () => {
    // src/resolvers/site.ts parses it with the spec's name and the site's routes.
    const body = {
      namespace: 'tribe/events/v1',
      routes: {
        '/tribe/events/v1': route('tribe/events/v1', ['GET']),
        '/tribe/events/v1/events': route('tribe/events/v1', ['GET', 'POST']),
      },
    };
    const parsed = parseIndex({ namespaces: ['calendar/events/v1'], routes: body.routes });
    expect(parsed.routes.map((r) => [r.namespace, r.pattern])).toEqual([
      ['calendar/events/v1', '/calendar/events/v1'],
      ['calendar/events/v1', '/calendar/events/v1/events'],
    ]);
  });
});

describe('declaredArgs under the plugins’ names (The Events Calendar 5.7.1, docs/real-sites.md)', () => {
  // As that release's root index gives them, under tribe/events/v1 only.
  const LIST = [
    'categories',
    'end_date',
    'featured',
    'geoloc',
    'geoloc_lat',
    'geoloc_lng',
    'include',
    'organizer',
    'page',
    'per_page',
    'post_parent',
    'search',
    'start_date',
    'status',
    'tags',
    'venue',
  ];
  const site = parseIndex({
    namespaces: ['tribe/events/v1', 'wp/v2'],
    routes: {
      '/tribe/events/v1/events': route('tribe/events/v1', ['GET', 'POST'], {
        GET: LIST,
        POST: ['title', 'start_date'],
      }),
      '/tribe/events/v1/events/(?P<id>\\d+)': route('tribe/events/v1', ['GET', 'POST', 'PATCH', 'DELETE'], {
        GET: ['id'],
        DELETE: ['id'],
      }),
      '/wp/v2/posts': route('wp/v2', ['GET', 'POST'], { GET: ['context', 'page', 'per_page', 'search'] }, ['POST']),
    },
  });

  it('answers for the spec’s pattern', () => {
    // Less the arguments the list declares but leaves to Events Calendar Pro (src/upstream/inert.ts).
    expect([...(declaredArgs(site, 'GET', '/calendar/events/v1/events') ?? [])].sort()).toEqual(
      LIST.filter((a) => !a.startsWith('geoloc')),
    );
    expect([...(declaredArgs(site, 'DELETE', '/calendar/events/v1/events/(?P<id>\\d+)') ?? [])]).toEqual(['id']);
    expect([...(declaredArgs(site, 'GET', '/core/v2/posts') ?? [])]).toEqual(['context', 'page', 'per_page', 'search']);
    expect(declaredArgs(site, 'GET', '/tribe/events/v1/events')).toBeNull();
  });

  it('allowsBatch answers for spec paths', () => {
    expect(allowsBatch({ ...site, hasBatch: true }, 'POST', '/core/v2/posts')).toBe(true);
    expect(allowsBatch({ ...site, hasBatch: true }, 'POST', '/calendar/events/v1/events')).toBe(false);
  });
});

/** A transport that records what it is asked and answers 200 `{}` (or a batch answer for /batch/v1). */
function recording(sent: UpstreamRequest[]): UpstreamSession {
  return {
    authenticated: true,
    async request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
      sent.push(req);
      const items = (req.body as { requests?: unknown[] } | undefined)?.requests;
      const body =
        req.path === '/batch/v1'
          ? { responses: (items ?? []).map(() => ({ status: 201, body: { id: 1 }, headers: {} })) }
          : {};
      return { status: req.path === '/batch/v1' ? 207 : 200, headers: {}, body: body as T };
    },
  };
}

describe('the operation’s session sends the site’s names', () => {
  const site = parseIndex(indexOf(['tribe/events/v1', 'wp/v2', 'yoast/v1'], yoastRoutes('yoast/v1')));

  it('translates the path just before sending; the route label stays the spec’s', async () => {
    const sent: UpstreamRequest[] = [];
    const s = createOperationSession(recording(sent), { site, concurrency: 2, budget: 10, deadlineMs: 5_000 });
    await s.request({
      method: 'GET',
      path: '/calendar/events/v1/things/5',
      query: { context: 'view' },
      route: 'GET /calendar/events/v1/things/<id>',
    });
    await s.request({
      method: 'GET',
      path: '/seo/v1/keyword_research/related_keyphrases',
      query: { keyphrase: 'x', country_code: 'us' },
      route: 'GET /seo/v1/keyword_research/related_keyphrases',
    });
    expect(sent.map((r) => [r.path, r.route, r.query])).toEqual([
      ['/tribe/events/v1/things/5', 'GET /calendar/events/v1/things/<id>', { context: 'view' }],
      [
        '/yoast/v1/semrush/related_keyphrases',
        'GET /seo/v1/keyword_research/related_keyphrases',
        { keyphrase: 'x', country_code: 'us' },
      ],
    ]);
  });

  it('translates /batch/v1 item paths, queries kept; the batch answer is read as before', async () => {
    const sent: UpstreamRequest[] = [];
    const s = createOperationSession(recording(sent), { site, concurrency: 2, budget: 10, deadlineMs: 5_000 });
    const out = await sendWrites(
      s,
      site,
      [
        { method: 'POST', path: '/core/v2/things/1', body: { title: 'a' }, route: 'POST /core/v2/things/<id>' },
        {
          method: 'POST',
          path: '/calendar/events/v1/things/2',
          query: { force: true },
          body: { title: 'b' },
          route: 'POST /calendar/events/v1/things/<id>',
        },
      ],
      {},
    );
    expect(out.map((o) => o.ok && o.batched)).toEqual([true, true]);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe('/batch/v1');
    expect((sent[0]!.body as { requests: { path: string }[] }).requests.map((r) => r.path)).toEqual([
      '/wp/v2/things/1',
      '/tribe/events/v1/things/2?force=true',
    ]);
  });

  it('toSiteRequest leaves a batch body it cannot read alone', () => {
    const names = site.names;
    const odd = {
      method: 'POST' as const,
      path: '/batch/v1',
      body: { requests: [null, 'x', { path: 3 }, { path: '/core/v2/posts' }] },
      route: 'POST /batch/v1',
    };
    expect(toSiteRequest(names, odd).body).toEqual({ requests: [null, 'x', { path: 3 }, { path: '/wp/v2/posts' }] });
    // The caller's request object is not changed.
    expect(odd.body.requests[3]).toEqual({ path: '/core/v2/posts' });
  });
});

describe('over HTTP: discovery, the wire and the attempt events', () => {
  it('discovers the plugins’ names from the site, sends them, and reports the site’s path with the spec’s route label', async () => {
    const index = indexOf(['tribe/events/v1', 'wp/v2']);
    const stub = await startStubServer((req, res) => {
      if (req.url === '/wp-json/') return sendJson(res, 200, index);
      return sendJson(res, 200, { ok: req.url });
    });
    const events: UpstreamAttemptEvent[] = [];
    const client = new UpstreamClient({
      baseUrl: `${stub.origin}/wp-json/`,
      onResponse: (e) => events.push(e),
      retries: 0,
    });
    try {
      const state = new SiteState(client);
      const site = await state.refresh();
      expect(site.names.namespaces).toEqual({ 'calendar/events/v1': 'tribe/events/v1', 'core/v2': 'wp/v2' });
      const s = createOperationSession(client.session(null), { site, concurrency: 2, budget: 10, deadlineMs: 5_000 });
      const res = await s.request({
        method: 'GET',
        path: '/core/v2/things/3',
        query: { context: 'view' },
        route: 'GET /core/v2/things/<id>',
      });
      expect(res.body).toEqual({ ok: '/wp-json/wp/v2/things/3?context=view' });
      expect(stub.requests.map((r) => r.url)).toEqual(['/wp-json/', '/wp-json/wp/v2/things/3?context=view']);
      expect(events.at(-1)).toMatchObject({ path: '/wp/v2/things/3', route: 'GET /core/v2/things/<id>', status: 200 });
    } finally {
      await client.close();
      await stub.close();
    }
  });

  it('a `?rest_route=` root carries the site’s path in the parameter', async () => {
    const index = indexOf(['tec/v1']);
    const stub = await startStubServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.searchParams.get('rest_route') === '/') return sendJson(res, 200, index);
      return sendJson(res, 200, { route: u.searchParams.get('rest_route') });
    });
    const client = new UpstreamClient({ baseUrl: `${stub.origin}/?rest_route=/`, retries: 0 });
    try {
      const site = await new SiteState(client).refresh();
      const s = createOperationSession(client.session(null), { site, concurrency: 2, budget: 10, deadlineMs: 5_000 });
      const res = await s.request({
        method: 'GET',
        path: '/calendar-core/v1/things/9',
        route: 'GET /calendar-core/v1/things/<id>',
      });
      expect(res.body).toEqual({ route: '/tec/v1/things/9' });
    } finally {
      await client.close();
      await stub.close();
    }
  });
});
