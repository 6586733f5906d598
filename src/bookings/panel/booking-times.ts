import type { FieldErrors } from '../../errors.js';
import {
  dateToUtcMs,
  formatMinutes,
  offsetLabel,
  offsetMinutesAt,
  resolveWallTime,
  wallMinutesOf,
} from '../../platform/time/zone.js';
import type { Slot } from '../../slots/engine/types.js';
import type { CANCEL_REASONS } from '../bookings.schemas.js';

/**
 * The panel's dates and times: what a person types (a date, a wall time in the location's zone)
 * and what it shows. The API takes instants; these turn one into the other, DST included.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;
// HH:MM, and in a fall-back hour that shows twice the offset that tells them apart: 02:30+01:00.
const TIME = /^(\d{2}):(\d{2})([+-]\d{2}:\d{2})?$/;

export function isDate(value: string): boolean {
  if (!DATE.test(value) || value < '1970-01-01' || value > '9998-12-31') return false;
  try {
    dateToUtcMs(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant a date and wall time name in `zone`. A time the clocks skip that day (spring
 * forward) is an error naming it; one they show twice (fall back) is its first unless the time
 * carries its offset.
 */
export function wallTimeInstant(
  zone: string,
  date: string,
  time: string,
  /** The form field of the time, which its errors name. */
  timeField = 'time',
): { instant: number; errors?: undefined } | { instant?: undefined; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (!isDate(date)) errors.date = ['Enter a date as YYYY-MM-DD, such as 2026-09-10.'];
  const match = TIME.exec(time.trim());
  const hours = Number(match?.[1]);
  const minutes = Number(match?.[2]);
  if (!match || hours > 23 || minutes > 59) errors[timeField] = ['Enter a time as HH:MM, such as 14:30.'];
  if (Object.keys(errors).length > 0) return { errors };
  const instants = resolveWallTime(zone, date, hours * 60 + minutes);
  if (instants.length === 0) {
    return {
      errors: {
        [timeField]: [
          `${formatMinutes(hours * 60 + minutes)} does not exist on ${date} in ${zone}: the clocks skip ` +
            'that hour for daylight saving time. Choose another time.',
        ],
      },
    };
  }
  const offset = match![3];
  const chosen =
    offset === undefined
      ? instants[0]!
      : instants.find((instant) => offsetLabel(offsetMinutesAt(zone, instant)) === offset);
  if (chosen === undefined)
    return { errors: { [timeField]: [`${time} does not exist on ${date} in ${zone}.`] } };
  return { instant: chosen };
}

/** A slot as a `time` value and its label; a wall time shown twice that day carries its offset. */
export function slotChoices(slots: Slot[]): { value: string; label: string; slot: Slot }[] {
  const counts = new Map<string, number>();
  for (const slot of slots) counts.set(slot.start, (counts.get(slot.start) ?? 0) + 1);
  return slots.map((slot) =>
    (counts.get(slot.start) ?? 0) > 1
      ? { value: `${slot.start}${slot.start_offset}`, label: `${slot.start} (UTC${slot.start_offset})`, slot }
      : { value: slot.start, label: slot.start, slot },
  );
}

/** HH:MM of an instant in the zone. */
export function wallTime(epochMs: number, zone: string): string {
  return formatMinutes(wallMinutesOf(epochMs, zone));
}

/** "Thu, 10 Sep 2026" of an instant in the zone (in `locale`, else as the panel's English has it). */
export function wallDate(epochMs: number, zone: string, locale = 'en-GB'): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: zone,
  }).format(epochMs);
}

/** "Thu, 10 Sep 2026, 14:00" */
export function wallDateTime(epochMs: number, zone: string, locale?: string): string {
  return `${wallDate(epochMs, zone, locale)}, ${wallTime(epochMs, zone)}`;
}

/** Digits after the decimal point of a currency (EUR 2, JPY 0). */
export function currencyDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/** Minor units as a plain decimal for an amount field: 9000 EUR -> "90.00". */
export function decimalOf(minor: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}

/** A typed amount ("90", "90.5", "90,50") in minor units, or undefined when it is not one. */
export function minorOf(text: string, currency: string): number | undefined {
  const digits = currencyDigits(currency);
  const match = /^(\d{1,10})(?:[.,](\d+))?$/.exec(text.trim());
  if (!match || (match[2]?.length ?? 0) > digits) return undefined;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || 0);
}

export const CANCEL_REASON_LABELS: Record<(typeof CANCEL_REASONS)[number], string> = {
  canceled: 'Canceled at the customer’s request',
  didnt_come: 'The customer did not come',
  postponed: 'Postponed',
  wrong_order: 'Booked by mistake',
  spam: 'Spam',
  other: 'Other reason',
  abandoned: 'Abandoned',
  rescheduled: 'Rescheduled as a new booking',
  not_confirmed: 'Not confirmed',
};
