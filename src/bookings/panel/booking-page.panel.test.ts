import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  type Json,
  openStudio,
  outboxOf,
  type Studio,
  statusOfType,
} from '../../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../../test/helpers/build-test-app.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';

let s: Studio;
let staff: PanelClient;
beforeAll(async () => {
  s = await openStudio();
  // Every role runs the day: a staff user moves, completes and cancels bookings.
  staff = await PanelClient.signedIn(
    s.t.app,
    s.t.db,
    await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]),
  );
});
afterAll(() => s.t.close());

const page = (id: string) => `/panel/bookings/${id}`;
const apiBooking = async (id: string): Promise<Json> =>
  (await s.t.call('GET', `/bookings/${id}`)).json().data;
const apiHistory = async (id: string): Promise<Json[]> =>
  (await s.t.call('GET', `/bookings/${id}/history`)).json().data;

/** Posts one of the booking page's forms, with the token of the page. */
async function post(id: string, action: string, form: Record<string, string | string[]>) {
  await staff.get(page(id));
  return staff.post(`${page(id)}/${action}`, form);
}

describe('the booking page', () => {
  it('shows the booking in its location’s zone, the customer, services, staffer and status', async () => {
    const day = s.nextDay();
    const booking = await book(
      s.t,
      bookingBody(s.f, at(day, '10:00'), { customer_first_name: 'Ada', customer_last_name: 'Lovelace' }),
    );
    const shown = await staff.get(page(booking.uuid));
    expect(shown.statusCode).toBe(200);
    // 10:00 Berlin summer time (08:00 UTC), the zone named.
    expect(shown.body).toContain('10:00 – 11:00');
    expect(shown.body).toContain('Europe/Berlin');
    expect(shown.body).toContain(`<a href="/panel/customers/${booking.customer.uuid}">Ada Lovelace</a>`);
    expect(shown.body).toContain('+4915112345678');
    expect(shown.body).toContain('Haircut');
    expect(shown.body).toContain('Anna');
    expect(shown.body).toContain(booking.status.name);
    expect(shown.body).toMatch(/name="date" type="date" value="\d{4}-\d{2}-\d{2}"/);
    expect(shown.body).toContain('name="reserved_on" type="time" value="10:00"');
  });

  it('moves, changes staffer and services, sets a status, adds a note, completes: each seen through the API', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    const id = booking.uuid;

    const moved = await post(id, 'move', { date: day, reserved_on: '14:30', staffer_uuid: '' });
    expect(moved.statusCode, moved.body).toBe(303);
    expect(moved.headers.location).toBe(`${page(id)}?notice=moved`);
    expect((await apiBooking(id)).start_time).toBe(at(day, '14:30'));

    const staffer = await post(id, 'staffer', { staffer_uuid: s.f.ben.id });
    expect(staffer.statusCode, staffer.body).toBe(303);
    expect((await apiBooking(id)).staffer.uuid).toBe(s.f.ben.id);

    const services = await post(id, 'services', { service_uuids: [s.f.haircut.id, s.f.color.id] });
    expect(services.statusCode, services.body).toBe(303);
    expect((await apiBooking(id)).ordered_services.map((l: Json) => l.service_uuid)).toEqual([
      s.f.haircut.id,
      s.f.color.id,
    ]);

    const confirmed = await statusOfType(s.t, 'confirmed');
    const status = await post(id, 'status', { status_uuid: confirmed.uuid });
    expect(status.statusCode, status.body).toBe(303);
    expect((await apiBooking(id)).status.uuid).toBe(confirmed.uuid);

    const note = await post(id, 'notes', { value: '  Bring the <b>voucher</b>  ' });
    expect(note.statusCode, note.body).toBe(303);
    expect((await apiBooking(id)).public_notes).toBe('Bring the <b>voucher</b>');

    // The open amount is the default: Haircut 90.00 + Color 50.00.
    const before = await staff.get(page(id));
    expect(before.body).toContain('name="paid_amount" type="text" value="140.00"');
    const completed = await staff.post(`${page(id)}/complete`, {
      account_uuid: s.f.cash.id,
      paid_amount: '140.00',
    });
    expect(completed.statusCode, completed.body).toBe(303);
    const done = await apiBooking(id);
    expect(done.is_completed).toBe(true);
    expect(done.order.payments).toEqual([
      expect.objectContaining({ account_uuid: s.f.cash.id, amount: 14000 }),
    ]);

    // The history, as the API has it, with the panel user as the actor; the page shows it newest first.
    const history = await apiHistory(id);
    expect(history.map((e) => e.action)).toEqual([
      'created',
      'rescheduled',
      'staffer_changed',
      'services_changed',
      'status_changed',
      'note_added',
      'completed',
    ]);
    expect(history.slice(1).every((e) => e.actor.type === 'user')).toBe(true);
    const shown = await staff.get(page(id));
    const order = [
      'Completed; €140.00 paid to Cash desk',
      'Public note added',
      `Status changed from`,
      'Services changed from Haircut to Haircut + Color',
      'Staffer changed from Anna',
      'Moved from',
      'Booked for',
    ].map((text) => shown.body.indexOf(text));
    expect(order.every((index) => index > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(shown.body).toContain('You, in the panel');
    expect(shown.body).toContain('An API key');
    // The note is printed as text, never as markup.
    expect(shown.body).toContain('Bring the &lt;b>voucher&lt;/b>');
    // A final booking offers no forms.
    expect(shown.body).not.toContain(`action="${page(id)}/move"`);
  });

  it('cancels with a reason chosen in words', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    const form = await staff.get(page(booking.uuid));
    expect(form.body).toContain('<option value="didnt_come">The customer did not come</option>');
    const canceled = await staff.post(`${page(booking.uuid)}/cancel`, { cancel_reason: 'didnt_come' });
    expect(canceled.statusCode, canceled.body).toBe(303);
    expect(canceled.headers.location).toBe(`${page(booking.uuid)}?notice=canceled`);
    const json = await apiBooking(booking.uuid);
    expect(json).toMatchObject({ is_canceled: true, cancel_reason: 'didnt_come' });
    const shown = await staff.get(`${page(booking.uuid)}?notice=canceled`);
    expect(shown.body).toContain('Canceled: The customer did not come');
    expect(shown.body).toContain('The booking is canceled; its time is free again.');
    // A change of a final booking is a 409 page in words, not a 500.
    const again = await staff.post(`${page(booking.uuid)}/move`, { date: day, reserved_on: '12:00' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('cannot be changed');
  });
});

describe('Move to…', () => {
  it('returns to a panel return_to with the notice appended, and ignores any other', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    const id = booking.uuid;
    const calendar = `/panel/calendar/day?location_uuid=${s.f.location.id}&date=${day}`;
    const back = await post(id, 'move', {
      date: day,
      reserved_on: '11:00',
      staffer_uuid: '',
      return_to: calendar,
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`${calendar}&notice=moved`);
    const plain = await post(id, 'move', { date: day, reserved_on: '12:00', return_to: '/panel/calendar' });
    expect(plain.headers.location).toBe('/panel/calendar?notice=moved');
    for (const [time, evil] of [
      ['13:00', 'https://evil.example'],
      ['14:00', '//evil'],
      ['15:00', '/panel/..//evil.example'.replace('/panel/', '//')],
      ['16:00', '/\\evil.example'],
    ] as const) {
      const response = await post(id, 'move', { date: day, reserved_on: time, return_to: evil });
      expect(response.statusCode, response.body).toBe(303);
      expect(response.headers.location).toBe(`${page(id)}?notice=moved`);
    }
    expect((await apiBooking(id)).start_time).toBe(at(day, '16:00'));
  });

  it('moves to another staffer and time at once', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    // Anna is busy at 15:00, Ben at 10:00: neither half alone could be done first.
    await book(s.t, bookingBody(s.f, at(day, '15:00'), { customer_phone: '+4915100000011' }));
    await book(
      s.t,
      bookingBody(s.f, at(day, '10:00'), { staffer_uuid: s.f.ben.id, customer_phone: '+4915100000012' }),
    );
    const moved = await post(booking.uuid, 'move', {
      date: day,
      reserved_on: '15:00',
      staffer_uuid: s.f.ben.id,
    });
    expect(moved.statusCode, moved.body).toBe(303);
    const json = await apiBooking(booking.uuid);
    expect(json.start_time).toBe(at(day, '15:00'));
    expect(json.staffer.uuid).toBe(s.f.ben.id);
    const events = await outboxOf(s.t, booking.uuid);
    expect(events.map((e) => e.type)).toEqual(['booking-created', 'booking-updated', 'booking-rescheduled']);
  });

  it('refuses a bad date or time with 422 next to the field, keeping what was typed', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    const bad = await post(booking.uuid, 'move', { date: '2026-02-30', reserved_on: '25:00' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('<p class="error" id="f-date-error">Enter a date as YYYY-MM-DD');
    expect(bad.body).toContain('<p class="error" id="f-reserved_on-error">Enter a time as HH:MM');
    expect(bad.body).toMatch(/name="date" type="date" value="2026-02-30"[^>]*aria-invalid="true"/);
    expect(bad.body).toMatch(/name="reserved_on" type="time" value="25:00"[^>]*aria-invalid="true"/);
    const badStaffer = await post(booking.uuid, 'move', {
      date: day,
      reserved_on: '11:00',
      staffer_uuid: 'nope',
    });
    expect(badStaffer.statusCode).toBe(422);
    expect(badStaffer.body).toContain('id="f-staffer_uuid-error"');
    expect((await apiBooking(booking.uuid)).start_time).toBe(at(day, '10:00'));
  });

  it('names a wall time the clocks skip (DST) and takes the first of one shown twice', async () => {
    // 2027-03-28: Berlin skips 02:00-03:00; 2026-10-25 shows 02:00-03:00 twice. A studio open all night.
    const night = { mon: [{ from: '00:00', to: '24:00' }] };
    const week = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, night.mon]),
    );
    const location = await createLocation(s.t.db, s.t.workspace.id, { timezone: 'Europe/Berlin' });
    const service = await createService(s.t.db, s.t.workspace.id, [location.id], { durationMinutes: 30 });
    const owl = await createStaffer(s.t.db, s.t.workspace.id, location.id, [service.id], { weekly: week });
    const booking = await book(s.t, {
      reserved_on: '2026-10-24T20:00:00Z',
      location_uuid: location.id,
      service_uuid: service.id,
      staffer_uuid: owl.id,
      customer_phone: '+4915100000013',
    });
    const gap = await post(booking.uuid, 'move', { date: '2027-03-28', reserved_on: '02:30' });
    expect(gap.statusCode).toBe(422);
    expect(gap.body).toContain('02:30 does not exist on 2027-03-28 in Europe/Berlin');
    const overlap = await post(booking.uuid, 'move', { date: '2026-10-25', reserved_on: '02:30' });
    expect(overlap.statusCode, overlap.body).toBe(303);
    // The first 02:30 of that night is still summer time (+02:00): 00:30 UTC.
    expect((await apiBooking(booking.uuid)).start_time).toBe('2026-10-25T00:30:00Z');
    const second = await post(booking.uuid, 'move', { date: '2026-10-25', reserved_on: '02:30+01:00' });
    expect(second.statusCode, second.body).toBe(303);
    expect((await apiBooking(booking.uuid)).start_time).toBe('2026-10-25T01:30:00Z');
  });

  it('shows a taken time as a 409 with the nearest free times, each one click, and writes nothing', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    // Taken through the API meanwhile: Anna at 14:00.
    await book(s.t, bookingBody(s.f, at(day, '14:00'), { customer_phone: '+4915100000014' }));
    const historyBefore = await apiHistory(booking.uuid);
    const conflict = await post(booking.uuid, 'move', { date: day, reserved_on: '14:00' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toContain('That time was just taken');
    // The nearest free starts of Anna's 60 minutes that day (15-minute grid): 12:45-13:00 end before
    // 14:00, 15:00 on after it; her own booking at 10:00 does not stand in its way.
    const times = [...conflict.body.matchAll(/name="reserved_on" value="(\d\d:\d\d)"/g)].map((m) => m[1]);
    expect(times).toEqual(['12:30', '12:45', '13:00', '15:00', '15:15', '15:30']);
    expect(conflict.body).toContain(`<input type="hidden" name="staffer_uuid" value="${s.f.anna.id}"/>`);
    expect(await apiBooking(booking.uuid)).toMatchObject({ start_time: at(day, '10:00') });
    expect(await apiHistory(booking.uuid)).toEqual(historyBefore);
    // One click on a free time moves it.
    const picked = await staff.post(`${page(booking.uuid)}/move`, {
      date: day,
      reserved_on: '15:00',
      staffer_uuid: s.f.anna.id,
    });
    expect(picked.statusCode, picked.body).toBe(303);
    expect((await apiBooking(booking.uuid)).start_time).toBe(at(day, '15:00'));
  });
  it('names the rule a time breaks (off the grid, too soon) instead of calling it taken', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    const offGrid = await post(booking.uuid, 'move', { date: day, reserved_on: '10:07' });
    expect(offGrid.statusCode).toBe(409);
    expect(offGrid.body).toContain(
      'The requested time is not a bookable start time. Choose one of the free times below.',
    );
    expect(offGrid.body).not.toContain('That time was just taken');
    expect((await apiBooking(booking.uuid)).start_time).toBe(at(day, '10:00'));
  });

  it('a staffer busy at the booking’s time is a 409 offering that staffer’s free times', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    await book(
      s.t,
      bookingBody(s.f, at(day, '10:00'), { staffer_uuid: s.f.ben.id, customer_phone: '+4915100000016' }),
    );
    const busy = await post(booking.uuid, 'staffer', { staffer_uuid: s.f.ben.id });
    expect(busy.statusCode).toBe(409);
    expect(busy.body).toContain('That time was just taken');
    // Ben is free from 11:00; a click moves the booking to him then.
    const times = [...busy.body.matchAll(/name="reserved_on" value="(\d\d:\d\d)"/g)].map((m) => m[1]);
    expect(times).toEqual(['09:00', '11:00', '11:15', '11:30', '11:45', '12:00']);
    expect(busy.body).toContain(`<input type="hidden" name="staffer_uuid" value="${s.f.ben.id}"/>`);
    expect((await apiBooking(booking.uuid)).staffer.uuid).toBe(s.f.anna.id);
  });
});

