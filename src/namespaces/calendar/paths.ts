/**
 * The calendar's paths and route labels: every path of either interface is
 * built here (reads in core-requests.ts and legacy-requests.ts, writes and
 * the reads writes make in write-requests.ts, the read-backs of
 * writes/reconcile.ts), from the vocabulary's prefixes, in the spec's names
 * (the operation's session puts them in the site's: upstream/names.ts).
 */
import type { QueryValue, UpstreamRequest } from '../../upstream/client.ts';
import { PREFIX, type Iface, type Kind } from './vocabulary.ts';

/**
 * TEC 6.15+ refuses its tec/v1 CRUD endpoints without this header
 * (docs/real-sites.md): every calendar-core request carries it, batch items
 * too (a batch item's `headers` replace the outer request's).
 */
export const TEC_EEA_HEADER = {
  'X-TEC-EEA':
    'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.',
};

/** How a request addresses one object: by ID, or (legacy events, venues, organizers) by slug. */
export type Target = { id: number } | { slug: string };

/**
 * A path and its route label as the spec writes it (`/calendar-core/v1/events/12`, `/calendar-core/v1/events/<id>`).
 */
export interface CalendarPath {
  path: string;
  label: string;
}

/** The path of `kind`'s collection (`target` null) or of one object of it, through `iface`. */
export function calendarPath(iface: Iface, kind: Kind, target: Target | null = null): CalendarPath {
  if (iface === 'core' && target && 'slug' in target) throw new TypeError('calendar-core/v1 has no by-slug routes');
  const base = `${PREFIX[iface]}/${kind}`;
  if (!target) return { path: base, label: base };
  if ('id' in target) return { path: `${base}/${target.id}`, label: `${base}/<id>` };
  return { path: `${base}/by-slug/${encodeURIComponent(target.slug)}`, label: `${base}/by-slug/<slug>` };
}

/** A GET of a collection or an object, with calendar-core's acknowledgement header where it goes. */
export function calendarGet(
  iface: Iface,
  kind: Kind,
  target: Target | null,
  query?: Record<string, QueryValue>,
): UpstreamRequest {
  const { path, label } = calendarPath(iface, kind, target);
  const req: UpstreamRequest = { method: 'GET', path, route: `GET ${label}` };
  if (query !== undefined) req.query = query;
  if (iface === 'core') req.headers = TEC_EEA_HEADER;
  return req;
}
