import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeStripe, stripeSignature } from '../../../test/helpers/fake-stripe.js';
import { PaymentSignatureInvalid, ProviderRefused, ProviderUnavailable } from './payment-provider.js';
import { stripeProvider } from './stripe-provider.js';

/**
 * The Stripe provider through the official `stripe` package, pointed (host, port, protocol) at
 * the fake Stripe of test/helpers/fake-stripe.ts: real HTTP, Stripe's shapes, idempotency keys
 * honoured, webhooks signed as Stripe signs them.
 */
let fake: FakeStripe;
const WEBHOOK_SECRET = 'whsec_test_provider';
const meta = { workspace_id: 'ws-1', booking_id: 'bk-1', operation_id: 'op-1' };

const provider = (overrides: { secretKey?: string; timeoutMs?: number } = {}) =>
  stripeProvider({
    secretKey: overrides.secretKey ?? fake.secretKey,
    webhookSecret: WEBHOOK_SECRET,
    apiBase: fake.origin,
    timeoutMs: overrides.timeoutMs ?? 5_000,
  });

const checkout = (idempotencyKey: string, mode: 'payment' | 'setup' = 'payment') =>
  provider().createCheckout({
    mode,
    amount: mode === 'payment' ? 2500 : 0,
    currency: 'EUR',
    description: 'Deposit: Haircut',
    customerEmail: 'ada@example.com',
    successUrl: 'http://kairos.test/book/x/paid?session={CHECKOUT_SESSION_ID}',
    cancelUrl: 'http://kairos.test/book/x/cancel',
    metadata: meta,
    idempotencyKey,
  });

beforeAll(async () => {
  fake = await FakeStripe.start();
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  fake.fault = () => undefined;
  fake.autoDeliver = false;
});

