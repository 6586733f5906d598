import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import {
  createLocation,
  createPaymentAccount,
  createService,
  createStaffer,
} from '../../../test/helpers/factories.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';

/**
 * Home through the real app: today's agenda per location in each location's own zone (at
 * 02:30 UTC it is already Thursday in Berlin and still Wednesday in New York), a staffer's own
 * bookings first, canceled ones left out, the booking page's address with a copy button, and the
 * next setup step while a first booking is not yet possible.
 */
const clock = new FixedClock('2026-03-26T02:30:00Z');
let t: TestApp;
let owner: PanelClient;
let berlin: { id: string };
let newYork: { id: string };
let anna: { id: string };
let ben: { id: string };
let nick: { id: string };
let haircut: { id: string };

const ALL_DAY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from: '00:00', to: '24:00' }]]),
);

async function book(
  at: string,
  locationId: string,
  stafferId: string,
  name: string,
  phone: string,
): Promise<string> {
  const response = await t.call('POST', '/bookings', {
    reserved_on: at,
    location_uuid: locationId,
    service_uuid: haircut.id,
    staffer_uuid: stafferId,
    customer_phone: phone,
    customer_first_name: name,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.uuid;
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ clock });
  owner = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]),
  );
  berlin = await createLocation(t.db, t.workspace.id, { name: 'Berlin', timezone: 'Europe/Berlin' });
  newYork = await createLocation(t.db, t.workspace.id, { name: 'New York', timezone: 'America/New_York' });
  haircut = await createService(t.db, t.workspace.id, [berlin.id, newYork.id], {
    name: 'Haircut',
    durationMinutes: 60,
  });
  anna = await createStaffer(t.db, t.workspace.id, berlin.id, [haircut.id], {
    firstName: 'Anna',
    lastName: 'Adler',
    weekly: ALL_DAY,
  });
  ben = await createStaffer(t.db, t.workspace.id, berlin.id, [haircut.id], {
    firstName: 'Ben',
    lastName: 'Berg',
    weekly: ALL_DAY,
  });
  nick = await createStaffer(t.db, t.workspace.id, newYork.id, [haircut.id], {
    firstName: 'Nick',
    lastName: 'Nolan',
    weekly: ALL_DAY,
  });
  // Berlin (UTC+1 until Sunday): Thursday 26 March, 10:00 and 13:00; Friday is not today.
  ids.ben10 = await book('2026-03-26T09:00:00Z', berlin.id, ben.id, 'Clara', '+4915170000001');
  ids.anna13 = await book('2026-03-26T12:00:00Z', berlin.id, anna.id, 'Dora', '+4915170000002');
  ids.friday = await book('2026-03-27T09:00:00Z', berlin.id, anna.id, 'Emil', '+4915170000003');
  ids.canceled = await book('2026-03-26T14:00:00Z', berlin.id, anna.id, 'Frida', '+4915170000004');
  const cancel = await t.call('PUT', `/bookings/${ids.canceled}/status/cancel`, {});
  expect(cancel.statusCode, cancel.body).toBe(200);
  // New York (UTC-4): still Wednesday 25 March, 23:30; Thursday 10:00 there is tomorrow.
  ids.nyLate = await book('2026-03-26T03:30:00Z', newYork.id, nick.id, 'Gerd', '+12125550101');
  ids.nyTomorrow = await book('2026-03-26T14:00:00Z', newYork.id, nick.id, 'Hanna', '+12125550102');
});
afterAll(() => t.close());

