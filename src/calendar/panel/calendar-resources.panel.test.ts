import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';
import { recordStatements } from '../../platform/db/statement-recorder.js';

/**
 * The calendar's view by resource through the real app (docs/resources.md): a column per live
 * unit of the location, each block in the column of every unit it holds, and a drop on another
 * unit's column changing the booking's unit through the booking page's "Change resources"
 * service, the database deciding.
 */

const DAY = '2026-09-10';
/** The UTC instant of a Berlin wall time on 2026-09-10 (summer time, UTC+2), by hand. */
const berlin = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return new Date(Date.UTC(2026, 8, 10, h - 2, m)).toISOString().replace('.000Z', 'Z');
};
const ALL_DAY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from: '08:00', to: '20:00' }]]),
);

let t: TestApp;
let owner: PanelClient;
let location: { id: string };
let bare: { id: string };
let anna: { id: string };
let ben: { id: string };
let massage: { id: string };
let haircut: { id: string };
const rooms: Record<string, string> = {};
let phone = 0;

async function api(method: string, path: string, body?: unknown) {
  const response = await t.call(method, path, body);
  return { status: response.statusCode, body: response.body === '' ? {} : response.json() };
}

async function book(hhmm: string, serviceId: string, stafferId: string, name: string): Promise<string> {
  const answer = await api('POST', '/bookings', {
    reserved_on: berlin(hhmm),
    location_uuid: location.id,
    service_uuid: serviceId,
    staffer_uuid: stafferId,
    customer_phone: `+491517100${String(++phone).padStart(4, '0')}`,
    customer_first_name: name,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data.uuid;
}

/** The booking as the API answers it: its start and the names of the units it holds. */
async function apiBooking(id: string): Promise<{ start: string; rooms: string[] }> {
  const answer = await api('GET', `/bookings/${id}`);
  expect(answer.status).toBe(200);
  return {
    start: answer.body.data.start_time,
    rooms: answer.body.data.resources.map((r: { name: string }) => r.name),
  };
}

const calendarUrl = (query: string) => `/panel/calendar?location=${location.id}&date=${DAY}&${query}`;

/** Each column of the grid (by its aria-label's name) with the customers of its blocks. */
function columnsOf(html: string): { name: string; unit: string | undefined; who: string[] }[] {
  return html
    .split('<section class="cal-col ')
    .slice(1)
    .map((part) => {
      const section = part.slice(0, part.indexOf('</section>'));
      return {
        name: /aria-label="([^",]+),/.exec(section)?.[1] ?? '',
        unit: /data-resource="([^"]+)"/.exec(section)?.[1],
        who: [...section.matchAll(/<span class="blk-who">([^<]+)<\/span>/g)].map((m) => m[1]!),
      };
    });
}

/** What the island posts when a block is dropped on another unit's column. */
async function drop(
  client: PanelClient,
  bookingId: string,
  from: string,
  to: string,
  at: { date: string; time: string } | undefined,
  key: string,
) {
  await client.get(calendarUrl('by=resource'));
  return client.post(`/panel/bookings/${bookingId}/unit`, {
    idempotency_key: key,
    date: at?.date ?? '',
    reserved_on: at?.time ?? '',
    from_resource: from,
    to_resource: to,
    return_to: calendarUrl('by=resource'),
  });
}

beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock('2026-09-01T08:00:00Z') });
  owner = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]),
  );
  location = await createLocation(t.db, t.workspace.id, { timezone: 'Europe/Berlin' });
  bare = await createLocation(t.db, t.workspace.id, { timezone: 'Europe/Berlin' });
  massage = await createService(t.db, t.workspace.id, [location.id], {
    name: 'Massage',
    durationMinutes: 60,
  });
  haircut = await createService(t.db, t.workspace.id, [location.id], {
    name: 'Haircut',
    durationMinutes: 60,
  });
  anna = await createStaffer(t.db, t.workspace.id, location.id, [massage.id, haircut.id], {
    firstName: 'Anna',
    lastName: 'Adler',
    weekly: ALL_DAY,
  });
  ben = await createStaffer(t.db, t.workspace.id, location.id, [massage.id, haircut.id], {
    firstName: 'Ben',
    lastName: 'Berg',
    weekly: ALL_DAY,
  });
  // Created out of order: the columns come by type, then name.
  for (const [type, name] of [
    ['room', 'Room 2'],
    ['room', 'Room 1'],
    ['chair', 'Chair A'],
  ] as const) {
    const answer = await api('POST', '/resources', { location_uuid: location.id, type, name });
    expect(answer.status).toBe(201);
    rooms[name] = answer.body.data.uuid;
  }
  expect((await api('PATCH', `/services/${massage.id}`, { resources: [{ type: 'room' }] })).status).toBe(200);
});
afterAll(() => t?.close());

