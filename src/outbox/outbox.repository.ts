import type { Db } from '../platform/db/client.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { tryLockWorkspace } from '../platform/db/workspace-locks.repository.js';
import type { EventBody, EventTypeOf, Subject } from './event-types.js';

/** The events of one change of one subject, to record in the change's transaction. */
export interface ChangeEvents<S extends Subject> {
  workspaceId: string;
  workspaceSlug: string;
  at: Date;
  /** What the events tell of, and its state after the change as the API presents it. */
  subject: { kind: S; id: string; data: unknown };
  /** In the order they happened; each with its number in the subject's sequence. */
  events: { type: EventTypeOf<S>; sequence: number }[];
  /**
   * What the change was (for a booking: booking_history.action), kept on the last of the events:
   * handlers that act once per change (the change's emails) read it there. Null: a change that
   * names none (the test helpers' made-up events).
   */
  change: string | null;
}

/**
 * Writes a change's events to the outbox. Call it inside the transaction of the change:
 * the events commit with it or not at all, and the dispatcher hands each to the
 * handlers of its type once (outbox-dispatch.service.ts). A booking's id is kept in `booking_id`,
 * which orders its webhook deliveries; the table has no such column for other subjects yet.
 */
export async function recordEvents<S extends Subject>(tx: Tx, input: ChangeEvents<S>): Promise<void> {
  if (input.events.length === 0) return;
  const last = input.events.length - 1;
  await tx
    .insertInto('outbox_events')
    .values(
      input.events.map(({ type, sequence }, index) => {
        const body: EventBody = {
          type,
          timestamp: input.at.toISOString(),
          workspace: input.workspaceSlug,
          sequence,
          data: { [input.subject.kind]: input.subject.data },
        };
        return {
          workspace_id: input.workspaceId,
          booking_id: input.subject.kind === 'booking' ? input.subject.id : null,
          type,
          sequence,
          payload: JSON.stringify(body),
          change: index === last ? input.change : null,
        };
      }),
    )
    .execute();
}

/** At most this many workspaces are dispatched per round, so one round stays short. */
const WORKSPACES_PER_ROUND = 50;

/**
 * The workspaces of the given partitions with undispatched outbox events: a plain read (no lock),
 * from the partial index outbox_events_pending. Each is then dispatched in its own short
 * transaction (outbox-dispatch.service.ts), so no statement locks rows of more than one workspace
 * (on Citus, one workspace's rows live on one node).
 */
export async function workspacesWithUndispatchedEvents(
  db: Db,
  partitions: readonly number[],
): Promise<string[]> {
  const rows = await db
    .selectFrom('outbox_events')
    .select('workspace_id')
    .distinct()
    .where('partition', 'in', partitions)
    .where('dispatched_at', 'is', null)
    .limit(WORKSPACES_PER_ROUND)
    .execute();
  return rows.map((row) => row.workspace_id);
}

/** An event as its handlers get it: one workspace's, not yet dispatched. */
export interface OutboxEvent {
  workspace_id: string;
  id: string;
  type: string;
  payload: Record<string, unknown>;
  booking_id: string | null;
  sequence: number;
  change: string | null;
}

/**
 * Makes this transaction the workspace's only dispatcher until it ends: false when another holds
 * it (that one is dispatching; this round leaves the workspace to it). One dispatcher at a time
 * keeps a workspace's events in their order: with two, a later change (a cancel) could be
 * dispatched while an earlier one (a reschedule) was still open, and the cancel would not see the
 * reminder the reschedule was about to queue. A lock row of the workspace's own, not its
 * `workspaces` row: dispatchers of different workspaces never wait on each other, on Citus too.
 */
export function lockWorkspaceForDispatch(tx: Tx, workspaceId: string): Promise<boolean> {
  return tryLockWorkspace(tx, workspaceId, 'outbox_dispatch');
}

/**
 * Up to `limit` undispatched events of one workspace, oldest first (a booking's changes commit in
 * revision order, one at a time, so this is their order), locked until the transaction ends.
 */
export async function lockUndispatchedEvents(
  tx: Tx,
  workspaceId: string,
  limit: number,
): Promise<OutboxEvent[]> {
  return tx
    .selectFrom('outbox_events')
    .select(['workspace_id', 'id', 'type', 'payload', 'booking_id', 'sequence', 'change'])
    .where('workspace_id', '=', workspaceId)
    .where('dispatched_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .execute();
}

export async function markEventsDispatched(
  tx: Tx,
  workspaceId: string,
  eventIds: string[],
  now: number,
): Promise<void> {
  await tx
    .updateTable('outbox_events')
    .set({ dispatched_at: new Date(now) })
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', eventIds)
    .execute();
}

/** Outbox events not yet dispatched, across workspaces, and when the oldest was made. */
export async function readUndispatchedBacklog(
  db: Db,
): Promise<{ undispatched: number; oldestUndispatchedAt: Date | null }> {
  const row = await db
    .selectFrom('outbox_events')
    .where('dispatched_at', 'is', null)
    .select((e) => [e.fn.countAll<number>().as('n'), e.fn.min('created_at').as('t')])
    .executeTakeFirstOrThrow();
  const oldest = row.t as Date | string | null;
  return {
    undispatched: Number(row.n ?? 0),
    oldestUndispatchedAt: oldest === null ? null : new Date(oldest),
  };
}
