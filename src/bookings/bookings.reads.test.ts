import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  callAs,
  change,
  expect422,
  type Json,
  openStudio,
  type Studio,
  statusOfType,
} from '../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../test/helpers/build-test-app.js';
import { createLocation, createStaffer } from '../../test/helpers/factories.js';
import { insertBookingRow } from '../../test/helpers/webhook-events.js';

let s: Studio;
let uptown: string;
let eve: string;
let days: string[];
let other: Awaited<ReturnType<typeof createOtherWorkspace>>;
let theirBooking: string;
/** b1..b5 in start order; see beforeAll for who, where, whom and which status. */
let b: Json[];

const A = '+4915111111111';
const B = '+4915122222222';

beforeAll(async () => {
  s = await openStudio();
  const { t, f } = s;
  uptown = (await createLocation(t.db, t.workspace.id, { name: 'Uptown' })).id;
  await t.db
    .insertInto('service_locations')
    .values({ workspace_id: t.workspace.id, service_id: f.haircut.id, location_id: uptown })
    .execute();
  eve = (await createStaffer(t.db, t.workspace.id, uptown, [f.haircut.id], { firstName: 'Eve' })).id;
  days = [s.nextDay(), s.nextDay(), s.nextDay()];
  const [d1, d2, d3] = days as [string, string, string];
  const b1 = await book(t, bookingBody(f, at(d1, '10:00'), { customer_phone: A }));
  const b4 = await book(
    t,
    bookingBody(f, at(d1, '11:00'), { customer_phone: A, staffer_uuid: eve, location_uuid: uptown }),
  );
  const b2 = await book(t, bookingBody(f, at(d1, '12:00'), { customer_phone: B, staffer_uuid: f.ben.id }));
  const b3 = await book(t, bookingBody(f, at(d2, '10:00'), { customer_phone: B }));
  const b5 = await book(t, bookingBody(f, at(d3, '09:00'), { customer_phone: A, staffer_uuid: f.ben.id }));
  const confirmed = await statusOfType(t, 'confirmed');
  await change(t, 'PUT', `/bookings/${b2.uuid}/status`, { status_uuid: confirmed.uuid });
  await change(t, 'PUT', `/bookings/${b3.uuid}/status/complete`, {
    account_uuid: f.cash.id,
    paid_amount: 9000,
  });
  await change(t, 'PUT', `/bookings/${b4.uuid}/status/cancel`, { cancel_reason: 'postponed' });
  const custom = (await t.call('POST', '/bookings/statuses', { name: 'Waiting list' })).json().data;
  await change(t, 'PUT', `/bookings/${b5.uuid}/status`, { status_uuid: custom.uuid });
  b = [];
  for (const booking of [b1, b2, b3, b4, b5]) {
    b.push((await t.call('GET', `/bookings/${booking.uuid}`)).json().data);
  }
  other = await createOtherWorkspace(t.db);
  theirBooking = await insertBookingRow(t.db, other.workspace.id);
});
afterAll(() => s.t.close());

