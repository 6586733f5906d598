/**
 * The `intervals` of a slot day: maximal free spans (union over eligible staffers) in which the
 * service fits, clipped to the answer-zone day and to the booking window.
 */
import { formatMinutes, localMsOf } from '../time/zone.js';
import type { EngineContext, PreparedStaffer } from './availability.js';
import type { FreeInterval } from './types.js';
import { mergeSpans, type Span, subtractSpans } from './working-spans.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * A staffer's free time: working spans minus each occupancy widened by the NEW booking's
 * buffers. Widening is what makes "free" mean "a booking body could sit here": a booking [t,
 * t+duration] needs [t - bufferBefore, t + duration + bufferAfter) clear of the occupancy
 * [s, e), i.e. [t, t+duration] clear of [s - bufferAfter, e + bufferBefore).
 */
export function freeSpansOf(p: PreparedStaffer, ctx: EngineContext): Span[] {
  const widened = mergeSpans(
    p.occupancies.map((o) => ({ start: o.start - ctx.bufferAfterMs, end: o.end + ctx.bufferBeforeMs })),
  );
  return subtractSpans(p.working, widened);
}

/** Seconds since the local midnight `dayLocalMs` of the wall clock at instant t, and 'HH:MM'. */
function wallOf(t: number, zone: string, dayLocalMs: number): { text: string; seconds: number } {
  const minutes = Math.floor((localMsOf(t, zone) - dayLocalMs) / MINUTE_MS);
  const inDay = ((minutes % 1440) + 1440) % 1440;
  return { text: formatMinutes(inDay), seconds: minutes * 60 };
}

/** The free time of all staffers together (sorted, merged). */
export function mergeFreeSpans(staffers: PreparedStaffer[], ctx: EngineContext): Span[] {
  return mergeSpans(staffers.flatMap((p) => freeSpansOf(p, ctx)));
}

/**
 * Per answer-zone day i (instants [dayBounds[i], dayBounds[i+1]), local midnight
 * dayLocalMs[i]), the free intervals of at least one duration within `free` (mergeFreeSpans).
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
    const dayStart = dayBounds[i]!;
    const dayEnd = dayBounds[i + 1]!;
    const lower = Math.max(dayStart, ctx.earliest);
    const upper = Math.min(dayEnd, ctx.latest);
    const intervals: FreeInterval[] = [];
    while (k < free.length && free[k]!.end <= lower) k++;
    for (let j = k; j < free.length && free[j]!.start < upper; j++) {
      const start = Math.max(free[j]!.start, lower);
      const end = Math.min(free[j]!.end, upper);
      if (end - start < ctx.durationMs) continue;
      const from = wallOf(start, answerZone, dayLocalMs[i]!);
      // Why '24:00': an interval running into the next day ends at this day's end.
      const to =
        end === dayEnd ? { text: '24:00', seconds: DAY_MS / 1000 } : wallOf(end, answerZone, dayLocalMs[i]!);
      intervals.push({
        start: from.text,
        start_formatted: from.seconds,
        end: to.text,
        end_formatted: to.seconds,
      });
    }
    result.push(intervals);
  }
  return result;
}
