import { DateTime } from 'luxon';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/platform/db/client.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { makeUser, TEST_PASSWORD } from '../helpers/panel-client.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { launchChromium, PageChecks } from './page-kit.js';

/**
 * The account panel, part 2, in Debian's Chromium: a new workspace set up from
 * empty through the pages only, the booking page and the API then offering its slots; a booking
 * by phone from the calendar, dragged to another time, moved by keyboard, completed with a
 * payment, each step checked through the API; two browsers booking one slot at once; axe-core
 * on every page; screenshots at 1280 and 375 px. `npm run build` first (the calendar island).
 */

const ZONE = 'Europe/Berlin';
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const DAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

let database: Database;
let app: ApiApp;
let browser: Browser;
let base: string;
let apiKey: string;
const ownerEmail = 'owner@fresh.example';
const pages = new PageChecks('panel');
const check = (page: Page, name: string) => pages.check(page, name);
/** What the set-up test made, for the tests after it. */
const made: { location?: string; service?: string; staffer?: string } = {};
// A weekday well inside the booking horizon and past any minimum notice.
const day = DateTime.now().setZone(ZONE).plus({ days: 9 }).startOf('week').plus({ days: 7 });
const date = day.toISODate()!;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp({ database, config: { ...loadConfig({}), worker: 'off', apiRateLimitPerMinute: 0 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  const created = await createWorkspace(openWritePath(database.db).uow, {
    slug: 'fresh',
    name: 'Fresh Studio',
  });
  apiKey = created.apiKey.secret;
  await makeUser(database.db, [{ workspaceId: created.workspace.id, role: 'owner' }], ownerEmail);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
});

const api = async (pathname: string) => {
  const response = await fetch(`${base}/api/public/v2${pathname}`, {
    headers: { authorization: `Bearer ${apiKey}`, workspace: 'fresh' },
  });
  // biome-ignore lint/suspicious/noExplicitAny: API JSON, checked field by field by the tests
  return { status: response.status, json: (await response.json()) as { data: any } };
};

async function signedIn(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${base}/panel/sign-in`);
  await page.getByLabel('Email').fill(ownerEmail);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/panel`);
  return { context, page, errors };
}

async function submit(page: Page, button: string, url: RegExp): Promise<void> {
  await Promise.all([page.waitForURL(url), page.getByRole('button', { name: button, exact: true }).click()]);
}

