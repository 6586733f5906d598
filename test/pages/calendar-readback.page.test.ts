import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CalendarDeps,
  connectCalendar,
  syncCalendar,
} from '../../src/calendar-sync/calendar-sync.service.js';
import { CalendarWriteWorker } from '../../src/calendar-sync/write-worker.js';
import { dispatchOutbox } from '../../src/outbox/outbox-dispatch.service.js';
import { startSession } from '../../src/users/sessions.service.js';
import { outboxHandlers } from '../../src/workers.js';
import { openWritePath } from '../../src/write-path.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { createLocation, createService, createStaffer } from '../helpers/factories.js';
import { makeUser } from '../helpers/panel-client.js';
import { type Radicale, startRadicale } from '../helpers/radicale.js';
import { launch, listeningApp } from './booking-page-browser.js';
import { PageChecks } from './page-kit.js';

/**
 * A booking whose event was moved in the staffer's own calendar, in Chromium against a real
 * Radicale: the booking page's notice with Apply and Ignore, the calendar's mark, and Apply
 * refused by another outside event with "Move anyway". Nothing serious for axe, nothing wider
 * than a phone, screenshots at 1280 and 375 px.
 */
const clock = new FixedClock('2026-09-01T08:00:00Z');
const checks = new PageChecks('calendar-readback');
const config = { webhooksAllowPrivate: true, secretKey: 'calendar-readback-page-key-0123456789abcdef' };
let browser: Browser;
let t: TestApp;
let base: string;
let radicale: Radicale;

beforeAll(async () => {
  [{ t, base }, radicale] = await Promise.all([listeningApp(clock, config), startRadicale()]);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await radicale?.stop();
});

const icsUtc = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

describe('an edit read back from the staffer calendar', () => {
  it('shows on the booking and the calendar, and Apply moves the booking anyway', async () => {
    const ws = t.workspace.id;
    const mitte = await createLocation(t.db, ws, { name: 'Mitte', timezone: 'Europe/Berlin' });
    const cut = await createService(t.db, ws, [mitte.id], { name: 'Cut', durationMinutes: 60 });
    const anna = await createStaffer(t.db, ws, mitte.id, [cut.id], { firstName: 'Anna', lastName: 'Adler' });
    const work = await radicale.makeCalendar('work', 'Work');
    const deps: CalendarDeps = {
      db: t.db,
      uow: openWritePath(t.db).uow,
      clock,
      config: { ...config, databaseUrl: undefined, dataDir: '/nonexistent' },
    };
    await connectCalendar(deps, ws, anna.id, {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
      read_calendars: [work],
      write_calendar: work,
    });
    const created = await t.call('POST', '/bookings', {
      location_uuid: mitte.id,
      service_uuid: cut.id,
      staffer_uuid: anna.id,
      reserved_on: '2026-09-03T08:00:00Z',
      customer_phone: '+4915112345678',
      customer_first_name: 'Mia',
      customer_last_name: 'Sommer',
    });
    expect(created.statusCode, created.body).toBe(201);
    const booking = created.json().data;
    await dispatchOutbox(t.db, outboxHandlers(), clock.now(), 1_000);
    const logger = { info: () => {}, warn: () => {}, error: () => {} };
    await new CalendarWriteWorker({ ...deps, linkBase: base, logger }).sendDue();

    // Anna moves it to 15:00 in her calendar app; she also has the dentist at 15:30.
    const href = `${work}kairos-booking-${booking.uuid}.ics`;
    const current = await (
      await fetch(href, {
        headers: {
          authorization: `Basic ${Buffer.from(`${radicale.user}:${radicale.password}`).toString('base64')}`,
        },
      })
    ).text();
    await radicale.put(
      work,
      `kairos-booking-${booking.uuid}.ics`,
      current
        .replace(/^DTSTART[:;].*$/m, `DTSTART:${icsUtc('2026-09-03T13:00:00Z')}`)
        .replace(/^DTEND[:;].*$/m, `DTEND:${icsUtc('2026-09-03T14:00:00Z')}`),
    );
    await radicale.put(
      work,
      'dentist.ics',
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//EN',
        'BEGIN:VEVENT',
        'UID:dentist',
        'DTSTAMP:20260801T000000Z',
        'DTSTART:20260903T133000Z',
        'DURATION:PT1H',
        'SUMMARY:Dentist',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    expect((await syncCalendar(deps, ws, anna.id)).ok).toBe(true);

    const owner = await makeUser(t.db, [{ workspaceId: ws, role: 'owner' }]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addCookies([
      { name: 'kairos_session', value: await startSession(t.db, owner.id, ws, clock.now()), url: base },
    ]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${base}/panel/calendar?location=${mitte.id}&date=2026-09-03&view=day`);
    const card = page.locator(`a.blk[href="/panel/bookings/${booking.uuid}"]`);
    expect(await card.getAttribute('class')).toContain('outside');
    expect(await card.textContent()).toContain('Changed in the staffer’s calendar');
    await checks.check(page, 'calendar');

    await card.click();
    await page.waitForURL(new RegExp(`/panel/bookings/${booking.uuid}$`));
    expect(await page.locator('#outside-change').textContent()).toBe(
      'Moved to 15:00 in Anna Adler’s calendar',
    );
    await checks.check(page, 'booking');

    // Apply: 15:00 is free in Kairos, but the dentist (outside) covers 15:30: a warning, and the
    // panel's own "Move anyway".
    await page.getByRole('button', { name: 'Apply: move the booking' }).click();
    await page.getByText('The staffer’s own calendar is busy then').waitFor();
    expect((await t.call('GET', `/bookings/${booking.uuid}`)).json().data.start_time).toBe(
      '2026-09-03T08:00:00Z',
    );
    await checks.check(page, 'move-anyway');
    await page.getByRole('button', { name: 'Move anyway' }).click();
    await page.waitForURL(/notice=moved/);
    expect((await t.call('GET', `/bookings/${booking.uuid}`)).json().data.start_time).toBe(
      '2026-09-03T13:00:00Z',
    );

    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
    await context.close();
  });
});
