import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type BookingFixture, bookingFixture } from '../../test/helpers/booking-fixture.js';
import { API, buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { loadConfig } from '../config.js';

// Half a minute past: answers may be cached (an exact minute never is).
const clock = new FixedClock('2026-09-01T08:00:30Z');
let t: TestApp;
let f: BookingFixture;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  f = await bookingFixture(t);
});
afterAll(() => t.close());

const slotsPath = () =>
  `/locations/${f.location.id}/time-slots?service_uuid=${f.haircut.id}&range_start=2026-09-10&range_end=2026-09-10`;
const firstSlot = (body: { dates: { slots: { start: string; quantity: number }[] }[] }) =>
  body.dates[0]!.slots[0]!;

describe('time-slot answers cache', () => {
  it('serves a repeat from the cache, which a direct store change (no API write) does not reach', async () => {
    const before = (await t.call('GET', slotsPath())).json();
    expect(firstSlot(before)).toMatchObject({ start: '09:00', quantity: 2 });
    // Behind the API's back: a seat for Anna at 09:00 Berlin. The cached answer still shows 2 —
    // which proves the repeat was served from the cache.
    await t.db
      .insertInto('occupancies')
      .values({
        workspace_id: t.workspace.id,
        staffer_id: f.anna.id,
        location_id: f.location.id,
        service_id: f.haircut.id,
        service_start: new Date('2026-09-10T07:00:00Z'),
        span: '[2026-09-10T07:00:00Z,2026-09-10T08:00:00Z)',
        capacity: 1,
        seats_taken: 1,
      })
      .execute();
    expect(firstSlot((await t.call('GET', slotsPath())).json()).quantity).toBe(2);
    // The next minute is computed afresh.
    clock.advance(60_000);
    expect(firstSlot((await t.call('GET', slotsPath())).json()).quantity).toBe(1);
  });

  it('never serves an answer older than an API write that committed, on any app sharing the store', async () => {
    const other = await buildApp({
      database: t.database,
      config: { ...loadConfig({}), worker: 'off' },
      clock,
    });
    try {
      const listed = firstSlot((await t.call('GET', slotsPath())).json());
      expect(listed).toMatchObject({ start: '09:00', quantity: 1 });
      // Another process books Ben at 09:00 through its API.
      const booked = await other.inject({
        method: 'POST',
        url: `${API}/bookings`,
        headers: t.headers,
        payload: {
          reserved_on: '2026-09-10T07:00:00Z',
          location_uuid: f.location.id,
          service_uuid: f.haircut.id,
          staffer_uuid: f.ben.id,
          customer_phone: '+4915112345678',
        },
      });
      expect(booked.statusCode, booked.body).toBe(201);
      // Anna (behind the API's back) and now Ben hold 09:00-10:00: the first start is 10:00.
      const after = (await t.call('GET', slotsPath())).json();
      expect(firstSlot(after)).toMatchObject({ start: '10:00', quantity: 2 });
    } finally {
      await other.close();
    }
  });

  it('computes an exact minute afresh every time', async () => {
    clock.set('2026-09-01T08:05:00Z');
    expect(firstSlot((await t.call('GET', slotsPath())).json()).start).toBe('10:00');
    await t.db.deleteFrom('occupancies').where('staffer_id', '=', f.anna.id).execute();
    // No API write, same instant, but an exact-minute instant is not cached: Anna is free again.
    expect(firstSlot((await t.call('GET', slotsPath())).json())).toMatchObject({
      start: '09:00',
      quantity: 1,
    });
  });
});

describe('SlotsCache bounds', () => {
  it('keeps at most 16 MiB of answers, dropping the oldest first', async () => {
    const { SlotsCache } = await import('./slots-cache.js');
    const cache = new SlotsCache();
    const body = Buffer.alloc(1024 * 1024, '€'); // 1 MiB of a multi-byte character
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, 'v', body);
    // 20 MiB offered, 16 MiB kept: the four oldest are gone, the newest sixteen stay.
    expect([0, 1, 2, 3].map((i) => cache.get(`k${i}`, 'v'))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(cache.get('k4', 'v')).toBe(body);
    expect(cache.get('k19', 'v')).toBe(body);
    expect(cache.get('k19', 'other version')).toBeUndefined();
  });
});
