/**
 * Table tests of the slot engine across zones: DST gaps and overlaps, +5:30 / +5:45 offsets,
 * Lord Howe's 30-minute shift, midnight-crossing schedules, notice on a DST day, answer zones.
 * Expected values are worked out by hand from the rules (offsets noted beside each case).
 */
import { describe, expect, it } from 'vitest';
import { checkBookable, computeSlots } from './compute-slots.js';
import type { Schedule, SlotDay, SlotQuery, StafferInput, TimeRange, Weekday } from './types.js';

const ALL_DAYS: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

function everyDay(...ranges: [string, string][]): Schedule['weekly'] {
  const list: TimeRange[] = ranges.map(([from, to]) => ({ from, to }));
  return Object.fromEntries(ALL_DAYS.map((d) => [d, list]));
}

function staffer(weekly: Schedule['weekly'], extra: Partial<StafferInput> = {}): StafferInput {
  return { stafferId: 'a', schedule: { weekly, breaks: {}, overrides: [] }, occupancies: [], ...extra };
}

function query(over: Partial<SlotQuery> & Pick<SlotQuery, 'rangeStart' | 'rangeEnd'>): SlotQuery {
  return {
    locationZone: 'Europe/Berlin',
    answerZone: over.locationZone ?? 'Europe/Berlin',
    service: {
      id: 'svc',
      durationMinutes: 60,
      capacity: 1,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      priceMinor: 9000,
    },
    rules: { slotStepMinutes: 60, minNoticeMinutes: 0, horizonDays: 365 },
    staffers: [],
    now: Date.parse('2026-01-01T00:00:00Z'),
    priceFormatted: '€90.00',
    ...over,
  };
}

function onDate(days: SlotDay[], date: string): SlotDay {
  const day = days.find((d) => d.date === date);
  if (day === undefined) throw new Error(`no entry for ${date}`);
  return day;
}

const starts = (day: SlotDay) => day.slots.map((s) => s.start);
const instants = (day: SlotDay) => day.slots.map((s) => s.start_time);

