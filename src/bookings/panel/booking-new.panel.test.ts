import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  type Json,
  openStudio,
  type Studio,
  setWorkspace,
} from '../../../test/bookings/bookings-kit.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';

let s: Studio;
let staff: PanelClient;
beforeAll(async () => {
  s = await openStudio();
  staff = await PanelClient.signedIn(
    s.t.app,
    s.t.db,
    await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]),
  );
});
afterAll(() => s.t.close());

const NEW = '/panel/bookings/new';
const apiBooking = async (id: string): Promise<Json> =>
  (await s.t.call('GET', `/bookings/${id}`)).json().data;
const bookingsOn = async (day: string): Promise<Json[]> =>
  (
    await s.t.call(
      'GET',
      `/bookings?reserved_on_from=${at(day, '00:00')}&reserved_on_to=${at(day, '23:59')}&per_page=100`,
    )
  ).json().data;
const idOf = (location: string | undefined) =>
  /\/panel\/bookings\/([0-9a-f-]{36})\?notice=created$/.exec(location ?? '')?.[1];
const timesIn = (html: string) =>
  [
    ...(/<select id="f-reserved_on"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? '').matchAll(
      /<option value="([^"]+)"/g,
    ),
  ].map((m) => m[1]);

function form(day: string, overrides: Record<string, string | string[]> = {}) {
  return {
    location_uuid: s.f.location.id,
    service_uuid: [s.f.haircut.id],
    staffer_uuid: s.f.anna.id,
    date: day,
    reserved_on: '10:00',
    customer_phone: '+49 151 2000 0001',
    customer_first_name: 'Grace',
    customer_last_name: 'Hopper',
    customer_email: '',
    booking_comment: '',
    ...overrides,
  };
}

