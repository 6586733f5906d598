/**
 * The slot engine: a pure function of its input (no clock, env or database; `now` is given).
 * computeSlots lists bookable slots and free intervals per answer-zone date; checkBookable
 * decides one booking with the same per-staffer predicate (availability.ts).
 */

import {
  addDays,
  daysBetween,
  formatMinutes,
  offsetLabel,
  offsetMinutesAt,
  resolveWallBoundary,
  toUtcIso,
} from '../../platform/time/zone.js';
import {
  type EngineContext,
  freeSeatsAt,
  gridInstants,
  makeContext,
  newCursor,
  type PreparedStaffer,
  prepareStaffer,
  stafferWindow,
} from './availability.js';
import { freeIntervalsByDay, mergeFreeSpans } from './free-intervals.js';
import {
  freeUnitsAt,
  type PreparedNeed,
  prepareResources,
  sessionsAt,
  unitsShortSpans,
} from './resources.js';
import type { AvailabilityInput, BookableResult, Slot, SlotDay, SlotQuery } from './types.js';
import type { Span } from './working-spans.js';

export type * from './types.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

function prepareAll(input: AvailabilityInput, ctx: EngineContext, lower: number, upper: number) {
  const days = stafferWindow(ctx, lower, upper);
  return input.staffers.map((s) => prepareStaffer(s, ctx, days));
}

/**
 * A rental's opening hours as a staffer with nothing booked: the same working-span arithmetic
 * (wall times in the location's zone, overnight ranges, DST) and the same "the body lies inside
 * one span" predicate, so a rental's hours behave exactly as a staffer's would.
 */
function prepareOpening(
  rental: NonNullable<AvailabilityInput['rental']>,
  ctx: EngineContext,
  lower: number,
  upper: number,
) {
  const days = stafferWindow(ctx, lower, upper);
  return prepareStaffer({ stafferId: '', schedule: rental.openingHours, occupancies: [] }, ctx, days);
}

/**
 * What a service's availability is over the instants [lower, upper], before any answer zone or
 * date range is applied: the bookable grid instants with their quantities, and the free time of
 * all staffers merged. An answer for any range inside [lower, upper] is a slice of it
 * (`computeSlots(q, evaluation)`), so one evaluation can serve many queries.
 */
export interface Evaluation {
  lower: number;
  upper: number;
  /** Sorted grid instants with at least one free seat, and those seats (same index). */
  starts: number[];
  quantities: number[];
  /** Union of every staffer's free spans (sorted, merged). */
  free: Span[];
}

export function evaluateAvailability(input: AvailabilityInput, lower: number, upper: number): Evaluation {
  const ctx = makeContext(input);
  const evaluation: Evaluation = { lower, upper, starts: [], quantities: [], free: [] };
  if (input.rental !== undefined) return evaluateRental(input, input.rental, ctx, evaluation);
  if (lower > upper || input.staffers.length === 0) return evaluation;
  const staffers = prepareAll(input, ctx, lower, upper);
  const cursors = staffers.map(() => newCursor());
  const needs = input.resources?.length ? prepareResources(input.resources, ctx) : null;
  for (const t of gridInstants(ctx, lower, upper)) {
    let quantity = 0;
    if (needs === null) {
      for (let i = 0; i < staffers.length; i++) quantity += freeSeatsAt(staffers[i]!, t, ctx, cursors[i]!);
    } else {
      quantity = seatsWithResources(staffers, cursors, needs, t, ctx);
    }
    if (quantity < 1) continue;
    evaluation.starts.push(t);
    evaluation.quantities.push(quantity);
  }
  evaluation.free = mergeFreeSpans(
    staffers,
    ctx,
    input.resources?.length ? unitsShortSpans(input.resources, ctx) : [],
  );
  return evaluation;
}

/**
 * A rental's availability: open at t (the body inside the opening hours), and then as many
 * bookings as new sessions the units allow, each booking a session of its own.
 */
function evaluateRental(
  input: AvailabilityInput,
  rental: NonNullable<AvailabilityInput['rental']>,
  ctx: EngineContext,
  evaluation: Evaluation,
): Evaluation {
  const { lower, upper } = evaluation;
  if (lower > upper || !input.resources?.length) return evaluation;
  const opening = prepareOpening(rental, ctx, lower, upper);
  const needs = prepareResources(input.resources, ctx);
  const cursor = newCursor();
  for (const t of gridInstants(ctx, lower, upper)) {
    if (freeSeatsAt(opening, t, ctx, cursor) < 1) continue;
    const quantity = sessionsAt(needs, t);
    if (quantity < 1) continue;
    evaluation.starts.push(t);
    evaluation.quantities.push(quantity);
  }
  evaluation.free = mergeFreeSpans([opening], ctx, unitsShortSpans(input.resources, ctx));
  return evaluation;
}

