import type { NamespaceDescriptor } from '../descriptor.ts';

/** site/v1: the form challenge; nothing else reads it (the family of what the gateway does not model). */
export const CHALLENGE: NamespaceDescriptor = { name: 'site/v1', indexed: true, family: 'other' };
