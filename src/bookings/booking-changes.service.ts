import {
  AppError,
  bookingFinal,
  FieldErrorBag,
  invalidField,
  NOT_A_CHOICE,
  notFound,
  REQUIRED,
  ruleIssue,
} from '../errors.js';
import type { LocationRow } from '../locations/locations.repository.js';
import { requireLocation } from '../locations/locations.repository.js';
import { findPaymentAccount } from '../payment-accounts/payment-accounts.repository.js';
import type { Db } from '../platform/db/client.js';
import type { CancelReason } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { toUtcIso } from '../platform/time/zone.js';
import {
  holdUnits,
  occupancySpan,
  releaseUnitsIfEmpty,
  replaceUnits,
} from '../resources/resource-occupancies.repository.js';
import { liveResources } from '../resources/resources.repository.js';
import type { OfferedService } from '../slots/slots.repository.js';
import { finalStatusId, findStatus, isFinal } from '../statuses/statuses.repository.js';
import { type BookingEventType, recordBookingEvents } from './booking-events.service.js';
import { appendHistory, type HistoryAction } from './booking-history.repository.js';
import { combinedService, needsStaffer, occupiedSpan } from './booking-shape.rules.js';
import { presentBooking } from './bookings.presenter.js';
import {
  type BookingRow,
  type BookingView,
  deleteOrderLines,
  findBookingServices,
  insertOrderLines,
  insertPayment,
  insertPublicNote,
  listPublicNotes as listPublicNoteRows,
  lockBooking,
  type PublicNoteRow,
  requireBookingView,
  updateBooking,
} from './bookings.repository.js';
import { parseReschedule } from './bookings.rules.js';
import {
  availabilityFor,
  type BookingContext,
  bookableOrRefused,
  requireOfferedServices,
  unitsToTry,
} from './bookings.service.js';
import { releaseSeat, takeSeat } from './occupancies.repository.js';

interface ChangeOutcome {
  action: HistoryAction;
  changes: Record<string, unknown>;
  events: BookingEventType[];
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
  apply: (tx: Tx, booking: BookingRow) => Promise<ChangeOutcome | typeof UNCHANGED>,
): Promise<BookingView> {
  const { workspace } = ctx;
  return ctx.uow.run(workspace.id, async (tx) => {
    const booking = await lockBooking(tx, workspace.id, bookingId);
    const status = await findStatus(tx, workspace.id, booking.status_id);
    if (isFinal(status!.type)) throw bookingFinal();
    const outcome = await apply(tx, booking);
    if (outcome === UNCHANGED) return requireBookingView(tx, workspace.id, bookingId);
    await appendHistory(tx, { workspaceId: workspace.id, bookingId, ...outcome, actor: ctx.actor });
    const view = await requireBookingView(tx, workspace.id, bookingId);
    // Emails go with events (planned from the last one when it is dispatched): a change that
    // tells receivers nothing (a note) emails no one.
    await recordBookingEvents(tx, {
      workspaceId: workspace.id,
      workspaceSlug: workspace.slug,
      bookingId,
      types: outcome.events,
      booking: presentBooking(view, workspace, ctx.linkBase),
      at: new Date(ctx.now),
      change: outcome.action,
    });
    return view;
  });
}

/** PUT /bookings/{uuid}/reschedule: same uuid, same staffer, a new start that must be free. */
export function rescheduleBooking(
  ctx: BookingContext,
  bookingId: string,
  reservedOn: string,
): Promise<BookingView> {
  const { start } = parseReschedule({ reserved_on: reservedOn });
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    if (start === booking.start_time.getTime()) return UNCHANGED;
    const location = await requireLocation(tx, booking.workspace_id, booking.location_id);
    const services = await findBookingServices(tx, booking.workspace_id, booking.id);
    await moveSeat(tx, ctx, booking, location, services, booking.staffer_id, start, true);
    return {
      action: 'rescheduled',
      // Instants as everywhere in the API: UTC, seconds, 'Z'.
      changes: { start_time: { from: toUtcIso(booking.start_time.getTime()), to: toUtcIso(start) } },
      events: ['booking-updated', 'booking-rescheduled'],
    };
  });
}

