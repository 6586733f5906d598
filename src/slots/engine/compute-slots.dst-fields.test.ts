/**
 * Time fields that are never ambiguous. Table tests of the instants (`start_time`,
 * `end_time`), offsets and wall clocks of slots and intervals on the days where wall clocks alone
 * mislead: Berlin's repeated hour, an overnight override, Havana's fall-back at midnight, and a
 * 23- and a 25-hour day. Every expected value is worked out by hand (offsets beside each case).
 */
import { describe, expect, it } from 'vitest';
import { computeSlots } from './compute-slots.js';
import type { Schedule, SlotDay, SlotQuery, StafferInput, Weekday } from './types.js';

const ALL_DAYS: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const allDay: Schedule['weekly'] = Object.fromEntries(
  ALL_DAYS.map((d) => [d, [{ from: '00:00', to: '24:00' }]]),
);

function staffer(schedule: Partial<Schedule>, occupancies: StafferInput['occupancies'] = []): StafferInput {
  return { stafferId: 'a', schedule: { weekly: {}, breaks: {}, overrides: [], ...schedule }, occupancies };
}

function query(over: Partial<SlotQuery> & Pick<SlotQuery, 'rangeStart' | 'rangeEnd'>): SlotQuery {
  return {
    locationZone: over.locationZone ?? 'Europe/Berlin',
    answerZone: over.locationZone ?? 'Europe/Berlin',
    service: {
      id: 'svc',
      durationMinutes: 60,
      capacity: 1,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      priceMinor: 9000,
    },
    rules: { slotStepMinutes: 60, minNoticeMinutes: 0, horizonDays: 730 },
    staffers: [],
    now: Date.parse('2026-01-01T00:00:00Z'),
    priceFormatted: '€90.00',
    ...over,
  };
}

const thirtyMinutes = { ...query({ rangeStart: 'x', rangeEnd: 'x' }).service, durationMinutes: 30 };
const timeFields = (item: SlotDay['slots'][number] | SlotDay['intervals'][number]) => [
  item.start,
  item.start_formatted,
  item.end,
  item.end_formatted,
  item.start_time,
  item.end_time,
  item.start_offset,
  item.end_offset,
];

describe('Berlin 2027-10-31: the repeated hour (03:00 CEST -> 02:00 CET at 01:00Z)', () => {
  const [day] = computeSlots(
    query({
      rangeStart: '2027-10-31',
      rangeEnd: '2027-10-31',
      service: thirtyMinutes,
      rules: { slotStepMinutes: 30, minNoticeMinutes: 0, horizonDays: 730 },
      staffers: [staffer({ weekly: { sun: [{ from: '01:00', to: '04:00' }] } })],
    }),
  );

  it('lists both 02:00 and both 02:30, told apart by instant and offset', () => {
    expect(day!.slots.map((s) => [s.start, s.start_time, s.start_offset])).toEqual([
      ['01:00', '2027-10-30T23:00:00Z', '+02:00'],
      ['01:30', '2027-10-30T23:30:00Z', '+02:00'],
      ['02:00', '2027-10-31T00:00:00Z', '+02:00'],
      ['02:30', '2027-10-31T00:30:00Z', '+02:00'],
      ['02:00', '2027-10-31T01:00:00Z', '+01:00'],
      ['02:30', '2027-10-31T01:30:00Z', '+01:00'],
      ['03:00', '2027-10-31T02:00:00Z', '+01:00'],
      ['03:30', '2027-10-31T02:30:00Z', '+01:00'],
    ]);
  });

  it('the first 02:30 ends at 02:00 CET: the wall clock goes back, the instants do not', () => {
    // *_formatted are wall clocks (seconds since local midnight), so here end_formatted < start_formatted
    // (docs/decisions/0002); end_time - start_time is the length.
    expect(timeFields(day!.slots[3]!)).toEqual([
      '02:30',
      9000,
      '02:00',
      7200,
      '2027-10-31T00:30:00Z',
      '2027-10-31T01:00:00Z',
      '+02:00',
      '+01:00',
    ]);
  });

  it('one interval over the whole shift, its offsets naming both sides of the change', () => {
    expect(day!.intervals.map(timeFields)).toEqual([
      ['01:00', 3600, '04:00', 14400, '2027-10-30T23:00:00Z', '2027-10-31T03:00:00Z', '+02:00', '+01:00'],
    ]);
  });
});

describe('an override 23:30-02:30 with a 60-minute service (Berlin, +02:00)', () => {
  const days = computeSlots(
    query({
      rangeStart: '2026-09-10',
      rangeEnd: '2026-09-11',
      rules: { slotStepMinutes: 15, minNoticeMinutes: 0, horizonDays: 730 },
      staffers: [
        staffer({ overrides: [{ date: '2026-09-10', intervals: [{ from: '23:30', to: '02:30' }] }] }),
      ],
    }),
  );

  it('lists the 23:30 and 23:45 slots with an interval that holds them, past midnight', () => {
    const [thursday] = days;
    expect(thursday!.slots.map((s) => [s.start, s.end, s.end_formatted, s.end_time])).toEqual([
      ['23:30', '00:30', 88200, '2026-09-10T22:30:00Z'],
      ['23:45', '00:45', 89100, '2026-09-10T22:45:00Z'],
    ]);
    // Cut at the end of a booking starting at the 10th's last instant: 24:00 + 60 min.
    expect(thursday!.intervals.map(timeFields)).toEqual([
      ['23:30', 84600, '01:00', 90000, '2026-09-10T21:30:00Z', '2026-09-10T23:00:00Z', '+02:00', '+02:00'],
    ]);
  });

  it('the next date has the rest of the night', () => {
    const [, friday] = days;
    expect(friday!.slots.map((s) => s.start)).toEqual([
      '00:00',
      '00:15',
      '00:30',
      '00:45',
      '01:00',
      '01:15',
      '01:30',
    ]);
    expect(friday!.intervals.map(timeFields)).toEqual([
      ['00:00', 0, '02:30', 9000, '2026-09-10T22:00:00Z', '2026-09-11T00:30:00Z', '+02:00', '+02:00'],
    ]);
  });
});