/** The agenda's lines, as text, in page order. */
function agendaLines(body: string): string[] {
  return [...body.matchAll(/<li( class="own")?><span class="agenda-time">([\s\S]*?)<\/li>/g)].map((m) =>
    `${m[1] ? 'own ' : ''}${m[2]}`
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

describe('Home', () => {
  it("lists today's bookings per location, in each location's own today and zone", async () => {
    const home = await owner.get('/panel');
    expect(home.statusCode, home.body).toBe(200);
    expect(home.body).toContain('Berlin · Thursday, March 26, 2026');
    expect(home.body).toContain('New York · Wednesday, March 25, 2026');
    expect(agendaLines(home.body)).toEqual([
      '10:00 AM–11:00 AM Clara · Haircut · Ben Berg · New',
      '1:00 PM–2:00 PM Dora · Haircut · Anna Adler · New',
      '11:30 PM–12:30 AM Gerd · Haircut · Nick Nolan · New',
    ]);
    expect(home.body).toContain(`href="/panel/bookings/${ids.ben10}"`);
    expect(home.body).not.toContain(ids.friday);
    expect(home.body).not.toContain(ids.canceled);
    expect(home.body).not.toContain(ids.nyTomorrow);
    // Where the day is run and the staff are set up, one click away.
    expect(home.body).toContain('<a href="/panel/calendar">Open the calendar</a>');
    expect(home.body).toContain('<a href="/panel/setup/staffers">Staff and hours</a>');
  });

  it("puts a staff member's own bookings first", async () => {
    const member = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
    await t.db
      .updateTable('memberships')
      .set({ staffer_id: anna.id })
      .where('workspace_id', '=', t.workspace.id)
      .where('user_id', '=', member.id)
      .execute();
    const client = await PanelClient.signedIn(t.app, t.db, member);
    const home = await client.get('/panel');
    expect(home.statusCode).toBe(200);
    expect(agendaLines(home.body).slice(0, 2)).toEqual([
      'own 1:00 PM–2:00 PM Dora · Haircut · You · New',
      '10:00 AM–11:00 AM Clara · Haircut · Ben Berg · New',
    ]);
    // Staff do not set up: no setup step, whatever is missing.
    expect(home.body).not.toContain('Next step');
  });

  it("shows the booking page's address with a copy button", async () => {
    const home = await owner.get('/panel');
    expect(home.body).toMatch(
      new RegExp(`<code id="booking-page-url">http://[^<]*/book/${t.workspace.slug}</code>`),
    );
    expect(home.body).toContain('data-copy-target="booking-page-url"');
    expect(home.body).toMatch(/<script[^>]*src="\/assets\/islands\/copy-text\.js"/);
  });

  it('warns of staffers whose calendar does not sync, and stops once it does', async () => {
    const before = await owner.get('/panel');
    expect(before.body).not.toContain('class="calendar-warning"');
    for (const [staffer, status] of [
      [anna.id, 'failing'],
      [ben.id, 'refused'],
    ] as const) {
      await t.db
        .insertInto('calendar_connections')
        .values({
          workspace_id: t.workspace.id,
          staffer_id: staffer,
          server_url: 'https://cal.example/',
          username: 'u',
          password_sealed: 'v1.x.y.z',
          status,
          last_error: 'No answer within 20000 ms',
          next_sync_at: new Date(clock.now()),
        })
        .execute();
    }
    const home = await owner.get('/panel');
    // In the list of what needs attention, not a card of their own.
    const attention = home.body.slice(home.body.indexOf('<h2 id="attention">'));
    expect(attention).toContain('<li class="calendar-warning" data-staffer="');
    expect(attention).not.toContain('Nothing failed in the last seven days.');
    expect(home.body).toContain(
      `<a href="/panel/setup/staffers/${anna.id}">Anna Adler</a>’s calendar cannot be reached. Its last known busy times still block; bookings are still taken.`,
    );
    expect(home.body).toContain(
      `<a href="/panel/setup/staffers/${ben.id}">Ben Berg</a>’s calendar refuses the app password: enter a new one.`,
    );
    await t.db
      .updateTable('calendar_connections')
      .set({ status: 'ok' })
      .where('workspace_id', '=', t.workspace.id)
      .execute();
    expect((await owner.get('/panel')).body).not.toContain('class="calendar-warning"');
    await t.db.deleteFrom('calendar_connections').where('workspace_id', '=', t.workspace.id).execute();
  });

  it('shows only this workspace', async () => {
    const other = await createOtherWorkspace(t.db);
    const stranger = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: other.workspace.id, role: 'owner' }]),
    );
    const home = await stranger.get('/panel');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('No bookings today.');
    expect(home.body).not.toContain('Clara');
  });
});

describe('the next setup step', () => {
  it('walks a new workspace through location, service, staffer and hours, then goes away', async () => {
    const fresh = await createOtherWorkspace(t.db);
    const ws = fresh.workspace.id;
    const client = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: ws, role: 'owner' }]),
    );
    const step = async () => /<h2 id="next-step">([^<]*)<\/h2>/.exec((await client.get('/panel')).body)?.[1];

    expect(await step()).toBe('Next step: add your first location');
    expect((await client.get('/panel')).body).toContain('href="/panel/setup/locations/new"');
    const location = await createLocation(t.db, ws, { name: 'Hamburg' });
    expect(await step()).toBe('Next step: add a service');
    const service = await createService(t.db, ws, [location.id], { name: 'Massage', durationMinutes: 30 });
    expect(await step()).toBe('Next step: add a staffer who gives it');
    const staffer = await createStaffer(t.db, ws, location.id, [service.id], {
      firstName: 'Ida',
      weekly: {},
    });
    expect(await step()).toBe('Next step: set working hours');
    await t.db
      .updateTable('schedules')
      .set({ weekly: JSON.stringify({ tue: [{ from: '09:00', to: '12:00' }] }) })
      .where('workspace_id', '=', ws)
      .where('staffer_id', '=', staffer.id)
      .execute();
    expect(await step()).toBeUndefined();
  });
});

/** The tiles of "How it is going", each as "name | now | compared", in page order. */
function glanceRows(body: string): string[] {
  const list = /<dl class="glance">([\s\S]*?)<\/dl>/.exec(body)?.[1] ?? '';
  return [...list.matchAll(/<div>([\s\S]*?)<\/div>/g)].map((m) =>
    m[1]!
      .replace(/<\/d[td]>/g, ' | ')
      .replace(/<[^>]+>/g, '')
      .replace(/\s+\|\s*$/, '')
      .trim(),
  );
}

