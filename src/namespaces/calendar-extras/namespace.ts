import type { NamespaceDescriptor } from '../descriptor.ts';

/**
 * The calendar's two interfaces (their routes are hand-written in the
 * calendar's modules; their API documents, embed and notices are here): one
 * event store, so one family. The embed takes a `wp_rest` nonce.
 */
export const CALENDAR_LEGACY: NamespaceDescriptor = { name: 'calendar/events/v1', indexed: true, family: 'calendar' };
export const CALENDAR_CORE: NamespaceDescriptor = {
  name: 'calendar-core/v1',
  indexed: true,
  family: 'calendar',
  secretParams: ['_wpnonce'],
};