describe('computeSlots across DST changes', () => {
  it('Berlin spring forward: no slot in the missing hour, none shifted', () => {
    const days = computeSlots(
      query({
        rangeStart: '2026-03-28',
        rangeEnd: '2026-03-29',
        rules: { slotStepMinutes: 30, minNoticeMinutes: 0, horizonDays: 365 },
        service: {
          id: 'svc',
          durationMinutes: 30,
          capacity: 1,
          bufferBeforeMinutes: 0,
          bufferAfterMinutes: 0,
          priceMinor: 1,
        },
        staffers: [staffer(everyDay(['00:00', '06:00']))],
      }),
    );
    const ordinary = [
      '00:00',
      '00:30',
      '01:00',
      '01:30',
      '02:00',
      '02:30',
      '03:00',
      '03:30',
      '04:00',
      '04:30',
      '05:00',
      '05:30',
    ];
    expect(starts(onDate(days, '2026-03-28'))).toEqual(ordinary);
    // 02:00 and 02:30 do not exist on 03-29; the rest sit on the same wall times as the day before.
    const dstDay = onDate(days, '2026-03-29');
    expect(starts(dstDay)).toEqual(ordinary.filter((s) => s !== '02:00' && s !== '02:30'));
    // 01:30 CET = 00:30Z; 03:00 CEST = 01:00Z (half an hour later in real time).
    expect(dstDay.slots[3]).toMatchObject({
      start: '01:30',
      start_time: '2026-03-29T00:30:00Z',
      end: '03:00',
    });
    expect(dstDay.slots[4]).toMatchObject({
      start: '03:00',
      start_time: '2026-03-29T01:00:00Z',
      start_formatted: 10800,
    });
  });

  it('a step that does not divide the DST shift: gap wall times vanish, overlap ones double', () => {
    const rules = { slotStepMinutes: 45, minNoticeMinutes: 0, horizonDays: 365 };
    const service = {
      id: 'svc',
      durationMinutes: 45,
      capacity: 1,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      priceMinor: 1,
    };
    const [spring] = computeSlots(
      query({
        rangeStart: '2026-03-29',
        rangeEnd: '2026-03-29',
        rules,
        service,
        staffers: [staffer(everyDay(['00:00', '06:00']))],
      }),
    );
    // Grid 00:00, 00:45, 01:30, 02:15 (in the gap: dropped, not moved to 03:15), 03:00, 03:45, ...
    expect(starts(spring!)).toEqual(['00:00', '00:45', '01:30', '03:00', '03:45', '04:30', '05:15']);
    const [autumn] = computeSlots(
      query({
        rangeStart: '2026-10-25',
        rangeEnd: '2026-10-25',
        rules,
        service,
        staffers: [staffer(everyDay(['01:00', '04:00']))],
      }),
    );
    // Shift 01:00 CEST (23:00Z) to 04:00 CET (03:00Z); 02:15 shows at +02:00 (00:15Z) and +01:00 (01:15Z).
    expect(starts(autumn!)).toEqual(['01:30', '02:15', '02:15', '03:00']);
    expect(instants(autumn!)).toEqual([
      '2026-10-24T23:30:00Z',
      '2026-10-25T00:15:00Z',
      '2026-10-25T01:15:00Z',
      '2026-10-25T02:00:00Z',
    ]);
  });

  it('New York spring forward: 02:00 is skipped, 01:00 ends at 03:00 EDT', () => {
    const [day] = computeSlots(
      query({
        locationZone: 'America/New_York',
        rangeStart: '2026-03-08',
        rangeEnd: '2026-03-08',
        staffers: [staffer(everyDay(['00:00', '05:00']))],
      }),
    );
    // EST is -5 until 07:00Z, EDT -4 after.
    expect(starts(day!)).toEqual(['00:00', '01:00', '03:00', '04:00']);
    expect(instants(day!)).toEqual([
      '2026-03-08T05:00:00Z',
      '2026-03-08T06:00:00Z',
      '2026-03-08T07:00:00Z',
      '2026-03-08T08:00:00Z',
    ]);
    expect(day!.slots[1]).toMatchObject({ end: '03:00', end_formatted: 10800 });
  });

  it('Berlin fall back: each instant of the repeated hour appears once', () => {
    const [day] = computeSlots(
      query({
        rangeStart: '2026-10-25',
        rangeEnd: '2026-10-25',
        staffers: [staffer(everyDay(['00:00', '06:00']))],
      }),
    );
    // 00:00 CEST = 22:00Z (24th) ... 02:00 CEST = 00:00Z, 02:00 CET = 01:00Z ... 06:00 CET = 05:00Z.
    expect(starts(day!)).toEqual(['00:00', '01:00', '02:00', '02:00', '03:00', '04:00', '05:00']);
    expect(instants(day!)).toEqual([
      '2026-10-24T22:00:00Z',
      '2026-10-24T23:00:00Z',
      '2026-10-25T00:00:00Z',
      '2026-10-25T01:00:00Z',
      '2026-10-25T02:00:00Z',
      '2026-10-25T03:00:00Z',
      '2026-10-25T04:00:00Z',
    ]);
    expect(day!.slots.map((s) => s.start_formatted).slice(2, 4)).toEqual([7200, 7200]);
  });

  it('New York fall back: both 01:00 and 01:30 passes are listed, none lost', () => {
    const [day] = computeSlots(
      query({
        locationZone: 'America/New_York',
        rangeStart: '2026-11-01',
        rangeEnd: '2026-11-01',
        rules: { slotStepMinutes: 30, minNoticeMinutes: 0, horizonDays: 365 },
        service: {
          id: 'svc',
          durationMinutes: 30,
          capacity: 1,
          bufferBeforeMinutes: 0,
          bufferAfterMinutes: 0,
          priceMinor: 1,
        },
        staffers: [staffer(everyDay(['00:00', '04:00']))],
      }),
    );
    expect(starts(day!)).toEqual([
      '00:00',
      '00:30',
      '01:00',
      '01:30',
      '01:00',
      '01:30',
      '02:00',
      '02:30',
      '03:00',
      '03:30',
    ]);
    // Ten consecutive half hours from 00:00 EDT (04:00Z) to 03:30 EST (08:30Z).
    const expected = Array.from(
      { length: 10 },
      (_, i) => new Date(Date.parse('2026-11-01T04:00:00Z') + i * 1_800_000),
    );
    expect(instants(day!)).toEqual(expected.map((d) => d.toISOString().replace('.000Z', 'Z')));
  });

  it('Lord Howe: the 30-minute gap drops only 02:00, the 30-minute overlap repeats 01:30', () => {
    const rules = { slotStepMinutes: 30, minNoticeMinutes: 0, horizonDays: 365 };
    const service = {
      id: 'svc',
      durationMinutes: 30,
      capacity: 1,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      priceMinor: 1,
    };
    const base = { locationZone: 'Australia/Lord_Howe', rules, service };
    const [spring] = computeSlots(
      query({
        ...base,
        rangeStart: '2026-10-04',
        rangeEnd: '2026-10-04',
        staffers: [staffer(everyDay(['01:00', '04:00']))],
      }),
    );
    expect(starts(spring!)).toEqual(['01:00', '01:30', '02:30', '03:00', '03:30']);
    // 01:00 at +10:30 = 14:30Z; 02:30 at +11:00 = 15:30Z.
    expect(instants(spring!)).toEqual([
      '2026-10-03T14:30:00Z',
      '2026-10-03T15:00:00Z',
      '2026-10-03T15:30:00Z',
      '2026-10-03T16:00:00Z',
      '2026-10-03T16:30:00Z',
    ]);
    expect(spring!.slots[1]).toMatchObject({ end: '02:30', end_formatted: 9000 });
    const [autumn] = computeSlots(
      query({
        ...base,
        rangeStart: '2026-04-05',
        rangeEnd: '2026-04-05',
        staffers: [staffer(everyDay(['01:00', '03:00']))],
      }),
    );
    // 01:00 at +11 = 14:00Z; 01:30 at +11 = 14:30Z, again at +10:30 = 15:00Z; 03:00 at +10:30 = 16:30Z.
    expect(starts(autumn!)).toEqual(['01:00', '01:30', '01:30', '02:00', '02:30']);
    expect(instants(autumn!)).toEqual([
      '2026-04-04T14:00:00Z',
      '2026-04-04T14:30:00Z',
      '2026-04-04T15:00:00Z',
      '2026-04-04T15:30:00Z',
      '2026-04-04T16:00:00Z',
    ]);
  });

  it('minimum notice ending on a DST day is measured in real time, not wall time', () => {
    // now = 00:30 CET on 03-29; 120 minutes later is 01:30Z = 03:30 CEST (wall-clock +2h would be 02:30).
    const q = query({
      rangeStart: '2026-03-29',
      rangeEnd: '2026-03-29',
      now: Date.parse('2026-03-28T23:30:00Z'),
      rules: { slotStepMinutes: 30, minNoticeMinutes: 120, horizonDays: 365 },
      service: {
        id: 'svc',
        durationMinutes: 30,
        capacity: 1,
        bufferBeforeMinutes: 0,
        bufferAfterMinutes: 0,
        priceMinor: 1,
      },
      staffers: [staffer(everyDay(['00:00', '06:00']))],
    });
    const [day] = computeSlots(q);
    expect(starts(day!)).toEqual(['03:30', '04:00', '04:30', '05:00', '05:30']);
    expect(day!.intervals).toMatchObject([
      { start: '03:30', start_formatted: 12600, end: '06:00', end_formatted: 21600 },
    ]);
    expect(checkBookable(q, Date.parse('2026-03-29T01:00:00Z'))).toEqual({ ok: false, reason: 'too_soon' });
  });
});

