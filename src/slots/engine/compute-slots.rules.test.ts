/**
 * Table tests of the booking rules: group capacity, step vs duration, the last slot of a day,
 * buffers, breaks, overrides, notice/horizon, and the reasons checkBookable gives.
 * Location Europe/Berlin in September (UTC+2) unless a case says otherwise.
 */
import { describe, expect, it } from 'vitest';
import { checkBookable, computeSlots } from './compute-slots.js';
import type { Occupancy, Schedule, ServiceInput, SlotQuery, StafferInput, Weekday } from './types.js';

const ALL_DAYS: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const DATE = '2026-09-10'; // a Thursday

/** An instant from Berlin summer wall time on DATE (UTC+2). */
const berlin = (hhmm: string, date = DATE) => Date.parse(`${date}T${hhmm}:00+02:00`);

function everyDay(from: string, to: string): Schedule['weekly'] {
  return Object.fromEntries(ALL_DAYS.map((d) => [d, [{ from, to }]]));
}

function staffer(
  stafferId: string,
  schedule: Partial<Schedule>,
  occupancies: Occupancy[] = [],
): StafferInput {
  return { stafferId, schedule: { weekly: {}, breaks: {}, overrides: [], ...schedule }, occupancies };
}

function service(over: Partial<ServiceInput> = {}): ServiceInput {
  return {
    id: 'svc',
    durationMinutes: 60,
    capacity: 1,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    priceMinor: 9000,
    ...over,
  };
}

function query(over: Partial<SlotQuery>): SlotQuery {
  return {
    locationZone: 'Europe/Berlin',
    answerZone: 'Europe/Berlin',
    rangeStart: DATE,
    rangeEnd: DATE,
    service: service(),
    rules: { slotStepMinutes: 60, minNoticeMinutes: 0, horizonDays: 365 },
    staffers: [],
    now: Date.parse('2026-09-01T00:00:00Z'),
    priceFormatted: '€90.00',
    ...over,
  };
}

/** An occupancy [from, to) on DATE; its service starts at `from` unless given. */
function occ(from: string, to: string, over: Partial<Occupancy> = {}): Occupancy {
  return {
    start: berlin(from),
    end: berlin(to),
    serviceId: 'svc',
    serviceStart: berlin(from),
    seatsTaken: 1,
    capacity: 1,
    ...over,
  };
}

const firstDay = (q: SlotQuery) => computeSlots(q)[0]!;
const startsOf = (q: SlotQuery) => firstDay(q).slots.map((s) => s.start);

describe('slot fields', () => {
  it('fills every field of a slot', () => {
    const day = firstDay(query({ staffers: [staffer('a', { weekly: everyDay('09:00', '10:00') })] }));
    expect(day).toEqual({
      date: DATE,
      slots: [
        {
          start: '09:00',
          start_formatted: 32400,
          end: '10:00',
          end_formatted: 36000,
          quantity: 1,
          price: 9000,
          price_formatted: '€90.00',
          start_time: '2026-09-10T07:00:00Z',
          end_time: '2026-09-10T08:00:00Z',
          start_offset: '+02:00',
          end_offset: '+02:00',
        },
      ],
      intervals: [
        {
          start: '09:00',
          start_formatted: 32400,
          end: '10:00',
          end_formatted: 36000,
          start_time: '2026-09-10T07:00:00Z',
          end_time: '2026-09-10T08:00:00Z',
          start_offset: '+02:00',
          end_offset: '+02:00',
        },
      ],
    });
  });

  it('returns one entry per date of the range, even when empty', () => {
    const days = computeSlots(query({ rangeStart: '2026-09-10', rangeEnd: '2026-09-12' }));
    expect(days).toEqual([
      { date: '2026-09-10', slots: [], intervals: [] },
      { date: '2026-09-11', slots: [], intervals: [] },
      { date: '2026-09-12', slots: [], intervals: [] },
    ]);
  });
});

