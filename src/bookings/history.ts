import type { Db } from '../db/client.js';
import { toUtcIso } from '../time/zone.js';

export interface Actor {
  type: 'api_key' | 'user' | 'system';
  id: string | null;
}

export type HistoryAction =
  | 'created'
  | 'rescheduled'
  | 'status_changed'
  | 'note_added'
  | 'staffer_changed'
  | 'services_changed'
  | 'completed'
  | 'canceled';

interface HistoryEntry {
  workspaceId: string;
  bookingId: string;
  action: HistoryAction;
  changes: Record<string, unknown>;
  actor: Actor;
}

/** The row of one history entry (for inserts that write it together with other rows). */
export function historyValues(entry: HistoryEntry) {
  return {
    workspace_id: entry.workspaceId,
    booking_id: entry.bookingId,
    action: entry.action,
    changes: JSON.stringify(entry.changes),
    actor_type: entry.actor.type,
    actor_id: entry.actor.id,
  };
}

/** Appends one entry to the booking's history, in the caller's transaction. */
export async function appendHistory(tx: Db, entry: HistoryEntry): Promise<void> {
  await tx.insertInto('booking_history').values(historyValues(entry)).execute();
}

export async function listHistory(db: Db, workspaceId: string, bookingId: string) {
  const rows = await db
    .selectFrom('booking_history')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    uuid: row.id,
    action: row.action,
    changes: row.changes,
    actor: { type: row.actor_type, uuid: row.actor_id },
    created_at: toUtcIso(row.created_at.getTime()),
  }));
}
