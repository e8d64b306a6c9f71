/**
 * `seo/v1/redirects*` (Yoast SEO Premium; reference/site-upstream.md §8, YP
 * classes/premium-redirect-endpoint.php, premium-redirect-service.php,
 * redirect-undo-endpoint.php). The service answers with plain bodies, never
 * WP_Error: a create that fails validation is an HTTP 200 with
 * `success:false`, an update that fails validation a 400 titled
 * "Redirect not deleted." (sic).
 */
import { can } from '../../auth.ts';
import { canEdit } from '../../calendar/model.ts';
import { RestResult, type ArgSchema, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { Origin, Storage } from '../../capabilities.ts';
import { OPT, endpoint, needs, route, type Json } from './common.ts';
import { postUrl, termUrl } from './indexables.ts';
import {
  FORMATS,
  createRedirect,
  deleteRedirects,
  loadRedirects,
  makeRedirect,
  normaliseUrl,
  saveRedirects,
  updateRedirect,
  type Redirect,
  type RedirectFormat,
} from './redirect-model.ts';
import { validateRedirect } from './redirect-validation.ts';

const CAP = 'wpseo_manage_redirects';

const DELETED = { title: 'Redirect deleted.', message: 'The redirect was deleted successfully.', success: true };
const NOT_DELETED = {
  title: 'Redirect not deleted.',
  message: 'Something went wrong when deleting this redirect.',
  success: false,
};

/** `wpseo_redirect` defaults (WPSEO_Premium_Redirect_Option defaults). */
export const DEFAULT_SETTINGS = { disable_php_redirect: 'off', separate_file: 'off' };

/** Where Yoast would write the redirect file: `<uploads basedir>/wpseo-redirects/.redirects`. */
const FILE_PATH = '/var/www/html/wp-content/uploads/wpseo-redirects/.redirects';

function formatArg(description: string): ArgSchema {
  return { type: 'string', description, enum: [...FORMATS], default: 'plain' };
}

const redirectArgs: Record<string, ArgSchema> = {
  origin: { type: 'string', required: true, description: 'The origin to redirect' },
  target: { type: 'string', description: 'The redirect target' },
  type: { type: 'integer', required: true, description: 'The redirect type' },
  ignore_warning: { type: 'boolean', default: false, description: 'Whether to ignore warnings' },
  format: formatArg('The format of the redirect to create.'),
};

function fromParams(req: RestRequest, prefix = ''): Redirect {
  const p = req.params;
  return makeRedirect(
    req.site,
    p[`${prefix}origin`] as string | undefined,
    p[`${prefix}target`] as string | undefined,
    (p[`${prefix}type`] as number | undefined) ?? 301,
    (p.format as RedirectFormat | undefined) ?? 'plain',
  );
}

/** WPSEO_Redirect::jsonSerialize */
function redirectJson(r: Redirect): Json {
  return { origin: r.origin, target: r.target, type: r.type, format: r.format };
}

/**
 * `array_filter` keeps the keys of the full list, so a filtered list whose
 * keys are not 0..n-1 is encoded by PHP as an object keyed by position.
 */
function phpFilteredList(list: Redirect[], format: RedirectFormat): Json[] | Record<string, Json> {
  const kept = list.map((r, i) => [i, r] as const).filter(([, r]) => r.format === format);
  if (kept.every(([i], n) => i === n)) return kept.map(([, r]) => redirectJson(r));
  return Object.fromEntries(kept.map(([i, r]) => [String(i), redirectJson(r)]));
}

function create(req: RestRequest): unknown {
  const redirect = fromParams(req);
  const failure = validateRedirect(req.site, redirect);
  if (failure && (failure.type === 'error' || !req.params.ignore_warning)) {
    return {
      title: 'Redirect not created.',
      message: failure.message,
      fields: failure.fields,
      type: failure.type,
      success: false,
    };
  }
  if (createRedirect(req.site, redirect)) {
    return { title: 'Redirect created.', message: 'The redirect was created successfully.', success: true };
  }
  return new RestResult(
    { title: 'Redirect not created.', message: 'Something went wrong when creating this redirect.', success: false },
    400,
  );
}

function remove(req: RestRequest): unknown {
  return deleteRedirects(req.site, [fromParams(req)]) ? DELETED : new RestResult(NOT_DELETED, 400);
}

function update(req: RestRequest): unknown {
  const current = fromParams(req, 'old_');
  const next = fromParams(req, 'new_');
  const failure = validateRedirect(req.site, next, current);
  if (failure && !(failure.type === 'warning' && req.params.ignore_warning)) {
    return new RestResult(
      {
        title: 'Redirect not deleted.',
        message: failure.message,
        fields: failure.fields,
        type: failure.type,
        success: false,
      },
      400,
    );
  }
  if (updateRedirect(req.site, current, next)) {
    return { title: 'Redirect updated.', message: 'The redirect was updated successfully.', success: true };
  }
  return new RestResult(
    { title: 'Redirect not updated.', message: 'Something went wrong when updated this redirect.', success: false },
    400,
  );
}

export function redirectSettings(site: Storage): { disable_php_redirect: string; separate_file: string } {
  return { ...DEFAULT_SETTINGS, ...site.store.option<Record<string, string>>(OPT.redirectSettings, {}) };
}

/** The permalink path of a post or term, as a redirect target stores it; null when there is no such object. */
function objectPath(site: Origin & Storage, type: string, id: number): string | null {
  if (type === 'post') {
    const post = site.store.post(id);
    return post ? normaliseUrl(site, postUrl(site, post)) : null;
  }
  if (type === 'term') {
    const term = site.store.term(id);
    return term ? normaliseUrl(site, termUrl(site, term)) : null;
  }
  return null;
}

/**
 * undo-for-object: Yoast deletes the redirect it made when the object's URL
 * changed (kept in `_yoast_post_redirect_info`); the sandbox, which makes no
 * such redirects itself, removes every redirect whose target is the object's
 * permalink. Nothing removed gives the delete route's 400.
 */
function undoForObject(req: RestRequest): unknown {
  const path = objectPath(req.site, req.params.obj_type as string, req.params.obj_id as number);
  if (path === null) return new RestResult(NOT_DELETED, 400);
  const list = loadRedirects(req.site);
  const kept = list.filter((r) => r.target !== path);
  if (kept.length === list.length) return new RestResult(NOT_DELETED, 400);
  saveRedirects(req.site, kept);
  return DELETED;
}

/** `edit_post` / `edit_term` on the object (redirect-undo-endpoint.php can_save_data). */
function canEditObject(req: RestRequest): boolean {
  const { obj_type: type, obj_id: id } = req.params as { obj_type: string; obj_id: number };
  if (type === 'post') {
    const post = req.site.store.post(id);
    // current_user_can('edit_post', <missing>) maps to edit_posts in WordPress.
    return post ? canEdit(post, req.user, (c) => can(req.user, c)) : can(req.user, 'edit_posts');
  }
  if (type === 'term') return can(req.user, 'manage_categories');
  return false;
}

export function redirectRoutes(): RouteDecl[] {
  const manage = needs(CAP);
  const onOff: ArgSchema = { type: 'string', required: true, enum: ['on', 'off'] };
  return [
    route('redirects', endpoint('POST', manage, create, redirectArgs, 'Create a redirect')),
    route(
      'redirects/delete',
      endpoint(
        'POST',
        manage,
        remove,
        { ...redirectArgs, type: { type: 'string', description: 'The redirect format' } },
        'Delete a redirect (matched by origin)',
      ),
    ),
    route(
      'redirects/list',
      endpoint(
        'GET',
        manage,
        (req) => ({
          success: true,
          redirects: phpFilteredList(loadRedirects(req.site), req.params.format as RedirectFormat),
        }),
        {
          format: formatArg('The format of the redirects to retrieve.'),
        },
        'List the redirects of one format',
      ),
    ),
    route(
      'redirects/update',
      endpoint(
        'PUT',
        manage,
        update,
        {
          old_origin: { type: 'string', required: true, description: 'The origin to redirect (old)' },
          old_target: { type: 'string', description: 'The redirect target (old)' },
          old_type: { type: 'integer', required: true, description: 'The redirect type (old)' },
          new_origin: { type: 'string', required: true, description: 'The origin to redirect (new)' },
          new_target: { type: 'string', description: 'The redirect target (new)' },
          new_type: { type: 'integer', required: true, description: 'The redirect type (new)' },
          ignore_warning: { type: 'boolean', default: false, description: 'Whether to ignore warnings' },
          format: formatArg('The format of the redirects to retrieve.'),
        },
        'Update a redirect',
      ),
    ),
    route(
      'redirects/settings',
      endpoint(
        'GET',
        manage,
        (req) => {
          const s = redirectSettings(req.site);
          return {
            success: true,
            is_apache: false,
            disable_php_redirect: s.disable_php_redirect,
            separate_file: s.separate_file,
            file_path: FILE_PATH,
          };
        },
        {},
        'Redirect settings',
      ),
      endpoint(
        'PUT',
        manage,
        (req) => {
          const data = {
            ...req.site.store.option<Record<string, unknown>>(OPT.redirectSettings, DEFAULT_SETTINGS),
            disable_php_redirect: req.params.disable_php_redirect,
            separate_file: req.params.separate_file,
          };
          req.site.store.setOption(OPT.redirectSettings, data);
          return { success: true, message: 'Redirect settings updated successfully.', data };
        },
        {
          disable_php_redirect: {
            ...onOff,
            description: 'Whether to disable PHP-based redirects and use .htaccess instead.',
          },
          separate_file: {
            ...onOff,
            description: 'Whether to write redirects into a separate file instead of .htaccess.',
          },
        },
        'Update the redirect settings',
      ),
    ),
    route(
      'redirects/undo-for-object',
      endpoint(
        'POST',
        canEditObject,
        undoForObject,
        {
          obj_id: { type: 'integer', required: true, description: 'The id of the post or term' },
          obj_type: { type: 'string', required: true, description: 'The object type: post or term' },
        },
        'Delete the redirects to a post or term',
      ),
    ),
  ];
}
