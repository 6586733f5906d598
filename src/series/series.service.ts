/**
 * Recurring bookings (docs/series.md). A series is made of normal bookings: each occurrence goes
 * through createBooking (its parser, its checks, its seat under the exclusion constraint, its
 * history and events), linked by bookings.series_id; a change of a scope of them goes through the
 * booking changes one occurrence at a time. All of one create or change is one unit of work: each
 * occurrence in a savepoint of its own, so a refused one leaves the others; "all or nothing" then
 * rolls every one back and answers each occurrence's verdict.
 */

import {
  cancelBooking,
  changeServices,
  changeStaffer,
  moveBooking,
} from '../bookings/booking-changes.service.js';
import { freeTimesOfServices, nearestSlots } from '../bookings/booking-free-times.service.js';
import { findBookingServices } from '../bookings/bookings.repository.js';
import { type CreateBookingInput, checkCreateBookingInput } from '../bookings/bookings.rules.js';
import { type BookingContext, createBooking } from '../bookings/bookings.service.js';
import { upsertCustomer } from '../customers/customers.repository.js';
import { AppError, type FieldErrors, SlotUnavailable, validationFailed } from '../errors.js';
import { findLiveLocation } from '../locations/locations.repository.js';
import type { EventTypeOf } from '../outbox/event-types.js';
import { recordEvents } from '../outbox/outbox.repository.js';
import type { Db } from '../platform/db/client.js';
import { withSavepoint } from '../platform/db/savepoint.js';
import type { CancelReason } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { localDateOf, resolveWallBoundary, toUtcIso, wallMinutesOf } from '../platform/time/zone.js';
import { isFinal } from '../statuses/statuses.repository.js';
import { expandRecurrence } from './recurrence.rules.js';
import { type OccurrenceResult, presentSeries, type SeriesJsonValue } from './series.presenter.js';
import {
  bumpSeries,
  insertSeries,
  listOccurrences,
  lockSeries,
  type OccurrenceRow,
  requireSeries,
  type SeriesView,
} from './series.repository.js';
import {
  checkRecurrence,
  occurrenceErrors,
  occurrencesInScope,
  type RecurrenceInput,
  type SeriesScope,
} from './series.rules.js';

export type CreateSeriesInput = CreateBookingInput & { recurrence?: RecurrenceInput | undefined };

export interface SeriesOutcome {
  series: SeriesJsonValue;
  results: OccurrenceResult[];
  timezone: string;
}

/**
 * A series create or change refused as a whole: nothing was written; `results` says for each
 * occurrence whether it was free, and for the conflicting ones why and the nearest free times.
 */
export class SeriesConflict extends AppError {
  constructor(
    readonly results: OccurrenceResult[],
    readonly timezone: string,
  ) {
    super(409, 'series_conflict', 'Some occurrences cannot be booked at their time; nothing was changed.');
  }
}

/** Thrown inside the series' savepoint to roll back every occurrence it made. */
class RollBack extends Error {}

/** The rule's checks that need no store: the booking's fields and the recurrence, one 422. */
export function parseCreateSeries(ctx: BookingContext, input: CreateSeriesInput) {
  const checked = checkCreateBookingInput(ctx.workspace, input);
  const recurrence = checkRecurrence(input.recurrence);
  const errors: FieldErrors = { ...checked.errors, ...recurrence.errors };
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  return { start: checked.start!, rule: recurrence.rule!, mode: recurrence.mode };
}

/** POST /series: every occurrence through the normal create, in one unit of work. */
export async function createSeries(ctx: BookingContext, input: CreateSeriesInput): Promise<SeriesOutcome> {
  const { workspace } = ctx;
  const { start, rule, mode } = parseCreateSeries(ctx, input);
  return ctx.uow.runJoined(workspace.id, async (tx, unit) => {
    const location = await findLiveLocation(tx, workspace.id, input.location_uuid!);
    if (!location) throw validationFailed({ location_uuid: ['The selected location is invalid.'] });
    const zone = location.timezone;
    const firstDate = localDateOf(start, zone);
    const minute = wallMinutesOf(start, zone);
    const occurrences = expandRecurrence({ firstDate, minuteOfDay: minute, zone, rule });
    const errors = occurrenceErrors(rule, firstDate, occurrences);
    if (Object.keys(errors).length > 0) throw validationFailed(errors);

    const octx: BookingContext = { ...ctx, db: unit.db, uow: unit };
    const shape = {
      zone,
      locationId: location.id,
      serviceIds: input.service_uuids ?? [input.service_uuid!],
      stafferId: input.staffer_uuid ?? undefined,
    };
    const seriesId = crypto.randomUUID();
    const results: OccurrenceResult[] = [];
    try {
      return await withSavepoint(tx, 'series_create', async () => {
        const customerId = await upsertCustomer(tx, workspace.id, {
          phone: customerPhone(ctx, input),
          first_name: input.customer_first_name?.trim(),
          last_name: input.customer_last_name?.trim(),
          email: input.customer_email?.trim(),
        });
        await insertSeries(tx, {
          workspace_id: workspace.id,
          id: seriesId,
          location_id: location.id,
          customer_id: customerId,
          frequency: rule.frequency,
          interval_count: rule.interval,
          weekdays: (rule.weekdays ?? []).join(','),
          first_date: firstDate,
          wall_minute: minute,
          until_date: rule.until ?? null,
          occurrence_count: rule.count ?? null,
          mode,
          event_sequence: 1,
          created_by_key_id: ctx.actor.type === 'api_key' ? ctx.actor.id : null,
        });
        for (const occurrence of occurrences) {
          results.push(
            await attempt(tx, occurrence.date, occurrence.start, async () =>
              createBooking(octx, { ...input, reserved_on: toUtcIso(occurrence.start) }, { seriesId }),
            ),
          );
        }
        const booked = results.filter((r) => r.result === 'booked').length;
        if (booked === 0 || (mode === 'all_or_nothing' && booked < results.length)) throw new RollBack();
        const series = await seriesJson(tx, workspace.id, seriesId);
        await recordSeriesEvent(tx, ctx, seriesId, 'series-created', 1, series);
        await withNearest(tx, ctx, results, shape, false);
        return { series, results, timezone: zone };
      });
    } catch (error) {
      if (!(error instanceof RollBack)) throw error;
      throw new SeriesConflict(await withNearest(tx, ctx, results, shape, true), zone);
    }
  });
}