/**
 * The panel's "Move to…" (and the calendar's drag): a new start, and maybe another staffer. With
 * the staffer kept it is PUT /reschedule; with the time kept, PUT /staffer. Both at once is one
 * change — as two API calls it could fail halfway, the old staffer busy at the new time or the
 * new one at the old — recorded as a reschedule naming both, with a reschedule's events.
 */
export async function moveBooking(
  ctx: BookingContext,
  bookingId: string,
  reservedOn: string,
  stafferId: string | undefined,
): Promise<BookingView> {
  const { start } = parseReschedule({ reserved_on: reservedOn, staffer_uuid: stafferId });
  const current = await requireBookingView(ctx.db, ctx.workspace.id, bookingId);
  if (stafferId === undefined || stafferId === current.staffer_id)
    return rescheduleBooking(ctx, bookingId, reservedOn);
  if (start === new Date(current.start_time).getTime()) return changeStaffer(ctx, bookingId, stafferId);
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    const location = await requireLocation(tx, booking.workspace_id, booking.location_id);
    const services = await findBookingServices(tx, booking.workspace_id, booking.id);
    await moveSeat(tx, ctx, booking, location, services, stafferId, start, true);
    return {
      action: 'rescheduled',
      changes: {
        start_time: { from: toUtcIso(booking.start_time.getTime()), to: toUtcIso(start) },
        staffer_uuid: { from: booking.staffer_id, to: stafferId },
      },
      events: ['booking-updated', 'booking-rescheduled'],
    };
  });
}

/** PUT /bookings/{uuid}/staffer: another eligible staffer, free at the booking's time. */
export function changeStaffer(
  ctx: BookingContext,
  bookingId: string,
  stafferId: string,
): Promise<BookingView> {
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    if (stafferId === booking.staffer_id) return UNCHANGED;
    const location = await requireLocation(tx, booking.workspace_id, booking.location_id);
    const services = await findBookingServices(tx, booking.workspace_id, booking.id);
    await moveSeat(tx, ctx, booking, location, services, stafferId, booking.start_time.getTime(), false);
    return {
      action: 'staffer_changed',
      changes: { staffer_uuid: { from: booking.staffer_id, to: stafferId } },
      events: ['booking-updated'],
    };
  });
}

/**
 * PUT /bookings/{uuid}/resources: the units the booking's session holds, replaced by staff (the
 * panel's booking page, the API). Each must be a live unit of the booking's location; the
 * database refuses one another session holds then (409). A group class's units are the class's:
 * changing them for one booking changes them for every seat.
 */
export function changeResources(
  ctx: BookingContext,
  bookingId: string,
  resourceIds: string[],
): Promise<BookingView> {
  const wanted = [...new Set(resourceIds.map((id) => id.toLowerCase()))];
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    if (!booking.occupancy_id) throw invalidField('resource_uuids', 'The booking holds no time to change.');
    const units = new Map((await liveResources(tx, booking.workspace_id, wanted)).map((u) => [u.id, u]));
    const errors = new FieldErrorBag();
    resourceIds.forEach((id, index) => {
      if (units.get(id.toLowerCase())?.location_id !== booking.location_id)
        errors.add(
          `resource_uuids.${index}`,
          "The resource must be a live resource of the booking's location.",
          NOT_A_CHOICE,
        );
    });
    errors.throwIfAny();
    const current = await requireBookingView(tx, booking.workspace_id, booking.id);
    const before = current.resources;
    if (
      sameSet(
        before.map((u) => u.uuid),
        wanted,
      )
    )
      return UNCHANGED;
    const span = await occupancySpan(tx, booking.workspace_id, booking.occupancy_id);
    await replaceUnits(tx, {
      workspaceId: booking.workspace_id,
      occupancyId: booking.occupancy_id,
      span,
      resourceIds: wanted,
    });
    return {
      action: 'resources_changed',
      changes: {
        resource_uuids: { from: before.map((u) => u.uuid), to: wanted },
        resource_names: { from: before.map((u) => u.name), to: wanted.map((id) => units.get(id)!.name) },
      },
      events: ['booking-updated'],
    };
  });
}

/**
 * The panel calendar's drop of a block on a resource column (docs/resources.md): the booking
 * then holds `toUnit` where it held `fromUnit` (its other units stay), at `reservedOn` when the
 * drop also moved it in time. The time is `moveBooking`'s reschedule, which picks the session's
 * units again as any reschedule does; the units are then set by `changeResources`, the service
 * of the booking page's "Change resources", so the booking ends in the column it was dropped in.
 * One transaction: a unit taken at the new time undoes the new time too (409, nothing changed).
 */
