import { formatLocalIso, formatMinutes, localDateOf, toUtcIso } from '../platform/time/zone.js';
import type { OccurrenceRow, SeriesView } from './series.repository.js';
import type { WEEKDAYS } from './series.schemas.js';

/** What happened to one occurrence of a create or change (docs/series.md). */
export interface OccurrenceResult {
  date: string;
  start: number;
  result: 'booked' | 'conflict' | 'not_booked';
  bookingId: string | null;
  reason: 'taken' | 'not_on_grid' | 'too_soon' | 'beyond_horizon' | null;
  /** Epoch ms of the nearest free starts that date (conflicts only). */
  nearest: number[];
}

const iso = (value: Date | string) => toUtcIso(new Date(value).getTime());

/** A series as the API presents it: its rule and every occurrence with its state. */
export function presentSeries(series: SeriesView, occurrences: OccurrenceRow[]) {
  const zone = series.timezone;
  return {
    uuid: series.id,
    location_uuid: series.location_id,
    customer_uuid: series.customer_id,
    timezone: zone,
    recurrence: {
      frequency: series.frequency,
      interval: series.interval_count,
      weekdays: series.weekdays === '' ? [] : (series.weekdays.split(',') as (typeof WEEKDAYS)[number][]),
      until: series.until_date,
      count: series.occurrence_count,
      first_date: series.first_date,
      time: formatMinutes(series.wall_minute),
    },
    mode: series.mode,
    is_canceled: series.canceled_at !== null,
    occurrences: occurrences.map((o) => {
      const start = new Date(o.start_time).getTime();
      return {
        booking_uuid: o.id,
        date: localDateOf(start, o.timezone),
        start_time: toUtcIso(start),
        start_time_local: formatLocalIso(start, o.timezone),
        end_time: iso(o.end_time),
        staffer_uuid: o.staffer_id,
        status: { name: o.status_name, type: o.status_type },
        is_canceled: o.status_type === 'canceled',
        is_completed: o.status_type === 'completed',
      };
    }),
    created_at: iso(series.created_at),
    updated_at: iso(series.updated_at),
    canceled_at: series.canceled_at ? iso(series.canceled_at) : null,
  };
}

export type SeriesJsonValue = ReturnType<typeof presentSeries>;

export function presentResult(result: OccurrenceResult, zone: string) {
  return {
    date: result.date,
    start_time: toUtcIso(result.start),
    start_time_local: formatLocalIso(result.start, zone),
    result: result.result,
    booking_uuid: result.bookingId,
    reason: result.reason,
    nearest_free_times: result.nearest.map((start) => ({
      start_time: toUtcIso(start),
      start_time_local: formatLocalIso(start, zone),
    })),
  };
}
