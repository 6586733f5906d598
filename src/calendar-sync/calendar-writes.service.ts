import { staffCalendarEventFile } from '../calendar-feeds/calendar-file.js';
import type { OutboxEvent } from '../outbox/outbox.repository.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { type ConnectionRow, findConnection } from './calendar-sync.repository.js';
import { type CalendarDeps, connectionProvider, OWN_UID_PREFIX } from './calendar-sync.service.js';
import {
  type BookingEventRow,
  type BookingWriteFacts,
  bookingsWithCalendarTarget,
  bookingWriteFacts,
  type ClaimedWrite,
  deleteBookingEvent,
  eventsNamingCustomer,
  failWrite,
  findBookingEvent,
  finishWrite,
  queueCalendarWrites,
  queueRewrite,
  saveBookingEvent,
} from './calendar-writes.repository.js';
import { type CalendarProvider, CalendarProviderError } from './providers/calendar-provider.js';

/** What sending a booking's calendar write needs beyond the sync's deps. */
export interface CalendarWriteDeps extends CalendarDeps {
  /** The app's public address: the event's link to the booking in the panel, the UID's host. */
  linkBase: string;
  /** The provider of a connection (tests count its calls); default: CalDAV with the sealed password. */
  providerOf?: (row: ConnectionRow) => CalendarProvider;
}

/** Attempts of one write before it is given up (about eight hours of backoff). */
export const MAX_WRITE_ATTEMPTS = 10;
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 4 * 60 * 60_000;

