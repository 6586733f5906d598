import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import { precompiled } from '../platform/db/precompiled.js';
import type { ResourceRequirementJson } from '../platform/db/schema.js';
import type { BusySpan, Occupancy, Schedule, StafferInput } from './engine/types.js';

const DAY_MS = 86_400_000;

/**
 * The eligible staffers of a service at a location — live, providing the service there — with
 * their schedule at that location and their seat-holding occupancies within [from, to]
 * (padded by a day so buffers and midnight-crossing spans at the edges are seen). Ordered by
 * creation, which is the stable order automatic assignment breaks ties with.
 */
export async function loadStafferInputs(
  db: Db,
  args: {
    workspaceId: string;
    locationId: string;
    serviceIds: string[];
    stafferId?: string | undefined;
    from: number;
    to: number;
    /** A booking being changed does not count against itself. */
    excludeOccupancy?: { id: string; seats: number } | undefined;
  },
): Promise<StafferInput[]> {
  const excluded = args.excludeOccupancy;
  // One statement: the staffers, and per staffer its occupancies as JSON arrays (index i of each
  // array = one occupancy). Rows per occupancy cost the server ~7 ms of CPU per 31-day answer to
  // parse (~3,000 rows); the arrays parse natively in ~1 ms, and one round trip replaces two.
  // Instants are epoch ms (float8) via date_part (extract answers numeric, which costs more).
  // Every aggregate of one group is fed the same rows in the same order, so the arrays line up.
  // The lateral subquery meets the exclusion constraint's GiST index (workspace, staffer, span).
  // Every table names the workspace by the bound value, not by st.workspace_id: Citus routes
  // a correlated subquery to one shard only when its distribution column equals a constant.
  const result = await sql<StafferRow>`
    SELECT st.id, sc.weekly, sc.breaks, sc.overrides,
           occ.start_ms, occ.end_ms, occ.service_id, occ.service_start_ms, occ.seats_taken, occ.capacity,
           busy.busy_start_ms, busy.busy_end_ms
    FROM staffers st
    LEFT JOIN schedules sc
      ON sc.workspace_id = ${args.workspaceId} AND sc.staffer_id = st.id AND sc.location_id = ${args.locationId}
    CROSS JOIN LATERAL (
      SELECT json_agg(span_start_ms) AS start_ms,
             json_agg(span_end_ms) AS end_ms,
             json_agg(service_id) AS service_id,
             json_agg(service_start_ms) AS service_start_ms,
             json_agg(seats) AS seats_taken,
             json_agg(capacity) AS capacity
      FROM (
        SELECT o.service_id, o.capacity,
               date_part('epoch', o.service_start) * 1000 AS service_start_ms,
               date_part('epoch', lower(o.span)) * 1000 AS span_start_ms,
               date_part('epoch', upper(o.span)) * 1000 AS span_end_ms,
               -- A booking being changed does not count against itself.
               o.seats_taken - ${excluded ? sql`CASE WHEN o.id = ${excluded.id} THEN ${excluded.seats}::int ELSE 0 END` : sql`0`} AS seats
        FROM occupancies o
        WHERE o.workspace_id = ${args.workspaceId}
          AND o.staffer_id = st.id
          AND o.seats_taken > 0
          AND o.span && tstzrange(${new Date(args.from - DAY_MS)}::timestamptz, ${new Date(args.to + DAY_MS)}::timestamptz)
      ) AS seat_holding
      WHERE seats > 0
    ) AS occ
    -- Outside busy time from the staffer's own calendar (src/calendar-sync): none unless connected.
    -- The union of its events (migrations/0037), not each event: the same time blocked, in fewer rows.
    CROSS JOIN LATERAL (
      -- Stored in pieces of at most a day: a piece overlapping the padded window starts after
      -- its start minus a day, so the primary key's btree on start_ms bounds the scan.
      SELECT json_agg(b.start_ms) AS busy_start_ms, json_agg(b.end_ms) AS busy_end_ms
      FROM calendar_busy_blocks b
      WHERE b.workspace_id = ${args.workspaceId}
        AND b.staffer_id = st.id
        AND b.start_ms > ${args.from - 2 * DAY_MS}::float8
        AND b.start_ms < ${args.to + DAY_MS}::float8
        AND b.end_ms > ${args.from - DAY_MS}::float8
    ) AS busy
    WHERE st.workspace_id = ${args.workspaceId}
      AND st.archived_at IS NULL
      ${args.stafferId ? sql`AND st.id = ${args.stafferId}` : sql``}
      -- Provides every one of the services at this location.
      AND (
        SELECT count(DISTINCT ss.service_id)::int FROM staffer_services ss
        WHERE ss.workspace_id = ${args.workspaceId} AND ss.staffer_id = st.id
          AND ss.location_id = ${args.locationId}
          AND ss.service_id IN (${sql.join(args.serviceIds)})
      ) = ${new Set(args.serviceIds).size}::int
    ORDER BY st.created_at, st.id
  `.execute(db);

  return result.rows.map((row) => {
    const occupancies: Occupancy[] = [];
    // json_agg over no rows is NULL: a staffer with nothing booked.
    for (let i = 0; i < (row.start_ms?.length ?? 0); i++) {
      occupancies.push({
        start: row.start_ms![i]!,
        end: row.end_ms![i]!,
        serviceId: row.service_id![i]!,
        serviceStart: row.service_start_ms![i]!,
        seatsTaken: row.seats_taken![i]!,
        capacity: row.capacity![i]!,
      });
    }
    const busy: BusySpan[] = [];
    for (let i = 0; i < (row.busy_start_ms?.length ?? 0); i++) {
      busy.push({ start: row.busy_start_ms![i]!, end: row.busy_end_ms![i]! });
    }
    return {
      stafferId: row.id,
      ...(busy.length > 0 ? { busy } : {}),
      schedule: {
        weekly: row.weekly ?? {},
        breaks: row.breaks ?? {},
        overrides: row.overrides ?? [],
      } as Schedule,
      occupancies,
    };
  });
}

