/**
 * Busy time as the slot engine needs it: the union of many spans. A staffer's outside events
 * overlap (a day of back-to-back meetings, a recurring block over single ones), and a room is
 * booked back to back; the engine only asks whether an instant is busy, so the union blocks
 * exactly what the spans block, in far fewer rows. Pure: the calendar sync (calendar_busy_blocks)
 * and the rooms' holds (resource_busy_blocks) store what these return.
 */

export interface Interval {
  start: number;
  end: number;
}

/** The longest stored piece of busy time (src/slots/slots.repository.ts reads from from - this). */
export const BUSY_PIECE_MS = 86_400_000;

/**
 * The union of `spans` (epoch ms, half-open): sorted, disjoint, never touching (spans that touch
 * or overlap are joined: a booking cannot fit between them either way). Empty spans are dropped.
 */
export function mergeBusy(spans: readonly Interval[]): Interval[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Interval[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) {
      if (span.end > last.end) last.end = span.end;
    } else {
      merged.push({ start: span.start, end: span.end });
    }
  }
  return merged;
}

/** `span` cut into consecutive pieces of at most BUSY_PIECE_MS, so a read by start is bounded. */
export function piecesOf<T extends Interval>(span: T): T[] {
  const pieces: T[] = [];
  for (let start = span.start; start < span.end; start += BUSY_PIECE_MS) {
    pieces.push({ ...span, start, end: Math.min(span.end, start + BUSY_PIECE_MS) });
  }
  return pieces;
}
