import type { NamespaceDescriptor } from '../descriptor.ts';

/** calendar/views/v2: the calendar's HTML views, one event store with the calendar; POST html only reads. */
export const VIEWS: NamespaceDescriptor = {
  name: 'calendar/views/v2',
  indexed: true,
  family: 'calendar',
  readingPosts: ['/calendar/views/v2/html'],
};
