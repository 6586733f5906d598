/**
 * The panel's connect flow for a staffer's own calendar: on the staffer's page (owners, admins)
 * and as "Your calendar" (the member who is the staffer), against a real Radicale, through the
 * real app on PGlite. Refusals (a wrong password, an unreachable or refused address) show on the
 * form, never as a 500; the staff role cannot reach another staffer's calendar.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';
import { type Radicale, startRadicale } from '../../../test/helpers/radicale.js';

let t: TestApp;
let strict: TestApp;
let admin: PanelClient;
let member: PanelClient;
let loner: PanelClient;
let radicale: Radicale;
let anna: { id: string };
let ben: { id: string };
let work: string;
let home: string;

const event = (uid: string, start: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260801T000000Z',
    `DTSTART:${start}`,
    'DURATION:PT1H',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/** The hidden value a page carries to the next step. */
const hidden = (body: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1]?.replaceAll('&amp;', '&') ?? '';

beforeAll(async () => {
  const config = { secretKey: 'calendar-connect-panel-key-0123456789abcdef', webhooksAllowPrivate: true };
  [t, strict, radicale] = await Promise.all([
    buildTestApp({ clock: new FixedClock('2026-09-01T08:00:00Z'), config }),
    buildTestApp({ config: { ...config, webhooksAllowPrivate: false } }),
    startRadicale(),
  ]);
  const ws = t.workspace.id;
  const berlin = await createLocation(t.db, ws, { name: 'Berlin' });
  const cut = await createService(t.db, ws, [berlin.id], { name: 'Cut' });
  anna = await createStaffer(t.db, ws, berlin.id, [cut.id], { firstName: 'Anna', lastName: 'Adler' });
  ben = await createStaffer(t.db, ws, berlin.id, [cut.id], { firstName: 'Ben', lastName: 'Berg' });
  admin = await PanelClient.signedIn(t.app, t.db, await makeUser(t.db, [{ workspaceId: ws, role: 'admin' }]));
  const annaUser = await makeUser(t.db, [{ workspaceId: ws, role: 'staff' }]);
  await t.db
    .updateTable('memberships')
    .set({ staffer_id: anna.id })
    .where('workspace_id', '=', ws)
    .where('user_id', '=', annaUser.id)
    .execute();
  member = await PanelClient.signedIn(t.app, t.db, annaUser);
  loner = await PanelClient.signedIn(t.app, t.db, await makeUser(t.db, [{ workspaceId: ws, role: 'staff' }]));
  work = await radicale.makeCalendar('work', 'Work');
  home = await radicale.makeCalendar('home', 'Home');
  await radicale.put(work, 'w1.ics', event('w1', '20260903T080000Z'));
  await radicale.put(home, 'h1.ics', event('h1', '20260904T080000Z'));
});
afterAll(async () => {
  await t?.close();
  await strict?.close();
  await radicale?.stop();
});

const busy = async (stafferId: string) =>
  (await t.call('GET', `/staffers/${stafferId}/busy-times?from=2026-09-03T00:00:00Z&to=2026-09-05T00:00:00Z`))
    .json()
    .data.map((b: { start_time: string }) => b.start_time);