export function moveToUnit(
  ctx: BookingContext,
  bookingId: string,
  move: { fromUnit: string; toUnit: string; reservedOn?: string | undefined },
): Promise<BookingView> {
  return ctx.uow.runJoined(ctx.workspace.id, async (_tx, uow) => {
    const inner: BookingContext = { ...ctx, db: uow.db, uow };
    const before = await requireBookingView(uow.db, ctx.workspace.id, bookingId);
    const from = move.fromUnit.toLowerCase();
    const to = move.toUnit.toLowerCase();
    // Another workspace's unit is unknown here, as its booking is.
    if ((await liveResources(uow.db, ctx.workspace.id, [to])).length === 0) throw notFound('Resource');
    const held = before.resources.map((unit) => unit.uuid);
    if (!held.includes(from)) {
      throw new AppError(
        409,
        'resources_changed',
        'The booking no longer holds that resource: reload the calendar and try again.',
      );
    }
    if (move.reservedOn !== undefined) await moveBooking(inner, bookingId, move.reservedOn, undefined);
    return changeResources(inner, bookingId, [...new Set(held.map((id) => (id === from ? to : id)))]);
  });
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

/** PUT /bookings/{uuid}/services: order lines rebuilt, duration = their sum, the span must be free. */
export function changeServices(
  ctx: BookingContext,
  bookingId: string,
  serviceIds: string[],
): Promise<BookingView> {
  if (serviceIds.length === 0)
    throw invalidField('service_uuids', 'The service_uuids field must list at least one service.', REQUIRED);
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    const location = await requireLocation(tx, booking.workspace_id, booking.location_id);
    const before = await findBookingServices(tx, booking.workspace_id, booking.id);
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
    await deleteOrderLines(tx, booking.workspace_id, booking.id);
    await insertOrderLines(tx, booking.workspace_id, booking.id, services);
    return {
      action: 'services_changed',
      changes: { service_uuids: { from: before.map((s) => s.id), to: serviceIds } },
      events: ['booking-updated'],
    };
  });
}

/** PUT /bookings/{uuid}/status: a live, non-final status of the workspace. */
export function setStatus(ctx: BookingContext, bookingId: string, statusId: string): Promise<BookingView> {
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    const status = await findStatus(tx, booking.workspace_id, statusId, { live: true });
    if (!status) throw invalidField('status_uuid', 'The selected status is invalid.', NOT_A_CHOICE);
    if (isFinal(status.type)) {
      throw invalidField(
        'status_uuid',
        'A final status is set only by PUT /bookings/{uuid}/status/complete or /status/cancel.',
        NOT_A_CHOICE,
      );
    }
    if (status.id === booking.status_id) return UNCHANGED;
    await updateBooking(tx, booking.workspace_id, booking.id, { status_id: status.id });
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
): Promise<BookingView> {
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    const account = await findPaymentAccount(
      tx,
      booking.workspace_id,
      booking.location_id,
      input.account_uuid,
    );
    if (!account)
      throw invalidField(
        'account_uuid',
        "The account_uuid must be a payment account of the booking's location.",
        NOT_A_CHOICE,
      );
    const paymentId = await insertPayment(tx, {
      workspaceId: booking.workspace_id,
      bookingId: booking.id,
      paymentAccountId: account.id,
      amount: input.paid_amount,
    });
    await updateBooking(tx, booking.workspace_id, booking.id, {
      status_id: await finalStatusId(tx, booking.workspace_id, 'completed'),
      completed: true,
    });
    return {
      action: 'completed',
      changes: { payment: { uuid: paymentId, account_uuid: account.id, amount: input.paid_amount } },
      events: ['booking-succeeded'],
    };
  });
}

/** PUT /bookings/{uuid}/status/cancel: the seat is released in the same transaction. */
export function cancelBooking(
  ctx: BookingContext,
  bookingId: string,
  cancelReason: CancelReason | undefined,
): Promise<BookingView> {
  return changeBooking(ctx, bookingId, async (tx, booking) => {
    if (booking.occupancy_id) {
      await releaseSeat(tx, booking.workspace_id, booking.occupancy_id, booking.quantity);
      await releaseUnitsIfEmpty(tx, booking.workspace_id, booking.occupancy_id);
    }
    await updateBooking(tx, booking.workspace_id, booking.id, {
      status_id: await finalStatusId(tx, booking.workspace_id, 'canceled'),
      cancel_reason: cancelReason ?? null,
      canceled: true,
    });
    return {
      action: 'canceled',
      changes: { cancel_reason: cancelReason ?? null },
      events: ['booking-canceled'],
    };
  });
}

