import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import type { CancelReason } from '../db/schema.js';
import { bookingFinal, invalidField, notFound } from '../errors.js';
import type { LocationRow } from '../locations/locations.repository.js';
import { checkBookable } from '../slots/compute-slots.js';
import type { OfferedService } from '../slots/slots.repository.js';
import { parseInstant } from '../time/instant.js';
import { toUtcIso } from '../time/zone.js';
import { type EventType, recordBookingEvents } from '../webhooks/outbox.js';
import { bookingServices, combinedService, occupiedSpan, requireOfferedServices } from './booking-shape.js';
import { type BookingJson, presentBooking } from './bookings.presenter.js';
import { type BookingRow, lockBooking, requireBookingView } from './bookings.repository.js';
import { availabilityFor, type BookingContext, insertOrderLines, unavailable } from './bookings.service.js';
import { appendHistory, type HistoryAction } from './history.js';
import { releaseSeat, takeSeat } from './occupancy.js';

interface ChangeOutcome {
  action: HistoryAction;
  changes: Record<string, unknown>;
  events: EventType[];
}

/** A request for what the booking already has: answered with the booking, nothing written. */
const UNCHANGED = 'unchanged';

/**
 * The frame of every change: lock the booking (changes of one booking take turns), refuse a
 * final one, apply, stamp, record history, present, and write the events — one transaction.
 * A change to what the booking already has stamps, records and sends nothing: no history entry
 * nor webhook says "changed" when nothing did.
 */
async function changeBooking(
  ctx: BookingContext,
  bookingId: string,
  apply: (tx: Db, booking: BookingRow) => Promise<ChangeOutcome | typeof UNCHANGED>,
): Promise<BookingJson> {
  const { workspace } = ctx;
  return ctx.db.transaction().execute(async (tx) => {
    const booking = await lockBooking(tx, workspace.id, bookingId);
    const status = await statusOf(tx, workspace.id, booking.status_id);
    if (status.type === 'completed' || status.type === 'canceled') throw bookingFinal();
    const outcome = await apply(tx, booking);
    if (outcome === UNCHANGED) {
      return presentBooking(await requireBookingView(tx, workspace.id, bookingId), workspace);
    }
    await tx
      .updateTable('bookings')
      .set({ updated_at: sql`now()` })
      .where('workspace_id', '=', workspace.id)
      .where('id', '=', booking.id)
      .execute();
    await appendHistory(tx, { workspaceId: workspace.id, bookingId, ...outcome, actor: ctx.actor });
    const json = presentBooking(await requireBookingView(tx, workspace.id, bookingId), workspace);
    await recordBookingEvents(tx, {
      workspaceId: workspace.id,
      workspaceSlug: workspace.slug,
      bookingId,
      types: outcome.events,
      booking: json,
      at: new Date(ctx.now),
    });
    return json;
  });
}

/** PUT /bookings/{uuid}/reschedule: same uuid, same staffer, a new start that must be free. */
export function rescheduleBooking(
  ctx: BookingContext,
  bookingId: string,
  reservedOn: string,
): Promise<BookingJson> {
  const start = parseInstant(reservedOn);
  if (start === undefined) {
    throw invalidField(
      'reserved_on',
      'The reserved_on field must be an ISO 8601 date-time such as 2026-09-10T12:00:00Z.',
    );
  }
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    if (start === booking.start_time.getTime()) return UNCHANGED;
    const location = await bookingLocation(tx, booking);
    const services = await bookingServices(tx, booking.workspace_id, booking.id);
    await moveSeat(tx, ctx, booking, location, services, booking.staffer_id, start, true);
    return {
      action: 'rescheduled',
      // Instants as everywhere in the API (DESIGN §3 "Time"): UTC, seconds, 'Z'.
      changes: { start_time: { from: toUtcIso(booking.start_time.getTime()), to: toUtcIso(start) } },
      events: ['booking-updated', 'booking-rescheduled'],
    };
  });
}

/** PUT /bookings/{uuid}/staffer: another eligible staffer, free at the booking's time. */
export function changeStaffer(
  ctx: BookingContext,
  bookingId: string,
  stafferId: string,
): Promise<BookingJson> {
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    if (stafferId === booking.staffer_id) return UNCHANGED;
    const location = await bookingLocation(tx, booking);
    const services = await bookingServices(tx, booking.workspace_id, booking.id);
    await moveSeat(tx, ctx, booking, location, services, stafferId, booking.start_time.getTime(), false);
    return {
      action: 'staffer_changed',
      changes: { staffer_uuid: { from: booking.staffer_id, to: stafferId } },
      events: ['booking-updated'],
    };
  });
}

