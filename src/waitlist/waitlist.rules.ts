import { DateTime } from 'luxon';
import { type FieldErrors, type FieldIssue, ruleIssue, withIssues } from '../errors.js';
import type { WaitlistWindowJson } from '../platform/db/schema.js';

/**
 * The waitlist's pure rules (docs/waitlist.md): whether a freed time suits an entry, who is next
 * in line, when an offer's hold ends, and the workspace's settings. No clock, store or env.
 */

/** At most this many wanted windows per entry; more is a 422. */
export const MAX_WINDOWS = 5;

export interface WaitlistSettings {
  /** 'one': the first matching person in line gets the offer; 'all': every matching person at once. */
  offerMode: 'one' | 'all';
  /** How long an offer holds its time for the person it was made to. */
  holdMinutes: number;
  /**
   * Group classes (capacity > 1): a freed seat is booked for the first suiting person in line
   * (an offer the periodic round claims at once) rather than offered. Off unless switched on.
   */
  autoFillGroupSeats: boolean;
}

export const DEFAULT_HOLD_MINUTES = 30;
export const MIN_HOLD_MINUTES = 5;
export const MAX_HOLD_MINUTES = 24 * 60;

/** The workspace's stored settings (workspaces.waitlist_settings), defaults where unset or odd. */
export function waitlistSettingsOf(stored: Record<string, unknown> | null | undefined): WaitlistSettings {
  const mode = stored?.offer_mode === 'all' ? 'all' : 'one';
  const hold = stored?.hold_minutes;
  const holdMinutes =
    typeof hold === 'number' && Number.isInteger(hold) && hold >= MIN_HOLD_MINUTES && hold <= MAX_HOLD_MINUTES
      ? hold
      : DEFAULT_HOLD_MINUTES;
  return { offerMode: mode, holdMinutes, autoFillGroupSeats: stored?.auto_fill_group_seats === true };
}

/** What an entry wants, as far as matching goes. */
export interface WantedTimes {
  anyTime: boolean;
  windows: readonly WaitlistWindowJson[];
  /** Null: any staffer of the service. */
  stafferId: string | null;
}

/**
 * Whether a start (epoch ms) with a staffer suits what the entry wants. Windows are wall time of
 * the location's zone: the start's local date must be the window's date and its local time in
 * [from, to). Wall time, not instants: on the night clocks go back, a start at 02:30 of either
 * hour lies in a window 02:00–03:00; on the night they go forward, the hour that does not exist
 * holds no start.
 */
export function suits(wanted: WantedTimes, start: number, stafferId: string, zone: string): boolean {
  if (wanted.stafferId !== null && wanted.stafferId !== stafferId) return false;
  if (wanted.anyTime) return true;
  const local = DateTime.fromMillis(start, { zone });
  const date = local.toISODate();
  const time = local.toFormat('HH:mm');
  return wanted.windows.some((w) => w.date === date && w.from <= time && time < w.to);
}

export interface InLine {
  id: string;
  joinedAt: number;
}

/**
 * Who gets an offer, from the entries that suit the time and had none for it yet: the first to
 * join ('one'), or all of them ('all'), oldest first. Ties of the same instant go by id, so every
 * process picks the same person.
 */
