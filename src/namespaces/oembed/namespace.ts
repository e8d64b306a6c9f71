import type { NamespaceDescriptor } from '../descriptor.ts';

/** oembed/1.0: computed from one post (its content family). */
export const OEMBED: NamespaceDescriptor = { name: 'oembed/1.0', indexed: true, family: 'content' };
