import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBuilt, ownStore, ServerProcess } from '../helpers/server-process.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  expectBooking,
  expectFields,
  expectInteger,
  expectPage,
  HHMM,
  type Json,
  LEGACY_TIME,
  OFFSET,
  ORDER_FIELDS,
  UTC,
  UUID,
} from './strict-client.js';

/**
 * The calls integrations of the real service make, replayed against the built server
 * in a child process (the demo workspace of a first start), read as a strict client reads them:
 * integers where integers are expected, `meta` totals that add up, every documented field present.
 * On a temp DATA_DIR, or on a fresh PostgreSQL database when TEST_DATABASE_URL is set.
 */
const API = '/api/public/v2';
let server: ServerProcess | undefined;
let receiver: WebhookReceiver | undefined;
let removeStore: (() => Promise<void>) | undefined;
let base: string;
let headers: Record<string, string>;

beforeAll(async () => {
  await ensureServerBuilt();
  receiver = await WebhookReceiver.start();
  const own = await ownStore('compat');
  removeStore = own.remove;
  server = new ServerProcess(own.store, {
    worker: 'on',
    env: { WEBHOOKS_ALLOW_PRIVATE: 'true' },
  });
  const started = await server.started;
  if (!started.demo) throw new Error(`the first start printed no demo workspace:\n${server.log}`);
  base = started.base;
  headers = { authorization: `Bearer ${started.demo.apiKey}`, workspace: started.demo.slug };
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await removeStore?.();
});

