/**
 * The one availability predicate: computeSlots and checkBookable both ask
 * `freeSeatsAt`, so a listed slot is bookable and a refused booking is never listed.
 */
import { addDays, localDateOf, resolveLocalMs, steadyOffsetOn } from '../../platform/time/zone.js';
import type { AvailabilityInput, Occupancy, StafferInput } from './types.js';
import { type LocalDay, localDays, type Span, workingSpans } from './working-spans.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Everything the predicate needs, converted once per request to epoch-ms numbers. */
export interface EngineContext {
  locationZone: string;
  serviceId: string;
  serviceCapacity: number;
  durationMs: number;
  bufferBeforeMs: number;
  bufferAfterMs: number;
  stepMinutes: number;
  /** now + minimum notice: the first allowed start. */
  earliest: number;
  /** now + horizon: the last allowed start. */
  latest: number;
}

function requireWholeNumber(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`${name} must be an integer >= ${min}`);
}

export function makeContext(input: AvailabilityInput): EngineContext {
  const { service, rules } = input;
  requireWholeNumber('slotStepMinutes', rules.slotStepMinutes, 1);
  requireWholeNumber('durationMinutes', service.durationMinutes, 1);
  requireWholeNumber('bufferBeforeMinutes', service.bufferBeforeMinutes, 0);
  requireWholeNumber('bufferAfterMinutes', service.bufferAfterMinutes, 0);
  return {
    locationZone: input.locationZone,
    serviceId: service.id,
    serviceCapacity: service.capacity,
    durationMs: service.durationMinutes * MINUTE_MS,
    bufferBeforeMs: service.bufferBeforeMinutes * MINUTE_MS,
    bufferAfterMs: service.bufferAfterMinutes * MINUTE_MS,
    stepMinutes: rules.slotStepMinutes,
    // Whole minutes: every start is one, so a start is bookable against these exactly when it
    // is against the exact bounds, and a free interval cut at a bound names a whole minute in
    // every field (its start_time would otherwise carry the clock's seconds).
    earliest: Math.ceil((input.now + rules.minNoticeMinutes * MINUTE_MS) / MINUTE_MS) * MINUTE_MS,
    latest: Math.floor((input.now + rules.horizonDays * DAY_MS) / MINUTE_MS) * MINUTE_MS,
  };
}

/**
 * A staffer reduced to sorted number arrays, for one window of location dates.
 * `block` holds open intervals (lo, hi) of start instants t whose booking span
 * [t - bufferBefore, t + duration + bufferAfter) would overlap an occupancy.
 */
export interface PreparedStaffer {
  stafferId: string;
  working: Span[];
  /** The staffer's occupancies sorted by start (for the free intervals). */
  occupancies: Occupancy[];
  spanStart: number[];
  spanEnd: number[];
  blockLo: number[];
  blockHi: number[];
  /** serviceStart -> free seats of a joinable group session of this service; null if none. */
  joinable: Map<number, number> | null;
}

/** Positions in a PreparedStaffer's arrays; valid while the asked instants do not decrease. */
export interface Cursor {
  span: number;
  block: number;
  lastT: number;
}

export function newCursor(): Cursor {
  return { span: 0, block: 0, lastT: Number.NEGATIVE_INFINITY };
}

/**
 * The local dates whose schedules can matter for starts in [lower, upper]: one day before (an
 * overnight shift of the previous date) through one day after the last booking's end.
 */
export function stafferWindow(ctx: EngineContext, lower: number, upper: number): LocalDay[] {
  const zone = ctx.locationZone;
  return localDays(
    addDays(localDateOf(lower, zone), -1),
    addDays(localDateOf(upper + ctx.durationMs, zone), 1),
  );
}

