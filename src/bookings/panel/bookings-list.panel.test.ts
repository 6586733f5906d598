import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  callAs,
  change,
  type Json,
  openStudio,
  type Studio,
  statusOfType,
} from '../../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../../test/helpers/build-test-app.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';

// The studio's clock reads 2026-09-01 10:00 in Berlin: the list shows 2026-09-01 .. 2026-09-08 by default.
let s: Studio;
let staff: PanelClient;
let mariaCut: Json; // Wed 2 Sep 10:00 Berlin, Anna
let jonasColor: Json; // Thu 3 Sep 11:00 Berlin, Ben, completed
let mariaLater: Json; // Sat 12 Sep 10:00 Berlin, past the default range
let nightInNewYork: Json; // Fri 4 Sep 23:30 New York = Sat 5 Sep 03:30 UTC
let newYork: { id: string };
let theirs: Json;

const WHOLE_DAY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [{ from: '00:00', to: '24:00' }]]),
);

beforeAll(async () => {
  s = await openStudio();
  const { t, f } = s;
  staff = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]),
  );
  const maria = {
    customer_phone: '+4915123456789',
    customer_first_name: 'Maria',
    customer_last_name: 'Schulz',
  };
  mariaCut = await book(t, bookingBody(f, at('2026-09-02', '10:00'), maria));
  jonasColor = await book(
    t,
    bookingBody(f, at('2026-09-03', '11:00'), {
      customer_phone: '+436601112223',
      customer_first_name: 'Jonas',
      staffer_uuid: f.ben.id,
      service_uuid: f.color.id,
    }),
  );
  mariaLater = await book(t, bookingBody(f, at('2026-09-12', '10:00'), maria));
  newYork = await createLocation(t.db, t.workspace.id, { name: 'Manhattan', timezone: 'America/New_York' });
  const nyService = await createService(t.db, t.workspace.id, [newYork.id], {
    name: 'Late shave',
    durationMinutes: 30,
  });
  const nyStaffer = await createStaffer(t.db, t.workspace.id, newYork.id, [nyService.id], {
    firstName: 'Nina',
    weekly: WHOLE_DAY,
  });
  nightInNewYork = await book(t, {
    reserved_on: '2026-09-05T03:30:00Z',
    location_uuid: newYork.id,
    service_uuid: nyService.id,
    staffer_uuid: nyStaffer.id,
    customer_phone: '+12125550123',
    customer_first_name: 'Sam',
  });
  await change(t, 'PUT', `/bookings/${jonasColor.uuid}/status/complete`, {
    account_uuid: f.cash.id,
    paid_amount: 5000,
  });

  // Another workspace's booking, for the same phone as Maria's.
  const other = await createOtherWorkspace(t.db);
  const location = await createLocation(t.db, other.workspace.id);
  const service = await createService(t.db, other.workspace.id, [location.id]);
  const staffer = await createStaffer(t.db, other.workspace.id, location.id, [service.id]);
  const response = await callAs(t, other.headers, 'POST', '/bookings', {
    reserved_on: at('2026-09-02', '12:00'),
    location_uuid: location.id,
    service_uuid: service.id,
    staffer_uuid: staffer.id,
    customer_phone: '+4915123456789',
  });
  expect(response.statusCode, response.body).toBe(201);
  theirs = response.json().data;
});
afterAll(() => s.t.close());

const rows = async (query = '') => {
  const response = await staff.get(`/panel/bookings${query}`);
  expect(response.statusCode, response.body.slice(-2000)).toBe(200);
  return [...response.body.matchAll(/<a href="\/panel\/bookings\/([0-9a-f-]{36})">/g)].map((m) => m[1]);
};

