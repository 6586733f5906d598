/**
 * Where things go on the panel's calendar grid. Pure: instants in, minutes on an
 * axis out; no clock, no database, no HTML.
 *
 * Two axes, because a DST day cannot be both right and aligned with its neighbours:
 * - `elapsed` (the one-day view): minutes since the day's local midnight as they pass. A 23-hour
 *   day is 23 hour rows long and a 25-hour day 25, each row labelled with the wall time it starts
 *   at (the repeated hour shows twice, with its offset). Nothing overlaps that did not overlap.
 * - `wall` (week views, days side by side): minutes since midnight on the wall clock, so 10:00 is
 *   at one height in every column. On the spring-forward day the skipped wall hour is a band no
 *   instant maps to; on the fall-back day the repeated hour is a band whose two occurrences share
 *   the rows, and bookings in both stand side by side in lanes like any overlap.
 */
import {
  dateToUtcMs,
  formatMinutes,
  localMsOf,
  offsetLabel,
  offsetMinutesAt,
  resolveLocalBoundary,
} from '../platform/time/zone.js';

export type AxisMode = 'elapsed' | 'wall';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface Span {
  start: number;
  end: number;
}

/** One local date of the location, as the instants it runs between. */
export interface CalendarDay {
  date: string;
  /** The instant of the date's local midnight (the first instant, if midnight is skipped). */
  startMs: number;
  endMs: number;
  /** 1440, or 1380 / 1500 on a DST day (1410 / 1470 on Lord Howe's half-hour change). */
  lengthMinutes: number;
  /** The clock change within the day, if any. */
  change?: ClockChange;
}

export interface ClockChange {
  at: number;
  /** Offset after minus before, in minutes: > 0 the clocks go forward, < 0 back. */
  shiftMinutes: number;
  /** Wall minutes of the day where the band lies: the skipped hour, or the repeated one. */
  wallFrom: number;
  wallTo: number;
}

export function calendarDay(zone: string, date: string): CalendarDay {
  const localMidnight = dateToUtcMs(date);
  const startMs = resolveLocalBoundary(zone, localMidnight, 'start');
  const endMs = resolveLocalBoundary(zone, localMidnight + DAY_MS, 'start');
  const day: CalendarDay = { date, startMs, endMs, lengthMinutes: Math.round((endMs - startMs) / MINUTE_MS) };
  const before = offsetMinutesAt(zone, startMs);
  const after = offsetMinutesAt(zone, endMs - 1);
  if (before !== after) {
    // The first instant with the new offset, to the minute (transitions fall on whole minutes).
    let lo = startMs;
    let hi = endMs - 1;
    while (hi - lo > MINUTE_MS) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
      if (offsetMinutesAt(zone, mid) === before) lo = mid;
      else hi = mid;
    }
    const at = hi;
    const wallBefore = (at + before * MINUTE_MS - localMidnight) / MINUTE_MS;
    const shift = after - before;
    day.change = {
      at,
      shiftMinutes: shift,
      wallFrom: shift > 0 ? wallBefore : wallBefore + shift,
      wallTo: shift > 0 ? wallBefore + shift : wallBefore,
    };
  }
  return day;
}

/** Minutes on the axis of the given day at instant `t` (may be < 0 or past the day's end). */
export function axisMinutes(mode: AxisMode, zone: string, day: CalendarDay, t: number): number {
  if (mode === 'elapsed') return (t - day.startMs) / MINUTE_MS;
  return (localMsOf(t, zone) - dateToUtcMs(day.date)) / MINUTE_MS;
}

/** The axis length of a day: its real length when elapsed, 24 wall hours otherwise. */
export function dayAxisLength(mode: AxisMode, day: CalendarDay): number {
  return mode === 'elapsed' ? day.lengthMinutes : 1440;
}

export interface HourMark {
  /** Minutes on the axis. */
  at: number;
  /** '09:00'; with the offset when the wall time occurs twice that day ('01:00 +02:00'). */
  label: string;
}

/** The hour lines of the axis between `from` and `to` (axis minutes, whole hours). */
export function hourMarks(
  mode: AxisMode,
  zone: string,
  day: CalendarDay,
  from: number,
  to: number,
): HourMark[] {
  const marks: HourMark[] = [];
  for (let at = from; at < to; at += 60) {
    if (mode === 'wall') {
      marks.push({ at, label: formatMinutes(at % 1440) });
      continue;
    }
    const t = day.startMs + at * MINUTE_MS;
    const local = localMsOf(t, zone);
    const wall = Math.round((local - Math.floor(local / DAY_MS) * DAY_MS) / MINUTE_MS);
    const repeated =
      day.change !== undefined &&
      day.change.shiftMinutes < 0 &&
      wall >= day.change.wallFrom &&
      wall < day.change.wallTo;
    const label = formatMinutes(wall);
    marks.push({ at, label: repeated ? `${label} ${offsetLabel(offsetMinutesAt(zone, t))}` : label });
  }
  return marks;
}

