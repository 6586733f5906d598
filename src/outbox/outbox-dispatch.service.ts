import { type Db, isStoreUnavailable, isTransientFailure } from '../platform/db/client.js';
import { withSavepoint } from '../platform/db/savepoint.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import type { HandlerRegistry, OutboxHandler } from './handlers.js';
import {
  lockUndispatchedEvents,
  lockWorkspaceForDispatch,
  markEventsDispatched,
  type OutboxEvent,
  workspacesWithUndispatchedEvents,
} from './outbox.repository.js';
import { ALL_PARTITIONS } from './partitions.js';

/** Where a dispatcher tells of a workspace it could not dispatch, or a handler's work it skipped. */
export interface DispatchLogger {
  error(object: object, message?: string): void;
}

/**
 * Dispatches the outbox (docs/architecture.md): each undispatched event of the given partitions goes to
 * the handlers registered for its type (webhook deliveries, then the change's emails, in
 * registration order) in one transaction per workspace that also marks the events dispatched, so
 * a crash leaves all of it or none, and one dispatcher at a time per workspace, so each event is
 * dispatched once and a workspace's events in order. Every worker of a process calls it before its
 * own work, so no queue waits for another's poll. Answers how many events were dispatched.
 *
 * One workspace's failure does not hold up the others: with a logger it is logged and the
 * workspace is tried again next round (without one, as in tests, it is thrown). A store that went
 * away is thrown either way, for the worker to pause on.
 */
export async function dispatchOutbox(
  db: Db,
  registry: HandlerRegistry,
  now: number,
  limit: number,
  partitions: readonly number[] = ALL_PARTITIONS,
  logger?: DispatchLogger,
): Promise<number> {
  if (partitions.length === 0) return 0;
  const workspaces = await workspacesWithUndispatchedEvents(db, partitions);
  const results = await Promise.allSettled(
    workspaces.map((workspaceId) => dispatchWorkspace(db, registry, workspaceId, now, limit, logger)),
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
  registry: HandlerRegistry,
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
    for (const handler of registry.handlers) {
      const mine = events.filter((event) => registry.handlersOf(event.type).includes(handler));
      if (mine.length > 0) await runHandler(tx, handler, { workspaceId, events: mine, now }, logger);
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

/** One handler's work on its events, under its fault rule (OutboxHandler.onFault). */
async function runHandler(
  tx: Tx,
  handler: OutboxHandler,
  batch: { workspaceId: string; events: OutboxEvent[]; now: number },
  logger: DispatchLogger | undefined,
): Promise<void> {
  if (handler.onFault === 'retry') return handler.handle(tx, batch);
  try {
    await withSavepoint(tx, handler.name, () => handler.handle(tx, batch));
  } catch (error) {
    if (!logger || isStoreUnavailable(error) || isTransientFailure(error)) throw error;
    logger.error(
      {
        err: error,
        workspace: batch.workspaceId,
        handler: handler.name,
        events: batch.events.map((e) => e.id),
      },
      `outbox handler ${handler.name} failed on these events; they are dispatched without its work`,
    );
  }
}
