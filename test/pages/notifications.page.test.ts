import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config.js';
import { MailWorker } from '../../src/notifications/mail-worker.js';
import { smtpSender } from '../../src/notifications/smtp-sender.js';
import type { Database } from '../../src/platform/db/client.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import { outboxHandlers } from '../../src/workers.js';
import type { WorkspaceRow } from '../../src/workspaces/workspaces.repository.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { makeUser, TEST_PASSWORD } from '../helpers/panel-client.js';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { launchChromium, PageChecks } from './page-kit.js';

/**
 * Settings → Notifications in Debian's Chromium: the settings form with its
 * errors, a staffer linked to a user, the test email and the mail log with resend, against a
 * real SMTP server on loopback; axe-core on every page and screenshots at 1280 and 375 px.
 */

let database: Database;
let app: ApiApp;
let browser: Browser;
let base: string;
let workspace: WorkspaceRow;
let apiKeySecret: string;
let smtp: SmtpReceiver;
let worker: MailWorker;
/** The worker's clock runs this far ahead of the wall clock, so a retry can be made due. */
let ahead = 0;
let fixture: Awaited<ReturnType<typeof bookingFixture>>;
const pages = new PageChecks('panel');

beforeAll(async () => {
  database = await openTestDatabase();
  smtp = await SmtpReceiver.start({
    behave: (n) => (n === 1 ? { reply: 451, message: '4.7.1 Greylisted' } : 'accept'),
  });
  app = await buildApp({
    database,
    config: { ...loadConfig({}), worker: 'off', smtpUrl: smtp.url, mailFrom: 'bookings@studio.example' },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  const created = await createWorkspace(openWritePath(database.db).uow, {
    slug: 'studio',
    name: 'Studio Mitte',
  });
  workspace = created.workspace;
  apiKeySecret = created.apiKey.secret;
  await makeUser(database.db, [{ workspaceId: workspace.id, role: 'owner' }], 'owner@studio.example');
  await makeUser(database.db, [{ workspaceId: workspace.id, role: 'staff' }], 'anna@studio.example');
  fixture = await bookingFixture({ db: database.db, workspace } as Parameters<typeof bookingFixture>[0]);
  worker = new MailWorker({
    handlers: outboxHandlers(),
    db: database.db,
    clock: { now: () => Date.now() + ahead },
    sender: smtpSender(smtp.url),
    mailFrom: 'bookings@studio.example',
    publicBase: base,
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await smtp?.close();
  await app?.close();
  await database?.close();
});

const check = (page: Page, name: string) => pages.check(page, name);

function nav(page: Page, name: string): Promise<void> {
  return page.getByRole('navigation', { name: 'Panel' }).getByRole('link', { name }).click();
}

describe('Settings → Notifications in a browser', () => {
  it('sets which emails go out, links a staffer, sends a test email and resends from the log', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    await page.goto(`${base}/panel/sign-in`);
    await page.getByLabel('Email').fill('owner@studio.example');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/panel`);

    await nav(page, 'Notifications');
    await page.waitForURL(/\/panel\/settings\/notifications$/);
    await expect(page.getByRole('checkbox', { name: 'Booking confirmed' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: /Visit completed/ }).isChecked()).resolves.toBe(false);

    // A wrong reminder and reply-to: the errors sit next to their fields, what was typed stays.
    await page.getByLabel('Second reminder (hours)').fill('soon');
    await page.getByLabel('Reply-to address (optional)').fill('front desk');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('#f-reminder_hours-error').waitFor();
    await expect(page.getByLabel('Second reminder (hours)').inputValue()).resolves.toBe('soon');
    await check(page, 'notifications-error');

    await page.getByLabel('Second reminder (hours)').fill('2');
    await page.getByLabel('Reply-to address (optional)').fill('desk@studio.example');
    await page.getByLabel('Sender name').fill('Studio Mitte Berlin');
    await page.getByRole('checkbox', { name: /Visit completed/ }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/notice=saved/);
    await expect(page.getByRole('status').first().innerText()).resolves.toContain('settings are saved');

    // Anna's bookings go to the panel user anna@.
    const anna = page.getByRole('form', { name: 'Booking emails of Anna Stylist' });
    await anna.getByLabel('Linked panel user').selectOption({ label: 'anna@studio.example' });
    await anna.getByRole('button', { name: /Save/ }).click();
    await page.waitForURL(/notice=staff/);
    await expect(page.getByText('Emails go to anna@studio.example.').isVisible()).resolves.toBe(true);

    // A booking through the API with a customer email, then the test email; the worker sends.
    const start = DateTime.now()
      .setZone('Europe/Berlin')
      .plus({ days: 3 })
      .set({ hour: 10, minute: 0, second: 0, millisecond: 0 });
    const booked = await fetch(`${base}/api/public/v2/bookings`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKeySecret}`,
        workspace: 'studio',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        reserved_on: start.toUTC().toISO({ suppressMilliseconds: true }),
        location_uuid: fixture.location.id,
        service_uuid: fixture.haircut.id,
        staffer_uuid: fixture.anna.id,
        customer_phone: '+4915112345678',
        customer_first_name: 'Ida',
        customer_email: 'ida@example.com',
      }),
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    await page.getByRole('button', { name: 'Send me a test email' }).click();
    await page.waitForURL(/notice=test/);
    // Round one: three go out, the second of them meets the 451 and waits for its retry.
    await worker.runOnce();
    await smtp.waitFor(2);
    await page.reload();
    const log = page.getByRole('table', { name: 'Mail log' });
    await expect(log.getByRole('link', { name: 'Test email from Studio Mitte' }).isVisible()).resolves.toBe(
      true,
    );
    await expect(log.getByText('retrying', { exact: true }).count()).resolves.toBe(1);
    await expect(log.getByText('queued', { exact: true }).count()).resolves.toBe(2);
    await check(page, 'notifications');
    // The retry falls due and goes through.
    ahead = 6_000;
    await worker.runOnce();
    await smtp.waitFor(3);

    // The confirmation as it went out: the message page.
    await log.getByRole('link', { name: /Booking confirmed: Haircut/ }).click();
    await page.getByRole('heading', { level: 2, name: 'Text' }).waitFor();
    await expect(page.locator('pre.mail-text').innerText()).resolves.toContain('Hello Ida,');
    await check(page, 'notifications-message');
    await page.getByRole('button', { name: 'Resend' }).click();
    await page.waitForURL(/notice=resent/);
    await worker.runOnce();
    await smtp.waitFor(4);
    const ids = smtp.accepted.map((mail) => mail.messageId);
    expect(new Set(ids).size).toBe(ids.length);

    // Anna signs in elsewhere and turns changed bookings off for herself.
    const annaContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const annaPage = await annaContext.newPage();
    await annaPage.goto(`${base}/panel/sign-in`);
    await annaPage.getByLabel('Email').fill('anna@studio.example');
    await annaPage.getByLabel('Password').fill(TEST_PASSWORD);
    await annaPage.getByRole('button', { name: 'Sign in' }).click();
    await annaPage.waitForURL(`${base}/panel`);
    await nav(annaPage, 'Your booking emails');
    await annaPage.getByRole('checkbox', { name: 'Changed bookings' }).uncheck();
    await annaPage.getByRole('button', { name: /Save/ }).click();
    await annaPage.waitForURL(/notice=saved/);
    await expect(annaPage.getByRole('checkbox', { name: 'Changed bookings' }).isChecked()).resolves.toBe(
      false,
    );
    await check(annaPage, 'booking-emails');
    await annaContext.close();
    await context.close();

    expect(pageErrors).toEqual([]);
    expect(pages.findings).toEqual([]);
  });
});
