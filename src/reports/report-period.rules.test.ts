import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../platform/time/zone.js';
import { bucketOf, bucketsOf, perMille, readPeriod } from './report-period.rules.js';

describe('the period of a report', () => {
  it('defaults to the last 30 days up to today, by day', () => {
    expect(readPeriod({}, '2026-11-26').period).toEqual({
      from: '2026-10-28',
      to: '2026-11-26',
      grouping: 'day',
      locationId: undefined,
    });
  });

  it.each([
    [{ from: '2026-01-01', to: '2026-03-01' }, 'day'],
    [{ from: '2026-01-01', to: '2026-03-05' }, 'week'],
    [{ from: '2026-01-01', to: '2026-12-31' }, 'month'],
    [{ from: '2026-01-01', to: '2026-12-31', group: 'day' }, 'day'],
  ])('groups %j by %s unless asked', (query, grouping) => {
    expect(readPeriod(query, '2026-11-26').period.grouping).toBe(grouping);
  });

  it.each([
    [{ from: '2026-02-30' }, ['from']],
    [{ to: 'yesterday' }, ['to']],
    [{ from: '2026-03-02', to: '2026-03-01' }, ['order']],
    [{ from: '2024-01-01', to: '2025-01-01' }, ['length']],
  ])('names what is wrong with %j', (query, problems) => {
    expect(readPeriod(query, '2026-11-26').problems).toEqual(problems);
  });

  it('takes a leap year whole and keeps only a well-formed location id', () => {
    const { period, problems } = readPeriod(
      { from: '2024-01-01', to: '2024-12-31', location: "x' OR 1=1" },
      '2026-11-26',
    );
    expect(problems).toEqual([]);
    expect(period.locationId).toBeUndefined();
  });
});

describe('buckets', () => {
  it.each([
    ['2026-03-29', 'week', '2026-03-23'], // a Sunday belongs to the week of its Monday
    ['2026-03-23', 'week', '2026-03-23'],
    ['2027-01-01', 'week', '2026-12-28'], // across the new year
    ['2026-02-28', 'month', '2026-02-01'],
    ['2026-02-28', 'day', '2026-02-28'],
  ] as const)('%s by %s starts on %s', (date, grouping, start) => {
    expect(bucketOf(date, grouping)).toBe(start);
  });

  it('lists every bucket of a period, empty ones too, the first cut by the period', () => {
    expect(bucketsOf({ from: '2026-03-25', to: '2026-04-07', grouping: 'week' })).toEqual([
      '2026-03-23',
      '2026-03-30',
      '2026-04-06',
    ]);
    expect(bucketsOf({ from: '2026-11-15', to: '2027-02-01', grouping: 'month' })).toEqual([
      '2026-11-01',
      '2026-12-01',
      '2027-01-01',
      '2027-02-01',
    ]);
  });

  it('puts every day of any period in exactly one listed bucket, in order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 365 }),
        fc.constantFrom('day', 'week', 'month'),
        (offset, length, grouping) => {
          const from = addDays('2020-01-01', offset);
          const to = addDays(from, length);
          const keys = bucketsOf({ from, to, grouping });
          expect([...keys].sort()).toEqual(keys);
          expect(new Set(keys).size).toBe(keys.length);
          for (let day = from; day <= to; day = addDays(day, 1))
            expect(keys).toContain(bucketOf(day, grouping));
          expect(keys[0]).toBe(bucketOf(from, grouping));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('rates in per mille, none without a base', () => {
    expect(perMille(1, 6)).toBe(167);
    expect(perMille(0, 0)).toBeNull();
  });
});
