import type { NamespaceDescriptor } from '../descriptor.ts';

/** seo/v1 (Yoast SEO): indexables are computed from every post and term. */
export const SEO: NamespaceDescriptor = { name: 'seo/v1', indexed: true, family: 'seo', derivedFamily: true };
