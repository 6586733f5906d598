/**
 * A series' dates and instants (docs/series.md), pure: from the first occurrence's local date and
 * wall time in the location's IANA zone, each occurrence's local date and its UTC instant. The
 * wall time is kept across DST changes (09:00 stays 09:00, so its UTC instant moves by the
 * change). A wall time that does not exist on a date (02:30 on a spring-forward night) is read
 * as the instant the clock jumps (03:00), and one that exists twice (fall-back) as the earlier
 * one: how the slot engine reads wall times (`resolveWallBoundary` of platform/time/zone.ts).
 */
import {
  addDays,
  dateToUtcMs,
  resolveWallBoundary,
  utcMsToDate,
  type WeekdayName,
  weekdayOf,
} from '../platform/time/zone.js';

export type Frequency = 'daily' | 'weekly' | 'monthly';

/** At most this many occurrences in one series. */
export const MAX_OCCURRENCES = 52;

export const WEEKDAY_ORDER: readonly WeekdayName[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export interface RecurrenceRule {
  frequency: Frequency;
  /** Every `interval` days, weeks or months (1 = every one). */
  interval: number;
  /** weekly: the weekdays it falls on; none given = the first date's weekday. Ignored otherwise. */
  weekdays?: readonly WeekdayName[] | undefined;
  /** The last local date an occurrence may fall on (inclusive). One of until and count. */
  until?: string | undefined;
  /** How many occurrences. */
  count?: number | undefined;
}

export interface Occurrence {
  /** 1, 2, … in time order. */
  index: number;
  /** The local date, 'YYYY-MM-DD'. */
  date: string;
  /** The UTC instant (epoch ms) of the wall time on that date. */
  start: number;
}

/**
 * The occurrences of `rule` from `firstDate` at `minuteOfDay` (minutes after local midnight) in
 * `zone`, in time order. Weekly: weeks start on Monday; the first week is the one holding
 * `firstDate`, then every `interval`-th week, each chosen weekday on or after `firstDate`.
 * Monthly: the same weekday of the same rank as `firstDate` (2nd Tuesday), every `interval`-th
 * month; a date in the month's last seven days that is its 5th such weekday is read as "the
 * last" (so every month has one). At most `limit` occurrences are made (default one more than
 * MAX_OCCURRENCES, so a caller can tell a rule that asks too many).
 */
export function expandRecurrence(
  args: { firstDate: string; minuteOfDay: number; zone: string; rule: RecurrenceRule },
  limit = MAX_OCCURRENCES + 1,
): Occurrence[] {
  const { firstDate, minuteOfDay, zone, rule } = args;
  const max = Math.min(limit, rule.count ?? limit);
  const dates: string[] = [];
  const fits = (date: string) => rule.until === undefined || date <= rule.until;
  for (const date of datesOf(firstDate, rule)) {
    if (dates.length >= max || !fits(date)) break;
    dates.push(date);
  }
  return dates.map((date, i) => ({
    index: i + 1,
    date,
    start: resolveWallBoundary(zone, date, minuteOfDay, 'start'),
  }));
}

/** The rule's dates in order, without end (the caller stops). */
function* datesOf(firstDate: string, rule: RecurrenceRule): Generator<string> {
  const interval = Math.max(1, Math.floor(rule.interval));
  if (rule.frequency === 'daily') {
    for (let date = firstDate; ; date = addDays(date, interval)) yield date;
  }
  if (rule.frequency === 'weekly') {
    const chosen = new Set<WeekdayName>(
      rule.weekdays && rule.weekdays.length > 0 ? rule.weekdays : [weekdayOf(firstDate)],
    );
    const monday = addDays(firstDate, -WEEKDAY_ORDER.indexOf(weekdayOf(firstDate)));
    for (let week = monday; ; week = addDays(week, 7 * interval)) {
      for (let d = 0; d < 7; d += 1) {
        const date = addDays(week, d);
        if (date >= firstDate && chosen.has(WEEKDAY_ORDER[d]!)) yield date;
      }
    }
  }
  // monthly
  const first = new Date(dateToUtcMs(firstDate));
  const weekday = first.getUTCDay();
  const day = first.getUTCDate();
  const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  // Only a 5th weekday falls after the 28th.
  const rank = day > 28 ? -1 : Math.ceil(day / 7);
  for (let step = 0; ; step += interval) {
    const y = first.getUTCFullYear() + Math.floor((first.getUTCMonth() + step) / 12);
    const m = (first.getUTCMonth() + step) % 12;
    yield utcMsToDate(nthWeekday(y, m, weekday, rank, daysInMonth(y, m)));
  }
}

/** Epoch ms (UTC midnight) of the `rank`-th (1..4, or -1 = last) `weekday` (0 = Sunday) of a month. */
function nthWeekday(year: number, month: number, weekday: number, rank: number, days: number): number {
  if (rank === -1) {
    const lastDay = new Date(Date.UTC(year, month, days));
    const back = (lastDay.getUTCDay() - weekday + 7) % 7;
    return Date.UTC(year, month, days - back);
  }
  const firstDay = new Date(Date.UTC(year, month, 1)).getUTCDay();
  const offset = (weekday - firstDay + 7) % 7;
  return Date.UTC(year, month, 1 + offset + (rank - 1) * 7);
}
