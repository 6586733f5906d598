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
      ON sc.workspace_id = ${workspaceId} AND sc.staffer_id = st.id AND sc.location_id = ${locationId}
    WHERE st.workspace_id = ${workspaceId}
      AND ((st.archived_at IS NULL AND EXISTS (
            SELECT 1 FROM staffer_services ss
            WHERE ss.workspace_id = ${workspaceId} AND ss.staffer_id = st.id AND ss.location_id = ${locationId}))
           ${extra})
    ORDER BY st.first_name, st.last_name, st.id`.execute(db);
  return result.rows;
}

export interface CalendarBooking {
  id: string;
  /** null: a rental (docs/resources.md "Rentals"), shown in the view by resource only. */
  staffer_id: string | null;
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
  status_id: string;
  status_name: string;
  status_color: string;
  status_type: StatusType;
  services: string;
  /** The names of the units (rooms, chairs) its session holds, joined; '' for none (docs/resources.md). */
  resources: string;
  /** The ids of those units, in the same order: the columns of the view by resource. */
  unit_ids: string[];
}

/** The workspace's booking statuses (a handful), to name and colour blocks. */
export async function listCalendarStatuses(
  db: Db,
  workspaceId: string,
): Promise<{ id: string; name: string; color: string; type: StatusType }[]> {
  return db
    .selectFrom('booking_statuses')
    .select(['id', 'name', 'color', 'type'])
    .where('workspace_id', '=', workspaceId)
    .execute();
}

type BookingTuple = [
  string,
  string,
  number,
  number,
  string | null,
  number | null,
  number | null,
  boolean,
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  string[] | null,
];

/**
 * The bookings of a location overlapping [from, to), canceled ones included (the caller knows
 * the statuses), in start order. One statement answering one row: a JSON array of tuples. A
 * week of 1,000 bookings as 1,000 rows cost the embedded store ~4x more (per-row conversion,
 * and a sub-select per row for the service names); the names are now one grouped hash join.
 * The start bound lets the (workspace, start_time) index narrow the scan: no booking runs
 * longer than a day.
 */
export async function listCalendarBookings(
  db: Db,
  args: { workspaceId: string; locationId: string; from: number; to: number },
): Promise<Omit<CalendarBooking, 'status_name' | 'status_color' | 'status_type'>[]> {
  const result = await sql<{ rows: BookingTuple[] | null }>`
    WITH live AS (
      SELECT b.id, b.staffer_id, b.start_time, b.end_time, b.occupancy_id, b.completed_at, b.customer_id, b.status_id
      FROM bookings b
      WHERE b.workspace_id = ${args.workspaceId}
        AND b.location_id = ${args.locationId}
        AND b.start_time >= ${new Date(args.from - DAY_MS)}::timestamptz
        AND b.start_time < ${new Date(args.to)}::timestamptz
        AND b.end_time > ${new Date(args.from)}::timestamptz
    ), names AS (
      SELECT bs.booking_id, string_agg(bs.name, ', ' ORDER BY bs.position, bs.id) AS services
      FROM booking_services bs JOIN live ON live.id = bs.booking_id
      WHERE bs.workspace_id = ${args.workspaceId}
      GROUP BY bs.booking_id
    ), units AS (
      -- The rooms, chairs, equipment each session holds (docs/resources.md); none for a
      -- workspace without resources, found by the unique index on (workspace, occupancy).
      SELECT ro.occupancy_id, string_agg(r.name, ', ' ORDER BY r.type, r.name, r.id) AS names,
             array_agg(r.id ORDER BY r.type, r.name, r.id) AS ids
      FROM resource_occupancies ro
      JOIN resources r ON r.workspace_id = ${args.workspaceId} AND r.id = ro.resource_id
      WHERE ro.workspace_id = ${args.workspaceId}
        AND ro.occupancy_id IN (SELECT occupancy_id FROM live)
      GROUP BY ro.occupancy_id
    )
    SELECT json_agg(json_build_array(
             l.id, l.staffer_id, date_part('epoch', l.start_time) * 1000, date_part('epoch', l.end_time) * 1000,
             l.occupancy_id, o.capacity, o.seats_taken, l.completed_at IS NOT NULL,
             c.first_name, c.last_name, c.phone, l.status_id, n.services, u.names, u.ids)
           ORDER BY l.start_time, l.id) AS rows
    FROM live l
    JOIN customers c ON c.workspace_id = ${args.workspaceId} AND c.id = l.customer_id
    LEFT JOIN names n ON n.booking_id = l.id
    LEFT JOIN units u ON u.occupancy_id = l.occupancy_id
    LEFT JOIN occupancies o ON o.workspace_id = ${args.workspaceId} AND o.id = l.occupancy_id`.execute(db);
  const rows = result.rows[0]?.rows ?? [];
  return rows.map((r) => ({
    id: r[0],
    staffer_id: r[1],
    start_ms: r[2],
    end_ms: r[3],
    occupancy_id: r[4],
    capacity: r[5],
    seats_taken: r[6],
    completed: r[7],
    customer_first_name: r[8],
    customer_last_name: r[9],
    customer_phone: r[10],
    status_id: r[11],
    services: r[12] ?? '',
    resources: r[13] ?? '',
    unit_ids: r[14] ?? [],
  }));
}

export interface CalendarResource {
  id: string;
  type: string;
  name: string;
}

/** The live resources (rooms, chairs, equipment) of a location: the columns of the view by resource. */
export async function listCalendarResources(
  db: Db,
  workspaceId: string,
  locationId: string,
): Promise<CalendarResource[]> {
  return db
    .selectFrom('resources')
    .select(['id', 'type', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where('location_id', '=', locationId)
    .where('archived_at', 'is', null)
    .orderBy('type')
    .orderBy('name')
    .orderBy('id')
    .execute();
}
