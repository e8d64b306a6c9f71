import type { NamespaceDescriptor } from '../descriptor.ts';

/** site-audit-log/v1: every change of the site is logged, so any write makes it stale. */
export const AUDIT: NamespaceDescriptor = {
  name: 'site-audit-log/v1',
  indexed: true,
  family: 'audit',
  derivedFamily: true,
};