/** PUT /bookings/{uuid}/services: order lines rebuilt, duration = their sum, the span must be free. */
export function changeServices(
  ctx: BookingContext,
  bookingId: string,
  serviceIds: string[],
): Promise<BookingJson> {
  if (serviceIds.length === 0)
    throw invalidField('service_uuids', 'The service_uuids field must list at least one service.');
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    const location = await bookingLocation(tx, booking);
    const before = await bookingServices(tx, booking.workspace_id, booking.id);
    const services = await requireOfferedServices(
      tx,
      booking.workspace_id,
      location.id,
      serviceIds,
      'service_uuids',
    );
    await moveSeat(
      tx,
      ctx,
      booking,
      location,
      services,
      booking.staffer_id,
      booking.start_time.getTime(),
      false,
      true,
    );
    await tx
      .deleteFrom('booking_services')
      .where('workspace_id', '=', booking.workspace_id)
      .where('booking_id', '=', booking.id)
      .execute();
    await insertOrderLines(tx, booking.workspace_id, booking.id, services);
    return {
      action: 'services_changed',
      changes: { service_uuids: { from: before.map((s) => s.id), to: serviceIds } },
      events: ['booking-updated'],
    };
  });
}

/** PUT /bookings/{uuid}/status: a live, non-final status of the workspace. */
export function setStatus(ctx: BookingContext, bookingId: string, statusId: string): Promise<BookingJson> {
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    const status = await tx
      .selectFrom('booking_statuses')
      .select(['id', 'type'])
      .where('workspace_id', '=', booking.workspace_id)
      .where('id', '=', statusId)
      .where('archived_at', 'is', null)
      .executeTakeFirst();
    if (!status) throw invalidField('status_uuid', 'The selected status is invalid.');
    if (status.type === 'completed' || status.type === 'canceled') {
      throw invalidField(
        'status_uuid',
        'A final status is set only by PUT /bookings/{uuid}/status/complete or /status/cancel.',
      );
    }
    if (status.id === booking.status_id) return UNCHANGED;
    await tx
      .updateTable('bookings')
      .set({ status_id: status.id })
      .where('workspace_id', '=', booking.workspace_id)
      .where('id', '=', booking.id)
      .execute();
    return {
      action: 'status_changed',
      changes: { status_uuid: { from: booking.status_id, to: status.id } },
      events: ['booking-updated'],
    };
  });
}

/** PUT /bookings/{uuid}/status/complete: the visit took place; the payment goes to the account. */
export function completeBooking(
  ctx: BookingContext,
  bookingId: string,
  input: { account_uuid: string; paid_amount: number },
): Promise<BookingJson> {
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    const account = await tx
      .selectFrom('payment_accounts')
      .select('id')
      .where('workspace_id', '=', booking.workspace_id)
      .where('id', '=', input.account_uuid)
      .where('location_id', '=', booking.location_id)
      .where('archived_at', 'is', null)
      .executeTakeFirst();
    if (!account)
      throw invalidField(
        'account_uuid',
        "The account_uuid must be a payment account of the booking's location.",
      );
    const payment = await tx
      .insertInto('payments')
      .values({
        workspace_id: booking.workspace_id,
        booking_id: booking.id,
        payment_account_id: account.id,
        amount: input.paid_amount,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const completed = await builtinStatus(tx, booking.workspace_id, 'completed');
    await tx
      .updateTable('bookings')
      .set({ status_id: completed, completed_at: sql`now()` })
      .where('workspace_id', '=', booking.workspace_id)
      .where('id', '=', booking.id)
      .execute();
    return {
      action: 'completed',
      changes: { payment: { uuid: payment.id, account_uuid: account.id, amount: input.paid_amount } },
      events: ['booking-succeeded'],
    };
  });
}

