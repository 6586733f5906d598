import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, operationsOf } from '../contract/openapi-kit.js';
import { type BookingFixture, bookingFixture } from '../helpers/booking-fixture.js';
import { API, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';

/**
 * A JSON body must be an object. `null`, a number, a string, a boolean or an array is a 400
 * `malformed_body` on every route, refused by the body parser before validation: `null` used to
 * read as "no body" and `PUT .../status/cancel` with it canceled the booking. A body that is
 * absent, or empty under a JSON content type, is no body: routes whose fields are all optional
 * (cancel) or come from the query string (create) still take it.
 */
let t: TestApp;
let f: BookingFixture;
beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock('2026-09-01T08:00:00Z') });
  f = await bookingFixture(t);
});
afterAll(() => t?.close());

const NOT_OBJECTS = ['null', '0', '42', '-1.5', '"text"', 'true', 'false', '[]', '[{}]', ' null '];

const send = (method: string, url: string, payload: string | undefined, contentType = 'application/json') =>
  t.app.inject({
    method: method as 'PUT',
    url: `${API}${url}`,
    headers: { ...t.headers, ...(payload === undefined ? {} : { 'content-type': contentType }) },
    ...(payload === undefined ? {} : { payload }),
  });

let phone = 0;
async function booking(hour: number): Promise<string> {
  const response = await t.call('POST', '/bookings', {
    reserved_on: `2026-09-10T${String(hour).padStart(2, '0')}:00:00Z`,
    location_uuid: f.location.id,
    service_uuid: f.haircut.id,
    staffer_uuid: f.anna.id,
    customer_phone: `+4915112340${String(++phone).padStart(3, '0')}`,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.uuid;
}

const statusOf = async (uuid: string) => (await t.call('GET', `/bookings/${uuid}`)).json().data;

describe('a JSON body that is not an object', () => {
  it('on PUT /bookings/{uuid}/status/cancel: 400 malformed_body, and the booking stays as it was', async () => {
    const uuid = await booking(8);
    for (const payload of NOT_OBJECTS) {
      const response = await send('PUT', `/bookings/${uuid}/status/cancel`, payload);
      expect(response.statusCode, `${payload}: ${response.body}`).toBe(400);
      expect(response.json()).toEqual({ message: expect.any(String), code: 'malformed_body' });
    }
    // The same with an Idempotency-Key, and on the compat alias of cancel.
    const keyed = await t.app.inject({
      method: 'PUT',
      url: `${API}/bookings/${uuid}/status/cancel`,
      headers: { ...t.headers, 'content-type': 'application/json', 'idempotency-key': 'null-body' },
      payload: 'null',
    });
    expect(keyed.statusCode).toBe(400);
    expect((await send('POST', `/bookings/${uuid}/set-booking-cancel`, 'null')).statusCode).toBe(400);
    const after = await statusOf(uuid);
    expect(after.is_canceled).toBe(false);
    expect((await t.call('GET', `/bookings/${uuid}/history`)).json().data).toHaveLength(1);
  });

  it('on every documented operation that takes a body: 400 malformed_body before anything runs', async () => {
    const doc = (await t.call('GET', '/openapi.json')).json() as Json;
    const operations = operationsOf(doc).filter((op) => ['POST', 'PUT', 'PATCH'].includes(op.method));
    expect(operations.length).toBeGreaterThan(20);
    const seen: string[] = [];
    for (const op of operations) {
      // Path ids that name nothing: a parser refusal comes before the 404 of an unknown id.
      const url = op.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      for (const payload of ['null', '7', '"x"', '[]']) {
        const response = await send(op.method, url, payload);
        expect(response.statusCode, `${op.key} ${payload}: ${response.body}`).toBe(400);
        expect(response.json().code, op.key).toBe('malformed_body');
      }
      seen.push(op.key);
    }
    expect(seen).toContain('PUT /bookings/{bookingUuid}/status/cancel');
    expect(seen).toContain('POST /bookings');
    expect((await t.call('GET', '/locations')).json().meta.total).toBe(1);
  });
});

describe('no body, or an empty one, is still no body', () => {
  it('cancel without a body, and with an empty JSON body: 200 canceled', async () => {
    const absent = await booking(9);
    const noBody = await send('PUT', `/bookings/${absent}/status/cancel`, undefined);
    expect(noBody.statusCode, noBody.body).toBe(200);
    expect(noBody.json().data.is_canceled).toBe(true);
    for (const payload of ['', '  \r\n']) {
      const uuid = await booking(payload === '' ? 10 : 11);
      const response = await send('PUT', `/bookings/${uuid}/status/cancel`, payload);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.is_canceled).toBe(true);
    }
  });

  it('create from the query string with an empty JSON body; a bodiless create names the required fields', async () => {
    const query = new URLSearchParams({
      reserved_on: '2026-09-10T12:00:00Z',
      location_uuid: f.location.id,
      service_uuid: f.haircut.id,
      staffer_uuid: f.anna.id,
      customer_phone: '+4915199990001',
    });
    const created = await send('POST', `/bookings?${query}`, '');
    expect(created.statusCode, created.body).toBe(201);
    const empty = await send('POST', '/bookings', '');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toHaveProperty('reserved_on');
  });

  it('an object body is unchanged: cancel with a reason, and a form body', async () => {
    const uuid = await booking(13);
    const response = await send('PUT', `/bookings/${uuid}/status/cancel`, '{"cancel_reason":"spam"}');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.cancel_reason).toBe('spam');
    const form = await booking(14);
    const viaForm = await send(
      'PUT',
      `/bookings/${form}/status/cancel`,
      'cancel_reason=other',
      'application/x-www-form-urlencoded',
    );
    expect(viaForm.statusCode, viaForm.body).toBe(200);
    expect(viaForm.json().data.cancel_reason).toBe('other');
  });
});
