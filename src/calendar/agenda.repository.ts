import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';

export interface AgendaRow {
  id: string;
  location_id: string;
  location_name: string;
  timezone: string;
  /** null: a rental (docs/resources.md "Rentals"); its staffer_name is ''. */
  staffer_id: string | null;
  staffer_name: string;
  start_ms: number;
  end_ms: number;
  customer_name: string;
  services: string;
  status_name: string;
  status_color: string;
}

/** At most this many bookings are read for one agenda; the calendar shows the rest. */
export const AGENDA_READ_LIMIT = 1000;

/**
 * The workspace's bookings that start in [from, to) at its live locations, canceled ones left
 * out, in start order, with what an agenda line names. One statement; every table is joined on
 * the workspace, so it stays on one shard of a distributed database.
 */
export async function listAgendaBookings(
  db: Db,
  args: { workspaceId: string; from: number; to: number },
): Promise<AgendaRow[]> {
  const { workspaceId } = args;
  const result = await sql<AgendaRow>`
    SELECT b.id, b.location_id, l.name AS location_name, l.timezone, b.staffer_id,
           coalesce(trim(st.first_name || ' ' || st.last_name), '') AS staffer_name,
           date_part('epoch', b.start_time) * 1000 AS start_ms,
           date_part('epoch', b.end_time) * 1000 AS end_ms,
           trim(c.first_name || ' ' || c.last_name) AS customer_name,
           coalesce((SELECT string_agg(bs.name, ', ' ORDER BY bs.position, bs.id) FROM booking_services bs
                     WHERE bs.workspace_id = ${workspaceId} AND bs.booking_id = b.id), '') AS services,
           s.name AS status_name, s.color AS status_color
    FROM bookings b
    JOIN locations l ON l.workspace_id = ${workspaceId} AND l.id = b.location_id AND l.archived_at IS NULL
    -- A rental has no staffer: still on the agenda, named by its services.
    LEFT JOIN staffers st ON st.workspace_id = ${workspaceId} AND st.id = b.staffer_id
    JOIN customers c ON c.workspace_id = ${workspaceId} AND c.id = b.customer_id
    JOIN booking_statuses s ON s.workspace_id = ${workspaceId} AND s.id = b.status_id AND s.type <> 'canceled'
    WHERE b.workspace_id = ${workspaceId}
      AND b.start_time >= ${new Date(args.from)}::timestamptz
      AND b.start_time < ${new Date(args.to)}::timestamptz
    ORDER BY b.start_time, b.id
    LIMIT ${AGENDA_READ_LIMIT}`.execute(db);
  return result.rows.map((row) => ({ ...row, start_ms: Number(row.start_ms), end_ms: Number(row.end_ms) }));
}