describe('group services', () => {
  const sessions = [
    occ('10:00', '11:00', { seatsTaken: 3, capacity: 5 }), // partly full: 2 seats left
    occ('12:00', '13:00', { seatsTaken: 5, capacity: 5 }), // full
    occ('13:00', '14:00', { serviceId: 'other', seatsTaken: 1, capacity: 5 }), // another service
  ];
  const base = { service: service({ capacity: 5 }) };

  it('joins a partly full session and never lists a full one', () => {
    const q = query({ ...base, staffers: [staffer('a', { weekly: everyDay('09:00', '15:00') }, sessions)] });
    expect(firstDay(q).slots.map((s) => [s.start, s.quantity])).toEqual([
      ['09:00', 5],
      ['10:00', 2],
      ['11:00', 5],
      ['14:00', 5],
    ]);
    expect(checkBookable(q, berlin('10:00'))).toEqual({
      ok: true,
      staffers: [{ stafferId: 'a', freeSeats: 2 }],
    });
    expect(checkBookable(q, berlin('12:00'))).toEqual({ ok: false, reason: 'no_free_staffer' });
  });

  it('quantity sums free seats over staffers', () => {
    const q = query({
      ...base,
      staffers: [
        staffer('a', { weekly: everyDay('09:00', '15:00') }, sessions),
        staffer('b', { weekly: everyDay('09:00', '15:00') }),
      ],
    });
    expect(firstDay(q).slots.map((s) => s.quantity)).toEqual([10, 7, 10, 5, 5, 10]);
    expect(checkBookable(q, berlin('12:00'))).toEqual({
      ok: true,
      staffers: [{ stafferId: 'b', freeSeats: 5 }],
    });
  });

  it('counts individual staffers for a capacity-1 service', () => {
    const weekly = everyDay('09:00', '11:00');
    const q = query({
      staffers: [
        staffer('a', { weekly }),
        staffer('b', { weekly }, [occ('09:00', '10:00')]),
        staffer('c', { weekly }),
      ],
    });
    expect(firstDay(q).slots.map((s) => [s.start, s.quantity])).toEqual([
      ['09:00', 2],
      ['10:00', 3],
    ]);
    expect(checkBookable(q, berlin('09:00'), 'b')).toEqual({ ok: false, reason: 'no_free_staffer' });
    expect(checkBookable(q, berlin('09:00'), 'c')).toEqual({
      ok: true,
      staffers: [{ stafferId: 'c', freeSeats: 1 }],
    });
  });
});

describe('grid, duration and the end of the day', () => {
  it('a duration that does not divide the step: the booking must still end in the shift', () => {
    const q = query({
      service: service({ durationMinutes: 45 }),
      rules: { slotStepMinutes: 30, minNoticeMinutes: 0, horizonDays: 365 },
      staffers: [staffer('a', { weekly: everyDay('09:00', '11:00') })],
    });
    // 10:30 + 45 min = 11:15 is past 11:00.
    expect(firstDay(q).slots.map((s) => [s.start, s.end])).toEqual([
      ['09:00', '09:45'],
      ['09:30', '10:15'],
      ['10:00', '10:45'],
    ]);
  });

  it('the last slot of a day ends exactly at closing time', () => {
    const q = query({ staffers: [staffer('a', { weekly: everyDay('09:00', '17:00') })] });
    const day = firstDay(q);
    expect(day.slots.at(-1)).toMatchObject({ start: '16:00', end: '17:00', end_formatted: 61200 });
    expect(day.slots).toHaveLength(8);
  });

  it('a shift to 24:00 offers 23:00 and an interval ending at the next midnight', () => {
    const day = firstDay(query({ staffers: [staffer('a', { weekly: everyDay('22:00', '24:00') })] }));
    expect(day.slots.map((s) => [s.start, s.end, s.end_formatted])).toEqual([
      ['22:00', '23:00', 82800],
      ['23:00', '00:00', 86400],
    ]);
    // The end is a wall clock like a slot's ('00:00' of the next date, 86400), no longer '24:00'.
    expect(day.intervals).toMatchObject([
      { start: '22:00', start_formatted: 79200, end: '00:00', end_formatted: 86400 },
    ]);
    expect(day.intervals[0]!.end_time).toBe('2026-09-10T22:00:00Z');
  });

  it('checkBookable takes a free whole minute off the grid and refuses a start with seconds', () => {
    const q = query({
      rules: { slotStepMinutes: 15, minNoticeMinutes: 0, horizonDays: 365 },
      staffers: [staffer('a', { weekly: everyDay('09:00', '17:00') })],
    });
    // The step spaces the listed slots; 09:10 is free time all the same.
    expect(checkBookable(q, berlin('09:10'))).toEqual({
      ok: true,
      staffers: [{ stafferId: 'a', freeSeats: 1 }],
    });
    expect(checkBookable(q, berlin('09:15') + 1000)).toEqual({ ok: false, reason: 'not_on_grid' });
    expect(checkBookable(q, berlin('09:15')).ok).toBe(true);
    // Off the grid is still inside working time or not: 16:10 + 60 minutes ends after 17:00.
    expect(checkBookable(q, berlin('16:10'))).toEqual({ ok: false, reason: 'no_free_staffer' });
  });

  it('the start of an interval after a buffer is bookable though it is off the grid', () => {
    // 09:00-10:00 taken with a 10-minute buffer after it (the stored span ends 10:10): the free
    // interval starts at 10:10, which a client of the API books as it is.
    const q = query({
      rules: { slotStepMinutes: 15, minNoticeMinutes: 0, horizonDays: 365 },
      staffers: [
        staffer('a', { weekly: everyDay('09:00', '17:00') }, [
          occ('09:00', '10:10', { serviceStart: berlin('09:00') }),
        ]),
      ],
    });
    const [day] = computeSlots(q);
    expect(day!.intervals[0]).toMatchObject({ start: '10:10', end: '17:00' });
    expect(day!.slots[0]).toMatchObject({ start: '10:15' });
    expect(checkBookable(q, berlin('10:10')).ok).toBe(true);
    expect(checkBookable(q, berlin('10:09'))).toEqual({ ok: false, reason: 'no_free_staffer' });
  });
});

