import { createEvent } from 'ics';
import type { BookingView } from '../bookings/bookings.repository.js';

/**
 * The booking as an RFC 5545 calendar file (the `ics` library writes and validates it). Times are
 * UTC (`...Z`), so every calendar shows the booked instant whatever its zone; the UID is the
 * booking's uuid, stable through reschedules, so re-importing updates the event instead of adding
 * a second one; SEQUENCE grows with each change (updated_at).
 */
export function bookingCalendarFile(
  booking: BookingView,
  args: { workspaceName: string; location: string; host: string; manageUrl: string },
): string {
  const utc = (date: Date) => date.getTime();
  const result = createEvent({
    productId: 'kairos/booking-page',
    uid: `${booking.id}@${args.host}`,
    start: utc(booking.start_time),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: utc(booking.end_time),
    endInputType: 'utc',
    endOutputType: 'utc',
    title: `${booking.lines.map((line) => line.name).join(', ')} · ${args.workspaceName}`,
    location: args.location,
    url: args.manageUrl,
    description: args.manageUrl,
    status: booking.status_type === 'canceled' ? 'CANCELLED' : 'CONFIRMED',
    sequence:
      Math.floor(booking.updated_at.getTime() / 1000) - Math.floor(booking.created_at.getTime() / 1000),
    method: 'PUBLISH',
  });
  if (result.error || !result.value) throw result.error ?? new Error('calendar file not written');
  return result.value;
}
