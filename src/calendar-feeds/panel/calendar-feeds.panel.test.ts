import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/build-test-app.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';
import type { UserRow } from '../../users/users.repository.js';

/** Calendar feeds in the panel: feed URLs with a copy button, regenerate, and who is which staffer. */
let t: TestApp;
let owner: UserRow;
let staffUser: UserRow;
let anna: { id: string };
let booking: string;

/** The feed URLs a page shows, by the id of their element. */
function urlsOn(body: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of body.matchAll(
    /<code id="([^"]+)">(http:\/\/127\.0\.0\.1:3000\/ical\/[A-Za-z0-9_-]{65}\.ics)<\/code>/g,
  )) {
    found.set(match[1]!, match[2]!);
  }
  return found;
}

/** GET a feed URL through the app: its status and the booking uuids its events hold. */
async function feed(url: string): Promise<{ status: number; uids: string[] }> {
  const response = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
  if (response.statusCode !== 200) return { status: response.statusCode, uids: [] };
  const calendar = new ICAL.Component(ICAL.parse(response.body));
  return {
    status: 200,
    uids: calendar
      .getAllSubcomponents('vevent')
      .map((event) => String(event.getFirstPropertyValue('uid')).split('@')[0]!),
  };
}

beforeAll(async () => {
  // No PUBLIC_URL: the panel's Origin is the test client's, and feed URLs are under HOST:PORT.
  t = await buildTestApp();
  owner = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]);
  staffUser = await makeUser(
    t.db,
    [{ workspaceId: t.workspace.id, role: 'staff' }],
    `anna-${process.pid}@example.com`,
  );
  const location = await createLocation(t.db, t.workspace.id);
  const service = await createService(t.db, t.workspace.id, [location.id]);
  anna = await createStaffer(t.db, t.workspace.id, location.id, [service.id], {
    firstName: 'Anna',
    lastName: 'Stylist',
  });
  await createStaffer(t.db, t.workspace.id, location.id, [service.id], { firstName: 'Ben' });
  const start = new Date(Date.now() + 3 * 86_400_000);
  start.setUTCHours(10, 0, 0, 0); // 11:00 or 12:00 in Berlin: inside 09:00-17:00
  const created = await t.call('POST', '/bookings', {
    reserved_on: start.toISOString().replace('.000Z', 'Z'),
    location_uuid: location.id,
    service_uuid: service.id,
    staffer_uuid: anna.id,
    customer_phone: '+4915170000041',
  });
  expect(created.statusCode, created.body).toBe(201);
  booking = created.json().data.uuid;
});
afterAll(() => t.close());

describe('Settings → Calendar feeds', () => {
  it('makes, shows (with a copy button) and regenerates a staffer’s feed; the old URL ends at once', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, owner);
    const empty = await client.get('/panel/settings/calendar-feeds');
    expect(empty.statusCode).toBe(200);
    expect(urlsOn(empty.body).size).toBe(0);
    expect(empty.body).toContain('Make a feed URL<span class="skip-label"> for Anna Stylist</span>');

    const made = await client.post(`/panel/settings/calendar-feeds/staffers/${anna.id}/regenerate`);
    expect(made.statusCode).toBe(303);
    const page = await client.get(made.headers.location as string);
    const first = urlsOn(page.body).get(`feed-${anna.id}`);
    expect(first).toBeDefined();
    // The copy-text island's placeholder names the URL's element, and the island is on the page.
    expect(page.body).toContain(`<span data-copy-target="feed-${anna.id}"></span>`);
    expect(page.body).toMatch(/<script[^>]+src="\/assets\/islands\/copy-text\.js/);
    expect(await feed(first!)).toEqual({ status: 200, uids: [booking] });
    // Shown again on the next visit: the URL is made again from the stored nonce.
    expect(urlsOn((await client.get('/panel/settings/calendar-feeds')).body).get(`feed-${anna.id}`)).toBe(
      first,
    );

    await client.post(`/panel/settings/calendar-feeds/staffers/${anna.id}/regenerate`);
    const second = urlsOn((await client.get('/panel/settings/calendar-feeds')).body).get(`feed-${anna.id}`);
    expect(second).not.toBe(first);
    expect((await feed(first!)).status).toBe(404);
    expect(await feed(second!)).toEqual({ status: 200, uids: [booking] });
  });

  it('refuses an unknown staffer, a member link set here, and a post without the CSRF token', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, owner);
    await client.get('/panel/settings/calendar-feeds');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      (await client.post(`/panel/settings/calendar-feeds/staffers/${unknown}/regenerate`)).statusCode,
    ).toBe(404);
    expect(
      (await client.post(`/panel/settings/calendar-feeds/staffers/not-a-uuid/regenerate`)).statusCode,
    ).toBe(404);
    // Who is which staffer is set under Settings → Notifications only: no route here sets it.
    expect(
      (
        await client.post(`/panel/settings/calendar-feeds/staffers/${anna.id}/member`, {
          user_id: staffUser.id,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await client.post(`/panel/settings/calendar-feeds/staffers/${anna.id}/regenerate`, {}, { csrf: null }))
        .statusCode,
    ).toBe(403);
  });
});

describe('Your calendar feed', () => {
  it('is every member’s own: empty until linked to a staffer, then that staffer’s bookings', async () => {
    const staff = await PanelClient.signedIn(t.app, t.db, staffUser);
    // Staff may not open the workspace's feeds page, but have their own.
    expect((await staff.get('/panel/settings/calendar-feeds')).statusCode).toBe(403);
    const before = await staff.get('/panel/account/calendar-feed');
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('You are not linked to a staffer');
    await staff.post('/panel/account/calendar-feed/regenerate');
    const own = urlsOn((await staff.get('/panel/account/calendar-feed')).body).get('own-feed');
    expect(own).toBeDefined();
    expect(await feed(own!)).toEqual({ status: 200, uids: [] });

    // The link is set under Settings → Notifications (the one place), and shown here.
    const ownerClient = await PanelClient.signedIn(t.app, t.db, owner);
    const setMember = async (userId: string) => {
      await ownerClient.get('/panel/settings/notifications');
      return ownerClient.post(`/panel/settings/notifications/staffers/${anna.id}`, {
        user_id: userId,
        email: '',
        booking_emails: ['new', 'changed', 'canceled'],
      });
    };
    expect((await setMember(staffUser.id)).statusCode).toBe(303);
    const feeds = (await ownerClient.get('/panel/settings/calendar-feeds')).body;
    expect(feeds).toContain(staffUser.email);
    expect(feeds).toContain('href="/panel/settings/notifications"');
    const after = await staff.get('/panel/account/calendar-feed');
    expect(after.body).toContain('as <strong>Anna Stylist</strong>');
    expect(await feed(own!)).toEqual({ status: 200, uids: [booking] });

    // Unlinked ("None"): the member's feed is empty again, at once.
    expect((await setMember('')).statusCode).toBe(303);
    expect(await feed(own!)).toEqual({ status: 200, uids: [] });
    expect((await ownerClient.get('/panel/settings/calendar-feeds')).body).not.toContain(staffUser.email);

    await staff.post('/panel/account/calendar-feed/regenerate');
    const renewed = urlsOn((await staff.get('/panel/account/calendar-feed')).body).get('own-feed');
    expect(renewed).not.toBe(own);
    expect((await feed(own!)).status).toBe(404);
  });
});
