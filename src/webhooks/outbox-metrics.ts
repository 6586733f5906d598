import { Counter, Gauge } from 'prom-client';
import type { Database, Db } from '../platform/db/client.js';
import { onScrape, registry, storeUp } from '../platform/metrics/registry.js';
import type { Outcome } from './delivery-outcome.js';

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

/** One round trip; each part reads a partial index (outbox_events_pending, the delivery state ones). */
export async function outboxFigures(db: Db, now: number) {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('outbox_events')
        .where('dispatched_at', 'is', null)
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('undispatched'),
      eb
        .selectFrom('outbox_events')
        .where('dispatched_at', 'is', null)
        .select((e) => e.fn.min('created_at').as('t'))
        .as('oldest_undispatched'),
      eb
        .selectFrom('webhook_deliveries')
        .where('state', 'in', ['pending', 'sending'])
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('undelivered'),
      eb
        .selectFrom('webhook_deliveries')
        .where('state', 'in', ['pending', 'sending'])
        .select((e) => e.fn.min('created_at').as('t'))
        .as('oldest_undelivered'),
    ])
    .executeTakeFirstOrThrow();
  const age = (at: Date | string | null) =>
    at === null ? 0 : Math.max(0, (now - new Date(at).getTime()) / 1000);
  return {
    undispatched: Number(row.undispatched ?? 0),
    oldestUndispatchedAgeS: age(row.oldest_undispatched as Date | null),
    undelivered: Number(row.undelivered ?? 0),
    oldestUndeliveredAgeS: age(row.oldest_undelivered as Date | null),
  };
}