/**
 * The seats at t when the service needs resources: a staffer's group session that can be joined
 * counts as it is (it holds its units already); every other free staffer starts a new session,
 * and only as many of those as the free units allow count. Staffers are taken in their stable
 * order, the same order checkBookable keeps.
 */
function seatsWithResources(
  staffers: PreparedStaffer[],
  cursors: ReturnType<typeof newCursor>[],
  needs: PreparedNeed[],
  t: number,
  ctx: EngineContext,
): number {
  let sessions = -1;
  let quantity = 0;
  for (let i = 0; i < staffers.length; i++) {
    const seats = freeSeatsAt(staffers[i]!, t, ctx, cursors[i]!);
    if (seats < 1) continue;
    if (staffers[i]!.joinable?.get(t) !== undefined) {
      quantity += seats;
      continue;
    }
    if (sessions < 0) sessions = sessionsAt(needs, t);
    if (sessions === 0) continue;
    sessions--;
    quantity += seats;
  }
  return quantity;
}

/** The instants a query's answer covers: its answer-zone dates, within notice and horizon. */
export function queryWindow(q: SlotQuery): { lower: number; upper: number } {
  const ctx = makeContext(q);
  const dayCount = Math.max(0, daysBetween(q.rangeStart, q.rangeEnd) + 1);
  const first = resolveWallBoundary(q.answerZone, q.rangeStart, 0, 'start');
  const afterLast = resolveWallBoundary(q.answerZone, addDays(q.rangeStart, dayCount), 0, 'start');
  return { lower: Math.max(ctx.earliest, first), upper: Math.min(ctx.latest, afterLast - 1) };
}

/**
 * The answer to a query: slots and free intervals per answer-zone date. `evaluation`, when
 * given, must cover the query's window (queryWindow) and have been made from the same store
 * state; without it the query's own window is evaluated.
 */
export function computeSlots(q: SlotQuery, evaluation?: Evaluation): SlotDay[] {
  const ctx = makeContext(q);
  const dayCount = daysBetween(q.rangeStart, q.rangeEnd) + 1;
  if (dayCount <= 0) return [];
  const dates: string[] = [];
  const dayLocalMs: number[] = [];
  // dayBounds[i] = first instant of date i in the answer zone; one more bound closes the range.
  const dayBounds: number[] = [];
  for (let i = 0; i <= dayCount; i++) {
    const date = addDays(q.rangeStart, i);
    dayBounds.push(resolveWallBoundary(q.answerZone, date, 0, 'start'));
    if (i < dayCount) {
      dates.push(date);
      dayLocalMs.push(Date.parse(date));
    }
  }
  const days: SlotDay[] = dates.map((date) => ({ date, slots: [], intervals: [] }));
  const lower = Math.max(ctx.earliest, dayBounds[0]!);
  const upper = Math.min(ctx.latest, dayBounds[dayCount]! - 1);
  if (lower > upper) return days;
  const ev = evaluation ?? evaluateAvailability(q, lower, upper);
  if (ev.lower > lower || ev.upper < upper)
    throw new RangeError('computeSlots: the evaluation does not cover the query');

  const price = q.service.priceMinor;
  const dayIndex = new Map(dates.map((d, i) => [Date.parse(d), i]));
  for (let k = firstIndexAtOrAfter(ev.starts, lower); k < ev.starts.length; k++) {
    const t = ev.starts[k]!;
    if (t > upper) break;
    // Grouped by the answer-zone local date of the instant; wall times are measured from that
    // date's midnight, so an end past midnight reads e.g. '00:30' but 88200 seconds.
    const startOffset = offsetMinutesAt(q.answerZone, t);
    const localStart = t + startOffset * MINUTE_MS;
    const dayLocal = Math.floor(localStart / DAY_MS) * DAY_MS;
    const index = dayIndex.get(dayLocal);
    if (index === undefined) continue;
    const end = t + ctx.durationMs;
    const endOffset = offsetMinutesAt(q.answerZone, end);
    const startMinutes = Math.floor((localStart - dayLocal) / MINUTE_MS);
    const endWall = Math.floor((end + endOffset * MINUTE_MS - dayLocal) / MINUTE_MS);
    const slot: Slot = {
      start: formatMinutes(startMinutes),
      start_formatted: startMinutes * 60,
      end: formatMinutes(((endWall % 1440) + 1440) % 1440),
      // The end's wall clock counted from this date's midnight: '00:30' the next day is 88200.
      end_formatted: endWall * 60,
      quantity: ev.quantities[k]!,
      price,
      price_formatted: q.priceFormatted,
      start_time: toUtcIso(t),
      end_time: toUtcIso(end),
      start_offset: offsetLabel(startOffset),
      end_offset: offsetLabel(endOffset),
    };
    days[index]!.slots.push(slot);
  }

  const intervals = freeIntervalsByDay(ev.free, ctx, q.answerZone, dayBounds, dayLocalMs);
  for (let i = 0; i < days.length; i++) days[i]!.intervals = intervals[i]!;
  return days;
}

