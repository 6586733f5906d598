import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { connectStripe } from '../../src/payments/payment-settings.service.js';
import type { Database } from '../../src/platform/db/client.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { FakeStripe } from '../helpers/fake-stripe.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { launchChromium, PageChecks } from './page-kit.js';

/**
 * The booking page's pay flow in Debian's Chromium: a prepayment service's policy on the confirm
 * step, "Confirm and pay" to the fake Stripe's (script-free) hosted page, paid, and back on the
 * manage page. axe-core and screenshots at 1280 and 375 px (docs/screenshots/payments-booking-page-*).
 */
let database: Database;
let app: ApiApp;
let browser: Browser;
let base: string;
let fake: FakeStripe;
let apiHeaders: Record<string, string>;
let fixture: Awaited<ReturnType<typeof bookingFixture>>;
const pages = new PageChecks('payments-booking-page');

beforeAll(async () => {
  database = await openTestDatabase();
  fake = await FakeStripe.start();
  fake.autoDeliver = false;
  const config: Config = {
    ...loadConfig({}),
    worker: 'off' as const,
    secretKey: 'page-test-secret-key-of-at-least-32-chars',
    stripeApiBase: fake.origin,
  };
  app = await buildApp({ database, config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  const { workspace, apiKey } = await createWorkspace(openWritePath(database.db).uow, {
    slug: 'studio',
    name: 'Studio Mitte',
  });
  apiHeaders = { authorization: `Bearer ${apiKey.secret}`, workspace: workspace.slug };
  fixture = await bookingFixture({ db: database.db, workspace } as Parameters<typeof bookingFixture>[0]);
  await connectStripe(
    openWritePath(database.db).uow,
    workspace.id,
    { type: 'user', id: null },
    { secret_key: fake.secretKey, webhook_secret: 'whsec_pageTest0123456' },
    config,
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await fake?.stop();
  await database?.close();
});

describe('The booking page takes a prepayment in a browser', () => {
  it('shows the policy, sends the customer to the hosted page, and back on the manage page paid', async () => {
    const policy = await app.inject({
      method: 'PUT',
      url: `/api/public/v2/services/${fixture.haircut.id}/payment_policy`,
      headers: apiHeaders,
      payload: { collect: 'prepayment', preset: 'moderate' },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Our pages load their script (the proof-of-work island) without errors; the fake Stripe's
    // own page is not ours (it answers the browser's favicon request with 401).
    page.on('console', (message) => {
      if (message.type() === 'error' && message.location().url.startsWith(base))
        pageErrors.push(`console: ${message.text()} ${message.location().url}`);
    });
    const start = `${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)}T10:00:00Z`;
    const state = new URLSearchParams({
      lang: 'en',
      service: fixture.haircut.id,
      staffer: fixture.anna.id,
      at: start,
    });
    await page.goto(`${base}/book/studio?${state}`);
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    await page.getByLabel('Phone').fill('+49 151 23456789');
    await page.getByLabel('First name').fill('Ada');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Check and confirm' }).waitFor();
    await expect(page.getByText('Due now: €90.00, the full price').isVisible()).resolves.toBe(true);
    await expect(page.getByText('Free cancellation until 24 h before the start.').isVisible()).resolves.toBe(
      true,
    );
    await pages.check(page, 'confirm');

    await page.getByRole('button', { name: 'Confirm and pay' }).click();
    await page.waitForURL(`${fake.origin}/checkout/**`);
    await page.getByRole('button', { name: 'Pay 90.00 EUR' }).click();
    await page.waitForURL(/\/book\/studio\/manage\//);
    await expect(page.getByText('Paid online.').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'Pay now' }).count()).resolves.toBe(0);
    await pages.check(page, 'paid');

    const { data } = (
      await app.inject({
        method: 'GET',
        url: `/api/public/v2/bookings?reserved_on_from=${start}&reserved_on_to=${start}`,
        headers: apiHeaders,
      })
    ).json();
    expect(data).toHaveLength(1);
    expect(data[0].payment.state).toBe('paid');
    await context.close();
    expect(pageErrors).toEqual([]);
    expect(pages.findings).toEqual([]);
  });
});