/** GET /series/{uuid}. */
export async function readSeries(db: Db, workspaceId: string, seriesId: string): Promise<SeriesJsonValue> {
  await requireSeries(db, workspaceId, seriesId);
  return seriesJson(db, workspaceId, seriesId);
}

export interface ScopeInput {
  scope: SeriesScope;
  booking_uuid?: string | undefined;
}

/** Cancels the occurrences of `scope`; a series with no occurrence left booked is canceled. */
export async function cancelSeries(
  ctx: BookingContext,
  seriesId: string,
  input: ScopeInput & { cancel_reason?: CancelReason | null | undefined },
): Promise<SeriesOutcome> {
  return changeScope(
    ctx,
    seriesId,
    input,
    (occurrence) => new Date(occurrence.start_time).getTime(),
    async (octx, occurrence) => {
      await cancelBooking(octx, occurrence.id, input.cancel_reason ?? undefined);
    },
  );
}

/**
 * Moves the occurrences of `scope` to the wall time `time` on their own dates, and/or to another
 * staffer, and/or gives them other services; all of them or none (a conflict answers each
 * occurrence's verdict).
 */
export async function changeSeries(
  ctx: BookingContext,
  seriesId: string,
  input: ScopeInput & {
    time?: string | undefined;
    staffer_uuid?: string | undefined;
    service_uuids?: string[] | undefined;
  },
): Promise<SeriesOutcome> {
  if (input.time === undefined && input.staffer_uuid === undefined && input.service_uuids === undefined) {
    throw validationFailed({ time: ['Give a time, a staffer_uuid or service_uuids to change.'] });
  }
  const startOf = (occurrence: OccurrenceRow) => {
    const start = new Date(occurrence.start_time).getTime();
    if (input.time === undefined) return start;
    // The new wall time on the occurrence's own date: kept across DST like the series' own.
    const [hours, minutes] = input.time.split(':').map(Number) as [number, number];
    const date = localDateOf(start, occurrence.timezone);
    return resolveWallBoundary(occurrence.timezone, date, hours * 60 + minutes, 'start');
  };
  return changeScope(ctx, seriesId, input, startOf, async (octx, occurrence, start) => {
    if (input.time !== undefined) {
      await moveBooking(octx, occurrence.id, toUtcIso(start), input.staffer_uuid);
    } else if (input.staffer_uuid !== undefined) {
      await changeStaffer(octx, occurrence.id, input.staffer_uuid);
    }
    if (input.service_uuids !== undefined) await changeServices(octx, occurrence.id, input.service_uuids);
  });
}

