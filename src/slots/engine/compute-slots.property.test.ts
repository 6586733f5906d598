/**
 * Properties of the slot engine over random schedules, occupancies, clocks, steps, durations
 * and buffers, in zones with DST gaps/overlaps and odd offsets. The oracle below re-derives
 * "is this staffer working at instant u" minute by minute from the schedule rules, independent
 * of the engine's span merging and pointer sweeps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  localDateOf,
  resolveWallBoundary,
  resolveWallTime,
  weekdayOf,
} from '../../platform/time/zone.js';
import { checkBookable, computeSlots, evaluateAvailability, queryWindow } from './compute-slots.js';
import type { Occupancy, Schedule, SlotQuery, StafferInput, TimeRange, Weekday } from './types.js';

const MINUTE = 60_000;
const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Asia/Kolkata',
  'UTC',
];
// Range starts just before DST changes of the zones above (and one ordinary date).
const RANGE_STARTS = [
  '2026-03-27',
  '2026-10-23',
  '2026-03-06',
  '2026-10-30',
  '2026-04-03',
  '2026-10-02',
  '2026-06-15',
];
const WEEKDAYS: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

const wallTime = fc
  .integer({ min: 0, max: 96 })
  .map((q) => `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`);
const timeRange: fc.Arbitrary<TimeRange> = fc
  .record({ from: wallTime, to: wallTime })
  .filter((r) => r.from !== '24:00');
const dayRules = fc.array(timeRange, { maxLength: 2 });
const weekRules = fc.dictionary(fc.constantFrom(...WEEKDAYS), dayRules) as fc.Arbitrary<Schedule['weekly']>;

function stafferArb(rangeStart: string, serviceId: string): fc.Arbitrary<StafferInput> {
  const origin = Date.parse(rangeStart) - 86_400_000;
  const occupancy: fc.Arbitrary<Occupancy> = fc
    .record({
      startQ: fc.integer({ min: 0, max: 6 * 96 }), // quarter hours from the day before the range
      lengthQ: fc.integer({ min: 1, max: 12 }),
      leadQ: fc.integer({ min: 0, max: 2 }),
      own: fc.constantFrom(true, true, false),
      capacity: fc.constantFrom(1, 3, 3),
      seatsTaken: fc.integer({ min: 0, max: 3 }),
    })
    .map((o) => {
      const start = origin + o.startQ * 15 * MINUTE;
      return {
        start,
        end: start + o.lengthQ * 15 * MINUTE,
        serviceId: o.own ? serviceId : 'other',
        serviceStart: start + o.leadQ * 15 * MINUTE,
        seatsTaken: Math.min(o.seatsTaken, o.capacity),
        capacity: o.capacity,
      };
    });
  const override = fc.record({
    date: fc.integer({ min: -1, max: 4 }).map((n) => addDays(rangeStart, n)),
    intervals: dayRules,
    breaks: fc.option(dayRules, { nil: undefined }),
  });
  return fc.record({
    stafferId: fc.uuid(),
    schedule: fc.record({
      weekly: weekRules,
      breaks: weekRules,
      overrides: fc.array(override, { maxLength: 2 }),
    }),
    occupancies: fc.array(occupancy, { maxLength: 8 }),
  });
}

const queryArb: fc.Arbitrary<SlotQuery> = fc
  .record({
    locationZone: fc.constantFrom(...ZONES),
    answerZone: fc.constantFrom(...ZONES),
    rangeStart: fc.constantFrom(...RANGE_STARTS),
    days: fc.integer({ min: 1, max: 3 }),
  })
  .chain((base) =>
    fc.record({
      locationZone: fc.constant(base.locationZone),
      answerZone: fc.oneof(fc.constant(base.locationZone), fc.constant(base.answerZone)),
      rangeStart: fc.constant(base.rangeStart),
      rangeEnd: fc.constant(addDays(base.rangeStart, base.days - 1)),
      service: fc.record({
        id: fc.constant('svc'),
        durationMinutes: fc.integer({ min: 1, max: 36 }).map((n) => n * 5),
        capacity: fc.constantFrom(1, 1, 4),
        bufferBeforeMinutes: fc.constantFrom(0, 5, 15, 30),
        bufferAfterMinutes: fc.constantFrom(0, 10, 15, 45),
        priceMinor: fc.constant(2500),
      }),
      rules: fc.record({
        slotStepMinutes: fc.constantFrom(10, 15, 15, 20, 30, 30, 45, 60, 90),
        minNoticeMinutes: fc.integer({ min: 0, max: 24 }).map((n) => n * 30),
        horizonDays: fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 6),
      }),
      staffers: fc.array(stafferArb(base.rangeStart, 'svc'), { minLength: 1, maxLength: 3 }),
      now: fc
        .integer({ min: -1 * 96, max: 2 * 96 })
        .map((q) => Date.parse(base.rangeStart) + q * 15 * MINUTE),
      priceFormatted: fc.constant('€25.00'),
    }),
  );

/** Oracle: working instants of a staffer, from each date's own rules (override or weekly). */
function workingOracle(q: SlotQuery, s: StafferInput): (u: number) => boolean {
  const spans: { ranges: [number, number][]; breaks: [number, number][] }[] = [];
  const toSpan = (date: string, r: TimeRange): [number, number] => {
    const [fh, fm] = r.from.split(':').map(Number);
    const [th, tm] = r.to.split(':').map(Number);
    const from = fh! * 60 + fm!;
    let to = th! * 60 + tm!;
    if (to <= from) to += 1440; // crosses midnight
    return [
      resolveWallBoundary(q.locationZone, date, from, 'start'),
      resolveWallBoundary(q.locationZone, date, to, 'end'),
    ];
  };
  for (let date = addDays(q.rangeStart, -3); date <= addDays(q.rangeEnd, 3); date = addDays(date, 1)) {
    const override = [...s.schedule.overrides].reverse().find((o) => o.date === date);
    const weekday = weekdayOf(date);
    const ranges = override ? override.intervals : (s.schedule.weekly[weekday] ?? []);
    const breaks = override ? (override.breaks ?? []) : (s.schedule.breaks[weekday] ?? []);
    spans.push({ ranges: ranges.map((r) => toSpan(date, r)), breaks: breaks.map((r) => toSpan(date, r)) });
  }
  const inside = (u: number, list: [number, number][]) => list.some(([a, b]) => a <= u && u < b);
  return (u) => spans.some((d) => inside(u, d.ranges) && !inside(u, d.breaks));
}

