/**
 * Tool routes of `seo/v1` (Yoast SEO; reference other-upstream.md §7;
 * sample seo-file-size-missing-url.json): file size, available posts (llms.txt),
 * importers, integrations, custom-field search and keyword research (the
 * renamed SEMrush integration).
 */
import { can } from '../../auth.ts';
import { canEdit } from '../../calendar/model.ts';
import { RawError, RestError } from '../../errors.ts';
import { RestResult, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { PostType } from '../../store/db.ts';
import { CONTENT_TYPES, postSeoMeta } from './analysis.ts';
import { endpoint, needs, rawParam, route, wpseoGet, wpseoSet, type Json } from './common.ts';

// ---- file_size

/**
 * WPSEO_File_Size_Service: the size of a media file of this site. Another
 * host is "hosted externally"; a URL of this site that is no uploaded file
 * fails "because of unknown reasons". Both are 404 `{type:"failure"}`.
 */
function fileSize(req: RestRequest): unknown {
  const { site } = req;
  const url = req.params.url as string;
  let u: URL | null = null;
  try {
    u = new URL(url);
  } catch {
    u = null;
  }
  if (!u || u.host !== new URL(site.origin).host) {
    return new RestResult(
      { type: 'failure', response: `Cannot get the size of ${url} because it is hosted externally.` },
      404,
    );
  }
  const file = site.store
    .posts<{ url?: string; filesize?: number }>('attachment')
    .find((a) => a.meta.url === u!.pathname);
  if (!file || typeof file.meta.filesize !== 'number') {
    return new RestResult(
      { type: 'failure', response: `Cannot get the size of ${url} because of unknown reasons.` },
      404,
    );
  }
  return { type: 'success', size_in_bytes: file.meta.filesize };
}

// ---- available_posts

/**
 * Available_Posts_Route (llms.txt): published posts of a type whose title contains `search`, newest first, at most 100.
 */
function availablePosts(req: RestRequest): unknown {
  const type = req.params.postType as string;
  if (!Object.prototype.hasOwnProperty.call(CONTENT_TYPES, type))
    throw new RawError(400, { error: 'The post type asked is not valid' });
  const needle = String(req.params.search ?? '').toLowerCase();
  return req.site.store
    .posts(type as PostType, ['publish'])
    .filter((p) => p.title.toLowerCase().includes(needle))
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id))
    .slice(0, 100)
    .map((p) => ({ id: p.id, title: p.title, slug: p.slug }));
}

// ---- import

/**
 * Importing_Route: the only importer is AIOSEO's, with its real action
 * types. This site has no AIOSEO data, so every action finds nothing to do:
 * `{objects: [], next_url: false}`. Anything else is "not found".
 */
const IMPORTERS: Record<string, string[]> = {
  aioseo: [
    'posts',
    'validate_data',
    'cleanup',
    'general_settings',
    'posttype_default_settings',
    'taxonomy_settings',
    'default_archive_settings',
    'custom_archive_settings',
  ],
};

function runImport(req: RestRequest): unknown {
  const { plugin, type } = req.params as { plugin: string; type: string };
  if (!IMPORTERS[plugin]?.includes(type)) throw new RestError('rest_no_route', 'Requested importer not found', 404);
  const runs = wpseoGet<Record<string, number>>(req.site, 'importing_runs', {});
  wpseoSet(req.site, { importing_runs: { ...runs, [`${plugin}/${type}`]: (runs[`${plugin}/${type}`] ?? 0) + 1 } });
  return { objects: [], next_url: false };
}

// ---- integrations

/** Integrations with an `<name>_integration_active` option. */
export const INTEGRATIONS = ['semrush', 'wincher', 'algolia', 'site_kit', 'zapier', 'wordproof', 'keyword_research'];

function setActive(req: RestRequest): unknown {
  const name = req.params.integration as string;
  if (!INTEGRATIONS.includes(name)) {
    // Options_Helper::set refuses an unknown option: always HTTP 200 here.
    return { json: { success: false, status: 500, error: 'Could not save the option in the database' } };
  }
  wpseoSet(req.site, { [`${name}_integration_active`]: req.params.active });
  return { json: { success: true, status: 200 } };
}

// ---- meta/search

/**
 * Meta_Search_Route: custom fields of `post_id` whose key starts with `query`,
 * at most 25; non-scalar values are skipped and `_` keys are hidden when the
 * query is empty. Neither parameter is declared: a request without `post_id`
 * is refused by the permission check. A post's fields are its stored meta
 * plus Yoast's `_yoast_wpseo_*` keys.
 */