/** The frame of a scoped change: lock the series, apply to each occurrence, record the series' event. */
async function changeScope(
  ctx: BookingContext,
  seriesId: string,
  input: ScopeInput,
  startOf: (occurrence: OccurrenceRow) => number,
  apply: (octx: BookingContext, occurrence: OccurrenceRow, start: number) => Promise<void>,
): Promise<SeriesOutcome> {
  const { workspace } = ctx;
  if (input.scope !== 'all' && input.booking_uuid === undefined) {
    throw validationFailed({ booking_uuid: ['The booking_uuid field is required unless the scope is all.'] });
  }
  return ctx.uow.runJoined(workspace.id, async (tx, unit) => {
    await lockSeries(tx, workspace.id, seriesId);
    const series = await requireSeries(tx, workspace.id, seriesId);
    const all = (await listOccurrences(tx, workspace.id, seriesId)).map((o) => ({
      ...o,
      final: isFinal(o.status_type),
    }));
    const targets = occurrencesInScope(all, input.scope, input.booking_uuid);
    if (!targets)
      throw validationFailed({ booking_uuid: ['The booking is not an occurrence of this series.'] });
    const octx: BookingContext = { ...ctx, db: unit.db, uow: unit };
    const results: OccurrenceResult[] = [];
    try {
      return await withSavepoint(tx, 'series_change', async () => {
        for (const occurrence of targets) {
          const start = startOf(occurrence);
          results.push(
            await attempt(tx, localDateOf(start, series.timezone), start, async () => {
              await apply(octx, occurrence, start);
              return { id: occurrence.id };
            }),
          );
        }
        if (results.some((r) => r.result === 'conflict')) throw new RollBack();
        const after = await listOccurrences(tx, workspace.id, seriesId);
        const canceled = after.every((o) => o.status_type === 'canceled');
        const row = await bumpSeries(tx, workspace.id, seriesId, new Date(ctx.now), { canceled });
        const json = presentSeries({ ...row, timezone: series.timezone }, after);
        await recordSeriesEvent(
          tx,
          ctx,
          seriesId,
          canceled ? 'series-canceled' : 'series-updated',
          row.event_sequence,
          json,
        );
        return { series: json, results, timezone: series.timezone };
      });
    } catch (error) {
      if (!(error instanceof RollBack)) throw error;
      throw await conflictForChange(tx, ctx, results, series, targets);
    }
  });
}

/**
 * One occurrence's write in a savepoint of its own: booked, or a conflict when the time cannot be
 * booked (the savepoint drops what it wrote). Any other refusal ends the whole request.
 */
async function attempt(
  tx: Tx,
  date: string,
  start: number,
  write: () => Promise<{ id: string }>,
): Promise<OccurrenceResult> {
  try {
    const view = await withSavepoint(tx, 'series_occurrence', write);
    return { date, start, result: 'booked', bookingId: view.id, reason: null, nearest: [] };
  } catch (error) {
    if (!(error instanceof SlotUnavailable)) throw error;
    return { date, start, result: 'conflict', bookingId: null, reason: error.reason, nearest: [] };
  }
}

/**
 * The nearest free times of each conflicting occurrence's date (the booking free-times service,
 * the slot engine's answer for this shape); with `dropBooked`, the booked ones become not_booked
 * (their writes were rolled back).
 */
async function withNearest(
  db: Db,
  ctx: BookingContext,
  results: OccurrenceResult[],
  shape: { zone: string; locationId: string; serviceIds: string[]; stafferId: string | undefined },
  dropBooked: boolean,
): Promise<OccurrenceResult[]> {
  for (const result of results) {
    if (result.result === 'booked') {
      if (dropBooked) {
        result.result = 'not_booked';
        result.bookingId = null;
      }
      continue;
    }
    const slots = await freeTimesOfServices(db, {
      workspace: ctx.workspace,
      location: { id: shape.locationId, timezone: shape.zone },
      serviceIds: shape.serviceIds,
      stafferId: shape.stafferId,
      date: result.date,
      now: ctx.now,
    });
    result.nearest = nearestSlots(slots, result.start).map((slot) => Date.parse(slot.start_time));
  }
  return results;
}

async function conflictForChange(
  db: Db,
  ctx: BookingContext,
  results: OccurrenceResult[],
  series: SeriesView,
  targets: OccurrenceRow[],
): Promise<SeriesConflict> {
  for (const [index, result] of results.entries()) {
    const occurrence = targets[index]!;
    result.bookingId = occurrence.id;
    if (result.result !== 'conflict') {
      result.result = 'not_booked';
      continue;
    }
    const services = await findBookingServices(db, ctx.workspace.id, occurrence.id);
    const slots = await freeTimesOfServices(db, {
      workspace: ctx.workspace,
      location: { id: series.location_id, timezone: series.timezone },
      serviceIds: services.map((s) => s.id),
      stafferId: occurrence.staffer_id ?? undefined,
      date: result.date,
      now: ctx.now,
    });
    result.nearest = nearestSlots(slots, result.start).map((slot) => Date.parse(slot.start_time));
  }
  return new SeriesConflict(results, series.timezone);
}

async function seriesJson(db: Db, workspaceId: string, seriesId: string): Promise<SeriesJsonValue> {
  const [series, occurrences] = await Promise.all([
    requireSeries(db, workspaceId, seriesId),
    listOccurrences(db, workspaceId, seriesId),
  ]);
  return presentSeries(series, occurrences);
}

async function recordSeriesEvent(
  tx: Tx,
  ctx: BookingContext,
  seriesId: string,
  type: EventTypeOf<'series'>,
  sequence: number,
  series: SeriesJsonValue,
): Promise<void> {
  await recordEvents(tx, {
    workspaceId: ctx.workspace.id,
    workspaceSlug: ctx.workspace.slug,
    at: new Date(ctx.now),
    subject: { kind: 'series', id: seriesId, data: series },
    events: [{ type, sequence }],
    // No handler acts once per change of a series: each occurrence's own events carry its emails.
    change: null,
  });
}

/** The customer's phone as the create reads it (checked already). */
function customerPhone(ctx: BookingContext, input: CreateBookingInput): string {
  return checkCreateBookingInput(ctx.workspace, input).phone!;
}
