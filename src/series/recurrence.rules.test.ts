import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDateOf, resolveWallTime, toUtcIso, wallMinutesOf, weekdayOf } from '../platform/time/zone.js';
import { expandRecurrence, type RecurrenceRule } from './recurrence.rules.js';

const at = (hh: number, mm = 0) => hh * 60 + mm;
const expand = (zone: string, firstDate: string, minuteOfDay: number, rule: RecurrenceRule) =>
  expandRecurrence({ firstDate, minuteOfDay, zone, rule }).map((o) => [o.date, toUtcIso(o.start)]);

describe('expandRecurrence', () => {
  it.each([
    [
      'Berlin weekly across spring-forward (last Sunday of March): 09:00 stays 09:00',
      'Europe/Berlin',
      '2026-03-19',
      at(9),
      { frequency: 'weekly', interval: 1, weekdays: ['thu'], count: 3 },
      [
        ['2026-03-19', '2026-03-19T08:00:00Z'],
        ['2026-03-26', '2026-03-26T08:00:00Z'],
        ['2026-04-02', '2026-04-02T07:00:00Z'],
      ],
    ],
    [
      'Berlin weekly across fall-back (last Sunday of October)',
      'Europe/Berlin',
      '2026-10-18',
      at(9),
      { frequency: 'weekly', interval: 1, count: 2 },
      [
        ['2026-10-18', '2026-10-18T07:00:00Z'],
        ['2026-10-25', '2026-10-25T08:00:00Z'],
      ],
    ],
    [
      'Berlin 02:30 on the spring-forward night does not exist: the instant the clock jumps (03:00)',
      'Europe/Berlin',
      '2026-03-28',
      at(2, 30),
      { frequency: 'daily', interval: 1, count: 3 },
      [
        ['2026-03-28', '2026-03-28T01:30:00Z'],
        ['2026-03-29', '2026-03-29T01:00:00Z'],
        ['2026-03-30', '2026-03-30T00:30:00Z'],
      ],
    ],
    [
      'Berlin 02:30 on the fall-back night exists twice: the earlier one',
      'Europe/Berlin',
      '2026-10-24',
      at(2, 30),
      { frequency: 'daily', interval: 1, count: 3 },
      [
        ['2026-10-24', '2026-10-24T00:30:00Z'],
        ['2026-10-25', '2026-10-25T00:30:00Z'],
        ['2026-10-26', '2026-10-26T01:30:00Z'],
      ],
    ],
    [
      'New York weekly across the second Sunday of March',
      'America/New_York',
      '2026-03-02',
      at(9),
      { frequency: 'weekly', interval: 1, weekdays: ['mon'], count: 2 },
      [
        ['2026-03-02', '2026-03-02T14:00:00Z'],
        ['2026-03-09', '2026-03-09T13:00:00Z'],
      ],
    ],
    [
      'Lord Howe: a 30-minute DST change (first Sunday of April)',
      'Australia/Lord_Howe',
      '2026-04-04',
      at(10),
      { frequency: 'daily', interval: 1, count: 2 },
      [
        ['2026-04-04', '2026-04-03T23:00:00Z'],
        ['2026-04-05', '2026-04-04T23:30:00Z'],
      ],
    ],
    [
      'Kathmandu (+05:45), monthly on the second Tuesday',
      'Asia/Kathmandu',
      '2026-01-13',
      at(10),
      { frequency: 'monthly', interval: 1, count: 3 },
      [
        ['2026-01-13', '2026-01-13T04:15:00Z'],
        ['2026-02-10', '2026-02-10T04:15:00Z'],
        ['2026-03-10', '2026-03-10T04:15:00Z'],
      ],
    ],
    [
      'monthly from a 5th Friday: the last Friday of each month',
      'UTC',
      '2026-01-30',
      at(12),
      { frequency: 'monthly', interval: 1, count: 3 },
      [
        ['2026-01-30', '2026-01-30T12:00:00Z'],
        ['2026-02-27', '2026-02-27T12:00:00Z'],
        ['2026-03-27', '2026-03-27T12:00:00Z'],
      ],
    ],
    [
      'every 2 weeks on Monday and Wednesday, from a Wednesday',
      'UTC',
      '2026-01-07',
      at(8),
      { frequency: 'weekly', interval: 2, weekdays: ['wed', 'mon'], count: 4 },
      [
        ['2026-01-07', '2026-01-07T08:00:00Z'],
        ['2026-01-19', '2026-01-19T08:00:00Z'],
        ['2026-01-21', '2026-01-21T08:00:00Z'],
        ['2026-02-02', '2026-02-02T08:00:00Z'],
      ],
    ],
    [
      'every 3 days until a date (inclusive)',
      'UTC',
      '2026-01-01',
      at(8),
      { frequency: 'daily', interval: 3, until: '2026-01-10' },
      [
        ['2026-01-01', '2026-01-01T08:00:00Z'],
        ['2026-01-04', '2026-01-04T08:00:00Z'],
        ['2026-01-07', '2026-01-07T08:00:00Z'],
        ['2026-01-10', '2026-01-10T08:00:00Z'],
      ],
    ],
  ] as const)('%s', (_name, zone, first, minute, rule, expected) => {
    expect(expand(zone, first, minute, rule as RecurrenceRule)).toEqual(expected);
  });

  it('stops one past 52 for an until far away, so a caller can refuse it', () => {
    const all = expandRecurrence({
      firstDate: '2026-01-01',
      minuteOfDay: 600,
      zone: 'UTC',
      rule: { frequency: 'daily', interval: 1, until: '2027-12-31' },
    });
    expect(all).toHaveLength(53);
  });

  const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
  const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

  it('weekly: count occurrences, in order, each on a chosen weekday, at the wall time when it exists', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.date({
          min: new Date('2024-01-01T00:00:00Z'),
          max: new Date('2030-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 1439 }),
        fc.uniqueArray(fc.constantFrom(...weekdays), { minLength: 1, maxLength: 7 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 52 }),
        (zone, day, minute, chosen, interval, count) => {
          const firstDate = day.toISOString().slice(0, 10);
          const list = expandRecurrence({
            firstDate,
            minuteOfDay: minute,
            zone,
            rule: { frequency: 'weekly', interval, weekdays: chosen, count },
          });
          expect(list).toHaveLength(count);
          list.forEach((o, i) => {
            expect(o.index).toBe(i + 1);
            expect(o.date >= firstDate).toBe(true);
            expect(chosen).toContain(weekdayOf(o.date));
            if (i > 0) expect(o.start).toBeGreaterThan(list[i - 1]!.start);
            if (resolveWallTime(zone, o.date, minute).length > 0) {
              expect(wallMinutesOf(o.start, zone)).toBe(minute);
              expect(localDateOf(o.start, zone)).toBe(o.date);
            }
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