describe('Home at a glance', () => {
  it('counts the next seven days, and today and this week against the same days a week before', async () => {
    const cash = await createPaymentAccount(t.db, t.workspace.id, berlin.id, { name: 'Cash desk' });
    for (const [booking, amount, at] of [
      [ids.ben10, 4000, '2026-03-26T01:00:00Z'], // 02:00 Thursday in Berlin: today
      [ids.anna13, 2000, '2026-03-19T10:00:00Z'], // Thursday a week before
    ] as const) {
      const done = await t.call('PUT', `/bookings/${booking}/status/complete`, {
        account_uuid: cash.id,
        paid_amount: amount,
      });
      expect(done.statusCode, done.body).toBe(200);
      await sql`UPDATE payments SET created_at = ${at}::timestamptz
                WHERE workspace_id = ${t.workspace.id} AND booking_id = ${booking}`.execute(t.db);
    }
    const home = await owner.get('/panel');
    // Today is Thursday 26 March in Berlin, the first location. Friday has Emil's booking; the
    // canceled one and New York's Thursday (today there) are not in the next seven days.
    expect(home.body).toContain(
      '<a href="/panel/calendar?date=2026-03-27">Fri 27 Mar</a> <span>1 booking</span>',
    );
    expect(home.body).toContain(
      '<a href="/panel/calendar?date=2026-04-02">Thu 2 Apr</a> <span class="muted">0 bookings</span>',
    );
    expect(home.body).not.toContain('date=2026-03-26"');
    expect(glanceRows(home.body)).toEqual([
      // Clara and Dora in Berlin, Hanna on Thursday in New York; none the Thursday before.
      'Bookings today | 3 | 0 a week before · –',
      'Revenue today | €40.00 | €20.00 a week before · +100%',
      // Monday to Thursday: Gerd's late Wednesday in New York besides.
      'Bookings this week so far | 4 | 0 a week before · –',
      'Revenue this week so far | €40.00 | €20.00 a week before · +100%',
    ]);
    expect(home.body).toContain('<a href="/panel/reports">All reports</a>');
  });

  it('shows staff their own share of the coming days, and no money', async () => {
    const member = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
    // Anna's earlier member (the agenda's test) lets go of her first: one member per staffer.
    await t.db
      .updateTable('memberships')
      .set({ staffer_id: null })
      .where('workspace_id', '=', t.workspace.id)
      .where('staffer_id', '=', anna.id)
      .execute();
    await t.db
      .updateTable('memberships')
      .set({ staffer_id: anna.id })
      .where('workspace_id', '=', t.workspace.id)
      .where('user_id', '=', member.id)
      .execute();
    const home = await (await PanelClient.signedIn(t.app, t.db, member)).get('/panel');
    expect(home.body).toContain(
      '<a href="/panel/calendar?date=2026-03-27">Fri 27 Mar</a> <span>1 booking, 1 yours</span>',
    );
    expect(glanceRows(home.body)).toEqual([
      'Bookings today | 3 | 0 a week before · –',
      'Bookings this week so far | 4 | 0 a week before · –',
    ]);
    expect(home.body).not.toContain('All reports');
    // Staff see what they can act on (unpaid holds), not the developers' or the money's failures.
    await sql`UPDATE bookings SET payment_state = 'awaiting_payment', payment_hold_until = '2026-03-26T03:00:00Z'
              WHERE workspace_id = ${t.workspace.id} AND id = ${ids.friday}`.execute(t.db);
    const held = await (await PanelClient.signedIn(t.app, t.db, member)).get('/panel');
    expect(held.body).toContain(
      '1 booking waits for payment, holding its time: <a href="/panel/bookings">see them</a>',
    );
    await sql`UPDATE bookings SET payment_state = NULL, payment_hold_until = NULL
              WHERE workspace_id = ${t.workspace.id} AND id = ${ids.friday}`.execute(t.db);
  });

  it('lists what failed in the last seven days, each with where to fix it', async () => {
    expect((await owner.get('/panel')).body).toContain('Nothing failed in the last seven days.');
    await t.db
      .insertInto('mail_messages')
      .values({
        workspace_id: t.workspace.id,
        kind: 'confirmed',
        revision: 1,
        message_key: 'home-attention-failed',
        recipient: 'clara@example.com',
        snapshot: JSON.stringify({}),
        state: 'failed',
        due_at: new Date('2026-03-25T10:00:00Z'),
        next_attempt_at: new Date('2026-03-25T10:00:00Z'),
        updated_at: new Date('2026-03-25T10:00:00Z'),
      })
      .execute();
    const home = await owner.get('/panel');
    expect(home.body).toContain(
      '1 email could not be sent in the last seven days: <a href="/panel/settings/notifications">see and retry</a>',
    );
    // Another workspace's failures are its own.
    const other = await createOtherWorkspace(t.db);
    const stranger = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: other.workspace.id, role: 'owner' }]),
    );
    expect((await stranger.get('/panel')).body).toContain('Nothing failed in the last seven days.');
  });
});
