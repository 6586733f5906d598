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
 * Rentals in Chromium (docs/resources.md "Rentals"): a service made a rental with the service
 * form's box, and a rental booking in the calendar by resource (in its court's column, naming no
 * staffer) and counted under the view by staffer; axe, phone width, screenshots at 1280 and 375 px.
 */
const clock = new FixedClock('2026-09-01T08:00:00Z');
const checks = new PageChecks('rentals');
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

describe('rentals in the panel', () => {
  it('a service becomes a rental on its form, and its booking shows in the calendar by resource', async () => {
    const ws = t.workspace.id;
    const location = await createLocation(t.db, ws, { name: 'Tennis club' });
    const weekly = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ from: '09:00', to: '17:00' }]]),
    );
    await t.db
      .updateTable('locations')
      .set({ opening_hours: JSON.stringify(weekly) })
      .where('id', '=', location.id)
      .execute();
    const court = await createService(t.db, ws, [location.id], { name: 'Court hour' });
    for (const name of ['Court 1', 'Court 2'])
      expect(
        (await t.call('POST', '/resources', { location_uuid: location.id, type: 'court', name })).statusCode,
      ).toBe(201);

    const owner = await makeUser(t.db, [{ workspaceId: ws, role: 'owner' }]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addCookies([
      { name: 'kairos_session', value: await startSession(t.db, owner.id, ws, clock.now()), url: base },
    ]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    // Ticked without a resource: refused on the box, nothing saved.
    await page.goto(`${base}/panel/setup/services/${court.id}`);
    await page.getByLabel('Needs no staffer (a rental)').check();
    await page.getByRole('button', { name: /^Save/ }).click();
    await expect(
      page.getByText('A service needs no staffer only when it needs at least one resource.').count(),
    ).resolves.toBeGreaterThan(0);
    expect((await t.call('GET', `/services/${court.id}`)).json().data.staffer_needed).toBe(true);

    await page.getByLabel('Resources needed').fill('court');
    await page.getByLabel('Needs no staffer (a rental)').check();
    await page.getByRole('button', { name: /^Save/ }).click();
    await page.waitForURL(/notice=saved/);
    await page.goto(`${base}/panel/setup/services/${court.id}`);
    await expect(page.getByLabel('Needs no staffer (a rental)').isChecked()).resolves.toBe(true);
    await checks.check(page, 'service-form');
    expect((await t.call('GET', `/services/${court.id}`)).json().data.staffer_needed).toBe(false);

    // Thursday 10 September 2026, Berlin (UTC+2): 10:00, no staffer.
    const created = await t.call('POST', '/bookings', {
      reserved_on: '2026-09-10T08:00:00Z',
      location_uuid: location.id,
      service_uuid: court.id,
      customer_phone: '+4915170000091',
      customer_first_name: 'Mia',
    });
    expect(created.statusCode, created.body).toBe(201);
    const booking = created.json().data;
    expect(booking.staffer).toBeNull();

    await page.goto(`${base}/panel/calendar?location=${location.id}&date=2026-09-10&by=resource&staffer=all`);
    const block = page
      .getByRole('region', { name: 'Court 1, Thursday, 10 September 2026' })
      .locator(`a.blk[href="/panel/bookings/${booking.uuid}"]`);
    await expect(block.count()).resolves.toBe(1);
    // No staffer named: the customer, then the service, its court and status.
    await expect(block.innerText()).resolves.toBe('10:00–11:00\nMia\nCourt hour · Court 1 · New');
    await checks.check(page, 'calendar-by-resource');

    // The view by staffer has no column for it: a line counts it, linking the view by resource.
    await page.goto(`${base}/panel/calendar?location=${location.id}&date=2026-09-10&staffer=all`);
    await expect(page.getByText('1 rental has no staffer, so it is not in this view.').count()).resolves.toBe(
      1,
    );

    // Its page works with no staffer.
    await page.goto(`${base}/panel/bookings/${booking.uuid}`);
    await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBeGreaterThan(0);
    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
    await context.close();
  });
});
