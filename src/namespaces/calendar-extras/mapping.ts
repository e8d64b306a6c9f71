/** The calendar embed's input -> its query, and occurrence notices -> graph objects (docs/sandbox-extras.md). Pure. */
import type { CalendarEmbedInput } from '../../generated/graphql.ts';
import { isJson, strict as str } from '../../mapping/json.ts';

const EMBED_NAMES: Record<string, string> = {
  excludeCategory: 'exclude_category',
  excludeTag: 'tag_category',
  taxOperand: 'tax_operand',
  eventsPerPage: 'events_per_page',
  monthEventsPerDay: 'month_events_per_day',
  tribeBar: 'tribe_bar',
  filterBar: 'filter_bar',
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
