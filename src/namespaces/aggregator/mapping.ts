/** Aggregator callbacks' answers -> the graph's results (docs/sandbox-extras.md). Pure. */
import { isJson, strict as str, type Json } from '../../mapping/json.ts';

const ids = (v: unknown): number[] =>
  Array.isArray(v)
    ? v.map(Number).filter(Number.isFinite)
    : isJson(v)
      ? Object.values(v).map(Number).filter(Number.isFinite)
      : [];

/** The batch answer: `{status, activity{<type>:{created,updated,skipped,scheduled}}, interval, next_batch_hash?}`. */
export function importBatchResult(body: unknown) {
  const o = isJson(body) ? body : {};
  const activity = isJson(o.activity)
    ? Object.entries(o.activity).map(([type, a]) => {
        const x = isJson(a) ? a : {};
        return {
          type,
          created: ids(x.created),
          updated: ids(x.updated),
          skipped: ids(x.skipped),
          scheduled: ids(x.scheduled),
        };
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
