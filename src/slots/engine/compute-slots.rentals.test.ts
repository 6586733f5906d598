/**
 * Rentals in the slot engine (docs/resources.md "Rentals"): a service needing no staffer is open
 * in the location's opening hours and bookable while its units are free. Table cases, in UTC and
 * across both DST changes of Europe/Berlin.
 */
import { describe, expect, it } from 'vitest';
import { checkBookable, computeSlots } from './compute-slots.js';
import type { BusySpan, ResourceNeedInput, Schedule, SlotQuery, StafferInput, TimeRange } from './types.js';

const utc = (iso: string) => Date.parse(iso);

const court = (id: string, busy: BusySpan[] = []) => ({ resourceId: id, busy });
const hours = (weekly: Schedule['weekly']): Schedule => ({ weekly, breaks: {}, overrides: [] });
const range = (from: string, to: string): TimeRange => ({ from, to });

function rental(args: {
  zone?: string;
  openingHours: Schedule;
  resources?: ResourceNeedInput[];
  date: string;
  lastDate?: string;
  staffers?: StafferInput[];
  service?: Partial<SlotQuery['service']>;
  step?: number;
  now?: number;
  noticeMinutes?: number;
}): SlotQuery {
  const zone = args.zone ?? 'UTC';
  return {
    locationZone: zone,
    answerZone: zone,
    service: {
      id: 'court-hour',
      durationMinutes: 60,
      capacity: 1,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      priceMinor: 0,
      ...args.service,
    },
    rules: { slotStepMinutes: args.step ?? 60, minNoticeMinutes: args.noticeMinutes ?? 0, horizonDays: 365 },
    staffers: args.staffers ?? [],
    ...(args.resources ? { resources: args.resources } : {}),
    rental: { openingHours: args.openingHours },
    now: args.now ?? utc('2026-01-01T00:00:00Z'),
    priceFormatted: '',
    rangeStart: args.date,
    rangeEnd: args.lastDate ?? args.date,
  };
}

/** `HH:MM@UTC instant ×quantity` per slot of the first day: wall time, instant and count at once. */
const slotsOf = (q: SlotQuery, day = 0) =>
  computeSlots(q)[day]!.slots.map((s) => `${s.start}@${s.start_time.slice(11, 16)}×${s.quantity}`);

// 2026-06-15 is a Monday.
const MONDAY_9_TO_12 = hours({ mon: [range('09:00', '12:00')] });

