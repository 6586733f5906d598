/**
 * Edits read back, against a real Radicale: an event Kairos wrote for a booking, moved or deleted
 * in the staffer's own calendar, changes nothing by itself; the booking's panel page says so, and
 * Apply (the normal reschedule or cancel) or Ignore (the event written back) answers it. Kairos'
 * own writes are never taken for outside edits. The write calendar here is not one of the read
 * calendars: it is asked for the read-back only, and its events do not block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, book, bookingBody, change, openStudio, type Studio } from '../../test/bookings/bookings-kit.js';
import { makeUser, PanelClient } from '../../test/helpers/panel-client.js';
import { type Radicale, startRadicale } from '../../test/helpers/radicale.js';
import type { MailSnapshot } from '../notifications/mail-message.js';
import { renderMail } from '../notifications/mail-render.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { outboxHandlers } from '../workers.js';
import { openWritePath } from '../write-path.js';
import { type CalendarDeps, connectCalendar, syncCalendar } from './calendar-sync.service.js';
import { caldavProvider } from './providers/caldav-provider.js';
import type { ChangedObject } from './providers/calendar-provider.js';
import { CalendarWriteWorker } from './write-worker.js';

let s: Studio;
let radicale: Radicale;
let work: string;
let bookings: string;
let deps: CalendarDeps;
let admin: PanelClient;
const config = {
  secretKey: 'calendar-readback-test-key-0123456789abcdef',
  webhooksAllowPrivate: true,
  databaseUrl: undefined,
  dataDir: '/nonexistent',
};
const logger = { info: () => {}, warn: () => {}, error: () => {} };

const worker = () => new CalendarWriteWorker({ ...deps, linkBase: 'https://book.example.com', logger });
const dispatch = () => dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1_000);
/** The booking's change goes out: dispatched, and its calendar write sent. */
const sendOut = async () => {
  await dispatch();
  await worker().sendDue();
};
const sync = () => syncCalendar(deps, s.t.workspace.id, s.f.anna.id);

const reader = () =>
  caldavProvider({
    serverUrl: radicale.url,
    username: radicale.user,
    password: radicale.password,
    timeoutMs: 10_000,
    allowPrivate: true,
  });

async function eventOf(bookingId: string): Promise<ChangedObject | undefined> {
  const all = (await reader().changes(bookings, null, new Map())).changed;
  return all.find((o) => o.ics.includes(`UID:kairos-booking-${bookingId}@`));
}

const icsUtc = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
const lineOf = (ics: string, name: string) => new RegExp(`^${name}[:;].*$`, 'm').exec(ics)?.[0] ?? '';

/** Moves the booking's event in the calendar as a person would in their calendar app. */
async function moveOutside(bookingId: string, startIso: string, minutes: number): Promise<void> {
  const event = (await eventOf(bookingId))!;
  const end = new Date(Date.parse(startIso) + minutes * 60_000).toISOString();
  const ics = event.ics
    .replace(/\r?\n/g, '\r\n')
    .replace(/^DTSTART[:;].*$/m, `DTSTART:${icsUtc(startIso)}`)
    .replace(/^DTEND[:;].*$/m, `DTEND:${icsUtc(end)}`);
  await radicale.put(bookings, `kairos-booking-${bookingId}.ics`, ics);
}

const pending = (bookingId: string) =>
  s.t.db
    .selectFrom('calendar_booking_events')
    .select(['outside_change', 'outside_start'])
    .where('booking_id', '=', bookingId)
    .executeTakeFirst();

const notices = (bookingId: string) =>
  s.t.db
    .selectFrom('mail_messages')
    .select(['recipient', 'kind'])
    .where('booking_id', '=', bookingId)
    .where('kind', '=', 'staff_calendar_edit')
    .execute();

const page = (bookingId: string) => admin.get(`/panel/bookings/${bookingId}`);
const startOf = async (bookingId: string) =>
  (await s.t.call('GET', `/bookings/${bookingId}`)).json().data.start_time as string;

beforeAll(async () => {
  [s, radicale] = await Promise.all([openStudio(), startRadicale()]);
  work = await radicale.makeCalendar('work');
  bookings = await radicale.makeCalendar('bookings');
  deps = { db: s.t.db, uow: openWritePath(s.t.db).uow, clock: s.clock, config };
  await connectCalendar(deps, s.t.workspace.id, s.f.anna.id, {
    server_url: radicale.url,
    username: radicale.user,
    password: radicale.password,
    read_calendars: [work],
    write_calendar: bookings,
  });
  await s.t.db
    .updateTable('staffers')
    .set({ email: 'anna@studio.example' })
    .where('id', '=', s.f.anna.id)
    .execute();
  admin = await PanelClient.signedIn(
    s.t.app,
    s.t.db,
    await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'admin' }]),
  );
  await dispatch();
});
afterAll(async () => {
  await s?.t.close();
  await radicale?.stop();
});

