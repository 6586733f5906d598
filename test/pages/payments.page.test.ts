import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/platform/db/client.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { FakeStripe } from '../helpers/fake-stripe.js';
import { makeUser, TEST_PASSWORD } from '../helpers/panel-client.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { launchChromium, PageChecks } from './page-kit.js';

/**
 * Payments in Debian's Chromium: Settings → Payments connects the fake Stripe on loopback; then a
 * booking made through the API with collect_payment is paid on the (script-free) hosted page and
 * the customer comes back to the booking's manage page. axe-core and screenshots at 1280 and 375 px.
 */
let database: Database;
let app: ApiApp;
let browser: Browser;
let base: string;
let fake: FakeStripe;
let apiHeaders: Record<string, string>;
let fixture: Awaited<ReturnType<typeof bookingFixture>>;
const pages = new PageChecks('payments');
const WEBHOOK_SECRET = 'whsec_pageTest0123456';

beforeAll(async () => {
  database = await openTestDatabase();
  fake = await FakeStripe.start();
  fake.autoDeliver = false;
  app = await buildApp({
    database,
    config: {
      ...loadConfig({}),
      worker: 'off' as const,
      secretKey: 'page-test-secret-key-of-at-least-32-chars',
      stripeApiBase: fake.origin,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  const { workspace, apiKey } = await createWorkspace(openWritePath(database.db).uow, {
    slug: 'studio',
    name: 'Studio Mitte',
  });
  apiHeaders = { authorization: `Bearer ${apiKey.secret}`, workspace: workspace.slug };
  await makeUser(database.db, [{ workspaceId: workspace.id, role: 'owner' }], 'owner@studio.example');
  fixture = await bookingFixture({ db: database.db, workspace } as Parameters<typeof bookingFixture>[0]);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await fake?.stop();
  await database?.close();
});

describe('Payments in a browser', () => {
  it('connects Stripe in Settings, then a customer pays a deposit on the hosted page and comes back', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${base}/panel/sign-in`);
    await page.getByLabel('Email').fill('owner@studio.example');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/panel`);
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.waitForURL(/\/settings\/payments$/);
    await page.getByLabel('Secret key (sk_live_… or sk_test_…)').fill(fake.secretKey);
    await page.getByLabel('Webhook signing secret (whsec_…)').fill(WEBHOOK_SECRET);
    await page.getByRole('button', { name: 'Connect Stripe' }).click();
    await page.waitForURL(/notice=connected/);
    await expect(
      page.getByText('Stripe is connected: the keys work and are saved.').isVisible(),
    ).resolves.toBe(true);
    await expect(page.getByText('Salon Test').isVisible()).resolves.toBe(true);
    await pages.check(page, 'settings');

    // The service asks a 20% deposit; a booking through the API collects it.
    const policy = await app.inject({
      method: 'PUT',
      url: `/api/public/v2/services/${fixture.haircut.id}/payment_policy`,
      headers: apiHeaders,
      payload: { collect: 'deposit', deposit_type: 'percent', deposit_percent: 20, preset: 'moderate' },
    });
    expect(policy.statusCode).toBe(200);
    const created = await app.inject({
      method: 'POST',
      url: '/api/public/v2/bookings',
      headers: apiHeaders,
      payload: {
        reserved_on: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10) + 'T10:00:00Z',
        location_uuid: fixture.location.id,
        service_uuid: fixture.haircut.id,
        staffer_uuid: fixture.anna.id,
        customer_phone: '+4915112345678',
        collect_payment: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const link = created.json().data.links.find((l: { type: string }) => l.type === 'payment').link as string;

    // The hosted page has no script of anyone's; its button pays and redirects back.
    const customer = await context.newPage();
    await customer.goto(link);
    await customer.getByRole('button', { name: 'Pay 18.00 EUR' }).click();
    await customer.waitForURL(/\/book\/studio\/manage\//);
    await expect(customer.getByText('Haircut').first().isVisible()).resolves.toBe(true);
    await pages.check(customer, 'return');
    const booking = await app.inject({
      method: 'GET',
      url: `/api/public/v2/bookings/${created.json().data.uuid}`,
      headers: apiHeaders,
    });
    expect(booking.json().data.payment.state).toBe('paid');
    expect(
      booking.json().data.order.payments.map((p: { kind: string; amount: number }) => [p.kind, p.amount]),
    ).toEqual([['deposit', 1800]]);
    // The owner's booking page offers the refund of what is left.
    await page.goto(`${base}/panel/bookings/${created.json().data.uuid}`);
    await expect(page.getByRole('button', { name: 'Refund' }).isVisible()).resolves.toBe(true);
    await page.getByLabel('Refund amount (EUR)').fill('5.00');
    await page.getByRole('button', { name: 'Refund' }).click();
    await page.waitForURL(/notice=refunded/);
    await expect(
      page.getByText('The refund is on its way to the customer’s card.').isVisible(),
    ).resolves.toBe(true);
    await pages.check(page, 'booking-refund');
    await context.close();
    expect(pageErrors).toEqual([]);
    expect(pages.findings).toEqual([]);
  });
});
