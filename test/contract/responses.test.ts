import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentBooking } from '../../src/bookings/bookings.presenter.js';
import { requireBookingView } from '../../src/bookings/bookings.repository.js';
import { loadConfig } from '../../src/config.js';
import { requireLocation } from '../../src/locations/locations.repository.js';
import { connectStripe } from '../../src/payments/payment-settings.service.js';
import { nextTimeSlots, timeSlots } from '../../src/slots/slots.service.js';
import { offerToken } from '../../src/waitlist/offer-link.js';
import { openWritePath } from '../../src/write-path.js';
import { API, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { FakeStripe } from '../helpers/fake-stripe.js';
import { startRadicale } from '../helpers/radicale.js';
import { type Json, type Operation, operationsOf, responseValidators } from './openapi-kit.js';

/** Links in answers (a booking's `links`) are absolute under it. */
const PUBLIC_URL = 'https://book.example';

/**
 * Every route declares its answers, and real answers match them. A realistic
 * sequence runs through the real app (reference data, schedules, slots, a booking's whole life,
 * customers, webhooks, archiving, and errors); each answer is checked against the schema the
 * OpenAPI document declares for its route and status, with every documented object closed (no
 * undocumented field, none missing). The test fails on a route without a declared 2xx and error
 * answer, and on a documented operation the sequence did not reach with a 2xx.
 */
let t: TestApp;
let doc: Json;
let operations: Operation[];
const clock = new FixedClock('2026-09-01T08:00:00Z'); // Tuesday, 10:00 in Berlin
const reached = new Set<string>();
const failures: string[] = [];

let fakeStripe: FakeStripe;

beforeAll(async () => {
  fakeStripe = await FakeStripe.start();
  fakeStripe.autoDeliver = false;
  const payments = { stripeApiBase: fakeStripe.origin, secretKey: 'responses-test-secret-key-0123456789abc' };
  t = await buildTestApp({
    clock,
    config: { webhooksAllowPrivate: true, publicUrl: PUBLIC_URL, ...payments },
  });
  await connectStripe(
    openWritePath(t.db).uow,
    t.workspace.id,
    { type: 'user', id: null },
    { secret_key: fakeStripe.secretKey, webhook_secret: 'whsec_responsesTest01' },
    { ...loadConfig({}), ...payments },
  );
  doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
  operations = operationsOf(doc);
});
afterAll(async () => {
  await t?.close();
  await fakeStripe?.stop();
});

function check(method: string, path: string, response: LightMyRequestResponse): void {
  const operation = operations.find((op) => op.matches(method, path.split('?')[0]!));
  if (!operation) {
    failures.push(`${method} ${path}: no documented operation`);
    return;
  }
  const status = String(response.statusCode);
  const validators = responseValidators(doc, operation);
  const validator = validators.get(status) ?? validators.get(`${status[0]}XX`);
  if (!validator) {
    failures.push(`${operation.key}: answered ${status}, which it does not declare`);
    return;
  }
  if (validator === 'empty') {
    if (response.body !== '') failures.push(`${operation.key} ${status}: declared empty, answered a body`);
  } else if (!validator(response.json())) {
    failures.push(
      `${operation.key} ${status}: ${JSON.stringify(validator.errors)} in ${response.body.slice(0, 300)}`,
    );
  }
  if (response.statusCode < 300) reached.add(operation.key);
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field.
async function call(method: string, path: string, body?: unknown, expected?: number): Promise<any> {
  const response = await t.call(method, path, body);
  check(method, path, response);
  if (expected !== undefined)
    expect(response.statusCode, `${method} ${path}: ${response.body}`).toBe(expected);
  return response.body === '' ? undefined : response.json();
}

const WEEK = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ from: '09:00', to: '17:00' }]]),
);

