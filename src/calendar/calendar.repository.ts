import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { StatusType } from '../platform/db/schema.js';
import type { Schedule } from '../slots/engine/types.js';

const DAY_MS = 86_400_000;

export interface CalendarLocation {
  id: string;
  name: string;
  timezone: string;
  opening_hours: Schedule['weekly'];
}

/** The live locations, for the calendar's location picker (by name). */
export async function listCalendarLocations(db: Db, workspaceId: string): Promise<CalendarLocation[]> {
  return db
    .selectFrom('locations')
    .select(['id', 'name', 'timezone', 'opening_hours'])
    .where('workspace_id', '=', workspaceId)
    .where('archived_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute() as Promise<CalendarLocation[]>;
}

export interface CalendarStaffer {
  id: string;
  first_name: string;
  last_name: string;
  /** This staffer's schedule at the location; null while none is set. */
  weekly: Schedule['weekly'] | null;
  breaks: Schedule['breaks'] | null;
  overrides: Schedule['overrides'] | null;
}

/**
 * The calendar's columns at a location: the live staffers who give a service there, and any
 * other staffer (archived, or no longer offering) with a booking in `extraIds`, so no booking
 * is left without a column. With their schedule at the location; by name.
 */
export async function listCalendarStaffers(
  db: Db,
  workspaceId: string,
  locationId: string,
  extraIds: string[],
): Promise<CalendarStaffer[]> {
  const extra = extraIds.length > 0 ? sql`OR st.id = ANY(${extraIds}::uuid[])` : sql``;
  const result = await sql<CalendarStaffer>`
    SELECT st.id, st.first_name, st.last_name, sc.weekly, sc.breaks, sc.overrides
    FROM staffers st
    LEFT JOIN schedules sc
      ON sc.workspace_id = st.workspace_id AND sc.staffer_id = st.id AND sc.location_id = ${locationId}
    WHERE st.workspace_id = ${workspaceId}
      AND ((st.archived_at IS NULL AND EXISTS (
            SELECT 1 FROM staffer_services ss
            WHERE ss.workspace_id = st.workspace_id AND ss.staffer_id = st.id AND ss.location_id = ${locationId}))
           ${extra})
    ORDER BY st.first_name, st.last_name, st.id`.execute(db);
  return result.rows;
}

export interface CalendarBooking {
  id: string;
  staffer_id: string;
  start_ms: number;
  end_ms: number;
  occupancy_id: string | null;
  /** The seats of its group session (capacity > 1), shared by every booking of the session. */
  capacity: number | null;
  seats_taken: number | null;
  completed: boolean;
  customer_first_name: string;
  customer_last_name: string;
  customer_phone: string;
  status_name: string;
  status_color: string;
  status_type: StatusType;
  services: string;
}

/**
 * The live (not canceled) bookings of a location overlapping [from, to), optionally of one
 * staffer. One statement; instants as epoch ms. The start bound lets the (workspace, start_time)
 * index narrow the scan: no booking runs longer than a day.
 */
export async function listCalendarBookings(
  db: Db,
  args: { workspaceId: string; locationId: string; from: number; to: number; stafferId?: string | undefined },
): Promise<CalendarBooking[]> {
  const staffer = args.stafferId ? sql`AND b.staffer_id = ${args.stafferId}` : sql``;
  const result = await sql<CalendarBooking>`
    SELECT b.id, b.staffer_id,
           date_part('epoch', b.start_time) * 1000 AS start_ms,
           date_part('epoch', b.end_time) * 1000 AS end_ms,
           b.occupancy_id, o.capacity, o.seats_taken, b.completed_at IS NOT NULL AS completed,
           c.first_name AS customer_first_name, c.last_name AS customer_last_name, c.phone AS customer_phone,
           s.name AS status_name, s.color AS status_color, s.type AS status_type,
           (SELECT string_agg(bs.name, ', ' ORDER BY bs.position, bs.id) FROM booking_services bs
             WHERE bs.workspace_id = b.workspace_id AND bs.booking_id = b.id) AS services
    FROM bookings b
    JOIN customers c ON c.workspace_id = b.workspace_id AND c.id = b.customer_id
    JOIN booking_statuses s ON s.workspace_id = b.workspace_id AND s.id = b.status_id
    LEFT JOIN occupancies o ON o.workspace_id = b.workspace_id AND o.id = b.occupancy_id
    WHERE b.workspace_id = ${args.workspaceId}
      AND b.location_id = ${args.locationId}
      AND b.start_time >= ${new Date(args.from - DAY_MS)}::timestamptz
      AND b.start_time < ${new Date(args.to)}::timestamptz
      AND b.end_time > ${new Date(args.from)}::timestamptz
      AND s.type <> 'canceled'
      ${staffer}
    ORDER BY b.start_time, b.id`.execute(db);
  return result.rows;
}
