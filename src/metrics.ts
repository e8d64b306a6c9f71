/** Prometheus metrics (prom-client), one registry per gateway instance. */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const graphqlRequests = new Counter({
    name: 'sitegraph_graphql_requests_total',
    help: 'GraphQL requests by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const graphqlDuration = new Histogram({
    name: 'sitegraph_graphql_request_seconds',
    help: 'GraphQL request duration',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const upstreamRequests = new Counter({
    name: 'sitegraph_upstream_requests_total',
    help: 'Upstream HTTP attempts by route and status',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  });
  const upstreamDuration = new Histogram({
    name: 'sitegraph_upstream_request_seconds',
    help: 'Upstream HTTP attempt duration by route',
    labelNames: ['route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return { registry, graphqlRequests, graphqlDuration, upstreamRequests, upstreamDuration };
}

export type Metrics = ReturnType<typeof createMetrics>;
