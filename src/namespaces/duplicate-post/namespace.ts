import type { NamespaceDescriptor } from '../descriptor.ts';

/**
 * duplicate-post/v1: links between posts; a duplicated post may be an event, so a write here can land in either store.
 */
export const DUPLICATE_POST: NamespaceDescriptor = {
  name: 'duplicate-post/v1',
  indexed: true,
  family: 'content',
  writesAnyFamily: true,
};