describe('Havana 2026-11-01: the fall-back at midnight (01:00 CDT -> 00:00 CST at 05:00Z)', () => {
  const havana = (over: Partial<SlotQuery>) =>
    computeSlots(
      query({ locationZone: 'America/Havana', rangeStart: '2026-11-01', rangeEnd: '2026-11-01', ...over }),
    );
  // 00:00-01:00 wall time is 04:00Z-06:00Z: two real hours, both starting at "00:00".
  const night = { overrides: [{ date: '2026-11-01', intervals: [{ from: '00:00', to: '01:00' }] }] };

  it('a free hour before a booking shows 00:00-00:00, with offsets -04:00 and -05:00', () => {
    const booked = { start: Date.parse('2026-11-01T05:00:00Z'), end: Date.parse('2026-11-01T06:00:00Z') };
    const [day] = havana({
      staffers: [
        staffer(night, [
          { ...booked, serviceId: 'svc', serviceStart: booked.start, seatsTaken: 1, capacity: 1 },
        ]),
      ],
    });
    expect(day!.slots.map(timeFields)).toEqual([
      ['00:00', 0, '00:00', 0, '2026-11-01T04:00:00Z', '2026-11-01T05:00:00Z', '-04:00', '-05:00'],
    ]);
    expect(day!.intervals.map(timeFields)).toEqual([
      ['00:00', 0, '00:00', 0, '2026-11-01T04:00:00Z', '2026-11-01T05:00:00Z', '-04:00', '-05:00'],
    ]);
  });

  it('both 00:00 slots of the night are listed, one per offset', () => {
    const [day] = havana({ staffers: [staffer(night)] });
    expect(day!.slots.map((s) => [s.start, s.start_offset, s.end, s.end_offset, s.start_time])).toEqual([
      ['00:00', '-04:00', '00:00', '-05:00', '2026-11-01T04:00:00Z'],
      ['00:00', '-05:00', '01:00', '-05:00', '2026-11-01T05:00:00Z'],
    ]);
    expect(day!.intervals.map(timeFields)).toEqual([
      ['00:00', 0, '01:00', 3600, '2026-11-01T04:00:00Z', '2026-11-01T06:00:00Z', '-04:00', '-05:00'],
    ]);
  });
});

describe('a 23-hour and a 25-hour day (Berlin, open around the clock)', () => {
  it('2026-03-29 has 23 hourly slots; 01:00 CET ends at 03:00 CEST', () => {
    const [day] = computeSlots(
      query({ rangeStart: '2026-03-29', rangeEnd: '2026-03-29', staffers: [staffer({ weekly: allDay })] }),
    );
    expect(day!.slots).toHaveLength(23);
    expect(day!.slots.map((s) => s.start).slice(0, 4)).toEqual(['00:00', '01:00', '03:00', '04:00']);
    expect(timeFields(day!.slots[1]!)).toEqual([
      '01:00',
      3600,
      '03:00',
      10800,
      '2026-03-29T00:00:00Z',
      '2026-03-29T01:00:00Z',
      '+01:00',
      '+02:00',
    ]);
    // From the day's first instant (00:00 CET) to the end of a booking starting at its last
    // instant: the next midnight (22:00Z) + 60 min = 01:00 CEST of the next date.
    expect(day!.intervals.map(timeFields)).toEqual([
      ['00:00', 0, '01:00', 90000, '2026-03-28T23:00:00Z', '2026-03-29T23:00:00Z', '+01:00', '+02:00'],
    ]);
  });

  it('2026-10-25 has 25 hourly slots; the first 02:00 ends at the second', () => {
    const [day] = computeSlots(
      query({ rangeStart: '2026-10-25', rangeEnd: '2026-10-25', staffers: [staffer({ weekly: allDay })] }),
    );
    expect(day!.slots).toHaveLength(25);
    expect(day!.slots.map((s) => s.start).slice(0, 5)).toEqual(['00:00', '01:00', '02:00', '02:00', '03:00']);
    expect(timeFields(day!.slots[2]!)).toEqual([
      '02:00',
      7200,
      '02:00',
      7200,
      '2026-10-25T00:00:00Z',
      '2026-10-25T01:00:00Z',
      '+02:00',
      '+01:00',
    ]);
    // Next midnight (23:00Z, CET) + 60 min.
    expect(day!.intervals.map(timeFields)).toEqual([
      ['00:00', 0, '01:00', 90000, '2026-10-24T22:00:00Z', '2026-10-26T00:00:00Z', '+02:00', '+01:00'],
    ]);
  });
});
