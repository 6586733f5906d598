import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/users/sessions.service.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { createLocation, createService, createStaffer } from '../helpers/factories.js';
import { makeUser } from '../helpers/panel-client.js';
import { type Radicale, startRadicale } from '../helpers/radicale.js';
import { launch, listeningApp } from './booking-page-browser.js';
import { PageChecks } from './page-kit.js';

/**
 * Connecting a staffer's own calendar in Chromium, against a real Radicale: from the staffer's
 * page to the form, a refused password shown beside its field, "Test connection" listing the
 * calendars, one picked to block and one to take the bookings, connected and read. Nothing
 * serious for axe, nothing wider than a phone, screenshots at 1280 and 375 px.
 */
const clock = new FixedClock('2026-09-01T08:00:00Z');
const checks = new PageChecks('calendar-connect');
let browser: Browser;
let t: TestApp;
let base: string;
let radicale: Radicale;

beforeAll(async () => {
  [{ t, base }, radicale] = await Promise.all([
    listeningApp(clock, { webhooksAllowPrivate: true }),
    startRadicale(),
  ]);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await radicale?.stop();
});

const event = (uid: string, start: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260801T000000Z',
    `DTSTART:${start}`,
    'DURATION:PT1H',
    'SUMMARY:Dentist',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

describe("connecting a staffer's calendar", () => {
  it('goes from the staffer page through discovery to a connected, read calendar', async () => {
    const ws = t.workspace.id;
    const mitte = await createLocation(t.db, ws, { name: 'Mitte' });
    const cut = await createService(t.db, ws, [mitte.id], { name: 'Cut' });
    const anna = await createStaffer(t.db, ws, mitte.id, [cut.id], { firstName: 'Anna', lastName: 'Adler' });
    const work = await radicale.makeCalendar('work', 'Work');
    await radicale.makeCalendar('private', 'Private');
    await radicale.put(work, 'd1.ics', event('d1', '20260903T080000Z'));

    const owner = await makeUser(t.db, [{ workspaceId: ws, role: 'owner' }]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addCookies([
      { name: 'kairos_session', value: await startSession(t.db, owner.id, ws, clock.now()), url: base },
    ]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${base}/panel/setup/staffers/${anna.id}`);
    await page.getByRole('link', { name: 'Connect a calendar' }).click();
    await page.waitForURL(/\/calendar$/);

    await page.getByLabel('Server address').fill(radicale.url);
    await page.getByLabel('User name').fill(radicale.user);
    await page.getByLabel('App password').fill('a-revoked-password');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.waitForURL(/\/calendar\/test$/);
    expect(await page.locator('#f-password-error').textContent()).toBe(
      'The calendar server refused this user name and app password.',
    );
    await checks.check(page, 'refused');

    await page.getByLabel('App password').fill(radicale.password);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('The connection works: 2 calendars of events found.').waitFor();
    await page.getByRole('checkbox', { name: 'Private' }).uncheck();
    await page.getByLabel('Write bookings to').selectOption({ label: 'Work' });
    await page.getByRole('checkbox', { name: /Show event titles/ }).check();
    await checks.check(page, 'calendars');

    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/notice=connected/);
    expect(await page.getByRole('status').first().textContent()).toBe('The calendar is connected and read.');
    expect(await page.locator('#connection').textContent()).toContain(
      `anna at ${radicale.url}. 1 calendar blocks time. Bookings are written to it.`,
    );
    await checks.check(page, 'connected');

    const saved = (await t.call('GET', `/staffers/${anna.id}/calendar-connection`)).json().data;
    expect(saved).toMatchObject({ read_calendars: [work], write_calendar: work, show_titles: true });
    const busy = (
      await t.call('GET', `/staffers/${anna.id}/busy-times?from=2026-09-03T00:00:00Z&to=2026-09-04T00:00:00Z`)
    ).json().data;
    expect(busy).toEqual([
      {
        start_time: '2026-09-03T08:00:00.000Z',
        end_time: '2026-09-03T09:00:00.000Z',
        all_day: false,
        title: 'Dentist',
      },
    ]);

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.waitForURL(/notice=disconnected/);
    expect((await t.call('GET', `/staffers/${anna.id}/calendar-connection`)).statusCode).toBe(404);

    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
    await context.close();
  });
});