describe('buffers', () => {
  it('keeps buffer-before and buffer-after clear of an occupancy; touching is fine', () => {
    // A booking at t needs [t - 15, t + 30 + 30) clear of [10:00, 11:00):
    // blocked for 09:00 < t < 11:15. A swapped pair (30 before, 15 after) would allow 09:15 and refuse 11:15.
    const q = query({
      service: service({ durationMinutes: 30, bufferBeforeMinutes: 15, bufferAfterMinutes: 30 }),
      rules: { slotStepMinutes: 15, minNoticeMinutes: 0, horizonDays: 365 },
      staffers: [staffer('a', { weekly: everyDay('09:00', '12:00') }, [occ('10:00', '11:00')])],
    });
    const day = firstDay(q);
    expect(day.slots.map((s) => s.start)).toEqual(['09:00', '11:15', '11:30']);
    // Free time: 09:00-12:00 minus [10:00 - 30, 11:00 + 15).
    expect(day.intervals).toMatchObject([
      { start: '09:00', start_formatted: 32400, end: '09:30', end_formatted: 34200 },
      { start: '11:15', start_formatted: 40500, end: '12:00', end_formatted: 43200 },
    ]);
    expect(checkBookable(q, berlin('09:15'))).toEqual({ ok: false, reason: 'no_free_staffer' });
  });
});

describe('breaks and overrides', () => {
  it('a break splits the day on its weekday only', () => {
    const q = query({
      rangeStart: '2026-09-10',
      rangeEnd: '2026-09-11',
      staffers: [
        staffer('a', {
          weekly: { thu: [{ from: '09:00', to: '13:00' }], fri: [{ from: '09:00', to: '13:00' }] },
          breaks: { thu: [{ from: '11:00', to: '12:00' }] },
        }),
      ],
    });
    const [thursday, friday] = computeSlots(q);
    expect(thursday!.slots.map((s) => s.start)).toEqual(['09:00', '10:00', '12:00']);
    expect(thursday!.intervals.map((i) => [i.start, i.end])).toEqual([
      ['09:00', '11:00'],
      ['12:00', '13:00'],
    ]);
    expect(friday!.slots.map((s) => s.start)).toEqual(['09:00', '10:00', '11:00', '12:00']);
  });

  it('an override with no intervals is a day off; another replaces hours and breaks', () => {
    const q = query({
      rangeStart: '2026-09-10',
      rangeEnd: '2026-09-12',
      staffers: [
        staffer('a', {
          weekly: everyDay('09:00', '11:00'),
          breaks: Object.fromEntries(ALL_DAYS.map((d) => [d, [{ from: '14:30', to: '15:00' }]])),
          overrides: [
            { date: '2026-09-10', intervals: [] },
            { date: '2026-09-12', intervals: [{ from: '14:00', to: '16:00' }] },
          ],
        }),
      ],
    });
    const [off, normal, changed] = computeSlots(q);
    expect(off!.slots).toEqual([]);
    expect(off!.intervals).toEqual([]);
    expect(normal!.slots.map((s) => s.start)).toEqual(['09:00', '10:00']);
    // The weekly 14:30 break does not apply on an overridden date without breaks.
    expect(changed!.slots.map((s) => s.start)).toEqual(['14:00', '15:00']);
  });
});

