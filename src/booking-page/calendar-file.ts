import { createEvent, type EventAttributes } from 'ics';
import type { BookingView } from '../bookings/bookings.repository.js';

/** One booking as a calendar event: what the manage page's download and the emails' attachments share. */
export interface BookingEvent {
  bookingId: string;
  /** The right-hand side of the UID (PUBLIC_URL's host). */
  host: string;
  start: number;
  end: number;
  title: string;
  location: string;
  manageUrl: string | null;
  canceled: boolean;
  /** The booking's revision: calendars apply an update only when it is higher than what they have. */
  sequence: number;
  /** PUBLISH for a download; REQUEST (new or changed) or CANCEL in an email (RFC 5546). */
  method: 'PUBLISH' | 'REQUEST' | 'CANCEL';
  /** iTIP (REQUEST, CANCEL) names who sends the invitation and who gets it. */
  organizer?: { name: string; email: string };
  attendee?: { name: string; email: string };
}

/**
 * A booking as an RFC 5545 calendar file (the `ics` library writes and validates it). Times are
 * UTC (`...Z`), so every calendar shows the booked instant whatever its zone; the UID is the
 * booking's uuid, stable through reschedules, so re-importing (or an emailed update) updates the
 * event instead of adding a second one; SEQUENCE is the booking's revision.
 */
export function bookingEventFile(event: BookingEvent): string {
  const attributes: EventAttributes = {
    productId: 'kairos/booking-page',
    uid: `${event.bookingId}@${event.host}`,
    start: event.start,
    startInputType: 'utc',
    startOutputType: 'utc',
    end: event.end,
    endInputType: 'utc',
    endOutputType: 'utc',
    title: event.title,
    location: event.location,
    ...(event.manageUrl ? { url: event.manageUrl, description: event.manageUrl } : {}),
    status: event.canceled ? 'CANCELLED' : 'CONFIRMED',
    sequence: event.sequence,
    method: event.method,
    ...(event.organizer ? { organizer: event.organizer } : {}),
    ...(event.attendee
      ? {
          attendees: [
            { ...event.attendee, rsvp: false, partstat: 'ACCEPTED', role: 'REQ-PARTICIPANT' } as const,
          ],
        }
      : {}),
  };
  const result = createEvent(attributes);
  if (result.error || !result.value) throw result.error ?? new Error('calendar file not written');
  return result.value;
}

/** The manage page's download (METHOD:PUBLISH). */
export function bookingCalendarFile(
  booking: BookingView,
  args: { workspaceName: string; location: string; host: string; manageUrl: string },
): string {
  return bookingEventFile({
    bookingId: booking.id,
    host: args.host,
    start: booking.start_time.getTime(),
    end: booking.end_time.getTime(),
    title: `${booking.lines.map((line) => line.name).join(', ')} · ${args.workspaceName}`,
    location: args.location,
    manageUrl: args.manageUrl,
    canceled: booking.status_type === 'canceled',
    sequence: booking.event_sequence,
    method: 'PUBLISH',
  });
}
