/**
 * Resources in the slot engine (docs/resources.md): table cases, and a property checked against
 * an oracle that counts free units minute-free, by plain overlap of each unit's busy spans with
 * the new session's span, independent of the engine's block intervals and cursors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkBookable, computeSlots } from './compute-slots.js';
import type { Occupancy, ResourceNeedInput, SlotQuery, StafferInput } from './types.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// 2026-06-15 is a Monday; UTC keeps wall times and instants equal.
const DAY = Date.parse('2026-06-15T00:00:00Z');
const at = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return DAY + h * HOUR + m * MINUTE;
};

function staffer(id: string, occupancies: Occupancy[] = []): StafferInput {
  return {
    stafferId: id,
    schedule: { weekly: { mon: [{ from: '09:00', to: '17:00' }] }, breaks: {}, overrides: [] },
    occupancies,
  };
}

function query(
  staffers: StafferInput[],
  resources: ResourceNeedInput[] | undefined,
  service: Partial<SlotQuery['service']> = {},
): SlotQuery {
  return {
    locationZone: 'UTC',
    answerZone: 'UTC',
    service: {
      id: 'svc',
      durationMinutes: 60,
      capacity: 1,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      priceMinor: 0,
      ...service,
    },
    rules: { slotStepMinutes: 30, minNoticeMinutes: 0, horizonDays: 30 },
    staffers,
    ...(resources ? { resources } : {}),
    now: DAY - 86_400_000,
    priceFormatted: '',
    rangeStart: '2026-06-15',
    rangeEnd: '2026-06-15',
  };
}

const quantities = (q: SlotQuery) =>
  new Map(computeSlots(q)[0]!.slots.map((slot) => [slot.start, slot.quantity]));

describe('the engine with resources', () => {
  it('counts as many new sessions as free units allow, never more than free staffers', () => {
    const two = [staffer('a'), staffer('b')];
    const room = (id: string, busy: { start: number; end: number }[] = []) => ({ resourceId: id, busy });
    expect(quantities(query(two, undefined)).get('10:00')).toBe(2);
    expect(quantities(query(two, [{ units: 1, pool: [room('r1')] }])).get('10:00')).toBe(1);
    expect(
      quantities(query(two, [{ units: 1, pool: [room('r1'), room('r2'), room('r3')] }])).get('10:00'),
    ).toBe(2);
    // Two units a session: three rooms make one session.
    expect(
      quantities(query(two, [{ units: 2, pool: [room('r1'), room('r2'), room('r3')] }])).get('10:00'),
    ).toBe(1);
    // No unit at all: nothing.
    expect(quantities(query(two, [{ units: 1, pool: [] }])).size).toBe(0);
    // Every need must be met: a free room but no free chair is nothing.
    const busyChair = room('c1', [{ start: at('09:00'), end: at('12:00') }]);
    const both = quantities(
      query(two, [
        { units: 1, pool: [room('r1')] },
        { units: 1, pool: [busyChair] },
      ]),
    );
    expect(both.has('10:00')).toBe(false);
    expect(both.get('12:00')).toBe(1);
  });

  it('keeps the whole span with its buffers clear of a unit’s busy time', () => {
    const busy = [{ start: at('12:00'), end: at('13:00') }];
    const slots = quantities(
      query([staffer('a')], [{ units: 1, pool: [{ resourceId: 'r1', busy }] }], {
        bufferBeforeMinutes: 30,
        bufferAfterMinutes: 30,
      }),
    );
    // 10:30 ends 11:30 + 30 min buffer = 12:00: touches, free. 11:00 reaches into it.
    expect(slots.get('10:30')).toBe(1);
    for (const hhmm of ['11:00', '11:30', '12:00', '12:30', '13:00'])
      expect(slots.has(hhmm), hhmm).toBe(false);
    // 13:30 - 30 min buffer = 13:00: touches, free.
    expect(slots.get('13:30')).toBe(1);
  });

  it('lets a group session be joined without a unit: it holds one already', () => {
    const session: Occupancy = {
      start: at('10:00'),
      end: at('11:00'),
      serviceId: 'svc',
      serviceStart: at('10:00'),
      seatsTaken: 1,
      capacity: 4,
    };
    // The only room is busy with that very session.
    const needs = [
      { units: 1, pool: [{ resourceId: 'r1', busy: [{ start: at('10:00'), end: at('11:00') }] }] },
    ];
    const q = query([staffer('a', [session])], needs, { capacity: 4 });
    expect(quantities(q).get('10:00')).toBe(3);
    const verdict = checkBookable(q, at('10:00'));
    expect(verdict).toEqual({ ok: true, staffers: [{ stafferId: 'a', freeSeats: 3 }], units: [[]] });
    // A new session at 10:30 would need the room.
    expect(checkBookable(q, at('10:30'))).toEqual({ ok: false, reason: 'no_free_staffer' });
  });

  it('narrows the free intervals to where the units allow a new session', () => {
    const intervals = (q: SlotQuery) => computeSlots(q)[0]!.intervals.map((i) => `${i.start}-${i.end}`);
    const room = (id: string, busy: [string, string][]) => ({
      resourceId: id,
      busy: busy.map(([from, to]) => ({ start: at(from), end: at(to) })),
    });
    // Staffer free 09:00-17:00; the one room busy 10:00-11:00 and 14:00-14:30.
    expect(
      intervals(
        query(
          [staffer('a')],
          [
            {
              units: 1,
              pool: [
                room('r1', [
                  ['10:00', '11:00'],
                  ['14:00', '14:30'],
                ]),
              ],
            },
          ],
        ),
      ),
    ).toEqual(['09:00-10:00', '11:00-14:00', '14:30-17:00']);
    // Two rooms busy at different times: one is always free, nothing narrows.
    expect(
      intervals(
        query(
          [staffer('a')],
          [{ units: 1, pool: [room('r1', [['10:00', '11:00']]), room('r2', [['11:00', '12:00']])] }],
        ),
      ),
    ).toEqual(['09:00-17:00']);
    // Two units a session: short wherever either is busy.
    expect(
      intervals(
        query(
          [staffer('a')],
          [{ units: 2, pool: [room('r1', [['10:00', '11:00']]), room('r2', [['11:00', '12:00']])] }],
        ),
      ),
    ).toEqual(['09:00-10:00', '12:00-17:00']);
    // Buffers widen a unit's busy time as they widen a staffer's: 30 min before and after.
    expect(
      intervals(
        query([staffer('a')], [{ units: 1, pool: [room('r1', [['12:00', '13:00']])] }], {
          bufferBeforeMinutes: 30,
          bufferAfterMinutes: 30,
        }),
      ),
    ).toEqual(['09:00-11:30', '13:30-17:00']);
    // Too few units ever: no interval at all.
    expect(intervals(query([staffer('a')], [{ units: 2, pool: [room('r1', [])] }]))).toEqual([]);
  });

  it('names the free units to try, in pool order', () => {
    const needs = [
      {
        units: 1,
        pool: [
          { resourceId: 'r1', busy: [{ start: at('10:00'), end: at('11:00') }] },
          { resourceId: 'r2', busy: [] },
          { resourceId: 'r3', busy: [] },
        ],
      },
    ];
    const verdict = checkBookable(query([staffer('a')], needs), at('10:00'));
    expect(verdict.ok && verdict.units).toEqual([['r2', 'r3']]);
  });

  it('property: quantity = min(free staffers, free units / units), and every listed start is bookable', () => {
    const span = fc
      .record({ startQ: fc.integer({ min: 30, max: 72 }), lengthQ: fc.integer({ min: 1, max: 12 }) })
      .map((s) => ({ start: DAY + s.startQ * 15 * MINUTE, end: DAY + (s.startQ + s.lengthQ) * 15 * MINUTE }));
    const arb = fc.record({
      staffers: fc.array(fc.array(span, { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
      units: fc.array(fc.array(span, { maxLength: 4 }), { maxLength: 4 }),
      perSession: fc.integer({ min: 1, max: 2 }),
      duration: fc.constantFrom(30, 45, 60, 90),
      before: fc.constantFrom(0, 15),
      after: fc.constantFrom(0, 15, 30),
    });
    fc.assert(
      fc.property(arb, (c) => {
        const staffers = c.staffers.map((busy, i) =>
          staffer(
            `s${i}`,
            busy.map((b) => ({
              ...b,
              serviceId: 'other',
              serviceStart: b.start,
              seatsTaken: 1,
              capacity: 1,
            })),
          ),
        );
        const needs = [
          { units: c.perSession, pool: c.units.map((busy, i) => ({ resourceId: `r${i}`, busy })) },
        ];
        const service = {
          durationMinutes: c.duration,
          bufferBeforeMinutes: c.before,
          bufferAfterMinutes: c.after,
        };
        const without = quantities(query(staffers, undefined, service));
        const withUnits = query(staffers, needs, service);
        const listed = quantities(withUnits);
        for (const [hhmm, staffersFree] of without) {
          const t = at(hhmm);
          const lo = t - c.before * MINUTE;
          const hi = t + (c.duration + c.after) * MINUTE;
          const freeUnits = c.units.filter((busy) => busy.every((b) => b.end <= lo || b.start >= hi)).length;
          const expected = Math.min(staffersFree, Math.floor(freeUnits / c.perSession));
          expect(listed.get(hhmm) ?? 0).toBe(expected);
          if (expected > 0) expect(checkBookable(withUnits, t).ok).toBe(true);
          else expect(checkBookable(withUnits, t).ok).toBe(false);
        }
        // Nothing is listed that a staffer alone would not offer.
        for (const hhmm of listed.keys()) expect(without.has(hhmm)).toBe(true);
        // Every listed start's body lies in one free interval (the intervals hold every slot).
        const intervals = computeSlots(withUnits)[0]!.intervals.map((i) => [at(i.start), at(i.end)] as const);
        for (const hhmm of listed.keys()) {
          const t = at(hhmm);
          const end = t + c.duration * MINUTE;
          expect(
            intervals.some(([from, to]) => from <= t && end <= to),
            `${hhmm} in ${JSON.stringify(intervals)}`,
          ).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
