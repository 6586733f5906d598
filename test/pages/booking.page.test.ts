import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoWorkspace } from '../../src/workspaces/demo.service.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { type BookingFixture, bookingFixture } from '../helpers/booking-fixture.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import {
  expectAccessible,
  expectFits,
  launch,
  listeningApp,
  openPage,
  SCREENSHOTS,
  screenshots,
} from './booking-page-browser.js';

/**
 * The booking page in Chromium: the whole flow with and without JavaScript, a
 * New York customer on the day Europe changes its clocks, two customers racing for the last seat,
 * the manage link, the embed on another origin, and a taken slot. One browser for the file.
 * Today is Thursday 2026-03-26; Europe springs forward on Sunday 2026-03-29 (New York already did).
 */
const clock = new FixedClock('2026-03-26T08:00:00Z');
let browser: Browser;
let t: TestApp;
let f: BookingFixture;
let base: string;
let slug: string;

beforeAll(async () => {
  ({ t, base } = await listeningApp(clock));
  f = await bookingFixture(t);
  slug = t.workspace.slug;
  await t.db.updateTable('locations').set({ country_iso: 'DE' }).where('id', '=', f.location.id).execute();
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function bookingsAt(iso: string) {
  const { data } = await (
    await t.call('GET', `/bookings?reserved_on_from=${iso}&reserved_on_to=${iso}`)
  ).json();
  return data as {
    uuid: string;
    source: string;
    start_time: string;
    customer: { phone: string; first_name: string };
  }[];
}

/** From the staffer step of the fixture's haircut to the details form of `day` at `time`. */
async function toDetails(page: Page, day: string, time: string, extra = '') {
  await page.goto(`${base}/book/${slug}?service=${f.haircut.id}${extra}`);
  await page.getByRole('link', { name: 'Anna' }).click();
  await page.getByRole('link', { name: day, exact: true }).click();
  await page.getByRole('link', { name: `${time}, ${day}` }).click();
  await page.getByRole('heading', { name: 'Your details' }).waitFor();
}

describe('the flow', () => {
  it('works with JavaScript: every step accessible, fits 320 px, screenshots at 375 and 1280 px', async () => {
    await createWorkspace(
      openWritePath(t.db).uow,
      { slug: `demo-${process.pid}`, name: 'Kairos Studio' },
      'k',
      (tx, ws) => seedDemoWorkspace(tx, ws, clock.now()),
    );
    const { page, blocked, errors, close } = await openPage(browser, { timezoneId: 'America/New_York' });
    const step = async (name: string) => {
      await expectAccessible(page, name);
      await expectFits(page);
      await screenshots(page, name);
    };
    await page.goto(`${base}/book/demo-${process.pid}`);
    await page.getByRole('heading', { name: 'Choose a location' }).waitFor();
    await step('location');
    await page.getByRole('link', { name: /Kairos Studio New York/ }).click();
    await page.getByRole('heading', { name: 'Choose a service' }).waitFor();
    await expect(page.getByRole('heading', { name: 'Hair' }).count()).resolves.toBe(1);
    await step('service');
    // A service with several staffers at the location, so the staffer step shows.
    await page.getByRole('link', { name: /Deep Tissue Massage/ }).click();
    await page.locator('h1').waitFor();
    if ((await page.locator('h1').innerText()) === 'Choose a staff member') {
      await step('staffer');
      await page.locator('ul.choices a').first().click();
    }
    await page.getByRole('heading', { name: 'Choose a day and time' }).waitFor();
    // The browser's zone was detected and is named.
    await expect(page.locator('.zone strong').innerText()).resolves.toContain('America/New_York');
    // Switching days does not reload the page (the island swaps the slot list).
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 1;
    });
    const other = page.locator('.days a:not([aria-current])').first();
    const day = await other.locator('.sr').innerText();
    await other.click();
    await page.getByRole('heading', { name: day }).waitFor();
    await expect(page.evaluate(() => (window as unknown as { marker?: number }).marker)).resolves.toBe(1);
    expect(page.url()).toContain('date=2026-');
    await step('slot');
    await page.locator('ul.slots a').first().click();
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    await page.getByLabel('Phone').fill('+49 151 23456789');
    await page.getByLabel('First name').fill('Ada');
    await step('details');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Check and confirm' }).waitFor();
    await step('confirm');
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await page.getByRole('heading', { name: 'Your booking is confirmed' }).waitFor();
    await step('booked');
    await page.getByRole('link', { name: 'Change the time' }).click();
    await page.getByRole('heading', { name: 'Choose the new time' }).waitFor();
    await step('reschedule');
    await page.goBack();
    await page.getByRole('link', { name: 'Cancel booking' }).click();
    await page.getByRole('button', { name: 'Yes, cancel this booking' }).waitFor();
    await step('cancel');
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('works without JavaScript, by keyboard only, back button included', async () => {
    const { page, errors, close } = await openPage(browser, {
      javaScriptEnabled: false,
      timezoneId: 'Asia/Tokyo',
    });
    await page.goto(`${base}/book/${slug}?lang=en`);
    const press = async (name: string | RegExp) => {
      // Tab until the wanted control has focus, then Enter: what a keyboard user does.
      for (let i = 0; i < 200; i += 1) {
        await page.keyboard.press('Tab');
        const label = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return `${el?.getAttribute('aria-label') ?? ''} ${el?.innerText ?? ''}`;
        });
        if (typeof name === 'string' ? label.includes(name) : name.test(label)) {
          const before = page.url();
          await Promise.all([page.waitForURL((url) => url.href !== before), page.keyboard.press('Enter')]);
          return;
        }
      }
      throw new Error(`could not tab to ${name}`);
    };
    await press('Haircut');
    await press('Ben');
    await page.getByRole('heading', { name: 'Choose a day and time' }).waitFor();
    // Without JavaScript the location's zone is the default, and it is named.
    await expect(page.locator('.zone strong').innerText()).resolves.toContain('Europe/Berlin');
    await press('Saturday, March 28, 2026');
    await page.goBack();
    await page.goForward();
    await press('10:00 AM, Saturday, March 28, 2026');
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    await page.keyboard.press('Tab');
    await page.getByLabel('Phone').focus();
    await page.keyboard.type('+4915199999991');
    await press('Continue');
    await press('Confirm booking');
    await page.getByRole('heading', { name: 'Your booking is confirmed' }).waitFor();
    const made = await bookingsAt('2026-03-28T09:00:00Z');
    expect(made.map((b) => [b.source, b.customer.phone])).toEqual([['online-booking', '+4915199999991']]);
    expect(errors).toEqual([]);
    await close();
  });
});

