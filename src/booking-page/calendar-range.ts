import { addDays, daysBetween } from '../platform/time/zone.js';

/**
 * Which days the slot step shows, and the month picker's grid: pure date arithmetic on
 * YYYY-MM-DD strings in the customer's zone (no clock: "today" and the last bookable day are
 * given).
 */

/** A real calendar date: the pattern alone would let 2026-02-31 through. */
export function isDate(value: string | undefined): value is string {
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

export function isMonth(value: string | undefined): value is string {
  return value !== undefined && /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
}

/**
 * The first of the 7 days shown. An explicit `from` (the pager's) wins; a `date` alone (a deep
 * link, a day picked in the month view) opens the 7-day range that holds it, counted from today
 * as the pager counts, so "Earlier days" and "Later days" step through the same ranges.
 */
export function rangeStart(
  today: string,
  last: string,
  wanted: { from?: string | undefined; date?: string | undefined },
): string {
  if (isDate(wanted.from) && wanted.from > today) return wanted.from;
  if (isDate(wanted.date) && wanted.date > today && wanted.date <= last) {
    return addDays(today, 7 * Math.floor(daysBetween(today, wanted.date) / 7));
  }
  return today;
}

/** '2026-03' moved by `n` months. */
export function shiftMonth(month: string, n: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The month's dates as weeks of 7 cells, Monday first (ISO 8601, as in most of the page's
 * locales); cells before the 1st and after the last day are undefined.
 */
export function monthWeeks(month: string): (string | undefined)[][] {
  const first = `${month}-01`;
  // 2024-01-01 was a Monday: the weekday index (Monday 0) of any date follows from it.
  const lead = (((daysBetween('2024-01-01', first) % 7) + 7) % 7) as number;
  const length = daysBetween(first, `${shiftMonth(month, 1)}-01`);
  const cells: (string | undefined)[] = [
    ...Array.from({ length: lead }, () => undefined),
    ...Array.from({ length }, (_, i) => addDays(first, i)),
  ];
  while (cells.length % 7 !== 0) cells.push(undefined);
  const weeks: (string | undefined)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}
