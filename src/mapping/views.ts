/**
 * Views, embed, notices, wizard and aggregator answers -> graph objects, and
 * their inputs -> REST parameters (spec B2, C, D, E; ../shared/reference/calendar-upstream.md
 * §2, §3, §5, §6). Pure: no I/O, no context.
 */
import type { CalendarEmbedInput, OnboardingWizardInput } from '../generated/graphql.ts';
import { isJson, strict as str, type Json } from './json.ts';

/** The nonce pair a rendered view embeds for the next request (TEC's `tribe-events-view-nonce-data`). */
export function viewNonces(html: string): { tvn1: string | null; tvn2: string | null } | null {
  const m = /<script[^>]*data-js=['"]tribe-events-view-nonce-data['"][^>]*>([\s\S]*?)<\/script>/.exec(html);
  if (!m) return null;
  try {
    const o = JSON.parse(m[1]!) as unknown;
    return isJson(o) ? { tvn1: str(o.tvn1), tvn2: str(o.tvn2) } : null;
  } catch {
    return null;
  }
}

/** `{html}` (TEC 6.11.1+), or the bare HTML older sites send. */
export function viewHtmlOf(body: unknown): string | null {
  if (isJson(body) && typeof body.html === 'string') return body.html;
  return typeof body === 'string' ? body : null;
}

const EMBED_NAMES: Record<string, string> = {
  excludeCategory: 'exclude_category', excludeTag: 'tag_category', taxOperand: 'tax_operand', eventsPerPage: 'events_per_page',
  monthEventsPerDay: 'month_events_per_day', tribeBar: 'tribe_bar', filterBar: 'filter_bar',
};

/** Embed input -> B2 query: lists as comma-separated slugs, enums lower-cased for `view`. */
export function embedQuery(input: CalendarEmbedInput | null | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(input ?? {})) {
    if (v === undefined || v === null) continue;
    const name = EMBED_NAMES[k] ?? k;
    if (Array.isArray(v)) out[name] = v.join(',');
    else if (k === 'view') out[name] = String(v).toLowerCase();
    else out[name] = v as string | number | boolean;
  }
  return out;
}

export interface OccurrencesNoticeModel {
  type: string | null;
  message: string | null;
  raw: string;
}

/** `[]` or `["<JSON-encoded notice>"]` -> notices; a notice that is not JSON keeps its text as the message. */
export function occurrencesNotices(body: unknown): OccurrencesNoticeModel[] {
  if (!Array.isArray(body)) return [];
  return body.map((n) => {
    const raw = typeof n === 'string' ? n : JSON.stringify(n);
    try {
      const o = typeof n === 'string' ? (JSON.parse(n) as unknown) : n;
      if (isJson(o)) return { type: str(o.type), message: str(o.message), raw };
    } catch {
      /* plain text notice */
    }
    return { type: null, message: raw, raw };
  });
}

/** Wizard input (camelCase, as the wizard's own script sends it) -> body; `extra` passes through. */
export function wizardBody(input: OnboardingWizardInput): Json {
  const names: Record<string, string> = { actionNonce: 'action_nonce', dateFormat: 'date_format', timezoneString: 'timezone_string', startOfWeek: 'start_of_week' };
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
  return { success: o.success === true, failed: status >= 500, messages, organizerId: id(o.organizer_id), venueId: id(o.venue_id), raw: body };
}

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter(Number.isFinite) : isJson(v) ? Object.values(v).map(Number).filter(Number.isFinite) : []);

/** The batch answer: `{status, activity{<type>:{created,updated,skipped,scheduled}}, interval, next_batch_hash?}`. */
export function importBatchResult(body: unknown) {
  const o = isJson(body) ? body : {};
  const activity = isJson(o.activity)
    ? Object.entries(o.activity).map(([type, a]) => {
        const x = isJson(a) ? a : {};
        return { type, created: ids(x.created), updated: ids(x.updated), skipped: ids(x.skipped), scheduled: ids(x.scheduled) };
      })
    : [];
  return {
    status: str(o.status) ?? '',
    activity,
    interval: typeof o.interval === 'number' ? o.interval : null,
    nextBatchHash: str(o.next_batch_hash),
    raw: body,
  };
}

export function importStateResult(body: unknown) {
  const o = isJson(body) ? body : {};
  return { status: str(o.status) ?? '', raw: body };
}
