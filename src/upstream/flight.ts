/**
 * Single flight: identical work asked for at the same moment is done once and
 * its outcome handed to everyone who asked (20 identical concurrent
 * reads on a cold cache once sent 13 requests to the site). The client
 * (upstream/client.ts) keys its GETs by site, caller identity, method, path,
 * query and headers, and the cache's share token (cache/upstream-cache.ts).
 *
 * Every sharer is a member with its own signal and its own say on retries:
 *
 * - a member whose signal aborts leaves at once with its signal's reason; the
 *   work goes on for the others, and is aborted only when the last one left
 *   (and is then forgotten, so a later caller starts afresh);
 * - before a retry every member is asked (`mayRetry`, which spends its own
 *   operation's budget); those that refuse leave with the last outcome, and
 *   the retry happens if anyone is left;
 * - the outcome goes to the members still there; exactly one of them is told
 *   it is the `primary` (the one that stores it in the cache: one write, not one per sharer).
 *
 * The outcome is handed to every member as it is: the client shares raw bytes
 * and each member decodes its own copy, so no sharer can change another's objects.
 */

export interface Member<L> {
  /** The member's own cancellation (its operation's deadline or its client gone). */
  signal?: AbortSignal | undefined;
  /** Asked before each retry, with the outcome that would otherwise be final; false: the member leaves with it. */
  mayRetry?: ((last: L) => boolean) | undefined;
}

/** What the shared work is given: a signal aborted when every member has left, and the members' retry vote. */
export interface Shared<L> {
  readonly signal: AbortSignal;
  /** Asks every member; true when at least one wants the retry. */
  mayRetry(last: L): boolean;
  /** Members now (1 = alone). */
  readonly members: number;
}

export interface Joined<T> {
  value: T;
  /** One member of each flight is primary: the first still there when it ended. */
  primary: boolean;
}

interface Seat<L> {
  member: Member<L>;
  resolve(v: Joined<L>): void;
  reject(err: unknown): void;
  onAbort: (() => void) | null;
}

interface Flight<L> {
  seats: Set<Seat<L>>;
  controller: AbortController;
}

/** A table of flights in progress, keyed by the caller (one per upstream client: one per site). */
export class Flights<L> {
  readonly #flights = new Map<string, Flight<L>>();

  /** Flights in progress (tests). */
  get size(): number {
    return this.#flights.size;
  }

  /**
   * Joins the flight of `key`, or starts it with `work`. `work` settles with the
   * final outcome (a value); a throw is handed to every member still there.
   */
  run(key: string, member: Member<L>, work: (shared: Shared<L>) => Promise<L>): Promise<Joined<L>> {
    if (member.signal?.aborted) return Promise.reject(member.signal.reason);
    let flight = this.#flights.get(key);
    const starting = !flight;
    if (!flight) {
      flight = { seats: new Set(), controller: new AbortController() };
      this.#flights.set(key, flight);
    }
    const f = flight;
    const joined = new Promise<Joined<L>>((resolve, reject) => {
      const seat: Seat<L> = { member, resolve, reject, onAbort: null };
      if (member.signal) {
        const signal = member.signal;
        seat.onAbort = () => {
          this.#leave(key, f, seat);
          reject(signal.reason);
        };
        signal.addEventListener('abort', seat.onAbort, { once: true });
      }
      f.seats.add(seat);
    });
    if (starting) {
      const shared: Shared<L> = {
        signal: f.controller.signal,
        members: 0,
        mayRetry: (last) => {
          for (const seat of [...f.seats]) {
            let yes = true;
            try {
              yes = seat.member.mayRetry?.(last) ?? true;
            } catch {
              yes = false;
            }
            if (!yes) {
              this.#leave(key, f, seat);
              seat.resolve({ value: last, primary: false });
            }
          }
          return f.seats.size > 0;
        },
      };
      Object.defineProperty(shared, 'members', { get: () => f.seats.size });
      // Started after the first seat is taken, so the work sees its member.
      work(shared).then(
        (value) => this.#end(key, f, (seat, primary) => seat.resolve({ value, primary })),
        (err: unknown) => this.#end(key, f, (seat) => seat.reject(err)),
      );
    }
    return joined;
  }

  /** A member leaves: the last one out aborts the work and forgets the flight. */
  #leave(key: string, f: Flight<L>, seat: Seat<L>): void {
    if (!f.seats.delete(seat)) return;
    if (seat.onAbort) seat.member.signal?.removeEventListener('abort', seat.onAbort);
    if (f.seats.size === 0) {
      if (this.#flights.get(key) === f) this.#flights.delete(key);
      f.controller.abort(seat.member.signal?.reason ?? new Error('every sharer left'));
    }
  }

  #end(key: string, f: Flight<L>, settle: (seat: Seat<L>, primary: boolean) => void): void {
    if (this.#flights.get(key) === f) this.#flights.delete(key);
    let first = true;
    for (const seat of [...f.seats]) {
      f.seats.delete(seat);
      if (seat.onAbort) seat.member.signal?.removeEventListener('abort', seat.onAbort);
      settle(seat, first);
      first = false;
    }
  }
}
