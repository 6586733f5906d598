import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { connectStripe } from '../../src/payments/payment-settings.service.js';
import { openWritePath } from '../../src/write-path.js';
import { FakeStripe } from '../helpers/fake-stripe.js';
import { formFields, location, NOW, openPageStudio, type PageStudio } from './booking-page-kit.js';

/**
 * The booking page of a service whose policy takes money: the policy shown before confirming,
 * the booking made through the API's collect_payment path (its slot held while it waits), the
 * customer sent to the provider's hosted page and back to the manage page. Through the real app,
 * with the official stripe package pointed at the fake Stripe.
 */
const SECRET_KEY = 'booking-page-payments-secret-key-0123456789';
const WEBHOOK_SECRET = 'whsec_bookingPageTest0123';
let s: PageStudio;
let fake: FakeStripe;

beforeAll(async () => {
  fake = await FakeStripe.start();
  s = await openPageStudio(NOW, { stripeApiBase: fake.origin, secretKey: SECRET_KEY });
  // Haircut (90.00) is paid in full when booking, with the moderate terms; color keeps no policy.
  const policy = await s.t.call('PUT', `/services/${s.f.haircut.id}/payment_policy`, {
    collect: 'prepayment',
    preset: 'moderate',
  });
  expect(policy.statusCode, policy.body).toBe(200);
});
afterAll(async () => {
  await s?.t.close();
  await fake?.stop();
});

/** The details step of `state` filled in and posted: the confirm page and its booking form. */
async function confirmStep(state: Record<string, string>, phone: string) {
  const details = await s.get(`/book/${s.slug}?${new URLSearchParams({ lang: 'en', ...state })}`);
  expect(details.statusCode).toBe(200);
  const confirm = await s.post(`/book/${s.slug}/confirm`, {
    ...formFields(details.body, '/confirm'),
    customer_phone: phone,
  });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return {
    page: confirm.body,
    form: formFields(confirm.body, '/book'),
    csp: String(confirm.headers['content-security-policy']),
  };
}

async function bookingsAt(start: string) {
  const { data } = await (
    await s.t.call('GET', `/bookings?reserved_on_from=${start}&reserved_on_to=${start}&per_page=100`)
  ).json();
  return data as { uuid: string; customer: { phone: string }; status: { type: string } }[];
}

async function paymentOf(uuid: string): Promise<{ state: string | null } | null> {
  return (await s.t.call('GET', `/bookings/${uuid}`)).json().data.payment ?? null;
}

const haircutAt = (at: string) => ({ service: s.f.haircut.id, staffer: s.f.anna.id, at });
const checkoutPrefix = () => `${fake.origin}/checkout/`;
const pathOf = (url: string) => {
  const parsed = new URL(url, 'http://page.test');
  return `${parsed.pathname}${parsed.search}`;
};

describe('a workspace without a payment provider', () => {
  it('shows no policy for a prepayment service, and books it to the manage page with no payment, as before', async () => {
    const start = '2026-09-08T08:00:00Z';
    const { page, form, csp } = await confirmStep(haircutAt(start), '+4915100000301');
    expect(csp).toContain("form-action 'self';");
    expect(page).not.toContain('Due now');
    expect(page).not.toContain('Confirm and pay');
    expect(page).toContain('Confirm booking');
    const booked = await s.post(`/book/${s.slug}/book`, form);
    expect(booked.statusCode).toBe(303);
    expect(location(booked)).toMatch(/\/manage\/[A-Za-z0-9_-]{44}\?.*booked=1$/);
    const [made] = await bookingsAt(start);
    expect(made?.status.type).not.toBe('canceled');
    expect((await paymentOf(made!.uuid))?.state ?? null).toBeNull();
  });
});

