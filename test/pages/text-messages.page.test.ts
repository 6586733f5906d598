import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/platform/db/client.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import { TextWorker } from '../../src/text-messages/text-worker.js';
import { outboxHandlers } from '../../src/workers.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { FakeTwilio } from '../helpers/fake-twilio.js';
import { makeUser, TEST_PASSWORD } from '../helpers/panel-client.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { launchChromium, PageChecks } from './page-kit.js';

/**
 * Settings → Notifications → Text messages in Debian's Chromium: Twilio set up against a fake
 * Twilio on loopback, a test message sent through the worker, the preview with segments and the
 * log; axe-core and screenshots at 1280 and 375 px.
 */
let database: Database;
let app: ApiApp;
let browser: Browser;
let base: string;
let fake: FakeTwilio;
let worker: TextWorker;
const pages = new PageChecks('panel');
const config = () => ({
  ...loadConfig({}),
  worker: 'off' as const,
  secretKey: 'page-test-secret-key-of-at-least-32-chars',
  twilioApiBase: fake.origin,
});

beforeAll(async () => {
  database = await openTestDatabase();
  fake = await FakeTwilio.start();
  app = await buildApp({ database, config: config() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  const { workspace } = await createWorkspace(openWritePath(database.db).uow, {
    slug: 'studio',
    name: 'Studio Mitte',
  });
  await makeUser(database.db, [{ workspaceId: workspace.id, role: 'owner' }], 'owner@studio.example');
  await bookingFixture({ db: database.db, workspace } as Parameters<typeof bookingFixture>[0]);
  worker = new TextWorker({
    handlers: outboxHandlers(),
    db: database.db,
    clock: { now: () => Date.now() },
    publicBase: base,
    config: config(),
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await fake?.close();
  await app?.close();
  await database?.close();
});

describe('Text messages in a browser', () => {
  it('sets Twilio up, sends a test message and shows it in the log with its segments', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${base}/panel/sign-in`);
    await page.getByLabel('Email').fill('owner@studio.example');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/panel`);
    await page.goto(`${base}/panel/settings/notifications`);
    await page.getByRole('link', { name: /Text messages \(SMS and WhatsApp\)/ }).click();
    await page.waitForURL(/\/notifications\/texts$/);

    await page.getByRole('checkbox', { name: 'Send text messages to customers' }).check();
    await page.getByLabel('Provider').selectOption('twilio');
    await page.getByLabel('Sender').fill('+15005550006');
    await page.getByLabel('Twilio Account SID').fill(fake.accountSid);
    await page.getByLabel('Twilio auth token').fill(fake.authToken);
    await page.getByRole('button', { name: 'Save text settings' }).click();
    await page.waitForURL(/notice=saved/);
    await expect(page.getByText('Saved, encrypted. Leave empty to keep it.').isVisible()).resolves.toBe(true);

    await page.getByLabel('Mobile number').fill('+447911123456');
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await page.waitForURL(/notice=test/);
    await worker.runOnce();
    await fake.waitForCreates(1);
    await page.reload();
    const log = page.getByRole('table', { name: 'Message log' });
    await expect(log.getByText('sent', { exact: true }).count()).resolves.toBe(1);
    await expect(log.getByText('+447911123456').isVisible()).resolves.toBe(true);
    await expect(
      page
        .getByText(/\d+ segments? · GSM-7 \(160\/153\)/)
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    await pages.check(page, 'text-messages');

    await page.getByRole('link', { name: 'Українська' }).click();
    await page.waitForURL(/lang=uk/);
    await expect(
      page
        .getByText(/segments? · Unicode \(70\/67\)/)
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    await context.close();
    expect(pageErrors).toEqual([]);
    expect(pages.findings).toEqual([]);
  });
});
