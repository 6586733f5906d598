import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { createLocation, createService } from '../helpers/factories.js';

/**
 * Each class of bad input seen answering 5xx, answered with a 4xx in our shape
 * (`message`, `code`, and on a 422 a non-empty `errors` naming the field). The fuzz test
 * (test/hardening/fuzz.test.ts) covers every operation; these pin each class down by example.
 */
let t: TestApp;
let locationId: string;
let serviceId: string;
beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock('2026-09-01T08:00:00Z') });
  locationId = (await createLocation(t.db, t.workspace.id)).id;
  serviceId = (await createService(t.db, t.workspace.id, [locationId])).id;
});
afterAll(() => t?.close());

type Response = {
  statusCode: number;
  body: string;
  json(): { message: string; code: string; errors?: Record<string, string[]> };
};

function expectShape(response: Response, status: number, code?: string) {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json();
  expect(typeof body.message).toBe('string');
  expect(typeof body.code).toBe('string');
  if (code) expect(body.code).toBe(code);
  if (status === 422) expect(Object.keys(body.errors ?? {}).length).toBeGreaterThan(0);
  return body;
}

const json = (url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `${API}${url}`,
    headers: { ...t.headers, 'content-type': 'application/json', ...headers },
    payload,
  });

describe('NUL and unpaired surrogates', () => {
  it('in a body field, a nested field and a query parameter: 422 naming the field', async () => {
    expect(
      expectShape(await t.call('POST', '/locations', { name: 'a\u0000b', timezone: 'UTC' }), 422).errors,
    ).toHaveProperty('name');
    const nested = await t.call('POST', '/locations', {
      name: 'x',
      timezone: 'UTC',
      address: { city: 'Ber\u0000lin' },
    });
    expect(expectShape(nested, 422).errors).toHaveProperty(['address.city']);
    const query = await t.call('GET', '/customers?phone=%2B49%00');
    expect(expectShape(query, 422).errors).toHaveProperty('phone');
    const surrogate = await t.call('POST', '/staffers', { first_name: 'Ann\ud800' });
    expect(expectShape(surrogate, 422).errors).toHaveProperty('first_name');
    const slots = await t.call(
      'GET',
      `/locations/${locationId}/time-slots?service_uuid=${serviceId}&timezone=UTC%00`,
    );
    expect(expectShape(slots, 422).errors).toHaveProperty('timezone');
  });
});

describe('deep JSON', () => {
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  it('thousands of levels in an unknown field, with and without Idempotency-Key, and in a schedule: 400', async () => {
    const body = `{"name":"x","timezone":"UTC","extra":${deep}}`;
    expectShape(await json('/locations', body), 400, 'malformed_body');
    expectShape(await json('/locations', body, { 'idempotency-key': 'deep-1' }), 400, 'malformed_body');
    const staffer = (await t.call('POST', '/staffers', { first_name: 'S' })).json().data.uuid;
    const schedule = await t.app.inject({
      method: 'PUT',
      url: `${API}/staffers/${staffer}/schedules/${locationId}`,
      headers: { ...t.headers, 'content-type': 'application/json' },
      payload: `{"weekly":{"mon":${deep}}}`,
    });
    expectShape(schedule, 400, 'malformed_body');
    // Brackets inside strings are text, not nesting.
    const inString = await json('/locations', JSON.stringify({ name: '['.repeat(200), timezone: 'UTC' }));
    expect(inString.statusCode).toBe(201);
  });
});

describe('numbers out of range', () => {
  it('paid_amount of 2^31, 1e20 and 9007199254740993, and page=1e20: 422 naming the field', async () => {
    for (const amount of ['2147483648', '1e20', '9007199254740993']) {
      const response = await t.app.inject({
        method: 'PUT',
        url: `${API}/bookings/00000000-0000-4000-8000-000000000000/status/complete`,
        headers: { ...t.headers, 'content-type': 'application/json' },
        payload: `{"account_uuid":"00000000-0000-4000-8000-000000000000","paid_amount":${amount}}`,
      });
      expect(expectShape(response, 422).errors).toHaveProperty('paid_amount');
    }
    for (const query of ['page=1e20', 'page=1e20&per_page=5', 'page=9007199254740993']) {
      expect(expectShape(await t.call('GET', `/locations?${query}`), 422).errors).toHaveProperty('page');
    }
  });
});

describe('dates in time-slot ranges', () => {
  const slots = (query: string) =>
    t.call('GET', `/locations/${locationId}/time-slots?service_uuid=${serviceId}&${query}`);
  it('an invalid range_start alone, and years 0000 and 9999: 422 naming the field', async () => {
    expect(Object.keys(expectShape(await slots('range_start=2026-13-45'), 422).errors!)).toEqual([
      'range_start',
    ]);
    expect(expectShape(await slots('range_start=0000-01-01'), 422).errors).toHaveProperty('range_start');
    expect(
      expectShape(await slots('range_start=0000-01-01&range_end=0000-01-02'), 422).errors,
    ).toHaveProperty('range_start');
    expect(
      expectShape(await slots('range_start=9999-12-31&range_end=9999-12-31'), 422).errors,
    ).toHaveProperty('range_end');
    const next = await t.call(
      'GET',
      `/locations/${locationId}/time-slots/next?service_uuid=${serviceId}&from=0000-01-01`,
    );
    expect(expectShape(next, 422).errors).toHaveProperty('from');
  });
});

