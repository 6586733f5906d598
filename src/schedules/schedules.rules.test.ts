import { describe, expect, it } from 'vitest';
import { isCalendarDate, validateSchedule, wallMinutes } from './schedules.rules.js';

const range = (from: string, to: string) => ({ from, to });

/** The field errors of a body that must be refused. */
function errorsOf(body: unknown): Record<string, string[]> {
  const result = validateSchedule(body);
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.schedule)}`);
  return result.errors;
}

describe('validateSchedule: accepted schedules', () => {
  it('accepts split days, breaks, overrides, and returns them unchanged', () => {
    const body = {
      weekly: { mon: [range('09:00', '13:00'), range('14:00', '18:00')], sat: [] },
      breaks: { mon: [range('10:30', '10:45')] },
      overrides: [
        { date: '2026-12-24', intervals: [] },
        { date: '2026-12-31', intervals: [range('10:00', '14:00')], breaks: [range('12:00', '12:30')] },
      ],
    };
    const result = validateSchedule(body);
    expect(result).toEqual({ ok: true, schedule: body });
  });

  it('defaults missing breaks and overrides to empty', () => {
    expect(validateSchedule({ weekly: {} })).toEqual({
      ok: true,
      schedule: { weekly: {}, breaks: {}, overrides: [] },
    });
  });

  it('accepts ranges crossing midnight, a whole day to 24:00, and touching ranges', () => {
    const result = validateSchedule({
      weekly: {
        fri: [range('22:00', '02:00')],
        sat: [range('00:00', '24:00')],
        sun: [range('09:00', '12:00'), range('12:00', '15:00'), range('20:00', '24:00')],
      },
    });
    expect(result.ok).toBe(true);
  });

  it('accepts a break inside an overnight shift, also past midnight', () => {
    const result = validateSchedule({
      weekly: { fri: [range('22:00', '04:00')] },
      breaks: { fri: [range('23:30', '00:30')] },
    });
    expect(result.ok).toBe(true);
  });

  it('accepts a break across the seam of two touching intervals', () => {
    const result = validateSchedule({
      weekly: { mon: [range('09:00', '12:00'), range('12:00', '18:00')] },
      breaks: { mon: [range('11:30', '12:30')] },
    });
    expect(result.ok).toBe(true);
  });

  it('drops unknown keys inside ranges and overrides, keeping the order given', () => {
    const result = validateSchedule({
      weekly: { tue: [{ from: '10:00', to: '11:00', note: 'x' }], mon: [range('08:00', '09:00')] },
      overrides: [{ date: '2026-01-02', intervals: [], extra: true }],
    });
    expect(result).toEqual({
      ok: true,
      schedule: {
        weekly: { tue: [range('10:00', '11:00')], mon: [range('08:00', '09:00')] },
        breaks: {},
        overrides: [{ date: '2026-01-02', intervals: [] }],
      },
    });
  });
});

describe('validateSchedule: refused schedules name the field', () => {
  it('requires weekly', () => {
    expect(Object.keys(errorsOf({}))).toEqual(['weekly']);
    expect(Object.keys(errorsOf(null))).toEqual(['weekly']);
  });

  it('refuses weekly, breaks and overrides of the wrong shape', () => {
    expect(Object.keys(errorsOf({ weekly: [], breaks: 'x', overrides: {} })).sort()).toEqual([
      'breaks',
      'overrides',
      'weekly',
    ]);
    expect(Object.keys(errorsOf({ weekly: { mon: 'nine to five' } }))).toEqual(['weekly.mon']);
    expect(Object.keys(errorsOf({ weekly: { mon: ['09:00-17:00'] } }))).toEqual(['weekly.mon.0']);
  });

  it('refuses an unknown weekday key', () => {
    expect(Object.keys(errorsOf({ weekly: { monday: [range('09:00', '10:00')] } }))).toEqual([
      'weekly.monday',
    ]);
  });

  const badFrom = ['24:00', '9:00', '09:60', '25:00', '0900', '', 'noon'];
  for (const from of badFrom) {
    it(`refuses from "${from}"`, () => {
      expect(Object.keys(errorsOf({ weekly: { mon: [range(from, '23:00')] } }))).toEqual([
        'weekly.mon.0.from',
      ]);
    });
  }

  const badTo = ['24:01', '7:00', '12:75', '99:00'];
  for (const to of badTo) {
    it(`refuses to "${to}"`, () => {
      expect(Object.keys(errorsOf({ weekly: { tue: [range('01:00', to)] } }))).toEqual(['weekly.tue.0.to']);
    });
  }

  it('requires from and to', () => {
    expect(Object.keys(errorsOf({ weekly: { wed: [{ to: '10:00' }, { from: '11:00' }] } })).sort()).toEqual([
      'weekly.wed.0.from',
      'weekly.wed.1.to',
    ]);
  });

  it('refuses a range that starts and ends at the same time', () => {
    expect(errorsOf({ weekly: { mon: [range('09:00', '09:00')] } })).toEqual({
      'weekly.mon.0.to': ['The to time must differ from the from time.'],
    });
    expect(Object.keys(errorsOf({ weekly: { mon: [range('00:00', '00:00')] } }))).toEqual([
      'weekly.mon.0.to',
    ]);
  });

  it('names the later of two overlapping intervals', () => {
    expect(errorsOf({ weekly: { mon: [range('09:00', '13:00'), range('12:00', '18:00')] } })).toEqual({
      'weekly.mon.1': ['The interval overlaps weekly.mon.0.'],
    });
  });

  it('sees overlaps whatever the order and with overnight ranges', () => {
    expect(
      Object.keys(errorsOf({ weekly: { thu: [range('14:00', '18:00'), range('08:00', '15:00')] } })),
    ).toEqual(['weekly.thu.1']);
    expect(
      Object.keys(errorsOf({ weekly: { fri: [range('22:00', '02:00'), range('23:00', '24:00')] } })),
    ).toEqual(['weekly.fri.1']);
    expect(
      Object.keys(errorsOf({ weekly: { sat: [range('00:00', '24:00'), range('10:00', '11:00')] } })),
    ).toEqual(['weekly.sat.1']);
  });

  it('refuses a break outside every working interval of its day', () => {
    const errors = errorsOf({
      weekly: { mon: [range('09:00', '13:00'), range('14:00', '18:00')] },
      breaks: { mon: [range('12:30', '14:30')], tue: [range('10:00', '10:30')] },
    });
    expect(errors).toEqual({
      'breaks.mon.0': ['The break must lie within a working interval of mon.'],
      'breaks.tue.0': ['The break must lie within a working interval of tue.'],
    });
  });

  it("refuses a break in the small hours of the same date rather than the overnight shift's", () => {
    // Friday's 00:30 is the start of Friday, not the tail of Friday's 22:00-04:00 shift.
    expect(
      Object.keys(
        errorsOf({ weekly: { fri: [range('22:00', '04:00')] }, breaks: { fri: [range('00:30', '01:00')] } }),
      ),
    ).toEqual(['breaks.fri.0']);
  });

  it('refuses overlapping breaks and bad break times', () => {
    const errors = errorsOf({
      weekly: { mon: [range('08:00', '20:00')] },
      breaks: { mon: [range('12:00', '13:00'), range('12:30', '12:45'), range('12:00', 'x')] },
    });
    expect(Object.keys(errors).sort()).toEqual(['breaks.mon.1', 'breaks.mon.2.to']);
  });

  it('does not judge breaks against a day whose intervals are already bad', () => {
    const errors = errorsOf({
      weekly: { mon: [range('09:00', 'late')] },
      breaks: { mon: [range('10:00', '10:15')] },
    });
    expect(Object.keys(errors)).toEqual(['weekly.mon.0.to']);
  });

  it('refuses malformed, impossible and missing override dates', () => {
    const errors = errorsOf({
      weekly: {},
      overrides: [
        { date: '2026-02-30', intervals: [] },
        { date: '24.12.2026', intervals: [] },
        { date: '2026-13-01', intervals: [] },
        { intervals: [] },
        { date: '2028-02-29', intervals: [] },
      ],
    });
    expect(Object.keys(errors).sort()).toEqual([
      'overrides.0.date',
      'overrides.1.date',
      'overrides.2.date',
      'overrides.3.date',
    ]);
  });

  it('refuses a date listed twice, naming the second entry', () => {
    expect(
      errorsOf({
        weekly: {},
        overrides: [
          { date: '2026-12-24', intervals: [] },
          { date: '2026-12-25', intervals: [] },
          { date: '2026-12-24', intervals: [range('10:00', '12:00')] },
        ],
      }),
    ).toEqual({ 'overrides.2.date': ['The date 2026-12-24 is already listed at overrides.0.'] });
  });

  it('checks override intervals and breaks like weekly ones', () => {
    const errors = errorsOf({
      weekly: {},
      overrides: [
        { date: '2026-05-01', intervals: [range('09:00', '12:00'), range('11:00', '13:00')] },
        { date: '2026-05-02', intervals: [range('09:00', '12:00')], breaks: [range('12:00', '12:30')] },
        { date: '2026-05-03', intervals: [], breaks: [range('10:00', '10:30')] },
        { date: '2026-05-04' },
        { date: '2026-05-05', intervals: [range('10:00', '10:00')] },
        'closed',
      ],
    });
    expect(Object.keys(errors).sort()).toEqual([
      'overrides.0.intervals.1',
      'overrides.1.breaks.0',
      'overrides.2.breaks.0',
      'overrides.3.intervals',
      'overrides.4.intervals.0.to',
      'overrides.5',
    ]);
  });

  it('names every bad field at once', () => {
    const errors = errorsOf({
      weekly: { mon: [range('09:00', '09:00')], tue: [range('08:00', '12:00'), range('10:00', '14:00')] },
      breaks: { wed: [range('10:00', '11:00')] },
      overrides: [{ date: 'tomorrow', intervals: [] }],
    });
    expect(Object.keys(errors).sort()).toEqual([
      'breaks.wed.0',
      'overrides.0.date',
      'weekly.mon.0.to',
      'weekly.tue.1',
    ]);
  });

  it('bounds the size of a day and of the override list', () => {
    const many = Array.from({ length: 49 }, (_, i) =>
      range(`${String(i % 24).padStart(2, '0')}:00`, '23:59'),
    );
    expect(Object.keys(errorsOf({ weekly: { mon: many } }))).toEqual(['weekly.mon']);
    const overrides = Array.from({ length: 1001 }, () => ({ date: '2026-01-01', intervals: [] }));
    expect(Object.keys(errorsOf({ weekly: {}, overrides }))).toEqual(['overrides']);
  });
});

describe('time and date parsing', () => {
  it('reads wall times as minutes since midnight', () => {
    expect(wallMinutes('00:00', false)).toBe(0);
    expect(wallMinutes('23:59', false)).toBe(23 * 60 + 59);
    expect(wallMinutes('24:00', false)).toBeUndefined();
    expect(wallMinutes('24:00', true)).toBe(1440);
    expect(wallMinutes(900, true)).toBeUndefined();
  });

  it('knows leap years', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-04-31')).toBe(false);
    expect(isCalendarDate('2026-4-30')).toBe(false);
  });
});
