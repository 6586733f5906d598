/**
 * A staffer's page shows their own calendar: nothing connected, connected and
 * syncing, "sync now" reading an outside move, and the warning when the server is gone (its
 * last known busy times still block). Real app, PGlite and Radicale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';
import { type Radicale, radicaleProxy, startRadicale } from '../../../test/helpers/radicale.js';

let t: TestApp;
let admin: PanelClient;
let radicale: Radicale;
let anna: { id: string };
let work: string;

const event = (start: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    'BEGIN:VEVENT',
    'UID:p1',
    'DTSTAMP:20260801T000000Z',
    `DTSTART:${start}`,
    'DURATION:PT1H',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

beforeAll(async () => {
  [t, radicale] = await Promise.all([
    buildTestApp({
      clock: new FixedClock('2026-09-01T08:00:00Z'),
      config: { secretKey: 'staffer-calendar-panel-key-0123456789abcdef', webhooksAllowPrivate: true },
    }),
    startRadicale(),
  ]);
  const ws = t.workspace.id;
  const berlin = await createLocation(t.db, ws, { name: 'Berlin' });
  const cut = await createService(t.db, ws, [berlin.id], { name: 'Cut' });
  anna = await createStaffer(t.db, ws, berlin.id, [cut.id], { firstName: 'Anna', lastName: 'Adler' });
  admin = await PanelClient.signedIn(t.app, t.db, await makeUser(t.db, [{ workspaceId: ws, role: 'admin' }]));
  work = await radicale.makeCalendar('work', 'Work');
  await radicale.put(work, 'p1.ics', event('20260903T080000Z'));
});
afterAll(async () => {
  await t?.close();
  await radicale?.stop();
});

const page = () => admin.get(`/panel/setup/staffers/${anna.id}`);
const busy = async () =>
  (
    await t.call('GET', `/staffers/${anna.id}/busy-times?from=2026-09-03T00:00:00Z&to=2026-09-04T00:00:00Z`)
  ).json().data;

describe("a staffer's own calendar on their page", () => {
  it('says when none is connected', async () => {
    const response = await page();
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<h2>Own calendar</h2>');
    expect(response.body).toContain('No calendar connected.');
    expect(response.body).not.toContain('Sync now');
  });

  it('shows the connection, and "sync now" reads an outside move', async () => {
    const proxy = await radicaleProxy(radicale);
    try {
      const connected = await t.call('PUT', `/staffers/${anna.id}/calendar-connection`, {
        server_url: proxy.url,
        username: radicale.user,
        password: radicale.password,
      });
      expect(connected.statusCode, connected.body).toBe(200);
      const shown = await page();
      expect(shown.body).toContain(`anna at <code>${proxy.url}</code>, 1 calendar read.`);
      expect(shown.body).toContain('Last read 2026-09-01 08:00 UTC.');
      expect(await busy()).toMatchObject([{ start_time: '2026-09-03T08:00:00.000Z' }]);

      await radicale.put(work, 'p1.ics', event('20260903T120000Z'));
      const synced = await admin.post(`/panel/setup/staffers/${anna.id}/calendar/sync`);
      expect(synced.statusCode, synced.body).toBe(303);
      // "Sync now" is the calendar page's (src/calendar-sync/panel/), which then shows the state.
      expect(synced.headers.location).toBe(`/panel/setup/staffers/${anna.id}/calendar?notice=synced`);
      expect(await busy()).toMatchObject([{ start_time: '2026-09-03T12:00:00.000Z' }]);

      // The server goes away: the page warns, the last known busy time stays.
      await proxy.close();
      expect((await admin.post(`/panel/setup/staffers/${anna.id}/calendar/sync`)).statusCode).toBe(303);
      const failing = await page();
      expect(failing.body).toContain('<p class="warning" role="status">The calendar cannot be reached.');
      expect(failing.body).toContain('Its last known busy times still block; bookings are still taken.');
      expect(await busy()).toMatchObject([{ start_time: '2026-09-03T12:00:00.000Z' }]);
    } finally {
      await proxy.close().catch(() => {});
    }
  });
});
