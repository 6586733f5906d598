import { addDays, localDateOf, resolveWallBoundary, wallMinutesOf } from '../platform/time/zone.js';

/**
 * Quiet hours: local wall times of a location during which no reminder text goes out (default
 * 21:00-08:00). Pure; wall times are resolved in the location's zone for the date they fall on, so
 * a DST change in between moves the instant, not the wall time.
 */
export interface QuietHours {
  /** Minutes since local midnight. start > end: across midnight. start = end: none. */
  start: number;
  end: number;
}

export const DEFAULT_QUIET_HOURS: QuietHours = { start: 21 * 60, end: 8 * 60 };

/** 'HH:MM-HH:MM' (locations.text_quiet_hours) → quiet hours; null or unreadable → the default. */
export function quietHoursOf(stored: string | null | undefined): QuietHours {
  const match = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(stored ?? '');
  if (!match) return DEFAULT_QUIET_HOURS;
  const [h1, m1, h2, m2] = match.slice(1).map(Number) as [number, number, number, number];
  if (h1 > 23 || h2 > 23 || m1 > 59 || m2 > 59) return DEFAULT_QUIET_HOURS;
  return { start: h1 * 60 + m1, end: h2 * 60 + m2 };
}

function inside(minutes: number, quiet: QuietHours): boolean {
  if (quiet.start === quiet.end) return false;
  return quiet.start < quiet.end
    ? minutes >= quiet.start && minutes < quiet.end
    : minutes >= quiet.start || minutes < quiet.end;
}

/**
 * When a text due at `dueAt` may go: `dueAt` itself outside quiet hours, else the instant they end
 * (the next local `end` wall time; in a DST gap, the instant the clock jumps). `quietStart` is the
 * instant the same quiet hours began, for a reminder whose booking starts before they end.
 */
export function quietHoursWindow(
  dueAt: number,
  zone: string,
  quiet: QuietHours,
): { quiet: false } | { quiet: true; start: number; end: number } {
  const minutes = wallMinutesOf(dueAt, zone);
  if (!inside(minutes, quiet)) return { quiet: false };
  const date = localDateOf(dueAt, zone);
  const acrossMidnight = quiet.start > quiet.end;
  const endDate = acrossMidnight && minutes >= quiet.start ? addDays(date, 1) : date;
  const startDate = acrossMidnight && minutes < quiet.end ? addDays(date, -1) : date;
  return {
    quiet: true,
    start: resolveWallBoundary(zone, startDate, quiet.start, 'start'),
    end: resolveWallBoundary(zone, endDate, quiet.end, 'start'),
  };
}

/**
 * A reminder due inside quiet hours goes at their end. When the booking starts before they end
 * (an early appointment), the reminder would come too late: it goes just before they began
 * instead, or at once if that has passed (never before `now`).
 */
export function reminderSendTime(
  dueAt: number,
  start: number,
  now: number,
  zone: string,
  quiet: QuietHours,
): number {
  const window = quietHoursWindow(dueAt, zone, quiet);
  if (!window.quiet) return dueAt;
  if (window.end < start) return window.end;
  return Math.max(now, window.start - 60_000);
}

const WALL = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The panel's two wall times → the stored form ('HH:MM-HH:MM'), null for the default (both
 * empty, or 21:00-08:00 typed), or an error. Equal times mean no quiet hours.
 */
export function checkQuietHours(start: string, end: string): { value: string | null } | { error: string } {
  const from = start.trim();
  const to = end.trim();
  if (from === '' && to === '') return { value: null };
  if (!WALL.test(from) || !WALL.test(to))
    return { error: 'Enter both times as HH:MM, like 21:00 and 08:00.' };
  const value = `${from}-${to}`;
  return { value: value === '21:00-08:00' ? null : value };
}