describe('notice and horizon', () => {
  it('drops slots before now + notice', () => {
    // now 09:20 local + 90 minutes = 10:50 local.
    const q = query({
      now: berlin('09:20'),
      rules: { slotStepMinutes: 30, minNoticeMinutes: 90, horizonDays: 365 },
      staffers: [staffer('a', { weekly: everyDay('09:00', '13:00') })],
    });
    expect(startsOf(q)).toEqual(['11:00', '11:30', '12:00']);
    expect(firstDay(q).intervals.map((i) => [i.start, i.end])).toEqual([['10:50', '13:00']]);
    expect(checkBookable(q, berlin('10:30'))).toEqual({ ok: false, reason: 'too_soon' });
  });

  it('keeps a start exactly at now + horizon and drops later ones', () => {
    // now 2026-09-10T00:00Z + 2 days = 2026-09-12T00:00Z = 02:00 local on 09-12.
    const q = query({
      rangeStart: '2026-09-12',
      rangeEnd: '2026-09-13',
      now: Date.parse('2026-09-10T00:00:00Z'),
      rules: { slotStepMinutes: 60, minNoticeMinutes: 0, horizonDays: 2 },
      staffers: [staffer('a', { weekly: everyDay('00:00', '04:00') })],
    });
    const [last, beyond] = computeSlots(q);
    expect(last!.slots.map((s) => s.start)).toEqual(['00:00', '01:00', '02:00']);
    // The interval runs to the end of the last slot (02:00 + 60 min), not to the horizon.
    expect(last!.intervals.map((i) => [i.start, i.end])).toEqual([['00:00', '03:00']]);
    expect(beyond).toEqual({ date: '2026-09-13', slots: [], intervals: [] });
    expect(checkBookable(q, berlin('03:00', '2026-09-12'))).toEqual({ ok: false, reason: 'beyond_horizon' });
    expect(checkBookable(q, berlin('02:00', '2026-09-12')).ok).toBe(true);
  });

  it('cuts intervals at whole minutes when now has seconds: every field names the same moment', () => {
    // now 09:20:37.250 local + 90 minutes = 10:50:37.250: the interval starts at 10:51:00.
    const now = berlin('09:20') + 37_250;
    const q = query({
      now,
      rules: { slotStepMinutes: 30, minNoticeMinutes: 90, horizonDays: 365 },
      staffers: [staffer('a', { weekly: everyDay('09:00', '13:00') })],
    });
    const [interval] = firstDay(q).intervals;
    expect(interval).toMatchObject({
      start: '10:51',
      start_formatted: 39060,
      start_time: '2026-09-10T08:51:00Z',
      end_time: '2026-09-10T11:00:00Z',
    });
    expect(checkBookable(q, berlin('11:00')).ok).toBe(true);
    const horizon = query({
      rangeStart: '2026-09-12',
      rangeEnd: '2026-09-12',
      now: Date.parse('2026-09-09T20:40:37.250Z'),
      rules: { slotStepMinutes: 60, minNoticeMinutes: 0, horizonDays: 3 },
      staffers: [staffer('a', { weekly: everyDay('00:00', '24:00') })],
    });
    // The horizon, 2026-09-12T20:40:37.250Z (22:40:37 local), is cut to 22:40: the interval
    // ends one service length later, at 23:40 local.
    const last = firstDay(horizon).intervals.at(-1)!;
    expect(last).toMatchObject({ end: '23:40', end_formatted: 85200, end_time: '2026-09-12T21:40:00Z' });
  });
});
