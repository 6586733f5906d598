import { Counter, Gauge } from 'prom-client';
import { ageSeconds } from '../outbox/outbox-metrics.js';
import type { Database } from '../platform/db/client.js';
import { onScrape, registry } from '../platform/metrics/registry.js';
import { readDeliveryBacklog } from './deliveries.repository.js';
import type { Outcome } from './delivery-outcome.rules.js';

/**
 * What an operator watches of the webhook deliveries (docs/operations/monitoring.md): deliveries
 * not yet made (the receivers' health) with the age of the oldest, and attempts by outcome.
 */
const deliveriesWaiting = new Gauge({
  name: 'kairos_webhook_deliveries_undelivered',
  help: 'Deliveries not yet delivered nor given up (pending or being sent).',
  registers: [registry],
});
const deliveriesOldestAge = new Gauge({
  name: 'kairos_webhook_deliveries_oldest_undelivered_age_seconds',
  help: 'Age of the oldest delivery not yet delivered nor given up (0 when none).',
  registers: [registry],
});

const deliveryAttempts = new Counter({
  name: 'kairos_webhook_delivery_attempts_total',
  help: 'Delivery attempts made by this process, by outcome (succeeded, retrying, failed, lease_lost).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export function countAttempt(outcome: Outcome): void {
  deliveryAttempts.inc({ outcome });
}

/** Reads the deliveries' figures at each scrape of this process. */
export function watchDeliveries(database: Database): () => void {
  return onScrape(async () => {
    if (!(await database.ping())) return;
    const backlog = await readDeliveryBacklog(database.db);
    deliveriesWaiting.set(backlog.undelivered);
    deliveriesOldestAge.set(ageSeconds(backlog.oldestUndeliveredAt, Date.now()));
  });
}
