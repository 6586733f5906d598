/**
 * The panel's override of the staffer's own calendar: a create or a move at a time blocked only
 * by an outside busy event is refused with a warning naming it and a "Book anyway" / "Move
 * anyway"; sent again with it, the booking is made. The API still refuses that time, and another
 * booking still holds its time with the override. Real app, PGlite and Radicale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, book, bookingBody, openStudio, type Studio } from '../../test/bookings/bookings-kit.js';
import { makeUser, PanelClient } from '../../test/helpers/panel-client.js';
import { type Radicale, startRadicale } from '../../test/helpers/radicale.js';
import { openWritePath } from '../write-path.js';
import { type CalendarDeps, connectCalendar, syncCalendar } from './calendar-sync.service.js';

let s: Studio;
let radicale: Radicale;
let work: string;
let deps: CalendarDeps;
let staff: PanelClient;
const config = {
  secretKey: 'calendar-override-test-key-0123456789abcdef',
  webhooksAllowPrivate: true,
  databaseUrl: undefined,
  dataDir: '/nonexistent',
};

const icsUtc = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
/** An outside event in Anna's calendar: 10:00-11:00 Berlin on `day`. */
async function outsideEvent(day: string) {
  await radicale.put(
    work,
    `dentist-${day}.ics`,
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//EN',
      'BEGIN:VEVENT',
      `UID:dentist-${day}`,
      'DTSTAMP:20260801T000000Z',
      `DTSTART:${icsUtc(at(day, '10:00'))}`,
      'DURATION:PT1H',
      'SUMMARY:Dentist',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n'),
  );
  expect((await syncCalendar(deps, s.t.workspace.id, s.f.anna.id)).ok).toBe(true);
}

const form = (day: string, overrides: Record<string, string | string[]> = {}) => ({
  location_uuid: s.f.location.id,
  service_uuid: [s.f.haircut.id],
  staffer_uuid: s.f.anna.id,
  date: day,
  reserved_on: '10:00',
  customer_phone: '+49 151 2000 0001',
  customer_first_name: 'Grace',
  customer_last_name: 'Hopper',
  customer_email: '',
  booking_comment: '',
  ...overrides,
});

const bookingsAt = async (start: string) =>
  (
    await s.t.db
      .selectFrom('bookings')
      .select('id')
      .where('workspace_id', '=', s.t.workspace.id)
      .where('start_time', '=', new Date(start))
      .execute()
  ).length;

beforeAll(async () => {
  [s, radicale] = await Promise.all([openStudio(), startRadicale()]);
  work = await radicale.makeCalendar('work');
  deps = { db: s.t.db, uow: openWritePath(s.t.db).uow, clock: s.clock, config };
  await connectCalendar(deps, s.t.workspace.id, s.f.anna.id, {
    server_url: radicale.url,
    username: radicale.user,
    password: radicale.password,
    read_calendars: [work],
  });
  staff = await PanelClient.signedIn(
    s.t.app,
    s.t.db,
    await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]),
  );
});
afterAll(async () => {
  await s?.t.close();
  await radicale?.stop();
});

describe('booking over the staffer’s own calendar from the panel', () => {
  it('warns on a create, books anyway when confirmed; the API still refuses', async () => {
    const day = s.nextDay();
    await outsideEvent(day);
    const api = await s.t.call('POST', '/bookings', bookingBody(s.f, at(day, '10:00')));
    expect(api.statusCode).toBe(409);
    expect(api.json().code).toBe('slot_unavailable');

    await staff.get('/panel/bookings/new');
    const warned = await staff.post('/panel/bookings', form(day));
    expect(warned.statusCode).toBe(409);
    expect(warned.body).toContain('The staffer’s own calendar is busy then (an outside event)');
    expect(warned.body).toContain('name="override_busy" value="yes"');
    expect(warned.body).toContain('>Book anyway</button>');
    expect(await bookingsAt(at(day, '10:00'))).toBe(0);

    const booked = await staff.post('/panel/bookings', form(day, { override_busy: 'yes' }));
    expect(booked.statusCode, booked.body).toBe(303);
    expect(await bookingsAt(at(day, '10:00'))).toBe(1);

    // The override is of the outside calendar only: the booking just made still holds its time.
    const taken = await staff.post(
      '/panel/bookings',
      form(day, { override_busy: 'yes', customer_phone: '+49 151 2000 0002' }),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.body).not.toContain('>Book anyway</button>');
    expect(await bookingsAt(at(day, '10:00'))).toBe(1);
  });

  it('lists the times only the outside calendar blocks, marked, beside the free ones', async () => {
    const day = s.nextDay();
    await outsideEvent(day);
    await book(s.t, bookingBody(s.f, at(day, '14:00')));
    await staff.get('/panel/bookings/new');
    const listed = await staff.post('/panel/bookings', { ...form(day, { reserved_on: '' }), show: 'times' });
    expect(listed.statusCode, listed.body).toBe(200);
    const options = [...listed.body.matchAll(/<option value="(\d\d:\d\d)"[^>]*>([^<]*)<\/option>/g)].map(
      (m) => [m[1], m[2]],
    );
    expect(options).toContainEqual(['09:00', '09:00']);
    expect(options).toContainEqual(['10:00', '10:00 · busy in their own calendar']);
    // A time another booking holds is not offered at all, marked or not.
    expect(options.map(([value]) => value)).not.toContain('14:00');
    // In the day's order.
    const values = options.map(([value]) => value as string);
    expect(values).toEqual([...values].sort());
  });

  it('a time taken by another booking is the normal conflict, without the override', async () => {
    const day = s.nextDay();
    await book(s.t, bookingBody(s.f, at(day, '14:00')));
    await staff.get('/panel/bookings/new');
    const refused = await staff.post('/panel/bookings', form(day, { reserved_on: '14:00' }));
    expect(refused.statusCode).toBe(409);
    expect(refused.body).not.toContain('own calendar is busy');
    expect(refused.body).not.toContain('name="override_busy"');
  });

  it('warns on a move, moves anyway when confirmed', async () => {
    const day = s.nextDay();
    await outsideEvent(day);
    const booking = await book(s.t, bookingBody(s.f, at(day, '14:00')));
    const page = `/panel/bookings/${booking.uuid}`;
    await staff.get(page);
    const warned = await staff.post(`${page}/move`, { date: day, reserved_on: '10:00', staffer_uuid: '' });
    expect(warned.statusCode).toBe(409);
    expect(warned.body).toContain('The staffer’s own calendar is busy then');
    expect(warned.body).toContain('>Move anyway</button>');
    expect((await s.t.call('GET', `/bookings/${booking.uuid}`)).json().data.start_time).toBe(
      at(day, '14:00'),
    );

    const api = await s.t.call('PUT', `/bookings/${booking.uuid}/reschedule`, {
      reserved_on: at(day, '10:00'),
    });
    expect(api.statusCode).toBe(409);

    const moved = await staff.post(`${page}/move`, {
      date: day,
      reserved_on: '10:00',
      staffer_uuid: s.f.anna.id,
      override_busy: 'yes',
    });
    expect(moved.statusCode, moved.body).toBe(303);
    expect((await s.t.call('GET', `/bookings/${booking.uuid}`)).json().data.start_time).toBe(
      at(day, '10:00'),
    );
  });
});
