/**
 * From a staffer's schedule (wall times in the location's zone) to working spans (epoch ms).
 * Pure; all instants are half-open [start, end).
 */
import {
  dateToUtcMs,
  daysBetween,
  resolveLocalBoundary,
  utcMsToDate,
  weekdayOf,
} from '../../platform/time/zone.js';
import type { Schedule, TimeRange, Weekday } from './types.js';

export interface Span {
  start: number;
  end: number;
}

/** A local date of the location, prepared once per request and shared by all staffers. */
export interface LocalDay {
  date: string;
  weekday: Weekday;
  /** The date's midnight as "local ms" (wall clock read as UTC). */
  localMs: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const MINUTES_PER_DAY = 1440;
const WALL_TIME_RE = /^(\d{2}):(\d{2})$/;
const parsedWallTimes = new Map<string, number>();

/** The local dates fromDate..toDate, inclusive. */
export function localDays(fromDate: string, toDate: string): LocalDay[] {
  const first = dateToUtcMs(fromDate);
  const out: LocalDay[] = [];
  const count = daysBetween(fromDate, toDate);
  for (let i = 0; i <= count; i++) {
    const date = utcMsToDate(first + i * DAY_MS);
    out.push({ date, weekday: weekdayOf(date), localMs: first + i * DAY_MS });
  }
  return out;
}

/** 'HH:MM' -> minutes since midnight; '24:00' is the only value past 23:59. */
export function parseWallTime(value: string): number {
  const cached = parsedWallTimes.get(value);
  if (cached !== undefined) return cached;
  const total = parseWallTimeUncached(value);
  // At most 1441 distinct valid values, so the memo stays small.
  parsedWallTimes.set(value, total);
  return total;
}

function parseWallTimeUncached(value: string): number {
  const m = WALL_TIME_RE.exec(value);
  const hours = m === null ? Number.NaN : Number(m[1]);
  const minutes = m === null ? Number.NaN : Number(m[2]);
  const total = hours * 60 + minutes;
  if (!(minutes < 60 && total <= MINUTES_PER_DAY)) throw new RangeError(`Invalid wall time: ${value}`);
  return total;
}

/**
 * Sorts and merges spans; touching spans merge too (22:00-24:00 + 00:00-02:00 is one shift).
 * Never mutates its input; the result may share span objects with it.
 */
export function mergeSpans(spans: Span[]): Span[] {
  let inOrder = true;
  for (let i = 1; i < spans.length && inOrder; i++) inOrder = spans[i]!.start >= spans[i - 1]!.start;
  // Spans built day by day usually arrive in order; sort a copy only when they do not.
  const input = inOrder ? spans : [...spans].sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of input) {
    if (s.end <= s.start) continue;
    const last = out[out.length - 1];
    if (last === undefined || s.start > last.end) out.push(s);
    else if (s.end > last.end) out[out.length - 1] = { start: last.start, end: s.end };
  }
  return out;
}

/** `base` minus `cuts`; both sorted, disjoint (as mergeSpans returns them). */
export function subtractSpans(base: Span[], cuts: Span[]): Span[] {
  const out: Span[] = [];
  let first = 0;
  for (const b of base) {
    let cursor = b.start;
    while (first < cuts.length && cuts[first]!.end <= cursor) first++;
    for (let k = first; k < cuts.length && cuts[k]!.start < b.end; k++) {
      const cut = cuts[k]!;
      if (cut.start > cursor) out.push({ start: cursor, end: cut.start });
      if (cut.end > cursor) cursor = cut.end;
    }
    if (cursor < b.end) out.push({ start: cursor, end: b.end });
  }
  return out;
}

/** One range of a day, as an instant span; to <= from crosses midnight into the next day. */
function rangeToSpan(zone: string, day: LocalDay, range: TimeRange): Span {
  const from = parseWallTime(range.from);
  let to = parseWallTime(range.to);
  if (to <= from) to += MINUTES_PER_DAY;
  return {
    start: resolveLocalBoundary(zone, day.localMs + from * MINUTE_MS, 'start'),
    end: resolveLocalBoundary(zone, day.localMs + to * MINUTE_MS, 'end'),
  };
}

type OverrideEntry = Schedule['overrides'][number];

/** The working spans of one local date: its intervals minus its own breaks. */
function daySpans(
  zone: string,
  schedule: Schedule,
  day: LocalDay,
  overrides: Map<string, OverrideEntry>,
): Span[] {
  const override = overrides.size === 0 ? undefined : overrides.get(day.date);
  let intervals: TimeRange[];
  let breaks: TimeRange[];
  if (override !== undefined) {
    // An override replaces both the weekly rule and the weekly breaks of that date.
    intervals = override.intervals;
    breaks = override.breaks ?? [];
  } else {
    intervals = schedule.weekly[day.weekday] ?? [];
    breaks = schedule.breaks[day.weekday] ?? [];
  }
  if (intervals.length === 0) return [];
  const work = mergeSpans(intervals.map((r) => rangeToSpan(zone, day, r)));
  if (breaks.length === 0) return work;
  return subtractSpans(work, mergeSpans(breaks.map((r) => rangeToSpan(zone, day, r))));
}

/**
 * Working spans of the given local dates (consecutive, ascending), merged across days so that a
 * shift crossing midnight, or two touching shifts on adjacent days, form one continuous span.
 * Breaks apply to the ranges of their own date only (a Tuesday break does not cut Monday's
 * overnight shift), because a break belongs to that day's rule.
 */
export function workingSpans(schedule: Schedule, zone: string, days: LocalDay[]): Span[] {
  const overrides = new Map<string, OverrideEntry>();
  // Later entries win when a date is listed twice.
  for (const o of schedule.overrides) overrides.set(o.date, o);
  const all: Span[] = [];
  for (const day of days) {
    for (const span of daySpans(zone, schedule, day, overrides)) all.push(span);
  }
  return mergeSpans(all);
}
