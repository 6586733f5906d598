import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BookingFixture, bookingFixture } from '../../test/helpers/booking-fixture.js';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { createLocation, createService, createStaffer } from '../../test/helpers/factories.js';

// Tuesday 2026-09-01 10:00 in Berlin (UTC+2).
const clock = new FixedClock('2026-09-01T08:00:00Z');
let t: TestApp;
let f: BookingFixture;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  f = await bookingFixture(t);
});
afterAll(() => t.close());

const slotsUrl = (query: Record<string, string>, locationId = f.location.id, suffix = '') =>
  `/locations/${locationId}/time-slots${suffix}?${new URLSearchParams({ service_uuid: f.haircut.id, ...query })}`;

describe('GET /locations/{uuid}/time-slots', () => {
  it('answers today, timezone, currency and one entry per date of the range', async () => {
    const response = await t.call('GET', slotsUrl({ range_start: '2026-09-10', range_end: '2026-09-12' }));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.today).toBe('2026-09-01');
    expect(body.timezone).toBe('Europe/Berlin');
    expect(body.currency).toBe('EUR');
    expect(body.dates.map((d: { date: string }) => d.date)).toEqual([
      '2026-09-10',
      '2026-09-11',
      '2026-09-12',
    ]);
    const day = body.dates[0];
    // 09:00-17:00 with a 60-minute service on a 15-minute step: 09:00 ... 16:00 = 29 starts.
    expect(day.slots).toHaveLength(29);
    expect(day.slots[0]).toEqual({
      start: '09:00',
      start_formatted: 9 * 3600,
      end: '10:00',
      end_formatted: 10 * 3600,
      quantity: 2,
      price: 9000,
      price_formatted: '€90.00',
      start_time: '2026-09-10T07:00:00Z',
      end_time: '2026-09-10T08:00:00Z',
      start_offset: '+02:00',
      end_offset: '+02:00',
    });
    expect(day.slots.at(-1).start).toBe('16:00');
    expect(day.intervals).toEqual([
      {
        start: '09:00',
        start_formatted: 32400,
        end: '17:00',
        end_formatted: 61200,
        start_time: '2026-09-10T07:00:00Z',
        end_time: '2026-09-10T15:00:00Z',
        start_offset: '+02:00',
        end_offset: '+02:00',
      },
    ]);
  });

  it('counts free staffers in quantity, and staffer_uuid narrows to one', async () => {
    const both = (
      await t.call('GET', slotsUrl({ range_start: '2026-09-10', range_end: '2026-09-10' }))
    ).json();
    expect(both.dates[0].slots[0].quantity).toBe(2);
    const one = (
      await t.call(
        'GET',
        slotsUrl({ range_start: '2026-09-10', range_end: '2026-09-10', staffer_uuid: f.anna.id }),
      )
    ).json();
    expect(one.dates[0].slots[0].quantity).toBe(1);
  });

  it('answers in another zone: times and dates are that zone’s', async () => {
    const body = (
      await t.call(
        'GET',
        slotsUrl({ range_start: '2026-09-10', range_end: '2026-09-10', timezone: 'America/New_York' }),
      )
    ).json();
    expect(body.timezone).toBe('America/New_York');
    // 09:00 Berlin (UTC+2) is 03:00 in New York (UTC-4).
    expect(body.dates[0].slots[0].start).toBe('03:00');
    expect(body.dates[0].slots[0].start_time).toBe('2026-09-10T07:00:00Z');
  });

  it('answers with the tz database spelling of a zone given in another letter case', async () => {
    const body = (
      await t.call(
        'GET',
        slotsUrl({ range_start: '2026-09-10', range_end: '2026-09-10', timezone: 'america/NEW_YORK' }),
      )
    ).json();
    expect(body.timezone).toBe('America/New_York');
    expect(body.dates[0].slots[0].start_time).toBe('2026-09-10T07:00:00Z');
  });

  it('leaves out slots before now + minimum notice on today', async () => {
    const body = (
      await t.call('GET', slotsUrl({ range_start: '2026-09-01', range_end: '2026-09-01' }))
    ).json();
    // now 10:00 Berlin, 60 minutes notice: the first start is 11:00.
    expect(body.dates[0].slots[0].start).toBe('11:00');
  });

  it('accepts a range of exactly 90 days and a trailing slash', async () => {
    const response = await t.call(
      'GET',
      slotsUrl({ range_start: '2026-09-01', range_end: '2026-11-30' }, f.location.id, '/'),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().dates).toHaveLength(91);
  });

  it('defaults the range to a week from today', async () => {
    const response = await t.call(
      'GET',
      `/locations/${f.location.id}/time-slots?service_uuid=${f.haircut.id}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().dates.map((d: { date: string }) => d.date)).toEqual([
      '2026-09-01',
      '2026-09-02',
      '2026-09-03',
      '2026-09-04',
      '2026-09-05',
      '2026-09-06',
      '2026-09-07',
    ]);
  });

  const invalid: [string, Record<string, string>, string][] = [
    ['a range over 90 days', { range_start: '2026-09-01', range_end: '2026-12-01' }, 'range_end'],
    ['an end before the start', { range_start: '2026-09-10', range_end: '2026-09-09' }, 'range_end'],
    ['a malformed start date', { range_start: '10.09.2026', range_end: '2026-09-12' }, 'range_start'],
    ['an impossible date', { range_start: '2026-02-30', range_end: '2026-03-02' }, 'range_start'],
    [
      'an unknown time zone',
      { range_start: '2026-09-10', range_end: '2026-09-10', timezone: 'Mars/Olympus' },
      'timezone',
    ],
    [
      'a bare UTC offset as the zone',
      { range_start: '2026-09-10', range_end: '2026-09-10', timezone: '+02:00' },
      'timezone',
    ],
    ['a malformed service uuid', { service_uuid: 'nope' }, 'service_uuid'],
  ];
  for (const [name, query, field] of invalid) {
    it(`answers 422 naming ${field} for ${name}`, async () => {
      const response = await t.call('GET', slotsUrl(query));
      expect(response.statusCode).toBe(422);
      expect(response.json().code).toBe('validation_failed');
      expect(Object.keys(response.json().errors)).toContain(field);
    });
  }

  it('answers 422 without service_uuid', async () => {
    const response = await t.call('GET', `/locations/${f.location.id}/time-slots?range_start=2026-09-10`);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toHaveProperty('service_uuid');
  });

  it('answers 422 for a service not offered at the location, and a staffer who does not provide it', async () => {
    const elsewhere = await createLocation(t.db, t.workspace.id, { name: 'Other branch' });
    const massage = await createService(t.db, t.workspace.id, [elsewhere.id], { name: 'Massage' });
    const notOffered = await t.call('GET', slotsUrl({ service_uuid: massage.id }));
    expect(notOffered.statusCode).toBe(422);
    expect(notOffered.json().errors).toHaveProperty('service_uuid');
    const carl = await createStaffer(t.db, t.workspace.id, f.location.id, [f.color.id], {
      firstName: 'Carl',
    });
    const wrongStaffer = await t.call('GET', slotsUrl({ staffer_uuid: carl.id }));
    expect(wrongStaffer.statusCode).toBe(422);
    expect(wrongStaffer.json().errors).toHaveProperty('staffer_uuid');
  });

  it("answers 404 for another workspace's location, exactly as for an unknown one", async () => {
    const other = await createOtherWorkspace(t.db);
    const theirs = await createLocation(t.db, other.workspace.id);
    const foreign = await t.call('GET', slotsUrl({}, theirs.id));
    const unknown = await t.call('GET', slotsUrl({}, '00000000-0000-4000-8000-000000000000'));
    expect(foreign.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
  });
});

describe('GET /locations/{uuid}/time-slots/next', () => {
  it('skips days without free time and answers only days that have slots', async () => {
    // Dora works only on Thursdays: the nearest two days with time are the next two Thursdays.
    const dora = await createStaffer(t.db, t.workspace.id, f.location.id, [f.haircut.id], {
      firstName: 'Dora',
      weekly: { thu: [{ from: '10:00', to: '12:00' }] },
    });
    const response = await t.call(
      'GET',
      `/locations/${f.location.id}/time-slots/next?service_uuid=${f.haircut.id}&staffer_uuid=${dora.id}&days=2`,
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.dates.map((d: { date: string }) => d.date)).toEqual(['2026-09-03', '2026-09-10']);
    expect(body.dates[0].slots.map((s: { start: string }) => s.start)).toEqual([
      '10:00',
      '10:15',
      '10:30',
      '10:45',
      '11:00',
    ]);
    expect(body.today).toBe('2026-09-01');
  });

  it('starts from `from` and answers an empty list when nothing is free before the horizon', async () => {
    const later = await t.call(
      'GET',
      `/locations/${f.location.id}/time-slots/next?service_uuid=${f.haircut.id}&from=2026-09-20`,
    );
    expect(later.json().dates[0].date).toBe('2026-09-20');
    const eve = await createStaffer(t.db, t.workspace.id, f.location.id, [f.haircut.id], {
      firstName: 'Eve',
      weekly: {},
    });
    const none = await t.call(
      'GET',
      `/locations/${f.location.id}/time-slots/next?service_uuid=${f.haircut.id}&staffer_uuid=${eve.id}`,
    );
    expect(none.statusCode).toBe(200);
    expect(none.json().dates).toEqual([]);
  });

  it('answers 422 for days over 31 and a malformed from', async () => {
    const response = await t.call(
      'GET',
      `/locations/${f.location.id}/time-slots/next?service_uuid=${f.haircut.id}&days=32&from=x`,
    );
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toContain('days');
  });
});