describe('stripe provider against the fake Stripe', () => {
  it('checks the keys live: the account of a good key, a refusal for a bad one', async () => {
    await expect(provider().checkAccount()).resolves.toEqual({ id: 'acct_test_kairos', name: 'Salon Test' });
    await expect(provider({ secretKey: 'sk_test_wrong' }).checkAccount()).rejects.toBeInstanceOf(
      ProviderRefused,
    );
  });

  it('creates a payment checkout that keeps the card for fees, once per idempotency key', async () => {
    const first = await checkout('op-checkout-1');
    const again = await checkout('op-checkout-1');
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({
      status: 'open',
      paymentStatus: 'unpaid',
      mode: 'payment',
      amount: 2500,
      currency: 'EUR',
    });
    expect(first.url).toBe(`${fake.origin}/checkout/${first.id}`);
    const creates = fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST');
    expect(creates.at(-1)?.idempotencyKey).toBe('op-checkout-1');
    expect(creates.at(-1)?.form).toMatchObject({
      mode: 'payment',
      client_reference_id: 'bk-1',
      line_items: [{ quantity: '1', price_data: { currency: 'eur', unit_amount: '2500' } }],
      payment_intent_data: { setup_future_usage: 'off_session', metadata: meta },
    });
    expect([...fake.sessions.values()].filter((s) => s.id === first.id)).toHaveLength(1);
  });

  it('reads a paid checkout back: the charge and the card kept', async () => {
    const session = await checkout('op-checkout-2');
    fake.pay(session.id, 'pm_card_kept');
    const state = await provider().retrieveCheckout(session.id);
    expect(state.status).toBe('complete');
    expect(state.paymentStatus).toBe('paid');
    expect(state.paymentRef).toMatch(/^pi_/);
    expect(state.card).toEqual({ customer: expect.stringMatching(/^cus_/), paymentMethod: 'pm_card_kept' });
    expect(state.metadata).toEqual(meta);
  });

  it('keeps a card without a charge in setup mode', async () => {
    const session = await checkout('op-setup-1', 'setup');
    expect(session.paymentStatus).toBe('no_payment_required');
    fake.pay(session.id, 'pm_setup_card');
    const state = await provider().retrieveCheckout(session.id);
    expect(state.paymentRef).toBeNull();
    expect(state.card?.paymentMethod).toBe('pm_setup_card');
  });

  it('expires an open checkout, and answers the state of one that is no longer open', async () => {
    const open = await checkout('op-expire-1');
    await expect(provider().expireCheckout(open.id)).resolves.toMatchObject({ status: 'expired', url: null });
    const paid = await checkout('op-expire-2');
    fake.pay(paid.id);
    await expect(provider().expireCheckout(paid.id)).resolves.toMatchObject({
      status: 'complete',
      paymentStatus: 'paid',
    });
  });

  it('charges a kept card off session once per key, and reports a decline as a failed charge', async () => {
    const session = await checkout('op-checkout-3');
    fake.pay(session.id, 'pm_for_fee');
    const { card } = await provider().retrieveCheckout(session.id);
    if (!card) throw new Error('no card kept');
    const charge = (key: string) =>
      provider().chargeCard({
        ...card,
        amount: 1200,
        currency: 'EUR',
        description: 'No-show fee',
        metadata: meta,
        idempotencyKey: key,
      });
    const first = await charge('op-fee-1');
    const again = await charge('op-fee-1');
    expect(again).toEqual(first);
    expect(first).toMatchObject({ status: 'succeeded', amount: 1200 });
    expect(fake.chargesOf('bk-1').filter((c) => c.amount === 1200)).toHaveLength(1);

    fake.decliningCards.add('pm_for_fee');
    await expect(charge('op-fee-2')).resolves.toMatchObject({ status: 'failed', amount: 1200 });
    fake.decliningCards.delete('pm_for_fee');
  });

  it('refunds in part, once per key, and refuses more than is left', async () => {
    const session = await checkout('op-checkout-4');
    fake.pay(session.id);
    const { paymentRef } = await provider().retrieveCheckout(session.id);
    if (!paymentRef) throw new Error('not paid');
    const refund = (key: string, amount: number) =>
      provider().refund({ paymentRef, amount, metadata: meta, idempotencyKey: key });
    const first = await refund('op-refund-1', 1000);
    expect(await refund('op-refund-1', 1000)).toEqual(first);
    expect(first).toMatchObject({ status: 'succeeded', amount: 1000 });
    await expect(refund('op-refund-2', 1501)).rejects.toBeInstanceOf(ProviderRefused);
    await expect(refund('op-refund-3', 1500)).resolves.toMatchObject({ status: 'succeeded', amount: 1500 });
    const refunds = [...fake.refunds.values()].filter((r) => r.payment_intent === paymentRef);
    expect(refunds.map((r) => r.amount)).toEqual([1000, 1500]);
  });

  it('verifies webhooks by their signature and refuses forged, altered or stale ones', async () => {
    const session = await checkout('op-checkout-5');
    fake.pay(session.id);
    const event = fake.eventsOf('checkout.session.completed').at(-1);
    const payload = JSON.stringify(event);
    const verified = provider().verifyEvent(payload, stripeSignature(payload, WEBHOOK_SECRET));
    expect(verified).toMatchObject({
      id: event?.id,
      type: 'checkout_completed',
      checkout: { id: session.id, paymentStatus: 'paid' },
    });

    expect(() => provider().verifyEvent(payload, stripeSignature(payload, 'whsec_forged'))).toThrow(
      PaymentSignatureInvalid,
    );
    expect(() =>
      provider().verifyEvent(payload.replace('"paid"', '"unpaid"'), stripeSignature(payload, WEBHOOK_SECRET)),
    ).toThrow(PaymentSignatureInvalid);
    const stale = Math.floor(Date.now() / 1000) - 3600;
    expect(() => provider().verifyEvent(payload, stripeSignature(payload, WEBHOOK_SECRET, stale))).toThrow(
      PaymentSignatureInvalid,
    );
    expect(() => provider().verifyEvent(payload, undefined)).toThrow(PaymentSignatureInvalid);
  });

  it('counts 5xx and timeouts as unavailable', async () => {
    fake.fault = () => ({ status: 503 });
    await expect(checkout('op-fault-1')).rejects.toBeInstanceOf(ProviderUnavailable);
    fake.fault = () => 'hang';
    await expect(provider({ timeoutMs: 300 }).checkAccount()).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('a charge whose answer was lost is answered on retry with the same key, not made again', async () => {
    const session = await checkout('op-checkout-6');
    fake.pay(session.id, 'pm_lost_answer');
    const { card } = await provider().retrieveCheckout(session.id);
    if (!card) throw new Error('no card kept');
    const before = fake.netCharged();
    // The answer is lost twice: the package's own retry of a closed connection (same key) too.
    let losses = 2;
    fake.fault = (request) => {
      if (request.path === '/v1/payment_intents' && losses > 0) {
        losses -= 1;
        return 'drop-after-commit';
      }
      return undefined;
    };
    const charge = () =>
      provider().chargeCard({
        ...card,
        amount: 700,
        currency: 'EUR',
        description: 'Late-cancel fee',
        metadata: meta,
        idempotencyKey: 'op-lost-1',
      });
    await expect(charge()).rejects.toBeInstanceOf(ProviderUnavailable);
    expect(fake.netCharged()).toBe(before + 700); // Stripe did charge
    const retried = await charge();
    expect(retried).toMatchObject({ status: 'succeeded', amount: 700 });
    expect(fake.requests.filter((r) => r.idempotencyKey === 'op-lost-1')).toHaveLength(3);
    expect(fake.netCharged()).toBe(before + 700); // and only once
  });
});