/** Tab until the focused control's name or text matches `name` (what a keyboard user does). */
async function tabTo(page: Page, name: string | RegExp): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return `${el?.getAttribute('aria-label') ?? ''} ${el?.innerText ?? ''}`;
    });
    if (typeof name === 'string' ? label.includes(name) : name.test(label)) return;
  }
  throw new Error(`could not tab to ${name}`);
}

describe('jumping to a date', () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`picks a day in the month table by keyboard (${javaScriptEnabled ? 'with' : 'without'} JavaScript)`, async () => {
      const { page, errors, close } = await openPage(browser, {
        javaScriptEnabled,
        timezoneId: 'Europe/Berlin',
      });
      await page.goto(`${base}/book/${slug}?service=${f.haircut.id}&staffer=${f.anna.id}&lang=en`);
      await tabTo(page, 'Pick a date');
      await page.keyboard.press('Enter');
      await page.getByRole('table', { name: 'March 2026' }).waitFor();
      await tabTo(page, 'April 2026');
      await page.keyboard.press('Enter');
      await page.getByRole('table', { name: 'April 2026' }).waitFor();
      if (javaScriptEnabled) {
        // Swapped in place, the focus stays on "next month", now May.
        await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toContain('May 2026');
        await expectAccessible(page, 'month');
        await expectFits(page);
        await screenshots(page, 'month');
      }
      await tabTo(page, 'Friday, April 17, 2026');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Friday, April 17, 2026' }).waitFor();
      expect(page.url()).toContain('date=2026-04-17');
      expect(page.url()).not.toContain('from=');
      await page.getByRole('link', { name: '10:00 AM, Friday, April 17, 2026' }).waitFor();
      expect(errors).toEqual([]);
      await close();
    });
  }

  it('opens the week of a ?date= deep link, without from=', async () => {
    const { page, errors, close } = await openPage(browser, { timezoneId: 'Europe/Berlin' });
    await page.goto(`${base}/book/${slug}?service=${f.haircut.id}&staffer=${f.anna.id}&date=2026-06-10`);
    await page.getByRole('heading', { name: 'Wednesday, June 10, 2026' }).waitFor();
    await expect(page.locator('.days a[aria-current] .sr').innerText()).resolves.toBe(
      'Wednesday, June 10, 2026',
    );
    expect(errors).toEqual([]);
    await close();
  });
});

