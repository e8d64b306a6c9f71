/**
 * The subscriptions' Prometheus metrics, on the gateway's registry
 * (src/metrics.ts; docs/subscriptions.md "Metrics"). Labels are bounded: the
 * topic (events, posts), the transport (sse, ws), a drop's reason and a
 * source's name are fixed sets.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Seconds from a change on the site to its discovery: a poll interval (10 s) is the usual figure. */
const LAG_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60, 120];
/** Seconds from publication to the subscriber's transport: mostly the re-read. */
const DELIVERY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Why a subscription ended other than by its client. */
export type DropReason = 'slow_consumer' | 'credentials' | 'shutdown';

export function createSubscriptionMetrics(registry: Registry) {
  const registers = [registry];
  return {
    subscribers: new Gauge({
      name: 'sitegraph_subscriptions_active',
      help: 'Subscriptions open on this instance, by topic and transport',
      labelNames: ['topic', 'transport'] as const,
      registers,
    }),
    deliveries: new Counter({
      name: 'sitegraph_subscription_deliveries_total',
      help: 'Changes handed to subscribers (one per subscriber and change), by topic and kind',
      labelNames: ['topic', 'kind'] as const,
      registers,
    }),
    drops: new Counter({
      name: 'sitegraph_subscription_drops_total',
      help: 'Subscriptions ended by the gateway: slow_consumer (its buffer passed SUBSCRIPTION_MAX_BUFFER_BYTES), credentials (refused by the site), shutdown',
      labelNames: ['reason'] as const,
      registers,
    }),
    refused: new Counter({
      name: 'sitegraph_subscriptions_refused_total',
      help: 'Subscriptions refused before they started: over a per-connection or per-caller limit',
      labelNames: ['limit'] as const,
      registers,
    }),
    changes: new Counter({
      name: 'sitegraph_subscription_changes_total',
      help: 'Changes received from the bus, by source and outcome: new, maybe (the same second as one delivered: delivered where the copy differs) or duplicate',
      labelNames: ['source', 'outcome'] as const,
      registers,
    }),
    polls: new Counter({
      name: 'sitegraph_subscription_polls_total',
      help: "Polls of the site by this instance (it holds the source's lease), by source and outcome (ok, error, lost_lease)",
      labelNames: ['source', 'outcome'] as const,
      registers,
    }),
    pollLag: new Histogram({
      name: 'sitegraph_subscription_poll_lag_seconds',
      help: "Seconds from a change's modification time on the site to the poll that found it, by source",
      labelNames: ['source'] as const,
      buckets: LAG_BUCKETS,
      registers,
    }),
    deliveryDelay: new Histogram({
      name: 'sitegraph_subscription_delivery_seconds',
      help: 'Seconds from a change being published to it being handed to a subscriber (its re-read included)',
      labelNames: ['topic'] as const,
      buckets: DELIVERY_BUCKETS,
      registers,
    }),
    leases: new Gauge({
      name: 'sitegraph_subscription_lease_held',
      help: "1 while this instance holds a source's poll lease",
      labelNames: ['source'] as const,
      registers,
    }),
  };
}

export type SubscriptionMetrics = ReturnType<typeof createSubscriptionMetrics>;
