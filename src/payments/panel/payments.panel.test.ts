import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingFixture } from '../../../test/helpers/booking-fixture.js';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import { createService } from '../../../test/helpers/factories.js';
import { FakeStripe } from '../../../test/helpers/fake-stripe.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';
import { loadConfig } from '../../config.js';
import { dispatchOutbox } from '../../outbox/outbox-dispatch.service.js';
import { keyFromSecret, secretBox } from '../../platform/secrets.js';
import type { UserRow } from '../../users/users.repository.js';
import { outboxHandlers } from '../../workers.js';
import { openWritePath } from '../../write-path.js';
import { attemptDueOperations } from '../payment-operations.service.js';
import { paymentCredentialsContext } from '../payment-providers.service.js';

const PAGE = '/panel/settings/payments';
const SECRET_KEY = 'payments-panel-secret-key-of-32-characters';
const WEBHOOK_SECRET = 'whsec_panelTest012345';

let t: TestApp;
let fake: FakeStripe;
const clock = new FixedClock('2026-09-01T08:00:00Z');
let admin: UserRow;
let staff: UserRow;
beforeAll(async () => {
  fake = await FakeStripe.start();
  t = await buildTestApp({
    clock,
    config: {
      ...loadConfig({}),
      worker: 'off',
      apiRateLimitPerMinute: 0,
      secretKey: SECRET_KEY,
      stripeApiBase: fake.origin,
    },
  });
  admin = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'admin' }]);
  staff = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

const row = () =>
  t.db
    .selectFrom('workspaces')
    .select(['payment_settings', 'payment_credentials'])
    .where('id', '=', t.workspace.id)
    .executeTakeFirstOrThrow();

describe('Settings → Payments', () => {
  it('is for owners and admins, in the Settings nav; without a provider nothing is connected', async () => {
    const staffClient = await PanelClient.signedIn(t.app, t.db, staff, t.workspace.id);
    expect((await staffClient.get(PAGE)).statusCode).toBe(403);
    expect((await staffClient.get('/panel')).body).not.toContain(`href="${PAGE}"`);
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const page = await client.get(PAGE);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`href="${PAGE}"`);
    expect(page.body).toContain('No payment provider connected');
    expect(page.body).toContain(`/hooks/payments/${t.workspace.id}/stripe`);
    expect((await row()).payment_credentials).toBeNull();
  });

  it('refuses keys of the wrong shape and a key Stripe refuses, saving nothing', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const shape = await client.submit(PAGE, {
      secret_key: 'pk_test_abc',
      webhook_secret: 'nope',
      hold_minutes: '15',
    });
    expect(shape.statusCode).toBe(422);
    expect(shape.body).toContain('Enter a Stripe secret key');
    expect(shape.body).toContain('Enter the signing secret');
    const refused = await client.submit(PAGE, {
      secret_key: 'sk_test_notTheRightKey123',
      webhook_secret: WEBHOOK_SECRET,
      hold_minutes: '15',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Stripe refused this key');
    // The typed keys are not sent back.
    expect(refused.body).not.toContain('sk_test_notTheRightKey123');
    expect((await row()).payment_credentials).toBeNull();
  });

  it('connects with keys checked live, sealed at rest, never shown again; audited without a key', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const saved = await client.submit(PAGE, {
      secret_key: fake.secretKey,
      webhook_secret: WEBHOOK_SECRET,
      hold_minutes: '20',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(fake.requests.filter((r) => r.path === '/v1/account').length).toBeGreaterThanOrEqual(1);
    const { payment_settings, payment_credentials } = await row();
    expect(payment_settings).toMatchObject({
      provider: 'stripe',
      account_id: 'acct_test_kairos',
      hold_minutes: 20,
    });
    expect(payment_credentials).not.toContain(fake.secretKey);
    const opened = JSON.parse(
      secretBox(keyFromSecret(SECRET_KEY)).open(
        payment_credentials ?? '',
        paymentCredentialsContext(t.workspace.id),
      ),
    );
    expect(opened).toEqual({ secretKey: fake.secretKey, webhookSecret: WEBHOOK_SECRET });
    const page = await client.get(PAGE);
    expect(page.body).toContain('Salon Test');
    expect(page.body).not.toContain(fake.secretKey);
    expect(page.body).not.toContain(WEBHOOK_SECRET);
    const audit = await t.db
      .selectFrom('audit_entries')
      .select(['action', 'details'])
      .where('workspace_id', '=', t.workspace.id)
      .where('action', '=', 'settings.payments_connected')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(audit.details)).not.toContain(fake.secretKey);
    expect(audit.details).toMatchObject({ account_id: 'acct_test_kairos' });
  });

  it('refuses a cross-site POST', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    await client.get(PAGE);
    const crossSite = await client.post(`${PAGE}/disconnect`, {}, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    expect((await row()).payment_credentials).not.toBeNull();
  });

  it('disconnects: the keys are dropped', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const done = await client.submit(PAGE, {}, `${PAGE}/disconnect`);
    expect(done.statusCode).toBe(303);
    expect((await row()).payment_credentials).toBeNull();
    expect((await client.get(PAGE)).body).toContain('No payment provider connected');
  });
});

