/**
 * The automation connectors' answers -> graph objects, and graph inputs ->
 * their payloads (docs/upstream-answers.md "Automation feeds"). Pure: no I/O, no context.
 *
 * A connector's "mapped event" (TC `Traits/Maps/Event.php`) is flat, with ISO
 * 8601 dates carrying the event's offset. It becomes an `EventModel` whose
 * source is `core`: what the mapped event carries is used as is, and every
 * field it lacks (venues, terms, legacy-only flags) is read from the legacy
 * copy through the Event resolvers' batched loader, so a feed item is a full
 * `Event`.
 */
import { DateTime } from 'luxon';
import type { AutomationEventInput, AutomationFindEventsInput } from '../../generated/graphql.ts';
import type { EventModel } from '../../mapping/models.ts';
import { bool, int, isJson, strict as str, type Json } from '../../mapping/json.ts';
import { legacyKey } from '../../mapping/calendar-models.ts';

export interface AutomationFeedItemModel {
  itemId: string;
  event: EventModel;
  eventStatus: string | null;
  raw: unknown;
}

export interface AutomationFeedModel {
  events: EventModel[];
  items: AutomationFeedItemModel[];
  emptyReason: string | null;
  raw: unknown;
}

/** `2026-05-01T10:00:00+02:00` -> `2026-05-01T08:00:00Z`. */
function isoUtc(v: unknown): string | null {
  if (typeof v !== 'string' || !v) return null;
  const d = DateTime.fromISO(v, { setZone: true });
  return d.isValid ? d.toUTC().toISO({ suppressMilliseconds: true }) : null;
}

/** `"<ID>"` or `"<ID>|<timestamp>"` -> the event ID; sentinels (`no-new-events`) -> null. */
export function itemEventId(id: unknown): number | null {
  const m =
    typeof id === 'string' ? /^(\d+)(?:\|\d+)?$/.exec(id) : typeof id === 'number' ? [String(id), String(id)] : null;
  return m ? Number(m[1]) : null;
}

/** One mapped event -> the graph's event model. */
export function mappedEventModel(o: Json, databaseId: number): EventModel {
  const multi = int(o.multi_day);
  return {
    kind: 'Event',
    source: 'core',
    databaseId,
    title: str(o.title),
    description: str(o.description),
    excerpt: str(o.excerpt),
    url: str(o.permalink),
    authorId: int(o.author_id),
    startDate: str(o.start_date) || null,
    endDate: str(o.end_date) || null,
    startDateUtc: isoUtc(o.start_date),
    endDateUtc: isoUtc(o.end_date),
    timezone: str(o.timezone) || null,
    timezoneAbbr: str(o.timezone_abbr) || null,
    allDay: bool(o.all_day),
    duration: int(o.duration),
    multiday: multi === null ? null : multi > 0,
    cost: str(o.cost),
    website: str(o.website_url),
    sticky: bool(o.sticky),
    featured: bool(o.featured),
    raw: o,
  };
}

/**
 * A feed or find-events answer -> items. The shapes (docs/upstream-answers.md "Automation feeds"):
 * automation-a feeds `[mapped…]` or `[{"id":"no-new-events"}]`; automation-b
 * feeds `{"events":[mapped]}` or `{"events":{"id":"no-new-events"}}`;
 * find-events `[{"events":[mapped…]}]` or `[]`.
 */
export function automationFeed(body: unknown): AutomationFeedModel {
  let list: unknown[];
  if (Array.isArray(body) && body.length === 1 && isJson(body[0]) && Array.isArray(body[0].events))
    list = body[0].events;
  else if (Array.isArray(body)) list = body;
  else if (isJson(body) && Array.isArray(body.events)) list = body.events;
  else if (isJson(body) && isJson(body.events)) list = [body.events];
  else list = [];

  const items: AutomationFeedItemModel[] = [];
  let emptyReason: string | null = null;
  for (const entry of list) {
    if (!isJson(entry)) continue;
    const id = itemEventId(entry.id);
    if (id === null) {
      emptyReason ??= str(entry.id);
      continue;
    }
    items.push({
      itemId: String(entry.id),
      event: mappedEventModel(entry, id),
      eventStatus: str(entry.event_status),
      raw: entry,
    });
  }
  if (!items.length && emptyReason === null && Array.isArray(body) && body.length === 0)
    emptyReason = 'no-events-found';
  return { events: items.map((i) => i.event), items, emptyReason, raw: body };
}

/** `{access_token}` -> the token, or null when the body has none. */
export function accessTokenOf(body: unknown): string | null {
  return isJson(body) && typeof body.access_token === 'string' ? body.access_token : null;
}

/**
 * The connector input (camelCase) -> legacy event fields (snake_case): a name the calendar's field table knows goes
 * under the key the legacy interface writes it under (`allDay` -> `all_day`), any other as it is (`author`,
 * `venue`: the connector's names are the legacy keys); values as given. `extra` passes through.
 */
export function legacyEventPayload(input: AutomationEventInput | null | undefined): Record<string, unknown> {
  if (!input) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (k === 'extra' || v === undefined || v === null) continue;
    out[legacyKey('Event', k) ?? k] = v;
  }
  if (isJson(input.extra)) Object.assign(out, input.extra);
  return out;
}

/** find-events' `where` -> the legacy archive query (spec A1). */
export function findEventsQuery(
  where: AutomationFindEventsInput | null | undefined,
): Record<string, string | number | boolean | Array<string | number | boolean>> {
  if (!where) return {};
  const names: Record<string, string> = { perPage: 'per_page', startDate: 'start_date', endDate: 'end_date' };
  const out: Record<string, string | number | boolean | Array<string | number | boolean>> = {};
  for (const [k, v] of Object.entries(where)) {
    if (k === 'extra' || v === undefined || v === null) continue;
    out[names[k] ?? k] = v as string | number | boolean | Array<string | number | boolean>;
  }
  if (isJson(where.extra)) {
    for (const [k, v] of Object.entries(where.extra)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || Array.isArray(v))
        out[k] = v as string;
    }
  }
  return out;
}
