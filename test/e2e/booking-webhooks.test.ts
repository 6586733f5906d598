import { describe, expect, it } from 'vitest';
import { type BookingFixture, bookingFixture } from '../helpers/booking-fixture.js';
import { drainWebhooks } from '../helpers/webhook-events.js';
import { useWebhookKit } from '../helpers/webhook-kit.js';
import { verifyReceived } from '../helpers/webhook-receiver.js';

/**
 * Each booking operation, through the real API, reaches a real receiver with
 * the events the public API names, signed per Standard Webhooks; a public note sends nothing.
 */
const kit = useWebhookKit();
let f: BookingFixture;

async function setUp() {
  kit.clock.set('2026-09-01T08:00:00Z');
  f ??= await bookingFixture(kit.t);
}

async function book(start: string, staffer = f.anna.id) {
  const response = await kit.t.call('POST', '/bookings', {
    reserved_on: start,
    location_uuid: f.location.id,
    service_uuid: f.haircut.id,
    staffer_uuid: staffer,
    customer_phone: '+4915112345678',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { uuid: string };
}

describe('booking operations delivered to a webhook receiver', () => {
  it('sends the SPEC events of each operation, signed, in order, and nothing for a public note', async () => {
    await setUp();
    const receiver = await kit.receiver();
    const hook = await kit.createWebhook(receiver.url);
    const worker = kit.worker();
    const expectDelivered = async (expected: string[]) => {
      const before = receiver.requests.length;
      await drainWebhooks(worker);
      // Events of one booking may arrive in any order (sends run concurrently); `sequence` orders them.
      const fresh = receiver.requests
        .slice(before)
        .sort((a, b) => (a.json().sequence as number) - (b.json().sequence as number));
      expect(fresh.map((request) => request.json().type)).toEqual(expected);
      return fresh;
    };

    const booking = await book('2026-09-10T08:00:00Z');
    const [created] = await expectDelivered(['booking-created']);
    expect(verifyReceived(hook.secret, created!, kit.clock.now())).toBeTruthy();
    const body = created!.json() as {
      workspace: string;
      sequence: number;
      data: { booking: { uuid: string } };
    };
    expect(body.workspace).toBe(kit.t.workspace.slug);
    expect(body.data.booking.uuid).toBe(booking.uuid);

    const id = booking.uuid;
    expect(
      (await kit.t.call('PUT', `/bookings/${id}/reschedule`, { reserved_on: '2026-09-10T09:00:00Z' }))
        .statusCode,
    ).toBe(200);
    const rescheduled = await expectDelivered(['booking-updated', 'booking-rescheduled']);
    for (const request of rescheduled)
      expect(verifyReceived(hook.secret, request, kit.clock.now())).toBeTruthy();
    expect((rescheduled[1]!.json().data as { booking: { start_time: string } }).booking.start_time).toBe(
      '2026-09-10T09:00:00Z',
    );

    expect(
      (await kit.t.call('POST', `/bookings/${id}/public_notes`, { value: 'Window seat' })).statusCode,
    ).toBe(201);
    await expectDelivered([]);

    const statuses = (await kit.t.call('GET', '/bookings/statuses')).json().data as {
      uuid: string;
      type: string;
    }[];
    const confirmed = statuses.find((status) => status.type === 'confirmed')!;
    expect(
      (await kit.t.call('PUT', `/bookings/${id}/status`, { status_uuid: confirmed.uuid })).statusCode,
    ).toBe(200);
    await expectDelivered(['booking-updated']);

    const complete = await kit.t.call('PUT', `/bookings/${id}/status/complete`, {
      account_uuid: f.cash.id,
      paid_amount: 9000,
    });
    expect(complete.statusCode).toBe(200);
    await expectDelivered(['booking-succeeded']);

    const second = await book('2026-09-10T11:00:00Z');
    await expectDelivered(['booking-created']);
    expect(
      (await kit.t.call('PUT', `/bookings/${second.uuid}/status/cancel`, { cancel_reason: 'postponed' }))
        .statusCode,
    ).toBe(200);
    const [canceled] = await expectDelivered(['booking-canceled']);
    expect((canceled!.json().data as { booking: { cancel_reason: string } }).booking.cancel_reason).toBe(
      'postponed',
    );

    // Sequence numbers increase per booking, so a receiver can order what retries reorder.
    const sequences = receiver.requests
      .map((request) => request.json() as { sequence: number; data: { booking: { uuid: string } } })
      .filter((event) => event.data.booking.uuid === id)
      .map((event) => event.sequence)
      .sort((a, b) => a - b);
    expect(sequences).toEqual([1, 2, 3, 4, 5]);
  });

  it('delivers to a receiver that was down once it is back, exactly once', async () => {
    await setUp();
    const receiver = await kit.receiver();
    await kit.createWebhook(receiver.url, ['booking-created']);
    const worker = kit.worker();
    await receiver.stop();
    const booking = await book('2026-09-11T08:00:00Z');
    await drainWebhooks(worker);
    expect(receiver.requests).toHaveLength(0);

    await receiver.restart();
    // The first retry is due about 5 s after the failed attempt.
    kit.clock.advance(10_000);
    await drainWebhooks(worker);
    const received = await receiver.waitFor(1);
    expect(received).toHaveLength(1);
    expect((received[0]!.json().data as { booking: { uuid: string } }).booking.uuid).toBe(booking.uuid);
    expect(received[0]!.attempt).toBe(2);
  });
});
