import { setImmediate } from 'node:timers/promises';
import { createEvent, createEvents, type EventAttributes } from 'ics';
import type { BookingView } from '../bookings/bookings.repository.js';
import { BoundedCache } from '../slots/bounded-cache.js';

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
 * Bookings as RFC 5545 calendars (the `ics` library writes, folds, escapes and validates them):
 * one booking as the manage link's `.ics` download, many as a staffer's calendar feed
 * (src/calendar-feeds). Times are UTC (`...Z`), so every calendar places the booked instant
 * right whatever its zone and across DST changes; the UID is the booking's uuid at the app's host,
 * the same in the download and in the feeds, stable through reschedules, so a calendar updates
 * the event instead of adding a second one; SEQUENCE is the booking's revision.
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
    // The booking's revision, as the emailed invitations carry it: a calendar that has both sees one event.
    sequence: booking.event_sequence,
    ...fields,
  } as UtcEvent;
}

function write(events: UtcEvent[], header: { productId: string; calName?: string }): string {
  const result = createEvents(events as EventAttributes[], { ...header, method: 'PUBLISH' });
  if (result.error || !result.value) throw result.error ?? new Error('calendar file not written');
  return result.value;
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

/** The customer's file of one booking (the manage link's `calendar.ics`). */
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

/** A booking as written into its staffer's own calendar (src/calendar-sync, bookings out). */
export interface StaffCalendarBooking {
  id: string;
  start_time: Date;
  end_time: Date;
  canceled: boolean;
  event_sequence: number;
  services: string[];
  /** Empty unless the staffer's connection allows the customer's name in events. */
  customerFirstName: string;
  location: string;
}

/**
 * The one-event calendar object Kairos puts into a staffer's calendar. The UID starts with
 * `uidPrefix` (the prefix the busy reading skips: the booking already blocks the time) and is
 * stable through reschedules, so an update replaces the same event. The event carries only the
 * services, the customer's first name when allowed, the location, and the panel's link: a
 * calendar shared with others tells no more of the customer.
 */
export function staffCalendarEventFile(
  booking: StaffCalendarBooking,
  args: { uidPrefix: string; host: string; panelUrl: string },
): string {
  const services = booking.services.join(', ');
  const event = {
    productId: 'kairos/calendar-sync',
    uid: `${args.uidPrefix}${booking.id}@${args.host}`,
    start: booking.start_time.getTime(),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: booking.end_time.getTime(),
    endInputType: 'utc',
    endOutputType: 'utc',
    title: booking.customerFirstName ? `${services} · ${booking.customerFirstName}` : services,
    location: booking.location,
    url: args.panelUrl,
    description: args.panelUrl,
    status: booking.canceled ? 'CANCELLED' : 'CONFIRMED',
    sequence: booking.event_sequence,
  } as EventAttributes;
  const result = createEvent(event);
  if (result.error || !result.value) throw result.error ?? new Error('calendar file not written');
  // The library always writes an iTIP METHOD; a CalDAV calendar object must not carry one
  // (RFC 4791 §4.1), and strict servers refuse it.
  return result.value.replace(/^METHOD:[^\r\n]*\r?\n/m, '');
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

/** An event's text, and whether it was formatted now (not found among the texts of earlier polls). */
function eventText(event: UtcEvent): { text: string; formatted: boolean } {
  const key = JSON.stringify(event);
  const cached = eventTexts.get(key);
  if (cached) return { text: cached.text, formatted: false };
  // The library's own VEVENT, cut out of a one-event calendar.
  const file = write([event], { productId: 'kairos/calendar-feed' });
  const entry = { text: file.slice(file.indexOf('BEGIN:VEVENT\r\n'), file.lastIndexOf('END:VCALENDAR')) };
  eventTexts.set(key, entry);
  return { text: entry.text, formatted: true };
}

/**
 * Events formatted between two turns of the event loop. A first poll of a full feed (5,000
 * events, about a millisecond each) would otherwise hold the server for seconds; in turns of 25
 * it holds it for tens of milliseconds at a time, and other requests go on in between.
 */
const EVENTS_PER_TURN = 25;

/**
 * A calendar feed: the bookings of one staffer (docs/calendar-feeds.md). It is read by the
 * staff, so an event names the customer and how to reach them; its URL is the only key.
 */
export async function calendarFeedFile(
  bookings: FeedBooking[],
  args: { name: string; host: string },
): Promise<string> {
  const events: string[] = [];
  let formatted = 0;
  for (const booking of bookings) {
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
    const event = eventText(
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
    events.push(event.text);
    if (event.formatted && ++formatted % EVENTS_PER_TURN === 0) await setImmediate();
  }
  // The calendar around them (header with the feed's name, footer), as the library writes it.
  const shell = write([], { productId: 'kairos/calendar-feed', calName: args.name });
  const footer = shell.lastIndexOf('END:VCALENDAR');
  // RFC 5545 §3.4 asks a calendar for at least one component; an empty feed gets the UTC zone
  // (all times here are UTC), which no calendar shows.
  const components = events.length > 0 ? events.join('') : UTC_ZONE;
  return shell.slice(0, footer) + components + shell.slice(footer);
}

/** A VTIMEZONE for UTC (RFC 5545 §3.6.5): the component of an otherwise empty calendar. */
const UTC_ZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:UTC',
  'BEGIN:STANDARD',
  'DTSTART:19700101T000000',
  'TZOFFSETFROM:+0000',
  'TZOFFSETTO:+0000',
  'TZNAME:UTC',
  'END:STANDARD',
  'END:VTIMEZONE',
  '',
].join('\r\n');