/** Oracle: free seats of one staffer at t, straight from the rule text. */
function seatsOracle(q: SlotQuery, s: StafferInput, working: (u: number) => boolean, t: number): number {
  const duration = q.service.durationMinutes * MINUTE;
  // Span boundaries fall on whole minutes, so checking every minute covers [t, t + duration].
  for (let u = t; u < t + duration; u += MINUTE) if (!working(u)) return 0;
  const joinable = s.occupancies.filter(
    (o) =>
      o.serviceId === q.service.id && o.serviceStart === t && o.capacity > 1 && o.seatsTaken < o.capacity,
  );
  if (joinable.length > 0) return Math.max(...joinable.map((o) => o.capacity - o.seatsTaken));
  const from = t - q.service.bufferBeforeMinutes * MINUTE;
  const to = t + duration + q.service.bufferAfterMinutes * MINUTE;
  return s.occupancies.some((o) => o.start < to && from < o.end) ? 0 : q.service.capacity;
}

/** Every grid instant whose answer-zone date is in the range, generated from wall times. */
function gridInRange(q: SlotQuery): number[] {
  const out: number[] = [];
  const dates = daysBetween(q.rangeStart, q.rangeEnd);
  for (let i = -2; i <= dates + 2; i++) {
    const date = addDays(q.rangeStart, i);
    for (let m = 0; m < 1440; m += q.rules.slotStepMinutes) {
      for (const t of resolveWallTime(q.locationZone, date, m)) {
        const d = localDateOf(t, q.answerZone);
        if (d >= q.rangeStart && d <= q.rangeEnd) out.push(t);
      }
    }
  }
  return out;
}

const listedInstants = (days: ReturnType<typeof computeSlots>) =>
  days.flatMap((d) => d.slots.map((s) => Date.parse(s.start_time)));

