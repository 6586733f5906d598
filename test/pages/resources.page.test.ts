import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/users/sessions.service.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { createLocation, createService, createStaffer } from '../helpers/factories.js';
import { makeUser } from '../helpers/panel-client.js';
import { launch, listeningApp } from './booking-page-browser.js';
import { PageChecks } from './page-kit.js';

/**
 * Setup → Resources in Chromium: a room added from the list, the list showing it; a booking
 * moved to another room from its page, and dragged to another room's column of the calendar by
 * resource; nothing serious for axe, nothing wider than a phone, screenshots at 1280 and 375 px.
 */
const clock = new FixedClock('2026-09-01T08:00:00Z');
const checks = new PageChecks('resources');
let browser: Browser;
let t: TestApp;
let base: string;

beforeAll(async () => {
  ({ t, base } = await listeningApp(clock));
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('Setup → Resources', () => {
  it('adds a room to a location and lists it', async () => {
    const location = await createLocation(t.db, t.workspace.id, { name: 'Mitte' });
    await t.call('POST', '/resources', { location_uuid: location.id, type: 'chair', name: 'Chair 1' });
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
    await page.goto(`${base}/panel`);
    await page.getByRole('link', { name: 'Resources' }).first().click();
    await page.waitForURL(/\/setup\/resources$/);
    await page.getByRole('link', { name: 'Add a resource at Mitte' }).click();
    await checks.check(page, 'new');
    await page.getByLabel('Name').fill('Blue room');
    await page.getByLabel('Capacity').fill('4');
    await page.getByRole('button', { name: 'Add the resource' }).click();
    await page.waitForURL(/notice=created/);
    expect(await page.getByRole('status').textContent()).toBe('The resource is added.');
    await checks.check(page, 'list');
    const listed = (await t.call('GET', `/locations/${location.id}/resources`)).json().data;
    expect(listed.map((r: { name: string; type: string }) => `${r.type}:${r.name}`)).toEqual([
      'chair:Chair 1',
      'room:Blue room',
    ]);
    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
    await context.close();
  });

  it('a service needing a room, and a booking holding one, moved to another room from its page', async () => {
    const ws = t.workspace.id;
    const location = await createLocation(t.db, ws, { name: 'Spa' });
    const massage = await createService(t.db, ws, [location.id], { name: 'Massage' });
    const anna = await createStaffer(t.db, ws, location.id, [massage.id], { firstName: 'Anna' });
    for (const name of ['Room 1', 'Room 2'])
      await t.call('POST', '/resources', { location_uuid: location.id, type: 'room', name });
    const owner = await makeUser(t.db, [{ workspaceId: ws, role: 'owner' }]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addCookies([
      { name: 'kairos_session', value: await startSession(t.db, owner.id, ws, clock.now()), url: base },
    ]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}/panel/setup/services/${massage.id}`);
    await page.getByLabel('Resources needed').fill('room');
    await page.getByRole('button', { name: /^Save/ }).click();
    await page.waitForURL(/notice=saved/);
    await page.goto(`${base}/panel/setup/services/${massage.id}`);
    expect(await page.getByLabel('Resources needed').inputValue()).toBe('room');
    await checks.check(page, 'service-form');

    const created = await t.call('POST', '/bookings', {
      reserved_on: '2026-09-10T08:00:00Z',
      location_uuid: location.id,
      service_uuid: massage.id,
      staffer_uuid: anna.id,
      customer_phone: '+4915170000077',
      customer_first_name: 'Mia',
    });
    expect(created.json().data.resources.map((r: { name: string }) => r.name)).toEqual(['Room 1']);
    await page.goto(`${base}/panel/bookings/${created.json().data.uuid}`);
    const moveTo = page.getByRole('form', { name: 'Change resources' });
    await moveTo.getByLabel('Room 1 (room)').uncheck();
    await moveTo.getByLabel('Room 2 (room)').check();
    await moveTo.getByRole('button', { name: 'Change resources' }).click();
    await page.waitForURL(/notice=resources/);
    expect(await page.getByRole('status').textContent()).toBe('The resources are changed.');
    await checks.check(page, 'booking');
    const read = (await t.call('GET', `/bookings/${created.json().data.uuid}`)).json().data;
    expect(read.resources.map((r: { name: string }) => r.name)).toEqual(['Room 2']);
    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
    await context.close();
  });

  it('the calendar by resource: a block dragged to another room’s column is there after a reload', async () => {
    const ws = t.workspace.id;
    const location = await createLocation(t.db, ws, { name: 'Wellness' });
    const massage = await createService(t.db, ws, [location.id], { name: 'Massage' });
    const facial = await createService(t.db, ws, [location.id], { name: 'Facial', durationMinutes: 30 });
    const weekly = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ from: '09:00', to: '17:00' }]]),
    );
    // Open 09:00–17:00 on weekdays: the columns are lit then.
    await t.db
      .updateTable('locations')
      .set({ opening_hours: JSON.stringify(weekly) })
      .where('id', '=', location.id)
      .execute();
    const anna = await createStaffer(t.db, ws, location.id, [massage.id, facial.id], {
      firstName: 'Anna',
      lastName: 'Adler',
      weekly,
    });
    const ben = await createStaffer(t.db, ws, location.id, [massage.id, facial.id], {
      firstName: 'Ben',
      lastName: 'Berg',
      weekly,
    });
    for (const [type, name] of [
      ['room', 'Room 1'],
      ['room', 'Room 2'],
      ['room', 'Room 3'],
      ['chair', 'Pedicure chair'],
    ]) {
      const created = await t.call('POST', '/resources', { location_uuid: location.id, type, name });
      expect(created.statusCode).toBe(201);
    }
    await t.call('PATCH', `/services/${massage.id}`, { resources: [{ type: 'room' }] });
    await t.call('PATCH', `/services/${facial.id}`, { resources: [{ type: 'chair' }] });
    const book = async (at: string, service: string, staffer: string, name: string, phone: string) => {
      const created = await t.call('POST', '/bookings', {
        reserved_on: at,
        location_uuid: location.id,
        service_uuid: service,
        staffer_uuid: staffer,
        customer_phone: phone,
        customer_first_name: name,
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().data.uuid as string;
    };
    // Thursday 10 September 2026, Berlin (UTC+2): 10:00 and 12:00 massages, a 14:00 facial.
    const mia = await book('2026-09-10T08:00:00Z', massage.id, anna.id, 'Mia', '+4915170000081');
    await book('2026-09-10T10:00:00Z', massage.id, ben.id, 'Noah', '+4915170000082');
    await book('2026-09-10T12:00:00Z', facial.id, anna.id, 'Olga', '+4915170000083');
    const read = async () =>
      (await t.call('GET', `/bookings/${mia}`)).json().data.resources.map((r: { name: string }) => r.name);
    expect(await read()).toEqual(['Room 1']);

    const owner = await makeUser(t.db, [{ workspaceId: ws, role: 'owner' }]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addCookies([
      { name: 'kairos_session', value: await startSession(t.db, owner.id, ws, clock.now()), url: base },
    ]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // The switch beside the view by staffer.
    await page.goto(`${base}/panel/calendar?location=${location.id}&date=2026-09-10`);
    await page.getByLabel('Columns').selectOption('resource');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/by=resource/);
    const column = (name: string) =>
      page.getByRole('region', { name: `${name}, Thursday, 10 September 2026` });
    const block = page.locator(`a.blk[href="/panel/bookings/${mia}"]`);
    await expect(column('Room 1').locator(`a.blk[href="/panel/bookings/${mia}"]`).count()).resolves.toBe(1);
    await expect(block.innerText()).resolves.toContain('Anna Adler · Massage · Room 1');
    await checks.check(page, 'calendar');

    // Drag it straight across to Room 3's column: same time, another room.
    const from = (await block.boundingBox())!;
    const to = (await column('Room 3').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + 8);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 20, from.y + 8, { steps: 4 });
    await page.mouse.move(to.x + to.width / 2, from.y + 8, { steps: 6 });
    await Promise.all([page.waitForURL(/notice=moved/), page.mouse.up()]);
    expect(await read()).toEqual(['Room 3']);
    await page.reload();
    await expect(column('Room 3').locator(`a.blk[href="/panel/bookings/${mia}"]`).count()).resolves.toBe(1);
    await expect(column('Room 1').locator(`a.blk[href="/panel/bookings/${mia}"]`).count()).resolves.toBe(0);
    await expect(page.getByRole('status').textContent()).resolves.toBe('The booking is moved.');
    await checks.check(page, 'calendar-moved');

    // Onto Noah's Room 1 at Noah's 12:00: the database refuses, the page says why, nothing moved.
    const moved = page.locator(`a.blk[href="/panel/bookings/${mia}"]`);
    const at = (await moved.boundingBox())!;
    const room1 = (await column('Room 1').boundingBox())!;
    // Two hours lower (48 px an hour in the day view), in Room 1's column.
    await page.mouse.move(at.x + at.width / 2, at.y + 8);
    await page.mouse.down();
    await page.mouse.move(at.x + at.width / 2 - 20, at.y + 30, { steps: 4 });
    await page.mouse.move(room1.x + room1.width / 2, at.y + 8 + 96, { steps: 6 });
    await Promise.all([page.waitForURL(/\/unit$/), page.mouse.up()]);
    await expect(page.locator('main').innerText()).resolves.toContain('That time is not free');
    const after = (await t.call('GET', `/bookings/${mia}`)).json().data;
    expect(after.resources.map((r: { name: string }) => r.name)).toEqual(['Room 3']);
    expect(after.start_time).toBe('2026-09-10T08:00:00Z');

    // Down an hour in its own column: rescheduled, still in Room 3.
    await page.goto(`${base}/panel/calendar?location=${location.id}&date=2026-09-10&by=resource`);
    const again = (await page.locator(`a.blk[href="/panel/bookings/${mia}"]`).boundingBox())!;
    await page.mouse.move(again.x + again.width / 2, again.y + 8);
    await page.mouse.down();
    await page.mouse.move(again.x + again.width / 2, again.y + 30, { steps: 4 });
    await page.mouse.move(again.x + again.width / 2, again.y + 8 + 48, { steps: 4 });
    await Promise.all([page.waitForURL(/notice=moved/), page.mouse.up()]);
    const later = (await t.call('GET', `/bookings/${mia}`)).json().data;
    expect(later.start_time).toBe('2026-09-10T09:00:00Z');
    expect(later.resources.map((r: { name: string }) => r.name)).toEqual(['Room 3']);
    await expect(
      column('Room 3').locator(`a.blk[href="/panel/bookings/${mia}"]`).innerText(),
    ).resolves.toContain('11:00–12:00');

    // In Arabic, right to left.
    await t.db.updateTable('users').set({ language: 'ar' }).where('id', '=', owner.id).execute();
    await page.goto(`${base}/panel/calendar?location=${location.id}&date=2026-09-10&by=resource`);
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expect(page.getByLabel('الأعمدة').inputValue()).resolves.toBe('resource');
    await checks.check(page, 'calendar-ar');
    expect(errors).toEqual([]);
    expect(checks.findings).toEqual([]);
    await context.close();
  });
});
