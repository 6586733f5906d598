import {
  addDays,
  formatMinutes,
  localDateOf,
  wallMinutesOf,
  weekdayOf,
  zoneLabelAt,
} from '../../platform/time/zone.js';
import type { BookingView } from '../bookings.repository.js';

const DAY: Record<string, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};

/**
 * A booking's time as the panel's lists print it, in its location's zone:
 * "Tue 2026-09-08 10:00–11:00" and the zone's short name then ("CEST").
 */
export function bookingWhen(
  view: Pick<BookingView, 'start_time' | 'end_time' | 'timezone'>,
  /** The reader's Intl locale for the weekday; without it, the English abbreviation. */
  locale?: string,
) {
  const start = view.start_time.getTime();
  const end = view.end_time.getTime();
  const zone = view.timezone;
  const date = localDateOf(start, zone);
  const endDate = localDateOf(end, zone);
  const to = formatMinutes(wallMinutesOf(end, zone));
  const next = addDays(date, 1);
  // Midnight after the day reads 24:00; a booking running on into the next day says so.
  const until = endDate === date ? to : endDate === next && to === '00:00' ? '24:00' : `${to} (${endDate})`;
  return {
    date,
    text: `${locale ? weekdayName(date, locale) : DAY[weekdayOf(date)]} ${date} ${formatMinutes(wallMinutesOf(start, zone))}–${until}`,
    zone: zoneLabelAt(zone, start).short || zone,
  };
}

const weekdays = new Map<string, Intl.DateTimeFormat>();

/** A date's short weekday in `locale` ("Di.", "mar."). */
function weekdayName(date: string, locale: string): string {
  let format = weekdays.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
    weekdays.set(locale, format);
  }
  return format.format(new Date(`${date}T12:00:00Z`));
}

export const customerName = (view: {
  customer_first_name: string;
  customer_last_name: string;
  customer_phone: string;
}) => `${view.customer_first_name} ${view.customer_last_name}`.trim() || view.customer_phone;

export const stafferName = (view: { staffer_first_name: string | null; staffer_last_name: string | null }) =>
  `${view.staffer_first_name ?? ''} ${view.staffer_last_name ?? ''}`.trim();

/** What was paid on a booking, in minor units. */
export const paidOn = (view: Pick<BookingView, 'payments'>) =>
  view.payments.reduce((sum, payment) => sum + Number(payment.amount), 0);
