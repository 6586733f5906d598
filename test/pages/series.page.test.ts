import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/users/sessions.service.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { createLocation, createService, createStaffer, EVERY_DAY_9_TO_17 } from '../helpers/factories.js';
import { makeUser } from '../helpers/panel-client.js';
import { launch, listeningApp } from './booking-page-browser.js';
import { PageChecks } from './page-kit.js';

/**
 * A series from the panel in Chromium (docs/series.md): the new booking's Repeat fieldset, then
 * the booking's page with its series card, and a cancel of this and the following; nothing
 * serious for axe, nothing wider than a phone, screenshots at 1280 and 375 px.
 */
const clock = new FixedClock('2026-09-01T08:00:00Z');
const checks = new PageChecks('series');
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

describe('Panel: a booking repeated weekly', () => {
  it('books three Thursdays from the Repeat fieldset and cancels the last two from the series card', async () => {
    const ws = t.workspace.id;
    const location = await createLocation(t.db, ws, { name: 'Mitte', timezone: 'Europe/Berlin' });
    const cut = await createService(t.db, ws, [location.id], { name: 'Haircut', durationMinutes: 60 });
    await createStaffer(t.db, ws, location.id, [cut.id], { firstName: 'Anna', weekly: EVERY_DAY_9_TO_17 });
    const owner = await makeUser(t.db, [{ workspaceId: ws, role: 'owner' }]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addCookies([
      { name: 'kairos_session', value: await startSession(t.db, owner.id, ws, clock.now()), url: base },
    ]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${base}/panel/bookings/new`);
    await page.getByLabel('Haircut (60 min)').check();
    await page.getByLabel('Date', { exact: true }).fill('2026-09-10');
    await page.getByRole('button', { name: 'Show free times' }).click();
    await page.getByLabel('Time', { exact: true }).selectOption('10:00');
    await page.getByLabel('Phone (required)').fill('+4915112345678');
    await page.getByLabel('Repeat this booking').check();
    await page.getByLabel('Times (at most 52)').fill('3');
    await checks.check(page, 'new');
    await page.getByRole('button', { name: 'Create booking' }).click();
    await page.waitForURL(/notice=series-created/);
    expect(await page.getByRole('status').textContent()).toBe(
      'The series was created: its bookings are listed below.',
    );
    const occurrences = page.getByRole('list', { name: 'Bookings of the series' }).getByRole('listitem');
    expect(await occurrences.count()).toBe(3);
    await checks.check(page, 'booking');

    // The second Thursday: cancel it and the following.
    await occurrences.nth(1).getByRole('link').click();
    await page.getByRole('combobox', { name: 'Which bookings' }).last().selectOption('following');
    await page.getByRole('button', { name: 'Cancel these bookings' }).click();
    await page.waitForURL(/notice=series-canceled/);
    await checks.check(page, 'canceled');

    const { rows } = await sql<{ type: string }>`
      SELECT s.type FROM bookings b JOIN booking_statuses s ON s.workspace_id = b.workspace_id AND s.id = b.status_id
      WHERE b.workspace_id = ${ws} AND b.series_id IS NOT NULL ORDER BY b.start_time`.execute(t.db);
    expect(rows.map((r) => r.type)).toEqual(['new', 'canceled', 'canceled']);
    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
    await context.close();
  });

  it('the booking page offers a series for a service marked bookable in series, and confirms every date', async () => {
    const ws = t.workspace.id;
    const location = await createLocation(t.db, ws, { name: 'Kreuzberg', timezone: 'Europe/Berlin' });
    const lesson = await createService(t.db, ws, [location.id], {
      name: 'Piano lesson',
      durationMinutes: 45,
    });
    const ben = await createStaffer(t.db, ws, location.id, [lesson.id], {
      firstName: 'Ben',
      weekly: EVERY_DAY_9_TO_17,
    });
    const marked = await t.call('PATCH', `/services/${lesson.id}`, { series_bookable: true });
    expect(marked.statusCode, marked.body).toBe(200);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const state = new URLSearchParams({
      lang: 'en',
      location: location.id,
      service: lesson.id,
      staffer: ben.id,
      at: '2026-09-15T07:00:00Z',
    });
    await page.goto(`${base}/book/${t.workspace.slug}?${state}`);
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    await page.getByLabel('Phone').fill('+49 151 23456789');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Check and confirm' }).waitFor();
    await page.getByLabel('How often').selectOption('2');
    await page.getByLabel('How many times').selectOption('4');
    await checks.check(page, 'booking-page-confirm');
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await page.getByRole('heading', { name: 'Your booking is confirmed' }).waitFor();
    expect(await page.getByText('Also booked, 3 more dates on the same terms:').count()).toBe(1);
    await checks.check(page, 'booking-page-booked');
    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
    await context.close();
  });

  it('the service form shows the series setting', async () => {
    const ws = t.workspace.id;
    const place = await createLocation(t.db, ws, { name: 'Neukölln', timezone: 'Europe/Berlin' });
    const service = { uuid: (await createService(t.db, ws, [place.id], { name: 'Yoga' })).id };
    const owner = await makeUser(t.db, [{ workspaceId: ws, role: 'owner' }]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addCookies([
      { name: 'kairos_session', value: await startSession(t.db, owner.id, ws, clock.now()), url: base },
    ]);
    const page = await context.newPage();
    await page.goto(`${base}/panel/setup/services/${service.uuid}`);
    await page.getByLabel('Bookable in series on the booking page').waitFor();
    await checks.check(page, 'service-form');
    expect(checks.findings).toEqual([]);
    await context.close();
  });
});
