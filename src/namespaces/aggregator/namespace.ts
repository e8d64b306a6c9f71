import type { NamespaceDescriptor } from '../descriptor.ts';

/** calendar/aggregator/v1: import callbacks that write events (the calendar's family). */
export const AGGREGATOR: NamespaceDescriptor = { name: 'calendar/aggregator/v1', indexed: true, family: 'calendar' };
