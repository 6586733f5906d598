import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/users/sessions.service.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { createOtherWorkspace, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { makeUser } from '../helpers/panel-client.js';
import { launch, listeningApp } from './booking-page-browser.js';
import { PageChecks } from './page-kit.js';

/**
 * The first pages a new owner sees, in Chromium: the server's front page and Home (today's
 * agenda, the booking page's address with its copy button, the next setup step). No console
 * error, nothing serious for axe, screenshots at 1280 and 375 px.
 */
const clock = new FixedClock('2026-03-26T08:00:00Z');
const panel = new PageChecks('panel');
const site = new PageChecks('site');
const calendarSync = new PageChecks('calendar-sync');
let browser: Browser;
let t: TestApp;
let base: string;
let staffers: { anna: { id: string }; ben: { id: string } };

beforeAll(async () => {
  ({ t, base } = await listeningApp(clock));
  const f = await bookingFixture(t);
  staffers = f;
  for (const [at, staffer, name, phone] of [
    ['2026-03-26T09:00:00Z', f.anna.id, 'Clara', '+4915170000001'],
    ['2026-03-26T10:30:00Z', f.ben.id, 'Dora', '+4915170000002'],
    ['2026-03-26T13:00:00Z', f.anna.id, 'Emil', '+4915170000003'],
  ] as const) {
    const response = await t.call('POST', '/bookings', {
      reserved_on: at,
      location_uuid: f.location.id,
      service_uuid: f.haircut.id,
      staffer_uuid: staffer,
      customer_phone: phone,
      customer_first_name: name,
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A signed-in owner's browser page, and every console error and page error it shows. */
async function ownerPage(
  workspaceId: string,
): Promise<{ page: Page; errors: string[]; context: BrowserContext }> {
  const owner = await makeUser(t.db, [{ workspaceId, role: 'owner' }]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  await context.addCookies([
    {
      name: 'kairos_session',
      value: await startSession(t.db, owner.id, workspaceId, clock.now()),
      url: base,
    },
  ]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors, context };
}

describe('first pages', () => {
  it('the front page links the panel, the docs and the booking page', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${base}/`);
    await page.getByRole('link', { name: 'Studio Nord' }).click();
    await page.waitForURL(`${base}/book/${t.workspace.slug}`);
    await page.goBack();
    await expect(page.getByRole('link', { name: 'Sign in to the panel' }).getAttribute('href')).resolves.toBe(
      '/panel',
    );
    await site.check(page, 'front');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("Home shows today's agenda and the booking page's address with a working copy button", async () => {
    const { page, errors, context } = await ownerPage(t.workspace.id);
    await page.goto(`${base}/panel`);
    const agenda = page.locator('ol.agenda li');
    await expect(agenda.allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^10:00\sAM–11:00\sAM Clara · Haircut · Anna Stylist · New$/),
      expect.stringMatching(/^11:30\sAM–12:30\sPM Dora · Haircut · Ben Stylist · New$/),
      expect.stringMatching(/^2:00\sPM–3:00\sPM Emil · Haircut · Anna Stylist · New$/),
    ]);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(
      `${base}/book/${t.workspace.slug}`,
    );
    await panel.check(page, 'home-agenda');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Home of a new workspace shows the next setup step', async () => {
    const fresh = await createOtherWorkspace(t.db);
    const { page, errors, context } = await ownerPage(fresh.workspace.id);
    await page.goto(`${base}/panel`);
    await page.getByRole('link', { name: 'Add a location' }).waitFor();
    await panel.check(page, 'home-setup');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Home warns of a staffer whose calendar does not sync (issue 28)', async () => {
    for (const [staffer, status] of [
      [staffers.anna.id, 'failing'],
      [staffers.ben.id, 'refused'],
    ] as const) {
      await t.db
        .insertInto('calendar_connections')
        .values({
          workspace_id: t.workspace.id,
          staffer_id: staffer,
          server_url: 'https://cal.example/',
          username: 'u',
          password_sealed: 'v1.x.y.z',
          read_calendars: JSON.stringify(['https://cal.example/u/work/']),
          status,
          last_error: 'No answer within 20000 ms',
          next_sync_at: new Date(clock.now()),
        })
        .execute();
    }
    const { page, errors, context } = await ownerPage(t.workspace.id);
    await page.goto(`${base}/panel`);
    const warnings = page.locator('ul.attention li.calendar-warning');
    await expect(warnings.allInnerTexts()).resolves.toEqual([
      'Anna Stylist’s calendar cannot be reached. Its last known busy times still block; bookings are still taken.',
      'Ben Stylist’s calendar refuses the app password: enter a new one. Its last known busy times still block.',
    ]);
    await calendarSync.check(page, 'home-warning');
    await page.goto(`${base}/panel/setup/staffers/${staffers.anna.id}`);
    await expect(page.locator('#own-calendar p.warning').innerText()).resolves.toBe(
      'The calendar cannot be reached. Its last known busy times still block; bookings are still taken. Last error: No answer within 20000 ms',
    );
    await page.locator('#own-calendar').scrollIntoViewIfNeeded();
    await calendarSync.check(page, 'staffer-warning');
    // The calendar shows Anna's outside busy time beside her bookings: 11:00-12:00 in Berlin.
    await t.db
      .insertInto('calendar_objects')
      .values({
        workspace_id: t.workspace.id,
        staffer_id: staffers.anna.id,
        href: 'https://cal.example/u/work/1.ics',
        calendar_url: 'https://cal.example/u/work/',
        etag: '"1"',
        ics: '',
      })
      .execute();
    await t.db
      .insertInto('calendar_busy_spans')
      .values({
        workspace_id: t.workspace.id,
        staffer_id: staffers.anna.id,
        href: 'https://cal.example/u/work/1.ics',
        start_ms: Date.parse('2026-03-26T10:00:00Z'),
        end_ms: Date.parse('2026-03-26T11:00:00Z'),
        title: 'Dentist',
      })
      .execute();
    await page.goto(`${base}/panel/calendar?date=2026-03-26`);
    await expect(
      page.locator(`section[data-staffer="${staffers.anna.id}"] .shade.busy`).allInnerTexts(),
    ).resolves.toEqual(['Busy']);
    await calendarSync.check(page, 'calendar-busy');
    expect(errors).toEqual([]);
    await context.close();
    await t.db.deleteFrom('calendar_connections').where('workspace_id', '=', t.workspace.id).execute();
  });

  it('axe finds nothing serious and nothing is wider than the screen', () => {
    expect([...site.findings, ...panel.findings, ...calendarSync.findings]).toEqual([]);
  });
});
