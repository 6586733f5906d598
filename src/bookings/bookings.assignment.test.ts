import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  expect422,
  expectError,
  openStudio,
  type Studio,
  setWorkspace,
} from '../../test/bookings/bookings-kit.js';
import { createStaffer } from '../../test/helpers/factories.js';

// Automatic staffer assignment: least booked that local day first, ties by the
// order in which the staffers were created. A third staffer "Aaron" is created last but sorts
// first by name, so a tie going to Anna proves creation order, not alphabetical order.
let s: Studio;
let aaron: string;
beforeAll(async () => {
  s = await openStudio();
  aaron = (
    await createStaffer(s.t.db, s.t.workspace.id, s.f.location.id, [s.f.haircut.id], { firstName: 'Aaron' })
  ).id;
});
afterAll(() => s.t.close());

/** A create without staffer_uuid; answers the staffer it was given. */
async function autoBook(day: string, hhmm: string, phone = '+4915112345678'): Promise<string> {
  const body: Record<string, unknown> = bookingBody(s.f, at(day, hhmm), { customer_phone: phone });
  delete body.staffer_uuid;
  return (await book(s.t, body)).staffer.uuid;
}

describe("staffer_selection 'required' (the studio's setting)", () => {
  it('requires staffer_uuid, also when sent as null', async () => {
    const body: Record<string, unknown> = bookingBody(s.f, at(s.nextDay(), '10:00'));
    delete body.staffer_uuid;
    expect422(await s.t.call('POST', '/bookings', body), ['staffer_uuid']);
    expect422(await s.t.call('POST', '/bookings', { ...body, staffer_uuid: null }), ['staffer_uuid']);
  });
});

describe("staffer_selection 'automatic'", () => {
  beforeAll(() => setWorkspace(s.t, { staffer_selection: 'automatic' }));
  afterAll(() => setWorkspace(s.t, { staffer_selection: 'required' }));

  it('breaks ties by creation order and then picks the least booked staffer of the day', async () => {
    const { f } = s;
    const day = s.nextDay();
    // Everyone at 0: Anna (created first) wins the tie, not Aaron (first by name).
    expect(await autoBook(day, '10:00')).toBe(f.anna.id);
    // Anna 1, Ben 0, Aaron 0: Ben is least booked and created before Aaron.
    expect(await autoBook(day, '10:00', '+4915100000002')).toBe(f.ben.id);
    // Anna 1, Ben 1, Aaron 0.
    expect(await autoBook(day, '12:00')).toBe(aaron);
    // All at 1: the tie goes to Anna again.
    expect(await autoBook(day, '14:00')).toBe(f.anna.id);
  });

  it('counts bookings of that local day only, and skips a staffer who is busy at that time', async () => {
    const { t, f } = s;
    const before = s.nextDay();
    const day = s.nextDay();
    // Anna has two bookings that day, Ben and Aaron one each.
    await book(t, bookingBody(f, at(day, '09:00')));
    await book(t, bookingBody(f, at(day, '10:00')));
    await book(t, bookingBody(f, at(day, '09:00'), { staffer_uuid: f.ben.id }));
    await book(t, bookingBody(f, at(day, '11:00'), { staffer_uuid: aaron }));
    // Ben's bookings on the day before do not count for this day.
    await book(t, bookingBody(f, at(before, '09:00'), { staffer_uuid: f.ben.id }));
    await book(t, bookingBody(f, at(before, '10:00'), { staffer_uuid: f.ben.id }));
    // Ben and Aaron tie at 1; Ben was created first.
    expect(await autoBook(day, '13:00')).toBe(f.ben.id);
    // Aaron (1) is the least booked now, but busy at 11:00: the next least booked is Anna (2)
    // vs Ben (2), a tie that goes to Anna.
    expect(await autoBook(day, '11:00')).toBe(f.anna.id);
  });

  it('still accepts an explicit staffer, and answers 409 when nobody is free', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const explicit = await book(t, bookingBody(f, at(day, '15:00'), { staffer_uuid: f.ben.id }));
    expect(explicit.staffer.uuid).toBe(f.ben.id);
    await autoBook(day, '15:00');
    await autoBook(day, '15:00');
    const body: Record<string, unknown> = bookingBody(f, at(day, '15:00'), { staffer_uuid: null });
    expectError(await t.call('POST', '/bookings', body), 409, 'slot_unavailable');
  });
});
