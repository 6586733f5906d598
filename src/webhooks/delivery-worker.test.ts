import { describe, expect, it } from 'vitest';
import { useWebhookKit } from '../../test/helpers/webhook-kit.js';
import { type ReceivedRequest, verifyReceived } from '../../test/helpers/webhook-receiver.js';
import { outboxHandlers } from '../workers.js';
import { WebhookWorker } from './delivery-worker.js';

// `kit.t` is set in beforeAll: read it through `kit`, never destructure it.
const kit = useWebhookKit();
const { receiver, worker, createWebhook, emit, deliveries, webhook } = kit;
const clock = kit.clock;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('delivery', () => {
  it('POSTs the outbox body with Standard Webhooks headers that verify', async () => {
    const hook = await receiver();
    const { uuid, secret } = await createWebhook(hook.url);
    const bookingId = await emit(['booking-updated', 'booking-rescheduled']);
    const w = worker();
    const round = await w.runOnce();
    expect(round.dispatched).toBe(2);
    // One booking's events go out one after the other: the second in the next round.
    expect(round.outcomes).toEqual(['succeeded']);
    expect((await w.runOnce()).outcomes).toEqual(['succeeded']);

    const received = await hook.waitFor(2);
    const bodies = received.map(
      (request) => verifyReceived(secret, request, clock.now()) as Record<string, unknown>,
    );
    bodies.sort((a, b) => Number(a.sequence) - Number(b.sequence));
    expect(bodies.map((body) => body.type)).toEqual(['booking-updated', 'booking-rescheduled']);
    expect(bodies[1]!.sequence).toBe(Number(bodies[0]!.sequence) + 1);
    for (const body of bodies) {
      expect(Object.keys(body)).toEqual(['type', 'timestamp', 'workspace', 'sequence', 'data']);
      expect(body.workspace).toBe(kit.t.workspace.slug);
      expect(body.data).toEqual({ booking: { uuid: bookingId, note: 'test booking' } });
    }
    for (const request of received) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(Number(request.headers['webhook-timestamp'])).toBe(Math.floor(clock.now() / 1000));
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      // A tampered body no longer verifies.
      expect(() =>
        verifyReceived(secret, { ...request, body: request.body.replace('booking', 'bookinG') }, clock.now()),
      ).toThrow(/signature/i);
    }
    expect(new Set(received.map((request) => request.id)).size).toBe(2);

    const listed = await deliveries(uuid);
    expect(listed).toHaveLength(2);
    for (const delivery of listed) {
      expect(delivery).toMatchObject({
        state: 'succeeded',
        attempt_count: 1,
        last_status_code: 200,
        last_error: null,
      });
      expect(delivery.last_duration_ms).toBeGreaterThanOrEqual(0);
      expect(delivery.next_attempt_at).toBeNull();
    }
  });

  it('sends a webhook only the events it asked for, and nothing to a disabled one', async () => {
    const wanted = await receiver();
    const disabled = await receiver();
    await createWebhook(wanted.url, ['booking-canceled']);
    const off = await createWebhook(disabled.url);
    await kit.t.call('PUT', `/webhooks/${off.uuid}`, { enabled: false });
    await emit(['booking-created']);
    await emit(['booking-canceled']);
    await worker().runOnce();
    const received = await wanted.waitFor(1);
    expect(received.map((request) => request.json().type)).toEqual(['booking-canceled']);
    expect(disabled.requests).toHaveLength(0);
  });

  it('retries a failure after about 5 s with the same webhook-id, and stops when it succeeds', async () => {
    const hook = await receiver((_request: ReceivedRequest, index: number) => ({
      status: index === 0 ? 500 : 204,
    }));
    const { uuid } = await createWebhook(hook.url);
    await emit(['booking-created']);
    const w = worker();
    expect((await w.runOnce()).outcomes).toEqual(['retrying']);
    const [failed] = await deliveries(uuid);
    expect(failed).toMatchObject({ state: 'pending', attempt_count: 1, last_status_code: 500 });
    const wait = Date.parse(failed!.next_attempt_at!) - clock.now();
    expect(wait).toBeGreaterThanOrEqual(4 * SECOND);
    expect(wait).toBeLessThanOrEqual(6 * SECOND);

    expect((await w.runOnce()).outcomes).toEqual([]); // not due yet
    clock.advance(6 * SECOND);
    expect((await w.runOnce()).outcomes).toEqual(['succeeded']);
    const [first, second] = await hook.waitFor(2);
    expect(second!.id).toBe(first!.id);
    expect([first!.attempt, second!.attempt]).toEqual([1, 2]);
    clock.advance(HOUR);
    expect((await w.runOnce()).outcomes).toEqual([]);
    const [done] = await deliveries(uuid);
    expect(done).toMatchObject({ state: 'succeeded', attempt_count: 2, last_status_code: 204 });
    expect(done!.attempts.map((attempt) => attempt.status_code)).toEqual([500, 204]);
  });

  it('follows the schedule 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then gives up', async () => {
    const hook = await receiver(() => ({ status: 500 }));
    const { uuid } = await createWebhook(hook.url);
    await emit(['booking-created']);
    // random = 0.5 puts the jitter factor at exactly 1.
    const w = worker({ random: () => 0.5 });
    const expected = [
      5 * SECOND,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      14 * HOUR,
      20 * HOUR,
      24 * HOUR,
    ];
    const waits: number[] = [];
    await w.runOnce();
    for (;;) {
      const [delivery] = await deliveries(uuid);
      if (delivery!.state !== 'pending') break;
      const next = Date.parse(delivery!.next_attempt_at!);
      waits.push(next - clock.now());
      clock.set(new Date(next).toISOString());
      expect((await w.runOnce()).outcomes).toHaveLength(1);
    }
    expect(waits).toEqual(expected);
    const [given] = await deliveries(uuid);
    expect(given).toMatchObject({ state: 'failed', attempt_count: 10, next_attempt_at: null });
    expect(hook.requests).toHaveLength(10);
    expect(hook.requests.map((request) => request.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('spreads retries with jitter', async () => {
    const hook = await receiver(() => ({ status: 500 }));
    const { uuid } = await createWebhook(hook.url);
    await emit(['booking-created']);
    await worker({ random: () => 0 }).runOnce();
    const [low] = await deliveries(uuid);
    expect(Date.parse(low!.next_attempt_at!) - clock.now()).toBe(4.5 * SECOND);
  });

  for (const status of [429, 503]) {
    it(`honours Retry-After on ${status}`, async () => {
      const hook = await receiver((_request: ReceivedRequest, index: number) =>
        index === 0 ? { status, headers: { 'retry-after': '120' } } : { status: 200 },
      );
      const { uuid } = await createWebhook(hook.url);
      await emit(['booking-created']);
      const w = worker();
      await w.runOnce();
      const [delivery] = await deliveries(uuid);
      expect(Date.parse(delivery!.next_attempt_at!) - clock.now()).toBe(120 * SECOND);
      clock.advance(60 * SECOND); // well past the 5 s the schedule alone would give
      expect((await w.runOnce()).outcomes).toEqual([]);
      clock.advance(60 * SECOND);
      expect((await w.runOnce()).outcomes).toEqual(['succeeded']);
      expect(hook.requests).toHaveLength(2);
    });
  }

  it('disables the webhook on 410 Gone and sends it nothing more', async () => {
    const hook = await receiver(() => ({ status: 410 }));
    const { uuid } = await createWebhook(hook.url);
    await emit(['booking-created']);
    const w = worker();
    expect((await w.runOnce()).outcomes).toEqual(['failed']);
    expect(await webhook(uuid)).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    const [delivery] = await deliveries(uuid);
    expect(delivery).toMatchObject({ state: 'failed', last_status_code: 410, next_attempt_at: null });
    await emit(['booking-canceled']);
    clock.advance(HOUR);
    await w.runOnce();
    expect(hook.requests).toHaveLength(1);
    expect(await deliveries(uuid)).toHaveLength(1);
  });

  it('disables a webhook that has failed for 3 days, and re-enabling clears it', async () => {
    const hook = await receiver(() => ({ status: 500 }));
    const { uuid } = await createWebhook(hook.url);
    await emit(['booking-created']);
    const w = worker({ random: () => 0.5 });
    const firstFailure = clock.now();
    await w.runOnce();
    expect(await webhook(uuid)).toMatchObject({
      enabled: true,
      failing_since: new Date(firstFailure).toISOString(),
    });
    // Follow the retries; the webhook stays enabled while the streak is under 3 days.
    let disabledAt: number | undefined;
    for (let round = 0; round < 12 && disabledAt === undefined; round += 1) {
      const [delivery] = await deliveries(uuid);
      if (delivery!.state !== 'pending') break;
      clock.set(delivery!.next_attempt_at!);
      await w.runOnce();
      const now = await webhook(uuid);
      if (!now.enabled) disabledAt = clock.now();
      else expect(clock.now() - firstFailure).toBeLessThan(72 * HOUR);
    }
    expect(disabledAt! - firstFailure).toBeGreaterThanOrEqual(72 * HOUR);
    expect(await webhook(uuid)).toMatchObject({ enabled: false, disabled_reason: 'failing' });

    const enabled = await kit.t.call('PUT', `/webhooks/${uuid}`, { enabled: true });
    expect(enabled.json().data).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const target = await receiver();
    const redirecting = await receiver(() => ({ status: 307, headers: { location: target.url } }));
    const { uuid } = await createWebhook(redirecting.url);
    await emit(['booking-created']);
    expect((await worker().runOnce()).outcomes).toEqual(['retrying']);
    expect(redirecting.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
    const [delivery] = await deliveries(uuid);
    expect(delivery).toMatchObject({ state: 'pending', last_status_code: 307 });
    expect(delivery!.last_error).toMatch(/redirect/i);
  });

  it('gives up on a receiver that never answers after the timeout (10 s unless configured)', async () => {
    expect(
      new WebhookWorker({
        handlers: outboxHandlers(),
        db: kit.t.db,
        clock,
        allowPrivate: true,
      }).timeoutMs,
    ).toBe(10_000);
    const hook = await receiver(() => 'hang');
    const { uuid } = await createWebhook(hook.url);
    await emit(['booking-created']);
    const started = performance.now();
    expect((await worker({ timeoutMs: 300 }).runOnce()).outcomes).toEqual(['retrying']);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(hook.requests).toHaveLength(1);
    const [delivery] = await deliveries(uuid);
    expect(delivery).toMatchObject({ state: 'pending', last_status_code: null });
    expect(delivery!.last_error).toMatch(/timed out/i);
    expect(delivery!.last_duration_ms).toBeGreaterThanOrEqual(300);
  });

  it('delivers to a receiver that was down once it is back', async () => {
    const hook = await receiver();
    const { uuid } = await createWebhook(hook.url);
    await hook.stop();
    await emit(['booking-succeeded']);
    const w = worker();
    expect((await w.runOnce()).outcomes).toEqual(['retrying']);
    const [down] = await deliveries(uuid);
    expect(down!.last_error).toMatch(/refused/i);
    await hook.restart();
    clock.advance(6 * SECOND);
    expect((await w.runOnce()).outcomes).toEqual(['succeeded']);
    const [received] = await hook.waitFor(1);
    expect(received!.json().type).toBe('booking-succeeded');
    expect(received!.attempt).toBe(2);
  });

  it('signs with both secrets for 24 h after a rotation, then with the new one only', async () => {
    const hook = await receiver();
    const { uuid, secret: oldSecret } = await createWebhook(hook.url);
    const rotated = await kit.t.call('POST', `/webhooks/${uuid}/rotate-secret`);
    const newSecret: string = rotated.json().data.secret;
    const w = worker();

    expect((await kit.t.call('POST', `/webhooks/${uuid}/test`)).statusCode).toBe(202);
    await w.runOnce();
    const [during] = await hook.waitFor(1);
    expect(during!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyReceived(oldSecret, during!, clock.now())).toMatchObject({ type: 'test' });
    expect(verifyReceived(newSecret, during!, clock.now())).toMatchObject({ type: 'test' });

    clock.advance(24 * HOUR + SECOND);
    await kit.t.call('POST', `/webhooks/${uuid}/test`);
    await w.runOnce();
    const [, after] = await hook.waitFor(2);
    expect(after!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifyReceived(newSecret, after!, clock.now())).toMatchObject({ type: 'test' });
    expect(() => verifyReceived(oldSecret, after!, clock.now())).toThrow(/signature/i);
  });
});
