import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { dispatchOutbox } from '../../src/outbox/outbox-dispatch.service.js';
import { attemptDueOperations } from '../../src/payments/payment-operations.service.js';
import { connectStripe } from '../../src/payments/payment-settings.service.js';
import { PaymentSweeper } from '../../src/payments/payment-sweeper.js';
import type { Database } from '../../src/platform/db/client.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import { startSession } from '../../src/users/sessions.service.js';
import { outboxHandlers } from '../../src/workers.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { FixedClock } from '../helpers/clock.js';
import { FakeStripe } from '../helpers/fake-stripe.js';
import { makeUser } from '../helpers/panel-client.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { launchChromium, PageChecks } from './page-kit.js';

/**
 * What happens to a customer's money after they paid, in Debian's Chromium, through the real app
 * and the fake Stripe's hosted page: a cancel inside the free period (all of it back), a late
 * cancel (the fee kept, the rest back), a no-show marked in the panel (the fee charged to the kept
 * card), and a hold that runs out while the customer sits on the hosted page (nothing charged, the
 * time free again). Each cancel step says what it will do before the customer confirms. The
 * worker's rounds (outbox dispatch, owed provider calls, hold expiry) are run by the test at the
 * moments a worker would. axe-core and screenshots at 1280 and 375 px
 * (docs/screenshots/payments-flows-*).
 */
const clock = new FixedClock('2026-09-01T08:00:00Z');
let database: Database;
let app: ApiApp;
let browser: Browser;
let base: string;
let fake: FakeStripe;
let config: Config;
let apiHeaders: Record<string, string>;
let fixture: Awaited<ReturnType<typeof bookingFixture>>;
let workspaceId: string;
const pages = new PageChecks('payments-flows');
const pageErrors: string[] = [];

// biome-ignore lint/suspicious/noExplicitAny: JSON answers the tests read field by field.
type Json = Record<string, any>;