/** A call as integrations make it: fields in the query string when `query` is given, JSON otherwise. */
async function call(method: string, urlPath: string, body?: unknown, query?: Record<string, string>) {
  const search = query ? `?${new URLSearchParams(query).toString()}` : '';
  const response = await fetch(`${base}${API}${urlPath}${search}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as Json };
}

async function expectCall(
  status: number,
  method: string,
  urlPath: string,
  body?: unknown,
  query?: Record<string, string>,
) {
  const answer = await call(method, urlPath, body, query);
  expect(answer.status, `${method} ${urlPath}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
}

describe('an integration of the real service, changing only the base URL', () => {
  it('reads, books by query string, carts, cancels, lists orders and gets legacy webhooks', async () => {
    // --- Workspace: country and contacts, settable and read back.
    const workspace = (await expectCall(200, 'GET', '/workspace')).data;
    expectFields(
      workspace,
      ['slug', 'currency', 'locale', 'country_iso', 'contacts', 'staffer_selection'],
      'workspace',
      ['country_iso'],
    );
    expectFields(workspace.contacts, ['phone', 'email'], 'workspace.contacts', ['phone', 'email']);
    // A new workspace assigns staffers automatically: the demo is one.
    expect(workspace.staffer_selection).toBe('automatic');
    const patched = (
      await expectCall(200, 'PATCH', '/workspace', {
        country_iso: 'DE',
        contacts: { phone: '+49 30 901820', email: 'info@studio.example' },
      })
    ).data;
    expect(patched).toMatchObject({
      country_iso: 'DE',
      contacts: { phone: '+4930901820', email: 'info@studio.example' },
    });

    // --- A legacy webhook with a token header, its event in the URL's query.
    const hook = await expectCall(201, 'POST', '/webhooks', {
      url: `${receiver!.url}?event=create`,
      events: ['booking-created'],
      format: 'legacy',
      headers: { 'Webhook-Token': 'compat-token' },
    });
    expect(hook.data.format).toBe('legacy');

    // --- Reference reads, paginated lists read strictly.
    const locations = await expectCall(200, 'GET', '/locations', undefined, { per_page: '1' });
    expectPage(locations, 'locations');
    const location = (await expectCall(200, 'GET', '/locations', undefined, { per_page: '100' })).data.find(
      (l: Json) => l.timezone.name === 'Europe/Berlin',
    );
    expect(location, 'the demo has a Berlin location').toBeDefined();
    const categories = await expectCall(200, 'GET', `/locations/${location.uuid}/service-categories`);
    expectPage(categories, 'service-categories');
    for (const category of categories.data) {
      expectFields(category, ['uuid', 'name', 'order'], 'category');
      expectInteger(category.order, 'category.order');
    }
    const services = await expectCall(200, 'GET', `/locations/${location.uuid}/services`, undefined, {
      per_page: '100',
    });
    expectPage(services, 'services');
    const individual = services.data.filter((s: Json) => s.capacity === 1);
    expect(individual.length).toBeGreaterThanOrEqual(2);
    const vouchers = await expectCall(200, 'GET', '/voucher-templates');
    expectPage(vouchers, 'voucher-templates');
    expect(vouchers.meta.total).toBe(0);

    // --- Time slots: instants and offsets beside the wall clocks, integers where integers are.
    const from = DateTime.now().setZone('Europe/Berlin').plus({ days: 1 });
    const service = individual[0];
    const slots = await expectCall(200, 'GET', `/locations/${location.uuid}/time-slots`, undefined, {
      service_uuid: service.uuid,
      range_start: from.toISODate()!,
      range_end: from.plus({ days: 6 }).toISODate()!,
    });
    const free: { start_time: string; date: string }[] = [];
    for (const day of slots.dates) {
      for (const item of [...day.slots, ...day.intervals]) {
        expectFields(
          item,
          [
            'start',
            'start_formatted',
            'end',
            'end_formatted',
            'start_time',
            'end_time',
            'start_offset',
            'end_offset',
          ],
          `${day.date}`,
        );
        expect(item.start).toMatch(HHMM);
        expect(item.end_time).toMatch(UTC);
        expect(item.start_offset).toMatch(OFFSET);
        expectInteger(item.start_formatted, 'start_formatted');
        expectInteger(item.end_formatted, 'end_formatted');
        expect(Date.parse(`${day.date}T${item.start}:00${item.start_offset}`)).toBe(
          Date.parse(item.start_time),
        );
      }
      for (const slot of day.slots) {
        expectInteger(slot.quantity, 'quantity');
        const held = day.intervals.some(
          (i: Json) =>
            Date.parse(i.start_time) <= Date.parse(slot.start_time) &&
            Date.parse(slot.end_time) <= Date.parse(i.end_time),
        );
        expect(held, `${day.date} ${slot.start}: inside an interval of its day`).toBe(true);
        free.push({ start_time: slot.start_time, date: day.date });
      }
    }
    expect(free.length).toBeGreaterThan(3);

    // --- POST /bookings with every field in the query string and no body, no staffer: 201.
    const phone = '+4915170001001';
    const queried = (
      await expectCall(201, 'POST', '/bookings', undefined, {
        reserved_on: free[0]!.start_time,
        location_uuid: location.uuid,
        service_uuid: service.uuid,
        customer_phone: phone,
        customer_first_name: 'Query',
        customer_last_name: 'String',
        booking_comment: 'Sent as query',
        booking_callback: 'false',
      })
    ).data;
    expectBooking(queried, 'booking');
    expect(queried.booking_callback).toBe(false);
    expect(queried.staffer).not.toBeNull();

    // --- The webhook arrives in the legacy shape, at the URL as given, with the token.
    const [delivered] = await receiver!.waitFor(1, 20_000);
    expect(delivered!.path).toBe(`${new URL(receiver!.url).pathname}?event=create`);
    expect(delivered!.headers['webhook-token']).toBe('compat-token');
    const legacy = delivered!.json() as Json;
    expect(legacy.uid).toBe(queried.uuid);
    for (const key of [
      'id',
      'customer_id',
      'location_id',
      'service_id',
      'booking_duration',
      'booking_price_int',
      'visits_total',
      'services_count',
    ])
      expectInteger(legacy[key], `legacy.${key}`);
    expect(legacy.booking_date_start).toMatch(LEGACY_TIME);
    expect(legacy.booking_date_end).toMatch(LEGACY_TIME);
    expectFields(
      legacy,
      [
        'booking_status',
        'customer_full_name',
        'customer_phone',
        'booking_attributes.booking_comment',
        'user_name',
        'booking_price_formatted',
      ],
      'legacy',
    );
    expectFields(legacy, ['booking_hash_id', 'booking_page'], 'legacy', ['booking_hash_id', 'booking_page']);
    expect(legacy['booking_attributes.booking_comment']).toBe('Sent as query');

    // --- POST /customers finds the same customer by phone.
    const customer = (await expectCall(200, 'POST', '/customers', { phone, email: 'query@example.com' }))
      .data;
    expect(customer).toMatchObject({
      uuid: queried.customer.uuid,
      first_name: 'Query',
      email: 'query@example.com',
    });
    const fresh = await expectCall(201, 'POST', '/customers', undefined, {
      phone: '+4915170001002',
      first_name: 'New',
    });
    expect(fresh.data.uuid).toMatch(UUID);

    // --- POST /bookings/cart: one booking of two services a staffer provides, at the first of
    // that staffer's free starts that holds both.
    const staffers = (
      await expectCall(200, 'GET', `/locations/${location.uuid}/staffers`, undefined, { per_page: '100' })
    ).data;
    const offered = (staffer: Json): string[] =>
      staffer.services.find((entry: Json) => entry.location_uuid === location.uuid)?.service_uuids ?? [];
    const provider = staffers.find(
      (staffer: Json) => individual.filter((sv: Json) => offered(staffer).includes(sv.uuid)).length >= 2,
    );
    expect(provider, 'a staffer with two individual services').toBeDefined();
    const [first, second] = individual.filter((sv: Json) => offered(provider).includes(sv.uuid));
    const theirs = await expectCall(200, 'GET', `/locations/${location.uuid}/time-slots`, undefined, {
      service_uuid: first.uuid,
      staffer_uuid: provider.uuid,
      range_start: from.plus({ days: 1 }).toISODate()!,
      range_end: from.plus({ days: 6 }).toISODate()!,
    });
    let cart: Json;
    for (const candidate of theirs.dates.flatMap((day: Json) => day.slots).slice(0, 30)) {
      const answer = await call('POST', '/bookings/cart', {
        location_uuid: location.uuid,
        customer_phone: phone,
        customer_first_name: 'Query',
        items: [
          {
            reserved_on: candidate.start_time,
            staffer_uuid: provider.uuid,
            services: [{ uuid: first.uuid }, { uuid: second.uuid }],
          },
        ],
      });
      if (answer.status === 409) continue;
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      cart = answer.body;
      break;
    }
    expect(cart, 'a start that holds both services').toBeDefined();
    expect(cart.data).toHaveLength(1);
    const carted = cart.data[0];
    expectBooking(carted, 'cart booking');
    expect(carted.ordered_services.map((line: Json) => line.service_uuid)).toEqual([first.uuid, second.uuid]);
    expect(carted.duration.value).toBe(first.duration.value + second.duration.value);
    expect(carted.staffer.uuid).toBe(provider.uuid);

    // --- Orders of the customer, each with its booking.
    const orders = await expectCall(200, 'GET', '/orders', undefined, {
      customer_uuid: customer.uuid,
      location_uuid: location.uuid,
    });
    expectPage(orders, 'orders');
    expect(orders.meta.total).toBe(2);
    for (const order of orders.data) {
      expectFields(order, [...ORDER_FIELDS, 'booking_uuid', 'customer_uuid', 'location_uuid'], 'order');
      expectInteger(order.total, 'order.total');
    }
    expect(orders.data.map((o: Json) => o.booking_uuid).sort()).toEqual([queried.uuid, carted.uuid].sort());
    const order = (await expectCall(200, 'GET', `/orders/${carted.order.uuid}`)).data;
    expect(order).toMatchObject({ booking_uuid: carted.uuid, total: carted.order.total, tax: 0 });

    // --- Cancel as integrations do, the reason in the query.
    const canceled = (
      await expectCall(200, 'POST', `/bookings/${queried.uuid}/set-booking-cancel`, undefined, {
        cancel_reason: 'postponed',
      })
    ).data;
    expectBooking(canceled, 'canceled booking');
    expect(canceled).toMatchObject({ is_canceled: true, cancel_reason: 'postponed' });
    const listed = await expectCall(200, 'GET', '/bookings', undefined, { customer_uuid: customer.uuid });
    expectPage(listed, 'bookings');
    for (const booking of listed.data) expectBooking(booking, 'listed booking');
  });
});