describe('computeSlots in other offsets and zones', () => {
  it('Asia/Kolkata (+5:30)', () => {
    const [day] = computeSlots(
      query({
        locationZone: 'Asia/Kolkata',
        rangeStart: '2026-02-10',
        rangeEnd: '2026-02-10',
        staffers: [staffer(everyDay(['09:00', '12:00']))],
      }),
    );
    expect(starts(day!)).toEqual(['09:00', '10:00', '11:00']);
    expect(instants(day!)).toEqual(['2026-02-10T03:30:00Z', '2026-02-10T04:30:00Z', '2026-02-10T05:30:00Z']);
  });

  it('Asia/Kathmandu (+5:45), answered in the location zone and in UTC', () => {
    const base = {
      locationZone: 'Asia/Kathmandu',
      rangeStart: '2026-02-10',
      rangeEnd: '2026-02-10',
      rules: { slotStepMinutes: 45, minNoticeMinutes: 0, horizonDays: 365 },
      service: {
        id: 'svc',
        durationMinutes: 30,
        capacity: 1,
        bufferBeforeMinutes: 0,
        bufferAfterMinutes: 0,
        priceMinor: 1,
      },
      staffers: [staffer(everyDay(['09:00', '11:00']))],
    };
    // The grid is 45-minute multiples from local midnight: 09:00 (= 12 x 45), 09:45, 10:30.
    const [local] = computeSlots(query(base));
    expect(starts(local!)).toEqual(['09:00', '09:45', '10:30']);
    expect(instants(local!)).toEqual([
      '2026-02-10T03:15:00Z',
      '2026-02-10T04:00:00Z',
      '2026-02-10T04:45:00Z',
    ]);
    const [utc] = computeSlots(query({ ...base, answerZone: 'UTC' }));
    expect(starts(utc!)).toEqual(['03:15', '04:00', '04:45']);
    expect(utc!.slots[0]).toMatchObject({ start_formatted: 11700, end: '03:45', end_formatted: 13500 });
  });

  it('an answer zone other than the location zone: dates are the answer zone days', () => {
    // Berlin 05:00-07:00 CEST = 03:00Z-05:00Z = 23:00-01:00 EDT, across two New York dates.
    const [day] = computeSlots(
      query({
        answerZone: 'America/New_York',
        rangeStart: '2026-09-10',
        rangeEnd: '2026-09-10',
        staffers: [staffer(everyDay(['05:00', '07:00']))],
      }),
    );
    expect(day!.date).toBe('2026-09-10');
    expect(starts(day!)).toEqual(['00:00', '23:00']);
    expect(instants(day!)).toEqual(['2026-09-10T04:00:00Z', '2026-09-11T03:00:00Z']);
    expect(day!.slots[1]).toMatchObject({ end: '00:00', end_formatted: 86400 });
    // The second runs past New York's midnight to the end of the 23:00 slot's shift, uncut.
    expect(day!.intervals).toMatchObject([
      { start: '00:00', start_formatted: 0, end: '01:00', end_formatted: 3600 },
      { start: '23:00', start_formatted: 82800, end: '01:00', end_formatted: 90000 },
    ]);
  });
});