/** The uuids GET /bookings answers for this query, in order. */
async function listed(query: string): Promise<string[]> {
  const response = await s.t.call('GET', `/bookings${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.map((booking: Json) => booking.uuid);
}

const ids = (...indexes: number[]) => indexes.map((i) => b[i - 1].uuid);

describe('GET /bookings/{uuid}', () => {
  it('answers {data: booking} for each booking, as the list shows it', async () => {
    const list = (await s.t.call('GET', '/bookings?per_page=100')).json().data;
    for (const booking of b) {
      expect(list.find((item: Json) => item.uuid === booking.uuid)).toEqual(booking);
    }
    expect(b[0].customer.uuid).toBe(b[3].customer.uuid);
    expect(b[2].order.amount_paid).toBe(9000);
  });
});

describe('GET /bookings filters', () => {
  it('lists every booking of the workspace by start time, and none of another workspace', async () => {
    expect(await listed('')).toEqual(ids(1, 4, 2, 3, 5));
    const response = await s.t.call('GET', '/bookings');
    expect(response.json().meta.total).toBe(5);
    const theirs = await callAs(s.t, other.headers, 'GET', '/bookings');
    expect(theirs.json().data.map((x: Json) => x.uuid)).toEqual([theirBooking]);
    expect(await listed(`?location_uuid=${await theirLocation()}`)).toEqual([]);
  });

  it('filters by location_uuid, staffer_uuid and customer_uuid', async () => {
    expect(await listed(`?location_uuid=${uptown}`)).toEqual(ids(4));
    expect(await listed(`?location_uuid=${s.f.location.id}`)).toEqual(ids(1, 2, 3, 5));
    expect(await listed(`?staffer_uuid=${s.f.anna.id}`)).toEqual(ids(1, 3));
    expect(await listed(`?staffer_uuid=${s.f.ben.id}`)).toEqual(ids(2, 5));
    expect(await listed(`?staffer_uuid=${eve}`)).toEqual(ids(4));
    expect(await listed(`?customer_uuid=${b[0].customer.uuid}`)).toEqual(ids(1, 4, 5));
    expect(await listed(`?customer_uuid=${b[1].customer.uuid}`)).toEqual(ids(2, 3));
  });

  it('filters by status_type', async () => {
    expect(await listed('?status_type=new')).toEqual(ids(1));
    expect(await listed('?status_type=confirmed')).toEqual(ids(2));
    expect(await listed('?status_type=completed')).toEqual(ids(3));
    expect(await listed('?status_type=canceled')).toEqual(ids(4));
    expect(await listed('?status_type=custom')).toEqual(ids(5));
    expect(await listed(`?status_type=completed&staffer_uuid=${s.f.ben.id}`)).toEqual([]);
  });

  it('filters by reserved_on_from and reserved_on_to, both inclusive', async () => {
    const [d1, d2] = days as [string, string];
    const q = (value: string) => encodeURIComponent(value);
    expect(await listed(`?reserved_on_from=${q(at(d1, '12:00'))}`)).toEqual(ids(2, 3, 5));
    expect(await listed(`?reserved_on_to=${q(at(d1, '12:00'))}`)).toEqual(ids(1, 4, 2));
    expect(
      await listed(`?reserved_on_from=${q(at(d1, '11:00'))}&reserved_on_to=${q(at(d2, '10:00'))}`),
    ).toEqual(ids(4, 2, 3));
    // An offset is read as such: d1 12:00 Berlin is the UTC instant of b2.
    expect(
      await listed(
        `?reserved_on_from=${q(`${d1}T12:00:00+02:00`)}&reserved_on_to=${q(`${d1}T12:00:00+02:00`)}`,
      ),
    ).toEqual(ids(2));
  });

  it('answers bad filter values with 422 naming the filter', async () => {
    expect422(await s.t.call('GET', '/bookings?location_uuid=uptown'), ['location_uuid']);
    expect422(await s.t.call('GET', '/bookings?staffer_uuid=1'), ['staffer_uuid']);
    expect422(await s.t.call('GET', '/bookings?customer_uuid=x'), ['customer_uuid']);
    expect422(await s.t.call('GET', '/bookings?status_type=finished'), ['status_type']);
    expect422(await s.t.call('GET', '/bookings?reserved_on_from=yesterday'), ['reserved_on_from']);
    expect422(await s.t.call('GET', '/bookings?reserved_on_to=2026-13-01T00:00:00Z'), ['reserved_on_to']);
    expect422(await s.t.call('GET', '/bookings?updated_since=soon'), ['updated_since']);
    expect422(await s.t.call('GET', '/bookings?page=0&per_page=101'), ['page', 'per_page']);
  });
});

describe('GET /bookings pagination', () => {
  it('pages with meta and links, keeping the filters in the links', async () => {
    const first = (await s.t.call('GET', `/bookings?per_page=2&location_uuid=${s.f.location.id}`)).json();
    expect(first.data.map((x: Json) => x.uuid)).toEqual(ids(1, 2));
    expect(first.meta).toEqual({ current_page: 1, last_page: 2, per_page: 2, total: 4 });
    const link = (url: string | null) => {
      if (url === null) return null;
      const parsed = new URL(url, 'http://localhost');
      expect(parsed.pathname).toBe('/api/public/v2/bookings');
      expect(parsed.searchParams.get('location_uuid')).toBe(s.f.location.id);
      return [parsed.searchParams.get('page'), parsed.searchParams.get('per_page')];
    };
    expect(link(first.links.first)).toEqual(['1', '2']);
    expect(link(first.links.last)).toEqual(['2', '2']);
    expect(first.links.prev).toBeNull();
    expect(link(first.links.next)).toEqual(['2', '2']);
    const second = (
      await s.t.call(
        'GET',
        new URL(first.links.next, 'http://localhost').pathname.slice('/api/public/v2'.length) +
          new URL(first.links.next, 'http://localhost').search,
      )
    ).json();
    expect(second.data.map((x: Json) => x.uuid)).toEqual(ids(3, 5));
    expect(second.meta.current_page).toBe(2);
    expect(link(second.links.prev)).toEqual(['1', '2']);
    expect(second.links.next).toBeNull();
  });

  it('answers an empty page beyond the last with the true total', async () => {
    const beyond = (await s.t.call('GET', '/bookings?page=9&per_page=2')).json();
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toEqual({ current_page: 9, last_page: 3, per_page: 2, total: 5 });
    const none = (await s.t.call('GET', `/bookings?staffer_uuid=${s.f.anna.id}&status_type=canceled`)).json();
    expect(none.data).toEqual([]);
    expect(none.meta).toEqual({ current_page: 1, last_page: 1, per_page: 15, total: 0 });
  });
});

describe('GET /bookings?updated_since', () => {
  it('lists only bookings changed at or after the instant', async () => {
    const { t } = s;
    // Put every booking's last change in the past, then change one of them now.
    await t.db
      .updateTable('bookings')
      .set({ updated_at: new Date('2020-01-01T00:00:00Z') })
      .where('workspace_id', '=', t.workspace.id)
      .execute();
    expect(await listed(`?updated_since=${encodeURIComponent('2020-01-01T00:00:00Z')}`)).toEqual(
      ids(1, 4, 2, 3, 5),
    );
    expect(await listed(`?updated_since=${encodeURIComponent('2020-01-01T00:00:01Z')}`)).toEqual([]);
    const response = await t.call('POST', `/bookings/${b[0].uuid}/public_notes`, {
      value: 'Late by 5 minutes',
    });
    expect(response.statusCode).toBe(201);
    expect(await listed(`?updated_since=${encodeURIComponent('2021-01-01T00:00:00Z')}`)).toEqual(ids(1));
  });
});

async function theirLocation(): Promise<string> {
  const row = await s.t.db
    .selectFrom('bookings')
    .select('location_id')
    .where('id', '=', theirBooking)
    .executeTakeFirstOrThrow();
  return row.location_id;
}
