/** Global IDs: base64 of `Type:databaseId`, as Relay servers (and WPGraphQL) do. */
export type NodeType = 'Event' | 'Venue' | 'Organizer' | 'Category' | 'Tag' | 'Series' | 'Post';
const TYPES: NodeType[] = ['Event', 'Venue', 'Organizer', 'Category', 'Tag', 'Series', 'Post'];

export function toGlobalId(type: NodeType, id: number): string {
  return Buffer.from(`${type}:${id}`, 'utf8').toString('base64');
}

/** Decodes a global ID; null when it is not one of ours. */
export function fromGlobalId(gid: string): { type: NodeType; id: number } | null {
  if (!/^[A-Za-z0-9+/]+=*$/.test(gid)) return null;
  const decoded = Buffer.from(gid, 'base64').toString('utf8');
  const m = /^([A-Za-z]+):(\d+)$/.exec(decoded);
  if (!m || !TYPES.includes(m[1] as NodeType)) return null;
  const id = Number(m[2]);
  return id > 0 && Number.isSafeInteger(id) ? { type: m[1] as NodeType, id } : null;
}

/**
 * `id` arguments accept a global ID of the expected type or a database ID.
 * Returns null when neither.
 */
export function databaseIdOf(id: string, type: NodeType): number | null {
  if (/^\d+$/.test(id)) {
    const n = Number(id);
    return n > 0 && Number.isSafeInteger(n) ? n : null;
  }
  const g = fromGlobalId(id);
  return g && g.type === type ? g.id : null;
}

/**
 * An `id` argument read by its `idType`: `DATABASE_ID` takes only a positive
 * integer; `ID` (the default) a global ID of `type` or a database ID. Null
 * when it is neither.
 */
export function idArgument(id: string, idType: string | null | undefined, type: NodeType): number | null {
  if (idType === 'DATABASE_ID') {
    const n = /^\d+$/.test(id) ? Number(id) : 0;
    return n > 0 && Number.isSafeInteger(n) ? n : null;
  }
  return databaseIdOf(id, type);
}
