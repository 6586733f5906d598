import { randomInt } from 'node:crypto';
import { type BookingEventType, recordBookingEvents } from '../../src/bookings/booking-events.service.js';
import type { Db } from '../../src/platform/db/client.js';
import type { WorkspaceRow } from '../../src/workspaces/workspaces.repository.js';
import { openWritePath } from '../../src/write-path.js';
import { createLocation, createService, createStaffer } from './factories.js';

/**
 * A booking row straight in the store (location, service, staffer, customer included), for tests
 * that need outbox events without going through the bookings API.
 */
export async function insertBookingRow(db: Db, workspaceId: string): Promise<string> {
  const location = await createLocation(db, workspaceId);
  const service = await createService(db, workspaceId, [location.id]);
  const staffer = await createStaffer(db, workspaceId, location.id, [service.id]);
  const customer = await db
    .insertInto('customers')
    .values({ workspace_id: workspaceId, phone: `+4930${randomInt(10_000_000, 99_999_999)}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const status = await db
    .selectFrom('booking_statuses')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('is_default', '=', true)
    .executeTakeFirstOrThrow();
  const booking = await db
    .insertInto('bookings')
    .values({
      workspace_id: workspaceId,
      location_id: location.id,
      staffer_id: staffer.id,
      customer_id: customer.id,
      status_id: status.id,
      occupancy_id: null,
      start_time: new Date('2030-01-07T10:00:00Z'),
      end_time: new Date('2030-01-07T11:00:00Z'),
      cancel_reason: null,
      booking_callback: null,
      created_by_key_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return booking.id;
}

/** Commits `types` for the booking through the real outbox writer, in one transaction. */
export async function emitBookingEvents(
  db: Db,
  workspace: WorkspaceRow,
  bookingId: string,
  types: BookingEventType[],
  at = new Date(),
): Promise<void> {
  await openWritePath(db).uow.run(workspace.id, (tx) =>
    recordBookingEvents(tx, {
      workspaceId: workspace.id,
      workspaceSlug: workspace.slug,
      bookingId,
      types,
      booking: { uuid: bookingId, note: 'test booking' },
      at,
      change: null,
    }),
  );
}

/**
 * Runs worker rounds until one finds nothing to do: every committed event fanned out and every
 * due delivery attempted. For end-to-end tests: do the booking operation, drain, read the receiver.
 */
export async function drainWebhooks(
  worker: { runOnce(): Promise<{ dispatched: number; outcomes: unknown[] }> },
  maxRounds = 100,
): Promise<number> {
  let attempts = 0;
  for (let round = 0; round < maxRounds; round += 1) {
    const result = await worker.runOnce();
    attempts += result.outcomes.length;
    if (result.dispatched === 0 && result.outcomes.length === 0) return attempts;
  }
  throw new Error(`webhook worker still busy after ${maxRounds} rounds`);
}
