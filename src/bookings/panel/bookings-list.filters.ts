import { customerSearchOf, MAX_SEARCH_LENGTH } from '../../customers/customer-search.rules.js';
import type { FieldErrors } from '../../errors.js';
import type { StatusType } from '../../platform/db/schema.js';
import { addDays, daysBetween } from '../../platform/time/zone.js';
import { isUuid } from '../../platform/uuid.js';
import { isCalendarDate } from '../../schedules/schedules.rules.js';
import type { BookingFilters } from '../bookings.repository.js';

/**
 * The filters of the panel's bookings list, read from its GET form (?status=&staffer=&customer=
 * &location=&from=&to=), into the repository's BookingFilters. Without dates it shows today and
 * the next 7 days; dates are local to each booking's location.
 */

export const STATUS_TYPES: { type: StatusType; label: string }[] = [
  { type: 'new', label: 'New' },
  { type: 'confirmed', label: 'Confirmed' },
  { type: 'custom', label: 'Any custom status' },
  { type: 'completed', label: 'Completed' },
  { type: 'canceled', label: 'Canceled' },
];
export const DEFAULT_DAYS = 7;
export const MAX_DAYS = 366;

const FIELDS = ['status', 'staffer', 'customer', 'location', 'from', 'to'] as const;
export type FilterValues = Record<(typeof FIELDS)[number], string>;

/** The filter fields as typed (strings, trimmed and bounded). */
export function filterValuesOf(query: unknown): FilterValues {
  const out = {} as FilterValues;
  for (const field of FIELDS) {
    const raw = (query as Record<string, unknown> | undefined)?.[field];
    const text = Array.isArray(raw) ? raw[0] : raw;
    out[field] = typeof text === 'string' ? text.trim().slice(0, MAX_SEARCH_LENGTH) : '';
  }
  return out;
}

/** The location whose "today" sets the default dates: the one chosen, when it is a uuid. */
export const chosenLocation = (values: FilterValues) =>
  isUuid(values.location) ? values.location.toLowerCase() : undefined;

export function bookingFiltersOf(
  values: FilterValues,
  today: string,
): { filters: BookingFilters; from: string; to: string; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const filters: BookingFilters = {};
  const uuidOf = (field: keyof FilterValues, value: string, message: string) => {
    if (value === '') return undefined;
    if (isUuid(value)) return value.toLowerCase();
    errors[field] = [message];
    return undefined;
  };

  if (values.status.startsWith('type:')) {
    const type = STATUS_TYPES.find((entry) => `type:${entry.type}` === values.status)?.type;
    if (type) filters.status_type = type;
    else errors.status = ['Choose a status from the list.'];
  } else if (values.status !== '') {
    filters.status_id = uuidOf(
      'status',
      values.status.replace(/^status:/, ''),
      'Choose a status from the list.',
    );
  }
  filters.staffer_uuid = uuidOf('staffer', values.staffer, 'Choose a staffer from the list.');
  filters.location_uuid = uuidOf('location', values.location, 'Choose a location from the list.');
  if (values.customer !== '') {
    if (isUuid(values.customer)) filters.customer_uuid = values.customer.toLowerCase();
    else filters.customer_search = customerSearchOf(values.customer);
  }

  const from = values.from === '' ? today : values.from;
  if (!isCalendarDate(from)) errors.from = ['Enter a date, such as 2026-09-01.'];
  const to = values.to === '' ? (isCalendarDate(from) ? addDays(from, DEFAULT_DAYS) : '') : values.to;
  // No end date after a bad start date: only the start is wrong.
  if (to !== '' && !isCalendarDate(to)) errors.to = ['Enter a date, such as 2026-09-08.'];
  else if (to !== '' && isCalendarDate(from)) {
    const days = daysBetween(from, to);
    if (days < 0) errors.to = ['The end date must be on or after the start date.'];
    else if (days >= MAX_DAYS) errors.to = [`Choose at most ${MAX_DAYS} days.`];
  }
  filters.local_date_from = from;
  filters.local_date_to = to;
  return { filters, from, to, errors };
}
