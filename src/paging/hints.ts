/**
 * What the gateway last saw of a list's total, used only to plan which pages a
 * window asks for. A window of several pages is fetched in one round trip;
 * without a hint every page the window spans goes out (a window running past
 * the end of a shorter list costs the pages past it). With one, the pages past
 * the hinted end are left out, and if the list has grown since, the total the
 * site answers shows it and the missing pages follow in a second round trip.
 * So a hint never changes an answer, only how many requests it costs; and it is
 * shared by every caller for the same reason (it carries no data).
 */
export interface TotalHint {
  get(): number | undefined;
  set(total: number): void;
}

/** A bounded, expiring map of list key -> last total seen. One per gateway. */
export class TotalHints {
  private readonly totals = new Map<string, { total: number; at: number }>();

  /**
   * @param maxEntries 1000 distinct list queries: the lists a site's front ends ask repeatedly.
   * @param ttlMs 10 minutes: totals move slowly, and a stale one costs a round trip, never a wrong answer.
   */
  constructor(
    private readonly maxEntries = 1_000,
    private readonly ttlMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  for(key: string): TotalHint {
    return {
      get: () => {
        const e = this.totals.get(key);
        if (!e) return undefined;
        if (this.now() - e.at > this.ttlMs) {
          this.totals.delete(key);
          return undefined;
        }
        return e.total;
      },
      set: (total) => {
        this.totals.delete(key);
        this.totals.set(key, { total, at: this.now() });
        // Oldest first: a Map iterates in insertion order, and set re-inserts.
        if (this.totals.size > this.maxEntries) this.totals.delete(this.totals.keys().next().value as string);
      },
    };
  }
}

/** No hint: every request plans as if the list were as long as the window. */
export const NO_HINT: TotalHint = { get: () => undefined, set: () => {} };
