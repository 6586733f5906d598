import { Counter, Gauge } from 'prom-client';
import type { Database, Db } from '../platform/db/client.js';
import { onScrape, registry, storeUp } from '../platform/metrics/registry.js';
import type { Outcome } from './delivery-outcome.rules.js';
import { readOutboxBacklog } from './outbox.repository.js';

/**
 * What an operator watches of the webhook pipeline (docs/operations/monitoring.md): events the
 * worker has not fanned out yet (the worker's health) and deliveries not yet made (the receivers'
 * health), each with the age of its oldest; and attempts by outcome.
 */
const outboxEvents = new Gauge({
  name: 'kairos_outbox_undispatched_events',
  help: 'Outbox events not yet turned into deliveries.',
  registers: [registry],
});
const outboxOldestAge = new Gauge({
  name: 'kairos_outbox_oldest_undispatched_age_seconds',
  help: 'Age of the oldest outbox event not yet turned into deliveries (0 when none).',
  registers: [registry],
});
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

export const deliveryAttempts = new Counter({
  name: 'kairos_webhook_delivery_attempts_total',
  help: 'Delivery attempts made by this process, by outcome (succeeded, retrying, failed, lease_lost).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export function countAttempt(outcome: Outcome): void {
  deliveryAttempts.inc({ outcome });
}

/** Reads the outbox figures and the store's reachability at each scrape of this process. */
export function watchOutbox(database: Database): () => void {
  return onScrape(async () => {
    const up = await database.ping();
    storeUp.set(up ? 1 : 0);
    if (!up) return;
    const figures = await outboxFigures(database.db, Date.now());
    outboxEvents.set(figures.undispatched);
    outboxOldestAge.set(figures.oldestUndispatchedAgeS);
    deliveriesWaiting.set(figures.undelivered);
    deliveriesOldestAge.set(figures.oldestUndeliveredAgeS);
  });
}

/** The backlog as gauges show it: counts, and the age in seconds of each oldest (0 when none). */
export async function outboxFigures(db: Db, now: number) {
  const backlog = await readOutboxBacklog(db);
  const age = (at: Date | null) => (at === null ? 0 : Math.max(0, (now - at.getTime()) / 1000));
  return {
    undispatched: backlog.undispatched,
    oldestUndispatchedAgeS: age(backlog.oldestUndispatchedAt),
    undelivered: backlog.undelivered,
    oldestUndeliveredAgeS: age(backlog.oldestUndeliveredAt),
  };
}
