import { describe, expect, it } from 'vitest';
import { fromGlobalId, idArgument, toGlobalId } from '../../src/mapping/ids.ts';

describe('ids', () => {
  it('round-trips global IDs and rejects other types or garbage', () => {
    const g = toGlobalId('Venue', 42);
    expect(fromGlobalId(g)).toEqual({ type: 'Venue', id: 42 });
    expect(idArgument(g, 'ID', 'Venue')).toBe(42);
    expect(idArgument(g, 'ID', 'Event')).toBeNull();
    expect(fromGlobalId('not base64!')).toBeNull();
  });

  it('reads id arguments by idType', () => {
    expect(idArgument('17', 'ID', 'Event')).toBe(17);
    expect(idArgument('17', 'DATABASE_ID', 'Event')).toBe(17);
    expect(idArgument('0', 'DATABASE_ID', 'Event')).toBeNull();
    expect(idArgument(toGlobalId('Event', 17), 'DATABASE_ID', 'Event')).toBeNull();
    expect(idArgument('1e3', undefined, 'Event')).toBeNull();
  });
});
