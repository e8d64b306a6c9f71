import type { NamespaceDescriptor } from '../descriptor.ts';

/** core/v2 (WordPress's wp/v2): posts, the content family. */
export const POSTS: NamespaceDescriptor = { name: 'core/v2', indexed: true, family: 'content' };
