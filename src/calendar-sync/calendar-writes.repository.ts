import type { Db } from '../platform/db/client.js';
import type { Tx } from '../platform/db/unit-of-work.js';

/**
 * Of these bookings, those worth a calendar write: the booking's staffer has a connection with a
 * write calendar, or the booking already has an event in a calendar (to move or remove it).
 */
export async function bookingsWithCalendarTarget(
  tx: Tx,
  workspaceId: string,
  bookingIds: string[],
): Promise<Set<string>> {
  if (bookingIds.length === 0) return new Set();
  const writing = await tx
    .selectFrom('bookings as b')
    .innerJoin('calendar_connections as c', (join) =>
      join.onRef('c.workspace_id', '=', 'b.workspace_id').onRef('c.staffer_id', '=', 'b.staffer_id'),
    )
    .select('b.id')
    .where('b.workspace_id', '=', workspaceId)
    .where('b.id', 'in', bookingIds)
    .where('c.write_calendar', 'is not', null)
    .execute();
  const written = await tx
    .selectFrom('calendar_booking_events')
    .select('booking_id as id')
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', 'in', bookingIds)
    .execute();
  return new Set([...writing, ...written].map((row) => row.id));
}

/** Queues one write per (booking, revision); a revision already queued is left as it is. */
export async function queueCalendarWrites(
  tx: Tx,
  workspaceId: string,
  writes: { bookingId: string; revision: number }[],
  now: Date,
): Promise<void> {
  if (writes.length === 0) return;
  await tx
    .insertInto('calendar_writes')
    .values(
      writes.map((write) => ({
        workspace_id: workspaceId,
        booking_id: write.bookingId,
        revision: write.revision,
        next_attempt_at: now,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['workspace_id', 'booking_id', 'revision']).doNothing())
    .execute();
}

export interface ClaimedWrite {
  workspace_id: string;
  booking_id: string;
  revision: number;
  attempts: number;
  /** Sent even when the calendar already shows this revision (migration 0036). */
  rewrite?: boolean;
}

/**
 * Claims due writes: a plain read of candidates, then one keyed conditional update each that
 * moves next_attempt_at on by the lease (no row lock across shards). Only the process whose
 * update matched sends the write; one that dies leaves it to be claimed again after the lease.
 */
export async function claimDueWrites(
  db: Db,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<ClaimedWrite[]> {
  const due = await db
    .selectFrom('calendar_writes')
    .select(['workspace_id', 'booking_id', 'revision', 'attempts', 'rewrite'])
    .where('done_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  const claimed: ClaimedWrite[] = [];
  for (const row of due) {
    const result = await db
      .updateTable('calendar_writes')
      .set({ next_attempt_at: new Date(now.getTime() + leaseMs) })
      .where('workspace_id', '=', row.workspace_id)
      .where('booking_id', '=', row.booking_id)
      .where('revision', '=', row.revision)
      .where('done_at', 'is', null)
      .where('next_attempt_at', '<=', now)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) claimed.push(row);
  }
  return claimed;
}

export async function finishWrite(db: Db, write: ClaimedWrite, now: Date): Promise<void> {
  await db
    .updateTable('calendar_writes')
    .set({ done_at: now, attempts: write.attempts + 1, last_error: null })
    .where('workspace_id', '=', write.workspace_id)
    .where('booking_id', '=', write.booking_id)
    .where('revision', '=', write.revision)
    .execute();
}

/** A failed attempt: tried again at `retryAt`, or given up (done, with the error) when null. */
export async function failWrite(
  db: Db,
  write: ClaimedWrite,
  error: string,
  now: Date,
  retryAt: Date | null,
): Promise<void> {
  await db
    .updateTable('calendar_writes')
    .set({
      attempts: write.attempts + 1,
      last_error: error,
      ...(retryAt ? { next_attempt_at: retryAt } : { done_at: now }),
    })
    .where('workspace_id', '=', write.workspace_id)
    .where('booking_id', '=', write.booking_id)
    .where('revision', '=', write.revision)
    .execute();
}

/** What a booking's calendar event shows: null when the booking is gone. */
export interface BookingWriteFacts {
  id: string;
  /** null: a rental, which no staffer's calendar shows (docs/resources.md "Rentals"). */
  staffer_id: string | null;
  start_time: Date;
  end_time: Date;
  canceled: boolean;
  event_sequence: number;
  customer_first_name: string;
  services: string[];
  location: string;
}

export async function bookingWriteFacts(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<BookingWriteFacts | null> {
  const row = await db
    .selectFrom('bookings as b')
    .innerJoin('booking_statuses as st', (join) =>
      join.onRef('st.workspace_id', '=', 'b.workspace_id').onRef('st.id', '=', 'b.status_id'),
    )
    .innerJoin('customers as cu', (join) =>
      join.onRef('cu.workspace_id', '=', 'b.workspace_id').onRef('cu.id', '=', 'b.customer_id'),
    )
    .innerJoin('locations as l', (join) =>
      join.onRef('l.workspace_id', '=', 'b.workspace_id').onRef('l.id', '=', 'b.location_id'),
    )
    .select([
      'b.id',
      'b.staffer_id',
      'b.start_time',
      'b.end_time',
      'b.event_sequence',
      'st.type as status_type',
      'cu.first_name as customer_first_name',
      'l.name as location_name',
      'l.address_1',
      'l.city',
    ])
    .where('b.workspace_id', '=', workspaceId)
    .where('b.id', '=', bookingId)
    .executeTakeFirst();
  if (!row) return null;
  const lines = await db
    .selectFrom('booking_services')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .orderBy('id')
    .execute();
  return {
    id: row.id,
    staffer_id: row.staffer_id,
    start_time: new Date(row.start_time),
    end_time: new Date(row.end_time),
    canceled: row.status_type === 'canceled',
    event_sequence: row.event_sequence,
    customer_first_name: row.customer_first_name ?? '',
    services: lines.map((line) => line.name),
    location: [row.location_name, row.address_1, row.city].filter(Boolean).join(', '),
  };
}

export interface BookingEventRow {
  staffer_id: string;
  href: string;
  etag: string | null;
  revision: number;
}

export async function findBookingEvent(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<BookingEventRow | undefined> {
  return db
    .selectFrom('calendar_booking_events')
    .select(['staffer_id', 'href', 'etag', 'revision'])
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .executeTakeFirst();
}

export async function saveBookingEvent(
  db: Db,
  workspaceId: string,
  bookingId: string,
  event: BookingEventRow,
  now: Date,
): Promise<void> {
  // The event now shows the booking: an outside edit that waited is overwritten, so it no longer waits.
  const cleared = { outside_change: null, outside_start: null, outside_end: null, outside_seen_at: null };
  await db
    .insertInto('calendar_booking_events')
    .values({ workspace_id: workspaceId, booking_id: bookingId, ...event, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'booking_id']).doUpdateSet({ ...event, ...cleared, updated_at: now }),
    )
    .execute();
}

export async function deleteBookingEvent(db: Db, workspaceId: string, bookingId: string): Promise<void> {
  await db
    .deleteFrom('calendar_booking_events')
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .execute();
}

/** A booking's event as the read-back compares it: the stored ETag and the booking's times now. */
export interface WrittenEventFacts {
  booking_id: string;
  href: string;
  etag: string | null;
  outside_change: 'moved' | 'deleted' | null;
  outside_start: Date | null;
  start_time: Date;
  end_time: Date;
  status_type: string;
}

/** The events Kairos wrote for a staffer's bookings at these object URLs. */
export async function writtenEventsAt(
  db: Db,
  workspaceId: string,
  stafferId: string,
  hrefs: string[],
): Promise<WrittenEventFacts[]> {
  if (hrefs.length === 0) return [];
  const rows: WrittenEventFacts[] = [];
  for (let i = 0; i < hrefs.length; i += 500) {
    rows.push(
      ...(await db
        .selectFrom('calendar_booking_events as e')
        .innerJoin('bookings as b', (join) =>
          join.onRef('b.workspace_id', '=', 'e.workspace_id').onRef('b.id', '=', 'e.booking_id'),
        )
        .innerJoin('booking_statuses as st', (join) =>
          join.onRef('st.workspace_id', '=', 'b.workspace_id').onRef('st.id', '=', 'b.status_id'),
        )
        .select([
          'e.booking_id',
          'e.href',
          'e.etag',
          'e.outside_change',
          'e.outside_start',
          'b.start_time',
          'b.end_time',
          'st.type as status_type',
        ])
        .where('e.workspace_id', '=', workspaceId)
        .where('e.staffer_id', '=', stafferId)
        .where('e.href', 'in', hrefs.slice(i, i + 500))
        .execute()),
    );
  }
  return rows;
}

/** Records (or clears, with null) the outside edit waiting on a booking's event. */
export async function setOutsideChange(
  tx: Tx,
  workspaceId: string,
  bookingId: string,
  change: { kind: 'moved' | 'deleted'; start: Date | null; end: Date | null } | null,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('calendar_booking_events')
    .set({
      outside_change: change?.kind ?? null,
      outside_start: change?.start ?? null,
      outside_end: change?.end ?? null,
      outside_seen_at: change ? now : null,
    })
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .execute();
}

export function clearOutsideChange(tx: Tx, workspaceId: string, bookingId: string): Promise<void> {
  return setOutsideChange(tx, workspaceId, bookingId, null, new Date(0));
}

/** The outside edit waiting on a booking, with the staffer whose calendar it is in; undefined when none. */
export async function findOutsideChange(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<
  | {
      staffer_id: string;
      outside_change: 'moved' | 'deleted';
      outside_start: Date | null;
      outside_end: Date | null;
      revision: number;
    }
  | undefined
> {
  const row = await db
    .selectFrom('calendar_booking_events')
    .select(['staffer_id', 'outside_change', 'outside_start', 'outside_end', 'revision'])
    .where('workspace_id', '=', workspaceId)
    .where('booking_id', '=', bookingId)
    .where('outside_change', 'is not', null)
    .executeTakeFirst();
  return row?.outside_change ? { ...row, outside_change: row.outside_change } : undefined;
}

/**
 * The bookings of a workspace with an outside edit waiting (the panel calendar marks them): few
 * at any time, so one read of them all instead of a list of the week's bookings.
 */
export async function bookingsWithOutsideChange(db: Db, workspaceId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('calendar_booking_events')
    .select('booking_id')
    .where('workspace_id', '=', workspaceId)
    .where('outside_change', 'is not', null)
    .execute();
  return new Set(rows.map((row) => row.booking_id));
}

/**
 * Queues a write that puts a booking's event back as the booking has it, even though the calendar
 * already shows its revision (an outside edit ignored, a customer's name erased). A row of that
 * revision already there is sent again; the values come from the proposed row (Citus refuses a
 * function such as now() in DO UPDATE SET).
 */
export async function queueRewrite(
  tx: Tx,
  workspaceId: string,
  bookingId: string,
  revision: number,
  now: Date,
): Promise<void> {
  await tx
    .insertInto('calendar_writes')
    .values({
      workspace_id: workspaceId,
      booking_id: bookingId,
      revision,
      next_attempt_at: now,
      created_at: now,
      rewrite: true,
    })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'booking_id', 'revision']).doUpdateSet((eb) => ({
        rewrite: eb.ref('excluded.rewrite'),
        attempts: 0,
        last_error: null,
        done_at: null,
        next_attempt_at: eb.ref('excluded.next_attempt_at'),
      })),
    )
    .execute();
}

/**
 * Of these bookings, the events written with the customer's first name in them: the staffer's
 * connection names customers (customer_name_in_events) and the event is in a calendar now.
 */
export async function eventsNamingCustomer(
  tx: Tx,
  workspaceId: string,
  bookingIds: string[],
): Promise<{ booking_id: string; revision: number }[]> {
  if (bookingIds.length === 0) return [];
  return tx
    .selectFrom('calendar_booking_events as e')
    .innerJoin('calendar_connections as c', (join) =>
      join.onRef('c.workspace_id', '=', 'e.workspace_id').onRef('c.staffer_id', '=', 'e.staffer_id'),
    )
    .select(['e.booking_id', 'e.revision'])
    .where('e.workspace_id', '=', workspaceId)
    .where('e.booking_id', 'in', bookingIds)
    .where('c.customer_name_in_events', '=', true)
    .execute();
}
