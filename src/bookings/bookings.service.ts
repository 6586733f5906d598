import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { upsertCustomer } from '../customers/customers.repository.js';
import {
  AppError,
  invalidField,
  NOT_A_CHOICE,
  REQUIRED,
  SlotBlockedOutside,
  slotUnavailable,
  validationFailed,
} from '../errors.js';
import { findLiveLocation, type LocationRow } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { toUtcIso } from '../platform/time/zone.js';
import { holdUnits, loadResourceNeeds } from '../resources/resource-occupancies.repository.js';
import { checkBookable } from '../slots/engine/compute-slots.js';
import type { AvailabilityInput, BookableResult, ServiceInput } from '../slots/engine/types.js';
import { loadOfferedServices, loadStafferInputs, type OfferedService } from '../slots/slots.repository.js';
import { rentalHours } from '../slots/slots.service.js';
import type { RequestContext } from '../workspaces/request-context.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { recordBookingEvents } from './booking-events.service.js';
import { appendHistory } from './booking-history.repository.js';
import { combinedService, needsStaffer, occupiedSpan, requirementsOf } from './booking-shape.rules.js';
import { presentBooking } from './bookings.presenter.js';
import {
  anyNeedsStaffer,
  type BookingView,
  insertBooking,
  insertOrderLines,
  liveBookingCounts,
  requireBookingView,
} from './bookings.repository.js';
import { type CreateBookingInput, checkCreateBookingInput, isBlank } from './bookings.rules.js';
import { takeSeat } from './occupancies.repository.js';

/** The request's context (who asks, in which workspace, at what time), writing through which unit of work. */
export interface BookingContext extends RequestContext {
  /** For reads outside a write. */
  db: Db;
  uow: UnitOfWork;
  /**
   * 'overridden': the staffer's own calendar does not block this create or change (the panel's
   * "Book anyway" after a warning). Other bookings still do: the seat is taken as always.
   */
  outsideBusy?: 'overridden';
}

/** The context of a panel create or change that books over the staffer's own calendar. */
export function overridingOutsideBusy(ctx: BookingContext): BookingContext {
  return { ...ctx, outsideBusy: 'overridden' };
}

const withoutOutsideBusy = (input: AvailabilityInput): AvailabilityInput => ({
  ...input,
  staffers: input.staffers.map((s) => (s.busy ? { ...s, busy: undefined } : s)),
});

/**
 * checkBookable for a create or change: the verdict when the time may be booked, else the
 * refusal. A time refused only because of the staffer's own calendar is SlotBlockedOutside (the
 * same 409 to the API); with the override, that calendar is left out of the question.
 */
export function bookableOrRefused(
  ctx: BookingContext,
  availability: AvailabilityInput,
  start: number,
  stafferId: string | undefined,
  options: { timeRules?: boolean } = {},
): Extract<BookableResult, { ok: true }> {
  const input = ctx.outsideBusy === 'overridden' ? withoutOutsideBusy(availability) : availability;
  const verdict = checkBookable(input, start, stafferId, options);
  if (verdict.ok) return verdict;
  if (verdict.reason === 'no_free_staffer' && input.staffers.some((s) => s.busy && s.busy.length > 0)) {
    if (checkBookable(withoutOutsideBusy(input), start, stafferId, options).ok)
      throw new SlotBlockedOutside();
  }
  throw unavailable(verdict);
}

