import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  change,
  eur,
  expect422,
  expectError,
  type Json,
  openStudio,
  type Studio,
  statusOfType,
  UTC_ISO,
} from '../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../test/helpers/build-test-app.js';
import { createLocation, createPaymentAccount } from '../../test/helpers/factories.js';
import { insertBookingRow } from '../../test/helpers/webhook-events.js';

let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

const CANCEL_REASONS = [
  'canceled',
  'didnt_come',
  'postponed',
  'wrong_order',
  'spam',
  'other',
  'abandoned',
  'rescheduled',
  'not_confirmed',
];

async function fresh(hhmm = '10:00'): Promise<Json> {
  return book(s.t, bookingBody(s.f, at(s.nextDay(), hhmm)));
}

describe('PUT /bookings/{uuid}/status/complete', () => {
  it('records the payment on the account and completes the booking', async () => {
    const { t, f } = s;
    const booking = await fresh();
    const done = await change(t, 'PUT', `/bookings/${booking.uuid}/status/complete`, {
      account_uuid: f.cash.id,
      paid_amount: 8550,
    });
    const completed = await statusOfType(t, 'completed');
    expect(done.is_completed).toBe(true);
    expect(done.is_canceled).toBe(false);
    expect(done.status).toEqual({ uuid: completed.uuid, name: completed.name, type: 'completed' });
    expect(done.order).toEqual({
      ...booking.order,
      amount_paid: 8550,
      amount_paid_formatted: eur(8550),
      payments: [
        {
          uuid: expect.any(String),
          account_uuid: f.cash.id,
          amount: 8550,
          // Recorded at completion by hand: no provider, no reference (docs/payments.md).
          provider: 'manual',
          reference: null,
          kind: 'payment',
          status: 'succeeded',
          created_at: expect.stringMatching(UTC_ISO),
        },
      ],
    });
    const rows = await t.db
      .selectFrom('payments')
      .select(['payment_account_id', 'amount'])
      .where('workspace_id', '=', t.workspace.id)
      .where('booking_id', '=', booking.uuid)
      .execute();
    expect(rows).toEqual([{ payment_account_id: f.cash.id, amount: 8550 }]);
    expect((await t.call('GET', `/bookings/${booking.uuid}`)).json().data).toEqual(done);
  });

  it('accepts a payment of 0', async () => {
    const booking = await fresh();
    const done = await change(s.t, 'PUT', `/bookings/${booking.uuid}/status/complete`, {
      account_uuid: s.f.cash.id,
      paid_amount: 0,
    });
    expect(done.is_completed).toBe(true);
    expect(done.order.amount_paid).toBe(0);
  });

  it('refuses an account of another location or workspace, and a bad amount, with 422', async () => {
    const { t } = s;
    const booking = await fresh();
    const path = `/bookings/${booking.uuid}/status/complete`;
    const elsewhere = await createLocation(t.db, t.workspace.id, { name: 'Elsewhere' });
    const theirDesk = await createPaymentAccount(t.db, t.workspace.id, elsewhere.id);
    const other = await createOtherWorkspace(t.db);
    const otherLocation = await createLocation(t.db, other.workspace.id);
    const foreignDesk = await createPaymentAccount(t.db, other.workspace.id, otherLocation.id);
    for (const account of [theirDesk.id, foreignDesk.id, randomUUID(), 'cash']) {
      expect422(await t.call('PUT', path, { account_uuid: account, paid_amount: 100 }), ['account_uuid']);
    }
    for (const amount of [-1, 10.5, 'lots', null, true, false, [5]]) {
      expect422(await t.call('PUT', path, { account_uuid: s.f.cash.id, paid_amount: amount }), [
        'paid_amount',
      ]);
    }
    expect422(await t.call('PUT', path, {}), ['account_uuid', 'paid_amount']);
    const read = (await t.call('GET', `/bookings/${booking.uuid}`)).json().data;
    expect(read.is_completed).toBe(false);
    expect(read.order.payments).toEqual([]);
  });
});

describe('PUT /bookings/{uuid}/status/cancel', () => {
  it('cancels without a body, with an empty body, and with a null reason', async () => {
    const { t } = s;
    const canceled = await statusOfType(t, 'canceled');
    for (const body of [undefined, {}, { cancel_reason: null }]) {
      const booking = await fresh();
      const done = await change(t, 'PUT', `/bookings/${booking.uuid}/status/cancel`, body);
      expect(done.is_canceled).toBe(true);
      expect(done.is_completed).toBe(false);
      expect(done.cancel_reason).toBeNull();
      expect(done.status).toEqual({ uuid: canceled.uuid, name: canceled.name, type: 'canceled' });
    }
  });

  it.each(CANCEL_REASONS)('keeps the reason %s', async (reason) => {
    const booking = await fresh();
    const done = await change(s.t, 'PUT', `/bookings/${booking.uuid}/status/cancel`, {
      cancel_reason: reason,
    });
    expect(done.cancel_reason).toBe(reason);
    expect((await s.t.call('GET', `/bookings/${booking.uuid}`)).json().data.cancel_reason).toBe(reason);
  });

  it('refuses an unknown reason with 422 cancel_reason and keeps the booking live', async () => {
    const booking = await fresh();
    for (const reason of ['bored', 42, 'CANCELED']) {
      expect422(await s.t.call('PUT', `/bookings/${booking.uuid}/status/cancel`, { cancel_reason: reason }), [
        'cancel_reason',
      ]);
    }
    expect((await s.t.call('GET', `/bookings/${booking.uuid}`)).json().data.is_canceled).toBe(false);
  });
});

