/**
 * Which changes were already delivered, so each subscriber gets each change
 * once however many sources saw it (docs/subscriptions.md "Once"): a write
 * through the gateway is published at once and seen again by the next poll; a
 * save of a published event is on the automation feed and in the modified list.
 *
 * A change is identified by its object and the object's modification time
 * after it (the site's clock, to the second): the same save seen twice has the
 * same time, a later save a later one. Per object it keeps whether a creation
 * was delivered, the latest modification delivered and when, the modification
 * a cancellation was delivered at, and whether a deletion was. A change is:
 *
 * - `new`: CREATED once per object; UPDATED when its modification is later
 *   than any delivered; CANCELED when no cancellation was delivered at that
 *   modification (it may follow an UPDATED of the same save: the feeds say more
 *   than the lists); DELETED once, until a later save (a restore) clears it;
 * - `maybe`: a CREATED or UPDATED at the second last delivered, when that
 *   second may hold another save: the last delivery was made before it was
 *   over (a gateway write, a fast poll), or a poll saw other content at that
 *   time (`again`), or it is a gateway write. The hub then reads the object and
 *   delivers it only to subscribers whose last copy of it differs (hub.ts);
 * - `old`: anything else.
 *
 * Every instance keeps one, fed by the same stream of batches in the same
 * order (Redis pub/sub, or the one process), so all decide alike. Bounded: the
 * objects least recently changed are forgotten first.
 */
import type { Change, Topic } from './types.ts';

interface Entry {
  created: boolean;
  modified: string | null;
  /** `Date.now()` when the latest change was recorded. */
  at: number;
  canceledAt: string | null;
  deleted: boolean;
}

export type Verdict = 'new' | 'maybe' | 'old';

/** Objects remembered: 100,000 entries of ~100 bytes, ~10 MB at most. */
export const LEDGER_SIZE = 100_000;

/**
 * A delivery made less than this after the start of its modification second may have come before
 * another save in that second: the second, and a second of clock difference between site and gateway.
 */
export const SAME_SECOND_MS = 2_000;

const newer = (a: string | null, b: string | null): boolean => a !== null && (b === null || a > b);

export class Ledger {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly max = LEDGER_SIZE) {}

  static key(topic: Topic, id: number): string {
    return `${topic}:${id}`;
  }

  /** What `c` is, given what was recorded. Records nothing. */
  verdict(c: Change, now = Date.now()): Verdict {
    const e = this.#entries.get(Ledger.key(c.topic, c.id));
    if (!e) return 'new';
    switch (c.kind) {
      case 'CREATED':
      case 'UPDATED': {
        if (
          c.kind === 'CREATED'
            ? !e.created && (c.modified === null || e.modified === null || c.modified >= e.modified)
            : c.modified === null || newer(c.modified, e.modified)
        )
          return 'new';
        if (c.modified === null || c.modified !== e.modified) return 'old';
        return c.again || c.source === 'GATEWAY' || e.at < Date.parse(c.modified) + SAME_SECOND_MS ? 'maybe' : 'old';
      }
      case 'CANCELED':
        return (
          c.modified === null
            ? e.canceledAt === null
            : e.canceledAt !== c.modified && (e.modified === null || c.modified >= e.modified)
        )
          ? 'new'
          : 'old';
      case 'DELETED':
        return e.deleted ? 'old' : 'new';
    }
  }

  /** Records `c` when it is new; returns its verdict. */
  record(c: Change, now = Date.now()): Verdict {
    const v = this.verdict(c, now);
    if (v !== 'new') return v;
    const key = Ledger.key(c.topic, c.id);
    const e = this.#entries.get(key) ?? { created: false, modified: null, at: now, canceledAt: null, deleted: false };
    e.at = now;
    this.#entries.delete(key);
    if (c.kind === 'DELETED') e.deleted = true;
    else {
      if (newer(c.modified, e.modified)) e.modified = c.modified;
      e.deleted = false;
      if (c.kind === 'CREATED') e.created = true;
      if (c.kind === 'CANCELED') e.canceledAt = c.modified ?? 'unknown';
    }
    this.#entries.set(key, e);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
    return v;
  }

  get size(): number {
    return this.#entries.size;
  }
}