export function prepareStaffer(staffer: StafferInput, ctx: EngineContext, days: LocalDay[]): PreparedStaffer {
  const working = workingSpans(staffer.schedule, ctx.locationZone, days);
  const sorted = [...staffer.occupancies];
  // Outside busy time counts as a full, non-joinable occupancy: it blocks and shows as taken.
  for (const b of staffer.busy ?? []) {
    if (b.end > b.start) {
      sorted.push({
        start: b.start,
        end: b.end,
        serviceId: '',
        serviceStart: b.start,
        seatsTaken: 1,
        capacity: 1,
      });
    }
  }
  sorted.sort((a, b) => a.start - b.start);
  const blockLo: number[] = [];
  const blockHi: number[] = [];
  let joinable: Map<number, number> | null = null;
  for (const occ of sorted) {
    // A booking at t overlaps [start, end) iff start - duration - bufferAfter < t < end + bufferBefore.
    const lo = occ.start - ctx.durationMs - ctx.bufferAfterMs;
    const hi = occ.end + ctx.bufferBeforeMs;
    const last = blockLo.length - 1;
    // Open intervals that only touch leave the touching instant free, so merge on strict overlap.
    if (last >= 0 && lo < blockHi[last]!) {
      if (hi > blockHi[last]!) blockHi[last] = hi;
    } else {
      blockLo.push(lo);
      blockHi.push(hi);
    }
    if (occ.serviceId === ctx.serviceId && occ.capacity > 1 && occ.seatsTaken < occ.capacity) {
      joinable ??= new Map();
      const seats = occ.capacity - occ.seatsTaken;
      joinable.set(occ.serviceStart, Math.max(seats, joinable.get(occ.serviceStart) ?? 0));
    }
  }
  return {
    stafferId: staffer.stafferId,
    working,
    occupancies: sorted,
    spanStart: working.map((s) => s.start),
    spanEnd: working.map((s) => s.end),
    blockLo,
    blockHi,
    joinable,
  };
}

/**
 * Free seats of one staffer for a booking starting at t (0 = cannot take it): [t, t+duration]
 * must lie inside one working span, and then either t joins a group session of this service
 * with seats left, or the booking with its buffers overlaps no occupancy.
 * Pointer-advancing: callers that ask in increasing t pay O(1) amortised per call.
 */
export function freeSeatsAt(p: PreparedStaffer, t: number, ctx: EngineContext, c: Cursor): number {
  if (t < c.lastT) {
    c.span = 0;
    c.block = 0;
  }
  c.lastT = t;
  const end = t + ctx.durationMs;
  const spanEnd = p.spanEnd;
  // Spans ending before this booking would end cannot hold it, nor any later one.
  while (c.span < spanEnd.length && spanEnd[c.span]! < end) c.span++;
  if (c.span >= spanEnd.length || p.spanStart[c.span]! > t) return 0;
  if (p.joinable !== null) {
    const seats = p.joinable.get(t);
    if (seats !== undefined) return seats;
  }
  const blockHi = p.blockHi;
  while (c.block < blockHi.length && blockHi[c.block]! <= t) c.block++;
  if (c.block < blockHi.length && p.blockLo[c.block]! < t) return 0;
  return ctx.serviceCapacity;
}

/**
 * Grid instants in [lower, upper], sorted and unique. Each wall time of each local date is
 * resolved once (not per staffer); gap wall times yield nothing, overlap wall times both instants.
 */
export function gridInstants(ctx: EngineContext, lower: number, upper: number): number[] {
  const zone = ctx.locationZone;
  const firstDay = Date.parse(localDateOf(lower, zone));
  const lastDay = Date.parse(localDateOf(upper, zone));
  const out: number[] = [];
  let sorted = true;
  for (let day = firstDay; day <= lastDay; day += DAY_MS) {
    const steady = steadyOffsetOn(zone, day);
    if (steady !== undefined) {
      // Ordinary day: one instant per wall time, in order.
      for (let minute = 0; minute < 1440; minute += ctx.stepMinutes) {
        const t = day + (minute - steady) * MINUTE_MS;
        if (t < lower || t > upper) continue;
        if (out.length > 0 && t < out[out.length - 1]!) sorted = false;
        out.push(t);
      }
      continue;
    }
    for (let minute = 0; minute < 1440; minute += ctx.stepMinutes) {
      for (const t of resolveLocalMs(zone, day + minute * MINUTE_MS)) {
        if (t < lower || t > upper) continue;
        if (out.length > 0 && t < out[out.length - 1]!) sorted = false;
        out.push(t);
      }
    }
  }
  // Only a fall-back overlap interleaves (02:00 first, 02:00 second, 02:15 first ...).
  if (!sorted) out.sort((a, b) => a - b);
  return out;
}