describe('computeSlots with schedules crossing midnight', () => {
  const rules = { slotStepMinutes: 60, minNoticeMinutes: 0, horizonDays: 365 };
  const service = {
    id: 'svc',
    durationMinutes: 120,
    capacity: 1,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    priceMinor: 1,
  };
  const base = { rangeStart: '2026-09-11', rangeEnd: '2026-09-12', rules, service };

  function expectFridayNight(days: SlotDay[]): void {
    // 2026-09-11 is a Friday; a 2-hour booking fits at 22:00, 23:00 and 00:00 of the night.
    expect(days[0]!.slots.map((s) => [s.start, s.end, s.end_formatted])).toEqual([
      ['22:00', '00:00', 86400],
      ['23:00', '01:00', 90000],
    ]);
    expect(days[1]!.slots.map((s) => [s.start, s.end, s.end_formatted])).toEqual([['00:00', '02:00', 7200]]);
    // Friday's interval holds the 23:00-01:00 slot: it is not cut at midnight.
    expect(days[0]!.intervals).toMatchObject([
      { start: '22:00', start_formatted: 79200, end: '02:00', end_formatted: 93600 },
    ]);
    expect(days[1]!.intervals).toMatchObject([
      { start: '00:00', start_formatted: 0, end: '02:00', end_formatted: 7200 },
    ]);
  }

  it('one range 22:00-02:00', () => {
    expectFridayNight(
      computeSlots(query({ ...base, staffers: [staffer({ fri: [{ from: '22:00', to: '02:00' }] })] })),
    );
  });

  it('two touching ranges 22:00-24:00 and 00:00-02:00 on adjacent days merge', () => {
    const weekly = { fri: [{ from: '22:00', to: '24:00' }], sat: [{ from: '00:00', to: '02:00' }] };
    expectFridayNight(computeSlots(query({ ...base, staffers: [staffer(weekly)] })));
  });

  it('a slot 23:30-00:30 ends at 00:30 = 88200 seconds of its own day', () => {
    const [friday] = computeSlots(
      query({
        ...base,
        rules: { ...rules, slotStepMinutes: 30 },
        service: { ...service, durationMinutes: 60 },
        staffers: [staffer({ fri: [{ from: '22:00', to: '02:00' }] })],
      }),
    );
    expect(friday!.slots.find((s) => s.start === '23:30')).toMatchObject({
      end: '00:30',
      end_formatted: 88200,
    });
  });
});
