/**
 * `calendar-core/v2/onboarding/wizard`: the setup wizard's save endpoint
 * (spec D; calendar-upstream.md §6; TEC `Admin/Onboarding/API.php` and its
 * steps). Needs `manage_options`; `action_nonce` must be a `_tec_wizard` nonce
 * of the caller (checked as an argument, so a bad one is a 400 before any
 * permission check). In the sandbox the nonce comes from
 * `GET /__sandbox/nonce?action=_tec_wizard` with the administrator's credentials.
 *
 * The wizard's state goes to the `tec_onboarding_wizard_data` option; then the
 * steps whose tab is reached (`currentTab`) run in TEC's order, each adding
 * its message: opt-in (tab 0), settings (1), organizer and venue (5).
 */
import { can, verifyNonce } from '../../auth.ts';
import { saveOrganizer, saveVenue } from '../../calendar/model.ts';
import { RestError } from '../../errors.ts';
import { RestResult, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { Clock, Site, Storage } from '../../capabilities.ts';

export const NS = 'calendar-core/v2/onboarding';
export const WIZARD_NONCE_ACTION = '_tec_wizard';
const WIZARD_OPTION = 'tec_onboarding_wizard_data';
/** TEC's own settings live in one option (`tribe_get_option`). */
const TEC_OPTIONS = 'tribe_events_calendar_options';

type Json = Record<string, unknown>;

/** PHP's truthiness (`if ($x)` / `! empty($x)`). */
function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object' && v !== null) return Object.keys(v).length > 0;
  return !(v === undefined || v === null || v === false || v === 0 || v === '' || v === '0');
}

function list(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'object' && v !== null) return Object.values(v);
  return v === undefined || v === null ? [] : [v];
}

/** `normalize_tabs`: `array_unique(SORT_NUMERIC)` then reindexed. */
function normalizeTabs(tabs: unknown[]): unknown[] {
  const seen = new Set<number>();
  return tabs.filter((t) => {
    const n = Number(t) || 0;
    if (seen.has(n)) return false;
    seen.add(n);
    return true;
  });
}

/** `update_option`: false when the value is unchanged. */
function updateOption(site: Storage, name: string, value: unknown): boolean {
  if (JSON.stringify(site.store.option(name, null)) === JSON.stringify(value)) return false;
  site.store.setOption(name, value);
  return true;
}

function tecOption(site: Storage, key: string): unknown {
  return site.store.option<Json>(TEC_OPTIONS, {})[key];
}

function setTecOption(site: Storage, key: string, value: unknown): boolean {
  return updateOption(site, TEC_OPTIONS, { ...site.store.option<Json>(TEC_OPTIONS, {}), [key]: value });
}

interface WizardResponse {
  status: number;
  data: Json & { message: string[] };
}

function addMessage(r: WizardResponse, message: string, status?: number): WizardResponse {
  r.data.message = [...r.data.message, message];
  if (status) r.status = status;
  return r;
}

/** `set_tab_records`: the wizard's own state, with TEC's quirks kept. */
function setTabRecords(site: Storage, params: Json): WizardResponse {
  let begun = params.begun ?? false;
  const finished = params.finished ?? false;
  const complete0 = list(params.completedTabs);
  // array_diff compares string forms.
  const skipped = list(params.skippedTabs).filter((s) => !complete0.some((c) => String(c) === String(s)));
  // `$complete = array_push($complete, 0)`: array_push returns the new count, so the list becomes that number.
  const complete = truthy(begun) ? [complete0.length + 1] : complete0;
  if (truthy(finished)) begun = true;
  const settings: Json = { ...site.store.option<Json>(WIZARD_OPTION, {}) };
  settings.begun = begun;
  settings.finished = finished;
  settings.current_tab = params.currentTab ?? 0;
  settings.completed_tabs = normalizeTabs(complete);
  settings.skipped_tabs = normalizeTabs(skipped);
  const lastSend = { ...params };
  for (const k of ['timezones', 'countries', 'currencies', 'action_nonce', '_wpnonce']) delete lastSend[k];
  settings.last_send = lastSend;
  const updated = updateOption(site, WIZARD_OPTION, settings);
  // A failed save is reported but not an error: this part is optional for the user.
  return {
    status: 200,
    data: {
      success: true,
      message: [updated ? 'Onboarding wizard step completed successfully.' : 'Failed to update wizard settings.'],
    },
  };
}

/** The currencies the settings step knows (`Data::get_currency_list`, abridged). */
const CURRENCIES: Record<string, { code: string; symbol: string }> = {
  usd: { code: 'USD', symbol: '$' },
  eur: { code: 'EUR', symbol: '€' },
  gbp: { code: 'GBP', symbol: '£' },
  jpy: { code: 'JPY', symbol: '¥' },
  aud: { code: 'AUD', symbol: '$' },
  cad: { code: 'CAD', symbol: '$' },
  inr: { code: 'INR', symbol: '₹' },
  chf: { code: 'CHF', symbol: 'CHF' },
};

/** Country codes the venue step turns into names (`Country::find_country_by_key`, abridged). */
const COUNTRIES: Record<string, string> = {
  US: 'United States',
  GB: 'United Kingdom',
  FR: 'France',
  JP: 'Japan',
  AU: 'Australia',
  IS: 'Iceland',
  IN: 'India',
  CA: 'Canada',
  DE: 'Germany',
};

function optinStep(site: Storage, r: WizardResponse, params: Json): WizardResponse {
  const optin = truthy(params.optin);
  if (tecOption(site, 'opt-in-status') === optin)
    return addMessage(r, 'Opt-in status is already set to the requested value.');
  if (!setTecOption(site, 'opt-in-status', optin)) return addMessage(r, 'Failed to save opt-in status.', 500);
  return addMessage(r, 'Successfully saved opt-in status.');
}

