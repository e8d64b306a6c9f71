/**
 * The automation trigger queues (calendar-upstream.md §4 "When events are
 * queued"; TC `Integration_Trigger_Queue`, `Zapier/Triggers/*`,
 * `Power_Automate/Triggers/*`). Each connector keeps three lists of event IDs,
 * newest first, without duplicates, at most 15 long, in options named
 * `<prefix><queue>` (transients on a real site).
 *
 * They fill from the calendar model's events, whichever interface wrote the
 * event (legacy, calendar-core/v1, the connectors' own actions, imports), and
 * only while the connector has a connection: events saved before the first
 * connection (the demo data) are not queued, as on a real site.
 */
import { EVENT, type EventMeta } from '../../calendar/model.ts';
import type { Events, Settings, Storage } from '../../capabilities.ts';
import { CONNECTORS, hasConnections, type Connector } from './credentials.ts';

export type QueueName = 'new_events' | 'updated_events' | 'canceled_events';

/** `tec_event_automator_<api>_max_queue_items`'s default. */
export const MAX_QUEUE_ITEMS = 15;

function optionName(c: Connector, q: QueueName): string {
  return `${c.queuePrefix}${q}`;
}

/** `get_queue`: the IDs, newest first. */
export function getQueue(site: Storage, c: Connector, q: QueueName): number[] {
  return site.store.option<number[]>(optionName(c, q), []).filter(Boolean);
}

export function setQueue(site: Storage, c: Connector, q: QueueName, ids: number[]): void {
  site.store.setOption(optionName(c, q), ids);
}

/** `add_to_queue`: moves the ID to the front (dropping an earlier entry) and trims to 15. */
export function addToQueue(site: Storage, c: Connector, q: QueueName, id: number): void {
  const queue = getQueue(site, c, q).filter((x) => x !== id);
  queue.unshift(id);
  setQueue(site, c, q, queue.slice(0, MAX_QUEUE_ITEMS));
}

/** Post meta marking an event already queued as new (`_tec_<api>_queue_new_event_run_once`). */
function runOnceKey(c: Connector): string {
  return `${c.queuePrefix}new_event_run_once`;
}

/**
 * Subscribes the queues to the model's events. Called once per site when its
 * routes are built; a connector whose namespace the site does not have never queues.
 */
export function registerQueueListeners(site: Storage & Settings & Events): void {
  const active = () => CONNECTORS.filter((c) => !site.options.disable.includes(c.namespace) && hasConnections(site, c));

  site.emitter.on('event:saved', ({ id, created }) => {
    const connectors = active();
    if (!connectors.length) return;
    const post = site.store.post<EventMeta & Record<string, unknown>>(id);
    if (!post || post.type !== EVENT || post.status !== 'publish') return;
    for (const c of connectors) {
      // post_updated of a published event that already has a start date (not the insert itself).
      if (!created && post.meta.startDate) addToQueue(site, c, 'updated_events', id);
      // wp_insert_post of a published event, once per event: a draft published later is new then.
      if (!post.meta[runOnceKey(c)]) {
        site.store.updatePost(id, { meta: { [runOnceKey(c)]: true } });
        addToQueue(site, c, 'new_events', id);
      }
    }
  });

  site.emitter.on('event:status', ({ id, eventStatus }) => {
    if (eventStatus !== 'canceled') return;
    const connectors = active();
    if (!connectors.length) return;
    const post = site.store.post(id);
    if (!post || post.status !== 'publish') return;
    for (const c of connectors) addToQueue(site, c, 'canceled_events', id);
  });
}
