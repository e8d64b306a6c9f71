/**
 * Event Tickets, the plugin whose data says whether an event has tickets (the
 * `tickets` option; docs/sandbox.md "Event Tickets"). The Events Calendar
 * declares `ticketed` on its event lists (and calendar-core's series list)
 * whether or not the plugin is active; without it, as on a real WordPress 6.8
 * + TEC 6.15.14 site, the legacy list's validator refuses `ticketed=1` and its
 * query drops `ticketed=0`, and calendar-core/v1 ignores the argument. With
 * it, the site lists the plugin's namespace in its root index and every list
 * applies `ticketed`.
 */
import type { Settings } from '../capabilities.ts';
import { RestError } from '../errors.ts';
import type { RestRequest } from '../rest/types.ts';
import { isTruthy } from './legacy/place-input.ts';

/** The namespace Event Tickets registers: in the root index only while the plugin is active. */
export const TICKETS_NAMESPACE = 'tribe/tickets/v1';

/** `value` when the site applies `ticketed` (Event Tickets active), else undefined: no filter. */
export function ticketedFilter(site: Settings, value: boolean | undefined): boolean | undefined {
  return site.options.tickets ? value : undefined;
}

/**
 * The legacy list's `validate_callback` of `ticketed` (TEC 6.0+
 * `supports_ticketed`): a false value is always valid; a true one needs Event
 * Tickets, or is `event-tickets-not-active` (400), which WordPress reports as
 * `rest_invalid_param` naming `ticketed`.
 */
export function supportsTicketed(value: unknown, req: RestRequest): true | RestError {
  if (!isTruthy(value) || req.site.options.tickets) return true;
  return new RestError('event-tickets-not-active', 'Event Tickets plugin is not activated.', 400);
}
