import { describe, expect, it } from 'vitest';
import { isDate, monthWeeks, rangeStart, shiftMonth } from './calendar-range.js';

describe('rangeStart', () => {
  const today = '2026-09-01';
  const last = '2026-11-30';

  it('opens the 7-day range holding a date given alone, counted from today as the pager counts', () => {
    expect(rangeStart(today, last, { date: '2026-11-19' })).toBe('2026-11-17');
    expect(rangeStart(today, last, { date: '2026-09-07' })).toBe('2026-09-01');
    expect(rangeStart(today, last, { date: '2026-09-08' })).toBe('2026-09-08');
  });

  it('lets the pager`s from win, and ignores dates in the past, past the horizon or not real', () => {
    expect(rangeStart(today, last, { from: '2026-09-15', date: '2026-11-19' })).toBe('2026-09-15');
    for (const date of ['2026-08-20', '2026-12-01', '2026-02-31', '2026-9-8', 'x']) {
      expect(rangeStart(today, last, { date }), date).toBe(today);
    }
  });
});

describe('the month grid', () => {
  it('lays a month out in Monday-first weeks', () => {
    const march = monthWeeks('2026-03'); // 1 March 2026 is a Sunday
    expect(march[0]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      '2026-03-01',
    ]);
    expect(march.at(-1)).toEqual([
      '2026-03-30',
      '2026-03-31',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(march.flat().filter(Boolean)).toHaveLength(31);
    expect(monthWeeks('2027-02').flat().filter(Boolean)).toHaveLength(28);
    expect(monthWeeks('2028-02').flat().filter(Boolean)).toHaveLength(29);
    expect(monthWeeks('2026-06')[0]![0]).toBe('2026-06-01'); // a Monday
  });

  it('steps months across years, and tells real dates', () => {
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(isDate('2028-02-29')).toBe(true);
    expect(isDate('2027-02-29')).toBe(false);
  });
});
