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

  const occupancyRows = await db
    .selectFrom('occupancies')
    // Instants as epoch ms (float8), not timestamptz: a 90-day range is thousands of rows, and
    // parsing three timestamp strings per row was the largest cost of a time-slots request.
    // date_part, not extract: extract answers numeric, whose arithmetic costs the server more.
    .select([
      'staffer_id',
      'service_id',
      'capacity',
      'seats_taken',
      sql<number>`date_part('epoch', service_start) * 1000`.as('service_start_ms'),
      sql<number>`date_part('epoch', lower(span)) * 1000`.as('span_start_ms'),
      sql<number>`date_part('epoch', upper(span)) * 1000`.as('span_end_ms'),
    ])
    // The row id matters only to a booking being changed (it must not count against itself).
    .$if(args.excludeOccupancy !== undefined, (query) => query.select('id'))
    .where('workspace_id', '=', args.workspaceId)
    .where(
      'staffer_id',
      'in',
      staffers.map((s) => s.id),
    )
    .where('seats_taken', '>', 0)
    .where(
      sql<boolean>`span && tstzrange(${new Date(args.from - DAY_MS)}::timestamptz, ${new Date(args.to + DAY_MS)}::timestamptz)`,
    )
    .orderBy(sql`lower(span)`)
    .execute();

  const byStaffer = new Map<string, Occupancy[]>();
  for (const row of occupancyRows) {
    let seatsTaken = row.seats_taken;
    if (args.excludeOccupancy && row.id === args.excludeOccupancy.id)
      seatsTaken -= args.excludeOccupancy.seats;
    if (seatsTaken <= 0) continue;
    const list = byStaffer.get(row.staffer_id) ?? [];
    list.push({
      start: row.span_start_ms,
      end: row.span_end_ms,
      serviceId: row.service_id,
      serviceStart: row.service_start_ms,
      seatsTaken,
      capacity: row.capacity,
    });
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