describe('the calendar by resource', () => {
  let clara: string;
  let dora: string;

  it('shows a column per live unit, by type then name, each block in its unit’s column naming staffer and service', async () => {
    clara = await book('10:00', massage.id, anna.id, 'Clara');
    dora = await book('10:00', massage.id, ben.id, 'Dora');
    await book('12:00', haircut.id, anna.id, 'Emil');
    // Free rooms are taken in creation order: Clara gets Room 2 (made first), Dora Room 1.
    expect((await apiBooking(clara)).rooms).toEqual(['Room 2']);
    expect((await apiBooking(dora)).rooms).toEqual(['Room 1']);

    const page = await owner.get(calendarUrl('by=resource'));
    expect(page.statusCode).toBe(200);
    expect(columnsOf(page.body)).toEqual([
      { name: 'Chair A', unit: rooms['Chair A'], who: [] },
      { name: 'Room 1', unit: rooms['Room 1'], who: ['Dora'] },
      { name: 'Room 2', unit: rooms['Room 2'], who: ['Clara'] },
    ]);
    expect(page.body).toContain('<span class="blk-what">Anna Adler · Massage · Room 2 · ');
    expect(page.body).toContain('<span class="blk-what">Ben Berg · Massage · Room 1 · ');
    // The haircut holds no unit: not in this view, and the page says so.
    expect(page.body).not.toContain('Emil');
    expect(page.body).toContain('1 booking holds no resource, so it is not in this view.');
    // The switch, and links that keep the view.
    expect(page.body).toContain('<option value="resource" selected>By resource</option>');
    expect(page.body).toContain(`date=2026-09-11&amp;staffer=all&amp;by=resource`);
    // Each block links to its booking's page, where "Change resources" works without the script.
    expect(page.body).toContain(`href="/panel/bookings/${clara}"`);
    expect(page.body).toContain('data-by="resource"');

    // The view by staffer keeps its columns, and its blocks still name their rooms.
    const staff = await owner.get(calendarUrl('staffer=all'));
    expect(columnsOf(staff.body).map((c) => [c.name, c.who])).toEqual([
      ['Anna Adler', ['Clara', 'Emil']],
      ['Ben Berg', ['Dora']],
    ]);
    expect(staff.body).toContain('<span class="blk-what">Massage · Room 2 · ');
    expect(staff.body).not.toContain('data-by="resource"');
    expect(staff.body).not.toContain('by=resource');
  });

  it('a drop on a free unit’s column moves the booking there, once for a repeated post', async () => {
    const moved = await drop(owner, clara, rooms['Room 2']!, rooms['Chair A']!, undefined, 'key-free-1');
    expect(moved.statusCode, moved.body).toBe(303);
    expect(moved.headers.location).toContain('by=resource');
    expect(moved.headers.location).toContain('notice=moved');
    expect(await apiBooking(clara)).toEqual({ start: berlin('10:00'), rooms: ['Chair A'] });

    // The same drag's post again (a double submit) changes nothing more.
    const again = await owner.post(`/panel/bookings/${clara}/unit`, {
      idempotency_key: 'key-free-1',
      from_resource: rooms['Room 2']!,
      to_resource: rooms['Chair A']!,
      return_to: calendarUrl('by=resource'),
    });
    expect(again.statusCode).toBe(303);
    expect(again.headers['idempotent-replayed']).toBe('true');

    const page = await owner.get(calendarUrl('by=resource'));
    expect(columnsOf(page.body).map((c) => [c.name, c.who])).toEqual([
      ['Chair A', ['Clara']],
      ['Room 1', ['Dora']],
      ['Room 2', []],
    ]);
  });

  it('a drop on a taken unit answers 409 with the calendar’s refusal, and changes nothing', async () => {
    const refused = await drop(owner, clara, rooms['Chair A']!, rooms['Room 1']!, undefined, 'key-taken-1');
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('That time is not free');
    expect(await apiBooking(clara)).toEqual({ start: berlin('10:00'), rooms: ['Chair A'] });
    expect(await apiBooking(dora)).toEqual({ start: berlin('10:00'), rooms: ['Room 1'] });
  });

  it('a drop at another time moves it in time and to the unit dropped on; a unit taken then undoes both', async () => {
    const moved = await drop(
      owner,
      clara,
      rooms['Chair A']!,
      rooms['Room 2']!,
      { date: DAY, time: '14:00' },
      'key-time-1',
    );
    expect(moved.statusCode, moved.body).toBe(303);
    expect(await apiBooking(clara)).toEqual({ start: berlin('14:00'), rooms: ['Room 2'] });

    // Dora's Room 1 at 10:00 is taken by nobody else, but at 14:00 Clara holds Room 2.
    const refused = await drop(
      owner,
      dora,
      rooms['Room 1']!,
      rooms['Room 2']!,
      { date: DAY, time: '14:00' },
      'key-time-2',
    );
    expect(refused.statusCode).toBe(409);
    expect(await apiBooking(dora)).toEqual({ start: berlin('10:00'), rooms: ['Room 1'] });
    expect(await apiBooking(clara)).toEqual({ start: berlin('14:00'), rooms: ['Room 2'] });
  });

  it('a unit the booking no longer holds (a stale page) is refused with 409', async () => {
    const stale = await drop(owner, dora, rooms['Room 2']!, rooms['Chair A']!, undefined, 'key-stale-1');
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain('no longer holds that resource');
    expect((await apiBooking(dora)).rooms).toEqual(['Room 1']);
  });

  it('refuses another workspace’s booking or unit with 404, changing nothing', async () => {
    const other = await createOtherWorkspace(t.db);
    const theirLocation = await createLocation(t.db, other.workspace.id);
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/public/v2/resources',
      headers: other.headers,
      payload: { location_uuid: theirLocation.id, type: 'room', name: 'Their room' },
    });
    expect(theirs.statusCode).toBe(201);
    const theirRoom = theirs.json().data.uuid as string;
    const toTheirs = await drop(owner, dora, rooms['Room 1']!, theirRoom, undefined, 'key-other-1');
    expect(toTheirs.statusCode).toBe(404);
    expect((await apiBooking(dora)).rooms).toEqual(['Room 1']);

    // Their owner, dropping our booking: unknown to them.
    const stranger = await PanelClient.signedIn(
      t.app,
      t.db,
      await makeUser(t.db, [{ workspaceId: other.workspace.id, role: 'owner' }]),
    );
    await stranger.get('/panel/calendar');
    const ours = await stranger.post(`/panel/bookings/${dora}/unit`, {
      from_resource: rooms['Room 1']!,
      to_resource: rooms['Chair A']!,
    });
    expect(ours.statusCode).toBe(404);
    expect((await apiBooking(dora)).rooms).toEqual(['Room 1']);
    // Nor do they see our units as columns.
    const theirView = await stranger.get(`/panel/calendar?location=${location.id}&by=resource`);
    expect(theirView.statusCode).toBe(404);
  });

  it('a staff member sees it as the calendar by staffer: their own bookings, everyone’s on asking', async () => {
    const user = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
    await owner.get('/panel/settings/notifications');
    const linked = await owner.post(`/panel/settings/notifications/staffers/${ben.id}`, {
      user_id: user.id,
      email: '',
      booking_emails: ['new'],
    });
    expect(linked.statusCode).toBe(303);
    const staff = await PanelClient.signedIn(t.app, t.db, user);
    const own = await staff.get(calendarUrl('by=resource'));
    expect(own.statusCode).toBe(200);
    expect(columnsOf(own.body).flatMap((c) => c.who)).toEqual(['Dora']);
    const all = await staff.get(calendarUrl('by=resource&staffer=all'));
    expect(
      columnsOf(all.body)
        .flatMap((c) => c.who)
        .sort(),
    ).toEqual(['Clara', 'Dora']);
  });

  it('a location without units says so and links to Setup → Resources; a bad value is a 400 page', async () => {
    const page = await owner.get(`/panel/calendar?location=${bare.id}&date=${DAY}&by=resource`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('This location has no resources (rooms, chairs, equipment) yet.');
    expect(page.body).toContain('href="/panel/setup/resources"');
    expect(page.body).not.toContain('<section class="cal-col ');
    expect((await owner.get(calendarUrl('by=room'))).statusCode).toBe(400);
    // The view by resource is a day's: asking for its week shows the day.
    const week = await owner.get(calendarUrl('by=resource&view=week'));
    expect(week.statusCode).toBe(200);
    expect(columnsOf(week.body)).toHaveLength(3);
  });

  it('reads in Arabic, right to left', async () => {
    const user = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]);
    const arabic = await PanelClient.signedIn(t.app, t.db, user);
    await arabic.submit('/panel/account/password', { language: 'ar' }, '/panel/account/language');
    const page = await arabic.get(calendarUrl('by=resource'));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('dir="rtl"');
    expect(page.body).toContain('حسب المورد');
    expect(page.body).toContain('حجز واحد لا يشغل أي مورد');
  });

  it('many drops onto one free unit at once: the database lets exactly one in', async () => {
    const spa = await createLocation(t.db, t.workspace.id, { timezone: 'Europe/Berlin' });
    const ws = t.workspace.id;
    const sauna = await createService(t.db, ws, [spa.id], { name: 'Sauna', durationMinutes: 60 });
    const units: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const answer = await api('POST', '/resources', {
        location_uuid: spa.id,
        type: 'cabin',
        name: `Cabin ${i}`,
      });
      units.push(answer.body.data.uuid);
    }
    expect((await api('PATCH', `/services/${sauna.id}`, { resources: [{ type: 'cabin' }] })).status).toBe(
      200,
    );
    const bookings: string[] = [];
    for (let i = 0; i < 6; i++) {
      const staffer = await createStaffer(t.db, ws, spa.id, [sauna.id], {
        firstName: `S${i}`,
        weekly: ALL_DAY,
      });
      const answer = await api('POST', '/bookings', {
        reserved_on: berlin('10:00'),
        location_uuid: spa.id,
        service_uuid: sauna.id,
        staffer_uuid: staffer.id,
        customer_phone: `+491517200${String(i).padStart(4, '0')}`,
      });
      expect(answer.status).toBe(201);
      bookings.push(answer.body.data.uuid);
    }
    // Cabins 1-6 are taken in creation order; Cabin 7 is free, and all six are dropped on it.
    await owner.get(`/panel/calendar?location=${spa.id}&date=${DAY}&by=resource`);
    const answers = await Promise.all(
      bookings.map((id, i) =>
        owner.post(`/panel/bookings/${id}/unit`, {
          idempotency_key: `key-race-${i}`,
          from_resource: units[i]!,
          to_resource: units[6]!,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([303, 409, 409, 409, 409, 409]);
    const held = await Promise.all(bookings.map(async (id) => (await apiBooking(id)).rooms));
    expect(held.filter((rooms) => rooms[0] === 'Cabin 7')).toHaveLength(1);
    const winner = answers.findIndex((a) => a.statusCode === 303);
    expect(held).toEqual(held.map((_, i) => [i === winner ? 'Cabin 7' : `Cabin ${i + 1}`]));
  });

  it('reads its blocks in one statement, and its columns in one more', async () => {
    // A write first: the bookings read is not served from the calendar's cache.
    await api('PATCH', `/services/${haircut.id}`, { name: 'Haircut' });
    const statements: string[] = [];
    const stop = recordStatements((statement) => statements.push(statement.sql));
    try {
      const page = await owner.get(calendarUrl('by=resource'));
      expect(page.statusCode).toBe(200);
    } finally {
      stop();
    }
    const reading = (pattern: RegExp) => statements.filter((sql) => pattern.test(sql));
    expect(reading(/from "?bookings"? b\b/i)).toHaveLength(1);
    expect(reading(/resource_occupancies/)).toHaveLength(1);
    expect(reading(/from "resources"/)).toHaveLength(1);
  });
});
