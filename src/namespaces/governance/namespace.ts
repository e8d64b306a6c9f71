import type { NamespaceDescriptor } from '../descriptor.ts';

/** site-governance/v1: reports computed from every user and post; the remote routes take a shared key. */
export const GOVERNANCE: NamespaceDescriptor = {
  name: 'site-governance/v1',
  indexed: true,
  family: 'governance',
  derivedFamily: true,
  secretParams: ['api_key'],
  secretArguments: ['apiKey'],
  secretHeaders: ['x-governance-api-key'],
};