beforeAll(async () => {
  database = await openTestDatabase();
  fake = await FakeStripe.start();
  fake.autoDeliver = false;
  config = {
    ...loadConfig({}),
    worker: 'off' as const,
    apiRateLimitPerMinute: 0,
    secretKey: 'page-test-secret-key-of-at-least-32-chars',
    stripeApiBase: fake.origin,
  };
  app = await buildApp({ database, config, clock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  const { workspace, apiKey } = await createWorkspace(openWritePath(database.db).uow, {
    slug: 'flows',
    name: 'Studio Flows',
  });
  workspaceId = workspace.id;
  apiHeaders = { authorization: `Bearer ${apiKey.secret}`, workspace: workspace.slug };
  fixture = await bookingFixture({ db: database.db, workspace } as Parameters<typeof bookingFixture>[0]);
  await connectStripe(
    openWritePath(database.db).uow,
    workspace.id,
    { type: 'user', id: null },
    { secret_key: fake.secretKey, webhook_secret: 'whsec_flowsTest0123456' },
    config,
  );
  // Haircut (90.00): paid in full; free until 72 h before, then half; a no-show costs it all.
  await api('PUT', `/services/${fixture.haircut.id}/payment_policy`, {
    collect: 'prepayment',
    preset: 'custom',
    free_cancellation_hours: 72,
    late_cancel_fee_percent: 50,
    no_show_fee_percent: 100,
  });
  // Color (50.00): a card kept, nothing charged; flexible terms (a no-show costs half).
  await api('PUT', `/services/${fixture.color.id}/payment_policy`, {
    collect: 'card_on_file',
    preset: 'flexible',
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await fake?.stop();
  await database?.close();
});

async function api(method: string, url: string, payload?: unknown): Promise<Json> {
  const response = await app.inject({
    method: method as 'GET',
    url: `/api/public/v2${url}`,
    headers: apiHeaders,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
}

/** A customer's browser page; errors of our own pages are collected (the fake's page is not ours). */
async function customerPage(): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && message.location().url.startsWith(base))
      pageErrors.push(`console: ${message.text()} ${message.location().url}`);
  });
  return { page, close: () => context.close() };
}

/** Books `service` at `at` on the booking page and confirms: the page is then on the hosted Checkout. */
async function toCheckout(page: Page, service: string, at: string, phone: string): Promise<void> {
  const state = new URLSearchParams({ lang: 'en', service, staffer: fixture.anna.id, at });
  await page.goto(`${base}/book/flows?${state}`);
  await page.getByRole('heading', { name: 'Your details' }).waitFor();
  await page.getByLabel('Phone').fill(phone);
  await page.getByLabel('First name').fill('Ada');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Check and confirm' }).waitFor();
  await page.getByRole('button', { name: 'Confirm and pay' }).click();
  await page.waitForURL(`${fake.origin}/checkout/**`);
}

/** The booking made at `at` (the API's view of it). */
async function bookingAt(at: string): Promise<Json> {
  const { data } = await api('GET', `/bookings?reserved_on_from=${at}&reserved_on_to=${at}`);
  expect(data).toHaveLength(1);
  return api('GET', `/bookings/${data[0].uuid}`).then((answer) => answer.data);
}

/** What a worker does after a change: dispatch its events (twice: the second changes nothing), send what is owed. */
async function workerRounds(): Promise<void> {
  for (let round = 0; round < 2; round++) {
    await dispatchOutbox(database.db, outboxHandlers(), clock.now(), 1000);
    await attemptDueOperations(database.db, openWritePath(database.db).uow, config, clock.now());
  }
}

/** How many more bookings `time-slots` offers at the instant `at` (its day in Berlin). */
async function quantityAt(at: string): Promise<number> {
  const day = at.slice(0, 10);
  const answer = await api(
    'GET',
    `/locations/${fixture.location.id}/time-slots?service_uuid=${fixture.haircut.id}&range_start=${day}&range_end=${day}`,
  );
  const slot = answer.dates[0]?.slots.find((s: Json) => s.start_time === at.replace('.000', ''));
  return slot?.quantity ?? 0;
}

const movements = (booking: Json) => booking.order.payments.map((p: Json) => [p.kind, p.amount, p.status]);

describe('after paying on the booking page', () => {
  it('a cancel inside the free period says all comes back, and refunds it once', async () => {
    clock.set('2026-09-01T08:00:00Z');
    const at = '2026-09-08T10:00:00Z';
    const { page, close } = await customerPage();
    await toCheckout(page, fixture.haircut.id, at, '+49 151 20000001');
    await page.getByRole('button', { name: 'Pay 90.00 EUR' }).click();
    await page.waitForURL(/\/book\/flows\/manage\//);
    await page.getByText('Paid online.').waitFor();

    await page.getByRole('link', { name: 'Cancel booking' }).click();
    await page.getByRole('heading', { name: 'Cancel this booking?' }).waitFor();
    await expect(page.getByText('€90.00 goes back to your card.').isVisible()).resolves.toBe(true);
    await expect(page.getByText(/late-cancellation fee/).count()).resolves.toBe(0);
    await pages.check(page, 'cancel-free');
    await page.getByRole('button', { name: 'Yes, cancel this booking' }).click();
    await page.getByText('Your booking was canceled.').waitFor();
    await close();

    await workerRounds();
    const booking = await bookingAt(at);
    expect(movements(booking)).toEqual([
      ['prepayment', 9000, 'succeeded'],
      ['refund', 9000, 'succeeded'],
    ]);
    expect(booking.order.amount_paid).toBe(0);
    const intent = fake.chargesOf(booking.uuid)[0]?.id;
    expect(
      [...fake.refunds.values()].filter((r) => r.payment_intent === intent).map((r) => r.amount),
    ).toEqual([9000]);
  });

  it('a late cancel names the fee before confirming, keeps it and refunds the rest once', async () => {
    clock.set('2026-09-01T08:00:00Z');
    // 48 hours ahead: inside the 72 free hours' end, before the manage link's 24-hour cut-off.
    const at = '2026-09-03T08:00:00Z';
    const { page, close } = await customerPage();
    await toCheckout(page, fixture.haircut.id, at, '+49 151 20000002');
    await page.getByRole('button', { name: 'Pay 90.00 EUR' }).click();
    await page.waitForURL(/\/book\/flows\/manage\//);
    await page.getByRole('link', { name: 'Cancel booking' }).click();
    await page.getByRole('heading', { name: 'Cancel this booking?' }).waitFor();
    await expect(
      page.getByText('Cancelling now costs the late-cancellation fee of €45.00.').isVisible(),
    ).resolves.toBe(true);
    await expect(page.getByText('€45.00 goes back to your card.').isVisible()).resolves.toBe(true);
    await pages.check(page, 'cancel-late');
    await page.getByRole('button', { name: 'Yes, cancel this booking' }).click();
    await page.getByText('Your booking was canceled.').waitFor();
    await close();

    await workerRounds();
    const booking = await bookingAt(at);
    expect(movements(booking)).toEqual([
      ['prepayment', 9000, 'succeeded'],
      ['refund', 4500, 'succeeded'],
    ]);
    expect(booking.order.amount_paid).toBe(4500);
    const intent = fake.chargesOf(booking.uuid)[0]?.id;
    expect(
      [...fake.refunds.values()].filter((r) => r.payment_intent === intent).map((r) => r.amount),
    ).toEqual([4500]);
  });

  it('staff mark a no-show in the panel: the fee it names is charged to the kept card, once', async () => {
    clock.set('2026-09-01T08:00:00Z');
    const at = '2026-09-01T12:00:00Z';
    const customer = await customerPage();
    await toCheckout(customer.page, fixture.color.id, at, '+49 151 20000003');
    await customer.page.getByRole('button', { name: 'Save card' }).click();
    await customer.page.waitForURL(/\/book\/flows\/manage\//);
    await customer.page.getByText('Your card is kept on file for the cancellation terms.').waitFor();
    await customer.close();

    // Half an hour after the start, the customer has not come.
    clock.set('2026-09-01T12:30:00Z');
    const staff = await makeUser(database.db, [{ workspaceId, role: 'staff' }]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addCookies([
      {
        name: 'kairos_session',
        value: await startSession(database.db, staff.id, workspaceId, clock.now()),
        url: base,
      },
    ]);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(`console: ${message.text()}`);
    });
    const booking = await bookingAt(at);
    await page.goto(`${base}/panel/bookings/${booking.uuid}`);
    const card = page.getByRole('region', { name: 'No-show' });
    await expect(card.getByText('No-show fee: €25.00.').isVisible()).resolves.toBe(true);
    await expect(card.getByText('€25.00 is charged to the card on file.').isVisible()).resolves.toBe(true);
    await pages.check(page, 'panel-no-show');
    await card.getByRole('button', { name: 'Mark as no-show' }).click();
    await page.getByText('Marked as a no-show.').waitFor();
    await expect(page.getByRole('region', { name: 'No-show' }).count()).resolves.toBe(0);

    await workerRounds();
    const after = await bookingAt(at);
    expect(after.cancel_reason).toBe('didnt_come');
    expect(movements(after)).toEqual([['no_show_fee', 2500, 'succeeded']]);
    expect(fake.chargesOf(booking.uuid).map((c) => c.amount)).toEqual([2500]);
    await context.close();
  });

  it('a hold that runs out while the customer is on the hosted page: nothing charged, the time free again', async () => {
    clock.set('2026-09-01T08:00:00Z');
    const at = '2026-09-09T10:00:00Z';
    const { page, close } = await customerPage();
    await toCheckout(page, fixture.haircut.id, at, '+49 151 20000004');
    const held = await bookingAt(at);
    expect(held.payment.state).toBe('awaiting_payment');
    // While held, only Ben is still free at that time.
    expect(await quantityAt(at)).toBe(1);
    const sessionId = new URL(page.url()).pathname.split('/').pop() as string;

    // The customer stays on the hosted page past the 15 minutes; the worker's payment round runs.
    clock.advance(16 * 60_000);
    const logger = { info: () => {}, warn: () => {}, error: () => {} };
    const sweeper = new PaymentSweeper({
      db: database.db,
      uow: openWritePath(database.db).uow,
      clock,
      linkBase: base,
      config,
      logger: logger as unknown as ConstructorParameters<typeof PaymentSweeper>[0]['logger'],
    });
    await sweeper.sweepOnce();
    const released = await bookingAt(at);
    expect(released.cancel_reason).toBe('abandoned');
    // The time is offered again at once: both staffers free at it, as before the hold.
    expect(await quantityAt(at)).toBe(2);

    // Then the customer clicks Pay: the provider no longer takes the session.
    await page.getByRole('button', { name: 'Pay 90.00 EUR' }).click();
    await page.getByText('This checkout session is no longer active.').waitFor();
    expect(fake.sessions.get(sessionId)?.status).toBe('expired');
    expect(fake.chargesOf(held.uuid)).toEqual([]);

    // The way back the hosted page offers lands on the manage page, which says why and how to book again.
    const back = String(fake.sessions.get(sessionId)?.cancel_url).replace('{CHECKOUT_SESSION_ID}', sessionId);
    await page.goto(back);
    await page.waitForURL(/\/book\/flows\/manage\//);
    await expect(
      page.getByText('This booking was released because the payment did not arrive in time.').isVisible(),
    ).resolves.toBe(true);
    await pages.check(page, 'released');
    await page.getByRole('link', { name: 'Book again' }).click();
    await page.waitForURL(new RegExp(`/book/flows\\?.*service=${fixture.haircut.id}`));
    await close();

    // And the same time can be booked again by anyone.
    const again = await app.inject({
      method: 'POST',
      url: '/api/public/v2/bookings',
      headers: apiHeaders,
      payload: {
        reserved_on: at,
        location_uuid: fixture.location.id,
        service_uuid: fixture.haircut.id,
        staffer_uuid: fixture.anna.id,
        customer_phone: '+4915120000005',
      },
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('showed no page error and nothing serious to axe', () => {
    expect(pageErrors).toEqual([]);
    expect(pages.findings).toEqual([]);
  });
});
