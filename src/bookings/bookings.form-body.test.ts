import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  bookingBody,
  expect422,
  openStudio,
  type Studio,
  setWorkspace,
} from '../../test/bookings/bookings-kit.js';
import { API } from '../../test/helpers/build-test-app.js';

// Bodies: application/x-www-form-urlencoded is accepted as well as JSON. Every
// value then arrives as a string, and booleans and amounts must still be read right.
let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

function form(method: 'POST' | 'PUT', path: string, fields: Record<string, string>) {
  return s.t.app.inject({
    method,
    url: `${API}${path}`,
    headers: { ...s.t.headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

describe('form-encoded bodies', () => {
  it('create, complete and cancel read strings as the types they stand for', async () => {
    const day = s.nextDay();
    const fields = bookingBody(s.f, at(day, '10:00'), {
      booking_callback: 'true',
      customer_phone: '+49 151 12345678',
    });
    const created = await form('POST', '/bookings', fields as Record<string, string>);
    expect(created.statusCode, created.body).toBe(201);
    const booking = created.json().data;
    expect(booking.booking_callback).toBe(true);
    expect(booking.start_time).toBe(at(day, '10:00'));
    const done = await form('PUT', `/bookings/${booking.uuid}/status/complete`, {
      account_uuid: s.f.cash.id,
      paid_amount: '9000',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.order.amount_paid).toBe(9000);

    const other = await form(
      'POST',
      '/bookings',
      bookingBody(s.f, at(day, '12:00')) as Record<string, string>,
    );
    expect(other.statusCode, other.body).toBe(201);
    const canceled = await form('PUT', `/bookings/${other.json().data.uuid}/status/cancel`, {
      cancel_reason: 'spam',
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().data.cancel_reason).toBe('spam');
  });

  it('refuses a non-numeric amount and a non-boolean callback with 422', async () => {
    const day = s.nextDay();
    const bad = await form('POST', '/bookings', {
      ...(bookingBody(s.f, at(day, '10:00')) as Record<string, string>),
      booking_callback: 'maybe',
    });
    expect422(bad, ['booking_callback']);
    const created = await form(
      'POST',
      '/bookings',
      bookingBody(s.f, at(day, '10:00')) as Record<string, string>,
    );
    const amount = await form('PUT', `/bookings/${created.json().data.uuid}/status/complete`, {
      account_uuid: s.f.cash.id,
      paid_amount: '12.50',
    });
    expect422(amount, ['paid_amount']);
  });

  it('reads an empty staffer_uuid as not sent when staffers are assigned automatically', async () => {
    await setWorkspace(s.t, { staffer_selection: 'automatic' });
    try {
      const fields = bookingBody(s.f, at(s.nextDay(), '10:00'), { staffer_uuid: '' });
      const created = await form('POST', '/bookings', fields as Record<string, string>);
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data.staffer.uuid).toBe(s.f.anna.id);
    } finally {
      await setWorkspace(s.t, { staffer_selection: 'required' });
    }
  });
});

describe('a form-encoded create without a staffer, after other clients booked', () => {
  it('books the start of a free interval that lies off the slot grid', async () => {
    // Two clients book both staffers at 09:00 for a haircut that leaves 10 minutes to sweep up:
    // the free interval then starts at 10:10, between the 15-minute slots. A client that books an
    // interval's start (as clients of the service we replace do) was refused with 409 "not a
    // bookable slot start" for a free time, and booked when sent alone, when intervals began at
    // 09:00.
    await setWorkspace(s.t, { staffer_selection: 'automatic' });
    const patched = await s.t.call('PATCH', `/services/${s.f.haircut.id}`, { buffer_after_minutes: 10 });
    expect(patched.statusCode, patched.body).toBe(200);
    try {
      const day = s.nextDay();
      for (const staffer of [s.f.anna, s.f.ben]) {
        const taken = await s.t.call(
          'POST',
          '/bookings',
          bookingBody(s.f, at(day, '09:00'), { staffer_uuid: staffer.id }),
        );
        expect(taken.statusCode, taken.body).toBe(201);
      }
      const slots = await s.t.call(
        'GET',
        `/locations/${s.f.location.id}/time-slots?service_uuid=${s.f.color.id}&range_start=${day}&range_end=${day}`,
      );
      const [date] = slots.json().dates;
      expect(date.intervals[0]).toMatchObject({ start: '10:10', start_formatted: 36600 });
      expect(date.slots[0]).toMatchObject({ start: '10:15' });

      const created = await form('POST', '/bookings', {
        reserved_on: at(day, '10:10'),
        location_uuid: s.f.location.id,
        service_uuid: s.f.color.id,
        staffer_uuid: '',
        customer_phone: '+4915112345678',
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data.start_time).toBe(at(day, '10:10'));
    } finally {
      await s.t.call('PATCH', `/services/${s.f.haircut.id}`, { buffer_after_minutes: 0 });
      await setWorkspace(s.t, { staffer_selection: 'required' });
    }
  });
});
