import { sql } from 'kysely';
import type { Db } from '../src/platform/db/client.js';

/**
 * After the runs (issue 6 "a SQL check"): no two seat-holding occupancies of one staffer overlap,
 * no occupancy is over capacity, no two live bookings of one staffer overlap, and every
 * occupancy's seats equal the live bookings that hold it (so live bookings == seats taken).
 */
export interface IntegrityResult {
  overlappingOccupancies: number;
  overCapacity: number;
  overlappingBookings: number;
  seatMismatches: number;
  liveBookings: number;
  seatsTaken: number;
  ok: boolean;
}

export async function checkIntegrity(db: Db): Promise<IntegrityResult> {
  const count = async (query: ReturnType<typeof sql<{ n: number }>>) =>
    Number((await query.execute(db)).rows[0]?.n ?? 0);
  const overlappingOccupancies = await count(sql<{ n: number }>`
    SELECT count(*)::int AS n FROM occupancies a
      JOIN occupancies b ON b.workspace_id = a.workspace_id AND b.staffer_id = a.staffer_id
       AND a.id < b.id AND a.span && b.span
     WHERE a.seats_taken > 0 AND b.seats_taken > 0`);
  const overCapacity = await count(sql<{ n: number }>`
    SELECT count(*)::int AS n FROM occupancies WHERE seats_taken > capacity OR seats_taken < 0`);
  const overlappingBookings = await count(sql<{ n: number }>`
    WITH live AS (
      SELECT b.workspace_id, b.id, b.staffer_id, tstzrange(b.start_time, b.end_time) AS span
        FROM bookings b JOIN booking_statuses s ON s.workspace_id = b.workspace_id AND s.id = b.status_id
       WHERE s.type <> 'canceled')
    SELECT count(*)::int AS n FROM live a
      JOIN live b ON b.workspace_id = a.workspace_id AND b.staffer_id = a.staffer_id
       AND a.id < b.id AND a.span && b.span`);
  const seatMismatches = await count(sql<{ n: number }>`
    WITH held AS (
      SELECT b.workspace_id, b.occupancy_id, sum(b.quantity)::int AS seats
        FROM bookings b JOIN booking_statuses s ON s.workspace_id = b.workspace_id AND s.id = b.status_id
       WHERE s.type <> 'canceled' AND b.occupancy_id IS NOT NULL
       GROUP BY b.workspace_id, b.occupancy_id)
    SELECT count(*)::int AS n FROM occupancies o
      FULL JOIN held h ON h.workspace_id = o.workspace_id AND h.occupancy_id = o.id
     WHERE coalesce(o.seats_taken, -1) <> coalesce(h.seats, 0)`);
  const liveBookings = await count(sql<{ n: number }>`
    SELECT count(*)::int AS n FROM bookings b
      JOIN booking_statuses s ON s.workspace_id = b.workspace_id AND s.id = b.status_id
     WHERE s.type <> 'canceled'`);
  const seatsTaken = await count(
    sql<{ n: number }>`SELECT coalesce(sum(seats_taken), 0)::int AS n FROM occupancies`,
  );
  return {
    overlappingOccupancies,
    overCapacity,
    overlappingBookings,
    seatMismatches,
    liveBookings,
    seatsTaken,
    ok:
      overlappingOccupancies === 0 &&
      overCapacity === 0 &&
      overlappingBookings === 0 &&
      seatMismatches === 0 &&
      liveBookings === seatsTaken,
  };
}
