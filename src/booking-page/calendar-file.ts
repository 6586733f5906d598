import { createEvents, type EventAttributes } from 'ics';
import type { BookingView } from '../bookings/bookings.repository.js';
import { BoundedCache } from '../slots/bounded-cache.js';

/**
 * Bookings as RFC 5545 calendars (the `ics` library writes, folds, escapes and validates them):
 * one booking as the manage link's `.ics` download, many as a staffer's calendar feed
 * (src/calendar-feeds). Times are UTC (`...Z`), so every calendar places the booked instant
 * right whatever its zone and across DST changes; the UID is the booking's uuid at the app's host,
 * the same in the download and in the feeds, stable through reschedules, so a calendar updates
 * the event instead of adding a second one; SEQUENCE grows with each change (updated_at).
 */
type UtcEvent = Omit<EventAttributes, 'start' | 'end' | 'duration'> & {
  start: number;
  end: number;
};

function bookingEvent(booking: BookingView, host: string, fields: Partial<EventAttributes>): UtcEvent {
  return {
    uid: `${booking.id}@${host}`,
    start: booking.start_time.getTime(),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: booking.end_time.getTime(),
    endInputType: 'utc',
    endOutputType: 'utc',
    status: booking.status_type === 'canceled' ? 'CANCELLED' : 'CONFIRMED',
    sequence:
      Math.floor(booking.updated_at.getTime() / 1000) - Math.floor(booking.created_at.getTime() / 1000),
    ...fields,
  } as UtcEvent;
}

function write(events: UtcEvent[], header: { productId: string; calName?: string }): string {
  const result = createEvents(events as EventAttributes[], { ...header, method: 'PUBLISH' });
  if (result.error || !result.value) throw result.error ?? new Error('calendar file not written');
  return result.value;
}

/** The customer's file of one booking (the manage link's `calendar.ics`). */
export function bookingCalendarFile(
  booking: BookingView,
  args: { workspaceName: string; location: string; host: string; manageUrl: string },
): string {
  return write(
    [
      bookingEvent(booking, args.host, {
        title: `${booking.lines.map((line) => line.name).join(', ')} · ${args.workspaceName}`,
        location: args.location,
        url: args.manageUrl,
        description: args.manageUrl,
      }),
    ],
    { productId: 'kairos/booking-page' },
  );
}

/** A booking as its staff sees it in a feed: who comes, for what, and where. */
export interface FeedBooking extends BookingView {
  location_name: string;
  location_address: string;
  location_city: string;
}

/**
 * Each feed event's text, by everything it is made of. The `ics` library validates every event
 * (yup) and formats it: about a millisecond per event, so a feed of a few hundred bookings would
 * hold the event loop for a noticeable time on every calendar poll. An event's text depends only on
 * its attributes, so a poll formats only the bookings that changed since the last one (DTSTAMP is
 * when the text was made; LAST-MODIFIED the booking's last change). 8 MB of texts at most.
 */
const eventTexts = new BoundedCache<{ text: string }>(8 * 1024 * 1024, (entry) => entry.text.length * 2);

function eventText(event: UtcEvent): string {
  const key = JSON.stringify(event);
  let entry = eventTexts.get(key);
  if (!entry) {
    // The library's own VEVENT, cut out of a one-event calendar.
    const file = write([event], { productId: 'kairos/calendar-feed' });
    entry = { text: file.slice(file.indexOf('BEGIN:VEVENT\r\n'), file.lastIndexOf('END:VCALENDAR')) };
    eventTexts.set(key, entry);
  }
  return entry.text;
}

/**
 * A calendar feed: the bookings of one staffer (docs/calendar-feeds.md). It is read by the
 * staff, so an event names the customer and how to reach them; its URL is the only key.
 */
export function calendarFeedFile(bookings: FeedBooking[], args: { name: string; host: string }): string {
  const events = bookings.map((booking) => {
    const customer = [booking.customer_first_name, booking.customer_last_name]
      .filter((part) => part !== '')
      .join(' ');
    const services = booking.lines.map((line) => line.name).join(', ');
    const details = [
      customer && `Customer: ${customer}`,
      `Phone: ${booking.customer_phone}`,
      booking.customer_email && `Email: ${booking.customer_email}`,
      booking.booking_comment && `Comment: ${booking.booking_comment}`,
      `Status: ${booking.status_name}`,
    ].filter(Boolean);
    return eventText(
      bookingEvent(booking, args.host, {
        title: customer ? `${services} · ${customer}` : services,
        location: [booking.location_name, booking.location_address, booking.location_city]
          .filter(Boolean)
          .join(', '),
        description: details.join('\n'),
        created: booking.created_at.getTime(),
        lastModified: booking.updated_at.getTime(),
      }),
    );
  });
  // The calendar around them (header with the feed's name, footer), as the library writes it.
  const shell = write([], { productId: 'kairos/calendar-feed', calName: args.name });
  const footer = shell.lastIndexOf('END:VCALENDAR');
  return shell.slice(0, footer) + events.join('') + shell.slice(footer);
}