describe('edits read back from the staffer calendar', () => {
  it('an outside move waits on the booking; Apply reschedules it the normal way', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    await sendOut();
    expect(lineOf((await eventOf(booking.uuid))!.ics, 'DTSTART')).toBe(`DTSTART:${icsUtc(at(day, '10:00'))}`);

    await moveOutside(booking.uuid, at(day, '15:00'), 60);
    expect((await sync()).ok).toBe(true);
    // Nothing changed by itself.
    expect(await startOf(booking.uuid)).toBe(at(day, '10:00'));
    expect(await pending(booking.uuid)).toEqual({
      outside_change: 'moved',
      outside_start: new Date(at(day, '15:00')),
    });
    // The staffer is told by email, once for this edit however often the sync sees it.
    expect(await notices(booking.uuid)).toEqual([
      { recipient: 'anna@studio.example', kind: 'staff_calendar_edit' },
    ]);
    await sync();
    expect(await notices(booking.uuid)).toHaveLength(1);
    const queuedMail = await s.t.db
      .selectFrom('mail_messages')
      .select(['kind', 'revision', 'snapshot'])
      .where('booking_id', '=', booking.uuid)
      .where('kind', '=', 'staff_calendar_edit')
      .executeTakeFirstOrThrow();
    const mail = renderMail(
      queuedMail.kind,
      queuedMail.revision,
      queuedMail.snapshot as unknown as MailSnapshot,
      {
        publicBase: 'https://book.example.com',
        from: { name: 'Studio', address: 'studio@example.com' },
      },
    );
    expect(mail.subject).toMatch(/^Changed in your calendar: Haircut, /);
    expect(mail.text).toContain('One of your bookings was moved or deleted in your own calendar.');
    // No invitation: the booking did not change.
    expect(mail.calendar).toBeUndefined();
    const shown = await page(booking.uuid);
    expect(shown.body).toMatch(/<h2 id="outside-change">Moved to 15:00 in Anna[^<]*’s calendar<\/h2>/);
    // The panel calendar marks it.
    const day1 = await admin.get(`/panel/calendar?location=${s.f.location.id}&date=${day}&view=day`);
    const card = new RegExp(`<a class="blk[^"]*" href="/panel/bookings/${booking.uuid}"`).exec(
      day1.body,
    )?.[0];
    expect(card).toContain(' outside');
    expect(day1.body).toContain('Changed in the staffer’s calendar');
    expect(shown.body).toContain(`action="/panel/bookings/${booking.uuid}/calendar-apply"`);

    const applied = await admin.post(`/panel/bookings/${booking.uuid}/calendar-apply`);
    expect(applied.statusCode, applied.body).toBe(303);
    expect(applied.headers.location).toBe(`/panel/bookings/${booking.uuid}?notice=moved`);
    expect(await startOf(booking.uuid)).toBe(at(day, '15:00'));
    expect((await pending(booking.uuid))?.outside_change).toBeNull();
    expect((await page(booking.uuid)).body).not.toContain('id="outside-change"');
    const day2 = await admin.get(`/panel/calendar?location=${s.f.location.id}&date=${day}&view=day`);
    expect(day2.body).toContain(`href="/panel/bookings/${booking.uuid}"`);
    expect(day2.body).not.toContain('Changed in the staffer’s calendar');

    // The reschedule goes out as Kairos' own write: the next sync reports nothing.
    await sendOut();
    expect((await sync()).ok).toBe(true);
    expect((await pending(booking.uuid))?.outside_change).toBeNull();
  });

  it('Ignore keeps the booking and writes the event back at the booking’s time', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    await sendOut();
    await moveOutside(booking.uuid, at(day, '13:00'), 60);
    await sync();
    expect((await pending(booking.uuid))?.outside_change).toBe('moved');

    const ignored = await admin.post(`/panel/bookings/${booking.uuid}/calendar-ignore`);
    expect(ignored.statusCode, ignored.body).toBe(303);
    expect(ignored.headers.location).toBe(`/panel/bookings/${booking.uuid}?notice=calendar-ignored`);
    expect((await pending(booking.uuid))?.outside_change).toBeNull();
    expect(await startOf(booking.uuid)).toBe(at(day, '10:00'));

    await worker().sendDue();
    expect(lineOf((await eventOf(booking.uuid))!.ics, 'DTSTART')).toBe(`DTSTART:${icsUtc(at(day, '10:00'))}`);
    // Its own rewrite is not read back as another outside edit.
    await sync();
    expect((await pending(booking.uuid))?.outside_change).toBeNull();
  });

  it('an outside delete waits on the booking; Apply cancels it', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '11:00')));
    await sendOut();
    const event = (await eventOf(booking.uuid))!;
    await radicale.remove(event.href);
    await sync();
    expect((await pending(booking.uuid))?.outside_change).toBe('deleted');
    expect(await notices(booking.uuid)).toHaveLength(1);
    expect((await s.t.call('GET', `/bookings/${booking.uuid}`)).json().data.is_canceled).toBe(false);
    expect((await page(booking.uuid)).body).toMatch(/Deleted in Anna[^<]*’s calendar/);

    const applied = await admin.post(`/panel/bookings/${booking.uuid}/calendar-apply`);
    expect(applied.headers.location).toBe(`/panel/bookings/${booking.uuid}?notice=canceled`);
    expect((await s.t.call('GET', `/bookings/${booking.uuid}`)).json().data.is_canceled).toBe(true);
    // The cancel's write finds the event already gone: no error, nothing left to report.
    await sendOut();
    expect(await pending(booking.uuid)).toBeUndefined();
    const writes = await s.t.db
      .selectFrom('calendar_writes')
      .select(['done_at', 'last_error'])
      .where('booking_id', '=', booking.uuid)
      .execute();
    expect(writes.every((w) => w.done_at !== null && w.last_error === null)).toBe(true);
  });

  it('Apply into a time another booking holds is the normal conflict, and changes nothing', async () => {
    const day = s.nextDay();
    const first = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    await book(s.t, bookingBody(s.f, at(day, '14:00')));
    await sendOut();
    await moveOutside(first.uuid, at(day, '14:00'), 60);
    await sync();
    const refused = await admin.post(`/panel/bookings/${first.uuid}/calendar-apply`);
    expect(refused.statusCode).toBe(409);
    expect(await startOf(first.uuid)).toBe(at(day, '10:00'));
    expect((await pending(first.uuid))?.outside_change).toBe('moved');
  });

  it('a reschedule in Kairos is never reported as an outside move, before or after its write', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '09:00')));
    await sendOut();
    await change(s.t, 'PUT', `/bookings/${booking.uuid}/reschedule`, { reserved_on: at(day, '12:00') });
    // The calendar still shows 09:00 (the write not yet sent): the sync sees no edit of it.
    await sync();
    expect((await pending(booking.uuid))?.outside_change).toBeNull();
    await sendOut();
    expect(lineOf((await eventOf(booking.uuid))!.ics, 'DTSTART')).toBe(`DTSTART:${icsUtc(at(day, '12:00'))}`);
    // Moved again before the sync reads the write: the calendar's 12:00 is Kairos' own (its ETag).
    await change(s.t, 'PUT', `/bookings/${booking.uuid}/reschedule`, { reserved_on: at(day, '13:00') });
    await sync();
    expect((await pending(booking.uuid))?.outside_change).toBeNull();
    await sendOut();
    await sync();
    expect((await pending(booking.uuid))?.outside_change).toBeNull();
    expect(await notices(booking.uuid)).toEqual([]);
  });

  it('answers nothing waiting with a 409, and refuses a cross-site post', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '09:30')));
    await sendOut();
    await admin.get(`/panel/bookings/${booking.uuid}`);
    expect((await admin.post(`/panel/bookings/${booking.uuid}/calendar-apply`)).statusCode).toBe(409);
    expect((await admin.post(`/panel/bookings/${booking.uuid}/calendar-ignore`)).statusCode).toBe(409);
    await moveOutside(booking.uuid, at(day, '13:30'), 60);
    await sync();
    const crossSite = await admin.post(
      `/panel/bookings/${booking.uuid}/calendar-apply`,
      {},
      { origin: 'https://evil.example' },
    );
    expect(crossSite.statusCode).toBe(403);
    expect(await startOf(booking.uuid)).toBe(at(day, '09:30'));
    expect((await pending(booking.uuid))?.outside_change).toBe('moved');
  });

  it('an outside edit that keeps the time (a title) is not a move', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '16:00')));
    await sendOut();
    const event = (await eventOf(booking.uuid))!;
    await radicale.put(
      bookings,
      `kairos-booking-${booking.uuid}.ics`,
      event.ics.replace(/\r?\n/g, '\r\n').replace(/^SUMMARY:.*$/m, 'SUMMARY:Renamed by Anna'),
    );
    await sync();
    expect((await pending(booking.uuid))?.outside_change).toBeNull();
  });

  it('events of the write calendar do not block when it is not read', async () => {
    const day = s.nextDay();
    await radicale.put(
      bookings,
      'private.ics',
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//EN',
        'BEGIN:VEVENT',
        'UID:private-1',
        'DTSTAMP:20260801T000000Z',
        `DTSTART:${icsUtc(at(day, '10:00'))}`,
        'DURATION:PT1H',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    await radicale.put(
      work,
      'work.ics',
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//EN',
        'BEGIN:VEVENT',
        'UID:work-1',
        'DTSTAMP:20260801T000000Z',
        `DTSTART:${icsUtc(at(day, '12:00'))}`,
        'DURATION:PT1H',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    expect((await sync()).ok).toBe(true);
    const busy = (
      await s.t.call(
        'GET',
        `/staffers/${s.f.anna.id}/busy-times?from=${at(day, '00:00')}&to=${at(day, '23:00')}`,
      )
    ).json().data;
    expect(busy.map((b: { start_time: string }) => b.start_time)).toEqual([
      `${at(day, '12:00').slice(0, -1)}.000Z`,
    ]);
  });
});