describe("connecting a staffer's calendar from their page", () => {
  const base = () => `/panel/setup/staffers/${anna.id}/calendar`;

  it('links the form from the staffer page', async () => {
    const page = await admin.get(`/panel/setup/staffers/${anna.id}`);
    expect(page.body).toContain(`href="${base()}">Connect a calendar</a>`);
    const form = await admin.get(base());
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<h1>Own calendar of Anna Adler</h1>');
    expect(form.body).toContain(`action="${base()}/test"`);
  });

  it('shows a refused password beside its field, with a 422 and nothing saved', async () => {
    await admin.get(base());
    const refused = await admin.post(`${base()}/test`, {
      server_url: radicale.url,
      username: radicale.user,
      password: 'not-the-password',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('The calendar server refused this user name and app password.');
    expect(refused.body).toContain('id="f-password-error"');
    // The typed address comes back, the password never does.
    expect(refused.body).toContain(`value="${radicale.url}"`);
    expect(refused.body).not.toContain('not-the-password');
    expect((await t.call('GET', `/staffers/${anna.id}/calendar-connection`)).statusCode).toBe(404);
  });

  it('shows an unreachable server on the address', async () => {
    await admin.get(base());
    const gone = await admin.post(`${base()}/test`, {
      server_url: 'http://127.0.0.1:9/',
      username: 'anna',
      password: 'x',
    });
    expect(gone.statusCode).toBe(422);
    expect(gone.body).toContain('The calendar server could not be reached');
    expect(gone.body).toContain('id="f-server_url-error"');
  });

  it('refuses a private address where the SSRF guard applies, on the form', async () => {
    const ws = strict.workspace.id;
    const berlin = await createLocation(strict.db, ws, { name: 'Berlin' });
    const cut = await createService(strict.db, ws, [berlin.id], { name: 'Cut' });
    const cleo = await createStaffer(strict.db, ws, berlin.id, [cut.id], {
      firstName: 'Cleo',
      lastName: 'C',
    });
    const owner = await PanelClient.signedIn(
      strict.app,
      strict.db,
      await makeUser(strict.db, [{ workspaceId: ws, role: 'owner' }]),
    );
    const url = `/panel/setup/staffers/${cleo.id}/calendar`;
    await owner.get(url);
    const refused = await owner.post(`${url}/test`, {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain(
      'id="f-server_url-error">The address must not point to a private, loopback or link-local network.',
    );
    expect(refused.body).toContain('id="f-server_url-error"');
  });

  it('tests, lists the calendars to pick from, connects with the choice, syncs and disconnects', async () => {
    await admin.get(base());
    const tested = await admin.post(`${base()}/test`, {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
    });
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.body).toContain('The connection works: 2 calendars of events found.');
    expect(tested.body).toContain(`value="${work}"`);
    expect(tested.body).toContain(`value="${home}"`);
    // The password goes on sealed, never as typed.
    expect(tested.body).not.toContain(radicale.password);
    const sealed = hidden(tested.body, 'sealed_password');
    expect(sealed).not.toBe('');

    const connected = await admin.post(base(), {
      server_url: radicale.url,
      username: radicale.user,
      sealed_password: sealed,
      read_calendars: [work],
      write_calendar: home,
      options: ['all_day_blocks', 'show_titles'],
    });
    expect(connected.statusCode, connected.body).toBe(303);
    expect(connected.headers.location).toBe(`${base()}?notice=connected`);
    const saved = (await t.call('GET', `/staffers/${anna.id}/calendar-connection`)).json().data;
    expect(saved).toMatchObject({
      read_calendars: [work],
      write_calendar: home,
      all_day_blocks: true,
      show_titles: true,
      customer_name_in_events: false,
      status: 'ok',
    });
    // Only the chosen calendar blocks: Work's event, not Home's.
    expect(await busy(anna.id)).toEqual(['2026-09-03T08:00:00.000Z']);

    const shown = await admin.get(`${base()}?notice=connected`);
    expect(shown.body).toContain('The calendar is connected and read.');
    expect(shown.body).toContain(
      `anna at ${radicale.url}. 1 calendar blocks time. Bookings are written to it.`,
    );

    // Sync now reads an outside change.
    await radicale.put(work, 'w2.ics', event('w2', '20260903T140000Z'));
    const synced = await admin.post(`${base()}/sync`);
    expect(synced.headers.location).toBe(`${base()}?notice=synced`);
    expect(await busy(anna.id)).toEqual(['2026-09-03T08:00:00.000Z', '2026-09-03T14:00:00.000Z']);

    // Changing the calendars with the saved password: no password typed, none carried.
    const again = await admin.post(`${base()}/test`, { server_url: radicale.url, username: radicale.user });
    expect(again.statusCode, again.body).toBe(200);
    expect(hidden(again.body, 'sealed_password')).toBe('');
    const changed = await admin.post(base(), {
      server_url: radicale.url,
      username: radicale.user,
      sealed_password: '',
      read_calendars: [work, home],
      write_calendar: '',
    });
    expect(changed.statusCode, changed.body).toBe(303);
    expect((await t.call('GET', `/staffers/${anna.id}/calendar-connection`)).json().data).toMatchObject({
      read_calendars: [work, home],
      write_calendar: null,
      all_day_blocks: false,
    });
    expect(await busy(anna.id)).toHaveLength(3);

    const gone = await admin.post(`${base()}/disconnect`);
    expect(gone.headers.location).toBe(`${base()}?notice=disconnected`);
    expect(await busy(anna.id)).toEqual([]);
  });

  it('refuses a sealed password of another staffer’s form', async () => {
    await admin.get(base());
    const tested = await admin.post(`${base()}/test`, {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
    });
    const sealed = hidden(tested.body, 'sealed_password');
    const other = `/panel/setup/staffers/${ben.id}/calendar`;
    const refused = await admin.post(other, {
      server_url: radicale.url,
      username: radicale.user,
      sealed_password: sealed,
      read_calendars: [work],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('This form expired: enter the app password again.');
    expect((await t.call('GET', `/staffers/${ben.id}/calendar-connection`)).statusCode).toBe(404);
  });
});

describe('"Your calendar"', () => {
  it('connects the member’s own staffer, and only theirs', async () => {
    const page = await member.get('/panel/account/calendar');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Your calendar</h1>');
    expect(page.body).toContain('Events in this calendar block Anna Adler at every location');
    const tested = await member.post('/panel/account/calendar/test', {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
    });
    expect(tested.statusCode, tested.body).toBe(200);
    const connected = await member.post('/panel/account/calendar', {
      server_url: radicale.url,
      username: radicale.user,
      sealed_password: hidden(tested.body, 'sealed_password'),
      read_calendars: [home],
    });
    expect(connected.statusCode, connected.body).toBe(303);
    expect(connected.headers.location).toBe('/panel/account/calendar?notice=connected');
    expect(
      (await t.call('GET', `/staffers/${anna.id}/calendar-connection`)).json().data.read_calendars,
    ).toEqual([home]);
    expect((await t.call('GET', `/staffers/${ben.id}/calendar-connection`)).statusCode).toBe(404);
    expect((await member.post('/panel/account/calendar/disconnect')).statusCode).toBe(303);
    expect((await t.call('GET', `/staffers/${anna.id}/calendar-connection`)).statusCode).toBe(404);
  });

  it("does not let the staff role reach another staffer's calendar", async () => {
    await member.get('/panel/account/calendar');
    for (const path of ['', '/test', '/sync', '/disconnect']) {
      const response = await member.post(`/panel/setup/staffers/${ben.id}/calendar${path}`, {
        server_url: radicale.url,
        username: radicale.user,
        password: radicale.password,
      });
      expect(response.statusCode, path).toBe(403);
    }
    expect((await member.get(`/panel/setup/staffers/${ben.id}/calendar`)).statusCode).toBe(403);
    expect((await t.call('GET', `/staffers/${ben.id}/calendar-connection`)).statusCode).toBe(404);
  });

  it('says a member who is no staffer has nothing to connect, and refuses their writes', async () => {
    const page = await loner.get('/panel/account/calendar');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('You are not linked to a staffer in this workspace');
    expect(page.body).not.toContain('action="/panel/account/calendar/test"');
    const refused = await loner.post('/panel/account/calendar/test', {
      server_url: radicale.url,
      username: radicale.user,
      password: radicale.password,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('refuses a cross-site post', async () => {
    await member.get('/panel/account/calendar');
    const response = await member.post(
      '/panel/account/calendar/test',
      { server_url: radicale.url, username: radicale.user, password: radicale.password },
      { origin: 'https://evil.example' },
    );
    expect(response.statusCode).toBe(403);
  });
});
