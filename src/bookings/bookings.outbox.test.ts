import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  change,
  expectError,
  historyCount,
  type Json,
  NOW,
  openStudio,
  outboxOf,
  type Studio,
  statusOfType,
} from '../../test/bookings/bookings-kit.js';

// Each change writes its events to outbox_events in its own
// transaction; the payload carries the booking exactly as the API answered the change.
let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

/** Events of the booking written after `seen` of them, as [type, sequence, payload]. */
async function newEvents(bookingId: string, seen: number) {
  const rows = await outboxOf(s.t, bookingId);
  return rows
    .slice(seen)
    .map((row) => ({ type: row.type, sequence: row.sequence, payload: row.payload as Json }));
}

function payloadOf(type: string, sequence: number, booking: Json) {
  return {
    type,
    timestamp: expect.any(String),
    workspace: s.t.workspace.slug,
    sequence,
    data: { booking },
  };
}

describe('events per operation', () => {
  it('create, reschedule, status, note, staffer, services, complete', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const created = await book(t, bookingBody(f, at(day, '10:00')));
    const id = created.uuid;
    let seen = 0;
    const expectNext = async (types: string[], booking: Json) => {
      const events = await newEvents(id, seen);
      expect(events.map((e) => e.type)).toEqual(types);
      events.forEach((event, i) => {
        expect(event.sequence).toBe(seen + i + 1);
        expect(event.payload).toEqual(payloadOf(types[i]!, seen + i + 1, booking));
        // The event's time is the app's clock at the change.
        expect(Date.parse(event.payload.timestamp)).toBe(s.clock.now());
      });
      seen += events.length;
    };

    await expectNext(['booking-created'], created);
    const moved = await change(t, 'PUT', `/bookings/${id}/reschedule`, { reserved_on: at(day, '11:00') });
    await expectNext(['booking-updated', 'booking-rescheduled'], moved);
    const confirmed = await statusOfType(t, 'confirmed');
    s.clock.advance(60_000);
    const status = await change(t, 'PUT', `/bookings/${id}/status`, { status_uuid: confirmed.uuid });
    await expectNext(['booking-updated'], status);
    const note = await t.call('POST', `/bookings/${id}/public_notes`, { value: 'No event for me' });
    expect(note.statusCode).toBe(201);
    await expectNext([], null);
    const staffer = await change(t, 'PUT', `/bookings/${id}/staffer`, { staffer_uuid: f.ben.id });
    // The note is in the booking of later events.
    expect(staffer.public_notes).toBe('No event for me');
    await expectNext(['booking-updated'], staffer);
    const services = await change(t, 'PUT', `/bookings/${id}/services`, { service_uuids: [f.color.id] });
    await expectNext(['booking-updated'], services);
    const done = await change(t, 'PUT', `/bookings/${id}/status/complete`, {
      account_uuid: f.cash.id,
      paid_amount: 5000,
    });
    await expectNext(['booking-succeeded'], done);
    expect((await outboxOf(t, id)).map((row) => row.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    s.clock.set(NOW);
  });

  it('cancel writes only booking-canceled; sequences are per booking', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const first = await book(t, bookingBody(f, at(day, '10:00')));
    const second = await book(t, bookingBody(f, at(day, '12:00')));
    const canceled = await change(t, 'PUT', `/bookings/${second.uuid}/status/cancel`, {
      cancel_reason: 'other',
    });
    expect(await newEvents(second.uuid, 0)).toEqual([
      { type: 'booking-created', sequence: 1, payload: payloadOf('booking-created', 1, second) },
      { type: 'booking-canceled', sequence: 2, payload: payloadOf('booking-canceled', 2, canceled) },
    ]);
    expect((await newEvents(first.uuid, 0)).map((e) => [e.type, e.sequence])).toEqual([
      ['booking-created', 1],
    ]);
    const rows = await t.db
      .selectFrom('outbox_events')
      .select(['workspace_id', 'dispatched_at'])
      .where('booking_id', 'in', [first.uuid, second.uuid])
      .execute();
    for (const row of rows) expect(row).toEqual({ workspace_id: t.workspace.id, dispatched_at: null });
  });
});

describe('a refused change is not half-written', () => {
  it('writes no event, no history and changes nothing on 409 or 422', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const booking = await book(t, bookingBody(f, at(day, '10:00')));
    await book(t, bookingBody(f, at(day, '12:00'), { customer_phone: '+4915100000201' }));
    await book(
      t,
      bookingBody(f, at(day, '10:00'), { staffer_uuid: f.ben.id, customer_phone: '+4915100000202' }),
    );
    const id = booking.uuid;
    const completed = await statusOfType(t, 'completed');
    const refused: [string, string, unknown, number][] = [
      ['PUT', 'reschedule', { reserved_on: at(day, '12:30') }, 409],
      ['PUT', 'reschedule', { reserved_on: `${day}T08:05:30Z` }, 409],
      ['PUT', 'status', { status_uuid: completed.uuid }, 422],
      ['PUT', 'staffer', { staffer_uuid: f.ben.id }, 409],
      ['PUT', 'services', { service_uuids: [f.haircut.id, f.haircut.id, f.color.id] }, 409],
      ['PUT', 'status/complete', { account_uuid: f.anna.id, paid_amount: 100 }, 422],
      ['PUT', 'status/complete', { account_uuid: f.cash.id, paid_amount: -100 }, 422],
      ['PUT', 'status/cancel', { cancel_reason: 'whim' }, 422],
      ['POST', 'public_notes', { value: '' }, 422],
    ];
    for (const [method, action, body, status] of refused) {
      const response = await t.call(method, `/bookings/${id}/${action}`, body);
      expect(response.statusCode, `${action}: ${response.body}`).toBe(status);
    }
    expect((await outboxOf(t, id)).map((row) => row.type)).toEqual(['booking-created']);
    expect(await historyCount(t, id)).toBe(1);
    const payments = await t.db.selectFrom('payments').select('id').where('booking_id', '=', id).execute();
    expect(payments).toEqual([]);
    const read = (await t.call('GET', `/bookings/${id}`)).json().data;
    expect(read).toEqual(booking);
    // The booking's sequence was not used up by the refusals: the next event is number 2.
    await change(t, 'PUT', `/bookings/${id}/status/cancel`);
    expect((await outboxOf(t, id)).map((row) => [row.type, row.sequence])).toEqual([
      ['booking-created', 1],
      ['booking-canceled', 2],
    ]);
    expectError(await t.call('PUT', `/bookings/${id}/status/cancel`), 409, 'booking_final');
    expect((await outboxOf(t, id)).length).toBe(2);
  });

  it('a refused create writes no booking, customer, seat or event', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    await book(t, bookingBody(f, at(day, '10:00')));
    const count = async (table: 'bookings' | 'customers' | 'occupancies' | 'outbox_events') =>
      (await t.db.selectFrom(table).select('id').where('workspace_id', '=', t.workspace.id).execute()).length;
    const before = await Promise.all([
      count('bookings'),
      count('customers'),
      count('occupancies'),
      count('outbox_events'),
    ]);
    const taken = await t.call(
      'POST',
      '/bookings',
      bookingBody(f, at(day, '10:30'), { customer_phone: '+4915100000203' }),
    );
    expectError(taken, 409, 'slot_unavailable');
    const after = await Promise.all([
      count('bookings'),
      count('customers'),
      count('occupancies'),
      count('outbox_events'),
    ]);
    expect(after).toEqual(before);
  });
});