describe('time', () => {
  it('books a Berlin location from New York on the day Europe changes its clocks, at the chosen instant', async () => {
    const { page, errors, close } = await openPage(browser, { timezoneId: 'America/New_York' });
    // Sunday 2026-03-29, 09:00 in Berlin (CEST, UTC+2) is 07:00Z, 03:00 in New York (EDT, UTC-4).
    await toDetails(page, 'Sunday, March 29, 2026', '3:00 AM');
    expect(page.url()).toContain('tz=America%2FNew_York');
    const when = await page.locator('dl.summary dd').nth(2).innerText();
    expect(when).toContain('Sunday, March 29, 2026 at 3:00 AM (GMT-4)');
    expect(when).toContain('Sunday, March 29, 2026 at 9:00 AM (GMT+2)');
    await page.getByLabel('Phone').fill('+4915199999992');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await page.getByRole('heading', { name: 'Your booking is confirmed' }).waitFor();
    await expect(page.locator('dl.summary').first().innerText()).resolves.toContain(
      'March 29, 2026 at 3:00 AM (GMT-4)',
    );
    const made = await bookingsAt('2026-03-29T07:00:00Z');
    expect(made).toHaveLength(1);
    const ics = await page.evaluate(async () => {
      const link = document.querySelector<HTMLAnchorElement>('a[href$="calendar.ics"]')!;
      return (await fetch(link.href)).text();
    });
    expect(ics).toContain('DTSTART:20260329T070000Z');
    expect(errors).toEqual([]);
    await close();
  });
});

describe('the time-zone picker', () => {
  it('finds a zone by city or country name, common ones first, and survives a day switch', async () => {
    const { page, errors, close } = await openPage(browser, { timezoneId: 'Europe/Berlin' });
    await page.goto(`${base}/book/${slug}?service=${f.haircut.id}&staffer=${f.anna.id}&lang=en`);
    const find = page.getByLabel('Find a city or country');
    const select = page.getByLabel('Time zone', { exact: true });
    await find.fill('japan');
    await expect(select.inputValue()).resolves.toBe('Asia/Tokyo');
    await find.fill('Lisbon');
    await expect(select.inputValue()).resolves.toBe('Europe/Lisbon');
    // Of the United States' ~30 zones the common one comes first.
    await find.fill('united states');
    await expect(select.inputValue()).resolves.toBe('America/New_York');
    await expectAccessible(page, 'zone search');
    await screenshots(page, 'zone');
    // The search box comes back with the content the island swaps in.
    const other = page.locator('.days a:not([aria-current])').first();
    const day = await other.locator('.sr').innerText();
    await other.click();
    await page.getByRole('heading', { name: day }).waitFor();
    await expect(page.getByLabel('Find a city or country').count()).resolves.toBe(1);
    await page.getByLabel('Find a city or country').fill('tokyo');
    await page.getByLabel('Find a city or country').press('Enter');
    await page.waitForURL(/tz=Asia%2FTokyo/);
    await expect(page.locator('.zone strong').innerText()).resolves.toContain('Asia/Tokyo');
    expect(errors).toEqual([]);
    await close();
  });
});

