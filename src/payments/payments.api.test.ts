import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, bookingBody, type Json, openStudio, type Studio } from '../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../test/helpers/build-test-app.js';
import { FakeStripe } from '../../test/helpers/fake-stripe.js';
import { type Config, loadConfig } from '../config.js';
import type { MailSnapshot } from '../notifications/mail-message.js';
import { renderMail } from '../notifications/mail-render.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { outboxHandlers } from '../workers.js';
import { openWritePath } from '../write-path.js';
import { attemptDueOperations, OPERATION_CLAIM_MS } from './payment-operations.service.js';
import { connectStripe } from './payment-settings.service.js';
import { systemBookingContext } from './payment-sweeper.js';
import { claimDueOperations } from './payments.repository.js';
import { releaseExpiredHolds } from './payments.service.js';

/**
 * Payments through the API end to end: the real app listening on loopback (the fake Stripe
 * posts its signed webhooks to it), the official stripe package pointed at the fake, a real store.
 */
const SECRET_KEY = 'payments-api-test-secret-key-0123456789';
const WEBHOOK_SECRET = 'whsec_paymentsApiTest0123';
let s: Studio;
let fake: FakeStripe;
let base: string;
let config: Config;
const uow = () => openWritePath(s.t.db).uow;
const contextOf = () => systemBookingContext({ db: s.t.db, uow: uow(), linkBase: base }, () => s.clock.now());