/** PUT /bookings/{uuid}/status/cancel: the seat is released in the same transaction. */
export function cancelBooking(
  ctx: BookingContext,
  bookingId: string,
  cancelReason: CancelReason | undefined,
): Promise<BookingJson> {
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    if (booking.occupancy_id)
      await releaseSeat(tx, booking.workspace_id, booking.occupancy_id, booking.quantity);
    const canceled = await builtinStatus(tx, booking.workspace_id, 'canceled');
    await tx
      .updateTable('bookings')
      .set({ status_id: canceled, canceled_at: sql`now()`, cancel_reason: cancelReason ?? null })
      .where('workspace_id', '=', booking.workspace_id)
      .where('id', '=', booking.id)
      .execute();
    return {
      action: 'canceled',
      changes: { cancel_reason: cancelReason ?? null },
      events: ['booking-canceled'],
    };
  });
}

/** POST /bookings/{uuid}/public_notes: no event (SPEC), but history and updated_at. */
export async function addPublicNote(ctx: BookingContext, bookingId: string, value: string) {
  const text = value.trim();
  if (text === '') throw invalidField('value', 'The value field is required.');
  let note: { id: string; value: string; created_at: Date } | undefined;
  const booking = await changeBooking(ctx, bookingId, async (tx, row) => {
    note = await tx
      .insertInto('public_notes')
      .values({ workspace_id: row.workspace_id, booking_id: row.id, value: text })
      .returning(['id', 'value', 'created_at'])
      .executeTakeFirstOrThrow();
    return { action: 'note_added', changes: { note_uuid: note.id }, events: [] };
  });
  return {
    note: { uuid: note!.id, value: note!.value, created_at: toUtcIso(note!.created_at.getTime()) },
    booking,
  };
}

export async function listPublicNotes(db: Db, workspaceId: string, bookingId: string) {
  const exists = await db
    .selectFrom('bookings')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', bookingId)
    .executeTakeFirst();
  if (!exists) throw notFound('Booking');
  const rows = await db
    .selectFrom('public_notes')
    .select(['id', 'value', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    uuid: row.id,
    value: row.value,
    created_at: toUtcIso(row.created_at.getTime()),
  }));
}

/**
 * Moves the booking's seat: to a new start (reschedule), staffer, or shape (services). The
 * booking's own seat does not count against it. A new start must be a bookable slot start; a
 * change that keeps the time only needs the staffer to be free then.
 */
async function moveSeat(
  tx: Db,
  ctx: BookingContext,
  booking: BookingRow,
  location: LocationRow,
  services: OfferedService[],
  stafferId: string,
  start: number,
  newTime: boolean,
  newServices = false,
): Promise<void> {
  const service = combinedService(services);
  const own = booking.occupancy_id ? { id: booking.occupancy_id, seats: booking.quantity } : undefined;
  const availability = await availabilityFor(tx, ctx, location, services, service, start, stafferId, own);
  if (availability.staffers.length === 0) {
    // Name what the request changed: on PUT /services the staffer stayed, the services are new.
    throw invalidField(
      newServices ? 'service_uuids' : 'staffer_uuid',
      "The staffer does not provide the booking's services at this location.",
    );
  }
  const verdict = checkBookable(availability, start, stafferId, { timeRules: newTime });
  if (!verdict.ok) throw unavailable(verdict);
  if (booking.occupancy_id)
    await releaseSeat(tx, booking.workspace_id, booking.occupancy_id, booking.quantity);
  const span = occupiedSpan(service, start);
  const occupancyId = await takeSeat(tx, {
    workspaceId: booking.workspace_id,
    stafferId,
    locationId: location.id,
    serviceId: service.id,
    capacity: service.capacity,
    seats: booking.quantity,
    ...span,
  });
  await tx
    .updateTable('bookings')
    .set({
      staffer_id: stafferId,
      start_time: span.serviceStart,
      end_time: span.end,
      occupancy_id: occupancyId,
    })
    .where('workspace_id', '=', booking.workspace_id)
    .where('id', '=', booking.id)
    .execute();
}

async function bookingLocation(tx: Db, booking: BookingRow): Promise<LocationRow> {
  return tx
    .selectFrom('locations')
    .selectAll()
    .where('workspace_id', '=', booking.workspace_id)
    .where('id', '=', booking.location_id)
    .executeTakeFirstOrThrow();
}

async function statusOf(tx: Db, workspaceId: string, statusId: string) {
  return tx
    .selectFrom('booking_statuses')
    .select(['id', 'type'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', statusId)
    .executeTakeFirstOrThrow();
}

async function builtinStatus(tx: Db, workspaceId: string, type: 'completed' | 'canceled'): Promise<string> {
  const row = await tx
    .selectFrom('booking_statuses')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', type)
    .executeTakeFirstOrThrow();
  return row.id;
}