describe('a workspace with Stripe connected', () => {
  beforeAll(async () => {
    await connectStripe(
      openWritePath(s.t.db).uow,
      s.t.workspace.id,
      { type: 'user', id: null },
      { secret_key: fake.secretKey, webhook_secret: WEBHOOK_SECRET },
      { ...loadConfig({}), stripeApiBase: fake.origin, secretKey: SECRET_KEY },
    );
  });

  it('shows what is due now and the cancellation terms before confirming, only where a policy takes money', async () => {
    const { page, csp } = await confirmStep(haircutAt('2026-09-08T09:00:00Z'), '+4915100000302');
    // Browsers check a form's redirect against form-action: the hosted page's origin is allowed.
    expect(csp).toContain(`form-action 'self' ${fake.origin};`);
    expect(page).toContain('Due now: €90.00, the full price');
    expect(page).toContain('Free cancellation until 24 h before the start.');
    expect(page).toContain('A later cancellation costs 50% of the price.');
    expect(page).toContain('Not coming costs 100% of the price.');
    expect(page).toContain('Confirm and pay');
    const none = await confirmStep(
      { service: s.f.color.id, staffer: s.f.anna.id, at: '2026-09-08T09:00:00Z' },
      '+4915100000302',
    );
    expect(none.page).not.toContain('Due now');
    expect(none.page).not.toContain('cancellation');
    expect(none.csp).toContain("form-action 'self';");
    expect(none.page).toContain('Confirm booking');
    expect(none.page).not.toContain('target="_top"');
    // In the embed's iframe the form leaves the frame: the hosted page refuses to be framed.
    const embedded = await confirmStep(
      { ...haircutAt('2026-09-08T09:00:00Z'), embed: '1' },
      '+4915100000302',
    );
    expect(embedded.page).toMatch(/<form[^>]*action="[^"]*\/book"[^>]*target="_top"/);
    const framedNone = await confirmStep(
      { service: s.f.color.id, staffer: s.f.anna.id, at: '2026-09-08T09:00:00Z', embed: '1' },
      '+4915100000302',
    );
    expect(framedNone.page).not.toContain('target="_top"');
  });

  it('shows a deposit and a card on file in the page language, amounts from the policy', async () => {
    const deposit = await s.t.call('PUT', `/services/${s.f.color.id}/payment_policy`, {
      collect: 'deposit',
      deposit_type: 'percent',
      deposit_percent: 20,
      preset: 'flexible',
    });
    expect(deposit.statusCode, deposit.body).toBe(200);
    const colorAt = { service: s.f.color.id, staffer: s.f.anna.id, at: '2026-09-08T09:00:00Z' };
    const { page } = await confirmStep(colorAt, '+4915100000303');
    // 20 % of 50.00; flexible: free until 2 h before, no late fee, half the price for a no-show.
    expect(page).toContain('Deposit due now: €10.00');
    expect(page).toContain('Free cancellation until 2 h before the start.');
    expect(page).not.toContain('A later cancellation costs');
    expect(page).toContain('Not coming costs 50% of the price.');
    const card = await s.t.call('PUT', `/services/${s.f.color.id}/payment_policy`, {
      collect: 'card_on_file',
      preset: 'strict',
    });
    expect(card.statusCode, card.body).toBe(200);
    const german = await confirmStep({ ...colorAt, lang: 'de' }, '+4915100000303');
    expect(german.page).toContain('Eine Karte wird für die Bedingungen unten hinterlegt');
    expect(german.page).toContain('Kostenlos stornierbar bis 48 Std. vor Beginn.');
    expect(german.page).toContain('Buchen und bezahlen');
    const none = await s.t.call('PUT', `/services/${s.f.color.id}/payment_policy`, {
      collect: 'none',
      preset: 'flexible',
    });
    expect(none.statusCode, none.body).toBe(200);
  });

  it('books to the hosted checkout, holds the slot, and lands on the manage page paid after paying', async () => {
    const start = '2026-09-09T08:00:00Z';
    const sessionsBefore = fake.sessions.size;
    const { form } = await confirmStep(haircutAt(start), '+4915100000304');
    const booked = await s.post(`/book/${s.slug}/book`, form);
    expect(booked.statusCode).toBe(303);
    expect(location(booked).startsWith(checkoutPrefix())).toBe(true);
    expect(fake.sessions.size).toBe(sessionsBefore + 1);
    const session = location(booked).slice(checkoutPrefix().length);
    expect(fake.sessions.get(session)?.amount_total).toBe(9000);

    const [made] = await bookingsAt(start);
    expect((await paymentOf(made!.uuid))?.state).toBe('awaiting_payment');
    // The slot is held: the API cannot take it, and the page offers other times.
    const other = await s.t.call('POST', '/bookings', {
      reserved_on: start,
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      staffer_uuid: s.f.anna.id,
      customer_phone: '+4915100000305',
    });
    expect(other.statusCode).toBe(409);
    const late = await s.post(
      `/book/${s.slug}/book`,
      (await confirmStep(haircutAt(start), '+4915100000306')).form,
    );
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain('was just taken');

    // Unpaid, the manage page asks for the payment; paid and back, it no longer does.
    const returnPath = `/hooks/payments/${s.t.workspace.id}/stripe/return?session=${session}`;
    const manage = pathOf(location(await s.get(returnPath)));
    expect(manage).toMatch(/^\/book\/.+\/manage\//);
    const unpaid = (await s.get(manage)).body;
    expect(unpaid).toContain('Pay now');
    expect(unpaid).not.toContain('Paid online.');
    fake.pay(session);
    const back = await s.get(returnPath);
    expect(back.statusCode).toBe(303);
    expect(pathOf(location(back))).toBe(manage);
    const paid = await s.get(manage);
    expect(paid.statusCode).toBe(200);
    expect(paid.body).not.toContain('Pay now');
    expect(paid.body).not.toContain('waits for your payment');
    expect(paid.body).toContain('Paid online.');
    expect((await paymentOf(made!.uuid))?.state).toBe('paid');
  });

  it('makes one booking and one checkout of a double submit, every answer leading to it', async () => {
    const start = '2026-09-10T08:00:00Z';
    const sessionsBefore = fake.sessions.size;
    const { form } = await confirmStep(haircutAt(start), '+4915100000307');
    const answers = await Promise.all([1, 2, 3].map(() => s.post(`/book/${s.slug}/book`, form)));
    expect(answers.map((a) => a.statusCode)).toEqual([303, 303, 303]);
    expect(new Set(answers.map(location)).size).toBe(1);
    expect(location(answers[0]!).startsWith(checkoutPrefix())).toBe(true);
    const again = await s.post(`/book/${s.slug}/book`, form);
    expect(location(again)).toBe(location(answers[0]!));
    expect(await bookingsAt(start)).toHaveLength(1);
    expect(fake.sessions.size).toBe(sessionsBefore + 1);
  });

  it('books nothing when the provider cannot make the checkout, and the same form works once it can', async () => {
    const start = '2026-09-14T08:00:00Z';
    const { form } = await confirmStep(haircutAt(start), '+4915100000310');
    fake.fault = (request) => (request.path === '/v1/checkout/sessions' ? { status: 500 } : undefined);
    const failed = await s.post(`/book/${s.slug}/book`, form);
    fake.fault = () => undefined;
    expect(failed.statusCode).toBe(503);
    expect(failed.body).toContain(
      'Online payment cannot be reached right now: nothing was booked and nothing was charged.',
    );
    // The customer's details are still in the form, to send again.
    expect(failed.body).toContain('+4915100000310');
    expect(await bookingsAt(start)).toHaveLength(0);
    // The refused submit left no key behind: the same form, sent again, books and goes to pay.
    const retried = await s.post(`/book/${s.slug}/book`, form);
    expect(retried.statusCode).toBe(303);
    expect(location(retried).startsWith(checkoutPrefix())).toBe(true);
    expect(await bookingsAt(start)).toHaveLength(1);
  });

  it('keeps a card on file: the hosted page in setup mode, nothing charged, the manage page says so', async () => {
    const card = await s.t.call('PUT', `/services/${s.f.yoga.id}/payment_policy`, {
      collect: 'card_on_file',
      preset: 'strict',
    });
    expect(card.statusCode, card.body).toBe(200);
    const start = '2026-09-12T07:00:00Z';
    const { form } = await confirmStep(
      { service: s.f.yoga.id, staffer: s.f.anna.id, at: start, lang: 'de' },
      '+4915100000309',
    );
    const booked = await s.post(`/book/${s.slug}/book`, form);
    expect(location(booked).startsWith(checkoutPrefix())).toBe(true);
    const session = location(booked).slice(checkoutPrefix().length);
    expect(fake.sessions.get(session)?.mode).toBe('setup');
    fake.pay(session);
    const back = await s.get(`/hooks/payments/${s.t.workspace.id}/stripe/return?session=${session}`);
    // Back in the language the customer booked in (German), whatever the browser asks for.
    expect(location(back)).toMatch(/\/manage\/[A-Za-z0-9_-]{44}\?lang=de$/);
    const manage = await s.get(pathOf(location(back)));
    expect(manage.body).toContain('Ihre Karte ist für die Stornobedingungen hinterlegt.');
    expect(manage.body).not.toContain('Jetzt bezahlen');
    const english = await s.get(pathOf(location(back)).replace('lang=de', 'lang=en'));
    expect(english.body).toContain('Your card is kept on file for the cancellation terms.');
    expect(english.body).not.toContain('Pay now');
    const [made] = await bookingsAt(start);
    expect((await paymentOf(made!.uuid))?.state).toBe('card_on_file');
  });

  it('books a service without a policy as before: to the manage page, no payment, no checkout', async () => {
    const start = '2026-09-11T08:00:00Z';
    const sessionsBefore = fake.sessions.size;
    const { form } = await confirmStep(
      { service: s.f.color.id, staffer: s.f.anna.id, at: start },
      '+4915100000308',
    );
    const booked = await s.post(`/book/${s.slug}/book`, form);
    expect(location(booked)).toMatch(/\/manage\/[A-Za-z0-9_-]{44}\?.*booked=1$/);
    const [made] = await bookingsAt(start);
    expect(made?.status.type).not.toBe('canceled');
    expect((await paymentOf(made!.uuid))?.state ?? null).toBeNull();
    expect(fake.sessions.size).toBe(sessionsBefore);
  });
});
