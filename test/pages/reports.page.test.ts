import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/users/sessions.service.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { createPaymentAccount } from '../helpers/factories.js';
import { makeUser } from '../helpers/panel-client.js';
import { launch, listeningApp } from './booking-page-browser.js';
import { PageChecks } from './page-kit.js';

/**
 * The reports in Chromium: a month of a small studio's bookings (written straight into the store:
 * the API takes no bookings in the past), every report opened from its tab, the chart drawn and
 * the table beside it, the period form used, nothing serious for axe, nothing wider than a phone,
 * and screenshots at 1280 and 375 px.
 */
const clock = new FixedClock('2026-03-31T16:00:00Z');
const checks = new PageChecks('reports');
let browser: Browser;
let t: TestApp;
let base: string;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  ({ t, base } = await listeningApp(clock));
  const f = await bookingFixture(t);
  const card = await createPaymentAccount(t.db, t.workspace.id, f.location.id, {
    name: 'Card terminal',
    type: 'card',
  });
  const ws = t.workspace.id;
  // March: Anna and Ben, four bookings a day each from 09:00 Berlin time; every seventh canceled,
  // every eleventh a no-show; the kept ones paid on the day, cash or card; a third from the
  // booking page (some by the spring flyer), a third from the panel, a third by the API.
  await sql`INSERT INTO customers (workspace_id, phone, first_name)
    SELECT ${ws}, '+4915190' || lpad(i::text, 6, '0'), 'Customer ' || i FROM generate_series(0, 79) i`.execute(
    t.db,
  );
  await sql`
    WITH plan AS (
      SELECT i, CASE WHEN i % 2 = 0 THEN ${f.anna.id}::uuid ELSE ${f.ben.id}::uuid END AS staffer,
             (('2026-03-01'::date + (i / 8) * interval '1 day' + interval '9 hours'
               + ((i / 2) % 4) * interval '2 hours') AT TIME ZONE 'Europe/Berlin') AS start_at
        FROM generate_series(0, 8 * 30 - 1) i),
    cu AS (SELECT id, row_number() OVER (ORDER BY phone) - 1 AS n FROM customers
            WHERE workspace_id = ${ws} AND phone LIKE '+4915190%')
    INSERT INTO bookings (workspace_id, location_id, staffer_id, customer_id, status_id, start_time, end_time,
                          cancel_reason, canceled_at, source, ref, created_at)
    SELECT ${ws}, ${f.location.id}, plan.staffer, cu.id,
           (SELECT id FROM booking_statuses WHERE workspace_id = ${ws} AND type = 'confirmed'),
           plan.start_at, plan.start_at + interval '1 hour',
           CASE WHEN plan.i % 7 = 3 THEN 'canceled' WHEN plan.i % 11 = 5 THEN 'didnt_come' END,
           CASE WHEN plan.i % 7 = 3 OR plan.i % 11 = 5 THEN plan.start_at END,
           CASE plan.i % 3 WHEN 0 THEN 'online-booking' WHEN 1 THEN 'panel' ELSE 'api' END,
           CASE WHEN plan.i % 6 = 0 THEN 'spring-flyer' END,
           plan.start_at - ((plan.i * 13) % 20) * interval '1 day' - interval '2 hours'
      FROM plan JOIN cu ON cu.n = (plan.i * 7) % 80`.execute(t.db);
  await sql`
    INSERT INTO booking_services (workspace_id, booking_id, service_id, name, price, original_price, duration_minutes)
    SELECT b.workspace_id, b.id, s.id, s.name, s.price, s.price, 60 FROM bookings b
      JOIN services s ON s.workspace_id = b.workspace_id
       AND s.id = CASE WHEN extract(hour FROM b.start_time) < 11 THEN ${f.haircut.id}::uuid ELSE ${f.color.id}::uuid END
     WHERE b.workspace_id = ${ws}`.execute(t.db);
  await sql`
    INSERT INTO payments (workspace_id, booking_id, payment_account_id, amount, created_at)
    SELECT b.workspace_id, b.id,
           CASE WHEN extract(day FROM b.start_time)::int % 3 = 0 THEN ${f.cash.id}::uuid ELSE ${card.id}::uuid END,
           bs.price, b.end_time
      FROM bookings b JOIN booking_services bs ON bs.workspace_id = b.workspace_id AND bs.booking_id = b.id
     WHERE b.workspace_id = ${ws} AND b.canceled_at IS NULL AND b.start_time < ${new Date(clock.now())}::timestamptz`.execute(
    t.db,
  );
  browser = await launch();
  const owner = await makeUser(t.db, [{ workspaceId: ws, role: 'owner' }]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  await context.addCookies([
    { name: 'kairos_session', value: await startSession(t.db, owner.id, ws, clock.now()), url: base },
  ]);
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('reports in a browser', () => {
  it('opens each report from its tab with its chart and table, and the period form refines it', async () => {
    await page.goto(`${base}/panel`);
    await page.getByRole('link', { name: 'Reports' }).first().click();
    await page.waitForURL(/\/panel\/reports\/revenue/);
    // The last 30 days by day: a column per day in the chart, a row per day in the table.
    const byDay = page.locator('#table-period').locator('xpath=..');
    expect(await byDay.locator('svg rect').count()).toBe(30);
    expect(await byDay.locator('.chart-x span').count()).toBe(5);
    expect(await byDay.locator('tbody tr').count()).toBe(30);
    await checks.check(page, 'revenue');
    const tabs = page.getByRole('navigation', { name: 'Reports' });
    for (const [tab, name] of [
      ['Sources', 'sources'],
      ['Utilisation', 'utilisation'],
      ['Cancellations', 'cancellations'],
      ['Customers', 'customers'],
      ['Lead time', 'lead-time'],
    ] as const) {
      await tabs.getByRole('link', { name: tab, exact: true }).click();
      await page.waitForURL(new RegExp(`/panel/reports/${name}\\?`));
      expect(await page.locator('figure.chart svg').count()).toBeGreaterThan(0);
      await checks.check(page, name);
    }
    await tabs.getByRole('link', { name: 'Revenue', exact: true }).click();
    await page.getByLabel('From').fill('2026-03-01');
    await page.getByLabel('To').fill('2026-03-31');
    await page.getByLabel('By', { exact: true }).selectOption('week');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/group=week/);
    expect(await page.locator('#table-period').locator('xpath=..').locator('tbody tr').count()).toBe(6);
    await checks.check(page, 'revenue-weeks');
    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
  });
});