export function nextInLine<T extends InLine>(candidates: readonly T[], mode: 'one' | 'all'): T[] {
  const ordered = [...candidates].sort(
    (a, b) => a.joinedAt - b.joinedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return mode === 'one' ? ordered.slice(0, 1) : ordered;
}

/** Whether a freed time of a service of this capacity is booked from the line rather than offered. */
export function fillsAutomatically(settings: WaitlistSettings, capacity: number): boolean {
  return settings.autoFillGroupSeats && capacity > 1;
}

/** The end of an offer's hold made at `now`. */
export function heldUntil(now: number, holdMinutes: number): number {
  return now + holdMinutes * 60_000;
}

/** Whether an offer may still be claimed at `now`: open and before its hold ends. */
export function claimable(offer: { state: string; heldUntil: number }, now: number): boolean {
  return offer.state === 'open' && now < offer.heldUntil;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The windows of a join, checked: each a real date and from < to (HH:MM, 24 h; "24:00" is not a
 * time, a window to midnight ends at "23:59"), at most five, none when any_time. Field errors are
 * named `windows.N.field`, like the API's other nested fields.
 */
export function checkWindows(
  windows: readonly { date?: unknown; from?: unknown; to?: unknown }[] | undefined,
  anyTime: boolean,
): { windows: WaitlistWindowJson[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const issues: Record<string, FieldIssue> = {};
  const refuse = (field: string, message: string, issue: FieldIssue) => {
    errors[field] = [message];
    issues[field] = issue;
  };
  const list = windows ?? [];
  if (!anyTime && list.length === 0) {
    refuse('windows', 'Give at least one wanted time, or any_time.', ruleIssue('waitlist_need_time'));
  }
  if (list.length > MAX_WINDOWS) {
    refuse(
      'windows',
      `At most ${MAX_WINDOWS} wanted times.`,
      ruleIssue('waitlist_too_many', { max: MAX_WINDOWS }),
    );
  }
  const checked: WaitlistWindowJson[] = [];
  list.slice(0, MAX_WINDOWS).forEach((w, index) => {
    const { date, from, to } = w;
    if (typeof date !== 'string' || !DATE.test(date) || !DateTime.fromISO(date).isValid) {
      refuse(
        `windows.${index}.date`,
        'The date must be a date (YYYY-MM-DD).',
        ruleIssue('schedule_date_not_a_date'),
      );
      return;
    }
    if (typeof from !== 'string' || !TIME.test(from)) {
      refuse(`windows.${index}.from`, 'The time must be HH:MM.', ruleIssue('time_not_a_time'));
      return;
    }
    if (typeof to !== 'string' || !TIME.test(to)) {
      refuse(`windows.${index}.to`, 'The time must be HH:MM.', ruleIssue('time_not_a_time'));
      return;
    }
    if (from >= to) {
      refuse(`windows.${index}.to`, 'The end must be after the start.', ruleIssue('end_after_start'));
      return;
    }
    checked.push({ date, from, to });
  });
  return { windows: anyTime ? [] : checked, errors: withIssues(errors, issues) };
}

/**
 * The instants to look for a time in, for an entry, when a staffer's hours changed: from the
 * start of its first wanted date to the end of its last (in the location's zone, whole days, so a
 * day of 23 or 25 hours is covered), within [earliest, latest] (the notice and the horizon).
 * Any time: all of [earliest, latest]. Undefined when nothing is left.
 */
export function searchSpan(
  wanted: Pick<WantedTimes, 'anyTime' | 'windows'>,
  zone: string,
  earliest: number,
  latest: number,
): { lower: number; upper: number } | undefined {
  let lower = earliest;
  let upper = latest;
  if (!wanted.anyTime) {
    const dates = wanted.windows.map((w) => w.date).sort();
    if (dates.length === 0) return undefined;
    const first = DateTime.fromISO(dates[0]!, { zone }).startOf('day');
    const afterLast = DateTime.fromISO(dates[dates.length - 1]!, { zone })
      .plus({ days: 1 })
      .startOf('day');
    if (!first.isValid || !afterLast.isValid) return undefined;
    lower = Math.max(earliest, first.toMillis());
    upper = Math.min(latest, afterLast.toMillis() - 1);
  }
  return lower <= upper ? { lower, upper } : undefined;
}

/**
 * Of the free starts the slot engine found with a staffer (ascending), those that suit the
 * entry and are neither held by an open offer nor were offered to this entry before, earliest
 * first: the times to offer it, in the order to try them.
 */
export function openedStartsFor(
  free: readonly number[],
  wanted: WantedTimes,
  stafferId: string,
  zone: string,
  skip: { held: ReadonlySet<number>; offeredBefore: ReadonlySet<number> },
): number[] {
  return free.filter(
    (start) =>
      !skip.held.has(start) && !skip.offeredBefore.has(start) && suits(wanted, start, stafferId, zone),
  );
}