describe('the engine for a rental', () => {
  it.each([
    {
      name: 'two free courts: every opening hour, two bookings each',
      resources: [{ units: 1, pool: [court('c1'), court('c2')] }],
      expected: ['09:00@09:00×2', '10:00@10:00×2', '11:00@11:00×2'],
    },
    {
      name: 'one court held 10:00–11:00: one booking left there',
      resources: [
        {
          units: 1,
          pool: [
            court('c1', [{ start: utc('2026-06-15T10:00:00Z'), end: utc('2026-06-15T11:00:00Z') }]),
            court('c2'),
          ],
        },
      ],
      expected: ['09:00@09:00×2', '10:00@10:00×1', '11:00@11:00×2'],
    },
    {
      name: 'the only court held 10:00–11:00: no 10:00',
      resources: [
        {
          units: 1,
          pool: [court('c1', [{ start: utc('2026-06-15T10:00:00Z'), end: utc('2026-06-15T11:00:00Z') }])],
        },
      ],
      expected: ['09:00@09:00×1', '11:00@11:00×1'],
    },
    {
      name: 'two courts a booking, three courts: one booking at a time',
      resources: [{ units: 2, pool: [court('c1'), court('c2'), court('c3')] }],
      expected: ['09:00@09:00×1', '10:00@10:00×1', '11:00@11:00×1'],
    },
    {
      name: 'no unit of the type at the location: nothing',
      resources: [{ units: 1, pool: [] }],
      expected: [],
    },
    {
      name: 'no requirement at all: nothing (a rental is only its units)',
      resources: undefined,
      expected: [],
    },
  ])('$name', ({ resources, expected }) => {
    const q = rental({
      openingHours: MONDAY_9_TO_12,
      date: '2026-06-15',
      ...(resources ? { resources } : {}),
    });
    expect(slotsOf(q)).toEqual(expected);
  });

  it('keeps the buffers clear of a court held next to them', () => {
    // Held 11:00–11:30; 15 minutes after each booking: 10:00 would run to 11:15, 11:30 is free.
    // As for a staffer's hours, the body must fit the opening hours, not its buffers (12:00).
    const q = rental({
      openingHours: hours({ mon: [range('09:00', '13:00')] }),
      date: '2026-06-15',
      step: 30,
      service: { bufferAfterMinutes: 15 },
      resources: [
        {
          units: 1,
          pool: [court('c1', [{ start: utc('2026-06-15T11:00:00Z'), end: utc('2026-06-15T11:30:00Z') }])],
        },
      ],
    });
    expect(slotsOf(q)).toEqual(['09:00@09:00×1', '09:30@09:30×1', '11:30@11:30×1', '12:00@12:00×1']);
  });

  it('reads no staffer: a staffer without hours changes nothing, and none is named', () => {
    const idle: StafferInput = { stafferId: 's1', schedule: hours({}), occupancies: [] };
    const q = rental({
      openingHours: MONDAY_9_TO_12,
      date: '2026-06-15',
      staffers: [idle],
      resources: [{ units: 1, pool: [court('c1')] }],
    });
    expect(slotsOf(q)).toEqual(['09:00@09:00×1', '10:00@10:00×1', '11:00@11:00×1']);
    expect(checkBookable(q, utc('2026-06-15T10:00:00Z'))).toEqual({
      ok: true,
      staffers: [],
      units: [['c1']],
    });
  });

  it('applies notice like any service', () => {
    const q = rental({
      openingHours: MONDAY_9_TO_12,
      date: '2026-06-15',
      now: utc('2026-06-15T08:30:00Z'),
      noticeMinutes: 60,
      resources: [{ units: 1, pool: [court('c1')] }],
    });
    expect(slotsOf(q)).toEqual(['10:00@10:00×1', '11:00@11:00×1']);
    expect(checkBookable(q, utc('2026-06-15T09:00:00Z'))).toEqual({ ok: false, reason: 'too_soon' });
  });

  it.each([
    { name: 'inside the hours, court free', start: '2026-06-15T10:00:00Z', ok: true },
    { name: 'ending after closing', start: '2026-06-15T11:30:00Z', ok: false },
    { name: 'before opening', start: '2026-06-15T08:00:00Z', ok: false },
    { name: 'on a closed weekday', start: '2026-06-16T10:00:00Z', ok: false },
    { name: 'the court held then', start: '2026-06-15T09:00:00Z', ok: false },
  ])('checkBookable: $name', ({ start, ok }) => {
    const q = rental({
      openingHours: MONDAY_9_TO_12,
      date: '2026-06-15',
      step: 30,
      resources: [
        {
          units: 1,
          pool: [court('c1', [{ start: utc('2026-06-15T09:00:00Z'), end: utc('2026-06-15T09:30:00Z') }])],
        },
      ],
    });
    const verdict = checkBookable(q, utc(start));
    expect(verdict.ok).toBe(ok);
    if (!verdict.ok) expect(verdict.reason).toBe('no_free_staffer');
  });

  // Europe/Berlin: 2026-03-29 02:00 CET → 03:00 CEST; 2026-10-25 03:00 CEST → 02:00 CET.
  // Open 01:00–04:00 local on Saturdays and Sundays.
  const WEEKEND_1_TO_4 = hours({ sat: [range('01:00', '04:00')], sun: [range('01:00', '04:00')] });
  it.each([
    {
      name: 'an ordinary Saturday: three hours, three starts',
      date: '2026-03-28',
      busy: [] as BusySpan[],
      expected: ['01:00@00:00×1', '02:00@01:00×1', '03:00@02:00×1'],
    },
    {
      name: 'spring forward: 02:00 does not exist, two real hours, two starts',
      date: '2026-03-29',
      busy: [],
      expected: ['01:00@00:00×1', '03:00@01:00×1'],
    },
    {
      name: 'spring forward, the court held 01:00–02:00 UTC (03:00–04:00 CEST)',
      date: '2026-03-29',
      busy: [{ start: utc('2026-03-29T01:00:00Z'), end: utc('2026-03-29T02:00:00Z') }],
      expected: ['01:00@00:00×1'],
    },
    {
      name: 'fall back: 02:00 happens twice, four real hours, four starts',
      date: '2026-10-25',
      busy: [],
      expected: ['01:00@23:00×1', '02:00@00:00×1', '02:00@01:00×1', '03:00@02:00×1'],
    },
    {
      name: 'fall back, the court held in the second 02:00 only',
      date: '2026-10-25',
      busy: [{ start: utc('2026-10-25T01:00:00Z'), end: utc('2026-10-25T02:00:00Z') }],
      expected: ['01:00@23:00×1', '02:00@00:00×1', '03:00@02:00×1'],
    },
  ])('Europe/Berlin, $name', ({ date, busy, expected }) => {
    const q = rental({
      zone: 'Europe/Berlin',
      openingHours: WEEKEND_1_TO_4,
      date,
      resources: [{ units: 1, pool: [court('c1', busy)] }],
    });
    expect(slotsOf(q)).toEqual(expected);
  });

  it('gives the free intervals of the opening hours where a court is free', () => {
    const q = rental({
      openingHours: MONDAY_9_TO_12,
      date: '2026-06-15',
      resources: [
        {
          units: 1,
          pool: [court('c1', [{ start: utc('2026-06-15T10:00:00Z'), end: utc('2026-06-15T10:30:00Z') }])],
        },
      ],
    });
    expect(computeSlots(q)[0]!.intervals.map((i) => `${i.start}-${i.end}`)).toEqual([
      '09:00-10:00',
      '10:30-12:00',
    ]);
  });
});
