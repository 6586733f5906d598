import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { bundledIslands } from '../../../test/helpers/islands.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';
import { dispatchOutbox } from '../../outbox/outbox-dispatch.service.js';
import { outboxHandlers } from '../../workers.js';
import { openWritePath } from '../../write-path.js';

/**
 * The bookings calendar through the real app: columns per staffer, times in the
 * location's zone, DST days, group seats, shading, a staff member's own column, and isolation.
 */

let t: TestApp;
let owner: PanelClient;
let location: { id: string };
let anna: { id: string };
let ben: { id: string };
let haircut: { id: string };
let yoga: { id: string };
const bookingIds: Record<string, string> = {};

const ALL_DAY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from: '00:00', to: '24:00' }]]),
);

async function book(
  key: string,
  reservedOn: string,
  serviceId: string,
  stafferId: string,
  phone: string,
  name = '',
) {
  const response = await t.call('POST', '/bookings', {
    reserved_on: reservedOn,
    location_uuid: location.id,
    service_uuid: serviceId,
    staffer_uuid: stafferId,
    customer_phone: phone,
    ...(name ? { customer_first_name: name } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  bookingIds[key] = response.json().data.uuid;
}

beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock('2026-03-20T08:00:00Z') });
  owner = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]),
  );
  location = await createLocation(t.db, t.workspace.id, { timezone: 'Europe/Berlin' });
  haircut = await createService(t.db, t.workspace.id, [location.id], {
    name: 'Haircut',
    durationMinutes: 60,
  });
  yoga = await createService(t.db, t.workspace.id, [location.id], {
    name: 'Yoga',
    durationMinutes: 60,
    capacity: 3,
  });
  anna = await createStaffer(t.db, t.workspace.id, location.id, [haircut.id, yoga.id], {
    firstName: 'Anna',
    lastName: 'Adler',
    weekly: { mon: [{ from: '09:00', to: '17:00' }] },
    breaks: { mon: [{ from: '12:00', to: '13:00' }] },
  });
  ben = await createStaffer(t.db, t.workspace.id, location.id, [haircut.id], {
    firstName: 'Ben',
    lastName: 'Berg',
    weekly: ALL_DAY,
  });
  // Monday, 23 March 2026, Berlin is UTC+1.
  await book('anna10', '2026-03-23T09:00:00Z', haircut.id, anna.id, '+4915170000001', 'Clara');
  await book('yoga1', '2026-03-23T13:00:00Z', yoga.id, anna.id, '+4915170000002', 'Dora');
  await book('yoga2', '2026-03-23T13:00:00Z', yoga.id, anna.id, '+4915170000003', 'Emil');
  await book('ben7', '2026-03-23T06:00:00Z', haircut.id, ben.id, '+4915170000004', 'Frida');
  // Sunday 29 March 2026: Berlin springs forward at 02:00 (23 hours). 01:30 CET and 03:30 CEST.
  await book('spring', '2026-03-29T00:30:00Z', haircut.id, ben.id, '+4915170000005', 'Gerd');
  await book('spring2', '2026-03-29T01:30:00Z', haircut.id, ben.id, '+4915170000006', 'Hanna');
});
afterAll(() => t.close());

const calendar = (client: PanelClient, query: string) => client.get(`/panel/calendar?${query}`);

