import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  duration,
  eur,
  expect422,
  type Json,
  openStudio,
  outboxOf,
  plusMinutes,
  type Studio,
} from '../bookings/bookings-kit.js';
import { createLocation, createService } from '../helpers/factories.js';

// The routes integrations of the real service call, in process.
let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

const bookingCount = async () => (await s.t.call('GET', '/bookings?per_page=1')).json().meta.total as number;

describe('POST /bookings/{uuid}/set-booking-cancel', () => {
  it('cancels as PUT .../status/cancel does, with its reason and its one event', async () => {
    const booking = await book(s.t, bookingBody(s.f, at(s.nextDay(), '10:00')));
    const response = await s.t.call('POST', `/bookings/${booking.uuid}/set-booking-cancel`, {
      cancel_reason: 'spam',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      uuid: booking.uuid,
      is_canceled: true,
      cancel_reason: 'spam',
    });
    expect((await outboxOf(s.t, booking.uuid)).map((e) => e.type)).toEqual([
      'booking-created',
      'booking-canceled',
    ]);
  });

  it('takes the reason from the query, and answers 404 for an unknown booking', async () => {
    const booking = await book(s.t, bookingBody(s.f, at(s.nextDay(), '10:00')));
    const response = await s.t.call(
      'POST',
      `/bookings/${booking.uuid}/set-booking-cancel?cancel_reason=didnt_come`,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.cancel_reason).toBe('didnt_come');
    expect((await s.t.call('POST', `/bookings/${randomUUID()}/set-booking-cancel`)).statusCode).toBe(404);
  });
});

describe('POST /customers', () => {
  it('creates (201), then finds the same customer by phone in another notation (200)', async () => {
    const created = await s.t.call('POST', '/customers', { phone: '+49 151 7000 0001', first_name: 'Lena' });
    expect(created.statusCode, created.body).toBe(201);
    const customer = created.json().data;
    expect(customer).toMatchObject({ phone: '+4915170000001', first_name: 'Lena', last_name: '', email: '' });
    const found = await s.t.call('POST', '/customers', {
      phone: '004915170000001',
      first_name: 'Other',
      last_name: 'Schmidt',
      email: 'lena@example.com',
    });
    expect(found.statusCode, found.body).toBe(200);
    // Empty fields are filled; what the customer had stays.
    expect(found.json().data).toMatchObject({
      uuid: customer.uuid,
      first_name: 'Lena',
      last_name: 'Schmidt',
      email: 'lena@example.com',
    });
  });

  it('replays its own status under an Idempotency-Key: a create repeats as 201, a find as 200', async () => {
    const key = { 'idempotency-key': randomUUID() };
    const body = { phone: '+4915170000090', first_name: 'Jonas' };
    const created = await s.t.call('POST', '/customers', body, key);
    expect(created.statusCode, created.body).toBe(201);
    const replayed = await s.t.call('POST', '/customers', body, key);
    expect(replayed.statusCode).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(created.body);
    const findKey = { 'idempotency-key': randomUUID() };
    const found = await s.t.call('POST', '/customers', body, findKey);
    expect(found.statusCode, found.body).toBe(200);
    const foundAgain = await s.t.call('POST', '/customers', body, findKey);
    expect([foundAgain.statusCode, foundAgain.headers['idempotent-replayed']]).toEqual([200, 'true']);
  });

  it('answers 422 naming phone and email', async () => {
    const response = await s.t.call('POST', '/customers', { phone: '12', email: 'no-at' });
    expect(Object.keys(expect422(response, ['phone', 'email']).errors)).toHaveLength(2);
    expect422(await s.t.call('POST', '/customers', {}), ['phone']);
  });
});

