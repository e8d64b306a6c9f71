/** The onboarding wizard's input -> its body, and its answer -> the graph's result (docs/sandbox-extras.md). Pure. */
import type { OnboardingWizardInput } from '../../generated/graphql.ts';
import { isJson, type Json } from '../../mapping/json.ts';

/** Wizard input (camelCase, as the wizard's own script sends it) -> body; `extra` passes through. */
export function wizardBody(input: OnboardingWizardInput): Json {
  const names: Record<string, string> = {
    actionNonce: 'action_nonce',
    dateFormat: 'date_format',
    timezoneString: 'timezone_string',
    startOfWeek: 'start_of_week',
  };
  const out: Json = {};
  for (const [k, v] of Object.entries(input)) {
    if (k === 'extra' || v === undefined || v === null) continue;
    out[names[k] ?? k] = v;
  }
  if (isJson(input.extra)) Object.assign(out, input.extra);
  return out;
}

export function wizardResult(status: number, body: unknown) {
  const o = isJson(body) ? body : {};
  const messages = Array.isArray(o.message) ? o.message.map(String) : typeof o.message === 'string' ? [o.message] : [];
  const id = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null);
  return {
    success: o.success === true,
    failed: status >= 500,
    messages,
    organizerId: id(o.organizer_id),
    venueId: id(o.venue_id),
    raw: body,
  };
}
