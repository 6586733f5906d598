import type { FieldErrors } from '../../errors.js';
import type { ScheduleOverride, TimeRange, WeekRanges } from '../schedules.rules.js';
import { WEEKDAYS } from '../schedules.rules.js';

/**
 * The schedule form of the panel and the PUT body of the API, both ways. The form's field names
 * are the body's own paths (`weekly.mon.0.from`, `breaks.tue.1.to`, `overrides.2.date`), so the
 * rules' errors land next to their fields. The form has fixed rows (two ranges per day, an
 * empty override row) and works without JavaScript; empty rows are left out of the body, and
 * error keys are mapped back from the body's indices to the form's rows.
 */

export type FormValues = Record<string, string>;

/** At least this many working ranges and breaks per day, and per override. */
export const RANGE_ROWS = 2;
/**
 * Empty override rows offered under the existing ones: one, and "Add another date" posts the
 * form back to get one more (a row of eight empty fields is a lot to scroll past).
 */
export const NEW_OVERRIDE_ROWS = 1;

const FIELD = /^(weekly|breaks|overrides)\.[a-z0-9_.]+$/;

/** The schedule fields of a posted form, as strings. */
export function scheduleValuesOf(body: unknown): FormValues {
  const values: FormValues = {};
  for (const [key, value] of Object.entries((body as Record<string, unknown>) ?? {})) {
    if (!FIELD.test(key) || key.length > 60) continue;
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text === 'string') values[key] = text.slice(0, 40);
  }
  return values;
}

interface StoredSchedule {
  weekly: WeekRanges;
  breaks: WeekRanges;
  overrides: ScheduleOverride[];
}

/** The form's values for a stored schedule (overrides by date, as a person reads them). */
export function formValuesOf(schedule: StoredSchedule): FormValues {
  const values: FormValues = {};
  const putRanges = (prefix: string, ranges: TimeRange[] | undefined) =>
    (ranges ?? []).forEach((range, index) => {
      values[`${prefix}.${index}.from`] = range.from;
      // A time input cannot show 24:00; 00:00 as the end means the same midnight (the range runs
      // past midnight), except for a whole day (00:00-24:00), which stays as stored.
      values[`${prefix}.${index}.to`] = range.to === '24:00' && range.from !== '00:00' ? '00:00' : range.to;
    });
  for (const day of WEEKDAYS) {
    putRanges(`weekly.${day}`, schedule.weekly[day]);
    putRanges(`breaks.${day}`, schedule.breaks[day]);
  }
  [...schedule.overrides]
    .sort((a, b) => a.date.localeCompare(b.date))
    .forEach((override, index) => {
      values[`overrides.${index}.date`] = override.date;
      values[`overrides.${index}.mode`] = override.intervals.length === 0 ? 'off' : 'hours';
      putRanges(`overrides.${index}.intervals`, override.intervals);
      putRanges(`overrides.${index}.breaks`, override.breaks);
    });
  return values;
}

/** How many rows the list at `prefix` (e.g. `weekly.mon`, `overrides`) has in these values. */
export function rowsIn(values: FormValues, prefix: string): number {
  let rows = 0;
  const start = `${prefix}.`;
  for (const key of Object.keys(values)) {
    if (!key.startsWith(start)) continue;
    const index = Number(key.slice(start.length).split('.')[0]);
    if (Number.isInteger(index) && index < 1000) rows = Math.max(rows, index + 1);
  }
  return rows;
}

const val = (values: FormValues, key: string) => (values[key] ?? '').trim();

/** A list of ranges from its rows; `index` maps each body index to its form row. */
function readRows(values: FormValues, prefix: string) {
  const ranges: TimeRange[] = [];
  const index: number[] = [];
  for (let row = 0; row < rowsIn(values, prefix); row++) {
    const from = val(values, `${prefix}.${row}.from`);
    const to = val(values, `${prefix}.${row}.to`);
    if (from === '' && to === '') continue;
    ranges.push({ from, to });
    index.push(row);
  }
  return { ranges, index };
}

export interface ScheduleBodyFromForm {
  body: { weekly: WeekRanges; breaks: WeekRanges; overrides: ScheduleOverride[] };
  /** Errors of the form itself (an override with "special hours" and none given). */
  errors: FieldErrors;
  /** A body error key -> the form field it belongs to. */
  formKey(key: string): string;
}

/** The API's PUT body for the posted form (empty rows and removed overrides left out). */
export function scheduleBodyOf(values: FormValues, words: { noHours: string }): ScheduleBodyFromForm {
  const rowMaps = new Map<string, number[]>();
  const week = (kind: 'weekly' | 'breaks') => {
    const out: WeekRanges = {};
    for (const day of WEEKDAYS) {
      const { ranges, index } = readRows(values, `${kind}.${day}`);
      rowMaps.set(`${kind}.${day}`, index);
      if (ranges.length > 0) out[day] = ranges;
    }
    return out;
  };
  const weekly = week('weekly');
  const breaks = week('breaks');

  const overrides: ScheduleOverride[] = [];
  const overrideRows: number[] = [];
  const errors: FieldErrors = {};
  for (let row = 0; row < rowsIn(values, 'overrides'); row++) {
    const at = `overrides.${row}`;
    const date = val(values, `${at}.date`);
    const off = val(values, `${at}.mode`) === 'off';
    const intervals = readRows(values, `${at}.intervals`);
    const dayBreaks = readRows(values, `${at}.breaks`);
    if (val(values, `${at}.remove`) !== '') continue;
    // A row with no date and no hours is an unused row (its mode alone says nothing).
    if (date === '' && intervals.ranges.length === 0 && dayBreaks.ranges.length === 0) continue;
    const bodyIndex = overrides.length;
    overrideRows.push(row);
    rowMaps.set(`overrides.${bodyIndex}.intervals`, intervals.index);
    rowMaps.set(`overrides.${bodyIndex}.breaks`, dayBreaks.index);
    if (off) {
      overrides.push({ date, intervals: [] });
      continue;
    }
    if (intervals.ranges.length === 0) {
      errors[`${at}.intervals`] = [words.noHours];
    }
    overrides.push({
      date,
      intervals: intervals.ranges,
      ...(dayBreaks.ranges.length > 0 ? { breaks: dayBreaks.ranges } : {}),
    });
  }

  return {
    body: { weekly, breaks, overrides },
    errors,
    formKey(key) {
      const parts = key.split('.');
      if (parts[0] === 'overrides' && parts.length > 1) {
        const bodyIndex = Number(parts[1]);
        const row = overrideRows[bodyIndex];
        if (row === undefined) return key;
        if (parts.length > 3) {
          const list = rowMaps.get(`overrides.${bodyIndex}.${parts[2]}`);
          const inner = list?.[Number(parts[3])];
          if (inner !== undefined) parts[3] = String(inner);
        }
        parts[1] = String(row);
        return parts.join('.');
      }
      if ((parts[0] === 'weekly' || parts[0] === 'breaks') && parts.length > 2) {
        const row = rowMaps.get(`${parts[0]}.${parts[1]}`)?.[Number(parts[2])];
        if (row !== undefined) parts[2] = String(row);
      }
      return parts.join('.');
    },
  };
}

/** Error keys of the body renamed to the form's rows. */
export function formErrorsOf(errors: FieldErrors, formKey: (key: string) => string): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, messages] of Object.entries(errors)) {
    const target = formKey(key);
    out[target] = [...(out[target] ?? []), ...messages];
  }
  return out;
}
