import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  change,
  expectError,
  openStudio,
  type Studio,
  slotQuantity,
} from '../../test/bookings/bookings-kit.js';

// A group class (Yoga, capacity 3, 60 minutes) shares one seat row per staffer and start: places
// are taken and given back one by one, and the staffer is busy for the class as long as anyone
// is booked into it.
let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

const yoga = (start: string, n: number, staffer?: string) =>
  bookingBody(s.f, start, {
    service_uuid: s.f.yoga.id,
    customer_phone: `+49151600000${String(n).padStart(2, '0')}`,
    ...(staffer ? { staffer_uuid: staffer } : {}),
  });

describe('group class places', () => {
  it('lists the free places and gives one back on cancel', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    // Two staffers teach, three places each.
    expect(await slotQuantity(t, f, f.yoga.id, day, '10:00')).toBe(6);
    const first = await book(t, yoga(at(day, '10:00'), 1));
    await book(t, yoga(at(day, '10:00'), 2));
    expect(await slotQuantity(t, f, f.yoga.id, day, '10:00')).toBe(4);
    await change(t, 'PUT', `/bookings/${first.uuid}/status/cancel`);
    expect(await slotQuantity(t, f, f.yoga.id, day, '10:00')).toBe(5);
    // The given-back place is bookable: Anna's class takes 3 again, the 4th is refused.
    await book(t, yoga(at(day, '10:00'), 3));
    await book(t, yoga(at(day, '10:00'), 4));
    expectError(await t.call('POST', '/bookings', yoga(at(day, '10:00'), 5)), 409, 'slot_unavailable');
  });

  it('keeps the staffer busy for the class while anyone is booked into it', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    await book(t, yoga(at(day, '10:00'), 1));
    const haircut = await t.call('POST', '/bookings', bookingBody(f, at(day, '10:30')));
    expectError(haircut, 409, 'slot_unavailable');
    // Another class of Anna overlapping this one is refused as well.
    expectError(await t.call('POST', '/bookings', yoga(at(day, '10:15'), 2)), 409, 'slot_unavailable');
  });
});

describe('changing a group booking', () => {
  it('reschedules a lone participant onto an overlapping time', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const booking = await book(t, yoga(at(day, '10:00'), 1));
    const moved = await change(t, 'PUT', `/bookings/${booking.uuid}/reschedule`, {
      reserved_on: at(day, '10:30'),
    });
    expect(moved.start_time).toBe(at(day, '10:30'));
    // The old class is empty: Anna is free at 09:00-10:30 and the moved class holds 10:30.
    await book(t, bookingBody(f, at(day, '09:00'), { customer_phone: '+4915160000099' }));
    expect(await slotQuantity(t, f, f.yoga.id, day, '10:30')).toBe(5);
  });

  it('refuses to move one of several participants onto a time overlapping their class', async () => {
    const { t } = s;
    const day = s.nextDay();
    const first = await book(t, yoga(at(day, '10:00'), 1));
    await book(t, yoga(at(day, '10:00'), 2));
    const path = `/bookings/${first.uuid}/reschedule`;
    // Anna still teaches the 10:00 class for the other participant.
    expectError(await t.call('PUT', path, { reserved_on: at(day, '10:30') }), 409, 'slot_unavailable');
    // Joining another class of Anna with a free place is fine.
    await book(t, yoga(at(day, '14:00'), 3));
    const joined = await change(t, 'PUT', path, { reserved_on: at(day, '14:00') });
    expect(joined.start_time).toBe(at(day, '14:00'));
    expect(await slotQuantity(t, s.f, s.f.yoga.id, day, '14:00')).toBe(4);
    expect(await slotQuantity(t, s.f, s.f.yoga.id, day, '10:00')).toBe(5);
  });

  it('refuses to join a full class', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    for (const n of [1, 2, 3]) await book(t, yoga(at(day, '14:00'), n));
    const mover = await book(t, yoga(at(day, '10:00'), 4));
    const response = await t.call('PUT', `/bookings/${mover.uuid}/reschedule`, {
      reserved_on: at(day, '14:00'),
    });
    expectError(response, 409, 'slot_unavailable');
    expect(await slotQuantity(t, f, f.yoga.id, day, '14:00')).toBe(3);
  });

  it('moves a participant to the other teacher of the same time', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const booking = await book(t, yoga(at(day, '10:00'), 1));
    const moved = await change(t, 'PUT', `/bookings/${booking.uuid}/staffer`, { staffer_uuid: f.ben.id });
    expect(moved.staffer.uuid).toBe(f.ben.id);
    expect(await slotQuantity(t, f, f.yoga.id, day, '10:00')).toBe(5);
    // Anna is entirely free again at 10:00.
    await book(t, bookingBody(f, at(day, '10:00'), { customer_phone: '+4915160000098' }));
  });
});
