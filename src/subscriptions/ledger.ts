/**
 * Which changes were already delivered, so each subscriber gets each change
 * once however many sources saw it (docs/subscriptions.md "Once"): a write
 * through the gateway is published at once and seen again by the next poll; a
 * save of a published event is on the automation feed and in the modified list.
 *
 * A change is identified by its object and the object's modification time
 * after it (the site's clock, to the second): the same save seen twice has the
 * same time, a later save a later one. Per object it keeps whether a creation
 * was delivered, the latest modification delivered, the modification a
 * cancellation was delivered at, and whether a deletion was. So:
 *
 * - CREATED once per object;
 * - UPDATED when its modification is later than any delivered;
 * - CANCELED when no cancellation was delivered at that modification (it may
 *   follow an UPDATED of the same save: the feeds say more than the lists);
 * - DELETED once, until a later save (a restore from the trash) clears it.
 *
 * Every instance keeps one, fed by the same stream of batches in the same
 * order (Redis pub/sub, or the one process), so all decide alike. Bounded: the
 * objects least recently changed are forgotten first.
 */
import type { Change, Topic } from './types.ts';

interface Entry {
  created: boolean;
  modified: string | null;
  canceledAt: string | null;
  deleted: boolean;
}

/** Objects remembered: 100,000 entries of ~100 bytes, ~10 MB at most. */
export const LEDGER_SIZE = 100_000;

const newer = (a: string | null, b: string | null): boolean => a !== null && (b === null || a > b);

export class Ledger {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly max = LEDGER_SIZE) {}

  static key(topic: Topic, id: number): string {
    return `${topic}:${id}`;
  }

  /** Whether `c` says something not delivered yet. Records nothing. */
  isNew(c: Change): boolean {
    const e = this.#entries.get(Ledger.key(c.topic, c.id));
    if (!e) return true;
    switch (c.kind) {
      case 'CREATED':
        return !e.created && (c.modified === null || e.modified === null || c.modified >= e.modified);
      case 'UPDATED':
        return c.modified === null || newer(c.modified, e.modified);
      case 'CANCELED':
        return c.modified === null ? e.canceledAt === null : e.canceledAt !== c.modified && (e.modified === null || c.modified >= e.modified);
      case 'DELETED':
        return !e.deleted;
    }
  }

  /** Records `c` when it is new; returns whether it was. */
  record(c: Change): boolean {
    if (!this.isNew(c)) return false;
    const key = Ledger.key(c.topic, c.id);
    const e = this.#entries.get(key) ?? { created: false, modified: null, canceledAt: null, deleted: false };
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
    return true;
  }

  get size(): number {
    return this.#entries.size;
  }
}
