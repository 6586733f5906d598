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
 * Setup → Resources in Chromium: a room added from the list, the list showing it; nothing
 * serious for axe, nothing wider than a phone, screenshots at 1280 and 375 px.
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
});