describe('Bookings list', () => {
  it('shows today and the next 7 days by default, in each location’s time, linking each booking', async () => {
    const page = await staff.get('/panel/bookings');
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/name="from" type="date" value="2026-09-01"/);
    expect(page.body).toMatch(/name="to" type="date" value="2026-09-08"/);
    expect(await rows()).toEqual([mariaCut.uuid, jonasColor.uuid, nightInNewYork.uuid]);
    expect(page.body).toContain(
      `<a href="/panel/bookings/${mariaCut.uuid}">Wed 2026-09-02 10:00–11:00</a> <span class="muted">GMT+2</span>`,
    );
    expect(page.body).toContain(
      `<a href="/panel/bookings/${nightInNewYork.uuid}">Fri 2026-09-04 23:30–24:00</a>`,
    );
    expect(page.body).not.toContain(theirs.uuid);
  });

  it('narrows the rows by each filter', async () => {
    const completed = await statusOfType(s.t, 'completed');
    expect(await rows('?status=type:completed')).toEqual([jonasColor.uuid]);
    expect(await rows(`?status=status:${completed.uuid}`)).toEqual([jonasColor.uuid]);
    expect(await rows('?status=type:new')).toEqual([mariaCut.uuid, nightInNewYork.uuid]);
    expect(await rows(`?staffer=${s.f.ben.id}`)).toEqual([jonasColor.uuid]);
    expect(await rows(`?location=${newYork.id}`)).toEqual([nightInNewYork.uuid]);
    expect(await rows('?customer=schulz')).toEqual([mariaCut.uuid]);
    expect(await rows(`?customer=${encodeURIComponent('0151 2345-6789')}`)).toEqual([mariaCut.uuid]);
    expect(await rows(`?customer=${jonasColor.customer.uuid}`)).toEqual([jonasColor.uuid]);
    // Another workspace's customer names nothing here.
    expect(await rows(`?customer=${theirs.customer.uuid}`)).toEqual([]);
    expect(await rows('?from=2026-09-12&to=2026-09-12')).toEqual([mariaLater.uuid]);
    expect(await rows('?customer=maria&from=2026-09-01&to=2026-09-30')).toEqual([
      mariaCut.uuid,
      mariaLater.uuid,
    ]);
    // Dates are local: the New York night is on the 4th there, though the 5th in UTC.
    expect(await rows('?from=2026-09-05&to=2026-09-05')).toEqual([]);
    expect(await rows('?from=2026-09-04&to=2026-09-04')).toEqual([nightInNewYork.uuid]);
    // Filters combine.
    expect(await rows(`?status=type:completed&staffer=${s.f.anna.id}`)).toEqual([]);
    const kept = await staff.get(`/panel/bookings?staffer=${s.f.ben.id}&customer=jonas`);
    expect(kept.body).toContain(`<option value="${s.f.ben.id}" selected>`);
    expect(kept.body).toMatch(/name="customer" type="search" value="jonas"/);
  });

  it('answers 422 with the error next to the filter for bad input, never 500', async () => {
    for (const [query, field] of [
      ['?from=2026-02-30', 'from'],
      ['?from=2026-09-10&to=2026-09-01', 'to'],
      ['?from=2026-01-01&to=2027-12-31', 'to'],
      ['?status=type:bogus', 'status'],
      ['?status=status:123', 'status'],
      ['?staffer=anna', 'staffer'],
      ['?location=%3Cb%3E', 'location'],
    ] as const) {
      const response = await staff.get(`/panel/bookings${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(response.body, query).toContain(`id="f-${field}-error"`);
      expect(response.body).not.toContain('href="/panel/bookings/');
    }
    expect((await staff.get('/panel/bookings?page=9999')).statusCode).toBe(200);
    expect((await staff.get('/panel/bookings?customer=%25%25')).statusCode).toBe(200);
  });

  it('is open to every role and closed without a session', async () => {
    const admin = await PanelClient.signedIn(
      s.t.app,
      s.t.db,
      await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'admin' }]),
    );
    expect((await admin.get('/panel/bookings')).statusCode).toBe(200);
    expect((await staff.get('/panel/customers')).statusCode).toBe(200);
    const anonymous = await s.t.app.inject({ method: 'GET', url: '/panel/bookings' });
    expect(anonymous.statusCode).toBe(303);
  });
});
