import { addDays, daysBetween, weekdayOf } from '../platform/time/zone.js';

/** How a report's time series is cut: calendar days, ISO weeks (Monday first) or months. */
export type Grouping = 'day' | 'week' | 'month';

/**
 * The days a report covers, as local dates (YYYY-MM-DD, both inclusive): each booking and payment
 * is placed by its own location's zone, so "Monday" is Monday in Berlin for the Berlin salon and
 * in New York for the New York one.
 */
export interface ReportPeriod {
  from: string;
  to: string;
  grouping: Grouping;
  /** One location, or every live one. */
  locationId: string | undefined;
}

/** A year and a day: a whole year, leap years included, answers; longer asks are refused. */
export const MAX_PERIOD_DAYS = 366;
/** Without a choice: the last 30 days, today included. */
export const DEFAULT_PERIOD_DAYS = 30;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type PeriodProblem = 'from' | 'to' | 'order' | 'length';

/**
 * The period of a report's query (`from`, `to`, `group`, `location`), with defaults for what is
 * missing: the last 30 days up to `today`, by day (by week past 62 days, by month past 184).
 * Answers the problems of a malformed or too long period instead of guessing.
 */
export function readPeriod(
  query: Record<string, unknown>,
  today: string,
): { period: ReportPeriod; problems: PeriodProblem[] } {
  const text = (key: string) => {
    const value = query[key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const problems: PeriodProblem[] = [];
  const date = (key: 'from' | 'to', fallback: string) => {
    const value = text(key);
    if (value === undefined) return fallback;
    if (!isDate(value)) {
      problems.push(key);
      return fallback;
    }
    return value;
  };
  const to = date('to', today);
  const from = date('from', addDays(to, -(DEFAULT_PERIOD_DAYS - 1)));
  if (problems.length === 0) {
    if (from > to) problems.push('order');
    else if (daysBetween(from, to) + 1 > MAX_PERIOD_DAYS) problems.push('length');
  }
  const group = text('group');
  const length = daysBetween(from, to) + 1;
  const grouping: Grouping =
    group === 'day' || group === 'week' || group === 'month'
      ? group
      : length > 184
        ? 'month'
        : length > 62
          ? 'week'
          : 'day';
  const location = text('location');
  return {
    period: { from, to, grouping, locationId: location && UUID_RE.test(location) ? location : undefined },
    problems,
  };
}

function isDate(value: string): boolean {
  if (!DATE_RE.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d;
}

/** The first day of the bucket `date` falls in: itself, the Monday of its week, the 1st of its month. */
export function bucketOf(date: string, grouping: Grouping): string {
  if (grouping === 'day') return date;
  if (grouping === 'month') return `${date.slice(0, 7)}-01`;
  const back = (WEEKDAY_INDEX[weekdayOf(date)] ?? 0) as number;
  return addDays(date, -back);
}

const WEEKDAY_INDEX: Record<string, number> = { mon: 0, tue: 1, wed: 2, thu: 3, fri: 4, sat: 5, sun: 6 };

/**
 * Every bucket of the period in order, empty ones included (a chart shows a quiet week as a
 * zero, not as a gap). The first and last may be cut by the period: a week report from a
 * Wednesday starts with that week's Monday as its key.
 */
export function bucketsOf(period: Pick<ReportPeriod, 'from' | 'to' | 'grouping'>): string[] {
  const keys: string[] = [];
  let day = period.from;
  while (day <= period.to) {
    const key = bucketOf(day, period.grouping);
    if (keys[keys.length - 1] !== key) keys.push(key);
    day = period.grouping === 'day' ? addDays(day, 1) : nextBucketStart(key, period.grouping);
  }
  return keys;
}

function nextBucketStart(key: string, grouping: Grouping): string {
  if (grouping === 'week') return addDays(key, 7);
  const [y, m] = key.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/** A share as a whole-number per mille, so rates add up exactly in tests and CSV (null: no base). */
export function perMille(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part * 1000) / whole);
}
