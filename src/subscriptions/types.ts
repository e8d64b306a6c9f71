/**
 * What subscriptions pass around (docs/subscriptions.md): a change as it
 * travels from where it was seen (a write through the gateway, a poll of the
 * site) to every instance and its subscribers. The sink the write paths tell
 * of their writes (ChangeSink) is the context's (src/context.ts). Types only.
 */
import type { ChangeKind, WrittenObject } from '../context.ts';

/** What a subscription follows: calendar events, or core/v2 posts. */
export type Topic = 'events' | 'posts';

/** The graph's `ChangeSource`. */
export type ChangeSource = 'GATEWAY' | 'AUTOMATION_FEED' | 'MODIFIED_LIST' | 'UPCOMING_WINDOW';

/** One change, as JSON: it crosses Redis pub/sub between instances. */
export interface Change {
  topic: Topic;
  /** The object's database ID. */
  id: number;
  kind: ChangeKind;
  /**
   * The object's modification time after the change (UTC, ISO 8601), when known: it is what
   * tells one save from the next, so the same save seen by two sources is delivered once.
   */
  modified: string | null;
  /** When the change was made (its modification time), else when the gateway saw it (UTC). */
  at: string;
  /**
   * Set by a poll that found the object saved again within the second of the last save it saw
   * (same modification time, other content): another change all the same (ledger.ts).
   */
  again?: boolean;
  source: ChangeSource;
  /**
   * A later state of a gateway write already delivered (its follow-up, its repair): recorded by the
   * ledger, so a poll that sees that state finds it old, and delivered to nobody.
   */
  merge?: boolean;
  /**
   * Whether the object was public (published, no password) when the gateway last saw it before
   * this change; null when it does not know. Decides who hears of a DELETED it cannot read.
   */
  wasPublic: boolean | null;
}

/** A batch of changes of one poll or one write, in the order they happened. */
export interface ChangeBatch {
  /** The instance that published it (logs). */
  origin: string;
  /** `Date.now()` when it was published: the delivery delay is counted from it. */
  at: number;
  changes: Change[];
}
