import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/platform/db/client.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import type { WorkspaceRow } from '../../src/workspaces/workspaces.repository.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { makeUser, TEST_PASSWORD } from '../helpers/panel-client.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { launchChromium, PageChecks } from './page-kit.js';

/**
 * The panel on a phone (375 px) and a desktop (1280 px), in Debian's Chromium: the navigation
 * folded behind a Menu button that works without JavaScript and by keyboard, the calendar's day
 * view first and its week paged by day, booking cards that show whole lines, the hours form's
 * time fields wide enough for their values and one empty date override at a time. Every page
 * visited is checked for console errors, axe findings and sideways scrolling, and screenshotted.
 * `npm run build` first (the calendar island).
 */

const ZONE = 'Europe/Berlin';
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };

let database: Database;
let app: ApiApp;
let browser: Browser;
let base: string;
let workspace: WorkspaceRow;
let fixture: Awaited<ReturnType<typeof bookingFixture>>;
const ownerEmail = 'owner@phone.example';
const pages = new PageChecks('panel');
/** axe and screenshots at both widths, then back to the width the test was at. */
const check = async (page: Page, name: string) => {
  const viewport = page.viewportSize();
  await pages.check(page, name);
  if (viewport) await page.setViewportSize(viewport);
};
/** Console errors and uncaught exceptions of every page of the file, asserted empty at the end. */
const consoleErrors: string[] = [];
// A Wednesday well ahead: the week view shows it among six other days.
const day = DateTime.now().setZone(ZONE).plus({ days: 14 }).startOf('week').plus({ days: 2 });
const date = day.toISODate()!;
let firstBooking = '';

beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp({ database, config: { ...loadConfig({}), worker: 'off', apiRateLimitPerMinute: 0 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  const created = await createWorkspace(openWritePath(database.db).uow, {
    slug: 'phone',
    name: 'Phone Studio',
  });
  workspace = created.workspace;
  await makeUser(database.db, [{ workspaceId: workspace.id, role: 'owner' }], ownerEmail);
  fixture = await bookingFixture({ db: database.db, workspace } as Parameters<typeof bookingFixture>[0]);
  // Anna and Ben work 09:00-17:00: a booking in the first hour, one in the last, a short one.
  const book = async (staffer: string, service: string, hour: number, minute: number, name: string) => {
    const response = await fetch(`${base}/api/public/v2/bookings`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${created.apiKey.secret}`,
        workspace: 'phone',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        reserved_on: day.set({ hour, minute }).toUTC().toISO({ suppressMilliseconds: true }),
        location_uuid: fixture.location.id,
        service_uuid: service,
        staffer_uuid: staffer,
        customer_phone: `+49151${String(hour * 100 + minute).padStart(8, '0')}`,
        customer_first_name: name,
      }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { data: { uuid: string } }).data.uuid;
  };
  firstBooking = await book(fixture.anna.id, fixture.haircut.id, 10, 0, 'Clara Christiansen');
  await book(fixture.anna.id, fixture.haircut.id, 16, 0, 'Dora');
  await book(fixture.ben.id, fixture.color.id, 9, 30, 'Emil');
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
});

async function signedIn(options: { javaScript?: boolean; viewport?: typeof PHONE } = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    javaScriptEnabled: options.javaScript ?? true,
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  await page.goto(`${base}/panel/sign-in`);
  await page.getByLabel('Email').fill(ownerEmail);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await Promise.all([
    page.waitForURL(`${base}/panel`),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  return { context, page };
}

const navLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name, exact: true });

/** Presses Tab until the focused element matches (at most 40 times). */
async function tabTo(page: Page, match: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(match)) return;
  }
  throw new Error(`focus never reached ${match}`);
}

/** Every visible booking card's text lines that do not fit whole inside the card, as text. */
function cutLines(page: Page): Promise<string[]> {
  return page.locator('a.blk').evaluateAll((cards) => {
    const cut: string[] = [];
    for (const card of cards) {
      const box = card.getBoundingClientRect();
      if (box.width === 0) continue;
      const style = getComputedStyle(card);
      const inner = box.bottom - Number.parseFloat(style.borderBottomWidth);
      for (const line of card.querySelectorAll<HTMLElement>('span')) {
        const rect = line.getBoundingClientRect();
        // Lines moved out of sight for screen readers only are 1 px boxes; the rest must fit.
        if (rect.height <= 1) continue;
        if (rect.bottom > inner + 0.5)
          cut.push(`${card.textContent}: "${line.textContent}" ends below the card`);
        // The time is the one line always shown whole: its text ends inside the card's padding.
        if (line.classList.contains('blk-time')) {
          const text = document.createRange();
          text.selectNodeContents(line);
          const right =
            box.right - Number.parseFloat(style.borderRightWidth) - Number.parseFloat(style.paddingRight);
          if (text.getBoundingClientRect().right > right + 0.5)
            cut.push(`${card.textContent}: the time is cut`);
        }
      }
    }
    return cut;
  });
}

/** How far the calendar grid scrolls inside itself, sideways and down. */
function gridOverflow(page: Page): Promise<{ x: number; y: number }> {
  return page.locator('section.cal-scroll').evaluate((grid) => ({
    x: grid.scrollWidth - grid.clientWidth,
    y: grid.scrollHeight - grid.clientHeight,
  }));
}

/** The filled time fields narrower than their whole value and clock button need. */
function narrowTimeFields(page: Page) {
  return page.locator('input[type=time]').evaluateAll((inputs) =>
    inputs
      .filter((input) => (input as HTMLInputElement).value !== '')
      .map((input) => {
        // Chromium sizes a time field of automatic width to hold its whole value and the clock
        // button: a copy of the field at that width is what this one must at least match.
        const natural = input.cloneNode() as HTMLInputElement;
        natural.style.width = 'auto';
        natural.style.maxWidth = 'none';
        natural.style.flex = 'none';
        input.parentElement!.append(natural);
        const needed = natural.offsetWidth;
        natural.remove();
        return {
          name: (input as HTMLInputElement).name,
          width: (input as HTMLInputElement).offsetWidth,
          needed,
        };
      })
      .filter(({ width, needed }) => width < needed),
  );
}

describe('the panel on a phone and a desktop', () => {
  it('at 375 px the navigation is one Menu button that opens without JavaScript; the calendar starts near the top', async () => {
    const { context, page } = await signedIn({ javaScript: false, viewport: PHONE });
    await page.goto(`${base}/panel/calendar?date=${date}`);
    const menu = page.getByText('Menu', { exact: true });
    await expect(menu.isVisible()).resolves.toBe(true);
    await expect(navLink(page, 'API keys').isVisible()).resolves.toBe(false);
    // The calendar's heading sits right under the top bar and the button, not under twenty links,
    // and the grid begins on the first screen.
    const heading = (await page.getByRole('heading', { name: 'Calendar', level: 1 }).boundingBox())!;
    expect(heading.y).toBeLessThan(160);
    const grid = (await page.locator('section.cal-scroll').boundingBox())!;
    expect(grid.y).toBeLessThan(PHONE.height * 0.7);
    // No script runs in this browser (javaScriptEnabled is off): the button opens the links alone.
    await menu.click();
    await expect(navLink(page, 'API keys').isVisible()).resolves.toBe(true);
    await Promise.all([page.waitForURL(/\/api-keys$/), navLink(page, 'API keys').click()]);
    await context.close();
  });

  it('at 375 px the Menu button works by keyboard: Tab to it, Space opens, Tab and Enter follow a link', async () => {
    const { context, page } = await signedIn({ viewport: PHONE });
    await page.goto(`${base}/panel/calendar?date=${date}`);
    await check(page, 'phone-calendar-menu-closed');
    await tabTo(page, `document.activeElement?.id === 'nav-toggle'`);
    await page.keyboard.press('Space');
    await expect(navLink(page, 'API keys').isVisible()).resolves.toBe(true);
    await check(page, 'phone-menu-open');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Home');
    await tabTo(page, `document.activeElement?.textContent === 'API keys'`);
    await Promise.all([page.waitForURL(/\/api-keys$/), page.keyboard.press('Enter')]);
    // Space again closes it.
    await tabTo(page, `document.activeElement?.id === 'nav-toggle'`);
    await page.keyboard.press('Space');
    await page.keyboard.press('Space');
    await expect(navLink(page, 'Webhooks').isVisible()).resolves.toBe(false);
    await context.close();
  });

  it('at 1280 px the navigation shows every link, with no Menu button; the browser reads the manifest', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${base}/panel/calendar?date=${date}`);
    await expect(page.getByText('Menu', { exact: true }).isVisible()).resolves.toBe(false);
    for (const name of ['Home', 'Calendar', 'API keys', 'Your password']) {
      await expect(navLink(page, name).isVisible()).resolves.toBe(true);
    }
    // The browser itself reads the page's manifest (a CSP without manifest-src 'self' refuses it).
    const devtools = await context.newCDPSession(page);
    const manifest = await devtools.send('Page.getAppManifest');
    expect(manifest.url).toBe(`${base}/panel/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({ short_name: 'Kairos', start_url: '/panel' });
    await context.close();
  });

  it('the calendar on a phone: the day view first, the week a day at a time, cards whole, the last hour shown', async () => {
    const { context, page } = await signedIn({ viewport: PHONE });
    // From the menu, as a phone user gets there: the day view, not a squeezed week.
    await page.goto(`${base}/panel`);
    await page.getByText('Menu', { exact: true }).click();
    await navLink(page, 'Calendar').click();
    await page.waitForURL(/\/panel\/calendar$/);
    await expect(page.locator('#cal-view').inputValue()).resolves.toBe('day');
    await page.goto(`${base}/panel/calendar?date=${date}`);
    await expect(page.locator('.cal-day').count()).resolves.toBe(1);
    expect(await gridOverflow(page)).toEqual({ x: 0, y: 0 });
    expect(await cutLines(page)).toEqual([]);
    await check(page, 'phone-calendar-day');

    // The week: only the chosen day's columns, as wide as the screen; the other days are links.
    await page.getByLabel('View', { exact: true }).selectOption('week');
    await Promise.all([page.waitForURL(/view=week/), page.getByRole('button', { name: 'Show' }).click()]);
    const shownDays = () =>
      page
        .locator('.cal-body .cal-group')
        .evaluateAll((groups) => groups.filter((g) => g.clientWidth > 0).length);
    await expect(shownDays()).resolves.toBe(1);
    expect(await gridOverflow(page)).toEqual({ x: 0, y: 0 });
    const titles = await page
      .locator('.cal-head .cal-col-title')
      .evaluateAll((cells) =>
        cells
          .filter((c) => c.clientWidth > 0)
          .map((c) => ({ text: c.textContent, cut: c.scrollWidth > c.clientWidth })),
      );
    expect(titles).toEqual([
      { text: 'Anna Stylist', cut: false },
      { text: 'Ben Stylist', cut: false },
    ]);
    expect(await cutLines(page)).toEqual([]);
    // The last hour's booking (16:00-17:00) is inside the grid, not below its bottom edge.
    const scroll = (await page.locator('section.cal-scroll').boundingBox())!;
    const last = (await page.locator('a.blk', { hasText: 'Dora' }).boundingBox())!;
    expect(last.y + last.height).toBeLessThanOrEqual(scroll.y + scroll.height);
    await check(page, 'phone-calendar-week');
    const days = page.getByRole('navigation', { name: 'Days of this week' }).getByRole('link');
    await expect(days.count()).resolves.toBe(7);
    await expect(days.nth(2).getAttribute('aria-current')).resolves.toBe('date');
    await Promise.all([page.waitForURL(/view=week/), days.nth(3).click()]);
    expect(new URL(page.url()).searchParams.get('date')).toBe(day.plus({ days: 1 }).toISODate());
    await expect(shownDays()).resolves.toBe(1);
    await expect(
      page.locator('a.blk').evaluateAll((cards) => cards.filter((c) => c.clientWidth > 0).length),
    ).resolves.toBe(0);
    await context.close();
  });

  it('the week at 1280 px: all seven days, every card’s lines whole, the last hour inside the grid', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${base}/panel/calendar?date=${date}&view=week`);
    const shown = await page
      .locator('.cal-body .cal-group')
      .evaluateAll((groups) => groups.filter((g) => g.clientWidth > 0).length);
    expect(shown).toBe(7);
    await expect(page.getByRole('navigation', { name: 'Days of this week' }).isVisible()).resolves.toBe(
      false,
    );
    // Fourteen columns scroll sideways at this width (as before); nothing is cut at the bottom.
    expect((await gridOverflow(page)).y).toBe(0);
    expect(await cutLines(page)).toEqual([]);
    const scroll = (await page.locator('section.cal-scroll').boundingBox())!;
    const last = (await page.locator('a.blk', { hasText: 'Dora' }).boundingBox())!;
    expect(last.y + last.height).toBeLessThanOrEqual(scroll.y + scroll.height);
    await check(page, 'calendar-week-cards');
    await context.close();
  });

  it('the hours form: times shown whole at 1280 and 375 px, one empty date override, and "Add another date"', async () => {
    const { context, page } = await signedIn();
    await page.goto(`${base}/panel/setup/staffers/${fixture.anna.id}/hours/${fixture.location.id}`);
    // Each filled time field holds its value as Chromium writes it (en-US: "09:00 AM") and the
    // clock button, instead of cutting it ("09:00 AI").
    expect(await narrowTimeFields(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await narrowTimeFields(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    await expect(page.locator('fieldset.override').count()).resolves.toBe(1);
    await page.locator('[name="overrides.0.date"]').fill(day.plus({ days: 30 }).toISODate()!);
    await page.getByRole('button', { name: 'Add another date' }).click();
    await expect(page.locator('fieldset.override').count()).resolves.toBe(2);
    await expect(page.locator('[name="overrides.0.date"]').inputValue()).resolves.toBe(
      day.plus({ days: 30 }).toISODate(),
    );
    await check(page, 'staffer-hours-add-date');
    await Promise.all([
      page.waitForURL(/notice=saved/),
      page.getByRole('button', { name: 'Save hours' }).click(),
    ]);
    // Saved: the date stays, with one empty block under it.
    await expect(page.locator('fieldset.override').count()).resolves.toBe(2);
    await check(page, 'staffer-hours-saved');
    await context.close();
  });

  it('date and time fields carry no format hint that the field does not show', async () => {
    const { context, page } = await signedIn({ viewport: PHONE });
    for (const [url, name] of [
      [`/panel/bookings/${firstBooking}`, 'booking-move-fields'],
      [`/panel/bookings/new?location_uuid=${fixture.location.id}&date=${date}`, 'booking-new-fields'],
    ] as const) {
      await page.goto(`${base}${url}`);
      const text = await page.locator('main').innerText();
      expect(text).not.toMatch(/YYYY|HH:MM|MM\/DD/);
      await check(page, name);
    }
    await context.close();
  });

  it('no console error, no uncaught exception, no serious axe finding on any page visited', () => {
    expect(consoleErrors).toEqual([]);
    expect(pages.findings).toEqual([]);
  });
});
