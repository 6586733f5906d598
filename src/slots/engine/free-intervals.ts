/**
 * The `intervals` of a slot day: maximal free spans (union over eligible staffers, where the
 * service's units allow a new session) in which the service fits. An interval of a date covers every slot that starts on that date: it is cut at
 * the date's first instant (or the earliest bookable one) and at the end of the last booking that
 * could start on the date, never at midnight (docs/decisions/0002).
 */
import { formatMinutes, offsetLabel, offsetMinutesAt, toUtcIso } from '../../platform/time/zone.js';
import type { EngineContext, PreparedStaffer } from './availability.js';
import type { FreeInterval } from './types.js';
import { mergeSpans, type Span, subtractSpans } from './working-spans.js';

const MINUTE_MS = 60_000;

/**
 * A staffer's free time: working spans minus each occupancy widened by the NEW booking's
 * buffers, minus where the service's units run short for a new session (`unitsShort`,
 * resources.ts unitsShortSpans; empty for a service that needs none). Widening is what makes "free" mean "a booking body could sit here": a booking [t,
 * t+duration] needs [t - bufferBefore, t + duration + bufferAfter) clear of the occupancy
 * [s, e), i.e. [t, t+duration] clear of [s - bufferAfter, e + bufferBefore). A group session of
 * this service with seats left counts as free for its own length: the slot that joins it is
 * listed, so the intervals must hold it too.
 */
export function freeSpansOf(p: PreparedStaffer, ctx: EngineContext, unitsShort: Span[] = []): Span[] {
  const widened = mergeSpans(
    p.occupancies.map((o) => ({ start: o.start - ctx.bufferAfterMs, end: o.end + ctx.bufferBeforeMs })),
  );
  let free = subtractSpans(p.working, widened);
  if (unitsShort.length > 0) free = subtractSpans(free, unitsShort);
  if (p.joinable === null) return free;
  const sessions: Span[] = [];
  for (const start of p.joinable.keys()) {
    const end = start + ctx.durationMs;
    // The same condition as freeSeatsAt: the session must lie inside one working span.
    if (p.working.some((w) => w.start <= start && end <= w.end)) sessions.push({ start, end });
  }
  return sessions.length === 0 ? free : mergeSpans([...free, ...sessions]);
}

/** The free time of all staffers together (sorted, merged). */
export function mergeFreeSpans(
  staffers: PreparedStaffer[],
  ctx: EngineContext,
  unitsShort: Span[] = [],
): Span[] {
  return mergeSpans(staffers.flatMap((p) => freeSpansOf(p, ctx, unitsShort)));
}

/**
 * Per answer-zone day i (instants [dayBounds[i], dayBounds[i+1]), local midnight
 * dayLocalMs[i]), the free intervals within `free` (mergeFreeSpans) that can hold a booking
 * starting on that day. The cut after the day (last start + duration) keeps an answer the same
 * whatever window the evaluation was made for.
 */
export function freeIntervalsByDay(
  free: Span[],
  ctx: EngineContext,
  answerZone: string,
  dayBounds: number[],
  dayLocalMs: number[],
): FreeInterval[][] {
  const result: FreeInterval[][] = [];
  let k = 0;
  for (let i = 0; i < dayLocalMs.length; i++) {
    const lower = Math.max(dayBounds[i]!, ctx.earliest);
    const dayEnd = dayBounds[i + 1]!;
    // Starts of this day are < dayEnd and <= latest; a booking starting then ends by `cap`.
    const cap = Math.min(dayEnd, ctx.latest) + ctx.durationMs;
    const intervals: FreeInterval[] = [];
    result.push(intervals);
    if (lower >= dayEnd || lower > ctx.latest) continue;
    while (k < free.length && free[k]!.end <= lower) k++;
    for (let j = k; j < free.length && free[j]!.start < dayEnd && free[j]!.start <= ctx.latest; j++) {
      const start = Math.max(free[j]!.start, lower);
      const end = Math.min(free[j]!.end, cap);
      if (end - start < ctx.durationMs) continue;
      intervals.push(intervalOf(start, end, answerZone, dayLocalMs[i]!));
    }
  }
  return result;
}

/** The wire form of [start, end) on the day whose local midnight is `dayLocal`. */
function intervalOf(start: number, end: number, zone: string, dayLocal: number): FreeInterval {
  const startOffset = offsetMinutesAt(zone, start);
  const endOffset = offsetMinutesAt(zone, end);
  const startLocal = start + startOffset * MINUTE_MS - dayLocal;
  const endWall = Math.floor((end + endOffset * MINUTE_MS - dayLocal) / MINUTE_MS);
  const startMinutes = Math.floor(startLocal / MINUTE_MS);
  return {
    start: formatMinutes(startMinutes),
    start_formatted: startMinutes * 60,
    end: formatMinutes(((endWall % 1440) + 1440) % 1440),
    // As for slots: the end's wall clock counted from this date's midnight.
    end_formatted: endWall * 60,
    start_time: toUtcIso(start),
    end_time: toUtcIso(end),
    start_offset: offsetLabel(startOffset),
    end_offset: offsetLabel(endOffset),
  };
}
