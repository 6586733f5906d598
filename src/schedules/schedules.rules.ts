/**
 * The rules of a staffer's schedule at a location (weekly hours, date overrides, breaks), as one
 * pure function: it reads no database or clock, so it is unit-tested directly and the route only
 * stores what it returns.
 *
 * The slot engine (src/slots/working-spans.ts) reads the stored JSON with these meanings, so the
 * rules here mirror it: times are 'HH:MM' wall times, `to` may be '24:00', and `to` <= `from`
 * means the range runs past midnight into the next day. Breaks and overlaps are judged on the
 * same line the engine uses: minutes from the day's midnight, an overnight `to` plus 1440.
 */
import type { FieldErrors } from '../errors.js';
import { type FieldIssue, REQUIRED, ruleIssue, withIssues } from '../errors.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface TimeRange {
  from: string;
  to: string;
}
export type WeekRanges = Partial<Record<Weekday, TimeRange[]>>;
export interface ScheduleOverride {
  date: string;
  intervals: TimeRange[];
  breaks?: TimeRange[];
}
export interface ScheduleInput {
  weekly: WeekRanges;
  breaks: WeekRanges;
  overrides: ScheduleOverride[];
}

export type ScheduleValidation = { ok: true; schedule: ScheduleInput } | { ok: false; errors: FieldErrors };

/** Bounds that keep one request's work small; far above any real working day or year. */
export const MAX_RANGES_PER_DAY = 48;
export const MAX_OVERRIDES = 1000;

const MINUTES_PER_DAY = 1440;
const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface Span {
  start: number;
  end: number;
}