interface StafferRow {
  id: string;
  weekly: Schedule['weekly'] | null;
  breaks: Schedule['breaks'] | null;
  overrides: Schedule['overrides'] | null;
  start_ms: number[] | null;
  end_ms: number[] | null;
  service_id: string[] | null;
  service_start_ms: number[] | null;
  seats_taken: number[] | null;
  capacity: number[] | null;
  busy_start_ms: number[] | null;
  busy_end_ms: number[] | null;
}

export interface OfferedService {
  id: string;
  name: string;
  price: number;
  duration_minutes: number;
  capacity: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  /** What a session needs besides its staffer (docs/resources.md); [] = nothing. */
  resource_requirements: ResourceRequirementJson[];
  /** false: a rental, booked with its units and no staffer (docs/resources.md "Rentals"). */
  staffer_needed: boolean;
}

/** Live services of the workspace offered at the location, among `serviceIds`. */
export async function loadOfferedServices(
  db: Db,
  workspaceId: string,
  locationId: string,
  serviceIds: string[],
): Promise<Map<string, OfferedService>> {
  if (serviceIds.length === 0) return new Map();
  const { rows } = await offeredServices(db, workspaceId, locationId, serviceIds);
  return new Map(rows.map((row) => [row.id, row]));
}

// Asked by every time-slot answer and every create: compiled once. The ids travel as one array
// parameter (`= any`), not an IN list, so there is one statement text whatever their number.
const offeredServices = precompiled(3, (db, workspaceId: string, locationId: string, serviceIds: string[]) =>
  db
    .selectFrom('services as s')
    .innerJoin('service_locations as sl', (join) =>
      join
        .onRef('sl.workspace_id', '=', 's.workspace_id')
        .onRef('sl.service_id', '=', 's.id')
        .on('sl.location_id', '=', locationId),
    )
    .select([
      's.id',
      's.name',
      's.price',
      's.duration_minutes',
      's.capacity',
      's.buffer_before_minutes',
      's.buffer_after_minutes',
      's.resource_requirements',
      's.staffer_needed',
    ])
    .where('s.workspace_id', '=', workspaceId)
    .where(sql<boolean>`s.id = any(${serviceIds}::uuid[])`)
    .where('s.archived_at', 'is', null),
);