function metaSearch(req: RestRequest): unknown {
  const post = req.site.store.post(Number(rawParam(req, 'post_id')))!;
  const query = String(rawParam(req, 'query') ?? '');
  const seo = postSeoMeta(req.site, post.id);
  const fields: Record<string, unknown> = {
    ...post.meta,
    ...(seo.focuskw ? { _yoast_wpseo_focuskw: seo.focuskw } : {}),
    ...(seo.noindex ? { '_yoast_wpseo_meta-robots-noindex': '1' } : {}),
    ...(seo.cornerstone ? { _yoast_wpseo_is_cornerstone: '1' } : {}),
  };
  const meta: Json[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (meta.length >= 25) break;
    if (!key.startsWith(query)) continue;
    if (query === '' && key.startsWith('_')) continue;
    if (value === null || typeof value === 'object') continue;
    meta.push({ key, value: String(typeof value === 'boolean' ? (value ? '1' : '') : value) });
  }
  return { meta };
}

function canSearchMeta(req: RestRequest): boolean {
  const id = Number(rawParam(req, 'post_id'));
  const post = Number.isInteger(id) && id > 0 ? req.site.store.post(id) : undefined;
  return post !== undefined && canEdit(post, req.user, (c) => can(req.user, c));
}

// ---- keyword research

/**
 * The renamed SEMrush integration. `authenticate` trades any code for tokens
 * (a code of `invalid` fails); `related_keyphrases` answers five deterministic
 * rows built from the keyphrase once authenticated, and 401 before.
 */
function authenticate(req: RestRequest): unknown {
  const code = String(req.params.code);
  if (code === '' || code === 'invalid') {
    return new RestResult(
      { tokens: [], error: 'Authentication failed: the authorization code is not valid.', status: 401 },
      401,
    );
  }
  const created = Math.floor(req.site.now().getTime() / 1000);
  const tokens = {
    access_token: `kr-access-${code}`,
    refresh_token: `kr-refresh-${code}`,
    expires: created + 604_800,
    has_access_token: true,
    created_at: created,
  };
  wpseoSet(req.site, { keyword_research_tokens: tokens });
  return { tokens, status: 200 };
}

function relatedKeyphrases(req: RestRequest): unknown {
  if (!wpseoGet<Json | null>(req.site, 'keyword_research_tokens', null)) {
    return new RestResult({ error: 'Authentication failed: no valid tokens.', status: 401 }, 401);
  }
  const keyphrase = String(req.params.keyphrase).trim().toLowerCase();
  const seed = [...keyphrase].reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, 7);
  const suffixes = ['', 'near me', 'tickets', 'tonight', 'free'];
  const rows = suffixes.map((s, i) => {
    const volume = 100 + ((seed >> i) % 9000);
    const trend = Array.from({ length: 12 }, (_, k) => (((seed >> (i + k)) % 100) / 100).toFixed(2)).join(',');
    return [
      s ? `${keyphrase} ${s}` : keyphrase,
      String(volume),
      trend,
      String(20 + ((seed >> (i + 3)) % 70)),
      String(i % 4),
    ];
  });
  return {
    results: { columnNames: ['Keyword', 'Search Volume', 'Trends', 'Keyword Difficulty Index', 'Intent'], rows },
    status: 200,
  };
}

export function toolRoutes(): RouteDecl[] {
  const manage = needs('wpseo_manage_options');
  const research = (req: RestRequest) => can(req.user, 'edit_posts') || can(req.user, 'edit_pages');
  return [
    route(
      'file_size',
      endpoint(
        'GET',
        needs('manage_options'),
        fileSize,
        { url: { type: 'string', required: true, description: 'The url to retrieve' } },
        'The size of a media file',
      ),
    ),
    route(
      'available_posts',
      endpoint(
        'GET',
        manage,
        availablePosts,
        {
          search: { type: 'string', default: '' },
          postType: { type: 'string', default: 'page' },
        },
        'Published posts of a type, for llms.txt',
      ),
    ),
    route(
      'import/(?P<plugin>[\\w-]+)/(?P<type>[\\w-]+)',
      endpoint('POST', needs('activate_plugins'), runImport, {}, 'Run one importing action'),
    ),
    route(
      'integrations/set_active',
      endpoint(
        'POST',
        manage,
        setActive,
        {
          active: { type: 'boolean', required: true },
          integration: { type: 'string', required: true },
        },
        'Turn an integration on or off',
      ),
    ),
    route(
      'meta/search',
      endpoint('GET', canSearchMeta, metaSearch, {}, 'Search the custom fields of a post', ['post_id', 'query']),
    ),
    route(
      'keyword_research/authenticate',
      endpoint(
        'POST',
        research,
        authenticate,
        { code: { required: true } },
        'Authenticate with the keyword research service',
      ),
    ),
    route(
      'keyword_research/country_code',
      endpoint(
        'POST',
        research,
        (req) => {
          wpseoSet(req.site, { keyword_research_country_code: req.params.country_code });
          return { success: true, status: 200 };
        },
        { country_code: { required: true, validate: (v) => typeof v === 'string' && /^[a-z]{2}$/.test(v) } },
        'Set the keyword research database',
      ),
    ),
    route(
      'keyword_research/related_keyphrases',
      endpoint(
        'GET',
        research,
        relatedKeyphrases,
        {
          keyphrase: { required: true },
          country_code: { required: true },
        },
        'Keyphrases related to a keyphrase',
      ),
    ),
  ];
}
