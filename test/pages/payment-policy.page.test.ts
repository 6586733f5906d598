import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/users/sessions.service.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { createLocation, createService } from '../helpers/factories.js';
import { makeUser } from '../helpers/panel-client.js';
import { launch, listeningApp } from './booking-page-browser.js';
import { PageChecks } from './page-kit.js';

/**
 * A service's payment and cancellation policy in Chromium: from the service's page to its policy,
 * a deposit and custom terms chosen and saved; nothing serious for axe, nothing wider than a
 * phone, screenshots at 1280 and 375 px.
 */
const clock = new FixedClock('2026-09-01T08:00:00Z');
const checks = new PageChecks('payments');
let browser: Browser;
let t: TestApp;
let base: string;

beforeAll(async () => {
  ({ t, base } = await listeningApp(clock));
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the payment policy of a service', () => {
  it('is reached from the service and saved', async () => {
    const location = await createLocation(t.db, t.workspace.id, { name: 'Mitte' });
    const service = await createService(t.db, t.workspace.id, [location.id], {
      name: 'Colour',
      price: 12000,
    });
    const owner = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addCookies([
      {
        name: 'kairos_session',
        value: await startSession(t.db, owner.id, t.workspace.id, clock.now()),
        url: base,
      },
    ]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}/panel/setup/services/${service.id}`);
    await page.getByRole('link', { name: 'set the policy' }).click();
    await page.waitForURL(/\/payment$/);
    await page.getByLabel('When booked, collect').selectOption('deposit');
    await page.getByLabel('Percentage').fill('30');
    await page.getByLabel('Cancellation terms').selectOption('custom');
    await page.getByLabel('Free cancellation until (hours before)').fill('12');
    await page.getByLabel('Late cancel fee (%)').fill('40');
    await page.getByLabel('No-show fee (%)').fill('100');
    await page.getByRole('button', { name: 'Save the policy' }).click();
    await page.waitForURL(/notice=saved/);
    expect(await page.getByRole('status').textContent()).toBe('The policy is saved.');
    await checks.check(page, 'service-policy');
    const policy = (await t.call('GET', `/services/${service.id}/payment_policy`)).json().data;
    expect(policy).toMatchObject({ collect: 'deposit', deposit_percent: 30, free_cancellation_hours: 12 });
    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
    await context.close();
  });
});