describe('the booking page: refunds and no-shows', () => {
  const paidBooking = async (serviceId: string, start: string) => {
    const created = await t.call('POST', '/bookings', {
      reserved_on: start,
      location_uuid: f.location.id,
      service_uuid: serviceId,
      staffer_uuid: f.anna.id,
      customer_phone: '+4915112345678',
      collect_payment: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const booking = created.json().data;
    const session = booking.links
      .find((l: { type: string }) => l.type === 'payment')
      .link.split('/')
      .pop();
    fake.pay(session);
    await t.app.inject({
      method: 'GET',
      url: `/hooks/payments/${t.workspace.id}/stripe/return?session=${session}`,
    });
    return booking.uuid as string;
  };
  let f: Awaited<ReturnType<typeof bookingFixture>>;

  beforeAll(async () => {
    f = await bookingFixture(t);
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    expect(
      (
        await client.submit(PAGE, {
          secret_key: fake.secretKey,
          webhook_secret: WEBHOOK_SECRET,
          hold_minutes: '15',
        })
      ).statusCode,
    ).toBe(303);
    await t.call('PUT', `/services/${f.haircut.id}/payment_policy`, {
      collect: 'prepayment',
      preset: 'moderate',
    });
    await t.call('PUT', `/services/${f.color.id}/payment_policy`, {
      collect: 'card_on_file',
      preset: 'flexible',
    });
  });

  it('shows a booking that waits for payment, and until when its time is held; then paid', async () => {
    const created = await t.call('POST', '/bookings', {
      reserved_on: '2026-09-14T13:00:00Z',
      location_uuid: f.location.id,
      service_uuid: f.haircut.id,
      staffer_uuid: f.anna.id,
      customer_phone: '+4915112345670',
      collect_payment: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const booking = created.json().data;
    const client = await PanelClient.signedIn(t.app, t.db, staff, t.workspace.id);
    const waiting = await client.get(`/panel/bookings/${booking.uuid}`);
    // Held for the workspace's 15 minutes, shown in the location's zone (Berlin, summer time).
    const held = new Date(booking.payment.hold_until);
    const local = held.toLocaleTimeString('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
    });
    expect(waiting.body).toContain(
      `<dt>Payment</dt><dd>Awaiting payment: the time is held until ${local}</dd>`,
    );
    // The customer's manage page says so too, with the way to pay.
    const manage = new URL(booking.links.find((l: { type: string }) => l.type === 'manage').link);
    const managePage = await t.app.inject({ method: 'GET', url: `${manage.pathname}?lang=en` });
    expect(managePage.statusCode).toBe(200);
    expect(managePage.body).toContain('while it waits for your payment.');
    expect(managePage.body).toMatch(/<a class="button" href="[^"]+">Pay now<\/a>/);
    const session = booking.links
      .find((l: { type: string }) => l.type === 'payment')
      .link.split('/')
      .pop();
    fake.pay(session);
    await t.app.inject({
      method: 'GET',
      url: `/hooks/payments/${t.workspace.id}/stripe/return?session=${session}`,
    });
    expect((await client.get(`/panel/bookings/${booking.uuid}`)).body).toContain(
      '<dt>Payment</dt><dd>Paid</dd>',
    );
    const afterPaying = await t.app.inject({ method: 'GET', url: `${manage.pathname}?lang=en` });
    expect(afterPaying.statusCode).toBe(200);
    expect(afterPaying.body).not.toContain('Pay now');
  });

  it('owners and admins refund part of a prepayment; staff see no refund form and are refused', async () => {
    const id = await paidBooking(f.haircut.id, '2026-09-10T08:00:00Z');
    const staffClient = await PanelClient.signedIn(t.app, t.db, staff, t.workspace.id);
    const staffPage = await staffClient.get(`/panel/bookings/${id}`);
    expect(staffPage.statusCode).toBe(200);
    expect(staffPage.body).not.toContain(`/panel/bookings/${id}/refund`);
    expect((await staffClient.post(`/panel/bookings/${id}/refund`, { amount: '10' })).statusCode).toBe(403);

    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const page = await client.get(`/panel/bookings/${id}`);
    expect(page.body).toContain(`action="/panel/bookings/${id}/refund"`);
    expect(page.body).toContain('90.00');
    const crossSite = await client.post(
      `/panel/bookings/${id}/refund`,
      { amount: '10' },
      { origin: 'https://evil.example' },
    );
    expect(crossSite.statusCode).toBe(403);
    const done = await client.post(`/panel/bookings/${id}/refund`, { amount: '25.50' });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/panel/bookings/${id}?notice=refunded`);
    const tooMuch = await client.submit(
      `/panel/bookings/${id}`,
      { amount: '64.51' },
      `/panel/bookings/${id}/refund`,
    );
    expect(tooMuch.headers.location).toBe(`/panel/bookings/${id}?notice=refund_refused#refund`);
    await attemptDueOperations(
      t.db,
      openWritePath(t.db).uow,
      { ...loadConfig({}), secretKey: SECRET_KEY, stripeApiBase: fake.origin },
      Date.parse('2026-09-01T08:00:00Z'),
    );
    const intent = [...fake.paymentIntents.values()].find(
      (pi) => (pi.metadata as Record<string, string>).booking_id === id,
    )?.id;
    expect(
      [...fake.refunds.values()].filter((r) => r.payment_intent === intent).map((r) => r.amount),
    ).toEqual([2550]);
    expect((await client.get(`/panel/bookings/${id}`)).body).toContain('64.50');
  });

  it("the cancel form's reason “did not come” charges the no-show fee to the kept card", async () => {
    const id = await paidBooking(f.color.id, '2026-09-11T08:00:00Z');
    const client = await PanelClient.signedIn(t.app, t.db, staff, t.workspace.id);
    const canceled = await client.submit(
      `/panel/bookings/${id}`,
      { cancel_reason: 'didnt_come' },
      `/panel/bookings/${id}/cancel`,
    );
    expect(canceled.statusCode).toBe(303);
    const now = Date.parse('2026-09-01T08:00:00Z');
    await dispatchOutbox(t.db, outboxHandlers(), now, 1000);
    await attemptDueOperations(
      t.db,
      openWritePath(t.db).uow,
      { ...loadConfig({}), secretKey: SECRET_KEY, stripeApiBase: fake.origin },
      now,
    );
    const booking = (await t.call('GET', `/bookings/${id}`)).json().data;
    expect(booking.cancel_reason).toBe('didnt_come');
    // flexible: 50% of 50.00
    expect(
      booking.order.payments.map((p: { kind: string; amount: number; status: string }) => [
        p.kind,
        p.amount,
        p.status,
      ]),
    ).toEqual([['no_show_fee', 2500, 'succeeded']]);
  });
});

describe('the No-show button', () => {
  let f: Awaited<ReturnType<typeof bookingFixture>>;
  const config = () => ({ ...loadConfig({}), secretKey: SECRET_KEY, stripeApiBase: fake.origin });
  beforeAll(async () => {
    f = await bookingFixture(t);
    await t.call('PUT', `/services/${f.color.id}/payment_policy`, {
      collect: 'card_on_file',
      preset: 'flexible',
    });
  });

  it('is not offered before the booking starts: the customer may still come', async () => {
    const created = await t.call('POST', '/bookings', {
      reserved_on: '2026-09-15T08:00:00Z',
      location_uuid: f.location.id,
      service_uuid: f.color.id,
      staffer_uuid: f.anna.id,
      customer_phone: '+4915112345671',
      collect_payment: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.uuid as string;
    const session = created.json().data.links.find((l: { type: string }) => l.type === 'payment').link;
    fake.pay(session.split('/').pop());
    await t.app.inject({
      method: 'GET',
      url: `/hooks/payments/${t.workspace.id}/stripe/return?session=${session.split('/').pop()}`,
    });
    const client = await PanelClient.signedIn(t.app, t.db, staff, t.workspace.id);
    // Before the start the customer may still come: no such button.
    expect((await client.get(`/panel/bookings/${id}`)).body).not.toContain(`/panel/bookings/${id}/no-show`);
    clock.set('2026-09-15T07:59:00Z');
    try {
      expect((await client.get(`/panel/bookings/${id}`)).body).not.toContain('Mark as no-show');
      clock.set('2026-09-15T08:00:00Z');
      expect((await client.get(`/panel/bookings/${id}`)).body).toContain('Mark as no-show');
    } finally {
      clock.set('2026-09-01T08:00:00Z');
    }
  });

  it('a started booking: the form names the fee; a double submit marks once and charges once', async () => {
    clock.set('2026-09-16T08:00:00Z');
    try {
      const created = await t.call('POST', '/bookings', {
        reserved_on: '2026-09-16T09:00:00Z',
        location_uuid: f.location.id,
        service_uuid: f.color.id,
        staffer_uuid: f.anna.id,
        customer_phone: '+4915112345672',
        collect_payment: true,
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().data.uuid as string;
      const session = created.json().data.links.find((l: { type: string }) => l.type === 'payment').link;
      fake.pay(session.split('/').pop());
      await t.app.inject({
        method: 'GET',
        url: `/hooks/payments/${t.workspace.id}/stripe/return?session=${session.split('/').pop()}`,
      });
      const client = await PanelClient.signedIn(t.app, t.db, staff, t.workspace.id);
      expect((await client.get(`/panel/bookings/${id}`)).body).not.toContain('Mark as no-show');
      clock.set('2026-09-16T09:20:00Z');
      const page = await client.get(`/panel/bookings/${id}`);
      expect(page.body).toContain(`action="/panel/bookings/${id}/no-show"`);
      // The color service keeps a card under the flexible terms: 50% of 50.00, all of it on the card.
      expect(page.body).toContain('<p>No-show fee: €25.00. €25.00 is charged to the card on file.</p>');
      expect(page.body).not.toContain('is refunded.');

      const crossSite = await client.post(
        `/panel/bookings/${id}/no-show`,
        {},
        { origin: 'https://evil.example' },
      );
      expect(crossSite.statusCode).toBe(403);
      // The same form sent twice at once (one form key): one cancellation, one fee.
      const key = new RegExp(
        `action="/panel/bookings/${id}/no-show"[^]*?name="idempotency_key" value="([^"]+)"`,
      ).exec(page.body)?.[1];
      expect(key).toBeDefined();
      const form = { idempotency_key: key as string };
      const answers = await Promise.all([
        client.post(`/panel/bookings/${id}/no-show`, form),
        client.post(`/panel/bookings/${id}/no-show`, form),
      ]);
      expect(answers.map((a) => [a.statusCode, a.headers.location])).toEqual([
        [303, `/panel/bookings/${id}?notice=no_show`],
        [303, `/panel/bookings/${id}?notice=no_show`],
      ]);
      const now = clock.now();
      await dispatchOutbox(t.db, outboxHandlers(), now, 1000);
      await dispatchOutbox(t.db, outboxHandlers(), now, 1000);
      await attemptDueOperations(t.db, openWritePath(t.db).uow, config(), now);
      await attemptDueOperations(t.db, openWritePath(t.db).uow, config(), now);
      const booking = (await t.call('GET', `/bookings/${id}`)).json().data;
      expect(booking.cancel_reason).toBe('didnt_come');
      expect(
        booking.order.payments.map((p: { kind: string; amount: number; status: string }) => [
          p.kind,
          p.amount,
          p.status,
        ]),
      ).toEqual([['no_show_fee', 2500, 'succeeded']]);
      const charges = [...fake.paymentIntents.values()].filter(
        (pi) => (pi.metadata as Record<string, string>).booking_id === id,
      );
      expect(charges.map((pi) => pi.amount)).toEqual([2500]);
      const after = await client.get(`/panel/bookings/${id}?notice=no_show`);
      expect(after.body).toContain('Marked as a no-show.');
      expect(after.body).not.toContain(`/panel/bookings/${id}/no-show`);
    } finally {
      clock.set('2026-09-01T08:00:00Z');
    }
  });

  it('a prepaid booking keeps the fee from what was paid and says how much comes back', async () => {
    clock.set('2026-09-17T08:00:00Z');
    try {
      await t.call('PUT', `/services/${f.haircut.id}/payment_policy`, {
        collect: 'prepayment',
        preset: 'custom',
        free_cancellation_hours: 24,
        late_cancel_fee_percent: 50,
        no_show_fee_percent: 40,
      });
      const created = await t.call('POST', '/bookings', {
        reserved_on: '2026-09-17T09:00:00Z',
        location_uuid: f.location.id,
        service_uuid: f.haircut.id,
        staffer_uuid: f.anna.id,
        customer_phone: '+4915112345673',
        collect_payment: true,
      });
      expect(created.statusCode, created.body).toBe(201);
      const session = created.json().data.links.find((l: { type: string }) => l.type === 'payment').link;
      fake.pay(session.split('/').pop());
      await t.app.inject({
        method: 'GET',
        url: `/hooks/payments/${t.workspace.id}/stripe/return?session=${session.split('/').pop()}`,
      });
      clock.set('2026-09-17T09:30:00Z');
      const client = await PanelClient.signedIn(t.app, t.db, staff, t.workspace.id);
      const page = await client.get(`/panel/bookings/${created.json().data.uuid}`);
      // 40% of 90.00 kept, 54.00 back to the customer, nothing on the card.
      expect(page.body).toContain(
        '<p>No-show fee: €36.00. €36.00 of what was paid is kept. €54.00 is refunded.</p>',
      );
      expect(page.body).not.toContain('charged to the card on file');
    } finally {
      clock.set('2026-09-01T08:00:00Z');
    }
  });
});

describe("a service's payment and cancellation policy in the panel", () => {
  it('is set from the service page by owners and admins, read back by the API; refused input is named', async () => {
    const service = await createService(t.db, t.workspace.id, [], { name: 'Massage', price: 8000 });
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const servicePage = await client.get(`/panel/setup/services/${service.id}`);
    expect(servicePage.body).toContain(`href="/panel/setup/services/${service.id}/payment"`);
    const page = `/panel/setup/services/${service.id}/payment`;
    const first = await client.get(page);
    expect(first.statusCode).toBe(200);
    expect(first.body).toMatch(/<option value="none" selected>/);

    const saved = await client.submit(page, {
      collect: 'deposit',
      deposit_type: 'fixed',
      deposit_amount: '25.50',
      deposit_percent: '',
      preset: 'moderate',
      free_cancellation_hours: '',
      late_cancel_fee_percent: '',
      no_show_fee_percent: '',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`${page}?notice=saved`);
    const policy = (await t.call('GET', `/services/${service.id}/payment_policy`)).json().data;
    expect(policy).toMatchObject({
      collect: 'deposit',
      deposit_type: 'fixed',
      deposit_amount: 2550,
      preset: 'moderate',
      free_cancellation_hours: 24,
      late_cancel_fee_percent: 50,
      no_show_fee_percent: 100,
    });
    expect((await client.get(page)).body).toContain('value="25.50"');

    const custom = await client.submit(page, {
      collect: 'prepayment',
      deposit_type: 'percent',
      deposit_amount: '',
      deposit_percent: '',
      preset: 'custom',
      free_cancellation_hours: '12',
      late_cancel_fee_percent: '30',
      no_show_fee_percent: '80',
    });
    expect(custom.statusCode, custom.body).toBe(303);
    expect((await t.call('GET', `/services/${service.id}/payment_policy`)).json().data).toMatchObject({
      collect: 'prepayment',
      preset: 'custom',
      free_cancellation_hours: 12,
      late_cancel_fee_percent: 30,
      no_show_fee_percent: 80,
    });

    // A fee over 100 (and a deposit of 0 %): a 422 naming what is wrong, nothing saved.
    const refused = await client.submit(page, {
      collect: 'deposit',
      deposit_type: 'percent',
      deposit_amount: '',
      deposit_percent: '0',
      preset: 'custom',
      free_cancellation_hours: '12',
      late_cancel_fee_percent: '130',
      no_show_fee_percent: '80',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Enter a whole number from 0 to 100.');
    expect((await t.call('GET', `/services/${service.id}/payment_policy`)).json().data.collect).toBe(
      'prepayment',
    );
  });

  it('is not for staff, nor for another workspace’s service', async () => {
    const service = await createService(t.db, t.workspace.id, [], { name: 'Facial' });
    const staffClient = await PanelClient.signedIn(t.app, t.db, staff, t.workspace.id);
    expect((await staffClient.get(`/panel/setup/services/${service.id}/payment`)).statusCode).toBe(403);
    const other = await createOtherWorkspace(t.db);
    const foreign = await createService(t.db, other.workspace.id, [], { name: 'Elsewhere' });
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    expect((await client.get(`/panel/setup/services/${foreign.id}/payment`)).statusCode).toBe(404);
  });
});

describe('Settings → Payments and a service’s policy in other languages', () => {
  it('speak German to a German-speaking admin, field errors of the policy form included', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'admin', 'de');
    const settings = (await german.get(PAGE)).body;
    expect(settings).toContain('<h1>Zahlungen</h1>');
    expect(settings).toContain('In Stripe einzutragender Webhook-Endpunkt');
    expect(settings).toContain('Ereignisse: checkout.session.completed,');
    const service = await createService(t.db, t.workspace.id, [], { name: 'Pediküre' });
    const page = `/panel/setup/services/${service.id}/payment`;
    const policy = (await german.get(page)).body;
    expect(policy).toContain('<h1>Zahlung und Stornierung</h1>');
    expect(policy).toContain('Streng: kostenlos bis');
    expect(policy).toContain('<option value="card_on_file">Eine hinterlegte Karte, nicht belastet</option>');
    const refused = await german.post(page, {
      collect: 'deposit',
      preset: 'custom',
      late_cancel_fee_percent: '150',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Geben Sie eine ganze Zahl von 0 bis 100 ein.');
  });

  it('lay the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const settings = (await arabic.get(PAGE)).body;
    expect(settings).toContain('<html lang="ar" dir="rtl">');
    expect(settings).toContain('<h1>المدفوعات</h1>');
  });
});