/** POST /bookings/{uuid}/public_notes: no event (a note sends no webhook), but history and updated_at. */
export async function addPublicNote(
  ctx: BookingContext,
  bookingId: string,
  value: string,
): Promise<{ note: PublicNoteRow; booking: BookingView }> {
  const text = value.trim();
  if (text === '') throw invalidField('value', 'The value field is required.', REQUIRED);
  let note: PublicNoteRow | undefined;
  const booking = await changeBooking(ctx, bookingId, async (tx, row) => {
    note = await insertPublicNote(tx, row.workspace_id, row.id, text);
    await updateBooking(tx, row.workspace_id, row.id, {});
    return { action: 'note_added', changes: { note_uuid: note.id }, events: [] };
  });
  return { note: note!, booking };
}

export async function listPublicNotes(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<PublicNoteRow[]> {
  const notes = await listPublicNoteRows(db, workspaceId, bookingId);
  if (!notes) throw notFound('Booking');
  return notes;
}

/**
 * Moves the booking's seat: to a new start (reschedule), staffer, or shape (services). The
 * booking's own seat does not count against it. A new start must be a bookable slot start; a
 * change that keeps the time only needs the staffer to be free then.
 */
async function moveSeat(
  tx: Tx,
  ctx: BookingContext,
  booking: BookingRow,
  location: LocationRow,
  services: OfferedService[],
  stafferId: string | null,
  start: number,
  newTime: boolean,
  newServices = false,
): Promise<void> {
  const service = combinedService(services);
  // A rental (docs/resources.md "Rentals") has no staffer to choose; a booking whose services
  // became rentals leaves its staffer, and one without a staffer cannot take services needing one.
  const rental = !needsStaffer(services);
  if (rental && stafferId !== null && stafferId !== booking.staffer_id)
    throw invalidField(
      'staffer_uuid',
      'The booking is a rental (its services need no staffer): it has no staffer to change.',
      ruleIssue('rental_has_no_staffer'),
    );
  const who = rental ? null : stafferId;
  if (who === null && !rental)
    throw invalidField(
      newServices ? 'service_uuids' : 'staffer_uuid',
      'The booking has no staffer, and its services need one: book them anew with a staffer.',
      ruleIssue('rental_services_need_staffer'),
    );
  const own = booking.occupancy_id ? { id: booking.occupancy_id, seats: booking.quantity } : undefined;
  const availability = await availabilityFor(
    tx,
    ctx,
    location,
    services,
    service,
    start,
    who ?? undefined,
    own,
  );
  if (!rental && availability.staffers.length === 0) {
    // Name what the request changed: on PUT /services the staffer stayed, the services are new.
    throw invalidField(
      newServices ? 'service_uuids' : 'staffer_uuid',
      "The staffer does not provide the booking's services at this location.",
      ruleIssue('staffer_not_offering'),
    );
  }
  const verdict = bookableOrRefused(ctx, availability, start, who ?? undefined, { timeRules: newTime });
  if (booking.occupancy_id) {
    await releaseSeat(tx, booking.workspace_id, booking.occupancy_id, booking.quantity);
    await releaseUnitsIfEmpty(tx, booking.workspace_id, booking.occupancy_id);
  }
  const span = occupiedSpan(service, start);
  const occupancyId = await takeSeat(tx, {
    workspaceId: booking.workspace_id,
    stafferId: who,
    locationId: location.id,
    serviceId: service.id,
    capacity: service.capacity,
    seats: booking.quantity,
    ...span,
  });
  await holdUnits(tx, {
    workspaceId: booking.workspace_id,
    occupancyId,
    spanStart: span.spanStart,
    spanEnd: span.spanEnd,
    needs: unitsToTry(availability, verdict),
  });
  await updateBooking(tx, booking.workspace_id, booking.id, {
    staffer_id: who,
    start_time: span.serviceStart,
    end_time: span.end,
    occupancy_id: occupancyId,
  });
}
