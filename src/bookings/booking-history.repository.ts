import type { Selectable } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { BookingHistoryTable } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import type { Actor } from '../workspaces/request-context.js';

/** What a history entry records; a change's last outbox event names its action too (0014). */
export const HISTORY_ACTIONS = [
  'created',
  'rescheduled',
  'status_changed',
  'note_added',
  'staffer_changed',
  'services_changed',
  'resources_changed',
  'completed',
  'canceled',
] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

export interface HistoryEntry {
  workspaceId: string;
  bookingId: string;
  action: HistoryAction;
  changes: Record<string, unknown>;
  actor: Actor;
}

export type HistoryRow = Selectable<BookingHistoryTable>;

/** Appends one entry to the booking's history, in the transaction of the change it records. */
export async function appendHistory(tx: Tx, entry: HistoryEntry): Promise<void> {
  await tx
    .insertInto('booking_history')
    .values({
      workspace_id: entry.workspaceId,
      booking_id: entry.bookingId,
      action: entry.action,
      changes: JSON.stringify(entry.changes),
      actor_type: entry.actor.type,
      actor_id: entry.actor.id,
    })
    .execute();
}

export async function listHistory(db: Db, workspaceId: string, bookingId: string): Promise<HistoryRow[]> {
  return db
    .selectFrom('booking_history')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
