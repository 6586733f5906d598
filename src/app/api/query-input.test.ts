import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  bookingBody,
  expect422,
  openStudio,
  PHONE,
  type Studio,
  statusOfType,
} from '../../../test/bookings/bookings-kit.js';
import { API } from '../../../test/helpers/build-test-app.js';

// POST and PUT read body fields from the query string when the body lacks them
// (the real service merges query and body, Laravel-style); the body wins where both are given.
let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

function send(method: string, path: string, query: Record<string, string>, body?: unknown) {
  return s.t.app.inject({
    method: method as 'POST',
    url: `${API}${path}?${new URLSearchParams(query).toString()}`,
    headers: s.t.headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

describe('query-string input on POST and PUT', () => {
  it('creates a booking (201) from a POST whose every field is in the query and has no body', async () => {
    const start = at(s.nextDay(), '10:00');
    const fields = bookingBody(s.f, start, { booking_callback: 'true', customer_first_name: 'Query' });
    const response = await send('POST', '/bookings', fields as Record<string, string>);
    expect(response.statusCode, response.body).toBe(201);
    const booking = response.json().data;
    expect(booking.start_time).toBe(start);
    expect(booking.staffer.uuid).toBe(s.f.anna.id);
    // "true" from the query is read as the boolean it stands for.
    expect(booking.booking_callback).toBe(true);
    expect(booking.customer).toMatchObject({ phone: PHONE, first_name: 'Query' });
  });

  it('lets the body win where both carry a field, and fills only what the body lacks', async () => {
    const day = s.nextDay();
    const { staffer_uuid: _dropped, ...body } = bookingBody(s.f, at(day, '11:00'));
    const response = await send(
      'POST',
      '/bookings',
      { staffer_uuid: s.f.ben.id, reserved_on: at(day, '15:00'), booking_comment: 'from the query' },
      { ...body, booking_comment: 'from the body' },
    );
    expect(response.statusCode, response.body).toBe(201);
    const booking = response.json().data;
    expect(booking.start_time).toBe(at(day, '11:00'));
    expect(booking.staffer.uuid).toBe(s.f.ben.id);
    expect(booking.booking_comment).toBe('from the body');
  });

  it('reads a PUT field from the query, and still answers 422 for a bad query value', async () => {
    const created = await send('POST', '/bookings', bookingBody(s.f, at(s.nextDay(), '12:00')) as never);
    expect(created.statusCode).toBe(201);
    const uuid = created.json().data.uuid;
    const confirmed = await statusOfType(s.t, 'confirmed');
    const changed = await send('PUT', `/bookings/${uuid}/status`, { status_uuid: confirmed.uuid });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.status.uuid).toBe(confirmed.uuid);
    expect422(await send('PUT', `/bookings/${uuid}/status`, { status_uuid: 'nope' }), ['status_uuid']);
  });

  it('does not read the query on GET routes as a body', async () => {
    const response = await send('GET', '/bookings', { per_page: '2' });
    expect(response.statusCode).toBe(200);
    expect(response.json().meta.per_page).toBe(2);
  });
});