describe('the panel runs a business’s day, in a browser', () => {
  it('sets up an empty workspace through the pages only; the booking page and the API then offer its slots', async () => {
    const { context, page, errors } = await signedIn();

    // A location with its zone (searchable list) and opening hours.
    await page.goto(`${base}/panel/setup/locations`);
    await check(page, 'locations-empty');
    await page.getByRole('link', { name: 'Add a location' }).click();
    await page.getByLabel('Name').fill('Mitte');
    await page.getByLabel('Time zone').fill(ZONE);
    for (const name of DAYS) {
      await page.getByLabel(`${name}, range 1, opens`).fill('09:00');
      await page.getByLabel(`${name}, range 1, closes`).fill('18:00');
    }
    await check(page, 'location-new');
    await submit(page, 'Add the location', /notice=/);
    await page.goto(`${base}/panel/setup/locations`);
    await check(page, 'locations');

    // A service offered there.
    await page.goto(`${base}/panel/setup/services`);
    await page.getByRole('link', { name: 'Add a service' }).click();
    await page.getByLabel('Name').fill('Haircut');
    await page.getByLabel('Duration (minutes)').fill('60');
    await page.getByLabel(/^Price/).fill('45');
    await page.getByRole('checkbox', { name: 'Mitte' }).check();
    await check(page, 'service-new');
    await submit(page, 'Add the service', /notice=/);
    await page.goto(`${base}/panel/setup/services`);
    await check(page, 'services');

    // A staffer who gives it there, and her hours.
    await page.goto(`${base}/panel/setup/staffers`);
    await check(page, 'staffers-empty');
    await page.getByRole('link', { name: 'Add a staffer' }).click();
    await page.getByLabel('First name').fill('Anna');
    await page.getByLabel('Last name (optional)').fill('Adler');
    await page.getByRole('checkbox', { name: 'Haircut' }).check();
    await submit(page, 'Add staffer', /\/panel\/setup\/staffers\/[0-9a-f-]{36}/);
    await check(page, 'staffer');
    await page.getByRole('link', { name: 'Edit hours at Mitte' }).click();
    for (const key of DAY_KEYS.slice(0, 5)) {
      await page.locator(`[name="weekly.${key}.0.from"]`).fill('09:00');
      await page.locator(`[name="weekly.${key}.0.to"]`).fill('17:00');
      await page.locator(`[name="breaks.${key}.0.from"]`).fill('12:00');
      await page.locator(`[name="breaks.${key}.0.to"]`).fill('13:00');
    }
    await submit(page, 'Save hours', /notice=/);
    await check(page, 'staffer-hours');

    // What the pages made, read back through the API.
    const locations = (await api('/locations')).json.data;
    expect(locations).toHaveLength(1);
    expect(locations[0]).toMatchObject({ name: 'Mitte', timezone: { name: ZONE } });
    made.location = locations[0].uuid;
    const services = (await api(`/locations/${made.location}/services`)).json.data;
    expect(services.map((s: { name: string }) => s.name)).toEqual(['Haircut']);
    made.service = services[0].uuid;
    const staffers = (await api(`/locations/${made.location}/staffers`)).json.data;
    expect(staffers.map((s: { first_name: string }) => s.first_name)).toEqual(['Anna']);
    made.staffer = staffers[0].uuid;

    // The API offers 09:00-11:00 and 13:00-16:00 starts that Monday (60 minutes, lunch 12-13).
    const slots = await api(
      `/locations/${made.location}/time-slots?service_uuid=${made.service}&range_start=${date}&range_end=${date}`,
    );
    expect(slots.status).toBe(200);
    const body = slots.json as unknown as { dates: { date: string; slots: { start: string }[] }[] };
    const starts = body.dates.find((d) => d.date === date)!.slots.map((slot) => slot.start);
    expect(starts).toContain('09:00');
    expect(starts).toContain('16:00');
    expect(starts).not.toContain('12:00');
    // The booking page offers them too.
    await page.goto(
      `${base}/book/fresh?service=${made.service}&staffer=any&from=${date}&date=${date}&tz=${ZONE}`,
    );
    const offered = await page.locator('main').innerText();
    // In the customer's own locale (the browser's, en-US here): 9:00 AM to 4:00 PM, lunch left out.
    expect(offered).toContain('9:00 AM');
    expect(offered).toContain('4:00 PM');
    expect(offered).not.toContain('12:00 PM');
    await check(page, 'booking-page-after-setup');
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('books by phone from the calendar, drags it an hour later, moves it by keyboard, completes it with a payment', async () => {
    expect(made.staffer, 'the set-up test runs first').toBeDefined();
    const { context, page, errors } = await signedIn();

    await page.goto(`${base}/panel/setup/payment-accounts`);
    await page.getByRole('link', { name: /Add an account/ }).click();
    await page.getByLabel('Name').fill('Cash desk');
    await submit(page, 'Add the account', /notice=/);
    await check(page, 'payment-accounts');

    // The calendar: a new booking for the Monday, by phone.
    await page.goto(`${base}/panel/calendar?date=${date}`);
    await check(page, 'calendar-empty-day');
    await page.getByRole('link', { name: 'New booking' }).click();
    await page.getByRole('checkbox', { name: 'Haircut' }).check();
    await page.getByRole('button', { name: 'Show free times' }).click();
    await page.getByLabel('Time', { exact: true }).selectOption({ label: '10:00' });
    await page.getByLabel('Phone (required)').fill('+49 151 23456789');
    await page.locator('[name="customer_first_name"]').fill('Clara');
    await check(page, 'booking-new');
    await submit(page, 'Create booking', /notice=created/);
    const bookingId = /\/panel\/bookings\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const created = (await api(`/bookings/${bookingId}`)).json.data;
    expect(created.start_time_local).toBe(`${date}T10:00:00${day.set({ hour: 10 }).toFormat('ZZ')}`);
    expect(created.customer).toMatchObject({ phone: '+4915123456789', first_name: 'Clara' });
    expect(created.staffer.uuid).toBe(made.staffer);
    await check(page, 'booking');

    // Drag it one hour down in the day view (48 px an hour): the server moves it.
    await page.goto(`${base}/panel/calendar?date=${date}&location=${made.location}`);
    const block = page.locator(`a.blk[href="/panel/bookings/${bookingId}"]`);
    await expect(block.innerText()).resolves.toContain('10:00–11:00');
    await check(page, 'calendar-day');
    const box = (await block.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + 30, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2, box.y + 58, { steps: 4 });
    await Promise.all([page.waitForURL(/notice=moved/), page.mouse.up()]);
    expect((await api(`/bookings/${bookingId}`)).json.data.start_time_local).toContain(`${date}T11:00`);
    await expect(page.locator(`a.blk[href="/panel/bookings/${bookingId}"]`).innerText()).resolves.toContain(
      '11:00–12:00',
    );

    // The keyboard way: focus it, press M, choose 14:00. (From a fresh load: the URL after the
    // drag already says notice=moved, which the wait below must not mistake for this move.)
    await page.goto(`${base}/panel/calendar?date=${date}&location=${made.location}`);
    await page.locator(`a.blk[href="/panel/bookings/${bookingId}"]`).focus();
    await page.keyboard.press('m');
    const dialog = page.getByRole('dialog', { name: 'Move to…' });
    await dialog.waitFor();
    await dialog.getByLabel('Time').fill('14:00');
    await Promise.all([
      page.waitForURL(/notice=moved/),
      dialog.getByRole('button', { name: 'Move' }).click(),
    ]);
    expect((await api(`/bookings/${bookingId}`)).json.data.start_time_local).toContain(`${date}T14:00`);

    await page.goto(`${base}/panel/calendar?date=${date}&location=${made.location}&view=week`);
    await check(page, 'calendar-week');
    await page.goto(
      `${base}/panel/calendar?date=${date}&location=${made.location}&view=week&staffer=${made.staffer}`,
    );
    await check(page, 'calendar-staffer-week');

    // Complete it with the cash desk and the open amount.
    await page.goto(`${base}/panel/bookings/${bookingId}`);
    await page.getByLabel('Payment account').selectOption({ label: 'Cash desk' });
    await submit(page, 'Complete booking', /notice=/);
    const done = (await api(`/bookings/${bookingId}`)).json.data;
    expect(done.is_completed).toBe(true);
    expect(done.order.amount_paid).toBe(done.order.total);
    await check(page, 'booking-completed');

    await page.goto(`${base}/panel/bookings?from=${date}&to=${date}`);
    await check(page, 'bookings-list');
    await page.goto(`${base}/panel/customers?q=Clara`);
    await check(page, 'customers');
    await page.getByRole('link', { name: /Clara/ }).first().click();
    await expect(page.locator('main').innerText()).resolves.toContain('45');
    await check(page, 'customer');
    for (const [url, name] of [
      ['/panel/setup/statuses', 'statuses'],
      ['/panel/settings/workspace', 'workspace-settings'],
    ] as const) {
      await page.goto(`${base}${url}`);
      await check(page, name);
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('two browsers book one slot at once: exactly one gets it, the other is told and offered free times', async () => {
    expect(made.staffer, 'the set-up test runs first').toBeDefined();
    const sessions = await Promise.all([signedIn(), signedIn()]);
    const url = `${base}/panel/bookings/new?location_uuid=${made.location}&date=${date}&staffer_uuid=${made.staffer}&service_uuid=${made.service}`;
    for (const [index, { page }] of sessions.entries()) {
      await page.goto(url);
      await page.getByRole('checkbox', { name: 'Haircut' }).check();
      await page.getByRole('button', { name: 'Show free times' }).click();
      await page.getByLabel('Time', { exact: true }).selectOption({ label: '09:00' });
      await page.getByLabel('Phone (required)').fill(`+49 151 1000000${index}`);
    }
    await Promise.all(
      sessions.map(({ page }) => page.getByRole('button', { name: 'Create booking', exact: true }).click()),
    );
    await Promise.all(sessions.map(({ page }) => page.waitForLoadState('load')));
    const outcomes = await Promise.all(
      sessions.map(async ({ page }) => ({ url: page.url(), text: await page.locator('main').innerText() })),
    );
    const won = outcomes.filter((o) => /notice=created/.test(o.url));
    const lost = outcomes.filter((o) => o.text.includes('That time was just taken'));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const loser = sessions[outcomes.indexOf(lost[0]!)]!.page;
    await check(loser, 'booking-conflict');
    const list = await api(`/bookings?location_uuid=${made.location}`);
    const at9 = list.json.data.filter((b: { start_time_local: string; is_canceled: boolean }) =>
      b.start_time_local.startsWith(`${date}T09:00`),
    );
    expect(at9).toHaveLength(1);
    for (const { context, errors } of sessions) {
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 120_000);

  it('no page has a serious or critical accessibility finding', () => {
    expect(pages.findings).toEqual([]);
  });
});
