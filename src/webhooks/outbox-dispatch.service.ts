import { queueChangeNotifications } from '../notifications/booking-notifications.service.js';
import { ALL_PARTITIONS } from '../outbox/partitions.js';
import { type Db, isStoreUnavailable, isTransientFailure } from '../platform/db/client.js';
import { withSavepoint } from '../platform/db/savepoint.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import {
  insertDeliveries,
  lockUndispatchedEvents,
  lockWorkspaceForDispatch,
  markEventsDispatched,
  workspacesWithUndispatchedEvents,
} from './deliveries.repository.js';

/** Where a dispatcher tells of a workspace it could not dispatch, or whose emails it could not plan. */
export interface DispatchLogger {
  error(object: object, message?: string): void;
}

/**
 * Dispatches the outbox (DESIGN §4.4): each undispatched event of the given partitions becomes
 * its webhook deliveries and, for the last event of a booking change, the change's emails
 * (src/notifications/booking-notifications.service.ts) — in one transaction per workspace that
 * also marks the events dispatched, so a crash leaves all of it or none, and one dispatcher at a
 * time per workspace, so each event is dispatched once and a workspace's events in order. Both
 * workers of a process call it before their own work, so neither a change's webhooks nor its
 * emails wait for the other's poll. Answers how many events were dispatched.
 *
 * One workspace's failure does not hold up the others: with a logger it is logged and the
 * workspace is tried again next round (without one, as in tests, it is thrown). A store that went
 * away is thrown either way, for the worker to pause on.
 */
export async function dispatchOutbox(
  db: Db,
  now: number,
  limit: number,
  partitions: readonly number[] = ALL_PARTITIONS,
  logger?: DispatchLogger,
): Promise<number> {
  if (partitions.length === 0) return 0;
  const workspaces = await workspacesWithUndispatchedEvents(db, partitions);
  const results = await Promise.allSettled(
    workspaces.map((workspaceId) => dispatchWorkspace(db, workspaceId, now, limit, logger)),
  );
  let dispatched = 0;
  for (const [index, result] of results.entries()) {
    if (result.status === 'fulfilled') {
      dispatched += result.value;
      continue;
    }
    if (!logger || isStoreUnavailable(result.reason)) throw result.reason;
    logger.error(
      { err: result.reason, workspace: workspaces[index] },
      'outbox dispatch failed; tried again next round',
    );
  }
  return dispatched;
}

async function dispatchWorkspace(
  db: Db,
  workspaceId: string,
  now: number,
  limit: number,
  logger: DispatchLogger | undefined,
): Promise<number> {
  return db.transaction().execute(async (transaction) => {
    const tx = transaction as Tx;
    if (!(await lockWorkspaceForDispatch(tx, workspaceId))) return 0;
    const events = await lockUndispatchedEvents(tx, workspaceId, limit);
    if (events.length === 0) return 0;
    await insertDeliveries(tx, workspaceId, events, now);
    const changes = events.filter((event) => event.change !== null);
    if (changes.length > 0) {
      // Emails that cannot be planned (a fault that would recur every round) must not hold up
      // the webhooks: they are logged and these events dispatched without them.
      try {
        await withSavepoint(tx, 'plan_emails', () => queueChangeNotifications(tx, workspaceId, changes));
      } catch (error) {
        if (!logger || isStoreUnavailable(error) || isTransientFailure(error)) throw error;
        logger.error(
          { err: error, workspace: workspaceId, events: changes.map((event) => event.id) },
          'emails of these booking changes could not be planned; their webhooks go out',
        );
      }
    }
    await markEventsDispatched(
      tx,
      workspaceId,
      events.map((event) => event.id),
      now,
    );
    return events.length;
  });
}
