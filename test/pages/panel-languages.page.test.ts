import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/platform/db/client.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { FixedClock } from '../helpers/clock.js';
import { makeUser, TEST_PASSWORD } from '../helpers/panel-client.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { launchChromium, PageChecks } from './page-kit.js';

/**
 * The panel in German and in Arabic, in Debian's Chromium: the sign-in page in the browser's
 * language, then Home, the calendar and the owners' setup and settings pages (a location's form,
 * the workspace settings) in the language each user picked, Arabic right to left;
 * axe-core on every page and screenshots at 1280 and 375 px (docs/screenshots/panel-*-de-*,
 * panel-*-ar-*). `npm run build` first (the calendar island).
 */

const clock = new FixedClock('2026-03-25T06:00:00Z');
let database: Database;
let app: ApiApp;
let browser: Browser;
let base: string;
/** A staffer's hours at the fixture's location: the form whose rule errors are shown in words. */
let hoursPath: string;
const pages = new PageChecks('panel');
const check = (page: Page, name: string) => pages.check(page, name);

beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp({
    database,
    clock,
    config: { ...loadConfig({}), worker: 'off', apiRateLimitPerMinute: 0 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  const { workspace, apiKey } = await createWorkspace(openWritePath(database.db).uow, {
    slug: 'salon',
    name: 'Salon Mitte',
  });
  const fixture = await bookingFixture({ db: database.db, workspace } as Parameters<
    typeof bookingFixture
  >[0]);
  const book = async (at: string, service: string, staffer: string, name: string, phone: string) => {
    const response = await fetch(`${base}/api/public/v2/bookings`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey.secret}`,
        workspace: 'salon',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        reserved_on: at,
        location_uuid: fixture.location.id,
        service_uuid: service,
        staffer_uuid: staffer,
        customer_phone: phone,
        customer_first_name: name,
      }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
  };
  hoursPath = `/panel/setup/staffers/${fixture.ben.id}/hours/${fixture.location.id}`;
  await book('2026-03-25T08:00:00Z', fixture.haircut.id, fixture.anna.id, 'Clara', '+4915170000001');
  await book('2026-03-25T10:00:00Z', fixture.color.id, fixture.anna.id, 'Dora', '+4915170000002');
  await book('2026-03-25T09:00:00Z', fixture.haircut.id, fixture.ben.id, 'Emil', '+4915170000003');
  await book('2026-03-25T13:00:00Z', fixture.yoga.id, fixture.ben.id, 'Frida', '+4915170000004');
  for (const [language, email] of [
    ['de', 'de@salon.example'],
    ['ar', 'ar@salon.example'],
  ] as const) {
    const user = await makeUser(database.db, [{ workspaceId: workspace.id, role: 'owner' }], email);
    await database.db.updateTable('users').set({ language }).where('id', '=', user.id).execute();
  }
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
});

/** Signs in on a page whose browser speaks `locale`: the sign-in page already speaks it. */
async function signIn(
  locale: string,
  email: string,
  labels: { email: string; password: string; button: string },
) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${base}/panel/sign-in`);
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.password).fill(TEST_PASSWORD);
  await Promise.all([
    page.waitForURL(`${base}/panel`),
    page.getByRole('button', { name: labels.button }).click(),
  ]);
  return { page, errors };
}

describe('the panel in the user’s language, in a browser', () => {
  it('shows Home and the calendar in German', async () => {
    const { page, errors } = await signIn('de-DE', 'de@salon.example', {
      email: 'E-Mail',
      password: 'Passwort',
      button: 'Anmelden',
    });
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await expect(page.getByRole('heading', { name: 'Heute' }).count()).resolves.toBe(1);
    await expect(page.locator('.agenda li').count()).resolves.toBe(4);
    await check(page, 'home-de');

    await page.getByRole('link', { name: 'Kalender', exact: true }).click();
    await page.waitForURL(/\/panel\/calendar/);
    await expect(page.locator('h2.cal-title').innerText()).resolves.toContain('Mittwoch, 25. März 2026');
    await expect(page.locator('.cal-legend').innerText()).resolves.toContain('4 Buchungen angezeigt');
    // The island's dialog speaks German too: M on a focused booking opens it.
    await page.locator('a.blk[data-start]').first().focus();
    await page.keyboard.press('m');
    await expect(page.locator('#cal-move-title').innerText()).resolves.toBe('Verschieben nach…');
    await page.getByRole('button', { name: 'Abbrechen' }).click();
    await check(page, 'calendar-de');
    await page.goto(`${base}/panel/calendar?view=week&date=2026-03-25`);
    await check(page, 'calendar-week-de');
    expect(errors).toEqual([]);
  });

  it('shows Home and the calendar in Arabic, right to left', async () => {
    const { page, errors } = await signIn('ar', 'ar@salon.example', {
      email: 'البريد الإلكتروني',
      password: 'كلمة المرور',
      button: 'تسجيل الدخول',
    });
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expect(page.getByRole('heading', { name: 'اليوم' }).count()).resolves.toBe(1);
    await check(page, 'home-ar');
    await page.goto(`${base}/panel/calendar`);
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await check(page, 'calendar-ar');
    expect(errors).toEqual([]);
  });

  it('shows the owners’ setup and settings pages in German and in Arabic', async () => {
    const german = await signIn('de-DE', 'de@salon.example', {
      email: 'E-Mail',
      password: 'Passwort',
      button: 'Anmelden',
    });
    await german.page.goto(`${base}/panel/setup/locations`);
    await expect(german.page.getByRole('heading', { name: 'Standorte', level: 1 }).count()).resolves.toBe(1);
    await german.page.getByRole('link', { name: 'Standort hinzufügen' }).click();
    await german.page.getByLabel('Montag, Zeitraum 1, öffnet').fill('09:00');
    await check(german.page, 'location-new-de');
    await german.page.goto(`${base}/panel/settings/workspace`);
    await expect(german.page.getByRole('heading', { name: 'Buchungsregeln' }).count()).resolves.toBe(1);
    await check(german.page, 'workspace-settings-de');
    expect(german.errors).toEqual([]);

    const arabic = await signIn('ar', 'ar@salon.example', {
      email: 'البريد الإلكتروني',
      password: 'كلمة المرور',
      button: 'تسجيل الدخول',
    });
    await arabic.page.goto(`${base}/panel/setup/locations/new`);
    await expect(arabic.page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expect(arabic.page.getByRole('heading', { name: 'إضافة فرع', level: 1 }).count()).resolves.toBe(1);
    await check(arabic.page, 'location-new-ar');
    await arabic.page.goto(`${base}/panel/settings/workspace`);
    await expect(arabic.page.getByRole('heading', { name: 'قواعد الحجز' }).count()).resolves.toBe(1);
    await check(arabic.page, 'workspace-settings-ar');
    expect(arabic.errors).toEqual([]);
  });

  it('shows Setup → Services, Staff and hours and Resources in German and in Arabic', async () => {
    const german = await signIn('de-DE', 'de@salon.example', {
      email: 'E-Mail',
      password: 'Passwort',
      button: 'Anmelden',
    });
    await german.page.goto(`${base}/panel/setup/services`);
    await expect(german.page.getByRole('heading', { name: 'Leistungen', level: 1 }).count()).resolves.toBe(1);
    await german.page.getByRole('link', { name: 'Leistung hinzufügen' }).click();
    await expect(german.page.getByLabel('Plätze pro Termin').count()).resolves.toBe(1);
    await check(german.page, 'service-new-de');
    await german.page.goto(`${base}/panel/setup/staffers`);
    await expect(german.page.getByRole('columnheader', { name: 'Bietet an' }).count()).resolves.toBe(1);
    await check(german.page, 'staffers-de');
    expect(german.errors).toEqual([]);

    const arabic = await signIn('ar', 'ar@salon.example', {
      email: 'البريد الإلكتروني',
      password: 'كلمة المرور',
      button: 'تسجيل الدخول',
    });
    await arabic.page.goto(`${base}/panel/setup/services`);
    await expect(arabic.page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expect(arabic.page.getByRole('heading', { name: 'الخدمات', level: 1 }).count()).resolves.toBe(1);
    await check(arabic.page, 'services-ar');
    await arabic.page.goto(`${base}/panel/setup/resources`);
    await expect(arabic.page.getByRole('heading', { name: 'الموارد', level: 1 }).count()).resolves.toBe(1);
    await check(arabic.page, 'resources-ar');
    expect(arabic.errors).toEqual([]);
  });

  it('has no serious or critical axe findings on any page', () => {
    expect(pages.findings).toEqual([]);
  });
});

describe('a business rule’s refusal in the user’s language, in a browser', () => {
  /** Overlapping Monday hours and a Tuesday break outside the day's hours, then Save. */
  async function refuseHours(page: Page, save: string) {
    await page.goto(`${base}${hoursPath}`);
    const set = (name: string, value: string) => page.locator(`[name="${name}"]`).fill(value);
    await set('weekly.mon.0.from', '09:00');
    await set('weekly.mon.0.to', '13:00');
    await set('weekly.mon.1.from', '12:00');
    await set('weekly.mon.1.to', '15:00');
    await set('weekly.tue.0.from', '09:00');
    await set('weekly.tue.0.to', '12:00');
    await set('breaks.tue.0.from', '12:30');
    await set('breaks.tue.0.to', '13:00');
    await Promise.all([
      page.waitForLoadState('load'),
      page.getByRole('button', { name: save, exact: true }).click(),
    ]);
  }

  it('words a schedule’s overlap and a break outside the hours in German and in Arabic', async () => {
    const german = await signIn('de-DE', 'de@salon.example', {
      email: 'E-Mail',
      password: 'Passwort',
      button: 'Anmelden',
    });
    await refuseHours(german.page, 'Arbeitszeiten speichern');
    await expect(german.page.locator('#f-weekly-mon-1-error').innerText()).resolves.toBe(
      'Diese Arbeitszeit überschneidet sich mit einer anderen desselben Tages.',
    );
    await expect(german.page.locator('#f-breaks-tue-0-error').innerText()).resolves.toBe(
      'Die Pause muss innerhalb der Arbeitszeit ihres Tages liegen.',
    );
    await check(german.page, 'hours-rules-de');
    expect(german.errors).toEqual([]);

    const arabic = await signIn('ar', 'ar@salon.example', {
      email: 'البريد الإلكتروني',
      password: 'كلمة المرور',
      button: 'تسجيل الدخول',
    });
    await refuseHours(arabic.page, 'حفظ الساعات');
    await expect(arabic.page.locator('#f-weekly-mon-1-error').innerText()).resolves.toBe(
      'تتداخل ساعات العمل هذه مع ساعات أخرى في اليوم نفسه.',
    );
    await check(arabic.page, 'hours-rules-ar');
    expect(arabic.errors).toEqual([]);
    // The file's axe check ran before these pages: theirs are checked here.
    expect(pages.findings.filter((finding) => finding.page.startsWith('hours-rules'))).toEqual([]);
  });
});
