import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKairosClient,
  type KairosClient,
  verifyWebhook,
  WebhookVerificationError,
} from '../../client/index.js';
import { type BookingFixture, bookingFixture } from '../helpers/booking-fixture.js';
import { drainWebhooks } from '../helpers/webhook-events.js';
import { useWebhookKit } from '../helpers/webhook-kit.js';

/**
 * The typed client against a real server over HTTP: what an integrator does first (list
 * locations, find a time, book it, move it, cancel it) and a webhook delivery verified with the
 * client's own verifier.
 */
const kit = useWebhookKit();
let client: KairosClient;
let f: BookingFixture;

beforeAll(async () => {
  await kit.t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = kit.t.app.server.address() as AddressInfo;
  client = createKairosClient({
    baseUrl: `http://127.0.0.1:${port}/`,
    apiKey: kit.t.apiKey.secret,
    workspace: kit.t.workspace.slug,
  });
  f = await bookingFixture(kit.t);
});
afterAll(() => kit.t.app.close());

/** The first two free starts of the haircut with Anna, from time-slots, a week ahead. */
async function freeStarts(): Promise<string[]> {
  const from = new Date(kit.clock.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const { data, error, response } = await client.GET('/locations/{locationUuid}/time-slots', {
    params: {
      path: { locationUuid: f.location.id },
      query: { service_uuid: f.haircut.id, staffer_uuid: f.anna.id, range_start: from, range_end: from },
    },
  });
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(response.status).toBe(200);
  const slots = data!.dates.flatMap((day) => day.slots.map((slot) => slot.start_time));
  expect(slots.length).toBeGreaterThan(1);
  return slots.slice(0, 2) as string[];
}

describe('the typed client', () => {
  it('lists locations, finds a time, books, reschedules and cancels', async () => {
    const locations = await client.GET('/locations');
    expect(locations.response.status).toBe(200);
    expect(locations.data!.data.map((location) => location.uuid)).toEqual([f.location.id]);

    const [first, second] = await freeStarts();
    const created = await client.POST('/bookings', {
      body: {
        reserved_on: first!,
        location_uuid: f.location.id,
        service_uuid: f.haircut.id,
        staffer_uuid: f.anna.id,
        customer_phone: '+4915170000031',
        customer_first_name: 'Typed',
      },
      headers: { 'idempotency-key': 'client-test-create' },
    });
    expect(created.response.status).toBe(201);
    const booking = created.data!.data;
    expect(booking.start_time).toBe(first);
    expect(created.data!.uuid).toBe(booking.uuid);

    const moved = await client.PUT('/bookings/{bookingUuid}/reschedule', {
      params: { path: { bookingUuid: booking.uuid } },
      body: { reserved_on: second! },
    });
    expect(moved.response.status, JSON.stringify(moved.error)).toBe(200);
    expect(moved.data!.data.start_time).toBe(second);

    const canceled = await client.PUT('/bookings/{bookingUuid}/status/cancel', {
      params: { path: { bookingUuid: booking.uuid } },
      body: { cancel_reason: 'canceled' },
    });
    expect(canceled.response.status, JSON.stringify(canceled.error)).toBe(200);
    expect(canceled.data!.data.is_canceled).toBe(true);
  });

  it('answers a refused request as a typed error, not a throw', async () => {
    const refused = await client.POST('/bookings', {
      body: {
        reserved_on: 'not a time',
        location_uuid: f.location.id,
        service_uuid: f.haircut.id,
        customer_phone: '+4915170000032',
      },
    });
    expect(refused.response.status).toBe(422);
    expect(refused.data).toBeUndefined();
    expect(refused.error).toMatchObject({ code: 'validation_failed' });
  });

  it("verifies a delivery's signature with the webhook's secret, and refuses a forged one", async () => {
    // The earlier tests' events go out first, before this webhook exists to receive them.
    await drainWebhooks(kit.worker());
    const receiver = await kit.receiver();
    const webhook = await client.POST('/webhooks', {
      body: { url: receiver.url, events: ['booking-created'] },
    });
    expect(webhook.response.status, JSON.stringify(webhook.error)).toBe(201);
    const { secret } = webhook.data!.data;
    const [start] = await freeStarts();
    const created = await client.POST('/bookings', {
      body: {
        reserved_on: start!,
        location_uuid: f.location.id,
        service_uuid: f.haircut.id,
        staffer_uuid: f.anna.id,
        customer_phone: '+4915170000033',
      },
    });
    expect(created.response.status).toBe(201);
    await drainWebhooks(kit.worker());
    expect(receiver.requests).toHaveLength(1);
    const [delivery] = receiver.requests;
    const event = verifyWebhook(secret, delivery!.headers, delivery!.body, kit.clock.now()) as {
      type: string;
      data: { booking: { uuid: string } };
    };
    expect(event.type).toBe('booking-created');
    expect(event.data.booking.uuid).toBe(created.data!.data.uuid);

    const otherSecret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    expect(() => verifyWebhook(otherSecret, delivery!.headers, delivery!.body, kit.clock.now())).toThrow(
      WebhookVerificationError,
    );
    const tampered = delivery!.body.replace('booking-created', 'booking-canceled');
    expect(() => verifyWebhook(secret, delivery!.headers, tampered, kit.clock.now())).toThrow(
      WebhookVerificationError,
    );
    // A captured delivery replayed an hour later is refused.
    expect(() =>
      verifyWebhook(secret, delivery!.headers, delivery!.body, kit.clock.now() + 3_600_000),
    ).toThrow(WebhookVerificationError);
  });
});
