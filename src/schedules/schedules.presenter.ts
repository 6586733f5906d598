import type { OverrideJson, TimeRangeJson, WeeklyJson } from '../platform/db/schema.js';
import type { ScheduleRow } from './schedules.repository.js';
import { WEEKDAYS } from './schedules.rules.js';

/** A staffer-location pair without a stored row works nowhere: it reads as this. */
export const EMPTY_SCHEDULE = { weekly: {}, breaks: {}, overrides: [] };

// jsonb keeps no key order (it would answer {"to","from"} and fri before mon), so the JSON is
// rebuilt here in the documented order: weekdays mon..sun, ranges {from, to}.
const presentRanges = (ranges: TimeRangeJson[]) => ranges.map(({ from, to }) => ({ from, to }));

function presentWeek(week: WeeklyJson) {
  const out: WeeklyJson = {};
  for (const day of WEEKDAYS) {
    const ranges = week[day];
    if (ranges) out[day] = presentRanges(ranges);
  }
  return out;
}

const presentOverride = (override: OverrideJson): OverrideJson => ({
  date: override.date,
  intervals: presentRanges(override.intervals),
  ...(override.breaks ? { breaks: presentRanges(override.breaks) } : {}),
});

/** `{location_uuid, weekly, breaks, overrides}`: exactly what PUT stored, days and dates as given. */
export function presentSchedule(locationId: string, row: Omit<ScheduleRow, 'location_id'> | undefined) {
  const schedule = row ?? EMPTY_SCHEDULE;
  return {
    location_uuid: locationId,
    weekly: presentWeek(schedule.weekly),
    breaks: presentWeek(schedule.breaks),
    overrides: schedule.overrides.map(presentOverride),
  };
}
