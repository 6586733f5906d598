/**
 * Bookings out to the staffer's own calendar, against a real Radicale: the outbox queues one write
 * per booking revision, the worker puts the event (If-None-Match: *, then If-Match), moves it on a
 * reschedule, removes it on a cancel or a change of staffer, writes once when events are
 * dispatched twice, and gets past an outside edit (412).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, book, bookingBody, change, openStudio, type Studio } from '../../test/bookings/bookings-kit.js';
import { type Radicale, startRadicale } from '../../test/helpers/radicale.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { outboxHandlers } from '../workers.js';
import { openWritePath } from '../write-path.js';
import type { ConnectionRow } from './calendar-sync.repository.js';
import { type CalendarDeps, connectCalendar, connectionProvider } from './calendar-sync.service.js';
import { caldavProvider } from './providers/caldav-provider.js';
import {
  type CalendarProvider,
  CalendarProviderError,
  type ChangedObject,
} from './providers/calendar-provider.js';
import { CalendarWriteWorker } from './write-worker.js';

let s: Studio;
let radicale: Radicale;
let work: string;
let benCal: string;
let deps: CalendarDeps;
const config = {
  secretKey: 'calendar-writes-test-key-0123456789abcdef',
  webhooksAllowPrivate: true,
  databaseUrl: undefined,
  dataDir: '/nonexistent',
};
const warnings: string[] = [];
const logger = {
  info: () => {},
  warn: (_o: unknown, message: string) => {
    warnings.push(message);
  },
  error: () => {},
};
/** Every call the worker makes to a calendar server, as "METHOD url". */
const calls: string[] = [];
/** While set, every PUT fails as an unreachable server would. */
let serverDown = false;

function countingProvider(row: ConnectionRow): CalendarProvider {
  const inner = connectionProvider(deps, row);
  return {
    ...inner,
    put: (url, ics, etag) => {
      calls.push(`PUT ${url}`);
      if (serverDown) return Promise.reject(new CalendarProviderError('unreachable', 'connection refused'));
      return inner.put(url, ics, etag);
    },
    remove: (url, etag) => {
      calls.push(`DELETE ${url}`);
      return inner.remove(url, etag);
    },
    get: (url) => {
      calls.push(`GET ${url}`);
      return inner.get(url);
    },
  };
}

const worker = () =>
  new CalendarWriteWorker({
    ...deps,
    linkBase: 'https://book.example.com',
    providerOf: countingProvider,
    logger,
  });
const dispatch = () => dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1_000);

/** Every object of a calendar as the server has it now. */
async function objects(calendarUrl: string): Promise<ChangedObject[]> {
  const reader = caldavProvider({
    serverUrl: radicale.url,
    username: radicale.user,
    password: radicale.password,
    timeoutMs: 10_000,
    allowPrivate: true,
  });
  return (await reader.changes(calendarUrl, null, new Map())).changed;
}

/** The object of one booking (by its UID), or undefined. */
async function eventOf(calendarUrl: string, bookingId: string): Promise<ChangedObject | undefined> {
  return (await objects(calendarUrl)).find((o) => o.ics.includes(`UID:kairos-booking-${bookingId}@`));
}

/** '2026-09-02T08:00:00Z' as an iCalendar UTC time. */
const icsUtc = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
/** Unfolded content lines of an object (the multistatus XML may have turned CRLF into LF). */
const lines = (ics: string) => ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);

async function queued(bookingId: string) {
  return s.t.db
    .selectFrom('calendar_writes')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('revision')
    .execute();
}

beforeAll(async () => {
  [s, radicale] = await Promise.all([openStudio(), startRadicale()]);
  work = await radicale.makeCalendar('work');
  benCal = await radicale.makeCalendar('ben');
  deps = { db: s.t.db, uow: openWritePath(s.t.db).uow, clock: s.clock, config };
  await connectCalendar(deps, s.t.workspace.id, s.f.anna.id, {
    server_url: radicale.url,
    username: radicale.user,
    password: radicale.password,
    read_calendars: [work],
    write_calendar: work,
    customer_name_in_events: true,
  });
  // Nothing of earlier fixtures waits in the outbox.
  await dispatch();
});
afterAll(async () => {
  await s?.t.close();
  await radicale?.stop();
});

