/**
 * Every event type, by the subject it tells of (the public API's four booking
 * events plus booking-created). The outbox owns this list so that every handler reads one
 * vocabulary: webhooks validate subscriptions against it, the email handler picks its types from
 * it, and a service can record only what is listed here (docs/architecture.md "Adding an event
 * type").
 */
export const EVENT_TYPES_BY_SUBJECT = {
  booking: [
    'booking-created',
    'booking-updated',
    'booking-rescheduled',
    'booking-succeeded',
    'booking-canceled',
  ],
  // Money of a booking's order (docs/payments.md): a charge or fee taken, a refund made, a
  // charge or fee that failed. Each movement is its own subject (its payment uuid).
  payment: ['payment-succeeded', 'payment-refunded', 'payment-failed'],
  // A series of recurring bookings (docs/series.md): made, changed (a scope of its occurrences
  // moved, restaffed, given other services, or some canceled), canceled as a whole. Each
  // occurrence still sends its own booking events.
  series: ['series-created', 'series-updated', 'series-canceled'],
  // The waitlist (docs/waitlist.md): a freed time offered to a waiting customer, the offer
  // booked by them, or its hold ended with nobody claiming it.
  waitlist_offer: ['waitlist-offer-created', 'waitlist-offer-claimed', 'waitlist-offer-expired'],
  // A staffer's working hours at a location replaced (docs/schedules.md): the waitlist offers
  // the times that opened. Each change is its own subject (sequence 1), like a payment.
  schedule: ['schedule-updated'],
} as const satisfies Record<string, readonly `${string}-${string}`[]>;

/** What an event is about: the key of the body's `data` ({ booking: ... }). */
export type Subject = keyof typeof EVENT_TYPES_BY_SUBJECT;
export type EventTypeOf<S extends Subject> = (typeof EVENT_TYPES_BY_SUBJECT)[S][number];
export type EventType = EventTypeOf<Subject>;

/** All event types, subject by subject, in the order the lists above give. */
export const EVENT_TYPES: readonly EventType[] = Object.values(EVENT_TYPES_BY_SUBJECT).flat();

/**
 * The JSON body a receiver gets (docs/webhooks.md), plus `sequence`, increasing per subject. `data` holds
 * the subject under its name, as the API presents it.
 */
export interface EventBody<T extends string = EventType> {
  type: T;
  timestamp: string;
  workspace: string;
  sequence: number;
  data: Record<string, unknown>;
}
