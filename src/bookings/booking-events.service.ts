import type { EventTypeOf } from '../outbox/event-types.js';
import { recordEvents } from '../outbox/outbox.repository.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import type { HistoryAction } from './booking-history.repository.js';
import { reserveEventSequences } from './bookings.repository.js';

export type BookingEventType = EventTypeOf<'booking'>;

/**
 * Records a booking change's events in the outbox, numbered in the booking's own sequence (the
 * body's `sequence`). Call it inside the change's transaction. Answers the booking's sequence
 * after the change (its revision), or undefined when there were no events.
 */
export async function recordBookingEvents(
  tx: Tx,
  input: {
    workspaceId: string;
    workspaceSlug: string;
    bookingId: string;
    types: BookingEventType[];
    booking: unknown;
    at: Date;
    /** Set when the caller already reserved the numbers (a create inserts the booking with them). */
    firstSequence?: number;
    /**
     * The change these events tell of, kept on the last of them: the email handler plans the
     * change's emails from it (src/notifications/outbox-handler.ts). Null: events that email no
     * one (the test helpers' made-up bookings).
     */
    change: HistoryAction | null;
  },
): Promise<number | undefined> {
  const count = input.types.length;
  if (count === 0) return undefined;
  const first =
    input.firstSequence ?? (await reserveEventSequences(tx, input.workspaceId, input.bookingId, count));
  await recordEvents(tx, {
    workspaceId: input.workspaceId,
    workspaceSlug: input.workspaceSlug,
    at: input.at,
    subject: { kind: 'booking', id: input.bookingId, data: input.booking },
    events: input.types.map((type, index) => ({ type, sequence: first + index })),
    change: input.change,
  });
  return first + count - 1;
}
