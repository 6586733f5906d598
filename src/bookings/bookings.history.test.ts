import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  callAs,
  change,
  expectError,
  type Json,
  openStudio,
  type Studio,
  statusOfType,
  UTC_ISO,
  UUID,
} from '../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../test/helpers/build-test-app.js';
import { insertBookingRow } from '../../test/helpers/webhook-events.js';
import { createApiKey } from '../api-keys/api-keys.service.js';
import { openWritePath } from '../write-path.js';

let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

async function history(bookingId: string): Promise<Json[]> {
  const response = await s.t.call('GET', `/bookings/${bookingId}/history`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe('GET /bookings/{uuid}/history', () => {
  it('lists every change in order: action, changes, actor (the API key), created_at', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const start = at(day, '10:00');
    const booking = await book(t, bookingBody(f, start));
    const moved = await change(t, 'PUT', `/bookings/${booking.uuid}/reschedule`, {
      reserved_on: at(day, '11:00'),
    });
    const confirmed = await statusOfType(t, 'confirmed');
    await change(t, 'PUT', `/bookings/${booking.uuid}/status`, { status_uuid: confirmed.uuid });
    const note = (await t.call('POST', `/bookings/${booking.uuid}/public_notes`, { value: 'Hi' })).json()
      .data;
    await change(t, 'PUT', `/bookings/${booking.uuid}/staffer`, { staffer_uuid: f.ben.id });
    await change(t, 'PUT', `/bookings/${booking.uuid}/services`, {
      service_uuids: [f.haircut.id, f.color.id],
    });
    const done = await change(t, 'PUT', `/bookings/${booking.uuid}/status/complete`, {
      account_uuid: f.cash.id,
      paid_amount: 14000,
    });
    const payment = done.order.payments[0];
    const actor = { type: 'api_key', uuid: t.apiKey.uuid };
    const entries = await history(booking.uuid);
    expect(entries).toEqual(
      [
        {
          action: 'created',
          changes: { start_time: start, staffer_uuid: f.anna.id, service_uuids: [f.haircut.id] },
        },
        { action: 'rescheduled', changes: { start_time: { from: start, to: moved.start_time } } },
        {
          action: 'status_changed',
          changes: { status_uuid: { from: booking.status.uuid, to: confirmed.uuid } },
        },
        { action: 'note_added', changes: { note_uuid: note.uuid } },
        { action: 'staffer_changed', changes: { staffer_uuid: { from: f.anna.id, to: f.ben.id } } },
        {
          action: 'services_changed',
          changes: { service_uuids: { from: [f.haircut.id], to: [f.haircut.id, f.color.id] } },
        },
        {
          action: 'completed',
          changes: { payment: { uuid: payment.uuid, account_uuid: f.cash.id, amount: 14000 } },
        },
      ].map((entry) => ({
        uuid: expect.stringMatching(UUID),
        ...entry,
        actor,
        created_at: expect.stringMatching(UTC_ISO),
      })),
    );
    const times = entries.map((entry) => Date.parse(entry.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('records a cancel with its reason, and names the key that made each change', async () => {
    const { t, f } = s;
    const booking = await book(t, bookingBody(f, at(s.nextDay(), '10:00')));
    const second = await openWritePath(t.db).uow.run(t.workspace.id, (tx) =>
      createApiKey(tx, t.workspace.id, 'Front desk'),
    );
    const headers = { authorization: `Bearer ${second.secret}`, workspace: t.workspace.slug };
    const response = await callAs(t, headers, 'PUT', `/bookings/${booking.uuid}/status/cancel`, {
      cancel_reason: 'spam',
    });
    expect(response.statusCode).toBe(200);
    const entries = await history(booking.uuid);
    expect(entries.map((entry) => [entry.action, entry.actor.uuid])).toEqual([
      ['created', t.apiKey.uuid],
      ['canceled', second.uuid],
    ]);
    expect(entries[1].changes).toEqual({ cancel_reason: 'spam' });
  });

  it('adds nothing for a refused change', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const booking = await book(t, bookingBody(f, at(day, '10:00')));
    await book(t, bookingBody(f, at(day, '12:00'), { customer_phone: '+4915100000009' }));
    const completed = await statusOfType(t, 'completed');
    expectError(
      await t.call('PUT', `/bookings/${booking.uuid}/reschedule`, { reserved_on: at(day, '12:00') }),
      409,
      'slot_unavailable',
    );
    expectError(
      await t.call('PUT', `/bookings/${booking.uuid}/status`, { status_uuid: completed.uuid }),
      422,
      'validation_failed',
    );
    expectError(
      await t.call('PUT', `/bookings/${booking.uuid}/services`, {
        service_uuids: [f.haircut.id, f.haircut.id, f.color.id],
      }),
      409,
      'slot_unavailable',
    );
    expect((await history(booking.uuid)).map((entry) => entry.action)).toEqual(['created']);
  });

  it('adds nothing, and sends no event, for a change to what the booking already has', async () => {
    const { t, f } = s;
    const booking = await book(t, bookingBody(f, at(s.nextDay(), '10:00')));
    const unchanged: [string, Json][] = [
      ['reschedule', { reserved_on: booking.start_time }],
      ['staffer', { staffer_uuid: f.anna.id }],
      ['status', { status_uuid: booking.status.uuid }],
    ];
    for (const [what, body] of unchanged) {
      expect(await change(t, 'PUT', `/bookings/${booking.uuid}/${what}`, body), what).toEqual(booking);
    }
    expect((await history(booking.uuid)).map((entry) => entry.action)).toEqual(['created']);
    const events = await t.db
      .selectFrom('outbox_events')
      .select('type')
      .where('booking_id', '=', booking.uuid)
      .execute();
    expect(events.map((event) => event.type)).toEqual(['booking-created']);
  });

  it("is 404 for an unknown booking, another workspace's, or a malformed uuid", async () => {
    expectError(await s.t.call('GET', `/bookings/${randomUUID()}/history`), 404, 'not_found');
    expectError(await s.t.call('GET', '/bookings/xyz/history'), 404, 'not_found');
    const other = await createOtherWorkspace(s.t.db);
    const theirs = await insertBookingRow(s.t.db, other.workspace.id);
    const foreign = await s.t.call('GET', `/bookings/${theirs}/history`);
    expectError(foreign, 404, 'not_found');
    expect(foreign.json()).toEqual((await s.t.call('GET', `/bookings/${randomUUID()}/history`)).json());
  });
});
