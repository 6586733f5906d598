import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import { upsertCustomer } from '../customers/customers.repository.js';
import { normalizePhone } from '../customers/phone.js';
import type { Db } from '../db/client.js';
import type { BookingFormField } from '../db/schema.js';
import { AppError, FieldErrorBag, invalidField, slotUnavailable } from '../errors.js';
import { findLiveLocation, type LocationRow } from '../locations/locations.repository.js';
import { checkBookable } from '../slots/compute-slots.js';
import type { OfferedService } from '../slots/slots.repository.js';
import { loadStafferInputs } from '../slots/slots.repository.js';
import type { AvailabilityInput, BookableResult, ServiceInput } from '../slots/types.js';
import { parseInstant } from '../time/instant.js';
import { toUtcIso } from '../time/zone.js';
import { recordBookingEvents } from '../webhooks/outbox.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { combinedService, occupiedSpan, requireOfferedServices } from './booking-shape.js';
import { type BookingJson, presentBooking } from './bookings.presenter.js';
import { requireBookingView } from './bookings.repository.js';
import { type Actor, historyValues } from './history.js';
import { takeSeat } from './occupancy.js';

/** Who asks, in which workspace, at what time (the injected clock). */
export interface BookingContext {
  db: Db;
  workspace: WorkspaceRow;
  actor: Actor;
  now: number;
}

export interface CreateBookingInput {
  reserved_on?: string | undefined;
  location_uuid?: string | undefined;
  service_uuid?: string | undefined;
  staffer_uuid?: string | null | undefined;
  customer_phone?: string | undefined;
  customer_first_name?: string | undefined;
  customer_last_name?: string | undefined;
  customer_email?: string | undefined;
  booking_comment?: string | undefined;
  booking_callback?: boolean | null | undefined;
  source?: string | undefined;
}

const FORM_FIELDS: BookingFormField[] = [
  'customer_first_name',
  'customer_last_name',
  'customer_email',
  'booking_comment',
  'booking_callback',
];
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** POST /bookings (SPEC "Bookings"; issue rules): validate, then decide and write in one transaction. */
export async function createBooking(ctx: BookingContext, input: CreateBookingInput): Promise<BookingJson> {
  const { workspace } = ctx;
  const errors = new FieldErrorBag();
  for (const field of ['reserved_on', 'location_uuid', 'service_uuid', 'customer_phone'] as const) {
    if (isBlank(input[field])) errors.add(field, `The ${field} field is required.`);
  }
  const start = isBlank(input.reserved_on) ? undefined : parseInstant(input.reserved_on!);
  if (!isBlank(input.reserved_on) && start === undefined) {
    errors.add(
      'reserved_on',
      'The reserved_on field must be an ISO 8601 date-time such as 2026-09-10T12:00:00Z.',
    );
  }
  const phone = isBlank(input.customer_phone) ? undefined : normalizePhone(input.customer_phone!);
  if (!isBlank(input.customer_phone) && phone === undefined) {
    errors.add(
      'customer_phone',
      'The customer_phone field must be a valid phone number in international format, e.g. +4915112345678.',
    );
  }
  for (const field of FORM_FIELDS) {
    const value = input[field];
    const present =
      field === 'booking_callback' ? typeof value === 'boolean' : !isBlank(value as string | undefined);
    if (workspace.booking_form[field] === 'required' && !present)
      errors.add(field, `The ${field} field is required.`);
  }
  if (!isBlank(input.customer_email) && !EMAIL_PATTERN.test(input.customer_email!.trim())) {
    errors.add('customer_email', 'The customer_email field must be a valid email address.');
  }
  const stafferId = isBlank(input.staffer_uuid ?? undefined) ? undefined : input.staffer_uuid!;
  if (stafferId === undefined && workspace.staffer_selection === 'required') {
    errors.add('staffer_uuid', 'The staffer_uuid field is required.');
  }
  errors.throwIfAny();

  return ctx.db.transaction().execute(async (tx) => {
    const location = await findLiveLocation(tx, workspace.id, input.location_uuid!);
    if (!location) throw invalidField('location_uuid', 'The selected location is invalid.');
    const services = await requireOfferedServices(
      tx,
      workspace.id,
      location.id,
      [input.service_uuid!],
      'service_uuid',
    );
    const service = combinedService(services);
    const availability = await availabilityFor(tx, ctx, location, services, service, start!, stafferId);
    if (stafferId !== undefined && availability.staffers.length === 0) {
      throw invalidField(
        'staffer_uuid',
        'The selected staffer does not provide this service at this location.',
      );
    }
    const verdict = checkBookable(availability, start!, stafferId);
    if (!verdict.ok) throw unavailable(verdict);
    const candidates =
      stafferId !== undefined
        ? [stafferId]
        : await leastBookedFirst(tx, workspace.id, verdict.staffers, start!, location);

    const span = occupiedSpan(service, start!);
    let assigned: { stafferId: string; occupancyId: string } | undefined;
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

    // One statement for the customer, the booking, its order lines and its history entry: each
    // round trip to the database costs both processes CPU, and creates are the hot write path.
    const bookingId = randomUUID();
    await tx
      .with('customer', (db) =>
        upsertCustomer(db, workspace.id, {
          phone: phone!,
          first_name: input.customer_first_name?.trim(),
          last_name: input.customer_last_name?.trim(),
          email: input.customer_email?.trim(),
        }).returning('id'),
      )
      .with('booking', (db) =>
        db
          .insertInto('bookings')
          .values({
            id: bookingId,
            workspace_id: workspace.id,
            location_id: location.id,
            staffer_id: assigned.stafferId,
            customer_id: sql<string>`(SELECT id FROM customer)`,
            status_id: sql<string>`(SELECT id FROM booking_statuses WHERE workspace_id = ${workspace.id} AND is_default)`,
            occupancy_id: assigned.occupancyId,
            start_time: span.serviceStart,
            end_time: span.end,
            booking_comment: input.booking_comment?.trim() ?? '',
            booking_callback: input.booking_callback ?? null,
            source: isBlank(input.source) ? 'api' : input.source!.trim(),
            created_by_key_id: ctx.actor.type === 'api_key' ? ctx.actor.id : null,
            // The one event below takes sequence 1.
            event_sequence: 1,
          })
          .returning('id'),
      )
      .with('lines', (db) =>
        db
          .insertInto('booking_services')
          .values(orderLineValues(workspace.id, bookingId, services))
          .returning('id'),
      )
      .insertInto('booking_history')
      .values(
        historyValues({
          workspaceId: workspace.id,
          bookingId,
          action: 'created',
          changes: {
            start_time: toUtcIso(start!),
            staffer_uuid: assigned.stafferId,
            service_uuids: [service.id],
          },
          actor: ctx.actor,
        }),
      )
      .execute();
    const json = presentBooking(await requireBookingView(tx, workspace.id, bookingId), workspace);
    await recordBookingEvents(tx, {
      workspaceId: workspace.id,
      workspaceSlug: workspace.slug,
      bookingId,
      types: ['booking-created'],
      booking: json,
      at: new Date(ctx.now),
      firstSequence: 1,
    });
    return json;
  });
}

