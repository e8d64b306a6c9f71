/** The ledger (src/subscriptions/ledger.ts): each change once, whichever sources saw it. */
import { describe, expect, it } from 'vitest';
import { Ledger, SAME_SECOND_MS } from '../../src/subscriptions/ledger.ts';
import type { Change } from '../../src/subscriptions/types.ts';

const M1 = '2026-05-01T10:00:00Z';
const M2 = '2026-05-01T10:00:07Z';
const later = (m: string) => Date.parse(m) + 60_000;
const c = (
  kind: Change['kind'],
  modified: string | null,
  source: Change['source'] = 'MODIFIED_LIST',
  extra: Partial<Change> = {},
): Change => ({
  topic: 'events',
  id: 7,
  kind,
  modified,
  at: modified ?? M1,
  source,
  wasPublic: true,
  ...extra,
});

describe('the ledger', () => {
  it('delivers a creation once, and an update only when it is later', () => {
    const l = new Ledger();
    expect(l.record(c('CREATED', M1, 'GATEWAY'), later(M1))).toBe('new');
    // The same save, found again by a poll and by the automation feed, long after.
    expect(l.record(c('CREATED', M1), later(M1))).toBe('old');
    expect(l.record(c('UPDATED', M1, 'AUTOMATION_FEED'), later(M1))).toBe('old');
    expect(l.record(c('UPDATED', M2), later(M2))).toBe('new');
    expect(l.record(c('UPDATED', M1), later(M2))).toBe('old');
  });

  it('says "maybe" for the second of a delivery made before that second was over, for a poll that saw other content, and for a gateway write', () => {
    const l = new Ledger();
    // Delivered within its own second: another save may follow in it.
    l.record(c('CREATED', M1), Date.parse(M1) + 300);
    expect(l.verdict(c('UPDATED', M1), later(M1))).toBe('maybe');
    const slow = new Ledger();
    slow.record(c('UPDATED', M1), Date.parse(M1) + SAME_SECOND_MS + 1);
    expect(slow.verdict(c('UPDATED', M1), later(M1))).toBe('old');
    expect(slow.verdict(c('UPDATED', M1, 'MODIFIED_LIST', { again: true }), later(M1))).toBe('maybe');
    expect(slow.verdict(c('UPDATED', M1, 'GATEWAY'), later(M1))).toBe('maybe');
  });

  it('delivers a cancellation beside the update of the same save, once', () => {
    const l = new Ledger();
    expect(l.record(c('UPDATED', M2), later(M2))).toBe('new');
    expect(l.record(c('CANCELED', M2, 'AUTOMATION_FEED'), later(M2))).toBe('new');
    expect(l.record(c('CANCELED', M2, 'GATEWAY'), later(M2))).toBe('old');
    expect(l.record(c('UPDATED', M2), later(M2))).toBe('old');
  });

  it('delivers a deletion once, until a later save (a restore)', () => {
    const l = new Ledger();
    l.record(c('CREATED', M1), later(M1));
    expect(l.record(c('DELETED', null), later(M1))).toBe('new');
    expect(l.record(c('DELETED', null, 'UPCOMING_WINDOW'), later(M1))).toBe('old');
    expect(l.record(c('UPDATED', M2), later(M2))).toBe('new');
    expect(l.record(c('DELETED', null), later(M2))).toBe('new');
  });

  it('keeps objects apart by topic and ID, and forgets the least recently changed first', () => {
    const l = new Ledger(2);
    l.record(c('CREATED', M1), later(M1));
    expect(l.verdict({ ...c('CREATED', M1), topic: 'posts' })).toBe('new');
    l.record({ ...c('CREATED', M1), id: 8 }, later(M1));
    l.record({ ...c('CREATED', M1), id: 9 }, later(M1));
    expect(l.size).toBe(2);
    expect(l.verdict(c('CREATED', M1))).toBe('new');
  });
});
