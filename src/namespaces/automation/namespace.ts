import type { NamespaceDescriptor } from '../descriptor.ts';

/** What both automation connectors share: the calendar's events, a token and a consumer pair. */
const CONNECTOR = {
  indexed: true,
  family: 'calendar',
  secretParams: ['access_token', 'consumer_secret'],
  secretArguments: ['accessToken', 'consumerSecret'],
  secretHeaders: ['x-automation-token'],
} as const;

/** calendar/automation-a/v1 (the Zapier connector). */
export const AUTOMATION_A: NamespaceDescriptor = { name: 'calendar/automation-a/v1', ...CONNECTOR };
/** calendar/automation-b/v1 (the Power Automate connector). */
export const AUTOMATION_B: NamespaceDescriptor = { name: 'calendar/automation-b/v1', ...CONNECTOR };
