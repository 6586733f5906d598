/**
 * The checks of a series' input and the choice of its occurrences a change applies to, pure
 * (docs/series.md).
 */
import type { FieldErrors } from '../errors.js';
import { dateToUtcMs } from '../platform/time/zone.js';
import { type Frequency, MAX_OCCURRENCES, type Occurrence, type RecurrenceRule } from './recurrence.rules.js';
import type { SERIES_MODES, SERIES_SCOPES, WEEKDAYS } from './series.schemas.js';

export type SeriesMode = (typeof SERIES_MODES)[number];
export type SeriesScope = (typeof SERIES_SCOPES)[number];

/** The `recurrence` of a create, as far as it passed the schema's types. */
export interface RecurrenceInput {
  frequency?: Frequency | undefined;
  interval?: number | undefined;
  weekdays?: (typeof WEEKDAYS)[number][] | undefined;
  until?: string | undefined;
  count?: number | undefined;
  mode?: SeriesMode | undefined;
}

const isDate = (value: string) => {
  try {
    dateToUtcMs(value);
    return true;
  } catch {
    return false;
  }
};

/**
 * The rule and mode of a `recurrence`, or its errors by field (`recurrence.until`, ...): exactly
 * one of until and count, a real date for until. How many occurrences it makes is checked once
 * the first date is known (tooManyOccurrences).
 */
export function checkRecurrence(input: RecurrenceInput | undefined): {
  errors: FieldErrors;
  rule: RecurrenceRule | undefined;
  mode: SeriesMode;
} {
  const errors: FieldErrors = {};
  const mode = input?.mode ?? 'all_or_nothing';
  if (input === undefined || input === null) {
    return { errors: { recurrence: ['The recurrence field is required.'] }, rule: undefined, mode };
  }
  if (input.frequency === undefined) errors['recurrence.frequency'] = ['The frequency field is required.'];
  const hasUntil = input.until !== undefined && input.until !== null;
  const hasCount = input.count !== undefined && input.count !== null;
  if (hasUntil === hasCount) {
    errors['recurrence.count'] = ['Give either until (a last date) or count (how many), not both.'];
  }
  if (hasUntil && !isDate(input.until!)) {
    errors['recurrence.until'] = ['The until field must be a date such as 2026-12-17.'];
  }
  if (Object.keys(errors).length > 0) return { errors, rule: undefined, mode };
  return {
    errors,
    rule: {
      frequency: input.frequency!,
      interval: input.interval ?? 1,
      weekdays: input.frequency === 'weekly' ? (input.weekdays ?? []) : [],
      until: hasUntil ? input.until : undefined,
      count: hasCount ? input.count : undefined,
    },
    mode,
  };
}

/** The errors of an expanded rule: none before the first date, at most 52. */
export function occurrenceErrors(
  rule: RecurrenceRule,
  firstDate: string,
  occurrences: Occurrence[],
): FieldErrors {
  if (rule.until !== undefined && rule.until < firstDate) {
    return { 'recurrence.until': ['The until date must not be before the first occurrence.'] };
  }
  if (occurrences.length === 0) {
    return { 'recurrence.weekdays': ['The rule gives no occurrence: choose another weekday or date.'] };
  }
  if (occurrences.length > MAX_OCCURRENCES) {
    return {
      'recurrence.until': [
        `A series has at most ${MAX_OCCURRENCES} occurrences: choose an earlier until date.`,
      ],
    };
  }
  return {};
}

/**
 * The occurrences a change of `scope` applies to, in time order: `this` the one booking, `following`
 * it and every later one, `all` every one. Occurrences that are completed or canceled are left
 * out of `following` and `all` (they cannot change); `this` keeps its one (the change refuses it).
 * Undefined when `bookingId` is not an occurrence of the series (or is missing where needed).
 */
export function occurrencesInScope<T extends { id: string; start_time: Date; final: boolean }>(
  occurrences: readonly T[],
  scope: SeriesScope,
  bookingId: string | undefined,
): T[] | undefined {
  if (scope === 'all') return occurrences.filter((o) => !o.final);
  const from = occurrences.find((o) => o.id === bookingId);
  if (!from) return undefined;
  if (scope === 'this') return [from];
  const start = from.start_time.getTime();
  return occurrences.filter((o) => !o.final && (o === from || o.start_time.getTime() > start));
}