/**
 * The axis window to show: whole hours covering every span given (working hours, opening hours,
 * bookings), clamped to the day; `fallback` (e.g. 08:00–18:00) when nothing is given.
 */
export function visibleWindow(
  mode: AxisMode,
  zone: string,
  days: CalendarDay[],
  spans: Span[],
  fallback: { from: number; to: number } = { from: 8 * 60, to: 18 * 60 },
): { from: number; to: number } {
  const length = Math.max(...days.map((day) => dayAxisLength(mode, day)));
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const day of days) {
    for (const span of spans) {
      if (span.end <= day.startMs || span.start >= day.endMs) continue;
      from = Math.min(from, axisMinutes(mode, zone, day, Math.max(span.start, day.startMs)));
      to = Math.max(to, axisMinutes(mode, zone, day, Math.min(span.end, day.endMs)));
    }
  }
  if (from === Number.POSITIVE_INFINITY) ({ from, to } = fallback);
  return {
    from: Math.max(0, Math.floor(from / 60) * 60),
    to: Math.min(
      Math.ceil(length / 60) * 60,
      Math.max(Math.ceil(to / 60) * 60, Math.floor(from / 60) * 60 + 60),
    ),
  };
}

/** A span placed in one day column: top and height in axis minutes, clipped to the window. */
export interface Placed {
  top: number;
  height: number;
}

export function place(
  mode: AxisMode,
  zone: string,
  day: CalendarDay,
  window: { from: number; to: number },
  span: Span,
): Placed | undefined {
  const start = Math.max(span.start, day.startMs);
  const end = Math.min(span.end, day.endMs);
  if (end <= start) return undefined;
  let top = axisMinutes(mode, zone, day, start);
  let bottom = axisMinutes(mode, zone, day, end);
  // On the wall axis a span ending in the repeated hour's second pass can read "before" its
  // start: it then ends at the band's end.
  if (bottom < top) bottom = top + (end - start) / MINUTE_MS;
  top = Math.max(top, window.from);
  bottom = Math.min(bottom, window.to);
  if (bottom <= top) return undefined;
  return { top: top - window.from, height: bottom - top };
}

/**
 * Side-by-side lanes for overlapping blocks of one column: each block gets the first free lane,
 * and every block of a cluster of overlaps is as narrow as the cluster's widest point needs.
 */
export function assignLanes<T extends Placed & { lane: number; lanes: number }>(blocks: T[]): T[] {
  // Sets lane and lanes in place (no copies: a week view lays out 1,000 blocks).
  const sorted = [...blocks].sort((a, b) => a.top - b.top || b.height - a.height);
  let clusterStart = 0;
  let clusterEnd = Number.NEGATIVE_INFINITY;
  let laneEnds: number[] = [];
  const close = (end: number) => {
    for (let k = clusterStart; k < end; k++) sorted[k]!.lanes = laneEnds.length;
    clusterStart = end;
    laneEnds = [];
  };
  sorted.forEach((block, index) => {
    if (block.top >= clusterEnd) {
      close(index);
      clusterEnd = Number.NEGATIVE_INFINITY;
    }
    let lane = laneEnds.findIndex((end) => end <= block.top);
    if (lane === -1) {
      lane = laneEnds.length;
      laneEnds.push(0);
    }
    laneEnds[lane] = block.top + block.height;
    clusterEnd = Math.max(clusterEnd, block.top + block.height);
    block.lane = lane;
  });
  close(sorted.length);
  return sorted;
}

/** A column of the view by resource: one live unit of the location. */
export interface UnitColumn {
  id: string;
  type: string;
  name: string;
}

/**
 * The view by resource's columns, grouped by type then ordered by name (the id breaks ties, so
 * two rooms of one name keep their order between loads). Compared by code point, not locale:
 * the same order whatever language the panel is read in.
 */
export function resourceColumns<U extends UnitColumn>(units: readonly U[]): U[] {
  const by = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...units].sort((a, b) => by(a.type, b.type) || by(a.name, b.name) || by(a.id, b.id));
}

/**
 * Each booking in the column of every unit it holds (a massage in Room 2 holding the hot-stone
 * kit too is in both columns). Bookings holding no unit, or only units without a column (archived
 * ones), are in none: the view by resource leaves them to the view by staffer.
 */
export function bookingsByUnit<B extends { unit_ids: readonly string[] }>(
  columns: readonly { id: string }[],
  bookings: readonly B[],
): Map<string, B[]> {
  const out = new Map<string, B[]>(columns.map((c) => [c.id, []]));
  for (const booking of bookings) {
    for (const unit of new Set(booking.unit_ids)) out.get(unit)?.push(booking);
  }
  return out;
}