/** The engine's input for these services at this location around `start`. */
export async function availabilityFor(
  tx: Db,
  ctx: BookingContext,
  location: LocationRow,
  services: OfferedService[],
  service: ServiceInput,
  start: number,
  stafferId: string | undefined,
  excludeOccupancy?: { id: string; seats: number },
): Promise<AvailabilityInput> {
  const staffers = await loadStafferInputs(tx, {
    workspaceId: ctx.workspace.id,
    locationId: location.id,
    serviceIds: services.map((s) => s.id),
    stafferId,
    from: start,
    to: start + service.durationMinutes * 60_000,
    excludeOccupancy,
  });
  return {
    locationZone: location.timezone,
    service,
    rules: {
      slotStepMinutes: ctx.workspace.slot_step_minutes,
      minNoticeMinutes: ctx.workspace.min_notice_minutes,
      horizonDays: ctx.workspace.horizon_days,
    },
    staffers,
    now: ctx.now,
    currency: ctx.workspace.currency,
    locale: ctx.workspace.locale,
  };
}

export function unavailable(verdict: Extract<BookableResult, { ok: false }>): AppError {
  const messages = {
    not_on_grid: 'The requested time is not a bookable slot start.',
    too_soon: 'The requested time is too soon: bookings need more notice.',
    beyond_horizon: 'The requested time is beyond the booking horizon.',
    no_free_staffer: 'The requested time is not available.',
  } as const;
  return slotUnavailable(messages[verdict.reason]);
}

/** The order lines of these services at their current prices. */
export function orderLineValues(workspaceId: string, bookingId: string, services: OfferedService[]) {
  return services.map((service, position) => ({
    workspace_id: workspaceId,
    booking_id: bookingId,
    service_id: service.id,
    name: service.name,
    price: service.price,
    original_price: service.price,
    duration_minutes: service.duration_minutes,
    position,
  }));
}

export async function insertOrderLines(
  tx: Db,
  workspaceId: string,
  bookingId: string,
  services: OfferedService[],
) {
  await tx
    .insertInto('booking_services')
    .values(orderLineValues(workspaceId, bookingId, services))
    .execute();
}

/**
 * Automatic assignment: free staffers ordered by how many live bookings they have that local
 * day, fewest first; ties keep the engine's stable order (staffer creation order).
 */
async function leastBookedFirst(
  tx: Db,
  workspaceId: string,
  free: { stafferId: string }[],
  start: number,
  location: LocationRow,
): Promise<string[]> {
  const day = DateTime.fromMillis(start, { zone: location.timezone }).startOf('day');
  const rows = await tx
    .selectFrom('bookings as b')
    .innerJoin('booking_statuses as s', (j) =>
      j.onRef('s.workspace_id', '=', 'b.workspace_id').onRef('s.id', '=', 'b.status_id'),
    )
    .select(['b.staffer_id', sql<number>`count(*)::int`.as('n')])
    .where('b.workspace_id', '=', workspaceId)
    .where(
      'b.staffer_id',
      'in',
      free.map((f) => f.stafferId),
    )
    .where('s.type', '!=', 'canceled')
    .where('b.start_time', '>=', day.toJSDate())
    .where('b.start_time', '<', day.plus({ days: 1 }).toJSDate())
    .groupBy('b.staffer_id')
    .execute();
  const load = new Map(rows.map((row) => [row.staffer_id, row.n]));
  return free
    .map((f, index) => ({ id: f.stafferId, index, load: load.get(f.stafferId) ?? 0 }))
    .sort((a, b) => a.load - b.load || a.index - b.index)
    .map((f) => f.id);
}

function isBlank(value: string | undefined): boolean {
  return value === undefined || value === null || value.trim() === '';
}
