import { sql } from 'kysely';
import type { BookingChange } from '../notifications/booking-messages.rules.js';
import type { Db } from '../platform/db/client.js';
import type { Tx } from '../platform/db/unit-of-work.js';

/** DESIGN §3 "Webhook events": SPEC's four plus booking-created. */
export const EVENT_TYPES = [
  'booking-created',
  'booking-updated',
  'booking-rescheduled',
  'booking-succeeded',
  'booking-canceled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The JSON body a receiver gets (DESIGN §3), plus `sequence`, increasing per booking. */
export interface EventBody {
  type: EventType | 'test';
  timestamp: string;
  workspace: string;
  sequence: number;
  data: { booking: unknown };
}

/**
 * Writes a change's events to the outbox. Call it inside the transaction of the change
 * (DESIGN §4.4): the events commit with it or not at all. The booking row's event_sequence is
 * bumped in the same statement, so concurrent changes of one booking get distinct numbers in
 * commit order. Answers the booking's sequence after the change (its revision), or undefined
 * when there were no events.
 */
export async function recordBookingEvents(
  tx: Tx,
  input: {
    workspaceId: string;
    workspaceSlug: string;
    bookingId: string;
    types: EventType[];
    booking: unknown;
    at: Date;
    /** Set when the caller already reserved the numbers (a create inserts the booking with them). */
    firstSequence?: number;
    /**
     * The change these events tell of (booking_history.action), kept on the last of them: the
     * dispatcher plans the change's emails from it (src/webhooks/outbox-dispatch.service.ts).
     * Null: events that email no one (the test helpers' made-up bookings).
     */
    change: BookingChange | null;
  },
): Promise<number | undefined> {
  if (input.types.length === 0) return undefined;
  const first = input.firstSequence ?? (await reserveSequences(tx, input));
  await tx
    .insertInto('outbox_events')
    .values(
      input.types.map((type, index) => {
        const body: EventBody = {
          type,
          timestamp: input.at.toISOString(),
          workspace: input.workspaceSlug,
          sequence: first + index,
          data: { booking: input.booking },
        };
        return {
          workspace_id: input.workspaceId,
          booking_id: input.bookingId,
          type,
          sequence: first + index,
          payload: JSON.stringify(body),
          change: index === input.types.length - 1 ? input.change : null,
        };
      }),
    )
    .execute();
  return first + input.types.length - 1;
}

/** Bumps the booking's event_sequence by the number of events; answers the first one's number. */
async function reserveSequences(
  tx: Tx,
  input: { workspaceId: string; bookingId: string; types: EventType[] },
): Promise<number> {
  const { event_sequence: last } = await tx
    .updateTable('bookings')
    .set({ event_sequence: sql`event_sequence + ${input.types.length}` })
    .where('workspace_id', '=', input.workspaceId)
    .where('id', '=', input.bookingId)
    .returning('event_sequence')
    .executeTakeFirstOrThrow();
  return last - input.types.length + 1;
}

/** What is waiting in the webhook pipeline, across workspaces (the monitoring gauges read it). */
export interface OutboxBacklog {
  /** Outbox events not yet turned into deliveries, and when the oldest was made. */
  undispatched: number;
  oldestUndispatchedAt: Date | null;
  /** Deliveries not yet delivered nor given up (pending or sending), and the oldest one's creation. */
  undelivered: number;
  oldestUndeliveredAt: Date | null;
}

/** One round trip; each part reads a partial index (outbox_events_pending, the delivery state ones). */
export async function readOutboxBacklog(db: Db): Promise<OutboxBacklog> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('outbox_events')
        .where('dispatched_at', 'is', null)
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('undispatched'),
      eb
        .selectFrom('outbox_events')
        .where('dispatched_at', 'is', null)
        .select((e) => e.fn.min('created_at').as('t'))
        .as('oldest_undispatched'),
      eb
        .selectFrom('webhook_deliveries')
        .where('state', 'in', ['pending', 'sending'])
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('undelivered'),
      eb
        .selectFrom('webhook_deliveries')
        .where('state', 'in', ['pending', 'sending'])
        .select((e) => e.fn.min('created_at').as('t'))
        .as('oldest_undelivered'),
    ])
    .executeTakeFirstOrThrow();
  const at = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    undispatched: Number(row.undispatched ?? 0),
    oldestUndispatchedAt: at(row.oldest_undispatched as Date | string | null),
    undelivered: Number(row.undelivered ?? 0),
    oldestUndeliveredAt: at(row.oldest_undelivered as Date | string | null),
  };
}
