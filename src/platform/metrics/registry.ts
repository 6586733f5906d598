import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus registry, served at GET /metrics. One per process: tests that build several apps
 * in one process share it, as a real process would. Features define their own metrics on it
 * (outbox gauges, slot-cache counters); this file holds only what knows no feature.
 */
export const registry = new Registry();

// Memory (RSS, heap), CPU, event-loop lag, handles: prom-client's standard process metrics.
collectDefaultMetrics({ register: registry, prefix: 'kairos_' });

export const httpRequests = new Counter({
  name: 'kairos_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'kairos_http_request_duration_seconds',
  help: 'Time from the request head to the last byte of the answer, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const dbErrors = new Counter({
  name: 'kairos_db_errors_total',
  help: 'Store connection failures: connection_lost (an open connection dropped), connect_failed.',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const rateLimitRefusals = new Counter({
  name: 'kairos_rate_limit_refusals_total',
  help: 'Requests refused with 429 by a rate limit, by surface.',
  labelNames: ['surface'] as const,
  registers: [registry],
});

/** Set at each scrape by a ping of the store: 1 reachable, 0 not. */
export const storeUp = new Gauge({
  name: 'kairos_store_up',
  help: '1 when the store answered a trivial query at scrape time, 0 when it did not.',
  registers: [registry],
});

type Probe = () => Promise<void>;
const probes = new Set<Probe>();
/** A probe that outlives this is skipped for the scrape: a scrape must answer during an outage. */
const PROBE_TIMEOUT_MS = 2_000;

/** Registers work to run before each scrape (gauges read from the store); returns its removal. */
export function onScrape(probe: Probe): () => void {
  probes.add(probe);
  return () => probes.delete(probe);
}

/** The Prometheus text of this process, after running every probe (each bounded in time). */
export async function scrape(): Promise<string> {
  await Promise.all(
    [...probes].map((probe) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, PROBE_TIMEOUT_MS);
      });
      return Promise.race([probe().catch(() => {}), timeout]).finally(() => clearTimeout(timer));
    }),
  );
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;
