import { queueChangeNotifications } from '../notifications/booking-notifications.service.js';
import type { Db } from '../platform/db/client.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import {
  ALL_PARTITIONS,
  insertDeliveries,
  lockUndispatchedEvents,
  markEventsDispatched,
  workspacesWithUndispatchedEvents,
} from './deliveries.repository.js';

/**
 * Dispatches the outbox (DESIGN §4.4): each undispatched event of the given partitions becomes
 * its webhook deliveries and, for the last event of a booking change, the change's emails
 * (src/notifications/booking-notifications.service.ts) — in one transaction per workspace that
 * also marks the events dispatched, so a crash leaves all of it or none, and an event is
 * dispatched once however many workers run. Both workers of a process call it before their own
 * work, so neither a change's webhooks nor its emails wait for the other's poll. Answers how many
 * events were dispatched.
 */
export async function dispatchOutbox(
  db: Db,
  now: number,
  limit: number,
  partitions: readonly number[] = ALL_PARTITIONS,
): Promise<number> {
  if (partitions.length === 0) return 0;
  const workspaces = await workspacesWithUndispatchedEvents(db, partitions);
  const counts = await Promise.all(
    workspaces.map((workspaceId) => dispatchWorkspace(db, workspaceId, now, limit)),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

async function dispatchWorkspace(db: Db, workspaceId: string, now: number, limit: number): Promise<number> {
  return db.transaction().execute(async (transaction) => {
    const tx = transaction as Tx;
    const events = await lockUndispatchedEvents(tx, workspaceId, limit);
    if (events.length === 0) return 0;
    await insertDeliveries(tx, workspaceId, events, now);
    await queueChangeNotifications(
      tx,
      workspaceId,
      events.filter((event) => event.change !== null),
    );
    await markEventsDispatched(
      tx,
      workspaceId,
      events.map((event) => event.id),
      now,
    );
    return events.length;
  });
}