describe('bookings out to the staffer calendar', () => {
  it('a created booking is one event with the stable UID, its times in UTC, the services, the first name and the panel link', async () => {
    const day = s.nextDay();
    const booking = await book(
      s.t,
      bookingBody(s.f, at(day, '10:00'), { customer_first_name: 'Mia', customer_last_name: 'Sommerfeld' }),
    );
    await dispatch();
    expect(await queued(booking.uuid)).toHaveLength(1);
    calls.length = 0;
    // Two workers at once: the claim hands the write to one of them only.
    const [a, b] = await Promise.all([worker().sendDue(), worker().sendDue()]);
    expect(a + b).toBe(1);
    expect(calls).toEqual([`PUT ${work}kairos-booking-${booking.uuid}.ics`]);
    const all = (await objects(work)).filter((o) => o.ics.includes(booking.uuid));
    expect(all).toHaveLength(1);
    const event = lines(all[0]!.ics);
    expect(event).toContain(`UID:kairos-booking-${booking.uuid}@book.example.com`);
    expect(event).toContain(`DTSTART:${icsUtc(at(day, '10:00'))}`);
    expect(event).toContain(`DTEND:${icsUtc(booking.end_time)}`);
    const summary = event.find((line) => line.startsWith('SUMMARY:'));
    expect(summary).toContain('Haircut');
    expect(summary).toContain('Mia');
    // A calendar object resource carries no iTIP METHOD (RFC 4791 §4.1).
    expect(event.some((line) => line.startsWith('METHOD:'))).toBe(false);
    expect(all[0]!.ics).not.toContain('Sommerfeld');
    expect(event).toContain(`URL:https://book.example.com/panel/bookings/${booking.uuid}`);
    const row = await queued(booking.uuid);
    expect(row[0]!.done_at).not.toBeNull();
    expect(row[0]!.last_error).toBeNull();
    // The busy reading skips it: the booking already blocks the time.
    // (This workspace's: on Citus the suite's files share one database.)
    const spans = await s.t.db
      .selectFrom('calendar_busy_spans')
      .selectAll()
      .where('workspace_id', '=', s.t.workspace.id)
      .execute();
    expect(spans).toHaveLength(0);
  });

  it('leaves the customer name out when the connection does not allow it', async () => {
    await connectCalendar(deps, s.t.workspace.id, s.f.anna.id, {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
      read_calendars: [work],
      write_calendar: work,
      customer_name_in_events: false,
    });
    const booking = await book(
      s.t,
      bookingBody(s.f, at(s.nextDay(), '10:00'), {
        customer_first_name: 'Mia',
        customer_phone: '+4915100000011',
      }),
    );
    await dispatch();
    await worker().sendDue();
    const event = await eventOf(work, booking.uuid);
    expect(event?.ics).toContain('Haircut');
    expect(event?.ics).not.toContain('Mia');
    await connectCalendar(deps, s.t.workspace.id, s.f.anna.id, {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
      read_calendars: [work],
      write_calendar: work,
      customer_name_in_events: true,
    });
  });

  it('a reschedule updates the same event (If-Match), a cancel removes it', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00'), { customer_phone: '+4915100000012' }));
    await dispatch();
    await worker().sendDue();
    const first = await eventOf(work, booking.uuid);
    expect(first).toBeDefined();
    const moved = await change(s.t, 'PUT', `/bookings/${booking.uuid}/reschedule`, {
      reserved_on: at(day, '14:00'),
    });
    await dispatch();
    calls.length = 0;
    expect(await worker().sendDue()).toBe(1);
    expect(calls).toEqual([`PUT ${first!.href}`]);
    const after = (await objects(work)).filter((o) => o.ics.includes(booking.uuid));
    expect(after).toHaveLength(1);
    expect(after[0]!.href).toBe(first!.href);
    expect(after[0]!.etag).not.toBe(first!.etag);
    expect(lines(after[0]!.ics)).toContain(`DTSTART:${icsUtc(at(day, '14:00'))}`);
    expect(lines(after[0]!.ics)).toContain(`DTEND:${icsUtc(moved.end_time)}`);
    expect(lines(after[0]!.ics)).not.toContain(`DTSTART:${icsUtc(at(day, '10:00'))}`);

    await change(s.t, 'PUT', `/bookings/${booking.uuid}/status/cancel`);
    await dispatch();
    calls.length = 0;
    await worker().sendDue();
    expect(calls).toEqual([`DELETE ${first!.href}`]);
    expect(await eventOf(work, booking.uuid)).toBeUndefined();
    expect(
      await s.t.db
        .selectFrom('calendar_booking_events')
        .where('booking_id', '=', booking.uuid)
        .selectAll()
        .execute(),
    ).toHaveLength(0);
  });

  it('events dispatched twice queue and write once', async () => {
    const booking = await book(
      s.t,
      bookingBody(s.f, at(s.nextDay(), '11:00'), { customer_phone: '+4915100000013' }),
    );
    await dispatch();
    // Redelivery: the same events handed to the handlers again.
    await s.t.db
      .updateTable('outbox_events')
      .set({ dispatched_at: null })
      .where('booking_id', '=', booking.uuid)
      .execute();
    expect(await dispatch()).toBeGreaterThan(0);
    expect(await queued(booking.uuid)).toHaveLength(1);
    calls.length = 0;
    await worker().sendDue();
    await worker().sendDue();
    expect(calls.filter((call) => call.startsWith('PUT'))).toHaveLength(1);
    const event = await eventOf(work, booking.uuid);
    expect(event).toBeDefined();
    expect(event!.etag).toBe(
      (
        await s.t.db
          .selectFrom('calendar_booking_events')
          .select('etag')
          .where('booking_id', '=', booking.uuid)
          .executeTakeFirstOrThrow()
      ).etag,
    );
  });

  it('an outside edit between the write and the update (412) is read again and the update goes through', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '09:00'), { customer_phone: '+4915100000014' }));
    await dispatch();
    await worker().sendDue();
    const written = await eventOf(work, booking.uuid);
    // Someone edits the event in their calendar app: its ETag changes.
    const edited = written!.ics.replace(/SUMMARY:[^\r\n]*/, 'SUMMARY:Edited outside');
    const outside = await radicale.put(work, `kairos-booking-${booking.uuid}.ics`, edited);
    expect(outside.etag).not.toBe(written!.etag);
    await change(s.t, 'PUT', `/bookings/${booking.uuid}/reschedule`, { reserved_on: at(day, '15:00') });
    await dispatch();
    calls.length = 0;
    await worker().sendDue();
    const href = written!.href;
    expect(calls).toEqual([`PUT ${href}`, `GET ${href}`, `PUT ${href}`]);
    const after = await eventOf(work, booking.uuid);
    expect(lines(after!.ics)).toContain(`DTSTART:${icsUtc(at(day, '15:00'))}`);
    const rows = await queued(booking.uuid);
    expect(rows.every((row) => row.done_at !== null && row.last_error === null)).toBe(true);
  });

  it('a failing server does not hold up the booking: the write is retried later and later, then goes through', async () => {
    serverDown = true;
    const booking = await book(
      s.t,
      bookingBody(s.f, at(s.nextDay(), '12:00'), { customer_phone: '+4915100000018' }),
    );
    await dispatch();
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      await worker().sendDue();
      const [row] = await queued(booking.uuid);
      expect(row!.done_at).toBeNull();
      expect(row!.attempts).toBe(i + 1);
      expect(row!.last_error).toContain('connection refused');
      waits.push(row!.next_attempt_at.getTime() - s.clock.now());
      // Not due before its time.
      expect(await worker().sendDue()).toBe(0);
      s.clock.advance(waits[i]!);
    }
    expect(waits).toEqual([60_000, 120_000, 240_000]);
    expect(warnings).toContain('calendar write failed; retried later');
    serverDown = false;
    await worker().sendDue();
    const [row] = await queued(booking.uuid);
    expect(row!.done_at).not.toBeNull();
    expect(await eventOf(work, booking.uuid)).toBeDefined();
  });

  it('a staffer without a connection queues nothing', async () => {
    const booking = await book(
      s.t,
      bookingBody(s.f, at(s.nextDay(), '10:00'), {
        staffer_uuid: s.f.ben.id,
        customer_phone: '+4915100000017',
      }),
    );
    expect(await dispatch()).toBeGreaterThan(0);
    expect(await queued(booking.uuid)).toHaveLength(0);
  });

  it('a change of staffer removes the event from the old calendar and writes it to the new one', async () => {
    await connectCalendar(deps, s.t.workspace.id, s.f.ben.id, {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
      read_calendars: [benCal],
      write_calendar: benCal,
    });
    const booking = await book(
      s.t,
      bookingBody(s.f, at(s.nextDay(), '10:00'), { customer_phone: '+4915100000015' }),
    );
    await dispatch();
    await worker().sendDue();
    expect(await eventOf(work, booking.uuid)).toBeDefined();
    await change(s.t, 'PUT', `/bookings/${booking.uuid}/staffer`, { staffer_uuid: s.f.ben.id });
    await dispatch();
    calls.length = 0;
    await worker().sendDue();
    expect(calls).toEqual([
      `DELETE ${work}kairos-booking-${booking.uuid}.ics`,
      `PUT ${benCal}kairos-booking-${booking.uuid}.ics`,
    ]);
    expect(await eventOf(work, booking.uuid)).toBeUndefined();
    expect(await eventOf(benCal, booking.uuid)).toBeDefined();
  });

  it('a connection without a write calendar queues nothing', async () => {
    // Ben's connection now reads only: no write calendar.
    await connectCalendar(deps, s.t.workspace.id, s.f.ben.id, {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
      read_calendars: [benCal],
      write_calendar: null,
    });
    const booking = await book(
      s.t,
      bookingBody(s.f, at(s.nextDay(), '10:00'), {
        staffer_uuid: s.f.ben.id,
        customer_phone: '+4915100000016',
      }),
    );
    expect(await dispatch()).toBeGreaterThan(0);
    expect(await queued(booking.uuid)).toHaveLength(0);
  });

  it('erasing the customer writes their events again without the first name', async () => {
    const day = s.nextDay();
    const booking = await book(
      s.t,
      bookingBody(s.f, at(day, '15:00'), {
        customer_first_name: 'Ingrid',
        customer_last_name: 'Vogel',
        customer_phone: '+4915199990001',
      }),
    );
    await dispatch();
    await worker().sendDue();
    const before = (await eventOf(work, booking.uuid))!;
    expect(lines(before.ics).find((line) => line.startsWith('SUMMARY:'))).toContain('Ingrid');

    const erased = await s.t.call('POST', `/customers/${booking.customer.uuid}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    // The erasure queued the rewrite itself: no booking change, nothing dispatched.
    calls.length = 0;
    expect(await worker().sendDue()).toBe(1);
    expect(calls).toEqual([`PUT ${before.href}`]);
    const after = (await eventOf(work, booking.uuid))!;
    expect(after.ics).not.toContain('Ingrid');
    expect(lines(after.ics).find((line) => line.startsWith('SUMMARY:'))).toBeDefined();
    expect(lines(after.ics).find((line) => line.startsWith('DTSTART'))).toBe(
      `DTSTART:${icsUtc(at(day, '15:00'))}`,
    );
  });
});