describe('computeSlots properties', () => {
  it('every slot is inside working time, clear of occupancies or joining a session, with the right quantity', () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        const days = computeSlots(q);
        const oracles = q.staffers.map((s) => workingOracle(q, s));
        for (const day of days) {
          for (const slot of day.slots) {
            const t = Date.parse(slot.start_time);
            expect(localDateOf(t, q.answerZone)).toBe(day.date);
            const seats = q.staffers.map((s, i) => seatsOracle(q, s, oracles[i]!, t));
            const sum = seats.reduce((a, b) => a + b, 0);
            expect(slot.quantity).toBe(sum);
            expect(slot.quantity).toBeGreaterThanOrEqual(1);
            const maxCapacity = q.staffers.reduce(
              (acc, s) =>
                acc + Math.max(q.service.capacity, ...s.occupancies.map((o) => o.capacity - o.seatsTaken)),
              0,
            );
            expect(slot.quantity).toBeLessThanOrEqual(maxCapacity);
            expect(t).toBeGreaterThanOrEqual(q.now + q.rules.minNoticeMinutes * MINUTE);
            expect(t).toBeLessThanOrEqual(q.now + q.rules.horizonDays * 86_400_000);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('slots are sorted by instant and unique, one day entry per date', () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        const days = computeSlots(q);
        expect(days.map((d) => d.date)).toEqual(
          Array.from({ length: daysBetween(q.rangeStart, q.rangeEnd) + 1 }, (_, i) =>
            addDays(q.rangeStart, i),
          ),
        );
        const all = listedInstants(days);
        for (let i = 1; i < all.length; i++) expect(all[i]!).toBeGreaterThan(all[i - 1]!);
      }),
      { numRuns: 150 },
    );
  });

  it('checkBookable accepts every listed start and refuses every other grid instant in range', () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        const listed = new Map(
          computeSlots(q).flatMap((d) => d.slots.map((s) => [Date.parse(s.start_time), s.quantity] as const)),
        );
        for (const t of gridInRange(q)) {
          const verdict = checkBookable(q, t);
          const quantity = listed.get(t);
          if (quantity === undefined) {
            expect(verdict.ok).toBe(false);
          } else {
            expect(verdict.ok).toBe(true);
            if (verdict.ok) expect(verdict.staffers.reduce((a, s) => a + s.freeSeats, 0)).toBe(quantity);
          }
        }
        // And every listed start is a grid instant of the range (none shifted or invented).
        const grid = new Set(gridInRange(q));
        for (const t of listed.keys()) expect(grid.has(t)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('a whole minute off the grid is bookable exactly when a one-minute grid lists it, with its seats', () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        // The step only spaces the listed starts: with a step of one minute every free minute is
        // listed, so that listing is the oracle for the minutes between the query's own grid.
        const everyMinute: SlotQuery = { ...q, rules: { ...q.rules, slotStepMinutes: 1 } };
        const listed = new Map(
          computeSlots(everyMinute).flatMap((d) =>
            d.slots.map((s) => [Date.parse(s.start_time), s.quantity] as const),
          ),
        );
        const minutes = gridInRange(everyMinute);
        const inRange = new Set(minutes);
        // Every seventh minute (prime to every step the queries use), and each listed start's
        // neighbours in the range, where a free span begins or ends.
        const sample = new Set(minutes.filter((_, i) => i % 7 === 0));
        for (const t of listed.keys())
          for (const d of [-1, 0, 1]) if (inRange.has(t + d * MINUTE)) sample.add(t + d * MINUTE);
        for (const t of sample) {
          const verdict = checkBookable(q, t);
          const quantity = listed.get(t);
          if (quantity === undefined) {
            expect(verdict.ok).toBe(false);
          } else {
            expect(verdict.ok).toBe(true);
            if (verdict.ok) expect(verdict.staffers.reduce((a, s) => a + s.freeSeats, 0)).toBe(quantity);
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  it('free intervals of a day hold every slot of that day, in every zone (issue 16 §6)', () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        const duration = q.service.durationMinutes * MINUTE;
        for (const day of computeSlots(q)) {
          for (const i of day.intervals) {
            expect(Date.parse(i.end_time) - Date.parse(i.start_time)).toBeGreaterThanOrEqual(duration);
            if (i.start_offset === i.end_offset)
              expect(i.end_formatted - i.start_formatted).toBeGreaterThanOrEqual(duration / 1000);
          }
          for (const slot of day.slots) {
            const start = Date.parse(slot.start_time);
            const end = Date.parse(slot.end_time);
            expect(end - start).toBe(duration);
            // Wall-clock seconds: the length shows in them unless the clocks changed in between.
            if (slot.start_offset === slot.end_offset)
              expect(slot.end_formatted - slot.start_formatted).toBe(duration / 1000);
            const held = day.intervals.some(
              (i) => Date.parse(i.start_time) <= start && end <= Date.parse(i.end_time),
            );
            expect(held, `${day.date} ${slot.start_time} in ${JSON.stringify(day.intervals)}`).toBe(true);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('wall clock and offset name the instant: date + start + start_offset = start_time', () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        for (const day of computeSlots(q)) {
          for (const item of [...day.slots, ...day.intervals]) {
            expect(Date.parse(`${day.date}T${item.start}:00${item.start_offset}`)).toBe(
              Date.parse(item.start_time),
            );
            // The end may fall on a later date: compare the wall clock of end_time in end_offset.
            const sign = item.end_offset.startsWith('-') ? -1 : 1;
            const [h, m] = item.end_offset.slice(1).split(':').map(Number) as [number, number];
            const wall = new Date(Date.parse(item.end_time) + sign * (h * 60 + m) * MINUTE);
            expect(wall.toISOString().slice(11, 16)).toBe(item.end);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('a slice of a wider evaluation answers exactly as the query evaluated alone', () => {
    fc.assert(
      fc.property(
        queryArb,
        fc.integer({ min: 0, max: 3 * 96 }),
        fc.integer({ min: 0, max: 3 * 96 }),
        (q, before, after) => {
          const { lower, upper } = queryWindow(q);
          fc.pre(lower <= upper);
          // Widened by 0-3 days on either side, in quarter hours, as a shared evaluation would be.
          const wide = evaluateAvailability(q, lower - before * 15 * MINUTE, upper + after * 15 * MINUTE);
          expect(computeSlots(q, wide)).toEqual(computeSlots(q));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses an evaluation that does not cover the query', () => {
    const q = fc.sample(
      queryArb.filter((query) => {
        const w = queryWindow(query);
        return w.lower < w.upper;
      }),
      { numRuns: 1, seed: 7 },
    )[0]!;
    const { lower, upper } = queryWindow(q);
    expect(() => computeSlots(q, evaluateAvailability(q, lower + 1, upper))).toThrow(RangeError);
  });
});