/** The first index of sorted `values` holding a value >= `bound` (values.length if none). */
function firstIndexAtOrAfter(values: number[], bound: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * May a booking of the service start at `start`? Checks that it is a whole minute within notice
 * and horizon, then asks the same predicate as computeSlots for each staffer (only `stafferId`
 * when given). The slot step spaces the starts `slots` lists; it does not refuse a start: any
 * whole minute of an interval where the service fits is free time, and clients of the API book
 * an interval's start (after a booking with a buffer, 10:10 on a 15-minute grid)
 * (docs/decisions/0019-any-free-minute-is-bookable.md).
 */
export function checkBookable(
  input: AvailabilityInput,
  start: number,
  stafferId?: string,
  options: { timeRules?: boolean } = {},
): BookableResult {
  const ctx = makeContext(input);
  if (!Number.isFinite(start)) return { ok: false, reason: 'not_on_grid' };
  // A change that keeps an existing booking's time (staffer, services) is not a new slot choice:
  // only the staffer's working time and occupancy are asked, not minute, notice and horizon.
  if (options.timeRules !== false) {
    if (start % MINUTE_MS !== 0) return { ok: false, reason: 'not_on_grid' };
    if (start < ctx.earliest) return { ok: false, reason: 'too_soon' };
    if (start > ctx.latest) return { ok: false, reason: 'beyond_horizon' };
  }
  if (input.rental !== undefined) return checkRental(input, input.rental, ctx, start);
  const candidates =
    stafferId === undefined ? input.staffers : input.staffers.filter((s) => s.stafferId === stafferId);
  const prepared: PreparedStaffer[] = prepareAll({ ...input, staffers: candidates }, ctx, start, start);
  const needs = input.resources?.length ? prepareResources(input.resources, ctx) : null;
  // A new session needs the units free; joining a group session does not (it holds them).
  const unitsFree = needs === null || sessionsAt(needs, start) > 0;
  const free: { stafferId: string; freeSeats: number }[] = [];
  for (const p of prepared) {
    const freeSeats = freeSeatsAt(p, start, ctx, newCursor());
    if (freeSeats < 1) continue;
    if (!unitsFree && p.joinable?.get(start) === undefined) continue;
    free.push({ stafferId: p.stafferId, freeSeats });
  }
  if (free.length === 0) return { ok: false, reason: 'no_free_staffer' };
  if (needs === null) return { ok: true, staffers: free };
  return { ok: true, staffers: free, units: freeUnitsAt(needs, start) };
}

/** checkBookable for a rental: open for the whole body, and the units free; no staffer asked. */
function checkRental(
  input: AvailabilityInput,
  rental: NonNullable<AvailabilityInput['rental']>,
  ctx: EngineContext,
  start: number,
): BookableResult {
  if (!input.resources?.length) return { ok: false, reason: 'no_free_staffer' };
  const opening = prepareOpening(rental, ctx, start, start);
  if (freeSeatsAt(opening, start, ctx, newCursor()) < 1) return { ok: false, reason: 'no_free_staffer' };
  const needs = prepareResources(input.resources, ctx);
  if (sessionsAt(needs, start) < 1) return { ok: false, reason: 'no_free_staffer' };
  return { ok: true, staffers: [], units: freeUnitsAt(needs, start) };
}
