/**
 * WPGraphQL's arguments as the main graph's: paging defaults, the `where:` keys each list applies (any other is
 * refused, naming it: a filter the compatible graph dropped would answer a wider list than WPGraphQL does), and
 * `format` of text fields.
 */
import { DateTime } from 'luxon';
import { GatewayError } from '../errors.ts';
import type { PagingArgs } from '../paging/window.ts';

/** WPGraphQL answers 10 nodes when neither `first` nor `last` is given, at most 100. */
export const WP_DEFAULT_FIRST = 10;
export const WP_MAX_FIRST = 100;

export interface WpPaging {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

export function paging(args: WpPaging): PagingArgs {
  const out: PagingArgs = {};
  for (const k of ['first', 'last'] as const) {
    const v = args[k];
    if (v === null || v === undefined) continue;
    if (!Number.isInteger(v) || v < 0)
      throw GatewayError.badInput(`${k} must be a non-negative integer, got ${v}`, { arguments: [k] });
    // WPGraphQL caps the amount rather than refusing it (graphql_connection_max_query_amount).
    out[k] = Math.min(v, WP_MAX_FIRST);
  }
  if (args.after) out.after = args.after;
  if (args.before) out.before = args.before;
  if (out.first === undefined && out.last === undefined) out.first = WP_DEFAULT_FIRST;
  return out;
}

/** The `where` keys given (not null), refused unless `applied` lists them. */
export function checkWhere(field: string, where: object | null | undefined, applied: readonly string[]): void {
  if (!where) return;
  const refused = Object.entries(where)
    .filter(([k, v]) => v !== null && v !== undefined && !applied.includes(k))
    .map(([k]) => k);
  if (!refused.length) return;
  throw GatewayError.badInput(
    `${field}: where.${refused.join(', where.')} ${refused.length === 1 ? 'is' : 'are'} not applied by the compatible ` +
      `graph (it applies ${applied.map((a) => `where.${a}`).join(', ') || 'no where argument'}; docs/wpgraphql.md); ` +
      'refused rather than answered as if not given',
    { arguments: refused.map((k) => `where.${k}`) },
  );
}

/** `format: RAW` needs the site's edit context, which the compatible graph does not read. */
export function renderedOnly(args: { format?: string | null }, field: string): void {
  if (args.format === 'RAW')
    throw GatewayError.badInput(
      `${field}(format: RAW) is not served: the site's answers read here carry the rendered text only`,
      { arguments: ['format'] },
    );
}

/** A list of IDs as WPGraphQL takes them (`[ID]`: database IDs as text or numbers), for the main graph's `[Int!]`. */
export function intIds(v: readonly (string | number | null)[] | null | undefined, arg: string): number[] | undefined {
  if (!v) return undefined;
  return v.map((x) => {
    const n = typeof x === 'number' ? x : /^\d+$/.test(String(x ?? '')) ? Number(x) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0)
      throw GatewayError.badInput(`${arg}: ${JSON.stringify(x)} is not a database ID`, { arguments: [arg] });
    return n;
  });
}

/** WPGraphQL's `orderby: [{field, order}]` with one entry at most (the site's lists sort by one key). */
export function oneOrder<F extends string>(
  orderby: readonly ({ field: F; order: string } | null)[] | null | undefined,
  field: string,
): { field: F; desc: boolean } | null {
  const list = (orderby ?? []).filter((o): o is { field: F; order: string } => o !== null);
  if (list.length > 1)
    throw GatewayError.badInput(`${field}: where.orderby takes one field here (the site's lists sort by one key)`, {
      arguments: ['where.orderby'],
    });
  const o = list[0];
  return o ? { field: o.field, desc: o.order === 'DESC' } : null;
}

/** WPGraphQL's `DateInput`. */
export interface DateInput {
  year?: number | null;
  month?: number | null;
  day?: number | null;
}

/** The parts of WPGraphQL's `DateQueryInput` (WordPress's date_query) that name whole days. */
export interface DayQuery {
  after?: DateInput | null;
  before?: DateInput | null;
  inclusive?: boolean | null;
  year?: number | null;
  month?: number | null;
  day?: number | null;
}

export const DAY_QUERY = ['after', 'before', 'inclusive', 'year', 'month', 'day'];

/** The first and last day a date input covers (`{year}`: the whole year; `{year, month}`: the month). */
function span(d: DateInput, arg: string): { first: DateTime; last: DateTime } {
  if (!d.year) throw GatewayError.badInput(`${arg}: a date needs at least its year`, { arguments: [arg] });
  const unit = d.day ? 'day' : d.month ? 'month' : 'year';
  const start = DateTime.fromObject({ year: d.year, month: d.month ?? 1, day: d.day ?? 1 }, { zone: 'UTC' });
  if (!start.isValid) throw GatewayError.badInput(`${arg}: not a valid date`, { arguments: [arg] });
  return { first: start.startOf(unit), last: start.endOf(unit).startOf('day') };
}

/**
 * A date query as the first and last day that match (either null: no bound), as WordPress's date_query reads it:
 * `after` is exclusive of the day (or month, or year) it names unless `inclusive`, `before` likewise, and
 * `year`/`month`/`day` match the days they cover.
 */
export function dayRange(q: DayQuery, arg: string): { from: DateTime | null; to: DateTime | null } {
  const b: { from: DateTime | null; to: DateTime | null } = { from: null, to: null };
  const tighten = (f: DateTime | null, t: DateTime | null) => {
    if (f && (!b.from || f > b.from)) b.from = f;
    if (t && (!b.to || t < b.to)) b.to = t;
  };
  if (q.after) {
    const s = span(q.after, `${arg}.after`);
    tighten(q.inclusive ? s.first : s.last.plus({ days: 1 }), null);
  }
  if (q.before) {
    const s = span(q.before, `${arg}.before`);
    tighten(null, q.inclusive ? s.last : s.first.minus({ days: 1 }));
  }
  if (q.year || q.month || q.day) {
    if (!q.year) throw GatewayError.badInput(`${arg}: month and day need a year here`, { arguments: [arg] });
    const s = span({ year: q.year, month: q.month ?? null, day: q.day ?? null }, arg);
    tighten(s.first, s.last);
  }
  return b;
}