describe('New booking', () => {
  it('books a rental with no staffer chosen, though the workspace requires one for other services', async () => {
    const weekly = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from: '08:00', to: '20:00' }]]),
    );
    await s.t.db
      .updateTable('locations')
      .set({ opening_hours: JSON.stringify(weekly) })
      .where('id', '=', s.f.location.id)
      .execute();
    const unit = await s.t.call('POST', '/resources', {
      location_uuid: s.f.location.id,
      type: 'court',
      name: 'Court A',
    });
    expect(unit.statusCode, unit.body).toBe(201);
    const rental = await s.t.call('POST', '/services', {
      name: 'Court hour',
      duration_minutes: 60,
      location_uuids: [s.f.location.id],
      staffer_needed: false,
      resources: [{ type: 'court' }],
    });
    expect(rental.statusCode, rental.body).toBe(201);
    const day = s.nextDay();
    await staff.get(NEW);
    const created = await staff.post(
      '/panel/bookings',
      form(day, {
        service_uuid: [rental.json().data.uuid],
        staffer_uuid: '',
        customer_phone: '+49 151 2000 0077',
      }),
    );
    expect(created.statusCode, created.body).toBe(303);
    const json = await apiBooking(idOf(created.headers.location)!);
    expect(json).toMatchObject({
      start_time: at(day, '10:00'),
      staffer: null,
      resources: [{ name: 'Court A' }],
    });
    // The booking's page reads it without a staffer.
    const page = await staff.get(`/panel/bookings/${json.uuid}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Court A');
  });

  it('is prefilled from the calendar’s link and lists the real free times on “Show free times”', async () => {
    const day = s.nextDay();
    await book(s.t, bookingBody(s.f, at(day, '11:00'), { customer_phone: '+4915100000021' }));
    const linked = await staff.get(
      `${NEW}?location_uuid=${s.f.location.id}&date=${day}&reserved_on=10:00&staffer_uuid=${s.f.anna.id}`,
    );
    expect(linked.statusCode).toBe(200);
    expect(linked.body).toContain(`<option value="${s.f.anna.id}" selected>`);
    expect(linked.body).toContain(`name="date" type="date" value="${day}"`);
    // Before the services are chosen, the linked time is offered as it is.
    expect(timesIn(linked.body)).toEqual(['10:00']);

    const shown = await staff.post('/panel/bookings', { ...form(day), show: 'times' });
    expect(shown.statusCode).toBe(200);
    const times = timesIn(shown.body);
    // Anna works 09:00-17:00 and is booked 11:00-12:00: a 60-minute Haircut fits 09:00-10:00 and
    // 12:00-16:00 on the 15-minute grid, exactly what GET time-slots says for her.
    const api = await s.t.call(
      'GET',
      `/locations/${s.f.location.id}/time-slots?service_uuid=${s.f.haircut.id}&staffer_uuid=${s.f.anna.id}&range_start=${day}&range_end=${day}`,
    );
    expect(times).toEqual(api.json().dates[0].slots.map((slot: Json) => slot.start));
    expect(times).toContain('10:00');
    expect(times).not.toContain('10:15');
    expect(times).not.toContain('11:00');
    // Nothing was written by asking.
    expect(await bookingsOn(day)).toHaveLength(1);
  });

  it('creates the booking as POST /bookings does, with the panel user in its history', async () => {
    const day = s.nextDay();
    await staff.get(NEW);
    const created = await staff.post('/panel/bookings', form(day, { booking_comment: 'Window seat' }));
    expect(created.statusCode, created.body).toBe(303);
    const id = idOf(created.headers.location);
    expect(id).toBeDefined();
    const json = await apiBooking(id!);
    expect(json).toMatchObject({
      start_time: at(day, '10:00'),
      staffer: { uuid: s.f.anna.id },
      customer: { phone: '+4915120000001', first_name: 'Grace', last_name: 'Hopper' },
      ordered_services: [{ service_uuid: s.f.haircut.id }],
      public_notes: 'Window seat',
      source: 'panel',
    });
    const history = (await s.t.call('GET', `/bookings/${id}/history`)).json().data;
    expect(history).toEqual([
      expect.objectContaining({ action: 'created', actor: expect.objectContaining({ type: 'user' }) }),
    ]);
    const page = await staff.get(created.headers.location!);
    expect(page.body).toContain('The booking is made.');
  });

  it('books several services as one booking, and any free staffer when automatic', async () => {
    await setWorkspace(s.t, { staffer_selection: 'automatic' });
    try {
      const day = s.nextDay();
      const page = await staff.get(`${NEW}?location_uuid=${s.f.location.id}&date=${day}`);
      expect(page.body).toMatch(/<option value(="")? selected>Automatic \(any free staffer\)<\/option>/);
      const created = await staff.post(
        '/panel/bookings',
        form(day, { service_uuid: [s.f.haircut.id, s.f.color.id], staffer_uuid: '', reserved_on: '13:00' }),
      );
      expect(created.statusCode, created.body).toBe(303);
      const json = await apiBooking(idOf(created.headers.location)!);
      expect(json.ordered_services.map((line: Json) => line.service_uuid)).toEqual([
        s.f.haircut.id,
        s.f.color.id,
      ]);
      expect(json.duration.value).toBe(90);
      expect([s.f.anna.id, s.f.ben.id]).toContain(json.staffer.uuid);
    } finally {
      await setWorkspace(s.t, { staffer_selection: 'required' });
    }
  });

  it('finds a customer by name or phone, and the choice fills phone and name', async () => {
    const day = s.nextDay();
    await book(
      s.t,
      bookingBody(s.f, at(day, '09:00'), {
        customer_phone: '+4915177700001',
        customer_first_name: 'Ada',
        customer_last_name: 'Lovelace',
      }),
    );
    for (const query of ['lovelace', 'Ada Love', '0151 777 00001']) {
      const found = await staff.get(`${NEW}?customer_q=${encodeURIComponent(query)}&date=${day}`);
      expect(found.statusCode).toBe(200);
      expect(found.body, query).toContain('Ada Lovelace · +4915177700001');
    }
    const link = /<a href="([^"]+)">Ada Lovelace · \+4915177700001<\/a>/
      .exec((await staff.get(`${NEW}?customer_q=lovelace&date=${day}`)).body)![1]!
      .replaceAll('&amp;', '&');
    const filled = await staff.get(link);
    expect(filled.body).toContain('name="customer_phone" type="tel" value="+4915177700001"');
    expect(filled.body).toContain('name="customer_first_name" type="text" value="Ada"');
    expect(filled.body).toContain(`name="date" type="date" value="${day}"`);
    const none = await staff.get(`${NEW}?customer_q=nobody-like-this`);
    expect(none.body).toContain('No customer matches.');
    // LIKE's own characters are taken literally.
    expect((await staff.get(`${NEW}?customer_q=%25`)).body).toContain('No customer matches.');
  });

  it('a time taken meanwhile is a 409 with the nearest free times, one click books one; nothing else is written', async () => {
    const day = s.nextDay();
    await staff.post('/panel/bookings', { ...form(day), show: 'times' });
    // Taken through the API between showing the times and pressing Create.
    await book(s.t, bookingBody(s.f, at(day, '10:00'), { customer_phone: '+4915100000022' }));
    const phone = '+49 151 2000 0099';
    const conflict = await staff.post('/panel/bookings', form(day, { customer_phone: phone }));
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toContain('That time was just taken');
    const box = /<div class="errors-summary conflict"[\s\S]*?<\/div><\/div>/.exec(conflict.body)?.[0] ?? '';
    const offered = [...box.matchAll(/<input type="hidden" name="reserved_on" value="([^"]+)"\/>/g)].map(
      (m) => m[1],
    );
    expect(offered).toEqual(['09:00', '11:00', '11:15', '11:30', '11:45', '12:00']);
    expect(await bookingsOn(day)).toHaveLength(1);
    const customers = (
      await s.t.call('GET', `/customers?phone=${encodeURIComponent('+4915120000099')}`)
    ).json();
    expect(customers.data).toEqual([]);
    // What was typed is kept.
    expect(conflict.body).toContain('name="customer_first_name" type="text" value="Grace"');
    const picked = await staff.post(
      '/panel/bookings',
      form(day, { customer_phone: phone, reserved_on: '11:00' }),
    );
    expect(picked.statusCode, picked.body).toBe(303);
    expect((await apiBooking(idOf(picked.headers.location)!)).start_time).toBe(at(day, '11:00'));
  });

  it('keeps to the workspace’s booking form: a required email missing is a 422 next to it', async () => {
    await setWorkspace(s.t, { booking_form: { customer_email: 'required' } });
    try {
      const day = s.nextDay();
      await staff.get(NEW);
      const refused = await staff.post('/panel/bookings', form(day, { customer_phone: '12' }));
      expect(refused.statusCode).toBe(422);
      expect(refused.body).toContain('id="f-customer_email-error">This field is required.');
      expect(refused.body).toContain('id="f-customer_phone-error"');
      expect(refused.body).toContain('name="customer_last_name" type="text" value="Hopper"');
      expect(refused.body).toContain('Email (required)');
      expect(await bookingsOn(day)).toHaveLength(0);
    } finally {
      await setWorkspace(s.t, { booking_form: { customer_email: 'optional' } });
    }
  });

  it('bad input is a 422 next to its field, a missing token a 403, never a 500', async () => {
    const day = s.nextDay();
    await staff.get(NEW);
    const cases: [Record<string, string | string[]>, string][] = [
      [{ date: '2026-13-01' }, 'date'],
      [{ reserved_on: '9 o’clock' }, 'reserved_on'],
      [{ reserved_on: '' }, 'reserved_on'],
      [{ service_uuid: [] }, 'service_uuid'],
      [{ service_uuid: ['nope', s.f.color.id] }, 'service_uuid'],
      [{ staffer_uuid: 'nope' }, 'staffer_uuid'],
      [{ location_uuid: 'nope' }, 'location_uuid'],
      [{ location_uuid: randomUUID() }, 'location_uuid'],
    ];
    for (const [overrides, field] of cases) {
      const response = await staff.post('/panel/bookings', form(day, overrides));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(422);
      expect(response.body, JSON.stringify(overrides)).toContain(`id="f-${field}-error"`);
    }
    const refused = await staff.post('/panel/bookings', form(day), { csrf: null });
    expect(refused.statusCode).toBe(403);
    expect(await bookingsOn(day)).toHaveLength(0);
  });
});