describe('a completed or canceled booking is final', () => {
  async function finalBookings() {
    const completed = await fresh('10:00');
    await change(s.t, 'PUT', `/bookings/${completed.uuid}/status/complete`, {
      account_uuid: s.f.cash.id,
      paid_amount: 9000,
    });
    const canceled = await fresh('12:00');
    await change(s.t, 'PUT', `/bookings/${canceled.uuid}/status/cancel`, { cancel_reason: 'spam' });
    return [completed, canceled];
  }

  it('refuses every change with 409 booking_final and changes nothing', async () => {
    const { t, f } = s;
    const confirmed = await statusOfType(t, 'confirmed');
    const target = at(s.nextDay(), '15:00');
    for (const booking of await finalBookings()) {
      const before = (await t.call('GET', `/bookings/${booking.uuid}`)).json();
      const calls: [string, string, unknown][] = [
        ['PUT', 'reschedule', { reserved_on: target }],
        ['PUT', 'status', { status_uuid: confirmed.uuid }],
        ['POST', 'public_notes', { value: 'Too late' }],
        ['PUT', 'staffer', { staffer_uuid: f.ben.id }],
        ['PUT', 'services', { service_uuids: [f.color.id] }],
        ['PUT', 'status/complete', { account_uuid: f.cash.id, paid_amount: 100 }],
        ['PUT', 'status/cancel', { cancel_reason: 'other' }],
        ['PUT', 'status/cancel', undefined],
      ];
      for (const [method, action, body] of calls) {
        const response = await t.call(method, `/bookings/${booking.uuid}/${action}`, body);
        expectError(response, 409, 'booking_final');
      }
      expect((await t.call('GET', `/bookings/${booking.uuid}`)).json()).toEqual(before);
    }
  });
});

describe('bad input never gets a 5xx', () => {
  const changes: [string, string, unknown][] = [
    ['PUT', 'reschedule', { reserved_on: '2026-09-20T10:00:00Z' }],
    ['PUT', 'status', { status_uuid: randomUUID() }],
    ['POST', 'public_notes', { value: 'x' }],
    ['GET', 'public_notes', undefined],
    ['GET', 'history', undefined],
    ['PUT', 'staffer', { staffer_uuid: randomUUID() }],
    ['PUT', 'services', { service_uuids: [randomUUID()] }],
    ['PUT', 'status/complete', { account_uuid: randomUUID(), paid_amount: 1 }],
    ['PUT', 'status/cancel', undefined],
  ];

  it('a malformed uuid in the path is 404 on every booking route', async () => {
    for (const path of ['/bookings/not-a-uuid', '/bookings/123']) {
      expectError(await s.t.call('GET', path), 404, 'not_found');
      for (const [method, action, body] of changes) {
        expectError(await s.t.call(method, `${path}/${action}`, body), 404, 'not_found');
      }
    }
  });

  it("an unknown booking and another workspace's booking get the same 404", async () => {
    const other = await createOtherWorkspace(s.t.db);
    const theirs = await insertBookingRow(s.t.db, other.workspace.id);
    const unknown = randomUUID();
    const get = [await s.t.call('GET', `/bookings/${theirs}`), await s.t.call('GET', `/bookings/${unknown}`)];
    expect(get[0]!.json()).toEqual(get[1]!.json());
    expectError(get[0]!, 404, 'not_found');
    for (const [method, action, body] of changes) {
      const foreign = await s.t.call(method, `/bookings/${theirs}/${action}`, body);
      const missing = await s.t.call(method, `/bookings/${unknown}/${action}`, body);
      expectError(foreign, 404, 'not_found');
      expect(foreign.json()).toEqual(missing.json());
    }
    const untouched = await s.t.db
      .selectFrom('bookings')
      .select(['start_time', 'status_id'])
      .where('id', '=', theirs)
      .executeTakeFirstOrThrow();
    expect(untouched.start_time.toISOString()).toBe('2030-01-07T10:00:00.000Z');
  });

  it('malformed JSON and wrong body types on the change routes are 4xx', async () => {
    const booking = await fresh();
    for (const [method, action] of changes) {
      if (method === 'GET') continue;
      const malformed = await s.t.app.inject({
        method: method as 'PUT',
        url: `/api/public/v2/bookings/${booking.uuid}/${action}`,
        headers: { ...s.t.headers, 'content-type': 'application/json' },
        payload: '{"oops"',
      });
      expect(malformed.statusCode, `${action}: ${malformed.body}`).toBe(400);
      const wrongType = await s.t.call(method, `/bookings/${booking.uuid}/${action}`, [true]);
      expect(wrongType.statusCode, `${action}: ${wrongType.body}`).toBeGreaterThanOrEqual(400);
      expect(wrongType.statusCode, `${action}: ${wrongType.body}`).toBeLessThan(500);
      const text = await s.t.app.inject({
        method: method as 'PUT',
        url: `/api/public/v2/bookings/${booking.uuid}/${action}`,
        headers: { ...s.t.headers, 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expect(text.statusCode, `${action}: ${text.body}`).toBeGreaterThanOrEqual(400);
      expect(text.statusCode, `${action}: ${text.body}`).toBeLessThan(500);
    }
    const read = (await s.t.call('GET', `/bookings/${booking.uuid}`)).json().data;
    expect(read).toEqual({ ...booking, updated_at: read.updated_at });
  });
});
