import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchOutbox } from '../../src/outbox/outbox-dispatch.service.js';
import { startSession } from '../../src/users/sessions.service.js';
import { offerToken } from '../../src/waitlist/offer-link.js';
import { outboxHandlers } from '../../src/workers.js';
import { type BookingFixture, bookingFixture } from '../helpers/booking-fixture.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { makeUser } from '../helpers/panel-client.js';
import {
  expectAccessible,
  expectFits,
  launch,
  listeningApp,
  openPage,
  screenshots,
} from './booking-page-browser.js';
import { PageChecks } from './page-kit.js';

/**
 * The waitlist on the booking page in Chromium: a customer joins from the time step, a canceled
 * booking frees a time that suits them, the offer's link shows it held for them, and "Book it"
 * books it (the manage page). Today is Tuesday 2026-09-01, 10:00 in Berlin (summer time, +02:00).
 */
const clock = new FixedClock('2026-09-01T08:00:00Z');
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

async function book(body: Record<string, unknown>) {
  const response = await t.call('POST', '/bookings', {
    location_uuid: f.location.id,
    service_uuid: f.haircut.id,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { uuid: string };
}

describe('the waitlist on the booking page', () => {
  it('joins from the time step, gets an offer when a time frees, and books it with one click', async () => {
    const { page, blocked, errors, close } = await openPage(browser);
    await page.goto(`${base}/book/${slug}?service=${f.haircut.id}`);
    await page.getByRole('link', { name: 'Anna' }).click();
    await page.getByRole('link', { name: 'No time that suits you? Join the waiting list' }).click();
    await page.getByRole('heading', { name: 'Join the waiting list' }).waitFor();

    // Sent without a wanted time: refused, and said so.
    await page.getByLabel('Phone').fill('+49 151 23456789');
    await page.getByRole('button', { name: 'Join the waiting list' }).click();
    await page.getByText('Give at least one time that suits you, or choose any time.').waitFor();
    await expectAccessible(page, 'join refused');

    await page.getByLabel('Day').first().fill('2026-09-08');
    await page.getByLabel('From').first().fill('09:00');
    await page.getByLabel('Until').first().fill('12:00');
    await page.getByLabel('First name').fill('Wanda');
    await page.getByLabel('Email (optional)').fill('wanda@example.com');
    await expectAccessible(page, 'join');
    await expectFits(page);
    await screenshots(page, 'waitlist-join');
    await page.getByRole('button', { name: 'Join the waiting list' }).click();
    await page.getByRole('heading', { name: 'You are on the waiting list' }).waitFor();
    await screenshots(page, 'waitlist-joined');

    const [entry] = (await t.call('GET', `/waitlist?service_uuid=${f.haircut.id}`)).json().data;
    expect(entry).toMatchObject({
      staffer_uuid: f.anna.id,
      source: 'booking_page',
      windows: [{ date: '2026-09-08', from: '09:00', to: '12:00' }],
      customer: { phone: '+4915123456789', first_name: 'Wanda', email: 'wanda@example.com' },
    });

    // Anna's 10:00 on the 8th is taken, then canceled: the time is offered to Wanda.
    const taken = await book({
      reserved_on: '2026-09-08T08:00:00Z',
      staffer_uuid: f.anna.id,
      customer_phone: '+4915100000001',
    });
    expect((await t.call('PUT', `/bookings/${taken.uuid}/status/cancel`, {})).statusCode).toBe(200);
    await dispatchOutbox(t.db, outboxHandlers(), clock.now(), 100);
    const [offer] = (await t.call('GET', `/waitlist/offers?entry_uuid=${entry.uuid}`)).json().data;
    expect(offer).toMatchObject({ state: 'open', start_time: '2026-09-08T08:00:00Z' });

    await page.goto(`${base}/book/${slug}/waitlist/offer/${offerToken(t.workspace, offer.uuid)}`);
    await page.getByRole('heading', { name: 'A time is free for you' }).waitFor();
    const held = await page.locator('main p').allTextContents();
    expect(held, JSON.stringify(held)).toContain(
      'This time is held for you until Tuesday, September 1, 2026 at 10:30 AM (GMT+2).',
    );
    await page.getByText('Tuesday, September 8, 2026 at 10:00 AM').waitFor();
    await expectAccessible(page, 'offer');
    await expectFits(page);
    await screenshots(page, 'waitlist-offer');
    await page.getByRole('button', { name: 'Book it' }).click();
    await page.getByRole('heading', { name: 'Your booking is confirmed' }).waitFor();
    const booking = (
      await t.call(
        'GET',
        '/bookings?reserved_on_from=2026-09-08T08:00:00Z&reserved_on_to=2026-09-08T08:00:00Z',
      )
    ).json().data;
    expect(booking.filter((b: { is_canceled: boolean }) => !b.is_canceled)).toMatchObject([
      { source: 'waitlist', customer: { phone: '+4915123456789' } },
    ]);

    // The link again: the offer is used, and the page says so without a button.
    await page.goto(`${base}/book/${slug}/waitlist/offer/${offerToken(t.workspace, offer.uuid)}`);
    await page
      .getByText('This offer is no longer open: it was booked, it expired, or it was withdrawn.')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Book it' }).count()).toBe(0);
    await screenshots(page, 'waitlist-offer-gone');
    expect(blocked).toEqual([]);
    // The one 422 is the refused join above (the page answered it with its errors, as designed).
    expect(errors).toEqual([
      'console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
    await close();
  });

  it('speaks Arabic, right to left', async () => {
    const { page, close } = await openPage(browser, { locale: 'ar' });
    await page.goto(
      `${base}/book/${slug}/waitlist?location=${f.location.id}&service=${f.haircut.id}&lang=ar`,
    );
    await page.getByRole('heading', { name: 'قائمة الانتظار' }).waitFor();
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await expectAccessible(page, 'join ar');
    await screenshots(page, 'waitlist-join-ar');
    await close();
  });

  it('the panel: the line, an offer by hand, removing someone (staff, Chromium)', async () => {
    const checks = new PageChecks('panel-waitlist');
    const joined = await t.call('POST', '/waitlist', {
      location_uuid: f.location.id,
      service_uuid: f.color.id,
      customer_phone: '+4915100000077',
      customer_first_name: 'Ruth',
      customer_email: 'ruth@example.com',
      windows: [
        { date: '2026-09-10', from: '09:00', to: '11:00' },
        { date: '2026-09-11', from: '14:00', to: '17:00' },
      ],
    });
    expect(joined.statusCode, joined.body).toBe(201);
    const staff = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addCookies([
      {
        name: 'kairos_session',
        value: await startSession(t.db, staff.id, t.workspace.id, clock.now()),
        url: base,
      },
    ]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}/panel`);
    await page.getByRole('link', { name: 'Waitlist' }).first().click();
    await page.getByRole('heading', { name: 'Waitlist', level: 1 }).waitFor();
    await checks.check(page, 'list');
    const row = page.locator(`tr[data-entry="${joined.json().data.uuid}"]`);
    await row.getByLabel('Date', { exact: true }).fill('2026-09-10');
    await row.getByLabel('Time', { exact: true }).fill('09:30');
    await row.getByRole('button', { name: 'Send offer' }).click();
    await page.waitForURL(/notice=offered/);
    expect(await page.getByRole('status').first().textContent()).toBe('The offer was sent.');
    await checks.check(page, 'offered');
    const [offer] = (await t.call('GET', `/waitlist/offers?entry_uuid=${joined.json().data.uuid}`)).json()
      .data;
    expect(offer).toMatchObject({ made_by: 'staff', start_time: '2026-09-10T07:30:00Z', state: 'open' });
    await row.getByRole('button', { name: 'Remove' }).click();
    await page.waitForURL(/notice=removed/);
    expect(await page.locator(`tr[data-entry="${joined.json().data.uuid}"]`).count()).toBe(0);
    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
    await context.close();
  });
  it('the panel: adding a person, and the automatic filling of group-class seats (owner, Chromium)', async () => {
    const checks = new PageChecks('panel-waitlist-add');
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
    await page.goto(`${base}/panel/waitlist`);
    const form = page.getByRole('form', { name: 'Add to the waiting list' });
    await form.getByLabel('Service', { exact: true }).selectOption({ label: 'Color' });
    await form.getByLabel('Customer phone').fill('+49 151 0000 0088');
    await form.getByLabel('First name').fill('Saskia');
    await form.getByLabel('Date').first().fill('2026-09-14');
    await form.getByLabel('From').first().fill('11:00');
    await form.getByLabel('Until').first().fill('10:00');
    await form.getByRole('button', { name: 'Add to the waiting list' }).click();
    await page.getByText('The end must be after the start.').first().waitFor();
    await checks.check(page, 'refused');
    await form.getByLabel('Until').first().fill('13:00');
    await form.getByRole('button', { name: 'Add to the waiting list' }).click();
    await page.waitForURL(/notice=added/);
    expect(await page.getByRole('status').first().textContent()).toBe('Added to the waiting list.');
    const line = (await t.call('GET', '/waitlist')).json().data as {
      customer: { phone: string };
      source: string;
    }[];
    expect(line.filter((e) => e.customer.phone === '+4915100000088').map((e) => e.source)).toEqual(['panel']);
    await page.getByLabel('Book a freed seat of a group class for the first in line automatically').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/notice=saved/);
    expect((await t.call('GET', '/waitlist/settings')).json().data.auto_fill_group_seats).toBe(true);
    await checks.check(page, 'added');
    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
    await context.close();
  });
});