export type { CreateBookingInput } from './bookings.rules.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a new booking's services need a staffer, for the input checks made before the create
 * (`parseCreateBooking`'s `stafferNeeded`): false only when every service named is a rental
 * (docs/resources.md "Rentals"). Unknown or malformed ids count as needing one; the create
 * names them.
 */
export async function stafferNeededFor(
  db: Db,
  workspace: WorkspaceRow,
  input: CreateBookingInput,
): Promise<boolean> {
  // Only a required staffer left out depends on it: nothing is read otherwise.
  if (workspace.staffer_selection !== 'required' || !isBlank(input.staffer_uuid)) return true;
  const ids = (input.service_uuids ?? [input.service_uuid]).filter(
    (id): id is string => typeof id === 'string' && UUID.test(id),
  );
  return anyNeedsStaffer(db, workspace.id, ids);
}

/**
 * POST /bookings (rules in bookings.rules.ts): validate, then decide and write in one transaction.
 * `seriesId` links the booking to its series (src/series/): an occurrence is made here like any
 * other booking, with the same checks, seat and events.
 */
export async function createBooking(
  ctx: BookingContext,
  input: CreateBookingInput,
  options: { seriesId?: string } = {},
): Promise<BookingView> {
  const { workspace } = ctx;
  // Whether a staffer is required is known once the services are read (a rental needs none).
  const { errors, start, phone, stafferId } = checkCreateBookingInput(workspace, input, {
    stafferNeeded: false,
  });
  if (Object.keys(errors).length > 0) throw validationFailed(errors);

  return ctx.uow.run(workspace.id, async (tx) => {
    const location = await findLiveLocation(tx, workspace.id, input.location_uuid!);
    if (!location) throw invalidField('location_uuid', 'The selected location is invalid.', NOT_A_CHOICE);
    const services = await requireOfferedServices(
      tx,
      workspace.id,
      location.id,
      input.service_uuids ?? [input.service_uuid!],
      'service_uuid',
    );
    const service = combinedService(services);
    const rental = !needsStaffer(services);
    if (rental && stafferId !== undefined)
      throw invalidField('staffer_uuid', 'The selected service needs no staffer.', NOT_A_CHOICE);
    if (!rental && stafferId === undefined && workspace.staffer_selection === 'required')
      throw invalidField('staffer_uuid', 'The staffer_uuid field is required.', REQUIRED);
    const availability = await availabilityFor(tx, ctx, location, services, service, start!, stafferId);
    if (stafferId !== undefined && availability.staffers.length === 0) {
      throw invalidField(
        'staffer_uuid',
        'The selected staffer does not provide this service at this location.',
      );
    }
    const verdict = bookableOrRefused(ctx, availability, start!, stafferId);
    // A rental's one candidate is "no staffer": its session is its own, its units decide.
    const candidates: (string | null)[] = rental
      ? [null]
      : stafferId !== undefined
        ? [stafferId]
        : await leastBookedFirst(tx, workspace.id, verdict.staffers, start!, location);

    const span = occupiedSpan(service, start!);
    let assigned: { stafferId: string | null; occupancyId: string } | undefined;
    for (const candidate of candidates) {
      try {
        const occupancyId = await takeSeat(tx, {
          workspaceId: workspace.id,
          stafferId: candidate,
          locationId: location.id,
          serviceId: service.id,
          capacity: service.capacity,
          seats: 1,
          ...span,
          // Only automatic assignment tries a next staffer after a refusal.
          retryable: candidates.length > 1,
        });
        assigned = { stafferId: candidate, occupancyId };
        break;
      } catch (error) {
        // Another request took this staffer a moment ago; automatic assignment tries the next.
        if (error instanceof AppError && error.code === 'slot_unavailable' && candidate !== candidates.at(-1))
          continue;
        throw error;
      }
    }
    if (!assigned) throw slotUnavailable();
    await holdUnits(tx, {
      workspaceId: workspace.id,
      occupancyId: assigned.occupancyId,
      spanStart: span.spanStart,
      spanEnd: span.spanEnd,
      needs: unitsToTry(availability, verdict),
    });

    const bookingId = randomUUID();
    const customerId = await upsertCustomer(tx, workspace.id, {
      phone: phone!,
      first_name: input.customer_first_name?.trim(),
      last_name: input.customer_last_name?.trim(),
      email: input.customer_email?.trim(),
    });
    await insertBooking(tx, {
      id: bookingId,
      workspaceId: workspace.id,
      locationId: location.id,
      stafferId: assigned.stafferId,
      customerId,
      occupancyId: assigned.occupancyId,
      start: span.serviceStart,
      end: span.end,
      bookingComment: input.booking_comment?.trim() ?? '',
      bookingCallback: input.booking_callback ?? null,
      source: isBlank(input.source) ? 'api' : input.source!.trim(),
      language: input.language ?? null,
      textConsent: input.text_consent ?? null,
      ref: input.ref ?? null,
      createdByKeyId: ctx.actor.type === 'api_key' ? ctx.actor.id : null,
      seriesId: options.seriesId ?? null,
      // The one event below takes sequence 1.
      eventSequence: 1,
    });
    await insertOrderLines(tx, workspace.id, bookingId, services);
    await appendHistory(tx, {
      workspaceId: workspace.id,
      bookingId,
      action: 'created',
      changes: {
        start_time: toUtcIso(start!),
        staffer_uuid: assigned.stafferId,
        service_uuids: services.map((s) => s.id),
      },
      actor: ctx.actor,
    });
    const view = await requireBookingView(tx, workspace.id, bookingId);
    await recordBookingEvents(tx, {
      workspaceId: workspace.id,
      workspaceSlug: workspace.slug,
      bookingId,
      types: ['booking-created'],
      booking: presentBooking(view, workspace, ctx.linkBase),
      at: new Date(ctx.now),
      firstSequence: 1,
      // Its emails (confirmation, reminders, staff) are planned from this event when it is
      // dispatched (docs/decisions/0011-emails-from-the-outbox.md): the create writes no more.
      change: 'created',
    });
    return view;
  });
}

/** The engine's input for these services at this location around `start`. */
export async function availabilityFor(
  db: Db,
  ctx: Pick<RequestContext, 'workspace' | 'now'>,
  location: LocationRow,
  services: OfferedService[],
  service: ServiceInput,
  start: number,
  stafferId: string | undefined,
  excludeOccupancy?: { id: string; seats: number },
): Promise<AvailabilityInput> {
  const rental = !needsStaffer(services);
  // A rental reads no staffer: its hours are the location's (docs/resources.md "Rentals").
  const staffers = rental
    ? []
    : await loadStafferInputs(db, {
        workspaceId: ctx.workspace.id,
        locationId: location.id,
        serviceIds: services.map((s) => s.id),
        stafferId,
        from: start,
        to: start + service.durationMinutes * 60_000,
        excludeOccupancy,
      });
  const resources = await loadResourceNeeds(db, {
    workspaceId: ctx.workspace.id,
    locationId: location.id,
    requirements: requirementsOf(services),
    capacity: service.capacity,
    from: start,
    to: start + service.durationMinutes * 60_000,
    excludeOccupancyId: excludeOccupancy?.id,
  });
  return {
    ...(resources.length > 0 ? { resources } : {}),
    locationZone: location.timezone,
    service,
    rules: {
      slotStepMinutes: ctx.workspace.slot_step_minutes,
      minNoticeMinutes: ctx.workspace.min_notice_minutes,
      horizonDays: ctx.workspace.horizon_days,
    },
    staffers,
    ...(rental ? { rental: rentalHours(location) } : {}),
    now: ctx.now,
  };
}

/**
 * Per resource need, the units to try holding (docs/resources.md): those the engine saw free at
 * the start, in pool order. The database has the last word: a unit a concurrent create took
 * meanwhile is refused there, and holdUnits tries the next.
 */
export function unitsToTry(
  availability: AvailabilityInput,
  verdict: Extract<BookableResult, { ok: true }>,
): { units: number; candidates: string[] }[] {
  return (availability.resources ?? []).map((need, index) => ({
    units: need.units,
    candidates: verdict.units?.[index] ?? [],
  }));
}

export function unavailable(verdict: Extract<BookableResult, { ok: false }>): AppError {
  return slotUnavailable(verdict.reason === 'no_free_staffer' ? 'taken' : verdict.reason);
}

/** Live services offered at the location, in the order asked; 422 naming `field.N` otherwise. */
export async function requireOfferedServices(
  db: Db,
  workspaceId: string,
  locationId: string,
  serviceIds: string[],
  field: string,
): Promise<OfferedService[]> {
  const offered = await loadOfferedServices(db, workspaceId, locationId, serviceIds);
  return serviceIds.map((id, index) => {
    const service = offered.get(id);
    if (!service) {
      throw invalidField(
        serviceIds.length === 1 && field === 'service_uuid' ? field : `${field}.${index}`,
        'The selected service is not offered at this location.',
      );
    }
    return service;
  });
}

/**
 * Automatic assignment: free staffers ordered by how many live bookings they have that local
 * day, fewest first; ties keep the engine's stable order (staffer creation order).
 */
async function leastBookedFirst(
  db: Db,
  workspaceId: string,
  free: { stafferId: string }[],
  start: number,
  location: LocationRow,
): Promise<string[]> {
  const day = DateTime.fromMillis(start, { zone: location.timezone }).startOf('day');
  const load = await liveBookingCounts(
    db,
    workspaceId,
    free.map((f) => f.stafferId),
    day.toJSDate(),
    day.plus({ days: 1 }).toJSDate(),
  );
  return free
    .map((f, index) => ({ id: f.stafferId, index, load: load.get(f.stafferId) ?? 0 }))
    .sort((a, b) => a.load - b.load || a.index - b.index)
    .map((f) => f.id);
}