/** The wait before attempt `attempts + 1` of a failed write: 1, 2, 4, ... minutes, at most 4 hours. */
export function writeRetryDelay(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/**
 * In the dispatch transaction: one queued write per booking and the last revision of its events
 * in this batch (the worker writes the booking as it is then, so one write covers the batch). A
 * redelivered event has the same revision and queues nothing. Bookings whose staffer has no write
 * calendar, and that have no event in any calendar, queue nothing.
 */
export async function queueBookingWrites(
  tx: Tx,
  workspaceId: string,
  events: OutboxEvent[],
  now: number,
): Promise<void> {
  const last = new Map<string, number>();
  for (const event of events) {
    if (event.booking_id === null) continue;
    last.set(event.booking_id, Math.max(last.get(event.booking_id) ?? 0, event.sequence));
  }
  const targets = await bookingsWithCalendarTarget(tx, workspaceId, [...last.keys()]);
  const writes = [...last]
    .filter(([bookingId]) => targets.has(bookingId))
    .map(([bookingId, revision]) => ({ bookingId, revision }));
  await queueCalendarWrites(tx, workspaceId, writes, new Date(now));
}

/**
 * A customer erased: their bookings' events that name them (only with customer_name_in_events)
 * are queued to be written again, now without the name, in the erasure's transaction.
 */
export async function queueRewritesOfErased(
  tx: Tx,
  workspaceId: string,
  bookingIds: string[],
  now: number,
): Promise<number> {
  const events = await eventsNamingCustomer(tx, workspaceId, bookingIds);
  for (const event of events)
    await queueRewrite(tx, workspaceId, event.booking_id, event.revision, new Date(now));
  return events.length;
}

const objectUrlOf = (calendarUrl: string, bookingId: string) =>
  `${calendarUrl.endsWith('/') ? calendarUrl : `${calendarUrl}/`}${OWN_UID_PREFIX}${bookingId}.ics`;

/**
 * PUT with a retry on 412: the object changed (or appeared) outside since its ETag was stored. Its
 * ETag is read again and the write tried once more; it overwrites the outside edit (reading such
 * edits back is not built), and a second 412 is a failure of this attempt.
 */
async function putEvent(
  provider: CalendarProvider,
  url: string,
  ics: string,
  etag: string | null,
): Promise<string | null> {
  try {
    return (await provider.put(url, ics, etag)).etag;
  } catch (error) {
    if (!(error instanceof CalendarProviderError) || error.kind !== 'precondition') throw error;
    const current = await provider.get(url);
    return (await provider.put(url, ics, current?.etag ?? null)).etag;
  }
}

/** DELETE with If-Match, and on 412 once more with the ETag read again. */
async function removeEvent(provider: CalendarProvider, url: string, etag: string | null): Promise<void> {
  try {
    await provider.remove(url, etag);
  } catch (error) {
    if (!(error instanceof CalendarProviderError) || error.kind !== 'precondition') throw error;
    const current = await provider.get(url);
    if (current) await provider.remove(url, current.etag);
  }
}

function providerOf(deps: CalendarWriteDeps, row: ConnectionRow): CalendarProvider {
  return deps.providerOf ? deps.providerOf(row) : connectionProvider(deps, row);
}

/**
 * Brings a booking's event in its staffer's calendar to the booking as it is now: written (first
 * with If-None-Match: *, then If-Match: its ETag) while the booking stands and its staffer has a
 * write calendar; removed from the calendar it is in when the booking is canceled or gone, moved
 * to another staffer, or that staffer's write calendar changed. A write whose revision the
 * calendar already shows sends nothing.
 */
async function sendBookingWrite(deps: CalendarWriteDeps, write: ClaimedWrite): Promise<void> {
  const workspaceId = write.workspace_id;
  const booking = await bookingWriteFacts(deps.db, workspaceId, write.booking_id);
  const existing = await findBookingEvent(deps.db, workspaceId, write.booking_id);
  if (existing && existing.revision >= write.revision && !write.rewrite) return;
  // A rental has no staffer, so no staffer's calendar to write it to (docs/resources.md "Rentals").
  const connection =
    booking && !booking.canceled && booking.staffer_id !== null
      ? await findConnection(deps.db, workspaceId, booking.staffer_id)
      : undefined;
  const target =
    booking && connection?.write_calendar
      ? { connection, url: objectUrlOf(connection.write_calendar, booking.id) }
      : null;
  const now = new Date(deps.clock.now());
  if (existing && (!target || existing.href !== target.url)) {
    const old = await findConnection(deps.db, workspaceId, existing.staffer_id);
    if (old) await removeEvent(providerOf(deps, old), existing.href, existing.etag);
    await deleteBookingEvent(deps.db, workspaceId, write.booking_id);
  }
  if (!target || !booking || booking.staffer_id === null) return;
  const etag = existing && existing.href === target.url ? existing.etag : null;
  const ics = eventFile(deps, booking, target.connection);
  const written = await putEvent(providerOf(deps, target.connection), target.url, ics, etag);
  const row: BookingEventRow = {
    staffer_id: booking.staffer_id,
    href: target.url,
    etag: written,
    revision: write.revision,
  };
  await saveBookingEvent(deps.db, workspaceId, booking.id, row, now);
}

function eventFile(deps: CalendarWriteDeps, booking: BookingWriteFacts, connection: ConnectionRow): string {
  const base = deps.linkBase.replace(/\/+$/, '');
  return staffCalendarEventFile(
    {
      ...booking,
      customerFirstName: connection.customer_name_in_events ? booking.customer_first_name : '',
    },
    {
      uidPrefix: OWN_UID_PREFIX,
      host: new URL(base).hostname,
      panelUrl: `${base}/panel/bookings/${booking.id}`,
    },
  );
}

/**
 * Sends one claimed write and records the outcome: done, or retried with backoff, given up after
 * MAX_WRITE_ATTEMPTS. Never thrown: a calendar that fails never holds up a booking or other writes.
 */
export async function runBookingWrite(
  deps: CalendarWriteDeps,
  write: ClaimedWrite,
): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    await sendBookingWrite(deps, write);
    await finishWrite(deps.db, write, new Date(deps.clock.now()));
    return { ok: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const now = deps.clock.now();
    const attempts = write.attempts + 1;
    const retryAt = attempts >= MAX_WRITE_ATTEMPTS ? null : new Date(now + writeRetryDelay(attempts));
    await failWrite(deps.db, write, message, new Date(now), retryAt);
    return { ok: false, error: message };
  }
}
