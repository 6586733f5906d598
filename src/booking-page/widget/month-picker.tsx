import { formatDate } from '../../platform/time/format.js';
import { monthWeeks, shiftMonth } from '../calendar-range.js';
import { type PageContext, pageHref } from './state.js';

export interface MonthPickerData {
  /** The month shown, '2026-07'. */
  month: string;
  /** The first and last bookable days (today and the booking horizon, in the customer's zone). */
  today: string;
  last: string;
  /** The day whose slots the page lists. */
  selected: string | undefined;
  /** Open without a click: the customer is paging through months. */
  open: boolean;
  /** The path (after /book/<slug>) of the step's own links. */
  path: string;
}

const monthNames = new Map<string, Intl.DateTimeFormat>();
function monthName(month: string, locale: string): string {
  let format = monthNames.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
    monthNames.set(locale, format);
  }
  return format.format(new Date(`${month}-15T12:00:00Z`));
}

/** Monday to Sunday (2024-01-01 was a Monday), short for the eye and long for screen readers. */
function weekdays(locale: string): { short: string; long: string }[] {
  const short = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const long = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  return Array.from({ length: 7 }, (_, i) => {
    const day = new Date(Date.UTC(2024, 0, 1 + i, 12));
    return { short: short.format(day), long: long.format(day) };
  });
}

/**
 * "Pick a date": a month as a real table of links, one per bookable day, each named with its
 * full date. Plain links and a native <details>, so it works without JavaScript (the island
 * only swaps the content in place); Tab walks the days, Enter opens one.
 */
export function MonthPicker({ ctx, data }: { ctx: PageContext; data: MonthPickerData }) {
  const { t, locale } = ctx;
  const prev = shiftMonth(data.month, -1);
  const next = shiftMonth(data.month, 1);
  const link = (changes: { date?: string; month?: string }) =>
    pageHref(
      ctx.slug,
      ctx.state,
      { from: undefined, date: undefined, month: undefined, ...changes },
      data.path,
    );
  return (
    <details class="month" open={data.open}>
      <summary>{t.pickDate}</summary>
      <nav class="pager" aria-label={t.months}>
        {prev >= data.today.slice(0, 7) ? (
          <a href={link({ month: prev })} data-swap="month-prev">
            {ctx.arrow.back} {monthName(prev, locale)}
          </a>
        ) : (
          <span />
        )}
        {next <= data.last.slice(0, 7) && (
          <a href={link({ month: next })} data-swap="month-next">
            {monthName(next, locale)} {ctx.arrow.forward}
          </a>
        )}
      </nav>
      <table class="cal">
        <caption>{monthName(data.month, locale)}</caption>
        <thead>
          <tr>
            {weekdays(locale).map((day) => (
              <th scope="col" abbr={day.long}>
                {day.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(data.month).map((week) => (
            <tr>
              {week.map((date) => {
                if (date === undefined) return <td />;
                const day = String(Number(date.slice(8)));
                const bookable = date >= data.today && date <= data.last;
                return (
                  <td>
                    {bookable ? (
                      <a
                        href={link({ date })}
                        aria-label={formatDate(date, locale)}
                        aria-current={date === data.selected ? 'date' : undefined}
                        data-swap="1"
                      >
                        {day}
                      </a>
                    ) : (
                      <span class="off">{day}</span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
