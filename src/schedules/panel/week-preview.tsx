import { addDays, weekdayOf } from '../../platform/time/zone.js';
import type { ScheduleOverride, TimeRange, Weekday, WeekRanges } from '../schedules.rules.js';
import { WEEKDAYS, wallMinutes } from '../schedules.rules.js';

/**
 * A staffer's week at a location as a small grid drawn on the server (7 columns, half-hour rows,
 * working time and breaks shaded), with the same week in words beside it for screen readers and
 * anyone who prefers text. Dates with an override show the override's hours, as the slot engine
 * reads them (src/slots/engine/working-spans.ts: an override replaces the day's hours and breaks).
 */

const DAY_NAMES: Record<Weekday, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};
const STEP = 30;

export interface PreviewDay {
  date: string;
  day: Weekday;
  intervals: TimeRange[];
  breaks: TimeRange[];
  override: boolean;
}

/** The Monday of the week `date` lies in. */
export function mondayOf(date: string): string {
  return addDays(date, -WEEKDAYS.indexOf(weekdayOf(date)));
}

export function weekOf(
  schedule: { weekly: WeekRanges; breaks: WeekRanges; overrides: ScheduleOverride[] },
  monday: string,
): PreviewDay[] {
  return WEEKDAYS.map((day, index) => {
    const date = addDays(monday, index);
    const override = schedule.overrides.find((entry) => entry.date === date);
    return override
      ? { date, day, intervals: override.intervals, breaks: override.breaks ?? [], override: true }
      : {
          date,
          day,
          intervals: schedule.weekly[day] ?? [],
          breaks: schedule.breaks[day] ?? [],
          override: false,
        };
  });
}

/** 09:00–13:00, or 22:00–02:00 (next day) for a range past midnight. */
export function rangeText(range: TimeRange): string {
  const from = wallMinutes(range.from, false) ?? 0;
  const to = wallMinutes(range.to, true) ?? 0;
  return `${range.from}–${range.to}${to <= from && range.to !== '00:00' ? ' (next day)' : ''}`;
}

/** "Mon 09:00–13:00, 14:00–18:00 (break 12:00–12:30)", "Sat off". */
export function dayText(day: PreviewDay): string {
  const name = `${DAY_NAMES[day.day]} ${day.date.slice(8)}`;
  const note = day.override ? ' (changed for this date)' : '';
  if (day.intervals.length === 0) return `${name} off${note}`;
  const breaks =
    day.breaks.length === 0
      ? ''
      : ` (${day.breaks.length === 1 ? 'break' : 'breaks'} ${day.breaks.map(rangeText).join(', ')})`;
  return `${name} ${day.intervals.map(rangeText).join(', ')}${breaks}${note}`;
}

/** A range's minutes on its own day: past midnight it is cut at 24:00. */
function span(range: TimeRange): [number, number] {
  const from = wallMinutes(range.from, false) ?? 0;
  const to = wallMinutes(range.to, true) ?? 0;
  return [from, to <= from ? 1440 : to];
}

function cellKind(day: PreviewDay, start: number): 'work' | 'break' | 'off' {
  const middle = start + STEP / 2;
  const inside = (ranges: TimeRange[]) =>
    ranges.some((range) => {
      const [from, to] = span(range);
      return from <= middle && middle < to;
    });
  if (inside(day.breaks)) return 'break';
  return inside(day.intervals) ? 'work' : 'off';
}

export function WeekPreview(props: { days: PreviewDay[]; today?: string; label: string }) {
  const spans = props.days.flatMap((day) => day.intervals.map(span));
  const first = spans.length === 0 ? 8 * 60 : Math.floor(Math.min(...spans.map((s) => s[0])) / 60) * 60;
  const last = spans.length === 0 ? 18 * 60 : Math.ceil(Math.max(...spans.map((s) => s[1])) / 60) * 60;
  const rows: number[] = [];
  for (let minute = first; minute < last; minute += STEP) rows.push(minute);
  return (
    <figure class="week-preview">
      <figcaption>{props.label}</figcaption>
      <div class="week-grid" aria-hidden="true">
        <span class="wk-time" />
        {props.days.map((day) => (
          <span class={`wk-head${day.date === props.today ? ' today' : ''}`}>
            {DAY_NAMES[day.day]} {day.date.slice(8)}
            {day.override ? '*' : ''}
          </span>
        ))}
        {rows.map((minute) => (
          <>
            <span class="wk-time">
              {minute % 60 === 0 ? `${String(minute / 60).padStart(2, '0')}:00` : ''}
            </span>
            {props.days.map((day) => (
              <span class={`wk-cell ${cellKind(day, minute)}`} />
            ))}
          </>
        ))}
      </div>
      <p class="wk-legend">
        <span class="wk-swatch work" aria-hidden="true" /> Working{' '}
        <span class="wk-swatch break" aria-hidden="true" /> Break{' '}
        <span class="wk-swatch off" aria-hidden="true" /> Not working · * hours changed for that date
      </p>
      <ul class="wk-text">
        {props.days.map((day) => (
          <li>{dayText(day)}</li>
        ))}
      </ul>
    </figure>
  );
}
