import type { NamespaceDescriptor } from '../descriptor.ts';

/** site-blocks/v1: attachments, part of the content. */
export const BLOCKS: NamespaceDescriptor = { name: 'site-blocks/v1', indexed: true, family: 'content' };
