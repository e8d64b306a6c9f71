import type { NamespaceDescriptor } from '../descriptor.ts';

/** calendar-core/v2/onboarding: the calendar's set-up wizard (the calendar's family). */
export const ONBOARDING: NamespaceDescriptor = {
  name: 'calendar-core/v2/onboarding',
  indexed: true,
  family: 'calendar',
};
