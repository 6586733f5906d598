import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import type { Occupancy, Schedule, StafferInput } from './types.js';

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
  let staffersQuery = db
    .selectFrom('staffers as st')
    .leftJoin('schedules as sc', (join) =>
      join
        .onRef('sc.workspace_id', '=', 'st.workspace_id')
        .onRef('sc.staffer_id', '=', 'st.id')
        .on('sc.location_id', '=', args.locationId),
    )
    .select(['st.id', 'sc.weekly', 'sc.breaks', 'sc.overrides'])
    .where('st.workspace_id', '=', args.workspaceId)
    .where('st.archived_at', 'is', null)
    .where((eb) =>
      eb(
        eb
          .selectFrom('staffer_services as ss')
          .select(sql<number>`count(distinct ss.service_id)::int`.as('n'))
          .whereRef('ss.workspace_id', '=', 'st.workspace_id')
          .whereRef('ss.staffer_id', '=', 'st.id')
          .where('ss.location_id', '=', args.locationId)
          .where('ss.service_id', 'in', args.serviceIds),
        '=',
        new Set(args.serviceIds).size,
      ),
    )
    .orderBy('st.created_at')
    .orderBy('st.id');
  if (args.stafferId) staffersQuery = staffersQuery.where('st.id', '=', args.stafferId);
  const staffers = await staffersQuery.execute();
  if (staffers.length === 0) return [];

  // One row per staffer whose fields are JSON arrays (index i of each = one occupancy), not one
  // row per occupancy: a 31-day answer reads ~3,000 occupancies, and parsing them as rows cost
  // the server ~7 ms of CPU per request; the arrays parse natively in ~1 ms. Instants are epoch
  // ms (float8) via date_part (extract answers numeric, whose arithmetic costs the server more).
  // Every aggregate of a group is fed the group's rows in the same order, so the arrays line up.
  const excluded = args.excludeOccupancy;
  const occupancyRows = await sql<OccupancyArrays>`
    SELECT staffer_id,
           json_agg(span_start_ms) AS start_ms,
           json_agg(span_end_ms) AS end_ms,
           json_agg(service_id) AS service_id,
           json_agg(service_start_ms) AS service_start_ms,
           json_agg(seats) AS seats_taken,
           json_agg(capacity) AS capacity
    FROM (
      SELECT staffer_id, service_id, capacity,
             date_part('epoch', service_start) * 1000 AS service_start_ms,
             date_part('epoch', lower(span)) * 1000 AS span_start_ms,
             date_part('epoch', upper(span)) * 1000 AS span_end_ms,
             -- A booking being changed does not count against itself.
             seats_taken - ${excluded ? sql`CASE WHEN id = ${excluded.id} THEN ${excluded.seats}::int ELSE 0 END` : sql`0`} AS seats
      FROM occupancies
      WHERE workspace_id = ${args.workspaceId}
        AND staffer_id IN (${sql.join(staffers.map((s) => s.id))})
        AND seats_taken > 0
        AND span && tstzrange(${new Date(args.from - DAY_MS)}::timestamptz, ${new Date(args.to + DAY_MS)}::timestamptz)
    ) AS o
    WHERE seats > 0
    GROUP BY staffer_id
  `.execute(db);

  const byStaffer = new Map<string, Occupancy[]>();
  for (const row of occupancyRows.rows) {
    const list: Occupancy[] = [];
    for (let i = 0; i < row.start_ms.length; i++) {
      list.push({
        start: row.start_ms[i]!,
        end: row.end_ms[i]!,
        serviceId: row.service_id[i]!,
        serviceStart: row.service_start_ms[i]!,
        seatsTaken: row.seats_taken[i]!,
        capacity: row.capacity[i]!,
      });
    }
    byStaffer.set(row.staffer_id, list);
  }

  return staffers.map((staffer) => ({
    stafferId: staffer.id,
    schedule: {
      weekly: staffer.weekly ?? {},
      breaks: staffer.breaks ?? {},
      overrides: staffer.overrides ?? [],
    } as Schedule,
    occupancies: byStaffer.get(staffer.id) ?? [],
  }));
}

interface OccupancyArrays {
  staffer_id: string;
  start_ms: number[];
  end_ms: number[];
  service_id: string[];
  service_start_ms: number[];
  seats_taken: number[];
  capacity: number[];
}

export interface OfferedService {
  id: string;
  name: string;
  price: number;
  duration_minutes: number;
  capacity: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
}

/** Live services of the workspace offered at the location, among `serviceIds`. */
export async function loadOfferedServices(
  db: Db,
  workspaceId: string,
  locationId: string,
  serviceIds: string[],
): Promise<Map<string, OfferedService>> {
  if (serviceIds.length === 0) return new Map();
  const rows = await db
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
    ])
    .where('s.workspace_id', '=', workspaceId)
    .where('s.id', 'in', serviceIds)
    .where('s.archived_at', 'is', null)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