describe('fields read outside the envelope', () => {
  it('a created booking answers its uuid beside data, also when replayed', async () => {
    const body = bookingBody(s.f, at(s.nextDay(), '10:00'), { customer_phone: '+4915170000021' });
    const headers = { 'idempotency-key': `outside-${randomUUID()}` };
    const created = await s.t.call('POST', '/bookings', body, headers);
    expect(created.statusCode, created.body).toBe(201);
    const answer = created.json();
    expect(answer.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.uuid).toBe(answer.data.uuid);
    const replayed = await s.t.call('POST', '/bookings', body, headers);
    expect(replayed.json().uuid).toBe(answer.uuid);
    // Only the create: a read keeps the plain envelope.
    expect(Object.keys((await s.t.call('GET', `/bookings/${answer.uuid}`)).json())).toEqual(['data']);
  });

  it('GET and PATCH /workspace answer country_iso and contacts beside data', async () => {
    const patched = await s.t.call('PATCH', '/workspace', {
      country_iso: 'AT',
      contacts: { phone: '+43123456789', email: 'hallo@example.at' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      country_iso: 'AT',
      contacts: { phone: '+43123456789', email: 'hallo@example.at' },
      data: { country_iso: 'AT', contacts: { phone: '+43123456789', email: 'hallo@example.at' } },
    });
    const read = (await s.t.call('GET', '/workspace')).json();
    expect([read.country_iso, read.contacts]).toEqual([read.data.country_iso, read.data.contacts]);
    expect(read.country_iso).toBe('AT');
  });
});

describe('POST /bookings/cart', () => {
  it('books an item of two services as one booking: durations add up, lines follow each other', async () => {
    const start = at(s.nextDay(), '10:00');
    const response = await s.t.call('POST', '/bookings/cart', {
      location_uuid: s.f.location.id,
      customer_phone: '+4915170000002',
      customer_first_name: 'Cart',
      items: [
        { reserved_on: start, service_uuids: [s.f.haircut.id, s.f.color.id], staffer_uuid: s.f.anna.id },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const [booking, ...rest] = response.json().data as Json[];
    expect(rest).toEqual([]);
    expect(booking).toMatchObject({
      start_time: start,
      end_time: plusMinutes(start, 90),
      duration: duration(90),
      customer: { phone: '+4915170000002', first_name: 'Cart' },
      order: { subtotal: 14000, total: 14000, total_formatted: eur(14000) },
    });
    expect(
      booking.ordered_services.map((line: Json) => [
        line.service_uuid,
        line.reserved_on,
        line.reserved_until,
      ]),
    ).toEqual([
      [s.f.haircut.id, start, plusMinutes(start, 60)],
      [s.f.color.id, plusMinutes(start, 60), plusMinutes(start, 90)],
    ]);
  });

  it('books several items, each a booking; `services: [{uuid}]` works like service_uuids', async () => {
    const day = s.nextDay();
    const response = await s.t.call('POST', '/bookings/cart', {
      location_uuid: s.f.location.id,
      customer_phone: '+4915170000003',
      items: [
        { reserved_on: at(day, '10:00'), services: [{ uuid: s.f.color.id }], staffer_uuid: s.f.anna.id },
        { reserved_on: at(day, '12:00'), service_uuids: [s.f.haircut.id], staffer_uuid: s.f.ben.id },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const bookings = response.json().data as Json[];
    expect(bookings.map((b) => [b.start_time, b.staffer.uuid, b.ordered_services.length])).toEqual([
      [at(day, '10:00'), s.f.anna.id, 1],
      [at(day, '12:00'), s.f.ben.id, 1],
    ]);
    expect(bookings[0].customer.uuid).toBe(bookings[1].customer.uuid);
  });

  it('reads the item shape real clients send: {datetime_start, services: [{service_uuid, staffer_uuid}]}', async () => {
    const start = at(s.nextDay(), '10:00');
    const response = await s.t.call('POST', '/bookings/cart', {
      location_uuid: s.f.location.id,
      customer_phone: '+4915170000014',
      items: [
        {
          datetime_start: start,
          services: [
            { service_uuid: s.f.haircut.id, staffer_uuid: s.f.ben.id },
            { service_uuid: s.f.color.id, staffer_uuid: s.f.ben.id },
          ],
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const [booking] = response.json().data as Json[];
    expect(booking).toMatchObject({
      start_time: start,
      end_time: plusMinutes(start, 90),
      staffer: { uuid: s.f.ben.id },
    });
    expect(booking.ordered_services.map((line: Json) => line.service_uuid)).toEqual([
      s.f.haircut.id,
      s.f.color.id,
    ]);
  });

  it('refuses an item whose services name two staffers, or that has no start, naming the field', async () => {
    const start = at(s.nextDay(), '10:00');
    const before = await bookingCount();
    const twoStaffers = await s.t.call('POST', '/bookings/cart', {
      location_uuid: s.f.location.id,
      customer_phone: '+4915170000015',
      items: [
        {
          datetime_start: start,
          services: [
            { service_uuid: s.f.haircut.id, staffer_uuid: s.f.ben.id },
            { service_uuid: s.f.color.id, staffer_uuid: s.f.anna.id },
          ],
        },
      ],
    });
    expect422(twoStaffers, ['items.0.services']);
    const noStart = await s.t.call('POST', '/bookings/cart', {
      location_uuid: s.f.location.id,
      customer_phone: '+4915170000015',
      items: [{ services: [{ service_uuid: s.f.haircut.id, staffer_uuid: s.f.ben.id }] }],
    });
    expect422(noStart, ['items.0.reserved_on']);
    expect(await bookingCount()).toBe(before);
  });

  it('refuses the whole cart when one item is refused, naming the item; nothing is left behind', async () => {
    const day = s.nextDay();
    await book(
      s.t,
      bookingBody(s.f, at(day, '12:00'), { staffer_uuid: s.f.ben.id, customer_phone: '+4915170000009' }),
    );
    const before = await bookingCount();
    const taken = await s.t.call('POST', '/bookings/cart', {
      location_uuid: s.f.location.id,
      customer_phone: '+4915170000004',
      items: [
        { reserved_on: at(day, '10:00'), service_uuids: [s.f.color.id], staffer_uuid: s.f.anna.id },
        { reserved_on: at(day, '12:00'), service_uuids: [s.f.haircut.id], staffer_uuid: s.f.ben.id },
      ],
    });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json().code).toBe('slot_unavailable');
    expect(await bookingCount()).toBe(before);
    const customers = await s.t.call('GET', '/customers?phone=%2B4915170000004');
    expect(customers.json().meta.total).toBe(0);

    const unknown = await s.t.call('POST', '/bookings/cart', {
      location_uuid: s.f.location.id,
      customer_phone: '+4915170000004',
      items: [
        { reserved_on: at(day, '14:00'), service_uuids: [s.f.color.id], staffer_uuid: s.f.anna.id },
        {
          reserved_on: at(day, '15:00'),
          service_uuids: [s.f.color.id, randomUUID()],
          staffer_uuid: s.f.anna.id,
        },
      ],
    });
    expect422(unknown, ['items.1.service_uuids.1']);
    expect422(
      await s.t.call('POST', '/bookings/cart', {
        location_uuid: s.f.location.id,
        customer_phone: '+4915170000004',
        items: [{ reserved_on: at(day, '14:00') }],
      }),
      ['items.0.service_uuids'],
    );
    expect(await bookingCount()).toBe(before);
  });
});

describe('GET /locations/{uuid}/service-categories', () => {
  it('lists the categories of the services offered there, by order, paginated', async () => {
    const ws = s.t.workspace.id;
    const category = async (name: string, position: number) =>
      (
        await s.t.db
          .insertInto('service_categories')
          .values({ workspace_id: ws, name, position })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const [hair, nails, spa] = [
      await category('Hair', 2),
      await category('Nails', 1),
      await category('Spa', 0),
    ];
    const elsewhere = await createLocation(s.t.db, ws, { timezone: 'Europe/Berlin' });
    const setCategory = (serviceId: string, categoryId: string) =>
      s.t.db.updateTable('services').set({ category_id: categoryId }).where('id', '=', serviceId).execute();
    await setCategory(s.f.haircut.id, hair);
    await setCategory(s.f.color.id, nails);
    // Spa is used only by a service of another location.
    await setCategory((await createService(s.t.db, ws, [elsewhere.id], { name: 'Sauna' })).id, spa);

    const response = await s.t.call('GET', `/locations/${s.f.location.id}/service-categories`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      data: [
        { uuid: nails, name: 'Nails', order: 1 },
        { uuid: hair, name: 'Hair', order: 2 },
      ],
      meta: { current_page: 1, last_page: 1, total: 2 },
    });
    expect((await s.t.call('GET', `/locations/${randomUUID()}/service-categories`)).statusCode).toBe(404);
  });
});

describe('GET /orders and GET /orders/{uuid}', () => {
  it("answers each booking's order with its booking uuid, filtered by customer and location", async () => {
    const phone = '+4915170000005';
    const first = await book(s.t, bookingBody(s.f, at(s.nextDay(), '10:00'), { customer_phone: phone }));
    const second = await book(s.t, bookingBody(s.f, at(s.nextDay(), '11:00'), { customer_phone: phone }));
    const customer = first.customer.uuid;
    const list = await s.t.call('GET', `/orders?customer_uuid=${customer}&location_uuid=${s.f.location.id}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().meta.total).toBe(2);
    expect(list.json().data.map((o: Json) => [o.uuid, o.booking_uuid, o.status])).toEqual([
      [first.order.uuid, first.uuid, 'open'],
      [second.order.uuid, second.uuid, 'open'],
    ]);
    const one = await s.t.call('GET', `/orders/${second.order.uuid}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toMatchObject({
      ...second.order,
      tax: 0,
      booking_uuid: second.uuid,
      customer_uuid: customer,
      location_uuid: s.f.location.id,
    });
    expect((await s.t.call('GET', `/orders/${second.uuid}`)).statusCode).toBe(404);
    expect((await s.t.call('GET', `/orders?customer_uuid=${randomUUID()}`)).json().meta.total).toBe(0);
  });
});

describe('GET /voucher-templates', () => {
  it('answers an empty page, not a 404', async () => {
    const response = await s.t.call('GET', '/voucher-templates');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: [],
      meta: { current_page: 1, last_page: 1, per_page: 15, total: 0 },
      links: { prev: null, next: null },
    });
  });
});

describe('OpenAPI', () => {
  it('documents each route with its body, its required fields and its answers', async () => {
    const doc = (await s.t.app.inject({ method: 'GET', url: '/api/public/v2/openapi.json' })).json();
    const routes: [string, string, string][] = [
      ['post', '/bookings/{bookingUuid}/set-booking-cancel', '200'],
      ['post', '/customers', '201'],
      ['post', '/bookings/cart', '201'],
      ['get', '/locations/{locationUuid}/service-categories', '200'],
      ['get', '/orders', '200'],
      ['get', '/orders/{orderUuid}', '200'],
      ['get', '/voucher-templates', '200'],
    ];
    for (const [method, path, status] of routes) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      const answer = operation.responses[status].content['application/json'].schema;
      expect(answer.required, `${method} ${path}`).toContain('data');
    }
    const cart = doc.paths['/bookings/cart'].post.requestBody.content['application/json'].schema;
    expect(cart.required).toEqual(expect.arrayContaining(['location_uuid', 'items', 'customer_phone']));
    // An item's start is reserved_on or datetime_start (the shape real clients send): neither is
    // required alone, and the 422 names the one missing (see the cart tests above).
    expect(Object.keys(cart.properties.items.items.properties)).toEqual(
      expect.arrayContaining(['reserved_on', 'datetime_start', 'service_uuids', 'services', 'staffer_uuid']),
    );
    expect(Object.keys(cart.properties.items.items.properties.services.items.properties)).toEqual([
      'uuid',
      'service_uuid',
      'staffer_uuid',
    ]);
    const customers = doc.paths['/customers'].post.requestBody.content['application/json'].schema;
    expect(customers.required).toEqual(['phone']);
  });
});
