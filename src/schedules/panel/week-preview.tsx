import type { PanelText } from '../../panel-kit/i18n.js';
import { weekdayName } from '../../platform/time/format.js';
import { addDays, weekdayOf } from '../../platform/time/zone.js';
import type { ScheduleOverride, TimeRange, Weekday, WeekRanges } from '../schedules.rules.js';
import { WEEKDAYS, wallMinutes } from '../schedules.rules.js';

/**
 * A staffer's week at a location as a small grid drawn on the server (7 columns, half-hour rows,
 * working time and breaks shaded), with the same week in words beside it for screen readers and
 * anyone who prefers text. Dates with an override show the override's hours, as the slot engine
 * reads them (src/slots/engine/working-spans.ts: an override replaces the day's hours and breaks).
 */

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
export function rangeText(range: TimeRange, text: PanelText): string {
  const from = wallMinutes(range.from, false) ?? 0;
  const to = wallMinutes(range.to, true) ?? 0;
  const plain = `${range.from}–${range.to}`;
  return to <= from && range.to !== '00:00' ? text.t('week.nextDay', { range: plain }) : plain;
}

/** "Mon 02" ("Mo. 02"): the weekday in the reader's language and the day of the month. */
function dayName(day: PreviewDay, text: PanelText): string {
  return `${weekdayName(day.day, text.locale, 'short')} ${day.date.slice(8)}`;
}

/** "Mon 09:00–13:00, 14:00–18:00 (break 12:00–12:30)", "Sat off". */
export function dayText(day: PreviewDay, text: PanelText): string {
  const name = dayName(day, text);
  const ranges = (list: TimeRange[]) => list.map((range) => rangeText(range, text)).join(', ');
  const plain =
    day.intervals.length === 0
      ? text.t('week.off', { day: name })
      : day.breaks.length === 0
        ? text.t('week.hours', { day: name, ranges: ranges(day.intervals) })
        : text.t('week.hoursBreaks', {
            day: name,
            ranges: ranges(day.intervals),
            count: day.breaks.length,
            breaks: ranges(day.breaks),
          });
  return day.override ? text.t('week.changed', { text: plain }) : plain;
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

export function WeekPreview(props: { days: PreviewDay[]; today?: string; label: string; text: PanelText }) {
  const { t } = props.text;
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
            {dayName(day, props.text)}
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
        <span class="wk-swatch work" aria-hidden="true" /> {t('week.working')}{' '}
        <span class="wk-swatch break" aria-hidden="true" /> {t('week.break')}{' '}
        <span class="wk-swatch off" aria-hidden="true" /> {t('week.notWorking')}
      </p>
      <ul class="wk-text">
        {props.days.map((day) => (
          <li>{dayText(day, props.text)}</li>
        ))}
      </ul>
    </figure>
  );
}
