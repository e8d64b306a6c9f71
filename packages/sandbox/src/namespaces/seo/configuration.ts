/**
 * `seo/v1/configuration/*`: Yoast's first-time configuration
 * (src/routes/first-time-configuration-route.php,
 * src/actions/configuration/first-time-configuration-action.php; samples
 * seo-check-capability.json, seo-configuration-state.json). All need
 * `wpseo_manage_options`. Bodies carry their own `status`; social profiles
 * are wrapped in `{json: ...}` and always answer HTTP 200.
 */
import { can } from '../../auth.ts';
import { RestResult, type ArgSchema, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import { endpoint, needs, route, wpseoGet, wpseoSet } from './common.ts';

/** Fields of the site representation step (SITE_REPRESENTATION_FIELDS). */
const SITE_FIELDS = [
  'company_or_person',
  'company_name',
  'website_name',
  'company_logo',
  'company_logo_id',
  'person_logo',
  'person_logo_id',
  'company_or_person_user_id',
  'description',
];

function isUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A profile handle of the second social site: a user name, or a URL of that site. */
function isHandle(v: string): boolean {
  return /^@?[A-Za-z0-9_]{1,25}$/.test(v) || isUrl(v);
}

function siteRepresentation(req: RestRequest): unknown {
  const values: Record<string, unknown> = {};
  for (const field of SITE_FIELDS) {
    const v = req.params[field];
    if (v === undefined || v === null) continue;
    // The description is the site tagline (blogdescription), written for users who may manage options.
    if (field === 'description' && can(req.user, 'manage_options'))
      req.site.store.setOption('blogdescription', String(v));
    else values[field] = v;
  }
  wpseoSet(req.site, { ...values, company_logo_meta: false, person_logo_meta: false });
  return { success: true, status: 200 };
}

/**
 * Social_Profiles_Helper::set_organization_social_profiles: an empty value
 * clears a profile; a bad one is left unsaved and named in `failures`
 * (`other_social_urls-<index>` for the list).
 */
function socialProfiles(req: RestRequest): unknown {
  const p = req.params;
  const failures: string[] = [];
  const values: Record<string, unknown> = {};
  const a = p.social_site_a as string | undefined;
  if (a !== undefined) {
    if (a === '' || isUrl(a)) values.social_site_a = a;
    else failures.push('social_site_a');
  }
  const b = p.social_site_b as string | undefined;
  if (b !== undefined) {
    if (b === '' || isHandle(b)) values.social_site_b = b;
    else failures.push('social_site_b');
  }
  const others = p.other_social_urls as unknown[] | undefined;
  if (others !== undefined) {
    const kept: string[] = [];
    others.forEach((u, i) => {
      if (typeof u === 'string' && (u === '' || isUrl(u))) {
        if (u !== '') kept.push(u);
      } else failures.push(`other_social_urls-${i}`);
    });
    values.other_social_urls = kept;
  }
  wpseoSet(req.site, values);
  if (!failures.length) return { json: { success: true, status: 200 } };
  return { json: { success: false, status: 200, error: 'Could not save some options in the database', failures } };
}

function checkCapability(req: RestRequest): unknown {
  const userId = Number(req.params.user_id);
  // current_user_can('edit_user', id): yourself, or anyone with edit_users.
  const allowed = req.user !== null && (req.user.id === userId || can(req.user, 'edit_users'));
  return allowed ? { success: true, status: 200 } : { success: false, status: 403 };
}

function enableTracking(req: RestRequest): unknown {
  const tracking = req.params.tracking as boolean;
  if (wpseoGet(req.site, 'tracking', false) !== tracking) wpseoSet(req.site, { toggled_tracking: true, tracking });
  return { success: true, status: 200 };
}

function saveState(req: RestRequest): unknown {
  const steps = (req.params.finishedSteps as unknown[]).map((s) =>
    String(s)
      .replace(/<[^>]*>/g, '')
      .trim(),
  );
  wpseoSet(req.site, { configuration_finished_steps: steps });
  // All three steps done: the install is no longer "first time".
  if (steps.length === 3) wpseoSet(req.site, { first_time_install: false });
  return { success: true, status: 200 };
}

function getState(req: RestRequest): unknown {
  const steps = wpseoGet<unknown[] | null>(req.site, 'configuration_finished_steps', []);
  if (steps === null)
    return new RestResult({ success: false, status: 500, error: 'Could not get data from the database' }, 500);
  return { success: true, status: 200, data: steps };
}

export function configurationRoutes(): RouteDecl[] {
  const manage = needs('wpseo_manage_options');
  const siteArgs: Record<string, ArgSchema> = {
    company_or_person: { type: 'string', enum: ['company', 'person'], required: true },
    company_name: { type: 'string' },
    company_logo: { type: 'string' },
    company_logo_id: { type: 'integer' },
    person_logo: { type: 'string' },
    person_logo_id: { type: 'integer' },
    company_or_person_user_id: { type: 'integer' },
    description: { type: 'string' },
  };
  return [
    // The action reads every field of SITE_REPRESENTATION_FIELDS, `website_name` too, which the route does not declare.
    route(
      'configuration/site_representation',
      endpoint('POST', manage, siteRepresentation, siteArgs, 'Set how the site is represented', ['website_name']),
    ),
    route(
      'configuration/social_profiles',
      endpoint(
        'POST',
        manage,
        socialProfiles,
        {
          social_site_a: { type: 'string' },
          social_site_b: { type: 'string' },
          other_social_urls: { type: 'array' },
        },
        "Set the organisation's social profiles",
      ),
    ),
    route(
      'configuration/check_capability',
      endpoint('GET', manage, checkCapability, { user_id: { required: true } }, 'Whether the caller may edit a user'),
    ),
    route(
      'configuration/enable_tracking',
      endpoint(
        'POST',
        manage,
        enableTracking,
        { tracking: { type: 'boolean', required: true } },
        'Turn usage tracking on or off',
      ),
    ),
    route(
      'configuration/save_configuration_state',
      endpoint(
        'POST',
        manage,
        saveState,
        { finishedSteps: { type: 'array', required: true } },
        'Save the finished configuration steps',
      ),
    ),
    route(
      'configuration/get_configuration_state',
      endpoint('GET', manage, getState, {}, 'The finished configuration steps'),
    ),
  ];
}