describe('no double booking', () => {
  it('lets exactly one of two customers racing for the last seat of a class have it', async () => {
    // Two of three seats of Anna's yoga class on Monday 09:00 Berlin (07:00Z) are taken.
    for (const phone of ['+4915190000001', '+4915190000002']) {
      const made = await t.call('POST', '/bookings', {
        reserved_on: '2026-03-30T07:00:00Z',
        location_uuid: f.location.id,
        service_uuid: f.yoga.id,
        staffer_uuid: f.anna.id,
        customer_phone: phone,
      });
      expect(made.statusCode).toBe(201);
    }
    const customers = await Promise.all([0, 1].map(() => openPage(browser, { timezoneId: 'Europe/Berlin' })));
    for (const [index, { page }] of customers.entries()) {
      await page.goto(`${base}/book/${slug}?service=${f.yoga.id}&staffer=${f.anna.id}&date=2026-03-30`);
      await page.getByRole('link', { name: '9:00 AM, Monday, March 30, 2026, 1 place left' }).click();
      await page.getByLabel('Phone').fill(`+49151900000${10 + index}`);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Confirm booking' }).waitFor();
    }
    await Promise.all(
      customers.map(({ page }) => page.getByRole('button', { name: 'Confirm booking' }).click()),
    );
    const headings = await Promise.all(
      customers.map(async ({ page }) => {
        await page.waitForLoadState('load');
        await page.locator('h1').waitFor();
        return page.locator('h1').innerText();
      }),
    );
    expect(headings.sort()).toEqual(['Choose a day and time', 'Your booking is confirmed']);
    expect(await bookingsAt('2026-03-30T07:00:00Z')).toHaveLength(3);
    for (const { errors } of customers)
      expect(errors.filter((e) => !e.includes('status of 409'))).toEqual([]);
    for (const { close } of customers) await close();
  });

  it('shows a taken slot as a friendly message with the nearest free times, keeping what was typed', async () => {
    const { page, errors, close } = await openPage(browser, { timezoneId: 'Europe/Berlin' });
    await toDetails(page, 'Tuesday, March 31, 2026', '11:00 AM');
    await page.getByLabel('Phone').fill('+4915199999993');
    await page.getByLabel('First name').fill('Grace');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Confirm booking' }).waitFor();
    const taken = await t.call('POST', '/bookings', {
      reserved_on: '2026-03-31T09:00:00Z',
      location_uuid: f.location.id,
      service_uuid: f.haircut.id,
      staffer_uuid: f.anna.id,
      customer_phone: '+4915199999994',
    });
    expect(taken.statusCode).toBe(201);
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await page.getByRole('alert').filter({ hasText: 'this time was just taken' }).waitFor();
    await expect(page.getByLabel('First name').inputValue()).resolves.toBe('Grace');
    // The heading is said once; the times are a group of their own name.
    await expect(page.getByText('Choose a day and time', { exact: true }).count()).resolves.toBe(1);
    await page.getByRole('group', { name: 'The nearest free times' }).waitFor();
    await expectAccessible(page, 'conflict');
    await screenshots(page, 'conflict');
    // The first of the nearest times is preselected: Continue and confirm books it.
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await page.getByRole('heading', { name: 'Your booking is confirmed' }).waitFor();
    // The 409 page is the answer meant; Chromium logs its status, nothing else may show.
    expect(errors.filter((e) => !e.includes('status of 409'))).toEqual([]);
    await close();
  });
});

describe('the manage link', () => {
  it('reschedules and then cancels', async () => {
    const { page, errors, close } = await openPage(browser, { timezoneId: 'Europe/Berlin' });
    await toDetails(page, 'Wednesday, April 1, 2026', '9:00 AM');
    await page.getByLabel('Phone').fill('+4915199999995');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Confirm booking' }).click();
    await page.getByRole('heading', { name: 'Your booking is confirmed' }).waitFor();
    const [booking] = await bookingsAt('2026-04-01T07:00:00Z');
    await page.getByRole('link', { name: 'Change the time' }).click();
    // It opens on the booked day, which shows the booked time.
    await page.getByRole('heading', { name: 'Wednesday, April 1, 2026' }).waitFor();
    await page.getByText('Booked now: Wednesday, April 1, 2026 at 9:00 AM (GMT+2)').waitFor();
    await page.locator('.current-slot', { hasText: '9:00 AM' }).waitFor();
    await page.getByRole('link', { name: /Later days/ }).click();
    await page.getByRole('link', { name: 'Thursday, April 2, 2026', exact: true }).click();
    await page.getByRole('link', { name: '2:00 PM, Thursday, April 2, 2026', exact: true }).click();
    await page.getByRole('button', { name: 'Change the time' }).click();
    await page.getByText('Your booking was moved to the new time.').waitFor();
    const moved = (await (await t.call('GET', `/bookings/${booking!.uuid}`)).json()).data;
    expect(moved.start_time).toBe('2026-04-02T12:00:00Z');
    // The destructive action looks it (red, not the blue of the safe buttons) and asks first.
    const cancel = page.getByRole('link', { name: 'Cancel booking' });
    await expect(cancel.evaluate((el) => getComputedStyle(el).color)).resolves.toBe('rgb(179, 38, 30)');
    await cancel.click();
    await page.getByRole('heading', { name: 'Cancel this booking?' }).waitFor();
    const yes = page.getByRole('button', { name: 'Yes, cancel this booking' });
    await expect(yes.evaluate((el) => getComputedStyle(el).backgroundColor)).resolves.toBe(
      'rgb(179, 38, 30)',
    );
    await page.getByRole('link', { name: 'No, keep my booking' }).click();
    await page.getByRole('link', { name: 'Cancel booking' }).click();
    await yes.click();
    await page.getByText('Your booking was canceled.').waitFor();
    const canceled = (await (await t.call('GET', `/bookings/${booking!.uuid}`)).json()).data;
    expect([canceled.status.type, canceled.cancel_reason]).toEqual(['canceled', 'canceled']);
    expect(errors).toEqual([]);
    await close();
  });
});

