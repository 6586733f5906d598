import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BookingFixture, bookingFixture } from '../../test/helpers/booking-fixture.js';
import { API, buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { buildApp } from '../app/app.js';
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

describe('shared evaluations (other ranges and answer zones)', () => {
  type Body = { dates: { date: string; slots: { start_time: string; quantity: number }[] }[] };
  const path = (start: string, end: string, zone: string) =>
    `/locations/${f.location.id}/time-slots?service_uuid=${f.haircut.id}&range_start=${start}` +
    `&range_end=${end}&timezone=${encodeURIComponent(zone)}`;
  /** Seats offered at an instant, whatever day or zone the answer groups it under. */
  const quantityAt = (body: Body, instant: string) =>
    body.dates.flatMap((d) => d.slots).find((s) => s.start_time === instant)?.quantity ?? 0;
  const seatBehindTheApi = (staffer: string, start: string, end: string) =>
    t.db
      .insertInto('occupancies')
      .values({
        workspace_id: t.workspace.id,
        staffer_id: staffer,
        location_id: f.location.id,
        service_id: f.haircut.id,
        service_start: new Date(start),
        span: `[${start},${end})`,
        capacity: 1,
        seats_taken: 1,
      })
      .execute();

  it('serves another range and zone of the same minute from the same evaluation', async () => {
    clock.set('2026-09-01T09:00:30Z');
    const berlin = (await t.call('GET', path('2026-09-15', '2026-09-15', 'Europe/Berlin'))).json() as Body;
    expect(quantityAt(berlin, '2026-09-15T09:00:00Z')).toBe(2);
    // Behind the API's back, as above: Ben holds 11:00-12:00 Berlin on the 15th.
    await seatBehindTheApi(f.ben.id, '2026-09-15T09:00:00Z', '2026-09-15T10:00:00Z');
    // Another range in another zone: not in the answer cache, yet still 2 seats at 11:00 Berlin
    // — the evaluation made for the first query answered it.
    const tokyo = (await t.call('GET', path('2026-09-14', '2026-09-16', 'Asia/Tokyo'))).json() as Body;
    expect(quantityAt(tokyo, '2026-09-15T09:00:00Z')).toBe(2);
    // The next minute evaluates afresh and sees Ben's seat.
    clock.advance(60_000);
    const fresh = (await t.call('GET', path('2026-09-14', '2026-09-16', 'Asia/Tokyo'))).json() as Body;
    expect(quantityAt(fresh, '2026-09-15T09:00:00Z')).toBe(1);
  });

  it('answers from a shared evaluation exactly as computed afresh', async () => {
    clock.set('2026-09-01T10:00:30Z');
    await t.call('GET', path('2026-09-16', '2026-09-16', 'Europe/Berlin'));
    const shared = await t.call('GET', path('2026-09-13', '2026-09-20', 'America/New_York'));
    // An exact minute is never served from either cache.
    clock.set('2026-09-01T10:01:00Z');
    const afresh = await t.call('GET', path('2026-09-13', '2026-09-20', 'America/New_York'));
    expect(shared.statusCode).toBe(200);
    expect(shared.json()).toEqual(afresh.json());
    expect(quantityAt(shared.json() as Body, '2026-09-16T07:00:00Z')).toBe(2);
  });

  it('never serves an evaluation older than an API write', async () => {
    clock.set('2026-09-01T11:00:30Z');
    const before = (await t.call('GET', path('2026-09-17', '2026-09-17', 'Europe/Berlin'))).json() as Body;
    expect(quantityAt(before, '2026-09-17T07:00:00Z')).toBe(2);
    const booked = await t.call('POST', '/bookings', {
      reserved_on: '2026-09-17T07:00:00Z',
      location_uuid: f.location.id,
      service_uuid: f.haircut.id,
      staffer_uuid: f.anna.id,
      customer_phone: '+4915112345679',
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const after = (await t.call('GET', path('2026-09-16', '2026-09-18', 'Europe/London'))).json() as Body;
    expect(quantityAt(after, '2026-09-17T07:00:00Z')).toBe(1);
  });
});

describe('EvaluationCache bounds', () => {
  it('drops the oldest evaluations past its bound', async () => {
    const { EvaluationCache } = await import('./evaluation-cache.js');
    const cache = new EvaluationCache();
    // 100,000 instants = 200,000 numbers each; the bound is 1,000,000 numbers.
    const starts = Array.from({ length: 100_000 }, (_, i) => i);
    const evaluation = { lower: 0, upper: 1, starts, quantities: starts, free: [] };
    for (let i = 0; i < 6; i++) cache.set(`k${i}`, evaluation);
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k1')).toBe(evaluation);
    expect(cache.get('k5')).toBe(evaluation);
    expect(cache.size).toBe(5);
  });
});