describe('framework errors in our shape, without the path or framework codes', () => {
  it('bad percent-encoding (400) and an over-long path parameter (414)', async () => {
    const bad = await t.app.inject({ method: 'GET', url: `${API}/locations/%E0%A4%A`, headers: t.headers });
    expect(expectShape(bad, 400, 'bad_url').message).not.toContain('%E0');
    const long = await t.app.inject({
      method: 'GET',
      url: `${API}/locations/${'a'.repeat(500)}`,
      headers: t.headers,
    });
    expect(expectShape(long, 414, 'uri_too_long').message).not.toContain('aaaa');
    for (const response of [bad, long]) expect(response.body).not.toMatch(/FST_|\/api\//);
  });

  it('over a real socket: headers over the limit (431), an unknown method and a broken request line (400)', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk;
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const parse = (answer: string) => ({
      status: Number(answer.split(' ')[1]),
      body: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)),
    });
    const huge = parse(
      await raw(`GET ${API}/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(huge).toEqual({ status: 431, body: { message: expect.any(String), code: 'headers_too_large' } });
    const method = parse(await raw(`FROBNICATE ${API}/ping HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(method).toEqual({ status: 400, body: { message: expect.any(String), code: 'bad_request' } });
    const line = parse(await raw('GET /\u0001 nonsense\r\n\r\n'));
    expect(line.status).toBe(400);
    expect(line.body.code).toBe('bad_request');
    // A method Node knows but no route serves: our 404.
    const propfind = await t.app.inject({
      method: 'PROPFIND' as 'GET',
      url: `${API}/ping`,
      headers: t.headers,
    });
    expectShape(propfind, 404, 'not_found');
  });
});

describe('dates the stores disagree on', () => {
  it('a filter date in year 0000 or 9999 is a 422 naming it, on either store', async () => {
    for (const query of ['reserved_on_from=0000-01-01T00:00:00Z', 'reserved_on_to=9999-12-31T23:59:59Z']) {
      const response = await t.call('GET', `/bookings?${query}`);
      expect(expectShape(response, 422).errors).toHaveProperty(query.split('=')[0]!);
    }
  });
});

describe('invalid data is refused, not stored (issue 18 point 2)', () => {
  it('overlapping opening_hours intervals, on create and on change', async () => {
    const before = (await t.call('GET', '/locations')).json().meta.total;
    const overlapping = {
      mon: [
        { from: '09:00', to: '12:00' },
        { from: '11:30', to: '14:00' },
      ],
    };
    const created = await t.call('POST', '/locations', {
      name: 'X',
      timezone: 'UTC',
      opening_hours: overlapping,
    });
    expect(expectShape(created, 422).errors).toHaveProperty(['opening_hours.mon.1']);
    expect((await t.call('GET', '/locations')).json().meta.total).toBe(before);
    const patched = await t.call('PATCH', `/locations/${locationId}`, { opening_hours: overlapping });
    expectShape(patched, 422);
    // Touching intervals do not overlap.
    const touching = {
      mon: [
        { from: '09:00', to: '12:00' },
        { from: '12:00', to: '14:00' },
      ],
    };
    expect((await t.call('PATCH', `/locations/${locationId}`, { opening_hours: touching })).statusCode).toBe(
      200,
    );
  });

  it('an avatar or image URL that is not http(s), or has an invalid port', async () => {
    for (const avatar of [
      'javascript:alert(1)',
      'data:image/png;base64,AA',
      'http://example.com:99999/a.png',
      'http://example.com:0/a.png',
      'https://exa\tmple.com/a.png',
    ]) {
      expect(
        expectShape(await t.call('POST', '/staffers', { first_name: 'A', avatar }), 422).errors,
      ).toHaveProperty('avatar');
    }
    const image = await t.call('PATCH', `/locations/${locationId}`, { images: ['ftp://example.com/a.png'] });
    expect(expectShape(image, 422).errors).toHaveProperty(['images.0']);
    expect(
      (await t.call('POST', '/staffers', { first_name: 'A', avatar: 'https://example.com:8443/a.png' }))
        .statusCode,
    ).toBe(201);
  });

  it('webhook URLs with CR/LF or port 0, and IPv6 encodings of private addresses', async () => {
    for (const url of [
      'https://example.com/a\r\nX: y',
      'https://example.com:0/',
      'http://[2002:7f00:1::]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[::ffff:7f00:1]/',
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
    ]) {
      expect(expectShape(await t.call('POST', '/webhooks', { url }), 422).errors, url).toHaveProperty('url');
    }
    expect((await t.call('GET', '/webhooks')).json().meta.total).toBe(0);
  });
});

describe('instants at the ends of the calendar (found by the fuzz test)', () => {
  it('reserved_on in year 9999 or 0000 is a 422 naming it (reschedule: the fuzz test)', async () => {
    for (const reservedOn of ['9999-12-31T23:59:59Z', '0000-01-01T00:00:00Z', '0050-01-01T10:00:00Z']) {
      const create = await t.call('POST', '/bookings', {
        reserved_on: reservedOn,
        location_uuid: locationId,
        service_uuid: serviceId,
        customer_phone: '+4915112345678',
      });
      expect(expectShape(create, 422).errors).toHaveProperty('reserved_on');
    }
  });
});