describe('refusals', () => {
  it('another workspace’s booking is a 404, on the page and on its forms', async () => {
    const other = await createOtherWorkspace(s.t.db);
    const location = await createLocation(s.t.db, other.workspace.id);
    const service = await createService(s.t.db, other.workspace.id, [location.id]);
    const staffer = await createStaffer(s.t.db, other.workspace.id, location.id, [service.id]);
    const theirs = await s.t.app.inject({
      method: 'POST',
      url: '/api/public/v2/bookings',
      headers: other.headers,
      payload: {
        reserved_on: at(s.nextDay(), '10:00'),
        location_uuid: location.id,
        service_uuid: service.id,
        staffer_uuid: staffer.id,
        customer_phone: '+4915100000015',
      },
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const id = theirs.json().data.uuid;
    expect((await staff.get(page(id))).statusCode).toBe(404);
    await staff.get('/panel');
    expect((await staff.post(`${page(id)}/cancel`, { cancel_reason: 'spam' })).statusCode).toBe(404);
    expect((await staff.get('/panel/bookings/not-a-uuid')).statusCode).toBe(404);
  });

  it('a form without the CSRF token is refused with 403 and changes nothing', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    await staff.get(page(booking.uuid));
    const refused = await staff.post(
      `${page(booking.uuid)}/cancel`,
      { cancel_reason: 'spam' },
      { csrf: null },
    );
    expect(refused.statusCode).toBe(403);
    expect((await apiBooking(booking.uuid)).is_canceled).toBe(false);
  });

  it('bad values of the other forms are 422s next to their fields, never 500s', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
    const id = booking.uuid;
    const cases: [string, Record<string, string | string[]>, string][] = [
      ['staffer', { staffer_uuid: 'x' }, 'change-staffer'],
      ['services', { service_uuids: [] }, 'service_uuids'],
      ['services', { service_uuids: ['nope'] }, 'service_uuids'],
      ['status', { status_uuid: '' }, 'status_uuid'],
      ['notes', { value: '   ' }, 'value'],
      ['complete', { account_uuid: s.f.cash.id, paid_amount: '12.345' }, 'paid_amount'],
      ['complete', { account_uuid: 'x', paid_amount: '1' }, 'account_uuid'],
      ['cancel', { cancel_reason: 'bored' }, 'cancel_reason'],
    ];
    for (const [action, form, field] of cases) {
      const response = await post(id, action, form);
      expect(response.statusCode, `${action} ${JSON.stringify(form)}`).toBe(422);
      expect(response.body).toContain(`id="f-${field}-error"`);
      // Both forms name a staffer_uuid; each element id stays once on the page.
      const ids = [...response.body.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
      expect(ids.filter((one, index) => ids.indexOf(one) !== index)).toEqual([]);
    }
    const staffer = await post(id, 'staffer', { staffer_uuid: 'x' });
    expect(staffer.body).toContain('<a href="#f-change-staffer">');
    const json = await apiBooking(id);
    expect(json).toMatchObject({ is_canceled: false, is_completed: false, public_notes: '' });
  });
});