describe('the calendar', () => {
  it('shows outside busy time of a staffer’s own calendar as "Busy", titled only if the staffer allows', async () => {
    const ws = t.workspace.id;
    await t.db
      .insertInto('calendar_connections')
      .values({
        workspace_id: ws,
        staffer_id: anna.id,
        server_url: 'https://cal.example/',
        username: 'anna',
        password_sealed: 'v1.x.y.z',
        next_sync_at: new Date('2026-03-20T08:00:00Z'),
      })
      .execute();
    await t.db
      .insertInto('calendar_objects')
      .values({
        workspace_id: ws,
        staffer_id: anna.id,
        href: 'https://cal.example/a/1.ics',
        calendar_url: 'https://cal.example/a/',
        etag: '"1"',
        ics: '',
      })
      .execute();
    // 11:00-11:30 in Berlin (CET) on Monday 23 March.
    await t.db
      .insertInto('calendar_busy_spans')
      .values({
        workspace_id: ws,
        staffer_id: anna.id,
        href: 'https://cal.example/a/1.ics',
        start_ms: Date.parse('2026-03-23T10:00:00Z'),
        end_ms: Date.parse('2026-03-23T10:30:00Z'),
        title: 'Dentist',
      })
      .execute();
    try {
      const hidden = await calendar(owner, `location=${location.id}&date=2026-03-23`);
      const annaColumn = (body: string) =>
        body.slice(
          body.indexOf('aria-label="Anna Adler, Monday'),
          body.indexOf('aria-label="Ben Berg, Monday'),
        );
      expect(annaColumn(hidden.body)).toMatch(/<div class="shade busy g[^"]*">Busy<\/div>/);
      expect(hidden.body).not.toContain('Dentist');
      expect(annaColumn(hidden.body).match(/shade busy/g)).toHaveLength(1);
      await t.db
        .updateTable('calendar_connections')
        .set({ show_titles: true })
        .where('staffer_id', '=', anna.id)
        .execute();
      // Anna's column alone (a grid not rendered before).
      const shown = await calendar(owner, `location=${location.id}&date=2026-03-23&staffer=${anna.id}`);
      expect(shown.body).toMatch(/<div class="shade busy g[^"]*">Dentist<\/div>/);
      // Another day shows none.
      expect((await calendar(owner, `location=${location.id}&date=2026-03-24`)).body).not.toContain(
        'shade busy',
      );
    } finally {
      await openWritePath(t.db).uow.run(ws, (tx) =>
        tx.deleteFrom('calendar_connections').where('staffer_id', '=', anna.id).execute(),
      );
    }
  });

  it('shows a location day with one column per staffer, times in the location zone, and seats of group classes', async () => {
    const page = await calendar(owner, `location=${location.id}&date=2026-03-23`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('aria-label="Anna Adler, Monday, 23 March 2026"');
    expect(page.body).toContain('aria-label="Ben Berg, Monday, 23 March 2026"');
    // 09:00Z is 10:00 in Berlin (CET).
    expect(page.body).toMatch(
      new RegExp(
        `href="/panel/bookings/${bookingIds.anna10}"[^>]*><span class="blk-time">10:00–11:00</span> <span class="blk-who">Clara</span>`,
      ),
    );
    expect(page.body).toContain(
      '<span class="blk-time">07:00–08:00</span> <span class="blk-who">Frida</span>',
    );
    // The two yoga bookings are one block of one session: 2 of 3 seats.
    expect(page.body).toContain('14:00–15:00 · 2/3 seats');
    expect(page.body).toContain(`href="/panel/bookings/${bookingIds.yoga1}">Dora</a>`);
    // Working hours and the break are shaded; times of the grid come from a class, never a style attribute (CSP).
    expect(page.body).toMatch(/class="shade work g/);
    expect(page.body).toMatch(/class="shade break g/);
    expect(page.body).not.toMatch(/ style="/);
    expect(page.body).toContain('times in Europe/Berlin (+01:00)');
  });

  it('places blocks by the time they run: the break is an hour lower than the 11:00 start of the day', async () => {
    const page = await calendar(owner, `location=${location.id}&date=2026-03-23&staffer=${anna.id}`);
    // Anna alone: the window is her 09:00-17:00 and her bookings, so 09:00 is the top (0 px).
    const css = /<style[^>]*>([\s\S]*?)<\/style>/.exec(page.body)![1]!;
    const geometry = (name: string) =>
      new RegExp(`\\.${name}\\{top:([\\d.]+)px;height:([\\d.]+)px`).exec(css)?.slice(1).map(Number);
    const classOf = (marker: RegExp) => marker.exec(page.body)![1]!;
    const clara = geometry(
      classOf(new RegExp(`class="blk (g\\w+) [^"]*" href="/panel/bookings/${bookingIds.anna10}"`)),
    );
    const pause = geometry(classOf(/class="shade break (g\w+)"/));
    // 0.8 px per minute: 10:00 is 60 min below 09:00, the 12:00 break 180 min, each an hour tall.
    expect(clara).toEqual([48, 48]);
    expect(pause).toEqual([144, 48]);
  });

  it('a 23-hour day has no 02:00 row, and its bookings sit by elapsed time', async () => {
    const page = await calendar(owner, `location=${location.id}&date=2026-03-29&staffer=${ben.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('has 23 hours: at 02:00 the clocks go forward 1 hour.');
    const labels = [...page.body.matchAll(/<span class="cal-hour [^"]*">([^<]+)</g)].map((m) => m[1]);
    expect(labels.slice(0, 4)).toEqual(['00:00', '01:00', '03:00', '04:00']);
    expect(labels).toHaveLength(23);
    expect(page.body).toContain(
      '<span class="blk-time">01:30–03:30</span> <span class="blk-who">Gerd</span>',
    );
    expect(page.body).toContain(
      '<span class="blk-time">03:30–04:30</span> <span class="blk-who">Hanna</span>',
    );
  });

  it('a 25-hour day shows its repeated hour twice, with offsets', async () => {
    const page = await calendar(owner, `location=${location.id}&date=2026-10-25&staffer=${ben.id}`);
    expect(page.body).toContain(
      'has 25 hours: at 03:00 the clocks go back 1 hour, and 02:00–03:00 happens twice.',
    );
    const labels = [...page.body.matchAll(/<span class="cal-hour [^"]*">([^<]+)</g)].map((m) => m[1]);
    expect(labels).toHaveLength(25);
    expect(labels.slice(1, 5)).toEqual(['01:00', '02:00 +02:00', '02:00 +01:00', '03:00']);
  });

  it('the week puts days side by side on the wall clock and marks the skipped hour', async () => {
    const page = await calendar(owner, `location=${location.id}&date=2026-03-25&view=week&staffer=${ben.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Week of Monday, 23 March 2026');
    expect(page.body).toContain('data-date="2026-03-23"');
    expect(page.body).toContain('data-date="2026-03-29"');
    expect(page.body).toContain('class="shade skipped');
    expect(page.body).toContain('<span class="blk-time">03:30–04:30</span>');
    const everyone = await calendar(owner, `location=${location.id}&date=2026-03-25&view=week`);
    expect(everyone.body.match(/<section class="cal-col /g)).toHaveLength(14);
    // On a phone the week is one day at a time: the six other days' groups are marked, in the
    // head and the body, and their dates are links that keep the week view.
    expect(everyone.body.match(/class="cal-group cal-other"/g)).toHaveLength(12);
    expect(everyone.body).toMatch(
      /<nav class="cal-days" aria-label="Days of this week">.*href="[^"]*date=2026-03-25[^"]*" aria-current="date"><span>Wed<\/span> <span>25<\/span>/,
    );
    expect(everyone.body).toMatch(
      /<a href="[^"]*view=week[^"]*date=2026-03-29[^"]*"><span>Sun<\/span> <span>29<\/span>/,
    );
  });

  it('a staff member sees their own column by default, and everyone on asking', async () => {
    const user = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
    // The one user–staffer link is set where the staffer's booking emails are (Settings → Notifications).
    const link = async (stafferId: string, userId: string) => {
      await owner.get('/panel/settings/notifications');
      return owner.post(`/panel/settings/notifications/staffers/${stafferId}`, {
        user_id: userId,
        email: '',
        booking_emails: ['new', 'changed', 'canceled'],
      });
    };
    expect((await link(ben.id, user.id)).statusCode).toBe(303);
    const staff = await PanelClient.signedIn(t.app, t.db, user);
    const own = await calendar(staff, `location=${location.id}&date=2026-03-23`);
    expect(own.statusCode).toBe(200);
    expect(own.body.match(/<section class="cal-col /g)).toHaveLength(1);
    expect(own.body).toContain('aria-label="Ben Berg, Monday, 23 March 2026"');
    const all = await calendar(staff, `location=${location.id}&date=2026-03-23&staffer=all`);
    expect(all.body.match(/<section class="cal-col /g)).toHaveLength(2);
  });

  it('the member set under Settings → Notifications gets that staffer’s column and booking emails, and both move with the link', async () => {
    const user = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
    const staff = await PanelClient.signedIn(t.app, t.db, user);
    const link = async (stafferId: string, userId: string) => {
      await owner.get('/panel/settings/notifications');
      return owner.post(`/panel/settings/notifications/staffers/${stafferId}`, {
        user_id: userId,
        email: '',
        booking_emails: ['new', 'changed', 'canceled'],
      });
    };
    // A change's emails are queued when its outbox event is dispatched (a worker's round).
    const staffMails = async (bookingId: string) => {
      await dispatchOutbox(t.db, outboxHandlers(), Date.now(), 1_000);
      return t.db
        .selectFrom('mail_messages')
        .select('recipient')
        .where('workspace_id', '=', t.workspace.id)
        .where('booking_id', '=', bookingId)
        .where('kind', '=', 'staff_new')
        .execute();
    };
    const ownColumn = async () => {
      const page = await calendar(staff, `location=${location.id}&date=2026-03-23`);
      return [...page.body.matchAll(/<section class="cal-col [^>]*aria-label="([^,"]+),/g)].map((m) => m[1]);
    };

    // Unlinked: every column.
    expect(await ownColumn()).toEqual(['Anna Adler', 'Ben Berg']);
    // Ben's member of the test before gives way to this one.
    expect((await link(ben.id, user.id)).statusCode).toBe(303);
    expect(await ownColumn()).toEqual(['Ben Berg']);
    await book('ben24', '2026-03-24T10:00:00Z', haircut.id, ben.id, '+4915170000091');
    expect(await staffMails(bookingIds.ben24!)).toEqual([{ recipient: user.email }]);

    // A member who is Ben cannot become Anna unseen: 422, and nothing moved.
    const refused = await link(anna.id, user.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('This user is already Ben Berg.');
    expect(await ownColumn()).toEqual(['Ben Berg']);

    // Ben to None, this user to Anna: the column and the emails follow.
    expect((await link(ben.id, '')).statusCode).toBe(303);
    expect((await link(anna.id, user.id)).statusCode).toBe(303);
    expect(await ownColumn()).toEqual(['Anna Adler']);
    // Monday 30 March, 11:00 in Berlin (summer time by then).
    await book('anna30', '2026-03-30T09:00:00Z', haircut.id, anna.id, '+4915170000092');
    expect(await staffMails(bookingIds.anna30!)).toEqual([{ recipient: user.email }]);
    // Ben has no member and no address now: his bookings tell no one.
    await book('ben24b', '2026-03-24T12:00:00Z', haircut.id, ben.id, '+4915170000093');
    expect(await staffMails(bookingIds.ben24b!)).toEqual([]);
  });

  it('shows every write at once, though it reuses a week’s bookings between writes', async () => {
    const url = `location=${location.id}&date=2026-03-30&staffer=${anna.id}`; // Monday, CEST
    const before = await calendar(owner, url);
    expect(before.body).not.toContain('+4915170000099');
    // A booking made through the API, then a customer's blank name filled by POST /customers.
    await book('later', '2026-03-30T08:00:00Z', haircut.id, anna.id, '+4915170000099');
    const booked = await calendar(owner, url);
    expect(booked.body).toContain('<span class="blk-who">+4915170000099</span>');
    const named = await t.call('POST', '/customers', { phone: '+4915170000099', first_name: 'Ida' });
    expect(named.statusCode, named.body).toBe(200);
    expect((await calendar(owner, url)).body).toContain('<span class="blk-who">Ida</span>');
    const moved = await t.call('PUT', `/bookings/${bookingIds.later}/reschedule`, {
      reserved_on: '2026-03-30T12:00:00Z',
    });
    expect([200, 201], moved.body).toContain(moved.statusCode);
    expect((await calendar(owner, url)).body).toContain('<span class="blk-time">14:00–15:00</span>');
  });

  it('refuses another workspace’s location, a bad date or view with a page, never a 500', async () => {
    const other = await createOtherWorkspace(t.db);
    const theirs = await createLocation(t.db, other.workspace.id);
    expect((await calendar(owner, `location=${theirs.id}`)).statusCode).toBe(404);
    expect((await calendar(owner, 'location=not-a-uuid')).statusCode).toBe(404);
    expect((await calendar(owner, `location=${location.id}&date=2026-02-30`)).statusCode).toBe(400);
    expect((await calendar(owner, `location=${location.id}&view=month`)).statusCode).toBe(400);
    expect((await calendar(owner, `location=${location.id}&staffer=${theirs.id}`)).statusCode).toBe(404);
    const signedOut = await t.app.inject({ method: 'GET', url: '/panel/calendar' });
    expect(signedOut.statusCode).toBe(303);
  });
});

describe('weight', () => {
  it('the calendar page’s JavaScript is under 30 kB gzipped (issue 13 §6)', async () => {
    const page = await calendar(owner, `location=${location.id}&date=2026-03-25&view=week`);
    const scripts = [...page.body.matchAll(/<script[^>]*src="\/assets\/islands\/([\w-]+)\.js"/g)].map(
      (m) => m[1]!,
    );
    expect(scripts).toEqual(['calendar']);
    // Bundled in memory as `npm run build` bundles it, so the test needs nothing built first.
    const bundles = await bundledIslands(scripts);
    expect(Object.keys(bundles)).toEqual(['calendar']);
    const js = scripts.map((name) => bundles[name]!).join('');
    expect(gzipSync(js).length).toBeLessThanOrEqual(30 * 1024);
  });
});