class Errors {
  private readonly found: FieldErrors = {};
  private readonly issues: Record<string, FieldIssue> = {};
  add(field: string, message: string, issue?: FieldIssue): void {
    const list = this.found[field] ?? [];
    if (!list.includes(message)) list.push(message);
    this.found[field] = list;
    if (issue) this.issues[field] ??= issue;
  }
  /** The field errors, with the typed issues the panel words in its reader's language. */
  get all(): FieldErrors {
    return withIssues({ ...this.found }, { ...this.issues });
  }
  get isEmpty(): boolean {
    return Object.keys(this.found).length === 0;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** 'HH:MM' -> minutes since midnight, or undefined; '24:00' only where `allowEndOfDay`. */
export function wallMinutes(value: unknown, allowEndOfDay: boolean): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (allowEndOfDay && value === '24:00') return MINUTES_PER_DAY;
  const m = TIME_RE.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/** A real calendar date in YYYY-MM-DD (rejects 2026-02-30). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Checks a list of ranges at `field` (e.g. 'weekly.mon'); returns the clean ranges (only `from`
 * and `to` kept) with their spans, or undefined when the list itself is unusable.
 */
function readRanges(
  value: unknown,
  field: string,
  errors: Errors,
): { ranges: TimeRange[]; spans: (Span | undefined)[] } | undefined {
  if (!Array.isArray(value)) {
    errors.add(
      field,
      `The ${lastSegment(field)} field must be a list of {from, to} time ranges.`,
      ruleIssue('schedule_not_a_list'),
    );
    return undefined;
  }
  if (value.length > MAX_RANGES_PER_DAY) {
    errors.add(
      field,
      `The ${lastSegment(field)} field may hold at most ${MAX_RANGES_PER_DAY} ranges.`,
      ruleIssue('schedule_too_many_ranges', { max: MAX_RANGES_PER_DAY }),
    );
    return undefined;
  }
  const ranges: TimeRange[] = [];
  const spans: (Span | undefined)[] = [];
  value.forEach((item, index) => {
    const at = `${field}.${index}`;
    if (!isObject(item)) {
      errors.add(
        at,
        'The range must be an object with from and to times.',
        ruleIssue('schedule_range_not_an_object'),
      );
      spans.push(undefined);
      return;
    }
    const from = wallMinutes(item.from, false);
    const to = wallMinutes(item.to, true);
    if (item.from === undefined) errors.add(`${at}.from`, 'The from field is required.', REQUIRED);
    else if (from === undefined)
      errors.add(
        `${at}.from`,
        'The from field must be a time HH:MM from 00:00 to 23:59.',
        ruleIssue('schedule_from_not_a_time'),
      );
    if (item.to === undefined) errors.add(`${at}.to`, 'The to field is required.', REQUIRED);
    else if (to === undefined)
      errors.add(
        `${at}.to`,
        'The to field must be a time HH:MM from 00:00 to 24:00.',
        ruleIssue('schedule_to_not_a_time'),
      );
    if (from === undefined || to === undefined) {
      spans.push(undefined);
      return;
    }
    // '24:00' is the same wall time as '00:00' of the next day, so 00:00-24:00 is a whole day
    // while 09:00-09:00 is nothing at all.
    if (to === from) {
      errors.add(
        `${at}.to`,
        'The to time must differ from the from time.',
        ruleIssue('schedule_to_equals_from'),
      );
      spans.push(undefined);
      return;
    }
    ranges.push({ from: item.from as string, to: item.to as string });
    spans.push({ start: from, end: to < from ? to + MINUTES_PER_DAY : to });
  });
  return { ranges, spans };
}

/** Names each range that overlaps an earlier one of the same list (touching is fine). */
function checkNoOverlap(
  spans: (Span | undefined)[],
  field: string,
  what: 'interval' | 'break',
  errors: Errors,
): void {
  for (let j = 1; j < spans.length; j++) {
    const later = spans[j];
    if (!later) continue;
    for (let i = 0; i < j; i++) {
      const earlier = spans[i];
      if (earlier && later.start < earlier.end && earlier.start < later.end) {
        errors.add(
          `${field}.${j}`,
          `The ${what} overlaps ${field}.${i}.`,
          ruleIssue(what === 'interval' ? 'schedule_interval_overlap' : 'schedule_break_overlap'),
        );
        break;
      }
    }
  }
}

/** Touching working ranges form one stretch (09:00-12:00 + 12:00-18:00); a break may cross the seam. */
function mergeSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const span of sorted) {
    const last = out[out.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

function checkBreaksInside(
  work: (Span | undefined)[],
  breaks: (Span | undefined)[],
  field: string,
  dayLabel: string,
  errors: Errors,
): void {
  // A day whose own ranges are already reported as bad gives no basis to judge its breaks on.
  if (work.some((span) => span === undefined)) return;
  const stretches = mergeSpans(work as Span[]);
  breaks.forEach((item, index) => {
    if (!item) return;
    const inside = stretches.some((s) => s.start <= item.start && item.end <= s.end);
    if (!inside)
      errors.add(
        `${field}.${index}`,
        `The break must lie within a working interval of ${dayLabel}.`,
        ruleIssue('schedule_break_outside'),
      );
  });
}

/** The days' clean ranges and their spans; a span is undefined where that range (or day) is bad. */
function readWeek(value: unknown, field: 'weekly' | 'breaks', errors: Errors) {
  const ranges: WeekRanges = {};
  const spans: Partial<Record<Weekday, (Span | undefined)[]>> = {};
  if (!isObject(value)) {
    errors.add(
      field,
      `The ${field} field must be an object keyed by weekday (mon ... sun).`,
      ruleIssue('schedule_not_a_week'),
    );
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (!(WEEKDAYS as readonly string[]).includes(key)) {
      // A weekday map's keys are data: dropping a misspelt day silently would lose working hours.
      errors.add(
        `${field}.${key}`,
        `Unknown weekday "${key}": use one of ${WEEKDAYS.join(', ')}.`,
        ruleIssue('schedule_unknown_weekday', { key, days: WEEKDAYS.join(', ') }),
      );
    }
  }
  for (const day of WEEKDAYS) {
    if (!(day in value)) continue;
    const read = readRanges(value[day], `${field}.${day}`, errors);
    if (!read) {
      spans[day] = [undefined];
      continue;
    }
    ranges[day] = read.ranges;
    spans[day] = read.spans;
    checkNoOverlap(read.spans, `${field}.${day}`, field === 'weekly' ? 'interval' : 'break', errors);
  }
  return { ranges, spans };
}

function readOverrides(value: unknown, errors: Errors): ScheduleOverride[] {
  if (!Array.isArray(value)) {
    errors.add(
      'overrides',
      'The overrides field must be a list of {date, intervals, breaks} entries.',
      ruleIssue('schedule_overrides_not_a_list'),
    );
    return [];
  }
  if (value.length > MAX_OVERRIDES) {
    errors.add(
      'overrides',
      `The overrides field may hold at most ${MAX_OVERRIDES} dates.`,
      ruleIssue('schedule_too_many_overrides', { max: MAX_OVERRIDES }),
    );
    return [];
  }
  const out: ScheduleOverride[] = [];
  const firstIndexOfDate = new Map<string, number>();
  value.forEach((item, index) => {
    const at = `overrides.${index}`;
    if (!isObject(item)) {
      errors.add(
        at,
        'The override must be an object with a date and intervals.',
        ruleIssue('schedule_override_not_an_object'),
      );
      return;
    }
    if (item.date === undefined) errors.add(`${at}.date`, 'The date field is required.', REQUIRED);
    else if (!isCalendarDate(item.date))
      errors.add(
        `${at}.date`,
        'The date field must be a date YYYY-MM-DD.',
        ruleIssue('schedule_date_not_a_date'),
      );
    else if (firstIndexOfDate.has(item.date)) {
      errors.add(
        `${at}.date`,
        `The date ${item.date} is already listed at overrides.${firstIndexOfDate.get(item.date)}.`,
        ruleIssue('schedule_date_repeated', { date: item.date }),
      );
    } else firstIndexOfDate.set(item.date, index);

    // intervals [] is a day off, so the key must be there: a missing one is more likely a mistake.
    if (item.intervals === undefined) {
      errors.add(
        `${at}.intervals`,
        'The intervals field is required ([] for a day off).',
        ruleIssue('schedule_intervals_required'),
      );
    }
    const intervals =
      item.intervals === undefined ? undefined : readRanges(item.intervals, `${at}.intervals`, errors);
    if (intervals) checkNoOverlap(intervals.spans, `${at}.intervals`, 'interval', errors);
    const breaks = item.breaks === undefined ? undefined : readRanges(item.breaks, `${at}.breaks`, errors);
    if (breaks) {
      checkNoOverlap(breaks.spans, `${at}.breaks`, 'break', errors);
      if (intervals)
        checkBreaksInside(intervals.spans, breaks.spans, `${at}.breaks`, String(item.date), errors);
    }
    out.push({
      date: String(item.date),
      intervals: intervals?.ranges ?? [],
      ...(breaks ? { breaks: breaks.ranges } : {}),
    });
  });
  return out;
}

/**
 * Validates a PUT body `{weekly, breaks?, overrides?}` of any shape. On success returns the
 * schedule to store: the same days, ranges and overrides in the same order, with unknown keys
 * inside ranges and overrides dropped. On failure names every bad field with dotted keys
 * (`weekly.mon.1`, `breaks.tue.0`, `overrides.2.date`).
 */
export function validateSchedule(body: unknown): ScheduleValidation {
  const errors = new Errors();
  if (!isObject(body)) {
    errors.add('weekly', 'The weekly field is required.', REQUIRED);
    return { ok: false, errors: errors.all };
  }
  if (body.weekly === undefined) errors.add('weekly', 'The weekly field is required.', REQUIRED);
  const weekly = body.weekly === undefined ? undefined : readWeek(body.weekly, 'weekly', errors);
  const breaks = body.breaks === undefined ? undefined : readWeek(body.breaks, 'breaks', errors);
  const overrides = body.overrides === undefined ? [] : readOverrides(body.overrides, errors);

  // Breaks are judged against the weekly rule only when that rule could be read at all.
  if (breaks && weekly) {
    for (const day of WEEKDAYS) {
      const dayBreaks = breaks.spans[day];
      if (dayBreaks) checkBreaksInside(weekly.spans[day] ?? [], dayBreaks, `breaks.${day}`, day, errors);
    }
  }
  if (!errors.isEmpty) return { ok: false, errors: errors.all };
  return {
    ok: true,
    schedule: { weekly: weekly?.ranges ?? {}, breaks: breaks?.ranges ?? {}, overrides },
  };
}

function lastSegment(field: string): string {
  return field.split('.').pop() ?? field;
}