describe('declared response schemas', () => {
  it('every documented operation declares a 2xx answer and the error shape', () => {
    for (const operation of operations) {
      const statuses = Object.keys(operation.spec.responses ?? {});
      expect(
        statuses.some((s) => /^2\d\d$/.test(s)),
        operation.key,
      ).toBe(true);
      expect(statuses, operation.key).toEqual(expect.arrayContaining(['4XX', '5XX']));
    }
  });

  it('real answers of every route match their declared schemas', async () => {
    await call('GET', '/ping', undefined, 200);
    await call('GET', '/workspace', undefined, 200);
    await call('PATCH', '/workspace', { name: 'Contract Studio' }, 200);

    const location = (
      await call('POST', '/locations', { name: 'Mitte', timezone: 'Europe/Berlin', opening_hours: WEEK }, 201)
    ).data;
    const loc = location.uuid;
    await call('GET', '/locations', undefined, 200);
    await call('GET', `/locations/${loc}`, undefined, 200);
    await call(
      'PATCH',
      `/locations/${loc}`,
      { phone: '+49301234567', address: { city: 'Berlin', position: { lat: 52.5, lng: 13.4 } } },
      200,
    );

    const account = (await call('POST', `/locations/${loc}/accounts`, { name: 'Till' }, 201)).data;
    await call('GET', `/locations/${loc}/accounts`, undefined, 200);
    await call('GET', `/locations/${loc}/accounts/${account.uuid}`, undefined, 200);
    await call('PATCH', `/locations/${loc}/accounts/${account.uuid}`, { type: 'card' }, 200);

    const cut = (
      await call(
        'POST',
        '/services',
        { name: 'Cut', duration_minutes: 60, price: 4500, category: 'Hair', location_uuids: [loc] },
        201,
      )
    ).data;
    const wash = (
      await call('POST', '/services', { name: 'Wash', duration_minutes: 30, location_uuids: [loc] }, 201)
    ).data;
    await call('GET', `/locations/${loc}/services`, undefined, 200);
    await call('GET', `/services/${cut.uuid}`, undefined, 200);
    await call('PATCH', `/services/${wash.uuid}`, { price: 1500 }, 200);
    await call(
      'PUT',
      `/services/${wash.uuid}/payment_policy`,
      { collect: 'deposit', deposit_type: 'fixed', deposit_amount: 500, preset: 'flexible' },
      200,
    );
    await call('GET', `/services/${wash.uuid}/payment_policy`, undefined, 200);

    const services = [{ location_uuid: loc, service_uuids: [cut.uuid, wash.uuid] }];
    const anna = (await call('POST', '/staffers', { first_name: 'Anna', services }, 201)).data;
    const ben = (
      await call(
        'POST',
        '/staffers',
        { first_name: 'Ben', last_name: 'B', avatar: 'https://example.com/b.png', services },
        201,
      )
    ).data;
    await call('GET', `/locations/${loc}/staffers`, undefined, 200);
    await call('GET', `/staffers/${anna.uuid}`, undefined, 200);
    await call('PATCH', `/staffers/${anna.uuid}`, { position: 'Stylist' }, 200);
    for (const staffer of [anna, ben]) {
      await call(
        'PUT',
        `/staffers/${staffer.uuid}/schedules/${loc}`,
        {
          weekly: WEEK,
          breaks: { mon: [{ from: '12:00', to: '13:00' }] },
          overrides: [{ date: '2026-12-24', intervals: [] }],
        },
        200,
      );
    }
    const room = (
      await call('POST', '/resources', { location_uuid: loc, type: 'room', name: 'Room 1', capacity: 2 }, 201)
    ).data;
    await call('GET', `/locations/${loc}/resources`, undefined, 200);
    await call('GET', `/resources/${room.uuid}`, undefined, 200);
    await call('PATCH', `/resources/${room.uuid}`, { name: 'Blue room' }, 200);
    await call('GET', `/staffers/${anna.uuid}/schedules`, undefined, 200);
    await call('GET', `/staffers/${anna.uuid}/schedules/${loc}`, undefined, 200);

    await call('GET', '/bookings/statuses', undefined, 200);
    const waiting = (await call('POST', '/bookings/statuses', { name: 'Waiting', color: '#123456' }, 201))
      .data;
    await call('PATCH', `/bookings/statuses/${waiting.uuid}`, { name: 'Waiting room' }, 200);

    const slots = `/locations/${loc}/time-slots?service_uuid=${cut.uuid}&range_start=2026-09-02&range_end=2026-09-03`;
    await call('GET', slots, undefined, 200);
    await call('GET', `/locations/${loc}/time-slots/next?service_uuid=${cut.uuid}&days=2`, undefined, 200);

    const bookingBody = {
      reserved_on: '2026-09-02T08:00:00Z',
      location_uuid: loc,
      service_uuid: cut.uuid,
      staffer_uuid: anna.uuid,
      customer_phone: '+4915112345678',
      customer_first_name: 'Erika',
      booking_comment: 'First visit',
    };
    const booking = (await call('POST', '/bookings', bookingBody, 201)).data;
    const b = booking.uuid;
    await call('POST', '/bookings', bookingBody, 409);
    await call('GET', '/bookings?per_page=1', undefined, 200);
    await call('GET', `/bookings/${b}`, undefined, 200);
    await call('PUT', `/bookings/${b}/reschedule`, { reserved_on: '2026-09-02T09:00:00Z' }, 200);
    await call('PUT', `/bookings/${b}/status`, { status_uuid: waiting.uuid }, 200);
    await call('POST', `/bookings/${b}/public_notes`, { value: 'Bring a photo' }, 201);
    await call('GET', `/bookings/${b}/public_notes`, undefined, 200);
    await call('PUT', `/bookings/${b}/staffer`, { staffer_uuid: ben.uuid }, 200);
    await call('PUT', `/bookings/${b}/services`, { service_uuids: [cut.uuid, wash.uuid] }, 200);
    await call('PUT', `/bookings/${b}/resources`, { resource_uuids: [room.uuid] }, 200);
    await call(
      'PUT',
      `/bookings/${b}/status/complete`,
      { account_uuid: account.uuid, paid_amount: 6000 },
      200,
    );
    await call('GET', `/bookings/${b}/history`, undefined, 200);
    // Nothing was paid through a provider: nothing to refund.
    await call('POST', `/bookings/${b}/refunds`, {}, 422);
    await call('PUT', `/bookings/${b}/status/cancel`, {}, 409);
    await call('PATCH', '/workspace', { staffer_selection: 'automatic' }, 200);
    const second = (
      await call(
        'POST',
        '/bookings',
        { ...bookingBody, reserved_on: '2026-09-03T08:00:00Z', staffer_uuid: null },
        201,
      )
    ).data;
    await call('PUT', `/bookings/${second.uuid}/status/cancel`, { cancel_reason: 'postponed' }, 200);
    // The waitlist (docs/waitlist.md): join, read, offer by hand, claim, leave.
    const entry = (
      await call(
        'POST',
        '/waitlist',
        {
          location_uuid: loc,
          service_uuid: cut.uuid,
          customer_phone: '+4915112345679',
          windows: [{ date: '2026-09-04', from: '09:00', to: '12:00' }],
        },
        201,
      )
    ).data;
    await call('GET', `/waitlist?service_uuid=${cut.uuid}`, undefined, 200);
    await call('GET', `/waitlist/${entry.uuid}`, undefined, 200);
    await call('GET', '/waitlist/settings', undefined, 200);
    await call('PUT', '/waitlist/settings', { hold_minutes: 20 }, 200);
    const offer = (
      await call(
        'POST',
        `/waitlist/${entry.uuid}/offers`,
        { reserved_on: '2026-09-04T08:00:00Z', staffer_uuid: anna.uuid },
        201,
      )
    ).data;
    await call('GET', `/waitlist/offers?entry_uuid=${entry.uuid}`, undefined, 200);
    const token = offerToken(t.workspace, offer.uuid);
    await call('POST', '/waitlist/offers/claim', { token }, 201);
    await call('POST', '/waitlist/offers/claim', { token }, 410);
    await call('DELETE', `/waitlist/${entry.uuid}`, undefined, 200);
    // A booking that collects its deposit (docs/payments.md): paid on the fake Stripe, then refunded.
    const deposit = (
      await call(
        'POST',
        '/bookings',
        {
          ...bookingBody,
          service_uuid: wash.uuid,
          reserved_on: '2026-09-04T08:00:00Z',
          staffer_uuid: null,
          collect_payment: true,
        },
        201,
      )
    ).data;
    const session = deposit.links
      .find((l: Json) => l.type === 'payment')
      .link.split('/')
      .pop();
    fakeStripe.pay(session);
    await t.app.inject({
      method: 'GET',
      url: `/hooks/payments/${t.workspace.id}/stripe/return?session=${session}`,
    });
    await call('POST', `/bookings/${deposit.uuid}/refunds`, { amount: 200 }, 202);

    const customers = await call('GET', '/customers?phone=%2B4915112345678', undefined, 200);
    await call('GET', `/customers/${customers.data[0].uuid}`, undefined, 200);
    await call('GET', `/customers/${customers.data[0].uuid}/export`, undefined, 200);

    // The routes integrations of the real service call.
    await call('POST', '/customers', { phone: '+4915187654321', first_name: 'Max' }, 201);
    await call('POST', '/customers', { phone: '+4915187654321', email: 'max@example.com' }, 200);
    const max = await call('GET', '/customers?phone=%2B4915187654321', undefined, 200);
    await call('POST', `/customers/${max.data[0].uuid}/erase`, undefined, 200);
    const cart = (
      await call(
        'POST',
        '/bookings/cart',
        {
          location_uuid: loc,
          customer_phone: '+4915187654321',
          items: [{ reserved_on: '2026-09-03T08:00:00Z', service_uuids: [cut.uuid, wash.uuid] }],
        },
        201,
      )
    ).data;
    // A series of recurring bookings (docs/series.md): made, refused whole, changed, canceled.
    const seriesBody = {
      ...bookingBody,
      reserved_on: '2026-09-09T12:00:00Z',
      staffer_uuid: ben.uuid,
      recurrence: { frequency: 'daily', count: 2 },
    };
    const series = (await call('POST', '/series', seriesBody, 201)).data;
    await call('POST', '/series', seriesBody, 409);
    await call('GET', `/series/${series.uuid}`, undefined, 200);
    await call('PATCH', `/series/${series.uuid}`, { scope: 'all', time: '15:00' }, 200);
    await call('POST', `/series/${series.uuid}/cancel`, { scope: 'all' }, 200);
    await call('GET', '/orders?per_page=2', undefined, 200);
    await call('GET', `/orders/${cart[0].order.uuid}`, undefined, 200);
    await call('POST', `/bookings/${cart[0].uuid}/set-booking-cancel`, {}, 200);
    await call('GET', `/locations/${loc}/service-categories`, undefined, 200);
    await call('GET', '/voucher-templates', undefined, 200);

    await call('DELETE', `/bookings/statuses/${waiting.uuid}`, undefined, 204);
    const hook = (
      await call('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['booking-created'] }, 201)
    ).data;
    await call('GET', '/webhooks', undefined, 200);
    await call('GET', `/webhooks/${hook.uuid}`, undefined, 200);
    await call('PUT', `/webhooks/${hook.uuid}`, { description: 'CRM' }, 200);
    await call('POST', `/webhooks/${hook.uuid}/rotate-secret`, undefined, 200);
    const delivery = (await call('POST', `/webhooks/${hook.uuid}/test`, undefined, 202)).data;
    await call('GET', `/webhooks/${hook.uuid}/deliveries`, undefined, 200);
    await call('POST', `/webhooks/${hook.uuid}/deliveries/${delivery.uuid}/retry`, undefined, 202);
    await call('DELETE', `/webhooks/${hook.uuid}`, undefined, 204);

    // A staffer's own calendar, on a real Radicale.
    const radicale = await startRadicale();
    try {
      await radicale.makeCalendar('work', 'Work');
      const account = { server_url: radicale.url, username: radicale.user, password: radicale.password };
      await call('POST', `/staffers/${anna.uuid}/calendar-connection/test`, account, 200);
      await call('PUT', `/staffers/${anna.uuid}/calendar-connection`, account, 200);
      await call('GET', `/staffers/${anna.uuid}/calendar-connection`, undefined, 200);
      await call('POST', `/staffers/${anna.uuid}/calendar-connection/sync`, undefined, 200);
      await call(
        'GET',
        `/staffers/${anna.uuid}/busy-times?from=2026-09-01T00:00:00Z&to=2026-09-08T00:00:00Z`,
        undefined,
        200,
      );
      await call('DELETE', `/staffers/${anna.uuid}/calendar-connection`, undefined, 204);
    } finally {
      await radicale.stop();
    }

    await call('DELETE', `/locations/${loc}/accounts/${account.uuid}`, undefined, 204);
    await call('DELETE', `/staffers/${ben.uuid}`, undefined, 204);
    await call('DELETE', `/resources/${room.uuid}`, undefined, 204);
    await call('DELETE', `/services/${wash.uuid}`, undefined, 204);
    const spare = (await call('POST', '/locations', { name: 'Spare', timezone: 'UTC' }, 201)).data;
    await call('DELETE', `/locations/${spare.uuid}`, undefined, 204);

    // Errors answer in the declared error shape.
    await call('GET', `/locations/${randomUUID()}`, undefined, 404);
    await call('POST', '/bookings', {}, 422);
    await call('PATCH', '/workspace', { locale: 'xx' }, 422);
    const forbidden = await t.app.inject({
      method: 'GET',
      url: `${API}/ping`,
      headers: { workspace: t.workspace.slug },
    });
    check('GET', '/ping', forbidden);
    expect(forbidden.statusCode).toBe(403);

    expect(failures).toEqual([]);
    expect(operations.map((op) => op.key).filter((key) => !reached.has(key))).toEqual([]);
  });

  it('answers keep their bytes: what the presenters and the slot service make, nothing dropped or reordered', async () => {
    const list = await t.call('GET', '/bookings?per_page=100');
    const first = list.json().data[0];
    const one = await t.call('GET', `/bookings/${first.uuid}`);
    const view = await requireBookingView(t.db, t.workspace.id, first.uuid);
    const workspace = await t.db
      .selectFrom('workspaces')
      .selectAll()
      .where('id', '=', t.workspace.id)
      .executeTakeFirstOrThrow();
    expect(one.body).toBe(JSON.stringify({ data: presentBooking(view, workspace, PUBLIC_URL) }));
    expect(
      list.body.startsWith(`{"data":[${JSON.stringify(presentBooking(view, workspace, PUBLIC_URL))}`),
    ).toBe(true);

    const locationUuid = first.location_uuid;
    const serviceUuid = first.ordered_services[0].service_uuid;
    const location = await requireLocation(t.db, t.workspace.id, locationUuid);
    const query = { service_uuid: serviceUuid, range_start: '2026-09-02', range_end: '2026-09-09' };
    const slots = await t.call('GET', `/locations/${locationUuid}/time-slots?${new URLSearchParams(query)}`);
    expect(slots.body).toBe(JSON.stringify(await timeSlots(t.db, workspace, location, query, clock.now())));
    const next = await t.call(
      'GET',
      `/locations/${locationUuid}/time-slots/next?service_uuid=${serviceUuid}&days=3`,
    );
    expect(next.body).toBe(
      JSON.stringify(
        await nextTimeSlots(t.db, workspace, location, { service_uuid: serviceUuid, days: 3 }, clock.now()),
      ),
    );
    expect(next.json().dates.length).toBe(3);
  });
});
