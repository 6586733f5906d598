import { sql } from 'kysely';
import { slotUnavailable } from '../errors.js';
import type { Tx } from '../platform/db/unit-of-work.js';

/**
 * Seats in the `occupancies` table are what make double booking impossible: the
 * database, not this code, refuses an overlapping span of one staffer (exclusion constraint) and
 * a seat beyond a group's capacity (CHECK). Concurrent requests for one slot therefore resolve in
 * the database: the first commits, the rest fail here and become 409 slot_unavailable.
 */
export interface SeatRequest {
  workspaceId: string;
  /** null: a rental's session, one booking of its own (docs/resources.md "Rentals"). */
  stafferId: string | null;
  locationId: string;
  serviceId: string;
  serviceStart: Date;
  /** The occupied span, buffers included. */
  spanStart: Date;
  spanEnd: Date;
  capacity: number;
  seats: number;
  /** Keep the transaction usable after a refusal, so the caller can try another staffer. */
  retryable?: boolean;
}

export async function takeSeat(tx: Tx, request: SeatRequest): Promise<string> {
  // A savepoint keeps the transaction usable when the constraint refuses the seat; it costs two
  // round trips, so only a caller that will try again asks for it.
  const savepoint = request.retryable === true;
  if (savepoint) await sql`SAVEPOINT take_seat`.execute(tx);
  try {
    const row = await tx
      .insertInto('occupancies')
      .values({
        workspace_id: request.workspaceId,
        staffer_id: request.stafferId,
        location_id: request.locationId,
        service_id: request.serviceId,
        service_start: request.serviceStart,
        span: sql<string>`tstzrange(${request.spanStart}::timestamptz, ${request.spanEnd}::timestamptz)`,
        capacity: request.capacity,
        seats_taken: request.seats,
      })
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'staffer_id', 'service_start', 'service_id']).doUpdateSet({
          // A row left empty by cancellations is reused with the service's current shape.
          span: sql`CASE WHEN occupancies.seats_taken = 0 THEN excluded.span ELSE occupancies.span END`,
          capacity: sql`CASE WHEN occupancies.seats_taken = 0 THEN excluded.capacity ELSE occupancies.capacity END`,
          seats_taken: sql`occupancies.seats_taken + excluded.seats_taken`,
        }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    if (savepoint) await sql`RELEASE SAVEPOINT take_seat`.execute(tx);
    return row.id;
  } catch (error) {
    if (!isSeatRefusal(error)) throw error;
    if (savepoint) await sql`ROLLBACK TO SAVEPOINT take_seat`.execute(tx);
    throw slotUnavailable();
  }
}

export async function releaseSeat(
  tx: Tx,
  workspaceId: string,
  occupancyId: string,
  seats: number,
): Promise<void> {
  await tx
    .updateTable('occupancies')
    .set({ seats_taken: sql`greatest(seats_taken - ${seats}, 0)` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', occupancyId)
    .execute();
}

function isSeatRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  // 23P01 exclusion_violation (overlap), 23514 check_violation (capacity). 40P01: two inserts of
  // overlapping seats can deadlock on the exclusion index; they conflict, so the loser is refused too.
  return code === '23P01' || code === '23514' || code === '40P01';
}
