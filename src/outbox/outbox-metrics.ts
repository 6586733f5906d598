import { Gauge } from 'prom-client';
import type { Database, Db } from '../platform/db/client.js';
import { onScrape, registry, storeUp } from '../platform/metrics/registry.js';
import { readUndispatchedBacklog } from './outbox.repository.js';

/**
 * What an operator watches of the outbox (docs/operations/monitoring.md): events no worker has
 * dispatched to their handlers yet, and the age of the oldest (the workers' health). Each queue's
 * own backlog is its feature's gauge (webhooks/delivery-metrics.ts, notifications/mail-metrics.ts).
 */
const outboxEvents = new Gauge({
  name: 'kairos_outbox_undispatched_events',
  help: 'Outbox events not yet dispatched to their handlers (webhook deliveries, emails).',
  registers: [registry],
});
const outboxOldestAge = new Gauge({
  name: 'kairos_outbox_oldest_undispatched_age_seconds',
  help: 'Age of the oldest outbox event not yet dispatched (0 when none).',
  registers: [registry],
});

/** Reads the outbox figures and the store's reachability at each scrape of this process. */
export function watchOutbox(database: Database): () => void {
  return onScrape(async () => {
    const up = await database.ping();
    storeUp.set(up ? 1 : 0);
    if (!up) return;
    const figures = await outboxFigures(database.db, Date.now());
    outboxEvents.set(figures.undispatched);
    outboxOldestAge.set(figures.oldestUndispatchedAgeS);
  });
}

/** The backlog as the gauges show it: the count, and the oldest's age in seconds (0 when none). */
export async function outboxFigures(db: Db, now: number) {
  const backlog = await readUndispatchedBacklog(db);
  return {
    undispatched: backlog.undispatched,
    oldestUndispatchedAgeS: ageSeconds(backlog.oldestUndispatchedAt, now),
  };
}

/** Seconds from `at` to `now`, 0 when there is none (a gauge of an empty backlog reads 0). */
export function ageSeconds(at: Date | null, now: number): number {
  return at === null ? 0 : Math.max(0, (now - at.getTime()) / 1000);
}