function settingsStep(site: Storage, r: WizardResponse, params: Json): WizardResponse {
  let views = params.tribeEnableViews ?? false;
  if (Array.isArray(views) && views.includes('all')) views = views.filter((v) => v !== 'all');
  const currency = CURRENCIES[String(params.currency ?? '')];
  const settings: [string, unknown][] = [
    ['defaultCurrencyCode', currency?.code ?? ''],
    ['defaultCurrencySymbol', currency?.symbol ?? ''],
    ['date_format', params.date_format ?? false],
    ['timezone_string', params.timezone_string ?? false],
    ['start_of_week', params.start_of_week ?? false],
    ['tribeEnableViews', views],
  ];
  for (const [key, value] of settings) {
    // Falsy values are not saved, so defaults survive (a Sunday `start_of_week` of 0 included).
    if (!truthy(value)) {
      addMessage(r, `Did not attempt saving option ${key}.`);
      continue;
    }
    const wpOption = ['start_of_week', 'timezone_string', 'date_format'].includes(key);
    const current = wpOption ? site.store.option<unknown>(key, false) : tecOption(site, key);
    const kind = wpOption ? 'option' : 'setting';
    if (JSON.stringify(current) === JSON.stringify(value)) {
      addMessage(r, `The ${key} ${kind} is already set to the requested value.`);
      continue;
    }
    const saved = wpOption ? updateOption(site, key, value) : setTecOption(site, key, value);
    if (!saved) return addMessage(r, `Failed to save ${kind} ${key}.`, 500);
    addMessage(r, `Successfully saved ${kind} ${key}.`);
  }
  return addMessage(r, 'Successfully saved settings.');
}

function organizerStep(site: Clock & Storage, r: WizardResponse, params: Json, user: number): WizardResponse {
  const o = params.organizer as Json | undefined;
  if (!truthy(o) || typeof o !== 'object') return addMessage(r, 'No organizer to save. Step skipped');
  if (truthy(o.organizerId)) return addMessage(r, 'Existing organizer. Step skipped.');
  const name = typeof o.name === 'string' ? o.name.trim() : '';
  // Tribe__Events__API::createOrganizer refuses an organizer without a name.
  if (!name) return addMessage(r, 'Failed to create organizer.', 500);
  const created = saveOrganizer(site, null, {
    title: name,
    status: 'publish',
    author: user,
    phone: String(o.phone ?? ''),
    website: String(o.website ?? ''),
    email: String(o.email ?? ''),
  });
  r.data.organizer_id = created.id;
  return addMessage(r, 'Organizer created.');
}

function venueStep(site: Clock & Storage, r: WizardResponse, params: Json, user: number): WizardResponse {
  const v = params.venue as Json | undefined;
  if (!truthy(v) || typeof v !== 'object') return addMessage(r, 'No venue to save. Step skipped');
  if (truthy(v.venueId)) return addMessage(r, 'Existing venue. Step skipped.');
  const name = typeof v.name === 'string' ? v.name.trim() : '';
  if (!name) return addMessage(r, 'Failed to create venue.', 500);
  const s = (k: string) => (v[k] === undefined || v[k] === null ? '' : String(v[k]));
  const state = s('state');
  const created = saveVenue(site, null, {
    title: name,
    status: 'publish',
    author: user,
    address: s('address'),
    city: s('city'),
    state,
    province: state,
    stateprovince: state,
    zip: s('zip'),
    country: COUNTRIES[s('country').toUpperCase()] ?? s('country'),
    phone: s('phone'),
    website: s('website'),
  });
  r.data.venue_id = created.id;
  return addMessage(r, 'Venue created.');
}

/** The steps hooked on `tec_events_onboarding_wizard_handle`, in priority order, with their tab. */
const STEPS: [tab: number, run: (site: Site, r: WizardResponse, params: Json, user: number) => WizardResponse][] = [
  [0, optinStep],
  [1, settingsStep],
  [5, organizerStep],
  [5, venueStep],
];

function handle(req: RestRequest): RestResult {
  const { site } = req;
  const params = { ...req.params };
  let r = setTabRecords(site, params);
  for (const [tab, run] of STEPS) {
    // Each step bails on an error response, and runs only once the wizard reached its tab.
    if (r.status >= 400) break;
    const current = params.currentTab;
    if (current === undefined || current === null || Math.abs(Math.trunc(Number(current)) || 0) < tab) continue;
    r = run(site, r, params, req.user!.id);
  }
  return new RestResult(r.data, r.status);
}

export function onboardingRoutes(): RouteDecl[] {
  return [
    {
      namespace: NS,
      path: `/${NS}/wizard`,
      endpoints: [
        {
          methods: ['POST'],
          args: {
            action_nonce: {
              type: 'string',
              required: true,
              description: 'The action nonce for the request.',
              validate: (v, req) =>
                verifyNonce(req.site.secret, v, WIZARD_NONCE_ACTION, req.user?.id ?? 0, req.site.now().getTime()) ||
                new RestError('tec_invalid_nonce', 'Invalid nonce.', 403),
            },
          },
          // The steps read the request's every parameter (`$request->get_params()`); only the nonce is declared.
          reads: 'all',
          // `tec_events_onboarding_wizard_permissions`, manage_options by default.
          permission: (req) => can(req.user, 'manage_options'),
          handler: handle,
          summary: 'Saves a step of the onboarding wizard',
        },
      ],
    },
  ];
}