describe('embedding', () => {
  let host: Server;
  let hostOrigin: string;
  beforeAll(async () => {
    // The business's own site: another origin (another port) serving a page with the embed.
    host = createServer((request, response) => {
      const mode = request.url?.includes('popup') ? 'popup' : 'inline';
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(
        `<!doctype html><html lang="en"><title>Shop</title><h1>Our shop</h1>` +
          `<a id="book" href="${base}/book/${slug}?service=${f.haircut.id}&amp;staffer=${f.anna.id}" data-kairos="${mode}">Book now</a>` +
          `<p id="booked"></p><script>document.addEventListener('kairos:booked',()=>{document.getElementById('booked').textContent='booked'})</script>` +
          `<script src="${base}/embed.js"></script></html>`,
      );
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => host?.close(resolve));
  });

  it('is refused by a page not on the allowlist, and framed and resized for one that is', async () => {
    const { page, errors, close } = await openPage(browser, { timezoneId: 'Europe/Berlin' });
    await page.goto(`${hostOrigin}/inline`);
    const frame = page.locator('iframe');
    await frame.waitFor();
    // Empty allowlist: frame-ancestors 'none', Chromium refuses to show the page in the frame.
    await expect.poll(() => page.frames().some((f) => f.url().startsWith('chrome-error:'))).toBe(true);
    await expect(frame.evaluate((el) => (el as HTMLIFrameElement).style.height)).resolves.toBe('480px');

    // That refusal is Chromium's console error by design; from here on the console stays clean.
    expect(errors.every((e) => e.includes('frame-ancestors'))).toBe(true);
    errors.length = 0;
    const saved = await t.call('PATCH', '/workspace', { embed_origins: [hostOrigin] });
    expect(saved.statusCode).toBe(200);
    await page.reload();
    await page.waitForFunction(() => document.querySelector('iframe')?.style.height !== '480px');
    const first = await frame.evaluate((el) => Number.parseInt((el as HTMLIFrameElement).style.height, 10));
    const inner = page.frameLocator('iframe');
    await inner.getByRole('heading', { name: 'Choose a day and time' }).waitFor();
    // Switching days inside the frame swaps its content (the island's fetch, checked for CSP errors).
    const otherDay = inner.locator('.days a:not([aria-current])').first();
    const otherLabel = await otherDay.locator('.sr').innerText();
    await otherDay.click();
    await inner.getByRole('heading', { name: otherLabel }).waitFor();
    // A longer step (the details form) makes the iframe grow to it.
    await inner
      .getByRole('link', { name: '9:00 AM, Friday, April 3, 2026' })
      .or(inner.locator('ul.slots a').first())
      .first()
      .click();
    await inner.getByRole('heading', { name: 'Your details' }).waitFor();
    await page.waitForFunction(
      (before) => Number.parseInt(document.querySelector('iframe')!.style.height, 10) !== before,
      first,
    );
    await inner.getByLabel('Phone').fill('+4915199999996');
    await inner.getByRole('button', { name: 'Continue' }).click();
    await inner.getByRole('button', { name: 'Confirm booking' }).click();
    await inner.getByRole('heading', { name: 'Your booking is confirmed' }).waitFor();
    await page.locator('#booked', { hasText: 'booked' }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('opens as a popup dialog that Esc closes, returning focus to the link', async () => {
    const { page, errors, close } = await openPage(browser, { timezoneId: 'Europe/Berlin' });
    await page.goto(`${hostOrigin}/popup`);
    await page.locator('#book').focus();
    await page.keyboard.press('Enter');
    await page.locator('dialog[open] iframe').waitFor();
    await page
      .frameLocator('dialog iframe')
      .getByRole('heading', { name: 'Choose a day and time' })
      .waitFor();
    await page.keyboard.press('Escape');
    await page.locator('dialog').waitFor({ state: 'detached' });
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('book');
    expect(errors).toEqual([]);
    await close();
  });
});

describe('languages', () => {
  // An app of its own: the flows above used up the per-IP booking limit of 127.0.0.1.
  let own: { t: TestApp; base: string; f: BookingFixture; slug: string };
  beforeAll(async () => {
    const { t: app, base: url } = await listeningApp(clock);
    own = { t: app, base: url, f: await bookingFixture(app), slug: app.workspace.slug };
  });
  afterAll(async () => {
    await own?.t.close();
  });

  // German from the browser's Accept-Language, Polish from ?lang=, Arabic from the switcher.
  const walks = [
    { lang: 'de', locale: 'de-DE', query: '', details: 'Ihre Angaben', booked: 'Ihre Buchung ist bestätigt' },
    {
      lang: 'pl',
      locale: 'en-US',
      query: '&lang=pl',
      details: 'Twoje dane',
      booked: 'Twoja rezerwacja jest potwierdzona',
    },
    { lang: 'ar', locale: 'en-US', query: '', details: 'بياناتك', booked: 'تم تأكيد حجزك' },
  ] as const;

  it.each(walks)(
    'books in $lang at 375 px, laid out in its direction, with a clean console',
    async (walk) => {
      const { page, errors, close } = await openPage(browser, {
        locale: walk.locale,
        timezoneId: 'Europe/Berlin',
        viewport: { width: 375, height: 800 },
      });
      const shot = async (step: string) => {
        await expectFits(page);
        await page.screenshot({
          path: path.join(SCREENSHOTS, `book-${walk.lang}-${step}-375.png`),
          fullPage: true,
        });
      };
      const { t, base, f, slug } = own;
      await page.goto(`${base}/book/${slug}?service=${f.haircut.id}${walk.query}`);
      if (walk.lang === 'ar') {
        // The switcher is a plain GET form: pick the language, send it, keep the choices so far.
        await page.locator('select[name=lang]').selectOption('ar');
        await page.locator('form.lang button').click();
        await page.waitForURL(/lang=ar/);
        expect(page.url()).toContain(`service=${f.haircut.id}`);
      }
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe(walk.lang);
      await expect(page.locator('html').getAttribute('dir')).resolves.toBe(
        walk.lang === 'ar' ? 'rtl' : 'ltr',
      );
      await shot('staffer');
      await page.getByRole('link', { name: 'Anna' }).click();
      await page.locator('ul.days').waitFor();
      await page.locator('.days a:not([aria-current])').first().click();
      await page.locator('ul.slots a').first().waitFor();
      await expectAccessible(page, `${walk.lang} slot`);
      await shot('slot');
      await page.locator('ul.slots a').first().click();
      await page.getByRole('heading', { name: walk.details }).waitFor();
      await page.locator('#customer_phone').fill('+49 151 23456789');
      await page.locator('#customer_first_name').fill('Ada');
      await shot('details');
      await page.locator('form[action$="/confirm"] button[type=submit]').click();
      await page.locator('form[action$="/book"]').waitFor();
      await shot('confirm');
      await page.locator('form[action$="/book"] button[type=submit]').click();
      await page.getByRole('heading', { name: walk.booked }).waitFor();
      await expectAccessible(page, `${walk.lang} booked`);
      await shot('booked');
      const [made] = await t.db
        .selectFrom('bookings')
        .select('language')
        .where('workspace_id', '=', t.workspace.id)
        .orderBy('created_at', 'desc')
        .limit(1)
        .execute();
      expect(made?.language).toBe(walk.lang);
      expect(errors).toEqual([]);
      await close();
    },
  );
});