beforeAll(async () => {
  fake = await FakeStripe.start();
  fake.autoDeliver = false;
  config = { ...loadConfig({}), stripeApiBase: fake.origin, secretKey: SECRET_KEY };
  s = await openStudio({ config: { stripeApiBase: fake.origin, secretKey: SECRET_KEY } });
  await s.t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(s.t.app.server.address() as AddressInfo).port}`;
  await connectStripe(
    openWritePath(s.t.db).uow,
    s.t.workspace.id,
    { type: 'user', id: null },
    { secret_key: fake.secretKey, webhook_secret: WEBHOOK_SECRET },
    config,
  );
  fake.endpoints.push({ url: `${base}/hooks/payments/${s.t.workspace.id}/stripe`, secret: WEBHOOK_SECRET });
});
afterAll(async () => {
  await s.t.close();
  await fake.stop();
});

const setPolicy = (serviceId: string, body: Record<string, unknown>) =>
  s.t.call('PUT', `/services/${serviceId}/payment_policy`, body);

async function bookCollecting(start: string, overrides: Record<string, unknown> = {}): Promise<Json> {
  const response = await s.t.call('POST', '/bookings', {
    ...bookingBody(s.f, start),
    collect_payment: true,
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

const sessionOf = (booking: Json) => {
  const link = booking.links.find((l: Json) => l.type === 'payment')?.link as string;
  return link.slice(link.lastIndexOf('/') + 1);
};

const getBooking = async (id: string) => (await s.t.call('GET', `/bookings/${id}`)).json().data;

describe('a service payment policy through the API', () => {
  it('sets a deposit with a preset and reads it back; another workspace does not see the service', async () => {
    const response = await setPolicy(s.f.haircut.id, {
      collect: 'deposit',
      deposit_type: 'percent',
      deposit_percent: 20,
      preset: 'moderate',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      collect: 'deposit',
      deposit_type: 'percent',
      deposit_amount: null,
      deposit_percent: 20,
      preset: 'moderate',
      free_cancellation_hours: 24,
      late_cancel_fee_percent: 50,
      no_show_fee_percent: 100,
    });
    expect(
      (await s.t.call('GET', `/services/${s.f.haircut.id}/payment_policy`)).json().data.deposit_percent,
    ).toBe(20);
    const other = await createOtherWorkspace(s.t.db);
    const foreign = await s.t.app.inject({
      method: 'GET',
      url: `/api/public/v2/services/${s.f.haircut.id}/payment_policy`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses a deposit without an amount, in one 422', async () => {
    const response = await setPolicy(s.f.haircut.id, {
      collect: 'deposit',
      deposit_type: 'fixed',
      preset: 'strict',
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['deposit_amount']);
  });
});

describe('a booking that collects a deposit', () => {
  it('without collect_payment is confirmed as before: no payment state, no payment link', async () => {
    const booking = await s.t.call('POST', '/bookings', bookingBody(s.f, at(s.nextDay(), '10:00')));
    expect(booking.statusCode).toBe(201);
    const data = booking.json().data;
    expect(data.payment).toBeUndefined();
    expect(data.links.map((l: Json) => l.type)).toEqual(['manage', 'ical']);
    expect(fake.sessions.size).toBe(0);
  });

  it('waits for payment, holding its slot, with the payment link to the hosted page', async () => {
    const start = at(s.nextDay(), '10:00');
    const booking = await bookCollecting(start);
    expect(booking.payment).toEqual({
      state: 'awaiting_payment',
      hold_until: new Date(s.clock.now() + 15 * 60_000).toISOString().replace('.000Z', 'Z'),
    });
    const session = fake.sessions.get(sessionOf(booking));
    // 20% of 90.00
    expect(session).toMatchObject({ mode: 'payment', amount_total: 1800, currency: 'eur', status: 'open' });
    expect(booking.links.find((l: Json) => l.type === 'payment').link).toBe(
      `${fake.origin}/checkout/${session?.id}`,
    );
    // The slot is held: the same staffer at the same time is refused.
    const again = await s.t.call('POST', '/bookings', bookingBody(s.f, start));
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('slot_unavailable');
  });

  it('records the deposit once from webhooks in any order, duplicates and the return, into the order', async () => {
    const booking = await bookCollecting(at(s.nextDay(), '11:00'));
    const sessionId = sessionOf(booking);
    const before = fake.events.length;
    fake.pay(sessionId);
    const events = fake.events.slice(before);
    expect(events.map((e) => e.type)).toEqual(['payment_intent.succeeded', 'checkout.session.completed']);
    // Reordered and duplicated.
    for (const event of [events[1], events[0], events[1], events[1]])
      expect(await fake.deliver(event as Json)).toEqual([200]);
    // The customer's return after the webhooks: no second record.
    const back = await s.t.app.inject({
      method: 'GET',
      url: `/hooks/payments/${s.t.workspace.id}/stripe/return?session=${sessionId}`,
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toMatch(/\/book\/[^/]+\/manage\//);

    const paid = await getBooking(booking.uuid);
    expect(paid.payment).toEqual({ state: 'paid', hold_until: null });
    expect(paid.links.map((l: Json) => l.type)).toEqual(['manage', 'ical']);
    const intent = (fake.sessions.get(sessionId) as Json).payment_intent;
    const order = (await s.t.call('GET', `/orders/${paid.order.uuid}`)).json().data;
    expect(order.payments).toEqual([
      {
        uuid: expect.any(String),
        account_uuid: expect.any(String),
        amount: 1800,
        provider: 'stripe',
        reference: intent,
        kind: 'deposit',
        status: 'succeeded',
        created_at: expect.any(String),
      },
    ]);
    expect(order.amount_paid).toBe(1800);
    // One payment-succeeded event for the webhooks, however often it was told.
    const outbox = await s.t.db
      .selectFrom('outbox_events')
      .select(['type', 'payload'])
      .where('workspace_id', '=', s.t.workspace.id)
      .where('type', 'in', ['payment-succeeded', 'payment-refunded', 'payment-failed'])
      .execute();
    const mine = outbox.filter((e) => (e.payload as Json).data.payment.reference === intent);
    expect(mine.map((e) => e.type)).toEqual(['payment-succeeded']);
    expect((mine[0] as Json).payload.data.payment).toMatchObject({
      booking_uuid: booking.uuid,
      order_uuid: paid.order.uuid,
      kind: 'deposit',
      amount: 1800,
      currency: 'EUR',
      status: 'succeeded',
    });
    // Credited to the location's online account.
    const accounts = (await s.t.call('GET', `/locations/${s.f.location.id}/accounts`)).json().data;
    expect(accounts.find((a: Json) => a.uuid === order.payments[0].account_uuid)).toMatchObject({
      name: 'Stripe',
    });
  });

  it('the return without any webhook records the payment too', async () => {
    const booking = await bookCollecting(at(s.nextDay(), '12:00'));
    const sessionId = sessionOf(booking);
    fake.pay(sessionId);
    const back = await s.t.app.inject({
      method: 'GET',
      url: `/hooks/payments/${s.t.workspace.id}/stripe/return?session=${sessionId}`,
    });
    expect(back.statusCode).toBe(303);
    const paid = await getBooking(booking.uuid);
    expect(paid.payment.state).toBe('paid');
    expect(paid.order.amount_paid).toBe(1800);
  });

  it('refuses forged webhooks and webhooks sent to another workspace; records nothing from them', async () => {
    const booking = await bookCollecting(at(s.nextDay(), '13:00'));
    const sessionId = sessionOf(booking);
    const before = fake.events.length;
    fake.pay(sessionId);
    const completed = fake.events.slice(before).find((e) => e.type === 'checkout.session.completed') as Json;
    expect(await fake.deliver(completed, { secret: 'whsec_forgedSecret000' })).toEqual([400]);
    const other = await createOtherWorkspace(s.t.db);
    const wrong = await fetch(`${base}/hooks/payments/${other.workspace.id}/stripe`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(wrong.status).toBe(404);
    const unpaid = await getBooking(booking.uuid);
    expect(unpaid.payment.state).toBe('awaiting_payment');
    expect(unpaid.order.payments).toEqual([]);
  });

  it('with an Idempotency-Key on the embedded store, collect_payment answers (the keyed transaction reads through its own connection)', async () => {
    const body = { ...bookingBody(s.f, at(s.nextDay(), '12:00')), collect_payment: true };
    const keyed = await s.t.call('POST', '/bookings', body, { 'idempotency-key': 'collect-with-a-key' });
    expect(keyed.statusCode, keyed.body).toBe(201);
    expect(keyed.json().data.payment.state).toBe('awaiting_payment');
    const again = await s.t.call('POST', '/bookings', body, { 'idempotency-key': 'collect-with-a-key' });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.uuid).toBe(keyed.json().data.uuid);
  });

  it('a workspace without a provider answers 409 to collect_payment and books nothing', async () => {
    const other = await createOtherWorkspace(s.t.db);
    const response = await s.t.app.inject({
      method: 'POST',
      url: '/api/public/v2/bookings',
      headers: other.headers,
      payload: { ...bookingBody(s.f, at(s.nextDay(), '10:00')), collect_payment: true },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('payment_provider_missing');
    // The same with an Idempotency-Key: answered too, not left waiting on the store.
    const keyed = await s.t.app.inject({
      method: 'POST',
      url: '/api/public/v2/bookings',
      headers: { ...other.headers, 'idempotency-key': 'no-provider-keyed' },
      payload: { ...bookingBody(s.f, at(s.nextDay(), '10:00')), collect_payment: true },
    });
    expect(keyed.statusCode).toBe(409);
  });

  it('a provider outage while making the checkout answers 503 and leaves the slot free', async () => {
    const start = at(s.nextDay(), '14:00');
    fake.fault = (request) => (request.path === '/v1/checkout/sessions' ? { status: 500 } : undefined);
    const failed = await s.t.call('POST', '/bookings', { ...bookingBody(s.f, start), collect_payment: true });
    fake.fault = () => undefined;
    expect(failed.statusCode).toBe(503);
    expect(failed.json().code).toBe('payment_provider_unavailable');
    const plain = await s.t.call('POST', '/bookings', bookingBody(s.f, start));
    expect(plain.statusCode, plain.body).toBe(201);
  });
});

describe('an unpaid hold', () => {
  it('is released after 15 minutes: canceled as abandoned, the slot free at once, the checkout expired', async () => {
    const start = at(s.nextDay(), '15:00');
    const booking = await bookCollecting(start);
    const sessionId = sessionOf(booking);
    // Not before the hold ends.
    s.clock.advance(14 * 60_000);
    await releaseExpiredHolds(s.t.db, contextOf(), s.clock.now());
    expect((await getBooking(booking.uuid)).payment.state).toBe('awaiting_payment');
    s.clock.advance(60_000);
    expect(await releaseExpiredHolds(s.t.db, contextOf(), s.clock.now())).toBeGreaterThanOrEqual(1);
    const released = await getBooking(booking.uuid);
    expect(released).toMatchObject({
      is_canceled: true,
      cancel_reason: 'abandoned',
      payment: { state: 'failed', hold_until: null },
    });
    expect((await s.t.call('POST', '/bookings', bookingBody(s.f, start))).statusCode).toBe(201);
    expect(await attemptDueOperations(s.t.db, uow(), config, s.clock.now())).toBeGreaterThanOrEqual(1);
    expect(fake.sessions.get(sessionId)?.status).toBe('expired');
  });

  it('paid in the last second after its release: recorded once and refunded in full, never charged twice', async () => {
    const booking = await bookCollecting(at(s.nextDay(), '16:00'));
    const sessionId = sessionOf(booking);
    const before = fake.events.length;
    fake.pay(sessionId); // on the hosted page, just before the expiry reaches Stripe
    s.clock.advance(15 * 60_000);
    await releaseExpiredHolds(s.t.db, contextOf(), s.clock.now());
    expect((await getBooking(booking.uuid)).cancel_reason).toBe('abandoned');
    for (const event of fake.events.slice(before)) await fake.deliver(event);
    // The expiry finds it complete; the refund is owed, then sent (twice over: once is done).
    await attemptDueOperations(s.t.db, uow(), config, s.clock.now());
    await attemptDueOperations(s.t.db, uow(), config, s.clock.now());
    const order = (await getBooking(booking.uuid)).order;
    expect(order.payments.map((p: Json) => [p.kind, p.amount, p.status])).toEqual([
      ['deposit', 1800, 'succeeded'],
      ['refund', 1800, 'succeeded'],
    ]);
    expect(order.amount_paid).toBe(0);
    const intent = (fake.sessions.get(sessionId) as Json).payment_intent;
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === intent)).toHaveLength(1);
    const refunded = await s.t.db
      .selectFrom('outbox_events')
      .select('payload')
      .where('workspace_id', '=', s.t.workspace.id)
      .where('type', '=', 'payment-refunded')
      .execute();
    expect(
      refunded.filter((e) => (e.payload as Json).data.payment.booking_uuid === booking.uuid),
    ).toHaveLength(1);
  });
});

describe('a paid booking canceled or not attended', () => {
  const settle = async () => {
    // The cancellation's event is dispatched (twice over: once settles), then the owed calls sent.
    await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1000);
    await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1000);
    await attemptDueOperations(s.t.db, uow(), config, s.clock.now());
    await attemptDueOperations(s.t.db, uow(), config, s.clock.now());
  };
  const paidBooking = async (start: string, overrides: Record<string, unknown> = {}) => {
    const booking = await bookCollecting(start, overrides);
    const sessionId = sessionOf(booking);
    const before = fake.events.length;
    fake.pay(sessionId);
    for (const event of fake.events.slice(before)) await fake.deliver(event);
    return {
      booking,
      sessionId,
      intent: (fake.sessions.get(sessionId) as Json).payment_intent as string | null,
    };
  };
  const movements = async (id: string) =>
    (await getBooking(id)).order.payments.map((p: Json) => [p.kind, p.amount, p.status]);

  it('inside the free period: the deposit is refunded in full, once', async () => {
    await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1000);
    const { booking, intent } = await paidBooking(at(s.nextDay(), '10:00'));
    const cancel = await s.t.call('PUT', `/bookings/${booking.uuid}/status/cancel`, {
      cancel_reason: 'canceled',
    });
    expect(cancel.statusCode).toBe(200);
    await settle();
    expect(await movements(booking.uuid)).toEqual([
      ['deposit', 1800, 'succeeded'],
      ['refund', 1800, 'succeeded'],
    ]);
    expect(
      [...fake.refunds.values()].filter((r) => r.payment_intent === intent).map((r) => r.amount),
    ).toEqual([1800]);
    // The refund's own webhook, late, lands on the same record.
    for (const event of fake.eventsOf('refund.created')) await fake.deliver(event);
    expect((await getBooking(booking.uuid)).order.amount_paid).toBe(0);
  });

  it('the customer gets an email for the deposit and one for the refund, each once, with its amount', async () => {
    const { booking } = await paidBooking(at(s.nextDay(), '15:00'), { customer_email: 'payer@example.com' });
    await s.t.call('PUT', `/bookings/${booking.uuid}/status/cancel`, { cancel_reason: 'canceled' });
    await settle();
    // The refund's event is dispatched in a later round, and again: still one email each.
    await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1000);
    await dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1000);
    const mails = await s.t.db
      .selectFrom('mail_messages')
      .select(['kind', 'recipient', 'snapshot'])
      .where('workspace_id', '=', s.t.workspace.id)
      .where('booking_id', '=', booking.uuid)
      .where('kind', 'in', ['payment_received', 'payment_refunded', 'payment_failed'])
      .orderBy('created_at')
      .execute();
    expect(mails.map((m) => [m.kind, m.recipient])).toEqual([
      ['payment_received', 'payer@example.com'],
      ['payment_refunded', 'payer@example.com'],
    ]);
    const refund = mails[1]!;
    const rendered = renderMail('payment_refunded', 0, refund.snapshot as unknown as MailSnapshot, {
      publicBase: 'https://kairos.example',
      from: { name: 'Studio', address: 'mail@kairos.example' },
    });
    expect(rendered.subject).toMatch(/^Refund of €18\.00: /);
    expect(rendered.text).toContain('We have refunded €18.00 to your card.');
    // About money, not an invitation: no calendar file.
    expect(rendered.calendar).toBeUndefined();
  });

  it('late: the 50% fee keeps the deposit and charges the rest to the kept card, once', async () => {
    // Today 16:00 in Berlin: less than 24 hours ahead.
    const { booking } = await paidBooking(at('2026-09-01', '16:00'));
    await s.t.call('PUT', `/bookings/${booking.uuid}/status/cancel`, { cancel_reason: 'canceled' });
    await settle();
    for (const event of fake.eventsOf('payment_intent.succeeded')) await fake.deliver(event);
    expect(await movements(booking.uuid)).toEqual([
      ['deposit', 1800, 'succeeded'],
      ['late_cancel_fee', 2700, 'succeeded'],
    ]);
    expect(fake.chargesOf(booking.uuid).map((c) => c.amount)).toEqual([1800, 2700]);
    expect((await getBooking(booking.uuid)).order.amount_paid).toBe(4500);
  });

  it('no-show with a card on file: marked didnt_come, the no-show fee charged once', async () => {
    await setPolicy(s.f.color.id, { collect: 'card_on_file', preset: 'strict' });
    const { booking, intent } = await paidBooking(at(s.nextDay(), '10:00'), { service_uuid: s.f.color.id });
    expect(intent).toBeNull();
    expect((await getBooking(booking.uuid)).payment.state).toBe('card_on_file');
    expect((fake.sessions.get(sessionOf(booking)) as Json).mode).toBe('setup');
    await s.t.call('PUT', `/bookings/${booking.uuid}/status/cancel`, { cancel_reason: 'didnt_come' });
    await settle();
    expect(await movements(booking.uuid)).toEqual([['no_show_fee', 5000, 'succeeded']]);
    expect(fake.chargesOf(booking.uuid).map((c) => c.amount)).toEqual([5000]);
  });

  it('a declined fee is recorded as failed, not retried into a double charge', async () => {
    const { booking } = await paidBooking(at(s.nextDay(), '12:00'), { service_uuid: s.f.color.id });
    const card = [...fake.setupIntents.values()].at(-1)?.payment_method as string;
    fake.decliningCards.add(card);
    await s.t.call('PUT', `/bookings/${booking.uuid}/status/cancel`, { cancel_reason: 'didnt_come' });
    await settle();
    expect(await movements(booking.uuid)).toEqual([['no_show_fee', 5000, 'failed']]);
    expect(fake.chargesOf(booking.uuid)).toEqual([]);
  });
});

describe('a manual refund and a worker that dies mid-refund', () => {
  const paid = async (start: string) => {
    const booking = await bookCollecting(start);
    const sessionId = sessionOf(booking);
    fake.pay(sessionId);
    await s.t.app.inject({
      method: 'GET',
      url: `/hooks/payments/${s.t.workspace.id}/stripe/return?session=${sessionId}`,
    });
    return { booking, intent: (fake.sessions.get(sessionId) as Json).payment_intent as string };
  };
  const refundsAt = (intent: string) =>
    [...fake.refunds.values()].filter((r) => r.payment_intent === intent).map((r) => r.amount);

  it('refunds in part, then the rest; refuses more than is left, and concurrent requests never exceed it', async () => {
    const { booking, intent } = await paid(at(s.nextDay(), '09:00'));
    const partial = await s.t.call('POST', `/bookings/${booking.uuid}/refunds`, { amount: 500 });
    expect(partial.statusCode, partial.body).toBe(202);
    const tooMuch = await s.t.call('POST', `/bookings/${booking.uuid}/refunds`, { amount: 1301 });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().code).toBe('refund_too_large');
    // Two "refund the rest" at once: one is owed, the other finds nothing left.
    const both = await Promise.all([
      s.t.call('POST', `/bookings/${booking.uuid}/refunds`, {}),
      s.t.call('POST', `/bookings/${booking.uuid}/refunds`, {}),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([202, 422]);
    await attemptDueOperations(s.t.db, uow(), config, s.clock.now());
    expect(refundsAt(intent).sort((a: Json, b: Json) => a - b)).toEqual([500, 1300]);
    const order = (await getBooking(booking.uuid)).order;
    expect(order.amount_paid).toBe(0);
    const audit = await s.t.db
      .selectFrom('audit_entries')
      .select(['action', 'details'])
      .where('workspace_id', '=', s.t.workspace.id)
      .where('action', '=', 'booking.refund_requested')
      .where('subject_id', '=', booking.uuid)
      .execute();
    expect(audit.map((a) => (a.details as Json).amount).sort((a: number, b: number) => a - b)).toEqual([
      500, 1300,
    ]);
  });

  it('a refund whose worker died after Stripe made it is taken over once its claim ends, and made once', async () => {
    const { booking, intent } = await paid(at(s.nextDay(), '09:00'));
    await s.t.call('POST', `/bookings/${booking.uuid}/refunds`, {});
    // A worker claims it, reaches Stripe (which refunds) and dies before anything is recorded:
    // its answer is lost twice over (the package's own retry of a closed connection too).
    let losses = 2;
    fake.fault = (request) => {
      if (request.path === '/v1/refunds' && losses > 0) {
        losses -= 1;
        return 'drop-after-commit';
      }
      return undefined;
    };
    await attemptDueOperations(s.t.db, uow(), config, s.clock.now());
    fake.fault = () => undefined;
    expect(refundsAt(intent)).toEqual([1800]);
    expect((await getBooking(booking.uuid)).order.amount_paid).toBe(1800);
    // Not retried before its backoff, then retried with the same key: Stripe answers its first refund.
    expect(await attemptDueOperations(s.t.db, uow(), config, s.clock.now())).toBe(0);
    s.clock.advance(60_000);
    expect(await attemptDueOperations(s.t.db, uow(), config, s.clock.now())).toBe(1);
    expect(refundsAt(intent)).toEqual([1800]);
    const order = (await getBooking(booking.uuid)).order;
    expect(order.payments.map((p: Json) => [p.kind, p.amount])).toEqual([
      ['deposit', 1800],
      ['refund', 1800],
    ]);
    expect(order.amount_paid).toBe(0);
  });

  it('an operation claimed by a worker that died before its call is sent once its claim runs out', async () => {
    const { booking, intent } = await paid(at(s.nextDay(), '09:00'));
    await s.t.call('POST', `/bookings/${booking.uuid}/refunds`, { amount: 700 });
    const claimed = await claimDueOperations(
      s.t.db,
      new Date(s.clock.now()),
      new Date(s.clock.now() + OPERATION_CLAIM_MS),
      10,
    );
    expect(claimed.map((o) => [o.kind, o.amount])).toEqual([['refund', 700]]);
    // Its worker is gone: nobody else takes it while the claim lasts.
    expect(await attemptDueOperations(s.t.db, uow(), config, s.clock.now())).toBe(0);
    s.clock.advance(OPERATION_CLAIM_MS);
    expect(await attemptDueOperations(s.t.db, uow(), config, s.clock.now())).toBe(1);
    expect(refundsAt(intent)).toEqual([700]);
    expect(
      fake.requests.filter((r) => r.path === '/v1/refunds' && r.idempotencyKey === claimed[0]?.id),
    ).toHaveLength(1);
  });

  it('two payment rounds at once send an owed refund once', async () => {
    const { booking, intent } = await paid(at(s.nextDay(), '09:00'));
    await s.t.call('POST', `/bookings/${booking.uuid}/refunds`, { amount: 900 });
    const rounds = await Promise.all([
      attemptDueOperations(s.t.db, uow(), config, s.clock.now()),
      attemptDueOperations(s.t.db, uow(), config, s.clock.now()),
      attemptDueOperations(s.t.db, uow(), config, s.clock.now()),
    ]);
    expect(rounds.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(refundsAt(intent)).toEqual([900]);
    expect(
      fake.requests.filter((r) => r.path === '/v1/refunds' && r.form.payment_intent === intent),
    ).toHaveLength(1);
  });
});
